//! The level's map: its terrain grid from the legend, and its zones.

use std::collections::HashMap;

use crate::rules::error::DataError;
use crate::rules::level::MAX_MAP_SIDE;
use crate::rules::map::{Cell, Map, Zone};

use super::checks::check_keys_once;
use super::locator::{At, Locator, Source};
use super::raw::RawMap;

type MapError = (At, String);

/// Reads the map and its zones, each error pointing into the file.
pub(super) fn read_map(raw: &RawMap, src: &Source) -> Result<Map, DataError> {
    let loc = &src.loc;
    let map_obj = src.field("map").and_then(|t| loc.open_of(t));
    let map_pos = |name: &str| {
        map_obj
            .and_then(|m| loc.field(m, name))
            .or(map_obj)
            .or(src.root)
    };
    for (field, tok) in [
        ("legend", map_pos("legend")),
        ("zone_legend", map_pos("zone_legend")),
    ] {
        check_keys_once(loc, tok, field).map_err(|e| src.found(e))?;
    }
    build_map(
        raw,
        loc,
        map_pos("rows"),
        map_pos("zone_rows"),
        map_pos("zone_legend"),
    )
    .map_err(|(at, msg)| src.error_in(at, msg))
}

/// Builds the map and its zones from the raw grid, or says what is wrong.
fn build_map(
    raw: &RawMap,
    loc: &Locator,
    rows_tok: Option<usize>,
    zone_rows_tok: Option<usize>,
    zone_legend_tok: Option<usize>,
) -> Result<Map, MapError> {
    let map = terrain_grid(raw, loc, rows_tok)?;
    if raw.zone_rows.is_empty() && raw.zone_legend.is_empty() {
        return Ok(map);
    }
    let zones = zones(raw, loc, zone_rows_tok, zone_legend_tok)?;
    Ok(map.with_zones(zones))
}

/// The terrain of every cell, from the rows and the legend: rows of equal
/// length, within the size limit, each character in the legend.
fn terrain_grid(raw: &RawMap, loc: &Locator, rows_tok: Option<usize>) -> Result<Map, MapError> {
    let row_toks = rows_tok.map(|t| loc.items(t)).unwrap_or_default();
    let row_tok = |i: usize| row_toks.get(i).copied().or(rows_tok);
    let Some(first) = raw.rows.first() else {
        return Err((
            At::Tok(rows_tok),
            "expected at least one map row".to_string(),
        ));
    };
    let width = first.chars().count();
    if width == 0 {
        return Err((
            At::Tok(row_tok(0)),
            "expected map rows of at least one cell".to_string(),
        ));
    }
    if width > MAX_MAP_SIDE || raw.rows.len() > MAX_MAP_SIDE {
        return Err((
            At::Tok(rows_tok),
            format!(
                "the map is {width}×{} cells; expected at most {MAX_MAP_SIDE} a side",
                raw.rows.len()
            ),
        ));
    }
    let legend_keys: Vec<String> = raw.legend.keys().map(|c| format!("'{c}'")).collect();
    let mut terrain = Vec::with_capacity(width * raw.rows.len());
    for (y, row) in raw.rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            return Err((
                At::Tok(row_tok(y)),
                format!(
                    "map row {} has {len} cells but row 1 has {width}; expected rows of equal length",
                    y + 1
                ),
            ));
        }
        for (x, ch) in row.chars().enumerate() {
            match raw.legend.get(&ch) {
                Some(&t) => terrain.push(t),
                None => {
                    return Err((
                        At::Char(row_tok(y), x),
                        format!(
                            "expected a terrain character from the legend ({}) but found '{ch}' at cell ({x},{y})",
                            legend_keys.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    let (Ok(w), Ok(h)) = (i32::try_from(width), i32::try_from(raw.rows.len())) else {
        return Err((At::Tok(rows_tok), "the map is too large".to_string()));
    };
    Ok(Map::new(w, h, terrain))
}

/// The zones, in the order of their legend characters: one zone row per
/// map row, each zone named once and drawn on at least one cell.
fn zones(
    raw: &RawMap,
    loc: &Locator,
    zone_rows_tok: Option<usize>,
    zone_legend_tok: Option<usize>,
) -> Result<Vec<Zone>, MapError> {
    let zone_row_toks = zone_rows_tok.map(|t| loc.items(t)).unwrap_or_default();
    let zone_row_tok = |i: usize| zone_row_toks.get(i).copied().or(zone_rows_tok);
    let legend_key_tok = |ch: char| {
        zone_legend_tok
            .map(|t| loc.items(t))
            .unwrap_or_default()
            .into_iter()
            .find(|&k| loc.char_value(k) == Some(ch))
            .or(zone_legend_tok)
    };
    if raw.zone_rows.len() != raw.rows.len() {
        return Err((
            At::Tok(zone_rows_tok),
            format!(
                "expected {} zone rows (one per map row) but found {}",
                raw.rows.len(),
                raw.zone_rows.len()
            ),
        ));
    }
    check_zone_names(raw, &legend_key_tok)?;
    let cells = zone_cells(raw, &zone_row_tok)?;
    let mut zones = Vec::with_capacity(raw.zone_legend.len());
    for ((ch, name), cells) in raw.zone_legend.iter().zip(cells) {
        if cells.is_empty() {
            return Err((
                At::Tok(legend_key_tok(*ch)),
                format!("zone '{ch}' (\"{name}\") has no cells; expected it drawn in zone_rows"),
            ));
        }
        zones.push(Zone {
            name: name.clone(),
            cells,
        });
    }
    Ok(zones)
}

/// Each zone of the legend has a name, and no two share one.
fn check_zone_names(
    raw: &RawMap,
    legend_key_tok: &impl Fn(char) -> Option<usize>,
) -> Result<(), MapError> {
    let mut names_seen: HashMap<&str, char> = HashMap::new();
    for (&ch, name) in &raw.zone_legend {
        if name.is_empty() {
            return Err((
                At::Tok(legend_key_tok(ch)),
                format!("zone '{ch}' has an empty name; expected a name"),
            ));
        }
        if let Some(&other) = names_seen.get(name.as_str()) {
            return Err((
                At::Tok(legend_key_tok(ch)),
                format!(
                    "zones '{other}' and '{ch}' are both named \"{name}\"; expected unique zone names"
                ),
            ));
        }
        names_seen.insert(name, ch);
    }
    Ok(())
}

/// The cells of each zone, in the legend's order, read from the zone rows.
fn zone_cells(
    raw: &RawMap,
    zone_row_tok: &impl Fn(usize) -> Option<usize>,
) -> Result<Vec<Vec<Cell>>, MapError> {
    let width = raw.rows.first().map_or(0, |r| r.chars().count());
    let zone_chars: Vec<char> = raw.zone_legend.keys().copied().collect();
    let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); zone_chars.len()];
    for (y, row) in raw.zone_rows.iter().enumerate() {
        let len = row.chars().count();
        if len != width {
            return Err((
                At::Tok(zone_row_tok(y)),
                format!(
                    "zone row {} has {len} characters; expected {width} like the map rows",
                    y + 1
                ),
            ));
        }
        for (x, ch) in row.chars().enumerate() {
            if let Some(z) = zone_chars.iter().position(|&k| k == ch) {
                cells[z].push(Cell::new(x as i32, y as i32));
            } else if ch != ' ' && ch != '.' {
                let keys: Vec<String> = zone_chars.iter().map(|c| format!("'{c}'")).collect();
                return Err((
                    At::Char(zone_row_tok(y), x),
                    format!(
                        "expected a zone character from the zone_legend ({}) or ' ' or '.' for no zone, but found '{ch}' at cell ({x},{y})",
                        keys.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(cells)
}
