//! §5.5–5.13 in whole rounds with scripted dice: attacks, the matrix,
//! damage and armor, special successes, weapons worn by parries, shields
//! against missiles, range bands.

use super::*;
use crate::rules::components::{Condition, Health, Loadout};
use crate::rules::event::GearBroken;
use crate::rulesets::brp::chance::{Difficulty, Level};
use crate::rulesets::brp::event::{
    DamageRolled, DefenseOffered, DefenseRolled, GearDamaged, Matrix,
};
use crate::rulesets::brp::matrix::{Defense, Harm};
use crate::rulesets::brp::numbers::attack_numbers;
use crate::testkit::has;

fn hp(e: &Engine, who: &str) -> i32 {
    let c = cid(e, who);
    crate::rules::view::get::<Health>(e.world(), c).map_or(0, |h| h.hp)
}

#[test]
fn a_special_success_with_a_short_sword_deals_7_plus_4_plus_2() {
    // §5.13: "a special success earned with a short sword deals the
    // weapon's normal maximum damage (1D6+1, so 7) to which normal rolled
    // damage and the damage bonus is added. The player rolls 3 for their
    // 1D6, adds +1, and rolls a 2 on 1D4 for their damage bonus ... a total
    // of 13 points." A: STR 13 + SIZ 13 = 26, a damage bonus of 1D4.
    // B: no armor, 13 hit points (CON 12, SIZ 13).
    let mut e = battle(
        6,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", overrides: (weapons: ["short_sword"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", overrides: (armor: [], shield: None, stats: {"DEX": 10}))"#,
        ],
        &[5, 3, 2],
    );
    to_a_s_rank(&mut e);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(&mut e, a, attack(b));
    // 05 against 60%: below a fifth (12), a special success.
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a
        }
    );
    // The prompt is the offer's: the log names the ways open to B.
    let offered = own(&e, at).into_iter().find_map(|ev| match ev {
        BrpEvent::DefenseOffered(DefenseOffered { attack, ways, .. }) => {
            Some((attack.target, ways))
        }
        _ => None,
    });
    assert_eq!(
        offered,
        Some((b, vec!["Broadsword".to_string(), "Dodge".to_string()]))
    );
    // The dialog's stakes before B answers: 7 + 1D6+1 + 1D4 is 10 to 18
    // (no armor), and B (13 HP) falls unconscious at 2 HP or less, so at 11
    // or more: all but a 1 on both dice, 23 in 24 (96%).
    let hooks = e.world().resource::<crate::rules::hooks::ActiveRuleset>().0;
    assert_eq!(
        (hooks.preview)(e.world(), b, &Command::NoReaction)
            .stakes
            .as_deref(),
        Some(
            "If the blow lands: a special success with the short sword, 10-18 HP through \
             armor, 96% to put B down (HP 13)"
        )
    );
    cmd(&mut e, b, Command::NoReaction);
    let rolled = own(&e, at).into_iter().find_map(|ev| match ev {
        BrpEvent::DamageRolled(DamageRolled {
            special_max,
            total,
            bonus_added,
            ..
        }) => Some((special_max, total, bonus_added)),
        _ => None,
    });
    assert_eq!(rolled, Some((Some(7), 13, 2)));
    assert_eq!(damaged(&e, at), vec![(b, 13, 13, 0)]);
    assert!(has(&e, b, Condition::Unconscious));
}

#[test]
fn twelve_hit_points_hard_leather_and_six_damage_leave_eight() {
    // §5.12: "an uninjured character has 12 hit points and is wearing hard
    // leather armor (worth 2 points). They take 6 points of damage ...
    // they take the remainder, 4 hit points in damage. This reduces the
    // character to 8 hit points." A light mace (1D6+2) rolls 4, and A has
    // no damage bonus (STR 10 + SIZ 10).
    let mut e = battle(
        6,
        &[
            r#"(archetype: "shieldbearer", faction: "red", at: (1, 1), name: "A", overrides: (shield: None, stats: {"STR": 10, "SIZ": 10}))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", overrides: (armor: ["hard_leather"], shield: None, stats: {"CON": 12, "SIZ": 12, "DEX": 8}))"#,
        ],
        &[30, 4],
    );
    assert_eq!(hp(&e, "B"), 12);
    to_a_s_rank(&mut e);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(&mut e, a, attack(b));
    cmd(&mut e, b, Command::NoReaction);
    assert_eq!(damaged(&e, at), vec![(b, 6, 4, 8)]);
    assert!(!has(&e, b, Condition::Unconscious));
}

/// Two swordsmen side by side; A attacks B at its rank with `script`'s
/// dice: the engine (B to answer, if it can), A, B, and the index of the
/// attack's first event.
pub(super) fn matrix_duel(script: &[u32]) -> (Engine, Cid, Cid, usize) {
    let mut e = battle(
        6,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", overrides: (stats: {"DEX": 8}))"#,
        ],
        script,
    );
    to_a_s_rank(&mut e);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(&mut e, a, attack(b));
    (e, a, b, at)
}

type Row = (Level, Option<(Defense, Level)>, Harm);

fn matrix_of(e: &Engine, from: usize) -> Option<Row> {
    own(e, from).into_iter().find_map(|ev| match ev {
        BrpEvent::Matrix(Matrix {
            attack,
            defense,
            harm,
            ..
        }) => Some((attack, defense, harm)),
        _ => None,
    })
}

fn worn(e: &Engine, from: usize) -> Vec<(Cid, Option<usize>, i32, i32)> {
    own(e, from)
        .into_iter()
        .filter_map(|ev| match ev {
            BrpEvent::GearDamaged(GearDamaged {
                who,
                weapon_index,
                points,
                hp_left,
                ..
            }) => Some((who, weapon_index, points, hp_left)),
            _ => None,
        })
        .collect()
}

/// §5.8, Special / Success, as the parries below meet it: a normal hit, 6
/// damage of which 3 get through B's armor (B left at 10), and the
/// parrying `item` (a weapon's index; `None`: the shield) 2 points down, to
/// `left`.
fn special_partly_parried(e: &Engine, at: usize, b: Cid, item: Option<usize>, left: i32) {
    assert_eq!(
        matrix_of(e, at),
        Some((
            Level::Special,
            Some((Defense::Parry, Level::Success)),
            Harm::Normal
        ))
    );
    assert_eq!(worn(e, at), vec![(b, item, 2, left)]);
    assert_eq!(damaged(e, at), vec![(b, 6, 3, 10)]);
}

#[test]
fn a_special_parried_by_a_success_is_a_normal_hit_and_costs_the_parrying_weapon_2() {
    // §5.8, Special / Success: "Attack partially parried ... achieves a
    // normal success. Defender's armor value subtracted from damage.
    // Parrying weapon or shield takes 2 points of damage." Attack 05
    // (special at 60%), parry 40 (a success at 60%), broadsword 1D8 4 + 1,
    // damage bonus 1D4 1: 6, less hard leather and a light helmet (3).
    let (mut e, _, b, at) = matrix_duel(&[5, 40, 4, 1]);
    cmd(&mut e, b, BrpCommand::Parry { shield: false });
    special_partly_parried(&e, at, b, Some(0), 10);
}

#[test]
fn a_special_parried_by_a_shield_costs_the_shield_2_of_its_12() {
    // §5.8, Special / Success: "Parrying weapon or shield takes 2 points of
    // damage"; §5.11: a round shield has 12 hit points. Attack 05 (special
    // at 60%), a shield parry 40 (a success at 50%), broadsword 1D8 4 + 1,
    // damage bonus 1D4 1: 6, less hard leather and a light helmet (3).
    let (mut e, _, b, at) = matrix_duel(&[5, 40, 4, 1]);
    // The reaction dialog's lines cite each defence's own rule.
    let first_line = |c: BrpCommand| {
        crate::rulesets::brp::preview::preview(e.world(), b, &Command::from(c)).lines[0].clone()
    };
    assert_eq!(
        first_line(BrpCommand::Parry { shield: true }),
        "50% to succeed, 9% a special success (§5.11 Shields)"
    );
    assert_eq!(
        first_line(BrpCommand::Parry { shield: false }),
        "60% to succeed, 11% a special success (§5.6 Parrying)"
    );
    cmd(&mut e, b, BrpCommand::Parry { shield: true });
    special_partly_parried(&e, at, b, None, 10);
    let shield = crate::rules::view::get::<crate::rulesets::brp::stats::BrpShield>(e.world(), b)
        .expect("the shield holds");
    assert_eq!(shield.hp, 10);
}

#[test]
fn a_shield_parrying_to_0_hit_points_breaks_and_is_gone() {
    // §5.6: weapons and shields "can even break if their hit points are
    // overcome"; §5.8, Special / Success: the shield takes 2. The round
    // shield worn down to 2 of its 12 before the blow: it breaks, and is
    // taken off B in the step (the one change of where something lies a
    // step makes, said with `view::moved`: debug builds check it). What the
    // step reads of B after it (the damage, B's armor and hit points) is
    // B's own.
    let (mut e, _, b, at) = matrix_duel(&[5, 40, 4, 1]);
    let eb = crate::rules::view::entity(e.world(), b).expect("B");
    crate::rules::view::write::get_mut::<crate::rulesets::brp::stats::BrpShield>(
        e.world_mut(),
        eb,
    )
    .expect("B's shield")
    .hp = 2;
    cmd(&mut e, b, BrpCommand::Parry { shield: true });
    special_partly_parried(&e, at, b, None, 0);
    assert!(since(&e, at).iter().any(|ev| matches!(
        ev,
        BattleEvent::GearBroken(GearBroken { who, weapon_index: None, .. }) if *who == b
    )));
    assert!(
        crate::rules::view::get::<crate::rulesets::brp::stats::BrpShield>(e.world(), b).is_none(),
        "broken and gone"
    );
    // B's health, read where B now lies, is what Bevy finds.
    assert_eq!(hp(&e, "B"), 10);
    assert_eq!(e.world().get::<Health>(eb).map(|h| h.hp), Some(10));
}

#[test]
fn a_success_parried_by_a_special_in_melee_costs_the_attackers_weapon_1() {
    // §5.8, Success / Special: "Defender blocks or dodges damage; no other
    // result. If parried in melee combat, attacker's weapon takes 1 point".
    let (mut e, a, b, at) = matrix_duel(&[30, 5]);
    cmd(&mut e, b, BrpCommand::Parry { shield: false });
    assert_eq!(
        matrix_of(&e, at),
        Some((
            Level::Success,
            Some((Defense::Parry, Level::Special)),
            Harm::None
        ))
    );
    assert_eq!(worn(&e, at), vec![(a, Some(0), 1, 11)]);
    assert!(damaged(&e, at).is_empty());
}

#[test]
fn a_special_dodged_by_a_special_and_a_success_met_by_a_success_do_nothing() {
    // §5.8: Special / Special "no other result"; Success / Success
    // "Defender blocks or dodges damage, no other result". B's Dodge: DEX 8
    // x 2 = 16, less hard leather's 10%: 6%; 30 for the swordsman's rating
    // less 10: 20%.
    let (mut e, _, b, at) = matrix_duel(&[5, 3]);
    cmd(&mut e, b, Command::Dodge);
    assert_eq!(
        matrix_of(&e, at),
        Some((
            Level::Special,
            Some((Defense::Dodge, Level::Special)),
            Harm::None
        ))
    );
    assert!(worn(&e, at).is_empty() && damaged(&e, at).is_empty());
    let dodge = own(&e, at).into_iter().find_map(|ev| match ev {
        BrpEvent::DefenseRolled(DefenseRolled { chance, .. }) => Some(chance),
        _ => None,
    });
    assert_eq!(dodge, Some(20), "Dodge 30%, hard leather -10% (§5.10)");
}

#[test]
fn a_weapon_parrying_to_0_hit_points_breaks() {
    // §5.6: "Weapons and shields ... can even break if their hit points are
    // overcome." B's light mace has 6 hit points: three specials parried
    // by successes take 2 each.
    let mut e = battle(
        6,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "shieldbearer", faction: "blue", at: (2, 1), name: "B", overrides: (shield: None, stats: {"DEX": 8, "CON": 30, "SIZ": 30}))"#,
        ],
        &[5, 40, 1, 1, 5, 40, 1, 1, 5, 40, 1, 1],
    );
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    for round in 1..=3 {
        to_a_s_rank(&mut e);
        let at = e.events().len();
        cmd(&mut e, a, attack(b));
        cmd(&mut e, b, BrpCommand::Parry { shield: false });
        let left = 6 - 2 * round;
        assert_eq!(worn(&e, at), vec![(b, Some(0), 2, left)], "round {round}");
        if left == 0 {
            assert!(since(&e, at).iter().any(|ev| matches!(
                ev,
                BattleEvent::GearBroken(GearBroken { who, weapon_index: Some(0), .. }) if *who == b
            )));
        }
        e.step();
    }
    let l = crate::rules::view::get::<Loadout>(e.world(), b).expect("a loadout");
    assert!(
        l.weapons.iter().all(|w| &*w.id != "light_mace"),
        "broken and gone"
    );
}

#[test]
fn shields_parry_low_velocity_missiles_at_their_straight_chance() {
    // §5.11: "a target shield has a straight 15% chance to parry a missile
    // weapon, a full (heater, kite, or round) shield has 30%, and a large
    // (hoplite or riot-style) shield has 60%". §5.7: arrows are dodged only
    // if the gamemaster allows (off by default), at half.
    for (shield, chance) in [("target", 15), ("round", 30), ("hoplite", 60)] {
        let mut e = battle(
            8,
            &[
                r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A")"#,
                &format!(
                    r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", overrides: (shield: "{shield}", stats: {{"DEX": 8}}))"#
                ),
            ],
            &[30],
        );
        to_a_s_rank(&mut e);
        let (a, b) = (cid(&e, "A"), cid(&e, "B"));
        cmd(&mut e, a, attack(b));
        assert_eq!(
            prompt(&e),
            Prompt::React {
                actor: b,
                attacker: a
            }
        );
        let legal = crate::rulesets::brp::legal::legal_commands(e.world(), b);
        assert_eq!(
            legal,
            vec![
                Command::from(BrpCommand::Parry { shield: true }),
                Command::NoReaction
            ],
            "no weapon parry and no dodge against an arrow"
        );
        let p = crate::rulesets::brp::preview::preview(
            e.world(),
            b,
            &Command::from(BrpCommand::Parry { shield: true }),
        );
        assert_eq!(p.chance, Some(f64::from(chance) / 100.0), "{shield}");
    }
}

#[test]
fn arrows_dodged_at_half_when_the_gamemaster_allows() {
    let rows = open(8);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let level = Scenario::brp(&rows)
        .with(&[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "archer", faction: "blue", at: (6, 1), name: "B", overrides: (stats: {"DEX": 8}))"#,
        ])
        .level();
    let mut e = crate::testkit::engine();
    e.configure(crate::rulesets::brp::ID, "dodge_thrown_and_arrows", "true")
        .expect("setting");
    crate::testkit::start_ruleset(&mut e, &level, crate::rulesets::brp::ID, &[30, 10]);
    to_a_s_rank(&mut e);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(&mut e, a, attack(b));
    cmd(&mut e, b, Command::Dodge);
    let dodge = own(&e, at).into_iter().find_map(|ev| match ev {
        BrpEvent::DefenseRolled(DefenseRolled {
            rating,
            difficulty,
            chance,
            ..
        }) => Some((rating, difficulty, chance)),
        _ => None,
    });
    // The archer's Dodge 40 (soft leather: no modifier), halved.
    assert_eq!(dodge, Some((40, Difficulty::Difficult, 20)));
}

#[test]
fn firearms_can_be_neither_parried_nor_dodged() {
    // §5.6 "It is impossible to parry firearms"; §5.7 "impossible to dodge
    // firearms or highvelocity weapons". The attack goes straight through.
    let mut e = battle(
        8,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", overrides: (weapons: ["pistol"]))"#,
            r#"(archetype: "shieldbearer", faction: "blue", at: (6, 1), name: "B", overrides: (stats: {"DEX": 8}))"#,
        ],
        &[10, 5],
    );
    to_a_s_rank(&mut e);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(&mut e, a, attack(b));
    assert!(!matches!(prompt(&e), Prompt::React { .. }));
    // Pistol 1D8 5, no damage bonus for firearms; chain stops 7.
    assert_eq!(damaged(&e, at), vec![(b, 5, 0, 14)]);
    let shots = crate::rules::view::get::<Loadout>(e.world(), a).map(|l| l.weapons[0].loaded);
    assert_eq!(shots, Some(5), "a pistol holds 6 shots; one spent");
}

#[test]
fn range_bands_halve_quarter_and_forbid() {
    // §5.9, a thrown dagger (10 m; the cultist's Throwing Dagger 35%): 9 m
    // normal, 10.5 m Difficult (18%), 21 m a quarter (9%), 31.5 m none.
    let e = battle(
        23,
        &[
            r#"(archetype: "cultist", faction: "red", at: (0, 1), name: "A", overrides: (weapons: ["dagger_thrown"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "T1")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (7, 0), name: "T2")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (14, 1), name: "T3")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (21, 1), name: "T4")"#,
        ],
        &[],
    );
    let a = cid(&e, "A");
    let from = crate::rules::view::cell(e.world(), a).expect("on the map");
    let chance = |name: &str| {
        crate::rules::view::reading(e.world(), |w| {
            attack_numbers(w, a, from, cid(&e, name), 0)
                .map(|n| (n.difficulty, n.chance))
                .map_err(|_| ())
        })
    };
    assert_eq!(chance("T1"), Ok((Difficulty::Normal, 35)));
    assert_eq!(chance("T2"), Ok((Difficulty::Difficult, 18)));
    assert_eq!(chance("T3"), Ok((Difficulty::Quarter, 9)));
    assert!(chance("T4").is_err(), "beyond three times the range");
}

#[test]
fn kneeling_behind_a_large_shield_parries_missiles_at_90() {
    // §5.11: "If a character kneels behind a large shield, the chance
    // becomes 90%." Only behind a large one.
    let mut e = battle(
        8,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "shieldbearer", faction: "blue", at: (6, 1), name: "B", overrides: (stats: {"DEX": 8}))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 2), name: "C", overrides: (stats: {"DEX": 7}))"#,
        ],
        &[30, 80],
    );
    let (a, b, c) = (cid(&e, "A"), cid(&e, "B"), cid(&e, "C"));
    state(
        &mut e,
        "A",
        Intent::Attack {
            target: b,
            weapon: 0,
        },
    );
    state(&mut e, "B", Intent::Defend);
    state(&mut e, "C", Intent::Defend);
    pass(&mut e, "A");
    cmd(&mut e, b, BrpCommand::Kneel);
    let r = crate::testkit::refused(&mut e, b, BrpCommand::Kneel);
    assert!(r.contains("already kneeling"), "{r}");
    pass(&mut e, "B");
    let r = crate::testkit::refused(&mut e, c, BrpCommand::Kneel);
    assert!(r.contains("only behind a large shield"), "{r}");
    pass(&mut e, "C");
    let at = e.events().len();
    cmd(&mut e, a, attack(b));
    cmd(&mut e, b, BrpCommand::Parry { shield: true });
    let parry = own(&e, at).into_iter().find_map(|ev| match ev {
        BrpEvent::DefenseRolled(DefenseRolled { chance, level, .. }) => Some((chance, level)),
        _ => None,
    });
    // 80 against 90%: parried.
    assert_eq!(parry, Some((90, Level::Success)));
}

#[test]
fn the_best_defence_is_the_best_of_the_list() {
    // The AI's quick answer agrees with the defences the check offers, for
    // a melee blow, an arrow and a bullet, against a swordsman with a round
    // shield (broadsword 60%, shield 50%, Dodge 20%) and an archer.
    use crate::rulesets::brp::data::Velocity;
    use crate::rulesets::brp::numbers::{best_defense, defenses};
    use crate::rulesets::brp::state::Pending;
    let e = battle(
        8,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "S")"#,
            r#"(archetype: "archer", faction: "blue", at: (6, 1), name: "A")"#,
        ],
        &[],
    );
    for who in ["S", "A"] {
        let c = cid(&e, who);
        for velocity in [None, Some(Velocity::Low), Some(Velocity::High)] {
            let p = Pending {
                attacker: c,
                target: c,
                weapon_index: 0,
                weapon: String::new(),
                level: Level::Success,
                damage: crate::rules::dice::DiceExpr::flat(1),
                db: None,
                velocity,
                thrown: false,
            };
            let listed = defenses(e.world(), c, &p)
                .iter()
                .map(|o| o.chance)
                .max()
                .unwrap_or(0);
            assert_eq!(
                best_defense(e.world(), c, velocity),
                listed,
                "{who} {velocity:?}"
            );
        }
    }
    let s = cid(&e, "S");
    assert_eq!(best_defense(e.world(), s, None), 60);
    assert_eq!(best_defense(e.world(), s, Some(Velocity::Low)), 30);
}

#[test]
fn a_table_may_allow_one_defence_a_round() {
    // The text sets no limit on parries and dodges (the default); with
    // `defences_per_round=1` the second successful attack of the round
    // meets no parry. A (DEX 16) and C (DEX 14) both strike B.
    let rows = open(6);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let level = Scenario::brp(&rows)
        .with(&[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", overrides: (stats: {"DEX": 16}))"#,
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "C", overrides: (stats: {"DEX": 14}))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", overrides: (stats: {"DEX": 8, "CON": 30, "SIZ": 30}))"#,
        ])
        .level();
    let mut e = crate::testkit::engine();
    e.configure(crate::rulesets::brp::ID, "defences_per_round", "1")
        .expect("setting");
    // A: 30 (success), B's parry 90 (a failure), damage 4 and 1; C: 30.
    crate::testkit::start_ruleset(
        &mut e,
        &level,
        crate::rulesets::brp::ID,
        &[30, 90, 4, 1, 30, 4, 1],
    );
    let (a, b, c) = (cid(&e, "A"), cid(&e, "B"), cid(&e, "C"));
    state(
        &mut e,
        "A",
        Intent::Attack {
            target: b,
            weapon: 0,
        },
    );
    state(
        &mut e,
        "C",
        Intent::Attack {
            target: b,
            weapon: 0,
        },
    );
    state(&mut e, "B", Intent::Defend);
    for who in ["A", "C", "B"] {
        pass(&mut e, who);
    }
    cmd(&mut e, a, attack(b));
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a
        }
    );
    cmd(&mut e, b, BrpCommand::Parry { shield: true });
    let at = e.events().len();
    cmd(&mut e, c, attack(b));
    assert!(
        !matches!(prompt(&e), Prompt::React { .. }),
        "the round's one defence is spent"
    );
    assert_eq!(damaged(&e, at).len(), 1);
}

#[test]
fn a_blows_numbers_are_the_texts_for_preview_ai_and_roll_alike() {
    // One set of numbers for the execution, the preview and the AI: a
    // short sword (1D6+1) with a 1D4 damage bonus on an unarmored target
    // takes 3-11, and 10-18 on a special (§5.13's 13 among them); through
    // hard leather (2), 1-9.
    use crate::rulesets::brp::numbers::blow;
    let e = battle(
        6,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", overrides: (weapons: ["short_sword"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", overrides: (armor: [], shield: None))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 2), name: "C", overrides: (armor: ["hard_leather"], shield: None))"#,
        ],
        &[],
    );
    let (a, b, c) = (cid(&e, "A"), cid(&e, "B"), cid(&e, "C"));
    let dice = crate::rules::dice::DiceExpr::parse("1D6+1").expect("dice");
    let full = Some(crate::rules::dice::DbShare::Full);
    let on_b = blow(e.world(), a, &dice, full, None, b);
    assert_eq!((on_b.range(false), on_b.range(true)), ((3, 11), (10, 18)));
    assert!((on_b.mean(false) - 7.0).abs() < 1e-9, "4.5 + 2.5");
    let on_c = blow(e.world(), a, &dice, full, None, c);
    assert_eq!(on_c.range(false), (1, 9));
    let p = crate::rulesets::brp::preview::preview(e.world(), a, &attack(b));
    assert_eq!(
        p.damage,
        Some((3, 11)),
        "the preview reads the same numbers"
    );
    // The AI's means, worked out without making the blow, are the blow's
    // to the bit, with all, half or none of the bonus.
    use crate::rulesets::brp::numbers::{blow_by, rolled_by};
    for text in ["1D6+1+db", "1D8+1+½db", "2D6+2", "db"] {
        let damage = crate::rules::dice::DiceExpr::parse(text).expect("dice");
        for share in [None, full, Some(crate::rules::dice::DbShare::Half)] {
            let made = blow_by(e.world(), a, damage.without_db(), share).rolled();
            let (mean, most) = rolled_by(e.world(), a, &damage, share);
            assert_eq!(
                (mean.to_bits(), most.to_bits()),
                (made.0.to_bits(), made.1.to_bits()),
                "{text} {share:?}"
            );
        }
    }
}
