//! §Movement, §Optional Rule: Fleeing From Battle, §Optional Rule: Retreat.

use super::*;
use crate::rules::event::{Moved, TurnEnded};
use crate::rulesets::ud10::event::AttackRolled;

pub(super) fn engaged_level() -> crate::rules::level::Level {
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
    match ev[0].own::<Ud10Event>() {
        Some(Ud10Event::AttackRolled(AttackRolled {
            attacker,
            target,
            free,
            defense,
            defense_parts,
            total,
            hit,
            ..
        })) => {
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
    assert!(matches!(ev[1], BattleEvent::Moved(Moved { .. })));
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
    e.configure(crate::rulesets::ud10::ID, "fleeing", "false")
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
    assert!(matches!(ev[0], BattleEvent::Moved(Moved { .. })));
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::AttackRolled(_))))
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
        Ud10Command::Retreat {
            path: vec![Cell::new(2, 1), Cell::new(1, 1)],
        },
    );
    let ev = since(&e, at);
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::AttackRolled(_))))
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        BattleEvent::Moved(Moved {
            mode: MoveMode::Retreat,
            ..
        })
    )));
    assert!(
        ev.contains(&BattleEvent::TurnEnded(TurnEnded { who: a })),
        "{ev:?}"
    );
    // The battle moves straight on to B.
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
    // Retreat only from an engagement, and only as the whole round.
    let why = refused(
        &mut e,
        b,
        Ud10Command::Retreat {
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
        BattleEvent::Moved(Moved {
            mode: MoveMode::Step,
            cost_dm: 15,
            ..
        })
    ));
    // Three more cells: 4 x 1.5 = 6 m <= 7 m: standard.
    let at = e.events().len();
    cmd(&mut e, a, Command::Move { path: path(2, 4) });
    assert!(matches!(
        since(&e, at)[0],
        BattleEvent::Moved(Moved {
            mode: MoveMode::Standard,
            ..
        })
    ));
    // A fifth cell: 7.5 m > 7 m: full movement.
    cmd(&mut e, a, Command::Move { path: path(5, 5) });
    assert_eq!(
        crate::rulesets::ud10::query::turn(e.world(), a).movement,
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
    // The preview and the log line (the player's Tab) state the cost.
    let title = |e: &Engine, weapon| {
        crate::rulesets::ud10::preview::preview(e.world(), a, &Command::Draw { weapon }).title
    };
    let drew = |e: &Engine| {
        let n = crate::rules::roster::Names {
            roster: e.world().resource::<crate::rules::roster::Roster>(),
            factions: e.world().resource::<crate::rules::roster::Factions>(),
        };
        crate::rules::narrate::describe(&n, e.events().last().expect("an event"))
    };
    assert_eq!(
        title(&e, 1),
        "Draw the Dagger (part of your standard movement)"
    );
    // The dagger (small) as movement: the action stays free.
    cmd(&mut e, a, Command::Draw { weapon: 1 });
    assert_eq!(
        drew(&e),
        "A draws the Dagger (part of its standard movement)  [ud10 §Movement]"
    );
    let t = crate::rulesets::ud10::query::turn(e.world(), a);
    assert!(!t.action_used);
    assert_eq!(t.movement, MoveMode::Standard);
    // Drawing the longsword back takes the action.
    assert_eq!(title(&e, 0), "Draw the Longsword (spends the action)");
    cmd(&mut e, a, Command::Draw { weapon: 0 });
    assert_eq!(
        drew(&e),
        "A draws the Longsword (spends the action)  [ud10 §Performing Actions]"
    );
    assert!(
        view::get::<TurnState>(e.world(), a)
            .expect("turn")
            .action_used
    );
}
