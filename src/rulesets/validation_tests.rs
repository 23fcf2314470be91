//! One validation for every entry point (`check`, `simulate`, `log`,
//! `play`, the setup screen): what a ruleset refuses in a level, at the
//! line and column of what it refuses.

use std::path::Path;

use crate::data::level::parse_level;
use crate::rules::engine::{StartOptions, supported_rulesets, validate};
use crate::rules::level::Level;
use crate::testkit::engine;

use super::{ud10, zones};

/// A level on a 4×2 map in two zones, with `combatants` (one per line) and
/// `extra` top-level fields.
fn level(extra: &str, combatants: &[&str]) -> Level {
    let text = format!(
        r##"Level(
    name: "T",
    default_ruleset: "ud10",{extra}
    map: (
        legend: {{ '.': Open }},
        rows: [ "....", "...." ],
        zone_legend: {{ 'a': "West", 'b': "East" }},
        zone_rows: [ "aabb", "aabb" ],
    ),
    factions: [
        (id: "red", name: "Red", colour: "#c0392b", control: Ai),
        (id: "blue", name: "Blue", colour: "#2e86de", control: Ai),
    ],
    combatants: [
{}
    ],
    victory: LastStanding,
)
"##,
        combatants.join("\n")
    );
    match parse_level(Path::new("levels/t.ron"), &text) {
        Ok(l) => l,
        Err(e) => panic!("{e}"),
    }
}

const RED: &str = r#"        (archetype: "swordsman", faction: "red", at: (0, 0)),"#;

fn refusal(l: &Level, ruleset: crate::rules::battle::RulesetId) -> String {
    let e = engine();
    match validate(e.world(), l, ruleset) {
        Ok(()) => panic!("{ruleset} accepts the level"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn a_stat_the_ruleset_lacks_is_refused_at_its_name_and_the_level_plays_elsewhere() {
    let l = level(
        "",
        &[
            RED,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1), name: "Ilsa", overrides: (stats: { "DEX": 4 })),"#,
        ],
    );
    assert_eq!(
        refusal(&l, zones::ID),
        "levels/t.ron:16:95: combatant 2 (Ilsa): zones has no stat `DEX`; expected one of STR, AGI, WIT, HEALTH, ARMOUR"
    );
    let e = engine();
    assert_eq!(supported_rulesets(e.world(), &l), vec![ud10::ID]);
}

#[test]
fn an_unknown_archetype_is_named_with_what_the_bestiary_has() {
    let l = level(
        "",
        &[
            RED,
            r#"        (archetype: "wyrm", faction: "blue", at: (3, 1)),"#,
        ],
    );
    assert_eq!(
        refusal(&l, ud10::ID),
        "levels/t.ron:16:21: combatant 2 (`wyrm`): ud10 has no archetype `wyrm`; expected one of \
         `archer`, `brute`, `captain`, `crossbowman`, `shieldbearer`, `skirmisher`, `spearman`, `swordsman`"
    );
    let e = engine();
    assert_eq!(supported_rulesets(e.world(), &l), vec![zones::ID]);
}

#[test]
fn stats_out_of_range_and_a_start_without_a_weapon_are_refused() {
    let hp0 = level(
        "",
        &[
            RED,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1), overrides: (stats: { "HP": 0 })),"#,
        ],
    );
    assert_eq!(
        refusal(&hp0, ud10::ID),
        "levels/t.ron:16:81: combatant 2 (`archer`): HP 0 is out of range; expected 1 to 999"
    );
    let huge = level(
        "",
        &[
            RED,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1), overrides: (stats: { "AGI": 2147483647 })),"#,
        ],
    );
    assert_eq!(
        refusal(&huge, zones::ID),
        "levels/t.ron:16:81: combatant 2 (`archer`): AGI 2147483647 is out of range; expected 1 to 20"
    );
    let unarmed = level(
        "",
        &[
            RED,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1), overrides: (weapons: [])),"#,
        ],
    );
    assert_eq!(
        refusal(&unarmed, ud10::ID),
        "levels/t.ron:16:81: combatant 2 (`archer`): carries no weapon; expected at least one \
         (every ud10 attack is made with a weapon)"
    );
    // Zones characters always have their fists and feet.
    let e = engine();
    assert!(validate(e.world(), &unarmed, zones::ID).is_ok());
}

#[test]
fn unknown_gear_is_refused_at_its_name() {
    let l = level(
        "",
        &[
            RED,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1), overrides: (weapons: ["dagger", "laser"])),"#,
        ],
    );
    let why = refusal(&l, ud10::ID);
    assert!(
        why.starts_with("levels/t.ron:16:92: combatant 2 (`archer`): ud10 has no weapon `laser`; expected one of `"),
        "{why}"
    );
}

#[test]
fn a_level_made_for_one_ruleset_is_refused_by_the_others() {
    let l = level(
        "\n    rulesets: [\"zones\"],",
        &[
            RED,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1)),"#,
        ],
    );
    assert_eq!(
        refusal(&l, ud10::ID),
        "levels/t.ron:4:15: the level is made for zones only, not ud10"
    );
    let mut e = engine();
    assert_eq!(
        e.start(&l, ud10::ID, &StartOptions::default()).unwrap_err(),
        "levels/t.ron:4:15: the level is made for zones only, not ud10"
    );
}

#[test]
fn zones_needs_a_map_in_zones_and_riders_need_a_mount() {
    let mut l = level(
        "",
        &[
            r#"        (archetype: "swordsman", faction: "red", at: (0, 0), name: "A"),"#,
            r#"        (archetype: "swordsman", faction: "red", at: (0, 0), name: "B", riding: "A"),"#,
            r#"        (archetype: "archer", faction: "blue", at: (3, 1)),"#,
        ],
    );
    assert_eq!(
        refusal(&l, zones::ID),
        "levels/t.ron:16:81: combatant 2 (B): rides `A`, which carries nobody under zones; \
         expected a mount or vehicle (or no `riding`)"
    );
    l.combatants[1].riding = None;
    l.combatants[1].at = crate::rules::map::Cell::new(1, 0);
    l.map = l.map.clone().with_zones(Vec::new());
    assert_eq!(
        refusal(&l, zones::ID),
        "levels/t.ron:4:10: zones plays on a map divided into zones, and this one has none; \
         expected zone_legend and zone_rows"
    );
}
