use std::collections::BTreeMap;

use super::*;
use crate::rules::level::{
    Control, Facing, MAX_COMBATANTS, MAX_FACTIONS, MAX_MAP_SIDE, Overrides, Victory, Visibility,
};
use crate::rules::map::{Cell, Terrain};
use factions::parse_colour;
use locator::{At, Locator};

const EXAMPLE: &str = r##"Level(
    name: "Open Field",
    description: "Two patrols meet on open ground.",
    default_ruleset: "ud10",
    map: (
        legend: { '.': Open, '#': Wall, ',': Difficult, '~': Water, 'c': LowCover, 'C': HighCover, '^': HighGround },
        rows: [
            "..........",
            "...cc...#.",
        ],
        // optional: zones drawn as a second grid of the same size
        zone_legend: { 'a': "West field", 'b': "Ford" },
        zone_rows: [ "aaaaabbbbb", "aaaaabbbbb" ],
    ),
    visibility: Clear,
    factions: [
        (id: "red", name: "Red Company", colour: "#c0392b", control: Ai, starts_fight: true),
        (id: "blue", name: "Blue Watch", colour: "#2e86de", control: Human),
    ],
    combatants: [
        (archetype: "swordsman", faction: "red", at: (2, 1)),
        (archetype: "archer", faction: "blue", at: (7, 1), name: "Ilsa", facing: W, overrides: (stats: { "DEX": 4 }, weapons: ["shortbow", "dagger"], armor: ["leather"], shield: None, surprised: true)),
    ],
    victory: HoldZone(faction: "red", zone: "Ford", rounds: 2),
    max_rounds: 60,
)
"##;

fn parse(text: &str) -> Result<Level, DataError> {
    parse_level(Path::new("levels/test.ron"), text)
}

/// The example with `from` replaced by `to`, which must occur.
fn variant(from: &str, to: &str) -> String {
    assert!(EXAMPLE.contains(from), "{from}");
    EXAMPLE.replacen(from, to, 1)
}

fn error_at(text: &str) -> (usize, usize, String) {
    let e = parse(text).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn parses_the_example() {
    let level = parse(EXAMPLE).unwrap();
    assert_eq!(level.name, "Open Field");
    assert_eq!(level.default_ruleset, "ud10");
    assert!(level.rulesets.is_empty());
    assert_eq!(level.map.width(), 10);
    assert_eq!(level.map.height(), 2);
    assert_eq!(level.map.terrain(Cell::new(3, 1)), Terrain::LowCover);
    assert_eq!(level.map.terrain(Cell::new(8, 1)), Terrain::Wall);
    assert_eq!(level.map.zones().len(), 2);
    assert_eq!(level.map.zones()[1].name, "Ford");
    assert_eq!(level.map.zone_of(Cell::new(5, 0)), Some(1));
    assert!(level.map.zones_adjacent(0, 1));
    assert_eq!(level.visibility, Visibility::Clear);
    assert_eq!(level.factions.len(), 2);
    assert_eq!(level.factions[0].colour, [0xc0, 0x39, 0x2b]);
    assert_eq!(level.factions[0].control, Control::Ai);
    assert!(level.factions[0].starts_fight);
    assert!(!level.factions[1].starts_fight);
    assert!(!level.factions[1].surprised);
    assert_eq!(level.factions[1].control, Control::Human);
    let archer = &level.combatants[1];
    assert_eq!(archer.at, Cell::new(7, 1));
    assert_eq!(archer.name.as_deref(), Some("Ilsa"));
    assert_eq!(archer.facing, Some(Facing::W));
    assert_eq!(archer.overrides.stats.get("DEX"), Some(&4));
    assert_eq!(
        archer.overrides.weapons,
        Some(vec!["shortbow".to_string(), "dagger".to_string()])
    );
    assert_eq!(archer.overrides.armor, Some(vec!["leather".to_string()]));
    assert_eq!(archer.overrides.shield, Some(None));
    assert!(archer.overrides.surprised);
    assert!(!archer.overrides.concealed);
    let sword = &level.combatants[0];
    assert_eq!(sword.name, None);
    assert_eq!(sword.facing, None);
    assert_eq!(sword.overrides, Overrides::default());
    assert_eq!(
        level.victory,
        Victory::HoldZone {
            faction: "red".into(),
            zone: "Ford".into(),
            rounds: 2
        }
    );
    assert_eq!(level.max_rounds, 60);
    assert_eq!(level.source, PathBuf::from("levels/test.ron"));
}

#[test]
fn defaults_and_shield_forms() {
    let text = variant("    max_rounds: 60,\n", "")
        .replace("    visibility: Clear,\n", "")
        .replace("shield: None", "shield: \"buckler\", control: Human")
        .replace(
            "HoldZone(faction: \"red\", zone: \"Ford\", rounds: 2)",
            "Survive(faction: \"blue\", rounds: 8)",
        )
        .replace(
            "Level(\n    name",
            "#![enable(implicit_some)]\nLevel(\n    rulesets: [\"ud10\", \"zones\"],\n    name",
        );
    let level = parse(&text).unwrap();
    assert_eq!(level.max_rounds, 100);
    assert_eq!(level.visibility, Visibility::Clear);
    assert_eq!(level.rulesets, vec!["ud10", "zones"]);
    let o = &level.combatants[1].overrides;
    assert_eq!(o.shield, Some(Some("buckler".to_string())));
    assert_eq!(o.control, Some(Control::Human));
    assert_eq!(
        level.victory,
        Victory::Survive {
            faction: "blue".into(),
            rounds: 8
        }
    );
    let level = parse(&variant("visibility: Clear", "visibility: Bad")).unwrap();
    assert_eq!(level.visibility, Visibility::Bad);
}

#[test]
fn facing_deltas() {
    assert_eq!(Facing::N.delta(), (0, -1));
    assert_eq!(Facing::SW.delta(), (-1, 1));
    assert_eq!(Facing::from_delta(5, -2), Some(Facing::NE));
    assert_eq!(Facing::from_delta(-3, 0), Some(Facing::W));
    assert_eq!(Facing::from_delta(0, 7), Some(Facing::S));
    assert_eq!(Facing::from_delta(0, 0), None);
    for f in Facing::ALL {
        let (dx, dy) = f.delta();
        assert_eq!(Facing::from_delta(dx, dy), Some(f));
    }
}

#[test]
fn colours() {
    assert_eq!(parse_colour("#2e86de"), Some([0x2e, 0x86, 0xde]));
    assert_eq!(parse_colour("#2E86DE"), Some([0x2e, 0x86, 0xde]));
    assert_eq!(parse_colour("2e86de"), None);
    assert_eq!(parse_colour("#2e86d"), None);
    assert_eq!(parse_colour("#2e86dg"), None);
    assert_eq!(parse_colour("#+e86de"), None);
    assert_eq!(parse_colour("#ééé"), None);
}

#[test]
fn syntax_errors_carry_ron_positions() {
    let e = parse(&variant("Difficult,", "Lava,")).unwrap_err();
    assert_eq!((e.line, e.column), (6, 46));
    assert_eq!(
        e.to_string(),
        "levels/test.ron:6:46: expected one of `Open`, `Wall`, `Difficult`, `Water`, \
             `LowCover`, `HighCover`, `HighGround`, `Pit` for `Terrain` but found `Lava`"
    );
    let (l, c, m) = error_at(&variant("colour: \"#2e86de\"", "color: \"#2e86de\""));
    assert_eq!((l, c), (18, 42));
    assert!(
        m.starts_with("expected a field name in `Faction` (one of `id`, `name`, `colour`"),
        "{m}"
    );
}

#[test]
fn unequal_rows() {
    let (l, c, m) = error_at(&variant("\"...cc...#.\"", "\"...cc...#\""));
    assert_eq!((l, c), (9, 13));
    assert_eq!(
        m,
        "map row 2 has 9 cells but row 1 has 10; expected rows of equal length"
    );
}

#[test]
fn unknown_terrain_char() {
    let (l, c, m) = error_at(&variant("\"...cc...#.\"", "\"...cX...#.\""));
    assert_eq!((l, c), (9, 18));
    assert_eq!(
        m,
        "expected a terrain character from the legend ('#', ',', '.', 'C', '^', 'c', '~') \
             but found 'X' at cell (4,1)"
    );
}

#[test]
fn zone_errors() {
    let (l, c, m) = error_at(&variant(
        "\"aaaaabbbbb\" ]",
        "\"aaaaabbbbb\", \"aaaaabbbbb\" ]",
    ));
    assert_eq!((l, c), (13, 20));
    assert_eq!(m, "expected 2 zone rows (one per map row) but found 3");
    let (l, c, m) = error_at(&variant("\"aaaaabbbbb\" ]", "\"aaaaabbbb\" ]"));
    assert_eq!((l, c), (13, 36));
    assert_eq!(
        m,
        "zone row 2 has 9 characters; expected 10 like the map rows"
    );
    let (l, c, m) = error_at(&variant("\"aaaaabbbbb\" ]", "\"aa.aa bbzb\" ]"));
    assert_eq!((l, c), (13, 45));
    assert_eq!(
        m,
        "expected a zone character from the zone_legend ('a', 'b') or ' ' or '.' for no zone, \
             but found 'z' at cell (8,1)"
    );
    let (l, c, m) = error_at(&variant("'b': \"Ford\"", "'b': \"West field\""));
    assert_eq!((l, c), (12, 43));
    assert_eq!(
        m,
        "zones 'a' and 'b' are both named \"West field\"; expected unique zone names"
    );
    let (l, c, m) = error_at(&variant("'b': \"Ford\"", "'b': \"Ford\", 'q': \"Quay\""));
    assert_eq!((l, c), (12, 56));
    assert_eq!(
        m,
        "zone 'q' (\"Quay\") has no cells; expected it drawn in zone_rows"
    );
}

#[test]
fn faction_errors() {
    let (l, c, m) = error_at(&variant("\"#2e86de\"", "\"2e86de\""));
    assert_eq!((l, c), (18, 50));
    assert_eq!(
        m,
        "expected a colour written \"#rrggbb\" (six hex digits) but found \"2e86de\""
    );
    let (l, c, m) = error_at(&variant("id: \"blue\"", "id: \"red\""));
    assert_eq!((l, c), (18, 14));
    assert_eq!(m, "faction id `red` is used twice; expected unique ids");
    let text = variant(
        "        (id: \"blue\", name: \"Blue Watch\", colour: \"#2e86de\", control: Human),\n",
        "",
    );
    let (l, c, m) = error_at(&text);
    assert_eq!((l, c), (16, 15));
    assert_eq!(m, "expected at least two factions but found 1");
    let text = variant(
        "faction: \"blue\", at: (7, 1)",
        "faction: \"red\", at: (7, 1)",
    );
    let (l, c, m) = error_at(&text);
    assert_eq!((l, c), (18, 14));
    assert_eq!(m, "faction `blue` has no combatants; expected at least one");
}

#[test]
fn combatant_errors() {
    let (l, c, m) = error_at(&variant("faction: \"blue\", at", "faction: \"green\", at"));
    assert_eq!((l, c), (22, 40));
    assert_eq!(m, "unknown faction `green`; expected one of `red`, `blue`");
    let (l, c, m) = error_at(&variant("at: (7, 1)", "at: (10, 1)"));
    assert_eq!((l, c), (22, 52));
    assert_eq!(
        m,
        "combatant 2 (`archer`) at (10,1) is outside the 10×2 map; expected 0 ≤ x < 10 and 0 ≤ y < 2"
    );
    let (l, c, m) = error_at(&variant("at: (7, 1)", "at: (8, 1)"));
    assert_eq!((l, c), (22, 52));
    assert_eq!(
        m,
        "combatant 2 (`archer`) at (8,1) stands on wall; expected a passable cell"
    );
    let (l, c, m) = error_at(&variant("at: (7, 1)", "at: (2, 1)"));
    assert_eq!((l, c), (22, 52));
    assert_eq!(
        m,
        "combatant 2 (`archer`) at (2,1) shares its cell with combatant 1 (`swordsman`); expected a free cell"
    );
}

#[test]
fn victory_and_round_errors() {
    let (l, c, m) = error_at(&variant(
        "HoldZone(faction: \"red\"",
        "HoldZone(faction: \"grey\"",
    ));
    assert_eq!((l, c), (24, 32));
    assert_eq!(
        m,
        "victory names unknown faction `grey`; expected one of `red`, `blue`"
    );
    let (l, c, m) = error_at(&variant("zone: \"Ford\"", "zone: \"Hill\""));
    assert_eq!((l, c), (24, 45));
    assert_eq!(
        m,
        "victory names unknown zone `Hill`; expected one of `West field`, `Ford`"
    );
    // The ford made of walls: nobody can hold it.
    let walled = variant("\"...cc...#.\"", "\"...cc...##\"")
        .replacen("\"..........\"", "\".........#\"", 1)
        .replacen(
            "[ \"aaaaabbbbb\", \"aaaaabbbbb\" ]",
            "[ \"aaaaaaaaab\", \"aaaaaaaaab\" ]",
            1,
        );
    let (l, c, m) = error_at(&walled);
    assert_eq!((l, c), (24, 45));
    assert_eq!(
        m,
        "victory asks to hold zone `Ford`, where nobody can stand; expected a zone with a passable cell"
    );
    let (l, c, m) = error_at(&variant("rounds: 2", "rounds: 0"));
    assert_eq!((l, c), (24, 61));
    assert_eq!(m, "expected victory rounds of at least 1 but found 0");
    let (l, c, m) = error_at(&variant("max_rounds: 60", "max_rounds: 0"));
    assert_eq!((l, c), (25, 17));
    assert_eq!(m, "expected max_rounds from 1 to 200 but found 0");
    // A victory that needs more rounds than the battle may last.
    let (l, c, m) = error_at(&variant("rounds: 2", "rounds: 61"));
    assert_eq!((l, c), (24, 61));
    assert_eq!(
        m,
        "victory after 61 rounds can never come: the battle is a draw after max_rounds 60; expected at most 60"
    );
}

#[test]
fn names_must_be_printable_and_combatants_named_once() {
    let (l, c, m) = error_at(&variant("name: \"Ilsa\"", "name: \"Il\\u{0}sa\""));
    assert_eq!((l, c), (22, 66));
    assert_eq!(
        m,
        "the name \"Il\\0sa\" holds a control character; expected printable text"
    );
    let twice = variant(
        "(archetype: \"swordsman\", faction: \"red\", at: (2, 1))",
        "(archetype: \"swordsman\", faction: \"red\", at: (2, 1), name: \"Ilsa\")",
    );
    let (l, c, m) = error_at(&twice);
    assert_eq!((l, c), (22, 66));
    assert_eq!(
        m,
        "combatant 2 is named `Ilsa` like combatant 1; expected a name of its own"
    );
}

#[test]
fn a_legend_key_written_twice_is_refused() {
    let (l, c, m) = error_at(&variant("'#': Wall,", "'#': Wall, '#': Water,"));
    assert_eq!((l, c), (6, 41));
    assert_eq!(m, "legend has the key '#' twice; expected each key once");
    let (l, c, m) = error_at(&variant("'b': \"Ford\"", "'b': \"Ford\", 'a': \"Hill\""));
    assert_eq!((l, c), (12, 56));
    assert_eq!(
        m,
        "zone_legend has the key 'a' twice; expected each key once"
    );
}

#[test]
fn limits_on_maps_factions_combatants_and_files() {
    let wide = format!("\"{}\"", ".".repeat(MAX_MAP_SIDE + 1));
    let text = variant("\"..........\",\n            \"...cc...#.\",", &wide)
        .replace(
            "        zone_legend: { 'a': \"West field\", 'b': \"Ford\" },\n",
            "",
        )
        .replace(
            "        zone_rows: [ \"aaaaabbbbb\", \"aaaaabbbbb\" ],\n",
            "",
        );
    let (l, c, m) = error_at(&text);
    assert_eq!((l, c), (7, 15));
    assert_eq!(m, "the map is 65×1 cells; expected at most 64 a side");
    let many: String = (0..=MAX_FACTIONS)
        .map(|i| format!("(id: \"f{i}\", name: \"F{i}\", colour: \"#000000\", control: Ai),"))
        .collect();
    let (l, c, m) = error_at(&variant(
        "(id: \"red\", name: \"Red Company\", colour: \"#c0392b\", control: Ai, starts_fight: true),",
        &many,
    ));
    assert_eq!((l, c), (16, 15));
    assert_eq!(m, "10 factions; expected at most 8");
    let crowd: String = (0..MAX_COMBATANTS)
        .map(|_| "(archetype: \"archer\", faction: \"blue\", at: (0, 0)),")
        .collect();
    let (l, c, m) = error_at(&variant(
        "(archetype: \"swordsman\", faction: \"red\", at: (2, 1)),",
        &crowd,
    ));
    assert_eq!((l, c), (20, 17));
    assert_eq!(m, "101 combatants; expected at most 100");
    // A file is read up to the cap, not whole.
    if Path::new("/dev/zero").exists() {
        let e = load_level(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: the file is over 1024 KiB; expected a data file under that"
        );
    }
}

#[test]
fn locator_skips_comments_and_strings() {
    let text = "#![enable(implicit_some)]\n/* rows: [\"x\"] */ Level( // map: (\n  a: \"map: (\", map: ( rows: [ \"ab\" , r#\"c\"d\"# ] ) )";
    let loc = Locator::new(text);
    let root = loc.root().unwrap();
    assert_eq!(loc.slice(root), "(");
    let map = loc.open_of(loc.field(root, "map").unwrap()).unwrap();
    let rows = loc.items(loc.field(map, "rows").unwrap());
    assert_eq!(rows.len(), 2);
    assert_eq!(loc.pos_opt(Some(rows[0])), (3, 31));
    assert_eq!(loc.slice(rows[1]), "r#\"c\"d\"#");
    assert_eq!(loc.pos_in(At::Char(Some(rows[0]), 1)), (3, 33));
    assert_eq!(loc.field(root, "rows"), None);
}

fn data_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn bad_level_files_report_exact_positions() {
    let e = load_level(&data_path("tests/data/bad_level_unknown_terrain.ron")).unwrap_err();
    assert_eq!((e.line, e.column), (11, 17));
    assert_eq!(
        e.message,
        "expected a terrain character from the legend ('#', '.', 'c') but found 'L' at cell (3,2)"
    );
    assert!(e.file.ends_with("tests/data/bad_level_unknown_terrain.ron"));
    let e = load_level(&data_path("tests/data/bad_level_syntax.ron")).unwrap_err();
    assert_eq!((e.line, e.column), (14, 52));
    assert_eq!(
        e.message,
        "expected a comma `,` or a closing bracket but found `control`"
    );
    let e = load_level(&data_path("tests/data/no_such_level.ron")).unwrap_err();
    assert_eq!((e.line, e.column), (0, 0));
}

#[test]
fn shipped_levels_load() {
    let levels = load_levels(&data_path("levels"));
    let names: Vec<String> = levels
        .iter()
        .filter_map(|(p, _)| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    for want in [
        "archer_hill.ron",
        "courtyard.ron",
        "mirror_duel.ron",
        "open_field.ron",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing");
    }
    let archetypes = [
        "swordsman",
        "archer",
        "spearman",
        "brute",
        "captain",
        "crossbowman",
        "shieldbearer",
        "skirmisher",
    ];
    for (path, level) in &levels {
        let level = match level {
            Ok(level) => level,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        // Levels for every ruleset use the ruleset-free archetypes; a
        // level restricted to some rulesets may use their creatures.
        for c in &level.combatants {
            assert!(
                !level.rulesets.is_empty() || archetypes.contains(&c.archetype.as_str()),
                "{}: {}",
                path.display(),
                c.archetype
            );
        }
        for cell in level.map.cells() {
            if level.map.terrain(cell).passable() {
                assert!(
                    level.map.zone_of(cell).is_some(),
                    "{}: {cell} has no zone",
                    path.display()
                );
            }
        }
        for zone in level.map.zones() {
            let passable = zone
                .cells
                .iter()
                .filter(|&&c| level.map.terrain(c).passable())
                .count();
            assert!(
                (5..=15).contains(&passable),
                "{}: zone {} has {passable}",
                path.display(),
                zone.name
            );
        }
    }
}

/// Archetype counts of one faction, sorted by name.
fn composition(level: &Level, faction: &str) -> Vec<(String, usize)> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for c in level.combatants.iter().filter(|c| c.faction == faction) {
        *counts.entry(c.archetype.clone()).or_default() += 1;
    }
    counts.into_iter().collect()
}

fn comp(items: &[(&str, usize)]) -> Vec<(String, usize)> {
    let mut v: Vec<(String, usize)> = items.iter().map(|&(a, n)| (a.to_string(), n)).collect();
    v.sort();
    v
}

#[test]
fn shipped_level_contents() {
    let load = |name: &str| match load_level(&data_path(&format!("levels/{name}"))) {
        Ok(level) => level,
        Err(e) => panic!("{e}"),
    };

    for name in [
        "open_field.ron",
        "courtyard.ron",
        "archer_hill.ron",
        "mirror_duel.ron",
    ] {
        let level = load(name);
        assert_eq!(level.default_ruleset, "ud10", "{name}");
        assert_eq!(level.max_rounds, 60, "{name}");
        assert!(!level.map.zones().is_empty(), "{name}");
    }

    let open = load("open_field.ron");
    assert_eq!((open.map.width(), open.map.height()), (16, 12));
    assert_eq!(open.factions[0].id, "red");
    assert_eq!(open.factions[0].control, Control::Human);
    assert_eq!(open.factions[1].control, Control::Ai);
    let four = comp(&[("swordsman", 2), ("spearman", 1), ("archer", 1)]);
    assert_eq!(composition(&open, "red"), four);
    assert_eq!(composition(&open, "blue"), four);
    for (r, b) in open.combatants[..4].iter().zip(&open.combatants[4..]) {
        assert_eq!(r.archetype, b.archetype);
        assert_eq!(Cell::new(15 - r.at.x, r.at.y), b.at);
    }

    let yard = load("courtyard.ron");
    assert_eq!((yard.map.width(), yard.map.height()), (18, 14));
    assert_eq!(
        composition(&yard, "garrison"),
        comp(&[("captain", 1), ("shieldbearer", 2), ("crossbowman", 1)])
    );
    assert_eq!(
        composition(&yard, "raiders"),
        comp(&[
            ("brute", 1),
            ("swordsman", 2),
            ("skirmisher", 1),
            ("archer", 1)
        ])
    );
    assert_eq!(yard.victory, Victory::LastStanding);
    // Through the gate, round the well and in at the storehouse door.
    let (steps, _) = yard
        .map
        .path(Cell::new(8, 1), Cell::new(15, 11), |_| false)
        .unwrap();
    assert!(steps.contains(&Cell::new(12, 11)));

    let hill = load("archer_hill.ron");
    assert_eq!((hill.map.width(), hill.map.height()), (20, 14));
    assert_eq!(
        composition(&hill, "bowmen"),
        comp(&[("archer", 3), ("spearman", 1), ("swordsman", 2)])
    );
    assert_eq!(
        composition(&hill, "company"),
        comp(&[
            ("captain", 1),
            ("brute", 1),
            ("swordsman", 2),
            ("spearman", 1)
        ])
    );
    assert_eq!(
        hill.victory,
        Victory::HoldZone {
            faction: "company".into(),
            zone: "Hilltop".into(),
            rounds: 2
        }
    );
    let top = hill.map.zone_index("Hilltop").unwrap();
    for c in hill.combatants.iter().filter(|c| c.faction == "bowmen") {
        assert_eq!(hill.map.terrain(c.at), Terrain::HighGround);
    }
    for cell in &hill.map.zones()[top].cells {
        assert_eq!(hill.map.terrain(*cell), Terrain::HighGround);
    }
    assert!(
        hill.map
            .path(Cell::new(2, 6), Cell::new(16, 6), |_| false)
            .is_some()
    );

    let duel = load("mirror_duel.ron");
    assert_eq!((duel.map.width(), duel.map.height()), (12, 8));
    let band = comp(&[
        ("swordsman", 1),
        ("spearman", 1),
        ("archer", 1),
        ("brute", 1),
    ]);
    assert_eq!(composition(&duel, "west"), band);
    assert_eq!(composition(&duel, "east"), band);
    assert!(duel.factions.iter().all(|f| f.control == Control::Ai));
    for cell in duel.map.cells() {
        let mirror = Cell::new(11 - cell.x, cell.y);
        assert_eq!(duel.map.terrain(cell), duel.map.terrain(mirror));
    }
    for (w, e) in duel.combatants[..4].iter().zip(&duel.combatants[4..]) {
        assert_eq!(w.archetype, e.archetype);
        assert_eq!(Cell::new(11 - w.at.x, w.at.y), e.at);
    }
}
