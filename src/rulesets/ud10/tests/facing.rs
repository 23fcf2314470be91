//! Which way a combatant faces (Fray decides: docs/rulesets/ud10.md, "From
//! behind"): a mover ends facing the nearest enemy, not its last step; in
//! its own turn a combatant turns where it likes, free; the AI alike.

use super::*;
use crate::rules::components::Heading;
use crate::rules::level::Facing;
use crate::rulesets::ud10::event::Faced;
use crate::testkit::at;

fn heading(e: &Engine, c: Cid) -> Option<Facing> {
    view::get::<Heading>(e.world(), c).map(|h| h.0)
}

/// The nearest of the eight directions to a bearing, against the angle
/// worked out in floating point, for every bearing on a 19 × 19 board
/// (none lies exactly between two directions: 22.5° is irrational in
/// integers).
#[test]
fn a_bearing_rounds_to_the_nearest_of_the_eight_directions() {
    assert_eq!(Facing::toward(0, 0), None);
    assert_eq!(Facing::toward(5, 2), Some(Facing::E)); // 21.8° off east
    assert_eq!(Facing::toward(2, 1), Some(Facing::SE)); // 26.6° off east
    assert_eq!(Facing::toward(-2, -5), Some(Facing::N)); // 21.8° off north
    assert_eq!(Facing::toward(-3, -7), Some(Facing::NW)); // 23.2° off north
    for dx in -9i32..=9 {
        for dy in -9i32..=9 {
            if (dx, dy) == (0, 0) {
                continue;
            }
            let cos = |f: Facing| {
                let (fx, fy) = f.delta();
                f64::from(dx * fx + dy * fy)
                    / (f64::from(fx * fx + fy * fy).sqrt() * f64::from(dx * dx + dy * dy).sqrt())
            };
            let best = Facing::ALL
                .into_iter()
                .max_by(|a, b| cos(*a).total_cmp(&cos(*b)))
                .unwrap();
            assert_eq!(Facing::toward(dx, dy), Some(best), "({dx}, {dy})");
        }
    }
}

/// A walks two cells west, away from B: its last step points west, but it
/// ends facing the nearest enemy, C, south-west of it (a logged event),
/// not B far to the east.
#[test]
fn a_mover_ends_facing_the_nearest_enemy_not_its_last_step() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (8, 1), name: "B", facing: W)"#,
            r#"(archetype: "archer", faction: "blue", at: (0, 2), name: "C", facing: E)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1]);
    let (a, c) = (cid(&e, "A"), cid(&e, "C"));
    let from = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(2, 1), Cell::new(1, 1)],
        },
    );
    assert_eq!(heading(&e, a), Some(Facing::SW));
    let faced: Vec<_> = since(&e, from)
        .into_iter()
        .filter_map(|x| match x.own::<Ud10Event>() {
            Some(Ud10Event::Faced(Faced {
                who,
                towards,
                facing,
                ..
            })) => Some((*who, *towards, *facing)),
            _ => None,
        })
        .collect();
    assert_eq!(faced, vec![(a, Some(c), Facing::SW)]);
    // A step north leaves C south-west still: its last step would have
    // turned it north; it turns back to C.
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(1, 0)],
        },
    );
    assert_eq!(heading(&e, a), Some(Facing::SW));
}

/// In its own turn a combatant turns where it likes, free: the action and
/// the movement stay; the way it already faces, or someone else's turn, is
/// refused.
#[test]
fn turning_is_free_in_ones_own_turn() {
    let (mut e, a, b) = duel(&[10, 1]);
    assert_eq!(heading(&e, a), Some(Facing::E));
    assert!(
        refused(&mut e, a, Ud10Command::Face { facing: Facing::E }).contains("already facing east")
    );
    assert!(refused(&mut e, b, Ud10Command::Face { facing: Facing::N }).contains("turn"));
    cmd(&mut e, a, Ud10Command::Face { facing: Facing::N });
    assert_eq!(heading(&e, a), Some(Facing::N));
    let t = crate::rulesets::ud10::query::turn(e.world(), a);
    assert!(!t.action_used && t.moved_dm == 0, "{t:?}");
    // Still free to strike B, which turns A back to face it.
    strike(&mut e, a, b);
    assert_eq!(heading(&e, a), Some(Facing::E));
}

/// The ways offered are those whose neighbouring cell is on the map, but
/// the one faced: in a corner, three.
#[test]
fn the_ways_to_turn_are_those_onto_the_board() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (8, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let a = cid(&e, "A");
    assert_eq!(
        crate::rulesets::ud10::facing::facings(e.world(), a),
        vec![Facing::SE, Facing::S]
    );
    let legal = crate::rulesets::ud10::legal::legal_commands(e.world(), a);
    let faces: Vec<_> = legal
        .iter()
        .filter_map(|c| match c.own::<Ud10Command>() {
            Some(Ud10Command::Face { facing }) => Some(*facing),
            _ => None,
        })
        .collect();
    assert_eq!(faces, vec![Facing::SE, Facing::S]);
}

/// The AI's moves go through the same executor: an AI swordsman closing on
/// two archers ends each move facing the nearer one.
#[test]
fn the_ai_ends_its_moves_facing_the_nearest_enemy() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "A", facing: N)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 2), name: "B", facing: W)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 0), name: "C", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1]);
    let a = cid(&e, "A");
    let command = crate::rulesets::ud10::ai::decide(e.world(), a);
    assert!(matches!(command, Command::Move { .. }), "{command:?}");
    cmd(&mut e, a, command);
    let here = at(&e, a);
    let (_, want) = crate::rulesets::ud10::facing::nearest_enemy(e.world(), a, here).unwrap();
    assert_eq!(heading(&e, a), Some(want), "at {here:?}");
}
