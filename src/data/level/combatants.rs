//! The level's combatants: each of a known faction, on a passable cell of
//! the map, alone on it unless it rides a mount there.

use std::collections::HashMap;

use crate::data::error::quoted_list;
use crate::rules::error::DataError;
use crate::rules::level::{CombatantDef, FactionDef};
use crate::rules::map::{Cell, Map};

use super::factions::known_factions;
use super::locator::Source;
use super::raw::RawCombatant;

/// Where combatant `i`'s field `name` is, else its entry, else the list
/// (asked only for an error: it reads the list's tokens).
fn combatant_field(src: &Source, i: usize, name: &str) -> Option<usize> {
    let list = src.field("combatants");
    src.entry_field(&src.entries(list), i, name, list)
}

/// The combatants, checked against the factions and the map.
pub(super) fn read_combatants(
    raw: &[RawCombatant],
    src: &Source,
    map: &Map,
    factions: &[FactionDef],
) -> Result<Vec<CombatantDef>, DataError> {
    let mut combatants: Vec<CombatantDef> = Vec::with_capacity(raw.len());
    let mut occupied: HashMap<Cell, usize> = HashMap::new();
    for (i, c) in raw.iter().enumerate() {
        if !factions.iter().any(|f| f.id == c.faction) {
            return Err(src.error(
                combatant_field(src, i, "faction"),
                format!(
                    "unknown faction `{}`; expected one of {}",
                    c.faction,
                    known_factions(factions)
                ),
            ));
        }
        let at = Cell::new(c.at.0, c.at.1);
        check_place(src, map, i, c, at)?;
        if let Some(mount) = &c.riding {
            check_riding(raw, i, mount)
                .map_err(|msg| src.error(combatant_field(src, i, "riding"), msg))?;
        } else if let Some(&other) = occupied.get(&at) {
            return Err(src.error(
                combatant_field(src, i, "at"),
                format!(
                    "combatant {} (`{}`) at {at} shares its cell with combatant {} (`{}`); expected a free cell",
                    i + 1,
                    c.archetype,
                    other + 1,
                    raw[other].archetype
                ),
            ));
        }
        if c.riding.is_none() {
            occupied.insert(at, i);
        }
        combatants.push(CombatantDef {
            archetype: c.archetype.clone(),
            faction: c.faction.clone(),
            at,
            name: c.name.clone(),
            facing: c.facing,
            overrides: c.overrides.clone(),
            riding: c.riding.clone(),
        });
    }
    Ok(combatants)
}

/// Combatant `i` stands at `at`, on the map and on a passable cell.
fn check_place(
    src: &Source,
    map: &Map,
    i: usize,
    c: &RawCombatant,
    at: Cell,
) -> Result<(), DataError> {
    if !map.in_bounds(at) {
        return Err(src.error(
            combatant_field(src, i, "at"),
            format!(
                "combatant {} (`{}`) at {at} is outside the {}×{} map; expected 0 ≤ x < {} and 0 ≤ y < {}",
                i + 1,
                c.archetype,
                map.width(),
                map.height(),
                map.width(),
                map.height()
            ),
        ));
    }
    let terrain = map.terrain(at);
    if !terrain.passable() {
        return Err(src.error(
            combatant_field(src, i, "at"),
            format!(
                "combatant {} (`{}`) at {at} stands on {}; expected a passable cell",
                i + 1,
                c.archetype,
                terrain.name()
            ),
        ));
    }
    Ok(())
}

/// A rider names a mount of its own faction, by name, that rides nobody
/// itself and stands on the rider's cell.
fn check_riding(all: &[RawCombatant], i: usize, mount: &str) -> Result<(), String> {
    let c = &all[i];
    let Some(m) = all.iter().position(|o| o.name.as_deref() == Some(mount)) else {
        let names: Vec<&str> = all.iter().filter_map(|o| o.name.as_deref()).collect();
        return Err(format!(
            "combatant {} rides `{mount}`, which no combatant is named; expected one of {}",
            i + 1,
            quoted_list(&names)
        ));
    };
    let o = &all[m];
    if m == i {
        return Err(format!(
            "combatant {} rides itself; expected another's name",
            i + 1
        ));
    }
    if o.faction != c.faction {
        return Err(format!(
            "combatant {} rides `{mount}` of faction `{}`; expected a mount of its own faction `{}`",
            i + 1,
            o.faction,
            c.faction
        ));
    }
    if o.riding.is_some() {
        return Err(format!(
            "combatant {} rides `{mount}`, which rides another itself; expected a mount",
            i + 1
        ));
    }
    if o.at != c.at {
        return Err(format!(
            "combatant {} rides `{mount}` at {:?} but stands at {:?}; expected the mount's cell",
            i + 1,
            o.at,
            c.at
        ));
    }
    Ok(())
}
