//! Level files: the map, factions, combatants and victory condition of one
//! battle, read from RON and validated with precise error positions.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::data::error::{line_col, parse_ron, quoted_list, read_capped};
use crate::rules::error::DataError;
use crate::rules::map::{Cell, Map, Terrain, Zone};

use crate::rules::level::{
    CombatantDef, Control, DEFAULT_MAX_ROUNDS, EntrySpans, Facing, FactionDef, Level,
    MAX_COMBATANTS, MAX_FACTIONS, MAX_MAP_SIDE, MAX_ROUNDS, Overrides, Spans, Victory, Visibility,
};

fn default_max_rounds() -> u32 {
    DEFAULT_MAX_ROUNDS
}

#[derive(Deserialize)]
#[serde(rename = "Level", deny_unknown_fields)]
struct RawLevel {
    name: String,
    #[serde(default)]
    description: String,
    default_ruleset: String,
    #[serde(default)]
    rulesets: Vec<String>,
    map: RawMap,
    #[serde(default)]
    visibility: Visibility,
    factions: Vec<RawFaction>,
    combatants: Vec<RawCombatant>,
    victory: Victory,
    #[serde(default = "default_max_rounds")]
    max_rounds: u32,
}

#[derive(Deserialize)]
#[serde(rename = "Map", deny_unknown_fields)]
struct RawMap {
    legend: BTreeMap<char, Terrain>,
    rows: Vec<String>,
    #[serde(default)]
    zone_legend: BTreeMap<char, String>,
    #[serde(default)]
    zone_rows: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename = "Faction", deny_unknown_fields)]
struct RawFaction {
    id: String,
    name: String,
    colour: String,
    control: Control,
    #[serde(default)]
    starts_fight: bool,
    #[serde(default)]
    surprised: bool,
}

#[derive(Deserialize)]
#[serde(rename = "Combatant", deny_unknown_fields)]
struct RawCombatant {
    archetype: String,
    faction: String,
    at: (i32, i32),
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    facing: Option<Facing>,
    #[serde(default)]
    overrides: Overrides,
    #[serde(default)]
    riding: Option<String>,
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

/// Read and validate one level file.
pub fn load_level(path: &Path) -> Result<Level, DataError> {
    let text = read_capped(path)?;
    parse_level(path, &text)
}

/// Parse and validate level `text` read from `file`.
pub fn parse_level(file: &Path, text: &str) -> Result<Level, DataError> {
    let raw: RawLevel = parse_ron(file, text)?;
    let loc = Locator::new(text);
    let err = |pos: (usize, usize), msg: String| DataError::new(file, pos, msg);

    let root = loc.root();
    let map_obj = root
        .and_then(|r| loc.field(r, "map"))
        .and_then(|t| loc.open_of(t));
    let map_pos = |name: &str| {
        map_obj
            .and_then(|m| loc.field(m, name))
            .or(map_obj)
            .or(root)
    };

    check_sizes(&raw, &loc, root).map_err(|(t, msg)| err(loc.pos_opt(t), msg))?;
    check_names(&raw, &loc, root).map_err(|(t, msg)| err(loc.pos_opt(t), msg))?;
    for (field, tok) in [
        ("legend", map_pos("legend")),
        ("zone_legend", map_pos("zone_legend")),
    ] {
        check_keys_once(&loc, tok, field).map_err(|(t, msg)| err(loc.pos_opt(t), msg))?;
    }
    let map = build_map(
        &raw.map,
        &loc,
        map_pos("rows"),
        map_pos("zone_rows"),
        map_pos("zone_legend"),
    )
    .map_err(|(tok, msg)| err(loc.pos_in(tok), msg))?;

    // Factions.
    let factions_tok = root.and_then(|r| loc.field(r, "factions"));
    let faction_objs: Vec<Option<usize>> = factions_tok
        .map(|t| loc.items(t))
        .unwrap_or_default()
        .into_iter()
        .map(|t| loc.open_of(t))
        .collect();
    let faction_field = |i: usize, name: &str| {
        let obj = faction_objs.get(i).copied().flatten();
        obj.and_then(|o| loc.field(o, name))
            .or(obj)
            .or(factions_tok)
    };
    if raw.factions.len() < 2 {
        return Err(err(
            loc.pos_opt(factions_tok.or(root)),
            format!(
                "expected at least two factions but found {}",
                raw.factions.len()
            ),
        ));
    }
    let mut factions = Vec::with_capacity(raw.factions.len());
    let mut seen_ids = BTreeSet::new();
    for (i, f) in raw.factions.iter().enumerate() {
        if !seen_ids.insert(f.id.as_str()) {
            return Err(err(
                loc.pos_opt(faction_field(i, "id")),
                format!("faction id `{}` is used twice; expected unique ids", f.id),
            ));
        }
        let colour = parse_colour(&f.colour).ok_or_else(|| {
            err(
                loc.pos_opt(faction_field(i, "colour")),
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
    let known_factions = || {
        let ids: Vec<&str> = factions.iter().map(|f| f.id.as_str()).collect();
        quoted_list(&ids)
    };

    // Combatants.
    let combatants_tok = root.and_then(|r| loc.field(r, "combatants"));
    let combatant_objs: Vec<Option<usize>> = combatants_tok
        .map(|t| loc.items(t))
        .unwrap_or_default()
        .into_iter()
        .map(|t| loc.open_of(t))
        .collect();
    let combatant_field = |i: usize, name: &str| {
        let obj = combatant_objs.get(i).copied().flatten();
        obj.and_then(|o| loc.field(o, name))
            .or(obj)
            .or(combatants_tok)
    };
    let mut combatants: Vec<CombatantDef> = Vec::with_capacity(raw.combatants.len());
    let mut occupied: HashMap<Cell, usize> = HashMap::new();
    for (i, c) in raw.combatants.iter().enumerate() {
        if !seen_ids.contains(c.faction.as_str()) {
            return Err(err(
                loc.pos_opt(combatant_field(i, "faction")),
                format!(
                    "unknown faction `{}`; expected one of {}",
                    c.faction,
                    known_factions()
                ),
            ));
        }
        let at = Cell::new(c.at.0, c.at.1);
        let at_pos = loc.pos_opt(combatant_field(i, "at"));
        if !map.in_bounds(at) {
            return Err(err(
                at_pos,
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
            return Err(err(
                at_pos,
                format!(
                    "combatant {} (`{}`) at {at} stands on {}; expected a passable cell",
                    i + 1,
                    c.archetype,
                    terrain.name()
                ),
            ));
        }
        if let Some(mount) = &c.riding {
            check_riding(&raw.combatants, i, mount)
                .map_err(|msg| err(loc.pos_opt(combatant_field(i, "riding")), msg))?;
        } else if let Some(&other) = occupied.get(&at) {
            return Err(err(
                at_pos,
                format!(
                    "combatant {} (`{}`) at {at} shares its cell with combatant {} (`{}`); expected a free cell",
                    i + 1,
                    c.archetype,
                    other + 1,
                    raw.combatants[other].archetype
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
    for (i, f) in factions.iter().enumerate() {
        if !combatants.iter().any(|c| c.faction == f.id) {
            return Err(err(
                loc.pos_opt(faction_field(i, "id")),
                format!(
                    "faction `{}` has no combatants; expected at least one",
                    f.id
                ),
            ));
        }
    }

    // Victory and limits.
    let victory_obj = root
        .and_then(|r| loc.field(r, "victory"))
        .map(|t| loc.open_of(t).unwrap_or(t));
    let victory_pos = |name: &str| {
        loc.pos_opt(
            victory_obj
                .and_then(|v| loc.field(v, name))
                .or(victory_obj)
                .or(root),
        )
    };
    let check_faction = |faction: &str| {
        if seen_ids.contains(faction) {
            Ok(())
        } else {
            Err(err(
                victory_pos("faction"),
                format!(
                    "victory names unknown faction `{faction}`; expected one of {}",
                    known_factions()
                ),
            ))
        }
    };
    let check_rounds = |rounds: u32| {
        if rounds == 0 {
            Err(err(
                victory_pos("rounds"),
                "expected victory rounds of at least 1 but found 0".to_string(),
            ))
        } else if rounds > raw.max_rounds {
            Err(err(
                victory_pos("rounds"),
                format!(
                    "victory after {rounds} rounds can never come: the battle is a draw after max_rounds {}; expected at most {}",
                    raw.max_rounds, raw.max_rounds
                ),
            ))
        } else {
            Ok(())
        }
    };
    match &raw.victory {
        Victory::LastStanding => {}
        Victory::Survive { faction, rounds } => {
            check_faction(faction)?;
            check_rounds(*rounds)?;
        }
        Victory::HoldZone {
            faction,
            zone,
            rounds,
        } => {
            check_faction(faction)?;
            if map.zone_index(zone).is_none() {
                let names: Vec<&str> = map.zones().iter().map(|z| z.name.as_str()).collect();
                let expected = if names.is_empty() {
                    "the map defines no zones; draw them with zone_legend and zone_rows".to_string()
                } else {
                    format!("expected one of {}", quoted_list(&names))
                };
                return Err(err(
                    victory_pos("zone"),
                    format!("victory names unknown zone `{zone}`; {expected}"),
                ));
            }
            // A zone nobody can stand in can never be held.
            let standable = map
                .zone_index(zone)
                .and_then(|i| map.zones().get(i))
                .is_some_and(|z| z.cells.iter().any(|c| map.terrain(*c).passable()));
            if !standable {
                return Err(err(
                    victory_pos("zone"),
                    format!(
                        "victory asks to hold zone `{zone}`, where nobody can stand; expected a zone with a passable cell"
                    ),
                ));
            }
            check_rounds(*rounds)?;
        }
    }

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
        spans: spans(&loc, root, &combatant_objs),
    })
}

type Found = (Option<usize>, String);

/// The level's limits (README, "Limits"): factions, combatants, rounds.
fn check_sizes(raw: &RawLevel, loc: &Locator, root: Option<usize>) -> Result<(), Found> {
    let field = |name: &str| root.and_then(|r| loc.field(r, name)).or(root);
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
fn check_names(raw: &RawLevel, loc: &Locator, root: Option<usize>) -> Result<(), Found> {
    let field = |name: &str| root.and_then(|r| loc.field(r, name)).or(root);
    let objs = |name: &str| -> Vec<Option<usize>> {
        field(name)
            .map(|t| loc.items(t))
            .unwrap_or_default()
            .into_iter()
            .map(|t| loc.open_of(t))
            .collect()
    };
    let in_obj = |objs: &[Option<usize>], i: usize, name: &str| {
        let o = objs.get(i).copied().flatten();
        o.and_then(|o| loc.field(o, name)).or(o)
    };
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
fn check_keys_once(loc: &Locator, map: Option<usize>, what: &str) -> Result<(), Found> {
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

/// Where the level's parts are, for the errors found after loading.
fn spans(loc: &Locator, root: Option<usize>, combatants: &[Option<usize>]) -> Spans {
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

/// `"#rrggbb"` → `[r, g, b]`.
fn parse_colour(s: &str) -> Option<[u8; 3]> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// Where an error points: a token, optionally a character inside a string token.
#[derive(Clone, Copy, Debug)]
enum At {
    Tok(Option<usize>),
    Char(Option<usize>, usize),
}

type MapError = (At, String);

/// Builds the map and its zones from the raw grid, or says what is wrong.
fn build_map(
    raw: &RawMap,
    loc: &Locator,
    rows_tok: Option<usize>,
    zone_rows_tok: Option<usize>,
    zone_legend_tok: Option<usize>,
) -> Result<Map, MapError> {
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
    let map = Map::new(w, h, terrain);
    if raw.zone_rows.is_empty() && raw.zone_legend.is_empty() {
        return Ok(map);
    }

    // Zones, in the order of their legend characters.
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
    let zone_chars: Vec<char> = raw.zone_legend.keys().copied().collect();
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
    let mut zones = Vec::with_capacity(zone_chars.len());
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
    Ok(map.with_zones(zones))
}

/// Kinds of token the locator distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Str,
    /// A plain string without escapes: its characters map 1:1 onto the file.
    PlainStr,
    Char,
    Punct(char),
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
}

/// A forgiving RON tokenizer used only to find where things are, after serde
/// has already accepted the file. Skips whitespace and comments.
struct Locator<'a> {
    text: &'a str,
    toks: Vec<Tok>,
}

impl<'a> Locator<'a> {
    fn new(text: &'a str) -> Self {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let at = |i: usize| chars.get(i).map(|&(_, c)| c);
        let offset = |i: usize| chars.get(i).map_or(text.len(), |&(o, _)| o);
        let mut toks = Vec::new();
        let mut i = 0;
        while let Some(c) = at(i) {
            let start = i;
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            if c == '/' && at(i + 1) == Some('/') {
                while at(i).is_some_and(|c| c != '\n') {
                    i += 1;
                }
                continue;
            }
            if c == '/' && at(i + 1) == Some('*') {
                let mut depth = 0usize;
                while let Some(c) = at(i) {
                    if c == '/' && at(i + 1) == Some('*') {
                        depth += 1;
                        i += 2;
                    } else if c == '*' && at(i + 1) == Some('/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            let kind = if c == '"' {
                i += 1;
                let mut plain = true;
                while let Some(c) = at(i) {
                    i += 1;
                    if c == '\\' {
                        plain = false;
                        i += 1;
                    } else if c == '"' {
                        break;
                    }
                }
                if plain { Kind::PlainStr } else { Kind::Str }
            } else if c == 'r' && matches!(at(i + 1), Some('"' | '#')) {
                let mut hashes = 0;
                i += 1;
                while at(i) == Some('#') {
                    hashes += 1;
                    i += 1;
                }
                i += 1; // opening quote
                while let Some(c) = at(i) {
                    i += 1;
                    if c == '"' && (0..hashes).all(|k| at(i + k) == Some('#')) {
                        i += hashes;
                        break;
                    }
                }
                Kind::Str
            } else if c == '\'' {
                i += 1;
                if at(i) == Some('\\') {
                    i += 2;
                    while at(i).is_some_and(|c| c != '\'') {
                        i += 1;
                    }
                } else {
                    i += 1;
                }
                i += 1; // closing quote
                Kind::Char
            } else if c.is_alphanumeric() || c == '_' {
                while at(i).is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    i += 1;
                }
                Kind::Ident
            } else {
                i += 1;
                Kind::Punct(c)
            };
            toks.push(Tok {
                kind,
                start: offset(start),
                end: offset(i),
            });
        }
        Locator { text, toks }
    }

    fn kind(&self, t: usize) -> Option<Kind> {
        self.toks.get(t).map(|t| t.kind)
    }

    fn is_open(&self, t: usize) -> bool {
        matches!(self.kind(t), Some(Kind::Punct('(' | '[' | '{')))
    }

    fn is_close(&self, t: usize) -> bool {
        matches!(self.kind(t), Some(Kind::Punct(')' | ']' | '}')))
    }

    /// The opening `(` of the top-level value, after any `#![...]` attributes
    /// and an optional struct name.
    fn root(&self) -> Option<usize> {
        let mut t = 0;
        while self.kind(t) == Some(Kind::Punct('#')) {
            while self.kind(t).is_some() && self.kind(t) != Some(Kind::Punct('[')) {
                t += 1;
            }
            t = self.matching(t)? + 1;
        }
        self.open_of(t)
    }

    /// The token closing the bracket opened at `open`.
    fn matching(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for t in open..self.toks.len() {
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(t);
                }
            }
        }
        None
    }

    /// For a value starting at `t` that is `(…)` or `Name(…)`, the `(`.
    fn open_of(&self, t: usize) -> Option<usize> {
        match self.kind(t)? {
            Kind::Punct('(') => Some(t),
            Kind::Ident if self.kind(t + 1) == Some(Kind::Punct('(')) => Some(t + 1),
            _ => None,
        }
    }

    /// First tokens of the elements directly inside the bracket at `open`
    /// (for a map, its keys).
    fn items(&self, open: usize) -> Vec<usize> {
        let mut out = Vec::new();
        if !self.is_open(open) {
            return out;
        }
        let mut depth = 0usize;
        let mut expect = true;
        for t in open + 1..self.toks.len() {
            if depth == 0 {
                if self.is_close(t) {
                    break;
                }
                if self.kind(t) == Some(Kind::Punct(',')) {
                    expect = true;
                    continue;
                }
                if expect {
                    out.push(t);
                    expect = false;
                }
            }
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth -= 1;
            }
        }
        out
    }

    /// The first token of the value of field `name` directly inside the
    /// struct opened at `open`.
    fn field(&self, open: usize, name: &str) -> Option<usize> {
        let close = self.matching(open)?;
        let mut depth = 0usize;
        for t in open + 1..close {
            if depth == 0
                && self.kind(t) == Some(Kind::Ident)
                && self.kind(t + 1) == Some(Kind::Punct(':'))
                && self.slice(t) == name
            {
                return Some(t + 2);
            }
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth = depth.saturating_sub(1);
            }
        }
        None
    }

    /// The names of the fields directly inside the struct opened at `open`.
    fn field_names(&self, open: usize) -> Vec<String> {
        let Some(close) = self.matching(open) else {
            return Vec::new();
        };
        let mut depth = 0usize;
        let mut out = Vec::new();
        for t in open + 1..close {
            if depth == 0
                && self.kind(t) == Some(Kind::Ident)
                && self.kind(t + 1) == Some(Kind::Punct(':'))
            {
                out.push(self.slice(t).to_string());
            }
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth = depth.saturating_sub(1);
            }
        }
        out
    }

    /// Where the entry opened at `open` is, and the fields and strings in it.
    fn entry_spans(&self, open: usize) -> EntrySpans {
        let mut out = EntrySpans {
            at: Some(
                self.pos_opt(
                    Some(open.saturating_sub(1))
                        .filter(|t| self.kind(*t) == Some(Kind::Ident))
                        .or(Some(open)),
                ),
            ),
            ..EntrySpans::default()
        };
        let close = self.matching(open).unwrap_or(open);
        for t in open + 1..close {
            match self.kind(t) {
                Some(Kind::Ident) if self.kind(t + 1) == Some(Kind::Punct(':')) => {
                    out.fields
                        .entry(self.slice(t).to_string())
                        .or_insert_with(|| self.pos_opt(Some(t + 2)));
                }
                Some(Kind::Str | Kind::PlainStr) => {
                    let text = self.slice(t);
                    let inner = text
                        .strip_prefix('"')
                        .and_then(|x| x.strip_suffix('"'))
                        .unwrap_or(text);
                    out.strings.push((inner.to_string(), self.pos_opt(Some(t))));
                }
                _ => {}
            }
        }
        out
    }

    fn slice(&self, t: usize) -> &'a str {
        self.toks
            .get(t)
            .and_then(|t| self.text.get(t.start..t.end))
            .unwrap_or("")
    }

    /// The character of a `'c'` literal token without escapes.
    fn char_value(&self, t: usize) -> Option<char> {
        if self.kind(t) != Some(Kind::Char) {
            return None;
        }
        let inner = self.slice(t).strip_prefix('\'')?.strip_suffix('\'')?;
        let mut chars = inner.chars();
        let c = chars.next()?;
        (chars.next().is_none() && c != '\\').then_some(c)
    }

    /// Line and column of a token, or 1:1 when unknown.
    fn pos_opt(&self, t: Option<usize>) -> (usize, usize) {
        t.and_then(|t| self.toks.get(t))
            .map_or((1, 1), |tok| line_col(self.text, tok.start))
    }

    /// Line and column of an error location; a character inside a plain
    /// string points at that character.
    fn pos_in(&self, at: At) -> (usize, usize) {
        match at {
            At::Tok(t) => self.pos_opt(t),
            At::Char(Some(t), index) if self.kind(t) == Some(Kind::PlainStr) => {
                let (line, column) = self.pos_opt(Some(t));
                (line, column + 1 + index)
            }
            At::Char(t, _) => self.pos_opt(t),
        }
    }
}

#[cfg(test)]
mod tests;
