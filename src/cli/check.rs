//! `fray check`: level files and ruleset data, validated as the game and
//! the other commands would load them.

use std::path::{Path, PathBuf};

use super::args::{load, pick_ruleset};
use crate::rules::battle::RulesetId;
use crate::rules::engine::{Engine, StartOptions, supported_rulesets, validate};

/// `fray check`'s arguments.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// The `.ron` files directly in `dir`, sorted.
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The ruleset a data folder belongs to: `.../rulesets/<id>`.
fn ruleset_folder(dir: &Path) -> Option<RulesetId> {
    let name = dir.file_name()?.to_str()?;
    let parent = dir.parent()?.file_name()?.to_str()?;
    (parent == "rulesets")
        .then(|| crate::rulesets::parse(name))
        .flatten()
}

/// Check each file or folder and print one line for each file.
pub(super) fn run(a: &CheckArgs) -> Result<(), String> {
    let paths = &a.paths;
    let mut failures = 0usize;
    let mut checked = 0usize;
    let engine = crate::rulesets::engine();
    let mut report = |path: &Path, r: Result<String, String>| match r {
        Ok(note) => {
            checked += 1;
            say!("ok    {}{}", path.display(), note);
        }
        Err(e) => {
            checked += 1;
            failures += 1;
            say!("ERROR {e}");
        }
    };
    for p in paths {
        if p.is_dir() {
            if let Some(id) = ruleset_folder(p) {
                report(p, check_ruleset_dir(&engine, id, p));
                continue;
            }
            let files = ron_files(p);
            if files.is_empty() {
                report(p, Err(format!("{}: no .ron files here", p.display())));
            }
            for f in files {
                let r = check_level(&engine, &f);
                report(&f, r);
            }
        } else if let Some(id) = p.parent().and_then(ruleset_folder) {
            let r = check_ruleset_dir(&engine, id, p.parent().unwrap_or(p));
            report(p, r);
        } else {
            let r = check_level(&engine, p);
            report(p, r);
        }
    }
    if failures > 0 {
        return Err(format!("{failures} of {checked} files have errors"));
    }
    Ok(())
}

/// A ruleset's data folder, checked by the ruleset's own loader.
fn check_ruleset_dir(
    engine: &Result<Engine, crate::rules::error::DataError>,
    id: RulesetId,
    dir: &Path,
) -> Result<String, String> {
    let engine = engine.as_ref().map_err(|e| e.to_string())?;
    let hooks = engine
        .world()
        .resource::<crate::rules::hooks::RulesetRegistry>()
        .get(id)
        .ok_or_else(|| format!("{}: the {id} ruleset is not implemented yet", dir.display()))?;
    (hooks.check_data)(dir)
        .map(|_| String::new())
        .map_err(|e| e.to_string())
}

/// A level file: loaded, valid under its default ruleset, and set up
/// under every ruleset it plays.
fn check_level(
    engine: &Result<Engine, crate::rules::error::DataError>,
    path: &Path,
) -> Result<String, String> {
    let level = load(path)?;
    let engine = engine.as_ref().map_err(|e| e.to_string())?;
    // The level must play under its default ruleset: the same validation
    // `simulate`, `log`, `play` and the game make.
    let default = pick_ruleset(&level, None)?;
    validate(engine.world(), &level, default).map_err(|e| e.to_string())?;
    let supported = supported_rulesets(engine.world(), &level);
    // Every supported ruleset must be able to set the battle up.
    let mut scratch = crate::rulesets::engine().map_err(|e| e.to_string())?;
    for r in &supported {
        scratch
            .start(&level, *r, &StartOptions::default())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(format!(
        "  ({}; plays under {})",
        level.name,
        supported
            .iter()
            .map(|r| r.id())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
