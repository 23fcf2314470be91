//! The rulesets Fray plays, one plugin per folder, all shaped alike.

pub mod brp;
pub mod data;
pub mod settings;
pub mod skeleton;
pub mod ud10;
pub mod zones;

use bevy::prelude::*;

use std::path::Path;

use crate::rules::battle::RulesetId;
use crate::rules::engine::{Engine, assets_dir};
use crate::rules::error::DataError;

/// Every ruleset Fray knows, in the order the setup screen shows them. The
/// implemented ones also add their plugin in [`plugin`]; the others are
/// named so that a level or a command asking for one is told it is coming.
pub const KNOWN: [RulesetId; 5] = [
    ud10::ID,
    brp::ID,
    RulesetId("osr"),
    zones::ID,
    RulesetId("spelljammer"),
];

/// The known ruleset called `s`.
pub fn parse(s: &str) -> Option<RulesetId> {
    KNOWN.into_iter().find(|r| r.id() == s)
}

/// Add every implemented ruleset.
pub fn plugin(app: &mut App) {
    ud10::plugin(app);
    zones::plugin(app);
    brp::plugin(app);
}

// The composition root: the core never names a ruleset; these put the two
// together.

/// Add the rules core and every implemented ruleset to an app.
pub fn add_rules(app: &mut App) {
    crate::rules::plugin(app);
    plugin(app);
}

/// An engine with every implemented ruleset, its data read from
/// [`assets_dir`].
pub fn engine() -> Result<Engine, DataError> {
    engine_with_assets(&assets_dir())
}

/// An engine with every implemented ruleset, its data read from `dir`.
pub fn engine_with_assets(dir: &Path) -> Result<Engine, DataError> {
    Engine::build(dir, plugin)
}

/// The shape every ruleset folder keeps (docs/architecture.md, "Inside a
/// ruleset's folder"), checked on the sources themselves.
#[cfg(test)]
mod layering {
    use std::path::{Path, PathBuf};

    use crate::sources::rust_files;

    /// The files of `folder` that change the battle: `apply.rs`, and every
    /// file whose code holds a `Scene` (they emit events). By content, not
    /// by a list of names, so a new writer is known as one.
    fn writers(folder: &Path) -> Vec<String> {
        let mut files = Vec::new();
        rust_files(folder, &mut files);
        let mut v: Vec<String> = files
            .iter()
            .filter(|f| f.parent() == Some(folder))
            .filter_map(|f| {
                let stem = f.file_stem()?.to_str()?.to_string();
                let text = std::fs::read_to_string(f).ok()?;
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                let emits = code
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .any(|l| l.contains("Scene"));
                (stem == "apply" || emits).then_some(stem)
            })
            .collect();
        v.sort();
        v
    }

    fn ruleset_folders() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rulesets");
        let mut v: Vec<PathBuf> = std::fs::read_dir(root)
            .expect("src/rulesets")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        v.sort();
        v
    }

    /// The module a `use` line or path names right after the ruleset's
    /// root (`super::attack::x`, `crate::rulesets::zones::gear::y`,
    /// `use super::{attack, check}`).
    fn names_writer(line: &str, id: &str, writing: &[String]) -> Option<String> {
        let own = format!("crate::rulesets::{id}::");
        writing
            .iter()
            .find(|w| {
                let words = |s: &str| {
                    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .any(|t| t == w.as_str())
                };
                line.contains(&format!("super::{w}::"))
                    || line.contains(&format!("super::super::{w}::"))
                    || line.contains(&format!("{own}{w}::"))
                    || (line.trim_start().starts_with("use super::{")
                        && words(line.split_once('{').map_or("", |x| x.1)))
            })
            .cloned()
    }

    #[test]
    fn reading_files_import_no_file_that_writes() {
        let mut bad = Vec::new();
        for folder in ruleset_folders() {
            let id = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let writing = writers(&folder);
            assert!(
                writing.iter().any(|w| w == "execute"),
                "{id}: its writers were found"
            );
            let mut files = Vec::new();
            rust_files(&folder, &mut files);
            for f in files {
                let rel = f
                    .strip_prefix(&folder)
                    .unwrap_or(&f)
                    .to_string_lossy()
                    .to_string();
                let stem = rel.trim_end_matches(".rs");
                let top = stem.split('/').next().unwrap_or(stem);
                if writing.iter().any(|w| w == top) || top == "mod" || top == "tests" {
                    continue;
                }
                let text = std::fs::read_to_string(&f).expect("readable source");
                // Only the code, not its test module.
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                for (n, line) in code.lines().enumerate() {
                    if line.trim_start().starts_with("//") {
                        continue;
                    }
                    if let Some(w) = names_writer(line, id, &writing) {
                        bad.push(format!("{id}/{rel}:{}: reads `{w}`", n + 1));
                    }
                }
            }
        }
        assert!(
            bad.is_empty(),
            "reading files import writing ones:\n{}",
            bad.join("\n")
        );
    }

    #[test]
    fn the_layering_check_sees_an_import_of_a_writer() {
        let writing: Vec<String> = ["attack", "round", "gear"].map(String::from).to_vec();
        let names_writer = |line: &str, id: &str| names_writer(line, id, &writing);
        let w = |s: &str| Some(s.to_string());
        assert_eq!(
            names_writer("use super::attack::execute_attack;", "ud10"),
            w("attack")
        );
        assert_eq!(
            names_writer("use super::{check, round};", "zones"),
            w("round")
        );
        assert_eq!(
            names_writer(
                "    crate::rulesets::zones::gear::aftermath(world)",
                "zones"
            ),
            w("gear")
        );
        assert_eq!(
            names_writer("use super::query::{stats, visible};", "zones"),
            None
        );
        assert_eq!(
            names_writer("use super::state::RULE_ATTACK;", "zones"),
            None
        );
    }
}

#[cfg(test)]
mod validation_tests;
