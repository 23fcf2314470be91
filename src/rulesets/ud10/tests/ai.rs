//! The ud10 AI against random play, determinism, and the attack preview.

use super::*;
use crate::rules::event::{Fled, Moved};
use crate::rulesets::ud10::event::{Aimed, AttackRolled};

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
        e.start(&l, crate::rulesets::ud10::ID, &opts)
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
    e.start(&l, crate::rulesets::ud10::ID, &opts)
        .expect("start");
    e.run(100_000);
    let first = e.log_text();
    e.start(&l, crate::rulesets::ud10::ID, &opts)
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
        e.start(&l, crate::rulesets::ud10::ID, &opts)
            .expect("start");
        assert_eq!(e.run(1_000_000), crate::rules::engine::Stop::Over);
        if e.outcome().and_then(|o| o.winner) == Some(ai_side as u8) {
            ai_wins += 1;
        }
    }
    let rate = ai_wins as f64 / n as f64;
    assert!(rate > 0.8, "the AI won {ai_wins} of {n}");
}

/// A (red, the AI) at 2 HP against brutes (blue, human): what A's AI does
/// with the first command of its turn. Initiative: A first.
fn hopeless_first_command(rows: &[&str], combatants: &[&str]) -> Vec<BattleEvent> {
    use crate::rules::components::{Controller, Health};
    use crate::rules::engine::{Controls, StartOptions};
    let l = level(rows, combatants);
    let mut e = engine();
    let mut script = vec![10];
    // The brutes' initiative, then their free attacks miss.
    script.extend(std::iter::repeat_n(1, 2 * (combatants.len() - 1)));
    let opts = StartOptions {
        seed: 1,
        script,
        control: Controls::PerFaction(vec![Controller::Ai, Controller::Human]),
    };
    e.start(&l, crate::rulesets::ud10::ID, &opts)
        .expect("start");
    let a = cid(&e, "A");
    let ent = view::entity(e.world(), a).expect("entity");
    e.world_mut().get_mut::<Health>(ent).expect("health").hp = 2;
    e.step(); // round 1 begins: A's turn
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    let at = e.events().len();
    e.step(); // the AI answers
    since(&e, at)
}

fn attacked(ev: &[BattleEvent]) -> bool {
    ev.iter()
        .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::AttackRolled(_))))
}

#[test]
fn a_hopeless_ai_retreats_from_melee() {
    // The AI retreats (Optional Rule: Retreat) when its side is losing badly
    // and it is hurt.
    let ev = hopeless_first_command(
        &["..........", "..........", "..........", ".........."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A", facing: E)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 1), name: "B1", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 2), name: "B2", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 0), name: "B3", facing: W)"#,
        ],
    );
    assert!(
        ev.iter().any(|e| matches!(
            e,
            BattleEvent::Moved(Moved {
                mode: MoveMode::Retreat,
                ..
            })
        )),
        "{ev:?}"
    );
    assert!(!attacked(&ev), "{ev:?}");
}

mod properties {
    use proptest::prelude::*;

    use crate::rules::components::Health;
    use crate::rules::engine::{Controls, StartOptions, Stop};
    use crate::rules::event::BattleEvent;
    use crate::rules::log::BattleLog;
    use crate::testkit::engine;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Any seed on any shipped level: the battle ends, every HP change
        /// in the log (damage, first aid) matches the world, and the fallen
        /// are out of the fight.
        #[test]
        fn every_battle_ends_consistently(seed in any::<u64>(), which in 0usize..4) {
            let name = ["open_field", "courtyard", "archer_hill", "mirror_duel"][which];
            let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("levels").join(format!("{name}.ron"));
            let level = crate::data::level::load_level(&path).expect("level");
            let mut e = engine();
            let opts = StartOptions { seed, script: vec![], control: Controls::AllAi };
            e.start(&level, crate::rulesets::ud10::ID, &opts).expect("start");
            prop_assert_eq!(e.run(200_000), Stop::Over);
            let events = e.world().resource::<BattleLog>().events.clone();
            let roster = e.world().resource::<crate::rules::roster::Roster>().clone();
            for cid in roster.cids() {
                let ent = roster.entity(cid).expect("entity");
                let hp = e.world().get::<Health>(ent).expect("health");
                let last = events.iter().rev().find_map(|ev| match ev {
                    BattleEvent::Damaged(crate::rules::event::Damaged { target, hp_after, .. })
                    | BattleEvent::Healed(crate::rules::event::Healed { target, hp_after, .. }) if *target == cid => Some(*hp_after),
                    _ => None,
                });
                prop_assert_eq!(last.unwrap_or(hp.hp_max), hp.hp);
                let c = crate::rules::view::conditions(e.world(), cid);
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
    let (e, a, b) = duel(&[10, 1]);
    // The preview the game shows: the ruleset's hook.
    let preview = crate::rulesets::skeleton::hooks::<crate::rulesets::ud10::Ud10>().preview;
    let p = preview(
        e.world(),
        a,
        &Command::Attack {
            target: b,
            weapon: 0,
            mode: 0,
        },
    );
    assert_eq!(p.illegal, None);
    // A weapon it does not carry: the same check as the command says why.
    let bad = preview(
        e.world(),
        a,
        &Command::Attack {
            target: b,
            weapon: 9,
            mode: 0,
        },
    );
    assert!(bad.illegal.is_some(), "{bad:?}");
    assert_eq!(p.chance, Some(0.6));
    assert_eq!(p.damage, Some((2, 13)));
    assert!(
        p.lines
            .iter()
            .any(|l| l.starts_with("+8 hand-to-hand skill"))
    );
    // A move too far says why.
    let p = preview(
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

/// Two crossbowmen in range of each other but for a wall: each goes to a
/// cell from which it can shoot the other, and the battle ends (they once
/// ended their turns until the round limit).
#[test]
fn shooters_out_of_each_others_sight_seek_a_firing_position() {
    use crate::rules::engine::{Controls, StartOptions, Stop};
    let l = level_with(
        &POCKET,
        &[
            r#"(archetype: "crossbowman", faction: "red", at: (5, 3), name: "W", facing: E)"#,
            r#"(archetype: "crossbowman", faction: "blue", at: (9, 4), name: "E", facing: W)"#,
        ],
        "max_rounds: 10,",
    );
    for seed in 1..=5 {
        let mut e = engine();
        let opts = StartOptions {
            seed,
            script: vec![],
            control: Controls::AllAi,
        };
        e.start(&l, crate::rulesets::ud10::ID, &opts)
            .expect("start");
        assert_eq!(e.run(100_000), Stop::Over);
        let shots = e
            .events()
            .iter()
            .filter(|ev| matches!(ev.own::<Ud10Event>(), Some(Ud10Event::AttackRolled(_))))
            .count();
        assert!(shots > 0, "seed {seed}: nobody shot\n{}", e.log_text());
        assert!(
            e.outcome().and_then(|o| o.winner).is_some(),
            "seed {seed}: no winner\n{}",
            e.log_text()
        );
    }
}

/// A walled room with a door at (2,6), and a wall east of it.
const POCKET: [&str; 8] = [
    "............",
    ".#######....",
    ".#.....#....",
    ".#.....#..#.",
    ".#.....#..#.",
    ".#.....#..#.",
    ".#.#####..#.",
    "............",
];

/// A crossbowman out of sight of a swordsman heads for where it can shoot
/// it, but never beside it and never past it (no free attack drawn), and
/// shoots (or aims) at it the next round.
#[test]
fn a_shooter_out_of_sight_moves_into_sight_but_not_into_reach() {
    use crate::rules::components::Controller;
    use crate::rules::engine::{Controls, StartOptions};
    use crate::rules::map::Map;
    let l = level(
        &POCKET,
        &[
            r#"(archetype: "crossbowman", faction: "red", at: (5, 3), name: "W", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (9, 4), name: "S", facing: W)"#,
        ],
    );
    let mut e = engine();
    let opts = StartOptions {
        seed: 1,
        // Initiative: W 10, S 1.
        script: vec![10, 1],
        control: Controls::PerFaction(vec![Controller::Ai, Controller::Human]),
    };
    e.start(&l, crate::rulesets::ud10::ID, &opts)
        .expect("start");
    let (w, s) = (cid(&e, "W"), cid(&e, "S"));
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: w });
    let at = e.events().len();
    while matches!(prompt(&e), Prompt::Act { actor } if actor == w) {
        e.step();
    }
    let ev = since(&e, at);
    assert!(
        ev.iter()
            .any(|e| matches!(e, BattleEvent::Moved(Moved { .. }))),
        "{ev:?}"
    );
    let (wc, sc) = (
        view::cell(e.world(), w).expect("on the map"),
        view::cell(e.world(), s).expect("on the map"),
    );
    assert!(Map::chebyshev(wc, sc) > 1, "{wc} is beside {sc}");
    assert!(
        !ev.iter().any(|e| matches!(
            e.own::<Ud10Event>(),
            Some(Ud10Event::AttackRolled(AttackRolled { free: true, .. }))
        )),
        "a free attack was drawn: {ev:?}"
    );
    // S waits; in the next round W shoots at it, or aims the long shot.
    assert_eq!(prompt(&e), Prompt::Act { actor: s });
    cmd(&mut e, s, Command::EndTurn);
    let at = e.events().len();
    while !matches!(prompt(&e), Prompt::Act { actor } if actor == s) {
        e.step();
    }
    let ev = since(&e, at);
    assert!(
        ev.iter().any(|e| matches!(
            e.own::<Ud10Event>(),
            Some(Ud10Event::AttackRolled(AttackRolled { attacker, target, .. })
                | Ud10Event::Aimed(Aimed { who: attacker, target, .. }))
                if *attacker == w && *target == s
        )),
        "{}",
        e.log_text()
    );
}

/// Hurt and losing badly, on the map's edge, engaged: the AI leaves the
/// battle (§Optional Rule: Fleeing From Battle), free attacks and all,
/// rather than retreat a step its pursuers close every round.
#[test]
fn a_hopeless_ai_on_the_edge_flees_even_when_engaged() {
    let ev = hopeless_first_command(
        &["..........", "..........", "..........", ".........."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "brute", faction: "blue", at: (1, 1), name: "B1", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (1, 2), name: "B2", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (1, 0), name: "B3", facing: W)"#,
        ],
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, BattleEvent::Fled(Fled { .. }))),
        "{ev:?}"
    );
}

/// Hurt and losing badly in a walled yard with no way off the map: the
/// AI fights on instead of backing away round after round (a captain once
/// retreated from a dagger until the round limit).
#[test]
fn a_hopeless_ai_with_no_way_off_the_map_fights_on() {
    let ev = hopeless_first_command(
        &[
            "##########",
            "#........#",
            "#........#",
            "#........#",
            "##########",
        ],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (3, 2), name: "A", facing: E)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 2), name: "B1", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 3), name: "B2", facing: W)"#,
        ],
    );
    assert!(attacked(&ev), "{ev:?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, BattleEvent::Moved(Moved { .. }))),
        "{ev:?}"
    );
}

/// Battles of shipped levels that ran to the round limit before the AI
/// learned to seek firing positions and to leave a lost fight: each now
/// has a winner.
#[test]
fn battles_that_once_ran_to_the_round_limit_end() {
    for (name, seed) in [
        ("mirror_duel", 9_138_974_443_854_528_286),
        ("ruined_keep", 15_259_553_475_539_958_669),
    ] {
        let e = crate::testkit::play_shipped(name, crate::rulesets::ud10::ID, seed);
        assert!(
            e.outcome().and_then(|o| o.winner).is_some(),
            "{name}, seed {seed}: no winner"
        );
    }
}

/// An archer at A's turn, a shieldbearer `cells` away (crouching or not):
/// the hit chance of a shot now, and what the AI does.
fn archer_decides(cells: i32, crouching: bool) -> (f64, Command) {
    let row = ".".repeat(32);
    let target = format!(
        r#"(archetype: "shieldbearer", faction: "blue", at: ({cells}, 0), name: "S", facing: W)"#
    );
    let l = level(
        &[&row, &row],
        &[
            r#"(archetype: "archer", faction: "red", at: (0, 0), name: "A", facing: E)"#,
            &target,
        ],
    );
    let mut e = engine();
    // Initiative: A 10, S 1.
    start(&mut e, &l, &[10, 1]);
    let (a, s) = (cid(&e, "A"), cid(&e, "S"));
    if crouching {
        set_condition(&mut e, s, Condition::Crouching);
    }
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    let p = numbers(&e, a, s).hit_chance_with(0);
    (p, crate::rulesets::ud10::ai::decide(e.world(), a))
}

/// §Attack Modifiers: aiming gives +2 after a round, +4 after two. A shot
/// at 10 % (37.5 m, two range increments exceeded, the target crouching
/// behind its shield) is worth less than an aimed one at 30 % next round:
/// the AI aims. At 50 % it shoots.
#[test]
fn the_ai_aims_a_long_shot_and_takes_a_fair_one() {
    let (p, c) = archer_decides(25, true);
    assert!((p - 0.1).abs() < 1e-9, "{p}");
    assert!(
        matches!(c.own::<Ud10Command>(), Some(Ud10Command::Aim { .. })),
        "{c:?}"
    );
    let (p, c) = archer_decides(5, false);
    assert!((p - 0.5).abs() < 1e-9, "{p}");
    assert!(matches!(c, Command::Attack { .. }), "{c:?}");
}
