//! The ud10 AI against random play, determinism, and the attack preview.

use super::*;

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
    e.start(&l, crate::rulesets::ud10::ID, &opts)
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
            .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::AttackRolled { .. })))
    );
}

mod properties {
    use proptest::prelude::*;

    use crate::rules::battle::BattleLog;
    use crate::rules::components::Health;
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
            e.start(&level, crate::rulesets::ud10::ID, &opts).expect("start");
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
