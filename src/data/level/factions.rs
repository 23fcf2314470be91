//! The level's factions: at least two, each id once, each colour readable,
//! each with combatants.

use std::collections::BTreeSet;

use crate::data::error::quoted_list;
use crate::rules::error::DataError;
use crate::rules::level::{CombatantDef, FactionDef};

use super::locator::Source;
use super::raw::RawFaction;

/// Where faction `i`'s field `name` is, else its entry, else the list
/// (asked only for an error: it reads the list's tokens).
fn faction_field(src: &Source, i: usize, name: &str) -> Option<usize> {
    let list = src.field("factions");
    src.entry_field(&src.entries(list), i, name, list)
}

/// The factions, checked: at least two, ids unique, colours `"#rrggbb"`.
pub(super) fn read_factions(
    raw: &[RawFaction],
    src: &Source,
) -> Result<Vec<FactionDef>, DataError> {
    if raw.len() < 2 {
        return Err(src.error(
            src.field("factions").or(src.root),
            format!("expected at least two factions but found {}", raw.len()),
        ));
    }
    let mut factions = Vec::with_capacity(raw.len());
    let mut seen_ids = BTreeSet::new();
    for (i, f) in raw.iter().enumerate() {
        if !seen_ids.insert(f.id.as_str()) {
            return Err(src.error(
                faction_field(src, i, "id"),
                format!("faction id `{}` is used twice; expected unique ids", f.id),
            ));
        }
        let colour = parse_colour(&f.colour).ok_or_else(|| {
            src.error(
                faction_field(src, i, "colour"),
                format!(
                    "expected a colour written \"#rrggbb\" (six hex digits) but found \"{}\"",
                    f.colour
                ),
            )
        })?;
        factions.push(FactionDef {
            id: f.id.clone(),
            name: f.name.clone(),
            colour,
            control: f.control,
            starts_fight: f.starts_fight,
            surprised: f.surprised,
        });
    }
    Ok(factions)
}

/// Every faction has at least one combatant.
pub(super) fn check_each_has_combatants(
    factions: &[FactionDef],
    combatants: &[CombatantDef],
    src: &Source,
) -> Result<(), DataError> {
    for (i, f) in factions.iter().enumerate() {
        if !combatants.iter().any(|c| c.faction == f.id) {
            return Err(src.error(
                faction_field(src, i, "id"),
                format!(
                    "faction `{}` has no combatants; expected at least one",
                    f.id
                ),
            ));
        }
    }
    Ok(())
}

/// The factions' ids, quoted, for an error that expects one of them.
pub(super) fn known_factions(factions: &[FactionDef]) -> String {
    let ids: Vec<&str> = factions.iter().map(|f| f.id.as_str()).collect();
    quoted_list(&ids)
}

/// `"#rrggbb"` → `[r, g, b]`.
pub(super) fn parse_colour(s: &str) -> Option<[u8; 3]> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}
