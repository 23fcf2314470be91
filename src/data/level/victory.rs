//! The level's victory condition: the faction and zone it names exist, a
//! zone to hold has a cell to stand on, and its rounds can come.

use crate::data::error::quoted_list;
use crate::rules::error::DataError;
use crate::rules::level::{FactionDef, Victory};
use crate::rules::map::Map;

use super::factions::known_factions;
use super::locator::Source;
use super::raw::RawLevel;

/// Where the victory's field `name` is, else the victory, else the level.
fn victory_field(src: &Source, name: &str) -> Option<usize> {
    let victory_obj = src
        .field("victory")
        .map(|t| src.loc.open_of(t).unwrap_or(t));
    victory_obj
        .and_then(|v| src.loc.field(v, name))
        .or(victory_obj)
        .or(src.root)
}

/// The victory condition names what the level holds and can be met.
pub(super) fn check_victory(
    raw: &RawLevel,
    src: &Source,
    map: &Map,
    factions: &[FactionDef],
) -> Result<(), DataError> {
    match &raw.victory {
        Victory::LastStanding => {}
        Victory::Survive { faction, rounds } => {
            check_faction(src, factions, faction)?;
            check_rounds(src, raw.max_rounds, *rounds)?;
        }
        Victory::HoldZone {
            faction,
            zone,
            rounds,
        } => {
            check_faction(src, factions, faction)?;
            check_zone(src, map, zone)?;
            check_rounds(src, raw.max_rounds, *rounds)?;
        }
    }
    Ok(())
}

/// The victory's faction is one of the level's.
fn check_faction(src: &Source, factions: &[FactionDef], faction: &str) -> Result<(), DataError> {
    if factions.iter().any(|f| f.id == faction) {
        Ok(())
    } else {
        Err(src.error(
            victory_field(src, "faction"),
            format!(
                "victory names unknown faction `{faction}`; expected one of {}",
                known_factions(factions)
            ),
        ))
    }
}

/// The victory's rounds are at least one and come before the battle is a
/// draw.
fn check_rounds(src: &Source, max_rounds: u32, rounds: u32) -> Result<(), DataError> {
    if rounds == 0 {
        Err(src.error(
            victory_field(src, "rounds"),
            "expected victory rounds of at least 1 but found 0".to_string(),
        ))
    } else if rounds > max_rounds {
        Err(src.error(
            victory_field(src, "rounds"),
            format!(
                "victory after {rounds} rounds can never come: the battle is a draw after max_rounds {max_rounds}; expected at most {max_rounds}"
            ),
        ))
    } else {
        Ok(())
    }
}

/// The zone to hold is one of the map's, with a cell to stand on.
fn check_zone(src: &Source, map: &Map, zone: &str) -> Result<(), DataError> {
    if map.zone_index(zone).is_none() {
        let names: Vec<&str> = map.zones().iter().map(|z| z.name.as_str()).collect();
        let expected = if names.is_empty() {
            "the map defines no zones; draw them with zone_legend and zone_rows".to_string()
        } else {
            format!("expected one of {}", quoted_list(&names))
        };
        return Err(src.error(
            victory_field(src, "zone"),
            format!("victory names unknown zone `{zone}`; {expected}"),
        ));
    }
    // A zone nobody can stand in can never be held.
    let standable = map
        .zone_index(zone)
        .and_then(|i| map.zones().get(i))
        .is_some_and(|z| z.cells.iter().any(|c| map.terrain(*c).passable()));
    if !standable {
        return Err(src.error(
            victory_field(src, "zone"),
            format!(
                "victory asks to hold zone `{zone}`, where nobody can stand; expected a zone with a passable cell"
            ),
        ));
    }
    Ok(())
}
