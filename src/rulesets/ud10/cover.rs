//! Cover between an attacker and a defender (§Taking Cover), from the
//! terrain. Reads only.

use crate::rules::map::{Cell, Map, Terrain};

use super::settings::Ud10Settings;

pub const RULE_COVER: &str = "ud10 §Taking Cover";

/// Cover between an attacker and a defender (§Taking Cover: "the cover is a
/// bonus to the character's defense rating"). Fray assigns the rating from
/// the terrain: the best cover the line of fire crosses next to the defender,
/// or low cover the defender stands in.
pub fn cover(map: &Map, s: &Ud10Settings, from: Cell, at: Cell) -> Option<(&'static str, i32)> {
    let mut best: Option<(&'static str, i32)> = None;
    let mut consider = |t: Terrain| {
        let c = match t {
            Terrain::LowCover => Some(("low cover", s.low_cover)),
            Terrain::HighCover => Some(("high cover", s.high_cover)),
            _ => None,
        };
        if let Some(c) = c
            && best.is_none_or(|b| c.1 > b.1)
        {
            best = Some(c);
        }
    };
    consider(map.terrain(at));
    for c in map.line_end(from, at) {
        consider(map.terrain(c));
    }
    best
}

/// Is there cover on `at` or on a cell touching it? [`cover`] finds none
/// from anywhere when there is not: it looks at `at` and at the cells of
/// the line of fire that touch it.
pub fn cover_near(map: &Map, at: Cell) -> bool {
    map.near_any(at, &[Terrain::LowCover, Terrain::HighCover])
}
