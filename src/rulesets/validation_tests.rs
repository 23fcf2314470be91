//! One validation for every entry point (`check`, `simulate`, `log`,
//! `play`, the setup screen): what a ruleset refuses in a level, at the
//! line and column of what it refuses.

use crate::rules::battle::RulesetId;
use crate::rules::engine::{StartOptions, supported_rulesets, validate};
use crate::rules::level::Level;
use crate::testkit::{Scenario, engine};

use super::{brp, ud10, zones};

/// A 4×2 map in two zones, factions red and blue, these combatants and
/// extra top-level fields: the test kit's scenario.
fn scenario(extra: &str, combatants: &[&str]) -> Scenario {
    Scenario {
        zones: vec!["aabb".into(), "aabb".into()],
        ..Scenario::ud10(&["....", "...."])
    }
    .with(combatants)
    .extra(extra)
}

/// `file:line:column` of the first `needle` in the scenario's text (after
/// `after`, when given): where an error about it must point.
fn at(s: &Scenario, after: Option<&str>, needle: &str) -> String {
    let text = s.source();
    let (line, column) = crate::data::error::locate(&text, after, needle);
    format!("test.ron:{line}:{column}")
}

const RED: &str = r#"(archetype: "swordsman", faction: "red", at: (0, 0))"#;

fn refusal(l: &Level, ruleset: RulesetId) -> String {
    let e = engine();
    match validate(e.world(), l, ruleset) {
        Ok(()) => panic!("{ruleset} accepts the level"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn a_stat_the_ruleset_lacks_is_refused_at_its_name_and_the_level_plays_elsewhere() {
    let s = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), name: "Ilsa", overrides: (stats: { "DEX": 4 }))"#,
        ],
    );
    assert_eq!(
        refusal(&s.level(), zones::ID),
        format!(
            "{}: combatant 2 (Ilsa): zones has no stat `DEX`; expected one of STR, AGI, WIT, HEALTH, ARMOUR",
            at(&s, None, "\"DEX\"")
        )
    );
    let e = engine();
    // brp has a DEX (3D6 scale): a DEX of 4 is a clumsy but possible one.
    assert_eq!(
        supported_rulesets(e.world(), &s.level()),
        vec![ud10::ID, brp::ID]
    );
}

#[test]
fn an_unknown_archetype_is_named_with_what_the_bestiary_has() {
    let s = scenario(
        "",
        &[RED, r#"(archetype: "wyrm", faction: "blue", at: (3, 1))"#],
    );
    assert_eq!(
        refusal(&s.level(), ud10::ID),
        format!(
            "{}: combatant 2 (`wyrm`): ud10 has no archetype `wyrm`; expected one of \
             `archer`, `brute`, `captain`, `crossbowman`, `shieldbearer`, `skirmisher`, `spearman`, `swordsman`",
            at(&s, None, "\"wyrm\"")
        )
    );
    let e = engine();
    assert_eq!(
        supported_rulesets(e.world(), &s.level()),
        vec![zones::ID, brp::ID]
    );
}

#[test]
fn stats_out_of_range_and_a_start_without_a_weapon_are_refused() {
    let hp0 = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), overrides: (stats: { "HP": 0 }))"#,
        ],
    );
    assert_eq!(
        refusal(&hp0.level(), ud10::ID),
        format!(
            "{}: combatant 2 (`archer`): HP 0 is out of range; expected 1 to 999",
            at(&hp0, None, "\"HP\"")
        )
    );
    let huge = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), overrides: (stats: { "AGI": 2147483647 }))"#,
        ],
    );
    assert_eq!(
        refusal(&huge.level(), zones::ID),
        format!(
            "{}: combatant 2 (`archer`): AGI 2147483647 is out of range; expected 1 to 20",
            at(&huge, None, "\"AGI\"")
        )
    );
    let unarmed = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), overrides: (weapons: []))"#,
        ],
    );
    assert_eq!(
        refusal(&unarmed.level(), ud10::ID),
        format!(
            "{}: combatant 2 (`archer`): carries no weapon; expected at least one \
             (every ud10 attack is made with a weapon)",
            at(&unarmed, Some("weapons:"), "[")
        )
    );
    // Zones characters always have their fists and feet.
    let e = engine();
    assert!(validate(e.world(), &unarmed.level(), zones::ID).is_ok());
}

#[test]
fn unknown_gear_is_refused_at_its_name() {
    let s = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), overrides: (weapons: ["dagger", "laser"]))"#,
        ],
    );
    let why = refusal(&s.level(), ud10::ID);
    let want = format!(
        "{}: combatant 2 (`archer`): ud10 has no weapon `laser`; expected one of `",
        at(&s, None, "\"laser\"")
    );
    assert!(why.starts_with(&want), "{why}\n{want}");
}

#[test]
fn a_level_made_for_one_ruleset_is_refused_by_the_others() {
    let s = scenario(
        "rulesets: [\"zones\"],",
        &[RED, r#"(archetype: "archer", faction: "blue", at: (3, 1))"#],
    );
    let want = format!(
        "{}: the level is made for zones only, not ud10",
        at(&s, Some("rulesets:"), "[")
    );
    assert_eq!(refusal(&s.level(), ud10::ID), want);
    let mut e = engine();
    assert_eq!(
        e.start(&s.level(), ud10::ID, &StartOptions::default())
            .unwrap_err(),
        want
    );
}

#[test]
fn zones_needs_a_map_in_zones_and_riders_need_a_mount() {
    let s = scenario(
        "",
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "A")"#,
            r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "B", riding: "A")"#,
            r#"(archetype: "archer", faction: "blue", at: (3, 1))"#,
        ],
    );
    assert_eq!(
        refusal(&s.level(), zones::ID),
        format!(
            "{}: combatant 2 (B): rides `A`, which carries nobody under zones; \
             expected a mount or vehicle (or no `riding`)",
            at(&s, Some("riding:"), "\"A\"")
        )
    );
    let flat = Scenario::ud10(&["....", "...."])
        .with(&[RED, r#"(archetype: "archer", faction: "blue", at: (3, 1))"#]);
    assert_eq!(
        refusal(&flat.level(), zones::ID),
        format!(
            "{}: zones plays on a map divided into zones, and this one has none; \
             expected zone_legend and zone_rows",
            at(&flat, Some("map:"), "(")
        )
    );
}

/// Under zones a combatant must stand in a zone: attacks and moves count
/// zones from where it stands (it could never be attacked otherwise).
#[test]
fn zones_refuses_a_combatant_outside_every_zone() {
    let s = Scenario {
        zones: vec!["aab.".into(), "aab.".into()],
        ..Scenario::ud10(&["....", "...."])
    }
    .with(&[RED, r#"(archetype: "archer", faction: "blue", at: (3, 1))"#]);
    assert_eq!(
        refusal(&s.level(), zones::ID),
        format!(
            "{}: combatant 2 (`archer`): stands at (3,1) outside every zone; \
             expected a cell of a zone drawn in zone_rows",
            at(&s, Some("\"archer\""), "(3, 1)")
        )
    );
    // The same level plays under ud10, which has no zones.
    let e = engine();
    assert!(validate(e.world(), &s.level(), ud10::ID).is_ok());
}

/// A level tuned per ruleset: a stat override may name its ruleset
/// (`"zones.HEALTH"`); the others leave it out, and the one it names reads
/// it as its own, with errors at the key as written.
#[test]
fn a_stat_override_may_name_the_ruleset_it_is_for() {
    let s = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), name: "Ilsa", overrides: (stats: { "zones.HEALTH": 10, "brp.DEX": 5, "ud10.DEX": 4 }))"#,
        ],
    );
    let e = engine();
    assert_eq!(
        supported_rulesets(e.world(), &s.level()),
        vec![ud10::ID, zones::ID, brp::ID]
    );
    for (ruleset, dex) in [(ud10::ID, Some(4)), (brp::ID, Some(5))] {
        let e = s.start_under(ruleset);
        let ilsa = crate::testkit::cid(&e, "Ilsa");
        let got = match ruleset {
            r if r == ud10::ID => {
                crate::rules::view::get::<crate::rulesets::ud10::data::Ud10Stats>(e.world(), ilsa)
                    .map(|s| s.dex)
            }
            _ => crate::rules::view::get::<crate::rulesets::brp::stats::BrpStats>(e.world(), ilsa)
                .map(|s| s.dex),
        };
        assert_eq!(got, dex, "{ruleset}");
    }
    let e = s.start_under(zones::ID);
    let ilsa = crate::testkit::cid(&e, "Ilsa");
    let hp = crate::rules::view::get::<crate::rules::components::Health>(e.world(), ilsa)
        .map(|h| h.hp_max);
    assert_eq!(hp, Some(10), "zones reads its HEALTH");
    let bad = scenario(
        "",
        &[
            RED,
            r#"(archetype: "archer", faction: "blue", at: (3, 1), name: "Ilsa", overrides: (stats: { "brp.HEALTH": 3 }))"#,
        ],
    );
    assert_eq!(
        refusal(&bad.level(), brp::ID),
        format!(
            "{}: combatant 2 (Ilsa): brp has no stat `HEALTH`; expected one of STR, CON, SIZ, INT, POW, DEX, APP",
            at(&bad, None, "\"brp.HEALTH\"")
        )
    );
}
