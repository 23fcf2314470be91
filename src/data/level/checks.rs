//! The checks on a whole level that need no map: its limits, its names,
//! and maps written with a key twice.

use std::collections::{BTreeSet, HashMap};

use crate::rules::level::{MAX_COMBATANTS, MAX_FACTIONS, MAX_ROUNDS};

use super::locator::{Found, Locator, Source};
use super::raw::RawLevel;
use super::tokens::Kind;

/// The level's limits (README, "Limits"): factions, combatants, rounds.
pub(super) fn check_sizes(raw: &RawLevel, src: &Source) -> Result<(), Found> {
    let field = |name: &str| src.field(name).or(src.root);
    if raw.factions.len() > MAX_FACTIONS {
        return Err((
            field("factions"),
            format!(
                "{} factions; expected at most {MAX_FACTIONS}",
                raw.factions.len()
            ),
        ));
    }
    if raw.combatants.len() > MAX_COMBATANTS {
        return Err((
            field("combatants"),
            format!(
                "{} combatants; expected at most {MAX_COMBATANTS}",
                raw.combatants.len()
            ),
        ));
    }
    if raw.max_rounds == 0 || raw.max_rounds > MAX_ROUNDS {
        return Err((
            field("max_rounds"),
            format!(
                "expected max_rounds from 1 to {MAX_ROUNDS} but found {}",
                raw.max_rounds
            ),
        ));
    }
    Ok(())
}

/// Names a player reads: no control characters (a NUL, a line break), and
/// no two combatants of one name (the log and the riders tell them apart by
/// it).
pub(super) fn check_names(raw: &RawLevel, src: &Source) -> Result<(), Found> {
    let field = |name: &str| src.field(name).or(src.root);
    let objs = |name: &str| src.entries(field(name));
    let in_obj =
        |objs: &[Option<usize>], i: usize, name: &str| src.entry_field(objs, i, name, None);
    let printable = |s: &str| !s.chars().any(char::is_control);
    let bad = |what: &str, s: &str| {
        format!("{what} {s:?} holds a control character; expected printable text")
    };
    if !printable(&raw.name) {
        return Err((field("name"), bad("the level name", &raw.name)));
    }
    let factions = objs("factions");
    for (i, f) in raw.factions.iter().enumerate() {
        for (name, value) in [("id", &f.id), ("name", &f.name)] {
            if !printable(value) {
                return Err((in_obj(&factions, i, name), bad("faction", value)));
            }
        }
    }
    let combatants = objs("combatants");
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, c) in raw.combatants.iter().enumerate() {
        let Some(name) = c.name.as_deref() else {
            continue;
        };
        if !printable(name) {
            return Err((in_obj(&combatants, i, "name"), bad("the name", name)));
        }
        if let Some(first) = seen.insert(name, i) {
            return Err((
                in_obj(&combatants, i, "name"),
                format!(
                    "combatant {} is named `{name}` like combatant {}; expected a name of its own",
                    i + 1,
                    first + 1
                ),
            ));
        }
    }
    Ok(())
}

/// A map written in the file with a key twice (`'#': Wall, '#': Water`):
/// the loader would silently keep the last, so it is refused.
pub(super) fn check_keys_once(loc: &Locator, map: Option<usize>, what: &str) -> Result<(), Found> {
    let Some(open) = map.filter(|t| loc.kind(*t) == Some(Kind::Punct('{'))) else {
        return Ok(());
    };
    let mut seen = BTreeSet::new();
    for key in loc.items(open) {
        if !seen.insert(loc.slice(key)) {
            return Err((
                Some(key),
                format!(
                    "{what} has the key {} twice; expected each key once",
                    loc.slice(key)
                ),
            ));
        }
    }
    Ok(())
}
