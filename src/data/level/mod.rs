//! Level files: the map, factions, combatants and victory condition of one
//! battle, read from RON and validated with precise error positions.
//!
//! serde reads the file (`raw`); a forgiving tokenizer (`tokens`) and the
//! `locator` over its tokens find where each part is, so that every check
//! (`checks`, `map`, `factions`, `combatants`, `victory`) names the line and
//! column of what it refuses.

mod checks;
mod combatants;
mod factions;
mod locator;
mod map;
mod raw;
mod tokens;
mod victory;

use std::path::{Path, PathBuf};

use crate::data::error::{parse_ron, read_capped};
use crate::rules::error::DataError;
use crate::rules::level::{Level, Spans};

use checks::{check_names, check_sizes};
use locator::Source;
use raw::RawLevel;

/// Read and validate one level file.
pub fn load_level(path: &Path) -> Result<Level, DataError> {
    let text = read_capped(path)?;
    parse_level(path, &text)
}

/// Parse and validate level `text` read from `file`.
pub fn parse_level(file: &Path, text: &str) -> Result<Level, DataError> {
    let raw: RawLevel = parse_ron(file, text)?;
    let src = Source::new(file, text);
    check_sizes(&raw, &src).map_err(|e| src.found(e))?;
    check_names(&raw, &src).map_err(|e| src.found(e))?;
    let map = map::read_map(&raw.map, &src)?;
    let factions = factions::read_factions(&raw.factions, &src)?;
    let combatants = combatants::read_combatants(&raw.combatants, &src, &map, &factions)?;
    factions::check_each_has_combatants(&factions, &combatants, &src)?;
    victory::check_victory(&raw, &src, &map, &factions)?;
    Ok(Level {
        name: raw.name,
        description: raw.description,
        default_ruleset: raw.default_ruleset,
        rulesets: raw.rulesets,
        map,
        visibility: raw.visibility,
        factions,
        combatants,
        victory: raw.victory,
        max_rounds: raw.max_rounds,
        source: file.to_path_buf(),
        spans: spans(&src),
    })
}

/// Where the level's parts are, for the errors found after loading.
fn spans(src: &Source) -> Spans {
    let (loc, root) = (&src.loc, src.root);
    let combatants = src.entries(src.field("combatants"));
    let mut out = Spans {
        root: root.map(|r| loc.pos_opt(Some(r))),
        ..Spans::default()
    };
    if let Some(r) = root {
        for name in loc.field_names(r) {
            if let Some(t) = loc.field(r, &name) {
                out.fields.insert(name, loc.pos_opt(Some(t)));
            }
        }
    }
    out.combatants = combatants
        .iter()
        .map(|obj| obj.map(|o| loc.entry_spans(o)).unwrap_or_default())
        .collect();
    out
}

/// Every `*.ron` file directly in `dir`, sorted by file name, each loaded.
/// An unreadable directory gives one entry for `dir` with the IO error.
pub fn load_levels(dir: &Path) -> Vec<(PathBuf, Result<Level, DataError>)> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            let error = DataError::new(dir, (0, 0), format!("cannot read directory: {e}"));
            return vec![(dir.to_path_buf(), Err(error))];
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    paths
        .into_iter()
        .map(|p| {
            let level = load_level(&p);
            (p, level)
        })
        .collect()
}

#[cfg(test)]
mod tests;
