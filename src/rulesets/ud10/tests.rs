//! UD10 rule tests. Each names the rule it checks; the numbers come from
//! `../shared/rules/ud10.txt` and the stat blocks in
//! `assets/rulesets/ud10/`. Dice are scripted: the comment by each script
//! says which roll each number is.

use crate::rules::battle::Prompt;
use crate::rules::command::Command;
use crate::rules::components::{
    BodyZone, Cid, Condition, Conditions, Loadout, MoveMode, Protection, TurnState,
};
use crate::rules::engine::Engine;
use crate::rules::event::{BattleEvent, Modifier};
use crate::rules::map::Cell;
use crate::rules::view;
use crate::testkit::{cid, cmd, engine, level, level_with, prompt, refused, since, start};

use super::attack::{self, AttackNumbers};
use super::damage::{body_zone, pipeline};
use super::settings::Ud10Settings;

fn numbers(e: &Engine, attacker: Cid, target: Cid) -> AttackNumbers {
    let w = e.world();
    let l = view::get::<Loadout>(w, attacker).expect("loadout");
    let weapon = l.ready_weapon().expect("weapon in hand").clone();
    let from = view::cell(w, attacker).expect("cell");
    attack::numbers(w, attacker, from, target, &weapon, 0, false)
}

fn names(mods: &[Modifier]) -> Vec<(&'static str, i32)> {
    mods.iter().map(|m| (m.name, m.value)).collect()
}

fn set_condition(e: &mut Engine, who: Cid, c: Condition) {
    let ent = view::entity(e.world(), who).expect("entity");
    e.world_mut()
        .get_mut::<Conditions>(ent)
        .expect("conditions")
        .insert(c);
}

/// Attack with the weapon in hand (firing mode 0).
fn strike(e: &mut Engine, attacker: Cid, target: Cid) {
    cmd(
        e,
        attacker,
        Command::Attack {
            target,
            weapon: 0,
            mode: 0,
        },
    );
}

const OPEN: [&str; 3] = ["..........", "..........", ".........."];

// ---------------------------------------------------------------- Defense

#[test]
fn defense_is_ten_plus_dex() {
    // §Attacking: "an opponent has a Defense rating 10 plus her DEX attribute".
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(
        names(&n.defense_parts),
        vec![("base Defense", 10), ("DEX", 3)]
    );
    assert_eq!(n.defense, 13);
    // d10 + hand-to-hand skill 8.
    assert_eq!(names(&n.modifiers), vec![("hand-to-hand skill", 8)]);
}

#[test]
fn dex_does_not_count_when_surprised_from_behind_or_immobilized() {
    // §Attacking: DEX "does not apply when the opponent is surprised,
    // attacked from behind"; §Defense Rating Modifiers: "immobilized: -2 and
    // DEX doesn't count".
    let mk = |facing: &str, surprised: bool| {
        level(
            &OPEN,
            &[
                r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
                &format!(
                    r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: {facing}, overrides: (surprised: {surprised}))"#
                ),
            ],
        )
    };
    let mut e = engine();
    start(&mut e, &mk("W", true), &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(n.defense, 10);
    assert!(!n.dex_counts);
    assert_eq!(n.defense_parts[1].name, "DEX does not count: surprised");

    // Attacked from behind: B faces away (east), A is straight behind it.
    start(&mut e, &mk("E", false), &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(n.defense, 10);
    assert_eq!(
        n.defense_parts[1].name,
        "DEX does not count: attacked from behind"
    );
    // From the side (B faces north, A is to its west) DEX counts.
    start(&mut e, &mk("N", false), &[10, 1]);
    assert_eq!(numbers(&e, cid(&e, "A"), cid(&e, "B")).defense, 13);

    start(&mut e, &mk("W", false), &[10, 1]);
    let b = cid(&e, "B");
    set_condition(&mut e, b, Condition::Immobilized);
    let n = numbers(&e, cid(&e, "A"), b);
    // 10, no DEX, -2.
    assert_eq!(n.defense, 8);
    assert!(names(&n.defense_parts).contains(&("immobilized", -2)));
}

#[test]
fn surprise_ends_with_the_first_turn() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W, overrides: (surprised: true))"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    assert!(view::conditions(e.world(), b).has(Condition::Surprised));
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
    assert!(!view::conditions(e.world(), b).has(Condition::Surprised));
    assert_eq!(numbers(&e, a, b).defense, 13);
}

#[test]
fn shield_large_and_small_modify_defense() {
    // §Defense Rating Modifiers: shield +2, large -1, small +1.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 0), name: "S", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 1), name: "L", facing: W)"#,
            r#"(archetype: "skirmisher", faction: "blue", at: (4, 2), name: "K", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1, 1]);
    let a = cid(&e, "A");
    let s = numbers(&e, a, cid(&e, "S"));
    assert_eq!(
        names(&s.defense_parts),
        vec![("base Defense", 10), ("DEX", 2), ("has a shield", 2)]
    );
    assert_eq!(s.defense, 14);
    let l_ = numbers(&e, a, cid(&e, "L"));
    assert_eq!(
        names(&l_.defense_parts),
        vec![("base Defense", 10), ("DEX", 1), ("large in stature", -1)]
    );
    assert_eq!(l_.defense, 10);
    let k = numbers(&e, a, cid(&e, "K"));
    assert_eq!(
        names(&k.defense_parts),
        vec![("base Defense", 10), ("DEX", 4), ("small in stature", 1)]
    );
    assert_eq!(k.defense, 15);
}

#[test]
fn shield_does_not_count_with_a_two_handed_weapon_in_hand() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "captain", faction: "blue", at: (5, 1), name: "C", facing: W, overrides: (weapons: ["repeating_crossbow", "longsword"]))"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    // Captain: DEX 3, shield unusable with the two-handed crossbow.
    assert_eq!(numbers(&e, cid(&e, "A"), cid(&e, "C")).defense, 13);
}

// ------------------------------------------------------- Attack modifiers

#[test]
fn melee_against_higher_ground_is_minus_two() {
    // §Attack Modifiers: "Melee Combat: opponent on higher ground -2".
    let l = level(
        &["..^.......", "..^.......", ".........."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let n = numbers(&e, a, b);
    assert_eq!(
        names(&n.modifiers),
        vec![("hand-to-hand skill", 8), ("opponent on higher ground", -2)]
    );
    // Attacking down from the hill carries no penalty.
    let n = numbers(&e, b, a);
    assert_eq!(names(&n.modifiers), vec![("hand-to-hand skill", 8)]);
}

fn archer_duel(dx: i32, extra: &str) -> crate::rules::level::Level {
    let rows = vec!["..............................................."; 3];
    level_with(
        &rows,
        &[
            r#"(archetype: "archer", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            &format!(
                r#"(archetype: "swordsman", faction: "blue", at: ({dx}, 1), name: "B", facing: W)"#
            ),
        ],
        extra,
    )
}

#[test]
fn range_increments_exceeded_cost_one_each() {
    // §Ranged Attacks: "a cumulative one point penalty applies for every time
    // the range increment is exceeded". Short bow: 15 m increment; cells are
    // 1.5 m.
    let mut e = engine();
    for (dx, penalty) in [(10, 0), (11, -1), (20, -1), (21, -2), (40, -3)] {
        start(&mut e, &archer_duel(dx, ""), &[10, 1]);
        let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
        let got = n
            .modifiers
            .iter()
            .find(|m| m.name == "range increment exceeded")
            .map_or(0, |m| m.value);
        assert_eq!(got, penalty, "at {} m", dx as f64 * 1.5);
    }
}

#[test]
fn bad_visibility_crouching_and_moving_targets() {
    // §Attack Modifiers: bad visibility -2, opponent crouching -2, opponent
    // moving -2.
    let mut e = engine();
    start(&mut e, &archer_duel(6, "visibility: Bad,"), &[1, 10]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
    // B walks two cells (standard movement) and crouches.
    cmd(
        &mut e,
        b,
        Command::Move {
            path: vec![Cell::new(7, 1), Cell::new(8, 1)],
        },
    );
    cmd(&mut e, b, Command::TakeCover);
    let n = numbers(&e, a, b);
    assert_eq!(
        names(&n.modifiers),
        vec![
            ("Ranged Combat skill", 8),
            ("bad visibility", -2),
            ("opponent is crouching", -2),
            ("opponent is moving", -2),
        ]
    );
}

#[test]
fn shooting_while_moving_is_minus_four() {
    let mut e = engine();
    start(&mut e, &archer_duel(8, ""), &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    // One step is instantaneous: no penalty.
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(1, 1)],
        },
    );
    assert_eq!(
        names(&numbers(&e, a, b).modifiers),
        vec![("Ranged Combat skill", 8)]
    );
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(2, 1)],
        },
    );
    assert_eq!(
        names(&numbers(&e, a, b).modifiers),
        vec![("Ranged Combat skill", 8), ("shooting while moving", -4)]
    );
}

#[test]
fn aiming_one_and_two_rounds() {
    // §Attack Modifiers: aim 1 round +2, 2 rounds +4.
    let mut e = engine();
    start(&mut e, &archer_duel(8, ""), &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    cmd(
        &mut e,
        a,
        Command::Aim {
            target: b,
            weapon: 0,
        },
    );
    cmd(&mut e, a, Command::EndTurn);
    e.step(); // B's turn
    cmd(&mut e, b, Command::EndTurn);
    e.step(); // round 2
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    assert!(names(&numbers(&e, a, b).modifiers).contains(&("took aim for 1 round", 2)));
    cmd(
        &mut e,
        a,
        Command::Aim {
            target: b,
            weapon: 0,
        },
    );
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    e.step(); // round 3
    let n = numbers(&e, a, b);
    assert!(names(&n.modifiers).contains(&("took aim for 2 rounds", 4)));
    // The attack uses it: d10 [1] + 8 + 4 = 13 vs 14 misses, but the roll
    // carries the modifier.
    let at = e.events().len();
    e.world_mut()
        .resource_mut::<crate::rules::dice::Dice>()
        .set_script(vec![1]);
    strike(&mut e, a, b);
    let ev = since(&e, at);
    let Some(BattleEvent::AttackRolled { total, hit, .. }) = ev.first() else {
        panic!("no attack: {ev:?}")
    };
    assert_eq!((*total, *hit), (13, false));
    // Aim is spent by the attack.
    assert_eq!(
        view::get::<TurnState>(e.world(), a).and_then(|t| t.aim),
        None
    );
}

#[test]
fn moving_loses_the_aim() {
    let mut e = engine();
    start(&mut e, &archer_duel(8, ""), &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    cmd(
        &mut e,
        a,
        Command::Aim {
            target: b,
            weapon: 0,
        },
    );
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    e.step();
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(1, 1), Cell::new(2, 1)],
        },
    );
    assert!(
        !names(&numbers(&e, a, b).modifiers)
            .iter()
            .any(|m| m.0.starts_with("took aim"))
    );
}

#[test]
fn cover_adds_to_defense_against_missiles() {
    // §Taking Cover: "The cover is a bonus to the character's defense rating".
    let l = level(
        &["..........", "......c...", ".........."],
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (7, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(
        names(&n.defense_parts),
        vec![("base Defense", 10), ("DEX", 3), ("low cover", 2)]
    );
    // B shooting back has no cover to benefit A.
    assert_eq!(numbers(&e, cid(&e, "B"), cid(&e, "A")).defense, 13);
}

#[test]
fn missiles_need_line_of_sight() {
    let l = level(
        &["....#.....", "....#.....", "....#....."],
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (7, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let why = refused(
        &mut e,
        a,
        Command::Attack {
            target: b,
            weapon: 0,
            mode: 0,
        },
    );
    assert_eq!(why, "no line of sight");
}

// ------------------------------------------------------------ The attack

#[test]
fn whole_damage_pipeline_with_exploding_ten() {
    // A (swordsman, skill 8, longsword 1D10+4, penetration 1) attacks B
    // (archer: DEX 3, CON 1, HP 10, EP 10, leather: trunk 2, buffer 2).
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // initiative A 10, B 1; attack d10 5 (5 + 8 = 13 vs Defense 13: hits);
    // hit location 5 (trunk); damage 10 explodes, then 4.
    start(&mut e, &l, &[10, 1, 5, 5, 10, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    // The archer could dodge (by DEX); it declines.
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a
        }
    );
    cmd(&mut e, b, Command::NoReaction);
    let ev = since(&e, at);
    match &ev[0] {
        BattleEvent::AttackRolled {
            total,
            defense,
            hit,
            ..
        } => assert_eq!((*total, *defense, *hit), (13, 13, true)),
        other => panic!("{other:?}"),
    }
    assert!(matches!(ev[1], BattleEvent::ReactionDeclined { .. }));
    assert!(matches!(
        ev[2],
        BattleEvent::HitLocation {
            die: 5,
            zone: BodyZone::Trunk,
            ..
        }
    ));
    match &ev[3] {
        BattleEvent::DamageRolled { roll, .. } => {
            // 10 + 4 (the ten rolled again) + 4 = 18.
            assert_eq!(roll.total, 18);
            assert_eq!(roll.dice.len(), 2);
            assert!(roll.dice[1].exploded);
        }
        other => panic!("{other:?}"),
    }
    match &ev[4] {
        BattleEvent::Damaged {
            rolled,
            steps,
            ep_loss,
            hp_loss,
            hp_after,
            ep_after,
            ..
        } => {
            // 18 - armor (2 - penetration 1 = 1) = 17; buffer (2 - 1 = 1) to
            // EP: 16; CON 1: 15 HP.
            assert_eq!(*rolled, 18);
            assert_eq!(
                names(steps),
                vec![
                    ("armor rating", -2),
                    ("armor penetration", 1),
                    ("buffer lessened by penetration", -1),
                    ("buffer (to EP)", -1),
                    ("CON", -1),
                ]
            );
            assert_eq!((*ep_loss, *hp_loss, *hp_after, *ep_after), (1, 15, -5, 9));
        }
        other => panic!("{other:?}"),
    }
    // -5 HP is death (Fray's setting dead_at_hp = -5).
    assert!(matches!(
        ev[5],
        BattleEvent::ConditionAdded {
            condition: Condition::Dead,
            ..
        }
    ));
}

#[test]
fn one_below_defense_misses() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // attack d10 4: 4 + 8 = 12 < 13.
    start(&mut e, &l, &[10, 1, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    let ev = since(&e, at);
    assert_eq!(ev.len(), 1);
    assert!(matches!(
        ev[0],
        BattleEvent::AttackRolled {
            hit: false,
            total: 12,
            ..
        }
    ));
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
}

#[test]
fn damage_pipeline_with_and_without_each_optional_rule() {
    // §Summary: Taking Damage, Optional Rules Buffer and Armor Penetration.
    let prot = Protection {
        rating: 4,
        buffer: 3,
    };
    let all = Ud10Settings::default();
    let o = pipeline(15, prot, 1, 2, &all);
    // armor 4 - 1 = 3: 12 left; buffer 3 - 1 = 2 to EP: 10; CON 2: 8 HP.
    assert_eq!((o.ep_loss, o.hp_loss), (2, 8));

    let no_buffer = Ud10Settings {
        buffer: false,
        ..all.clone()
    };
    let o = pipeline(15, prot, 1, 2, &no_buffer);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 10));

    let no_pen = Ud10Settings {
        penetration: false,
        ..all.clone()
    };
    let o = pipeline(15, prot, 1, 2, &no_pen);
    // 15 - 4 = 11; buffer 3: 8; CON 2: 6.
    assert_eq!((o.ep_loss, o.hp_loss), (3, 6));

    let neither = Ud10Settings {
        buffer: false,
        penetration: false,
        ..all.clone()
    };
    let o = pipeline(15, prot, 1, 2, &neither);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 9));

    // The buffer absorbs up to and including its value; nothing reaches HP.
    let o = pipeline(5, prot, 1, 2, &all);
    assert_eq!((o.ep_loss, o.hp_loss), (2, 0));
    // Armor stops a weak blow entirely.
    let o = pipeline(3, prot, 0, 2, &all);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 0));
    // CON alone: no armor.
    let o = pipeline(7, Protection::default(), 0, 3, &all);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 4));
    // Penetration beyond the armor's rating takes it to zero, not below.
    let o = pipeline(
        10,
        Protection {
            rating: 1,
            buffer: 0,
        },
        3,
        0,
        &all,
    );
    assert_eq!(o.hp_loss, 10);
}

#[test]
fn body_zone_table() {
    // "01: head 02: left arm 03: right arm 04-06: trunk 7/8: left leg 9/10:
    // right leg".
    use BodyZone::*;
    let want = [
        Head, LeftArm, RightArm, Trunk, Trunk, Trunk, LeftLeg, LeftLeg, RightLeg, RightLeg,
    ];
    for (i, z) in want.into_iter().enumerate() {
        assert_eq!(body_zone(i as u32 + 1), z, "d10 = {}", i + 1);
    }
}

#[test]
fn head_hit_uses_the_helmet() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // attack 10 (18 vs 14), location 1 = head, damage 6 -> 1D10+3 = 9.
    start(&mut e, &l, &[10, 1, 10, 1, 6]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    let ev = since(&e, at);
    // Missiles cannot be parried: damage follows at once.
    match &ev[3] {
        BattleEvent::Damaged {
            steps,
            ep_loss,
            hp_loss,
            ..
        } => {
            // helmet 3 (no penetration), buffer 1, CON 2: 9 - 3 - 1 - 2 = 3.
            assert_eq!(
                names(steps),
                vec![("armor rating", -3), ("buffer (to EP)", -1), ("CON", -2)]
            );
            assert_eq!((*ep_loss, *hp_loss), (1, 3));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn without_body_zones_armor_is_averaged() {
    // "When not using the body zones, armor protection is averaged from all
    // body zones into one single statistic." Swordsman: leather + helmet:
    // head 3, arms 1+1, trunk 2, legs 1+1 = 9 / 6 = 1.5 -> 2; buffers 1, 2,
    // 2, 2, 2, 2 = 11 / 6 -> 2.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    e.configure(crate::rules::battle::RulesetId::Ud10, "body_zones", "false")
        .expect("setting");
    // attack 10, damage 6 -> 9.
    start(&mut e, &l, &[10, 1, 10, 6]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    let ev = since(&e, at);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::HitLocation { .. }))
    );
    match &ev[2] {
        BattleEvent::Damaged {
            steps,
            ep_loss,
            hp_loss,
            ..
        } => {
            assert_eq!(
                names(steps),
                vec![("armor rating", -2), ("buffer (to EP)", -2), ("CON", -2)]
            );
            assert_eq!((*ep_loss, *hp_loss), (2, 3));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn zero_hp_knocks_out_zero_ep_too() {
    // Fray decides (docs/rulesets/ud10.md): 0 HP or less is unconscious,
    // -5 or less dead; 0 EP is unconscious.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W, overrides: (stats: {"HP": 3}))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 2), name: "C", facing: W, overrides: (stats: {"EP": 1}))"#,
        ],
    );
    let mut e = engine();
    e.configure(crate::rules::battle::RulesetId::Ud10, "body_zones", "false")
        .expect("setting");
    // A hits B for 9: 3 HP lost -> 0 HP: unconscious, not dead.
    start(&mut e, &l, &[10, 1, 1, 10, 6]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    strike(&mut e, a, b);
    let c = view::conditions(e.world(), b);
    assert!(c.has(Condition::Unconscious) && !c.has(Condition::Dead));

    // C has 1 EP: the buffer takes 2 EP -> 0 -> unconscious.
    let c_ = cid(&e, "C");
    start(&mut e, &l, &[10, 1, 1, 10, 6]);
    strike(&mut e, a, c_);
    assert!(view::conditions(e.world(), c_).has(Condition::Unconscious));
}

// --------------------------------------------------------------- Parrying

fn parry_level() -> crate::rules::level::Level {
    level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A1", facing: E)"#,
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A2", facing: W)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", facing: N)"#,
        ],
    )
}

#[test]
fn parry_is_a_comparative_check_once_a_round() {
    // §Parrying and Dodging: "only one Parry attempt per combat round";
    // "If the parry check's result is higher than the attack roll's result,
    // the attack did not go through."
    let mut e = engine();
    // initiative A1 10, A2 9, B 1; A1's attack 6 (14 vs 14: hit); B's parry
    // 9 (9 + 6 = 15 > 14); A2's attack 6 (hit); location 5; damage 3.
    start(&mut e, &parry_level(), &[10, 9, 1, 6, 9, 6, 5, 3]);
    let (a1, a2, b) = (cid(&e, "A1"), cid(&e, "A2"), cid(&e, "B"));
    let attack = |t| Command::Attack {
        target: t,
        weapon: 0,
        mode: 0,
    };
    let at = e.events().len();
    cmd(&mut e, a1, attack(b));
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a1
        }
    );
    cmd(&mut e, b, Command::Parry);
    let ev = since(&e, at);
    match &ev[1] {
        BattleEvent::ReactionRolled {
            total,
            against,
            success,
            modifiers,
            ..
        } => {
            assert_eq!((*total, *against, *success), (15, 14, true));
            assert_eq!(names(modifiers), vec![("Parry skill", 6)]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(ev.len(), 2, "a parried attack does no damage");
    assert_eq!(prompt(&e), Prompt::Act { actor: a1 });
    cmd(&mut e, a1, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: a2 });
    let at = e.events().len();
    cmd(&mut e, a2, attack(b));
    // No second parry this round: the damage lands at once.
    assert_eq!(prompt(&e), Prompt::Act { actor: a2 });
    let ev = since(&e, at);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::ReactionRolled { .. }))
    );
    match ev.last() {
        // 3 + 4 = 7; trunk 2 - pen 1 = 1: 6; buffer 2 - 1 = 1: 5; CON 2: 3.
        Some(BattleEvent::Damaged {
            hp_loss, ep_loss, ..
        }) => {
            assert_eq!((*ep_loss, *hp_loss), (1, 3))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_parry_equal_to_the_attack_fails() {
    let mut e = engine();
    // A1 attack 6 -> 14; B's parry 8 -> 14: not higher; location 5, damage 3.
    start(&mut e, &parry_level(), &[10, 9, 1, 6, 8, 5, 3]);
    let (a1, b) = (cid(&e, "A1"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a1, b);
    cmd(&mut e, b, Command::Parry);
    let ev = since(&e, at);
    assert!(matches!(
        ev[1],
        BattleEvent::ReactionRolled {
            total: 14,
            against: 14,
            success: false,
            ..
        }
    ));
    assert!(matches!(
        ev.last(),
        Some(BattleEvent::Damaged { hp_loss: 3, .. })
    ));
}

#[test]
fn untrained_parry_rolls_against_dex() {
    // "a character who does not have this skill can try to Parry by rolling
    // an untrained check against his DEX rating". The archer has no Parry
    // skill; DEX 3; with its dagger in hand.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W, overrides: (weapons: ["dagger", "shortbow"]))"#,
        ],
    );
    let mut e = engine();
    // attack 10 -> 18; parry 10 -> 13: fails.
    start(&mut e, &l, &[10, 1, 10, 10, 5, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    cmd(&mut e, b, Command::Parry);
    match &since(&e, at)[1] {
        BattleEvent::ReactionRolled {
            modifiers, total, ..
        } => {
            assert_eq!(names(modifiers), vec![("untrained: DEX", 3)]);
            assert_eq!(*total, 13);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_parry_without_a_ready_melee_weapon() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 10]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    strike(&mut e, a, b);
    let why = refused(&mut e, b, Command::Parry);
    assert_eq!(why, "cannot parry with the Short bow");
}

// ------------------------------------------------------ Movement, fleeing

fn engaged_level() -> crate::rules::level::Level {
    level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 1), name: "B", facing: W)"#,
        ],
    )
}

#[test]
fn fleeing_from_melee_draws_a_free_attack_from_behind() {
    // Optional Rule: Fleeing From Battle: "every one of those opponents gets
    // an immediate free action to attack the fleeing character".
    let mut e = engine();
    // B's free attack: d10 1 -> 9 vs 10 (no DEX, no shield: back turned).
    start(&mut e, &engaged_level(), &[10, 1, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(2, 1), Cell::new(1, 1)],
        },
    );
    let ev = since(&e, at);
    match &ev[0] {
        BattleEvent::AttackRolled {
            attacker,
            target,
            free,
            defense,
            defense_parts,
            total,
            hit,
            ..
        } => {
            assert_eq!((*attacker, *target, *free), (b, a, true));
            assert_eq!(*defense, 10);
            assert_eq!(
                names(defense_parts),
                vec![
                    ("base Defense", 10),
                    ("DEX does not count: fleeing, back turned", 0)
                ]
            );
            assert_eq!((*total, *hit), (9, false));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(ev[1], BattleEvent::Moved { .. }));
    // The free attack was not B's action.
    assert!(
        !view::get::<TurnState>(e.world(), b)
            .expect("turn")
            .action_used
    );
}

#[test]
fn without_the_fleeing_rule_moving_away_is_free() {
    let mut e = engine();
    e.configure(crate::rules::battle::RulesetId::Ud10, "fleeing", "false")
        .expect("setting");
    start(&mut e, &engaged_level(), &[10, 1]);
    let a = cid(&e, "A");
    let at = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(2, 1)],
        },
    );
    let ev = since(&e, at);
    assert!(matches!(ev[0], BattleEvent::Moved { .. }));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::AttackRolled { .. }))
    );
}

#[test]
fn retreat_draws_no_free_attack_and_takes_the_round() {
    // Optional Rule: Retreat: "Opponents do not get a free attack ... doing
    // the retreat costs a full round".
    let mut e = engine();
    start(&mut e, &engaged_level(), &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Retreat {
            path: vec![Cell::new(2, 1), Cell::new(1, 1)],
        },
    );
    let ev = since(&e, at);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::AttackRolled { .. }))
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        BattleEvent::Moved {
            mode: MoveMode::Retreat,
            ..
        }
    )));
    assert!(ev.contains(&BattleEvent::TurnEnded { who: a }), "{ev:?}");
    // The battle moves straight on to B.
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
    // Retreat only from an engagement, and only as the whole round.
    let why = refused(
        &mut e,
        b,
        Command::Retreat {
            path: vec![Cell::new(5, 1)],
        },
    );
    assert_eq!(why, "not engaged in melee: nothing to retreat from");
}

#[test]
fn standard_full_and_single_step_movement() {
    // §Movement: standard movement 5 m + STR (swordsman STR 2: 7 m) with an
    // action; full movement twice that with no action; a single step is
    // instantaneous.
    let rows = vec!["....................."; 3];
    let l = level(
        &rows,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (20, 0), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let a = cid(&e, "A");
    let path = |from: i32, to: i32| -> Vec<Cell> { (from..=to).map(|x| Cell::new(x, 1)).collect() };
    let at = e.events().len();
    cmd(&mut e, a, Command::Move { path: path(1, 1) });
    assert!(matches!(
        since(&e, at)[0],
        BattleEvent::Moved {
            mode: MoveMode::Step,
            cost_dm: 15,
            ..
        }
    ));
    // Three more cells: 4 x 1.5 = 6 m <= 7 m: standard.
    let at = e.events().len();
    cmd(&mut e, a, Command::Move { path: path(2, 4) });
    assert!(matches!(
        since(&e, at)[0],
        BattleEvent::Moved {
            mode: MoveMode::Standard,
            ..
        }
    ));
    // A fifth cell: 7.5 m > 7 m: full movement.
    cmd(&mut e, a, Command::Move { path: path(5, 5) });
    assert_eq!(
        view::get::<TurnState>(e.world(), a).expect("turn").movement,
        MoveMode::Full
    );
    let why = refused(&mut e, a, Command::Draw { weapon: 1 });
    assert_eq!(why, "full movement leaves no action this round");
    // Up to 14 m in all: 9 cells = 13.5 m; a tenth is too far.
    cmd(&mut e, a, Command::Move { path: path(6, 9) });
    let why = refused(&mut e, a, Command::Move { path: path(10, 10) });
    assert_eq!(why, "too far: 15.0 m this turn, 14.0 m allowed");
}

#[test]
fn no_movement_on_both_sides_of_the_action() {
    // "the character can still perform another action immediately either
    // before or after moving".
    let rows = vec!["....................."; 3];
    let l = level(
        &rows,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (20, 0), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let a = cid(&e, "A");
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(1, 1), Cell::new(2, 1)],
        },
    );
    cmd(&mut e, a, Command::Draw { weapon: 1 });
    let why = refused(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(3, 1)],
        },
    );
    assert_eq!(why, "moved before the action: no more movement this round");
}

#[test]
fn drawing_a_small_weapon_is_part_of_standard_movement() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 0), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let a = cid(&e, "A");
    // The dagger (small) as movement: the action stays free.
    cmd(&mut e, a, Command::Draw { weapon: 1 });
    let t = view::get::<TurnState>(e.world(), a).expect("turn").clone();
    assert!(!t.action_used);
    assert_eq!(t.movement, MoveMode::Standard);
    // Drawing the longsword back takes the action.
    cmd(&mut e, a, Command::Draw { weapon: 0 });
    assert!(
        view::get::<TurnState>(e.world(), a)
            .expect("turn")
            .action_used
    );
}

// ---------------------------------------------------- Ammunition and modes

#[test]
fn crossbow_needs_reloading_as_an_action() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "crossbowman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let shoot = Command::Attack {
        target: b,
        weapon: 0,
        mode: 0,
    };
    cmd(&mut e, a, shoot.clone());
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    e.step();
    let why = refused(&mut e, a, shoot);
    assert_eq!(why, "Crossbow is not loaded (reload it)");
    cmd(&mut e, a, Command::Reload { weapon: 0 });
    let w = view::get::<Loadout>(e.world(), a).expect("loadout").weapons[0].clone();
    assert_eq!((w.loaded, w.spare), (1, Some(14)));
    assert!(
        view::get::<TurnState>(e.world(), a)
            .expect("turn")
            .action_used
    );
}

#[test]
fn volley_mode_uses_three_shots_and_its_own_damage_code() {
    // §Ranged Attacks: "Some ranged weapons can fire multiple shots during one
    // attack ... alternative firing modes and their damage codes".
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "captain", faction: "red", at: (0, 1), name: "A", facing: E, overrides: (weapons: ["repeating_crossbow", "longsword"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // attack 9: 9 + 7 - 2 = 14 vs 14 hits; location 5; damage 2D10+4: 3, 4.
    start(&mut e, &l, &[10, 1, 9, 5, 3, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Attack {
            target: b,
            weapon: 0,
            mode: 1,
        },
    );
    let ev = since(&e, at);
    match &ev[0] {
        BattleEvent::AttackRolled {
            modifiers,
            shots,
            mode,
            total,
            ..
        } => {
            assert_eq!(mode, "volley");
            assert_eq!(*shots, 3);
            assert_eq!(
                names(modifiers),
                vec![("Ranged Combat skill", 7), ("firing mode", -2)]
            );
            assert_eq!(*total, 14);
        }
        other => panic!("{other:?}"),
    }
    match &ev[2] {
        BattleEvent::DamageRolled { roll, .. } => {
            assert_eq!((roll.expr.as_str(), roll.total), ("2D10+4", 11))
        }
        other => panic!("{other:?}"),
    }
    let w = &view::get::<Loadout>(e.world(), a).expect("loadout").weapons[0];
    assert_eq!(w.loaded, 3);
}

// ------------------------------------------------------------- Initiative

#[test]
fn initiative_is_d10_plus_skill_highest_first_and_kept() {
    // §Starting a Combat Round. Archer INI 4, swordsman INI 3.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // A: 6 + 3 = 9; B: 4 + 4 = 8.
    start(&mut e, &l, &[6, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let totals: Vec<(Cid, i32)> = e
        .events()
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::InitiativeRolled { who, total, .. } => Some((*who, *total)),
            _ => None,
        })
        .collect();
    assert_eq!(totals, vec![(a, 9), (b, 8)]);
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    let at = e.events().len();
    e.step();
    // Round 2 keeps the results: no new rolls, same order.
    let ev = since(&e, at);
    assert!(matches!(ev[0], BattleEvent::RoundStarted { round: 2 }));
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::InitiativeRolled { .. }))
    );
    assert_eq!(prompt(&e), Prompt::Act { actor: a });

    // Re-rolled every round when the setting says so: B 10 + 4 beats A 1 + 3.
    e.configure(
        crate::rules::battle::RulesetId::Ud10,
        "keep_initiative",
        "false",
    )
    .expect("setting");
    start(&mut e, &l, &[6, 4, 1, 10]);
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
}

#[test]
fn scripted_die_outside_its_range_is_reported() {
    let l = engaged_level();
    let mut e = engine();
    start(&mut e, &l, &[11]);
    let err = e
        .world()
        .resource::<crate::rules::dice::Dice>()
        .error()
        .cloned()
        .expect("an error");
    assert_eq!((err.index, err.value, err.sides), (1, 11, 10));
}

// ------------------------------------------------------------- The AI, and
// whole battles

fn mirror() -> crate::rules::level::Level {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/mirror_duel.ron");
    crate::data::level::load_level(&path).expect("mirror_duel.ron loads")
}

#[test]
fn same_level_seed_and_commands_give_the_same_log() {
    use crate::rules::engine::{Controls, StartOptions};
    let l = mirror();
    let run = |seed| {
        let mut e = engine();
        let opts = StartOptions {
            seed,
            script: vec![],
            control: Controls::AllAi,
        };
        e.start(&l, crate::rules::battle::RulesetId::Ud10, &opts)
            .expect("start");
        assert_eq!(e.run(100_000), crate::rules::engine::Stop::Over);
        e.log_text()
    };
    let a = run(5);
    assert_eq!(a, run(5));
    assert_ne!(a, run(6));
    // A reused engine gives the same battle as a fresh one.
    let mut e = engine();
    let opts = StartOptions {
        seed: 9,
        script: vec![],
        control: Controls::AllAi,
    };
    e.start(&l, crate::rules::battle::RulesetId::Ud10, &opts)
        .expect("start");
    e.run(100_000);
    let first = e.log_text();
    e.start(&l, crate::rules::battle::RulesetId::Ud10, &opts)
        .expect("start");
    e.run(100_000);
    assert_eq!(first, e.log_text());
}

#[test]
fn tactical_ai_beats_random_legal_commands_in_mirrored_battles() {
    // 200 seeded battles on the mirrored level, the AI on each side for
    // half of them.
    use crate::rules::components::Controller;
    use crate::rules::engine::{Controls, StartOptions};
    let l = mirror();
    let mut e = engine();
    let mut ai_wins = 0;
    let n = 200u64;
    for i in 0..n {
        let ai_side = (i % 2) as usize;
        let mut ctl = vec![Controller::RandomAi, Controller::RandomAi];
        ctl[ai_side] = Controller::Ai;
        let opts = StartOptions {
            seed: crate::sim::battle_seed(2024, i),
            script: vec![],
            control: Controls::PerFaction(ctl),
        };
        e.start(&l, crate::rules::battle::RulesetId::Ud10, &opts)
            .expect("start");
        assert_eq!(e.run(1_000_000), crate::rules::engine::Stop::Over);
        if e.outcome().and_then(|o| o.winner) == Some(ai_side as u8) {
            ai_wins += 1;
        }
    }
    let rate = ai_wins as f64 / n as f64;
    assert!(rate > 0.8, "the AI won {ai_wins} of {n}");
}

#[test]
fn a_hopeless_ai_retreats_from_melee() {
    // The AI retreats (Optional Rule: Retreat) when its side is losing badly
    // and it is hurt.
    use crate::rules::components::{Controller, Health};
    use crate::rules::engine::{Controls, StartOptions};
    let l = level(
        &["..........", "..........", "..........", ".........."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A", facing: E)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 1), name: "B1", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 2), name: "B2", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 0), name: "B3", facing: W)"#,
        ],
    );
    let mut e = engine();
    let opts = StartOptions {
        seed: 1,
        script: vec![10, 1, 1, 1],
        control: Controls::PerFaction(vec![Controller::Ai, Controller::Human]),
    };
    e.start(&l, crate::rules::battle::RulesetId::Ud10, &opts)
        .expect("start");
    let a = cid(&e, "A");
    let ent = view::entity(e.world(), a).expect("entity");
    e.world_mut().get_mut::<Health>(ent).expect("health").hp = 2;
    e.step(); // round 1 begins: A's turn
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    let at = e.events().len();
    e.step(); // the AI answers
    let ev = since(&e, at);
    assert!(
        ev.iter().any(|e| matches!(
            e,
            BattleEvent::Moved {
                mode: MoveMode::Retreat,
                ..
            }
        )),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::AttackRolled { .. }))
    );
}

mod properties {
    use proptest::prelude::*;

    use crate::rules::battle::{BattleLog, RulesetId};
    use crate::rules::components::{Conditions, Health};
    use crate::rules::engine::{Controls, StartOptions, Stop};
    use crate::rules::event::BattleEvent;
    use crate::testkit::engine;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Any seed on any shipped level: the battle ends, every HP change
        /// in the log matches the world, and the fallen are out of the fight.
        #[test]
        fn every_battle_ends_consistently(seed in any::<u64>(), which in 0usize..4) {
            let name = ["open_field", "courtyard", "archer_hill", "mirror_duel"][which];
            let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("levels").join(format!("{name}.ron"));
            let level = crate::data::level::load_level(&path).expect("level");
            let mut e = engine();
            let opts = StartOptions { seed, script: vec![], control: Controls::AllAi };
            e.start(&level, RulesetId::Ud10, &opts).expect("start");
            prop_assert_eq!(e.run(200_000), Stop::Over);
            let events = e.world().resource::<BattleLog>().events.clone();
            let roster = e.world().resource::<crate::rules::battle::Roster>().clone();
            for cid in roster.cids() {
                let ent = roster.entity(cid).expect("entity");
                let hp = e.world().get::<Health>(ent).expect("health");
                let last = events.iter().rev().find_map(|ev| match ev {
                    BattleEvent::Damaged { target, hp_after, .. } if *target == cid => Some(*hp_after),
                    _ => None,
                });
                prop_assert_eq!(last.unwrap_or(hp.hp_max), hp.hp);
                let c = e.world().get::<Conditions>(ent).expect("conditions");
                if hp.hp <= 0 {
                    prop_assert!(c.out_of_fight());
                }
            }
        }
    }
}

#[test]
fn attack_preview_shows_the_cores_numbers() {
    // Swordsman (d10 + 8) against an archer (Defense 13): needs 5 or more:
    // 60%. Longsword 1D10+4 (pen 1) against leather (arms/legs 1, trunk 2,
    // buffer 2; head bare) and CON 1: 2 HP at least (5 on the trunk), 13 at
    // most (14 on the head).
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let p = super::preview::preview(
        e.world(),
        a,
        &Command::Attack {
            target: b,
            weapon: 0,
            mode: 0,
        },
    );
    assert_eq!(p.illegal, None);
    assert_eq!(p.chance, Some(0.6));
    assert_eq!(p.damage, Some((2, 13)));
    assert!(
        p.lines
            .iter()
            .any(|l| l.starts_with("+8 hand-to-hand skill"))
    );
    // A move too far says why.
    let p = super::preview::preview(
        e.world(),
        a,
        &Command::Move {
            path: vec![Cell::new(1, 2)],
        },
    );
    assert!(
        p.title.starts_with("Move 1.5 m: single step"),
        "{}",
        p.title
    );
}
