//! brp's tables and percentile rules against the numbers of
//! `../shared/rules/brp.txt`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::rules::dice::DiceExpr;
use crate::rulesets::brp::chance::{Difficulty, Level, level, range_band, special_up_to};
use crate::rulesets::brp::data::{BrpData, Length, ShieldClass, Velocity};
use crate::rulesets::brp::derived::{
    Source, half_bonus, hit_points, special_damage, through_armor, weapon_rating,
};
use crate::rulesets::brp::matrix::{Defense, Harm, outcome};
use crate::rulesets::brp::settings::SpecialBoundary;

fn data() -> BrpData {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/brp");
    match BrpData::load(&dir) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    }
}

fn dice(s: &str) -> DiceExpr {
    match DiceExpr::parse(s) {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn the_melee_weapons_table_row_by_row() {
    // §5.9 Melee Weapons: weapon, specialty, base, damage, hands, hit points.
    type Row = (
        &'static str,
        &'static str,
        i32,
        &'static str,
        u8,
        Option<i32>,
    );
    let table: [Row; 19] = [
        ("battle_axe", "Axe", 15, "1D8+2+db", 1, Some(15)),
        ("great_axe", "Axe", 15, "2D6+2+db", 2, Some(15)),
        ("hand_axe", "Axe", 15, "1D6+1+db", 1, Some(12)),
        ("brawl", "Brawl", 25, "1D3+db", 1, None),
        ("heavy_club", "Club", 25, "1D8+db", 2, Some(22)),
        ("light_club", "Club", 25, "1D6+db", 1, Some(15)),
        ("dagger", "Dagger", 25, "1D4+db", 1, Some(15)),
        ("halberd", "Polearm", 15, "3D6+db", 2, Some(25)),
        ("hammer", "Hammer", 25, "1D6+db", 1, Some(15)),
        ("great_hammer", "Hammer", 25, "1D10+3+db", 2, Some(15)),
        ("knife", "Dagger", 25, "1D3+1+db", 1, Some(15)),
        ("heavy_mace", "Mace", 25, "1D8+2+db", 2, Some(10)),
        ("light_mace", "Mace", 25, "1D6+2+db", 1, Some(6)),
        ("pike", "Polearm", 15, "1D10+2+db", 2, Some(12)),
        ("quarterstaff", "Staff", 25, "1D8+db", 2, Some(8)),
        ("long_spear", "Spear", 15, "1D10+db", 2, Some(10)),
        ("broadsword", "Sword", 15, "1D8+1+db", 1, Some(12)),
        ("great_sword", "Sword", 5, "2D8+db", 2, Some(12)),
        ("short_sword", "Sword", 15, "1D6+1+db", 1, Some(12)),
    ];
    let d = data();
    assert_eq!(d.equipment.melee.len(), table.len());
    for (id, specialty, base, damage, hands, hp) in table {
        let w = &d.equipment.melee[id];
        assert_eq!(w.specialty, specialty, "{id}");
        assert_eq!(w.base, base, "{id}");
        assert_eq!(w.damage, dice(damage), "{id}");
        assert_eq!(w.hands, hands, "{id}");
        assert_eq!(w.hp, hp, "{id}");
        let skill = if id == "brawl" {
            "Brawl"
        } else {
            "Melee Weapon"
        };
        assert_eq!(w.skill, skill, "{id}");
    }
    // §5.4's examples: spears long, swords and axes medium, daggers short.
    assert_eq!(d.equipment.melee["long_spear"].length, Length::Long);
    assert_eq!(d.equipment.melee["broadsword"].length, Length::Medium);
    assert_eq!(d.equipment.melee["battle_axe"].length, Length::Medium);
    assert_eq!(d.equipment.melee["dagger"].length, Length::Short);
    assert_eq!(d.equipment.melee["brawl"].length, Length::Short);
}

#[test]
fn the_missile_weapons_table_row_by_row() {
    // §5.9 Missile Weapons: weapon, skill, specialty, base, damage, hands,
    // hit points, range.
    type Row = (
        &'static str,
        &'static str,
        &'static str,
        i32,
        &'static str,
        u8,
        Option<i32>,
        f64,
    );
    let table: [Row; 12] = [
        (
            "hand_axe_thrown",
            "Missile Weapon",
            "Throwing Axe",
            10,
            "1D6+½db",
            1,
            Some(12),
            20.0,
        ),
        (
            "long_bow",
            "Missile Weapon",
            "Bow",
            5,
            "1D8+1+½db",
            2,
            Some(10),
            90.0,
        ),
        (
            "heavy_crossbow",
            "Missile Weapon",
            "Crossbow",
            25,
            "2D6+2",
            2,
            Some(18),
            55.0,
        ),
        (
            "light_crossbow",
            "Missile Weapon",
            "Crossbow",
            25,
            "1D6+2",
            2,
            Some(10),
            40.0,
        ),
        (
            "dagger_thrown",
            "Missile Weapon",
            "Throwing Dagger",
            15,
            "1D4+½db",
            1,
            Some(15),
            10.0,
        ),
        (
            "knife_thrown",
            "Missile Weapon",
            "Throwing Dagger",
            15,
            "1D3+1+½db",
            1,
            Some(10),
            10.0,
        ),
        ("pistol", "Firearm", "Pistol", 20, "1D8", 1, Some(8), 20.0),
        (
            "laser_pistol",
            "Energy Weapon",
            "Laser Pistol",
            20,
            "1D8",
            1,
            Some(14),
            20.0,
        ),
        ("rifle", "Firearm", "Rifle", 25, "2D6", 2, Some(12), 80.0),
        (
            "laser_rifle",
            "Energy Weapon",
            "Laser Rifle",
            15,
            "2D8",
            2,
            Some(20),
            100.0,
        ),
        ("rock", "Throw", "Throw", 25, "1D2+½db", 1, None, 20.0),
        (
            "sling",
            "Missile Weapon",
            "Sling",
            5,
            "1D8+½db",
            2,
            Some(2),
            80.0,
        ),
    ];
    let d = data();
    assert_eq!(d.equipment.missile.len(), table.len());
    for (id, skill, specialty, base, damage, hands, hp, range) in table {
        let w = &d.equipment.missile[id];
        assert_eq!(
            (w.skill.as_str(), w.specialty.as_str()),
            (skill, specialty),
            "{id}"
        );
        assert_eq!(w.base, base, "{id}");
        assert_eq!(w.damage, dice(damage), "{id}");
        assert_eq!((w.hands, w.hp, w.range), (hands, hp, range), "{id}");
        // Firearms and energy weapons are the high-velocity ones (§5.6).
        let high = skill == "Firearm" || skill == "Energy Weapon";
        assert_eq!(w.velocity == Velocity::High, high, "{id}");
    }
    // "* Crossbows ... each takes a full combat round to reload".
    for id in ["heavy_crossbow", "light_crossbow"] {
        assert_eq!(d.equipment.missile[id].reload_rounds, 1, "{id}");
    }
    // "** Pistols and rifles hold 6 shots apiece; laser pistols and rifles
    // have charges for 20 shots".
    for (id, shots) in [
        ("pistol", 6),
        ("rifle", 6),
        ("laser_pistol", 20),
        ("laser_rifle", 20),
    ] {
        assert_eq!(d.equipment.missile[id].shots, Some(shots), "{id}");
    }
    assert_eq!(d.equipment.missile["long_bow"].shots, None);
}

#[test]
fn the_armor_and_shield_tables_row_by_row() {
    // §5.10 Armor Types: armor points, physical and perception modifiers.
    type Row = (&'static str, i32, Option<i32>, i32, i32, bool);
    let armor: [Row; 12] = [
        ("bulletproof_vest", 8, None, -5, 0, false),
        ("chain", 7, None, -20, 0, false),
        ("flak_jacket", 4, None, -10, 0, false),
        ("heavy_clothing", 1, None, 0, 0, false),
        ("heavy_helmet", 2, None, 0, -50, true),
        ("light_helmet", 1, None, 0, -15, true),
        ("hoplite_panoply", 6, None, -20, 0, false),
        ("soft_leather", 1, None, 0, 0, false),
        ("hard_leather", 2, None, -10, 0, false),
        ("full_plate", 8, None, -25, 0, false),
        ("quilted", 2, None, -5, 0, false),
        ("riot_gear", 12, Some(6), -10, 0, false),
    ];
    let d = data();
    for (id, ap, high, physical, perception, helmet) in armor {
        let a = &d.equipment.armor[id];
        assert_eq!(
            (a.ap, a.ap_high_velocity, a.physical, a.perception, a.helmet),
            (ap, high, physical, perception, helmet),
            "{id}"
        );
    }
    // §5.11 Shields Table: base 15%, skill Shield, armor/hit points, damage.
    let shields: [(&str, i32, &str, ShieldClass); 6] = [
        ("heater", 12, "1D3+db", ShieldClass::Full),
        ("hoplite", 16, "1D4+db", ShieldClass::Large),
        ("kite", 16, "1D4+db", ShieldClass::Full),
        ("riot", 16, "1D3+db", ShieldClass::Large),
        ("round", 12, "1D3+db", ShieldClass::Full),
        ("target", 12, "1D2+db", ShieldClass::Target),
    ];
    assert_eq!(d.equipment.shields.len(), shields.len());
    for (id, hp, damage, class) in shields {
        let s = &d.equipment.shields[id];
        assert_eq!((s.base, s.skill.as_str(), s.hp), (15, "Shield", hp), "{id}");
        assert_eq!((s.damage.clone(), s.class), (dice(damage), class), "{id}");
    }
    // "a target shield has a straight 15% chance to parry a missile weapon,
    // a full (heater, kite, or round) shield has 30%, and a large (hoplite
    // or riot-style) shield has 60%. If a character kneels behind a large
    // shield, the chance becomes 90%."
    let s = d.tables.shield_vs_missiles;
    assert_eq!(s.of(ShieldClass::Target, false), 15);
    assert_eq!(s.of(ShieldClass::Full, false), 30);
    assert_eq!(s.of(ShieldClass::Large, false), 60);
    assert_eq!(s.of(ShieldClass::Large, true), 90);
    assert_eq!(
        s.of(ShieldClass::Full, true),
        30,
        "kneeling helps a large shield only"
    );
}

#[test]
fn the_damage_bonus_by_str_plus_siz() {
    let d = data();
    for (str_siz, bonus) in [
        (2, "-1D6"),
        (12, "-1D6"),
        (13, "-1D4"),
        (16, "-1D4"),
        (17, "0"),
        (24, "0"),
        (25, "1D4"),
        (32, "1D4"),
        (33, "1D6"),
        (40, "1D6"),
        (41, "2D6"),
        (56, "2D6"),
        (57, "3D6"),
        (72, "3D6"),
        (73, "4D6"),
        (88, "4D6"),
        (89, "5D6"),
        (104, "5D6"),
        (105, "6D6"),
    ] {
        assert_eq!(
            d.damage_bonus(str_siz).to_string(),
            bonus,
            "STR+SIZ {str_siz}"
        );
    }
}

#[test]
fn a_special_success_is_a_roll_below_a_fifth_of_the_chance() {
    // §5.5: "If the roll is less than 1/5 of the attack chance".
    let b = SpecialBoundary::BelowFifth;
    assert_eq!(special_up_to(60, b), 11);
    assert_eq!(special_up_to(50, b), 9);
    assert_eq!(special_up_to(62, b), 12);
    assert_eq!(special_up_to(5, b), 0);
    assert_eq!(level(9, 60, b), Level::Special);
    assert_eq!(level(11, 60, b), Level::Special);
    assert_eq!(level(12, 60, b), Level::Success);
    // "equal to or lower than the attack chance".
    assert_eq!(level(60, 60, b), Level::Success);
    assert_eq!(level(61, 60, b), Level::Failure);
    // The setting many tables play: a fifth or less, rounded up.
    let f = SpecialBoundary::FifthOrLess;
    assert_eq!(special_up_to(60, f), 12);
    assert_eq!(special_up_to(62, f), 13);
    assert_eq!(level(12, 60, f), Level::Special);
    assert_eq!(level(1, 0, b), Level::Failure, "no chance, no success");
}

#[test]
fn range_bands_normal_half_quarter_and_beyond() {
    // §5.9, a long bow (90 m): below 90 m unmodified, to 180 m Difficult,
    // to 270 m a quarter, beyond no chance.
    assert_eq!(range_band(88.5, 90.0), Difficulty::Normal);
    assert_eq!(range_band(90.0, 90.0), Difficulty::Difficult, "not below");
    assert_eq!(range_band(91.5, 90.0), Difficulty::Difficult);
    assert_eq!(range_band(180.0, 90.0), Difficulty::Difficult);
    assert_eq!(range_band(181.5, 90.0), Difficulty::Quarter);
    assert_eq!(range_band(270.0, 90.0), Difficulty::Quarter);
    assert_eq!(range_band(271.5, 90.0), Difficulty::Impossible);
    // A 50% archer: 50, 25, 13 (halves and quarters round up), 0.
    assert_eq!(Difficulty::Normal.of(50), 50);
    assert_eq!(Difficulty::Difficult.of(50), 25);
    assert_eq!(Difficulty::Quarter.of(50), 13);
    assert_eq!(Difficulty::Impossible.of(50), 0);
    assert_eq!(
        Difficulty::Difficult.and(Difficulty::Quarter),
        Difficulty::Quarter
    );
}

#[test]
fn every_row_of_the_attack_and_defense_matrix() {
    use Level::{Failure, Special, Success};
    let parry = |l| Some((Defense::Parry, l));
    let dodge = |l| Some((Defense::Dodge, l));
    // Special vs special: "Defender parries or dodges attack, no other result."
    for d in [parry(Special), dodge(Special)] {
        let o = outcome(Special, d, true);
        assert_eq!(
            (o.harm, o.to_parrying_weapon, o.to_attacking_weapon),
            (Harm::None, 0, 0)
        );
    }
    // Special vs success: a normal success; "Parrying weapon or shield takes
    // 2 points of damage" (a dodge has no weapon to damage).
    let o = outcome(Special, parry(Success), true);
    assert_eq!(
        (o.harm, o.to_parrying_weapon, o.to_attacking_weapon),
        (Harm::Normal, 2, 0)
    );
    let o = outcome(Special, dodge(Success), true);
    assert_eq!((o.harm, o.to_parrying_weapon), (Harm::Normal, 0));
    // Special vs failure (or no defence): full special damage.
    for d in [parry(Failure), dodge(Failure), None] {
        assert_eq!(outcome(Special, d, true).harm, Harm::Special);
    }
    // Success vs special: blocked; "If parried in melee combat, attacker's
    // weapon takes 1 point of damage".
    let o = outcome(Success, parry(Special), true);
    assert_eq!((o.harm, o.to_attacking_weapon), (Harm::None, 1));
    let o = outcome(Success, parry(Special), false);
    assert_eq!(
        (o.harm, o.to_attacking_weapon),
        (Harm::None, 0),
        "not in melee"
    );
    let o = outcome(Success, dodge(Special), true);
    assert_eq!((o.harm, o.to_attacking_weapon), (Harm::None, 0), "dodged");
    // Success vs success: "Defender blocks or dodges damage, no other result."
    for d in [parry(Success), dodge(Success)] {
        let o = outcome(Success, d, true);
        assert_eq!(
            (o.harm, o.to_parrying_weapon, o.to_attacking_weapon),
            (Harm::None, 0, 0)
        );
    }
    // Success vs failure (or none): "rolls damage normally".
    for d in [parry(Failure), dodge(Failure), None] {
        assert_eq!(outcome(Success, d, true).harm, Harm::Normal);
    }
    // Failure: "No damage; no effect."
    for d in [None, parry(Failure)] {
        let o = outcome(Failure, d, true);
        assert_eq!(
            (o.harm, o.to_parrying_weapon, o.to_attacking_weapon),
            (Harm::None, 0, 0)
        );
    }
}

#[test]
fn hit_points_armor_and_the_texts_examples() {
    // §5.12: "derived from the average of Constitution and Size".
    assert_eq!(hit_points(12, 12), 12);
    assert_eq!(hit_points(12, 13), 13, "the average rounded up");
    // §5.12: 12 hit points, hard leather (2), 6 damage: "they take the
    // remainder, 4 hit points in damage. This reduces the character to 8".
    let d = data();
    let leather = d.equipment.armor["hard_leather"].ap;
    let taken = through_armor(6, leather);
    assert_eq!((taken, 12 - taken), (4, 8));
    assert_eq!(through_armor(1, leather), 0, "armor stops it all");
    // §5.13: a short sword (1D6+1: 7 at most) rolls 3 + 1, the damage bonus
    // (1D4) rolls 2: "7+4+2 damage, a total of 13 points".
    let sword = &d.equipment.melee["short_sword"];
    let max = sword.damage.without_db().max(None);
    assert_eq!(max, 7);
    assert_eq!(special_damage(max, 3 + 1, 2), 13);
    // §5.9: "½ damage bonus means roll and divide by 2, rounding up".
    assert_eq!((half_bonus(3), half_bonus(4), half_bonus(1)), (2, 2, 1));
    assert_eq!((half_bonus(-3), half_bonus(-1), half_bonus(0)), (-1, 0, 0));
}

#[test]
fn a_weapons_chance_own_base_or_related_at_half() {
    let skills: BTreeMap<String, i32> = [("Dagger".to_string(), 70)].into();
    // Own rating.
    let r = weapon_rating(&skills, "Dagger", 25, ["Sword"], true);
    assert_eq!((r.chance, r.source), (70, Source::Own));
    // §5.5: "use a sword with their dagger skill ... as if Difficult (1/2
    // chance)": 35 beats the broadsword's base 15.
    let r = weapon_rating(&skills, "Sword", 15, ["Dagger", "Axe"], true);
    assert_eq!((r.chance, r.source), (35, Source::Related("Dagger".into())));
    // Off: the base chance.
    let r = weapon_rating(&skills, "Sword", 15, ["Dagger"], false);
    assert_eq!((r.chance, r.source), (15, Source::Base));
    // A base above half the related rating stays.
    let weak: BTreeMap<String, i32> = [("Dagger".to_string(), 30)].into();
    let r = weapon_rating(&weak, "Club", 25, ["Dagger"], true);
    assert_eq!((r.chance, r.source), (25, Source::Base));
}

#[test]
fn every_archetype_of_the_shipped_levels_has_a_stat_block() {
    let d = data();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut missing = Vec::new();
    for e in std::fs::read_dir(dir).expect("levels").flatten() {
        let text = std::fs::read_to_string(e.path()).expect("a level");
        for part in text.split("archetype:").skip(1) {
            let id = part.split('"').nth(1).unwrap_or("");
            if !d.bestiary.archetypes.contains_key(id) {
                missing.push(format!("{} in {}", id, e.path().display()));
            }
        }
    }
    assert!(missing.is_empty(), "no brp stat block: {missing:?}");
    // Each stat block's hit points and damage bonus, as §5.12 and the table
    // give them: the swordsman (CON 12, SIZ 13; STR 13) has 13 and +1D4.
    let s = &d.bestiary.archetypes["swordsman"];
    assert_eq!(hit_points(s.con, s.siz), 13);
    assert_eq!(d.damage_bonus(s.str + s.siz).to_string(), "1D4");
}

/// The brp folder copied to a fresh directory with `file`'s text changed
/// by `edit`; what loading it says.
fn load_edited(file: &str, edit: impl Fn(&str) -> String) -> Result<BrpData, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/brp");
    let dir = std::env::temp_dir().join(format!("fray-brp-{}-{file}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for name in [
        "equipment.ron",
        "bestiary.ron",
        "settings.ron",
        "tables.ron",
    ] {
        let text = std::fs::read_to_string(src.join(name)).expect("brp data");
        let text = if name == file { edit(&text) } else { text };
        std::fs::write(dir.join(name), text).expect("written");
    }
    let r = BrpData::load(&dir).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    r
}

#[test]
fn data_errors_name_the_file_line_and_column() {
    // A skill no table names, at the skill.
    let bad = load_edited("bestiary.ron", |t| {
        t.replacen("\"Bow\": 60", "\"Bowe\": 60", 1)
    });
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/brp/bestiary.ron"),
    )
    .expect("bestiary");
    let line = text
        .lines()
        .position(|l| l.contains("\"Bow\": 60"))
        .expect("the archer's bow")
        + 1;
    let err = bad.expect_err("refused");
    assert!(
        err.contains(&format!("bestiary.ron:{line}:"))
            && err.contains("rates the skill `Bowe`, which brp does not know"),
        "{err}"
    );
    // A weapon with two damage bonus terms.
    let err = load_edited("equipment.ron", |t| {
        t.replacen("\"1D8+2+db\"", "\"1D8+db+db\"", 1)
    })
    .expect_err("refused");
    assert!(
        err.contains("equipment.ron:") && err.contains("expected at most one `+db`"),
        "{err}"
    );
    // Damage bonus rows that do not rise.
    let err = load_edited("tables.ron", |t| t.replacen("up_to: 16", "up_to: 11", 1))
        .expect_err("refused");
    assert!(
        err.contains("tables.ron:") && err.contains("expected up_to above 12, found 11"),
        "{err}"
    );
    // And the shipped folder loads.
    assert!(load_edited("none", |t| t.to_string()).is_ok());
}
