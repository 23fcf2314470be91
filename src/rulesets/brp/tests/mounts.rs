//! Mounts and vehicles under brp (Fray's: the text has no mounted combat;
//! docs/rulesets/brp.md, "Mounts and vehicles").

use super::*;
use crate::rules::battle::Phase;
use crate::rules::components::Condition;
use crate::rules::event::Dismounted;
use crate::rules::map::Cell;
use crate::rulesets::brp::event::Ranked;
use crate::testkit::{at, has, refused, set_hp};

#[test]
fn a_rider_moves_with_its_mount_and_takes_its_movement_for_its_rank() {
    let mut e = battle(
        8,
        &[
            r#"(archetype: "horse", faction: "red", at: (1, 1), name: "H")"#,
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "R", riding: Some("H"))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "T", overrides: (stats: {"DEX": 5}))"#,
        ],
        &[],
    );
    let (h, r, t) = (cid(&e, "H"), cid(&e, "R"), cid(&e, "T"));
    // DEX 12 both: the rider's sword (60%) before the horse's kick (25%).
    state(
        &mut e,
        "R",
        Intent::Attack {
            target: t,
            weapon: 0,
        },
    );
    state(
        &mut e,
        "H",
        Intent::Attack {
            target: t,
            weapon: 0,
        },
    );
    state(&mut e, "T", Intent::Defend);
    let why = refused(
        &mut e,
        r,
        Command::Move {
            path: vec![Cell::new(2, 1)],
        },
    );
    assert!(why.contains("rides H: it moves with its mount"), "{why}");
    pass(&mut e, "R");
    let path: Vec<Cell> = (2..=5).map(|x| Cell::new(x, 1)).collect();
    cmd(&mut e, h, Command::Move { path });
    assert_eq!(at(&e, r), Cell::new(5, 1), "carried along");
    let at_ranks = e.events().len();
    pass(&mut e, "H");
    pass(&mut e, "T");
    let ranks: Vec<(Cid, i32)> = own(&e, at_ranks)
        .into_iter()
        .filter_map(|ev| match ev {
            BrpEvent::Ranked(Ranked { who, rank, .. }) => Some((who, rank)),
            _ => None,
        })
        .collect();
    // 6 m carried: half of DEX 12, for the horse and its rider alike.
    assert!(
        ranks.contains(&(r, 6)) && ranks.contains(&(h, 6)),
        "{ranks:?}"
    );
}

#[test]
fn a_mount_that_falls_throws_its_rider_beside_it() {
    // T (DEX 16) strikes the horse: a special with the broadsword (9 + 1D8
    // 8 + 1 + 1D4 4 = 22) against 20 hit points.
    let mut e = battle(
        8,
        &[
            r#"(archetype: "horse", faction: "red", at: (2, 1), name: "H")"#,
            r#"(archetype: "swordsman", faction: "red", at: (2, 1), name: "R", riding: Some("H"))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (3, 1), name: "T", overrides: (stats: {"DEX": 16}))"#,
        ],
        &[5, 8, 4],
    );
    let (h, r, t) = (cid(&e, "H"), cid(&e, "R"), cid(&e, "T"));
    set_hp(&mut e, h, 20);
    state(
        &mut e,
        "T",
        Intent::Attack {
            target: h,
            weapon: 0,
        },
    );
    state(&mut e, "R", Intent::Defend);
    state(&mut e, "H", Intent::Defend);
    for who in ["T", "R", "H"] {
        pass(&mut e, who);
    }
    let from = e.events().len();
    cmd(&mut e, t, attack(h));
    if matches!(prompt(&e), Prompt::React { .. }) {
        cmd(&mut e, h, Command::NoReaction);
    }
    assert!(has(&e, h, Condition::Unconscious));
    let thrown = since(&e, from).iter().any(|ev| {
        matches!(ev, BattleEvent::Dismounted(Dismounted { who, mount, thrown: true, .. }) if *who == r && *mount == h)
    });
    assert!(thrown, "the rider is thrown");
    assert_ne!(at(&e, r), at(&e, h));
    assert_eq!(crate::rules::view::riding(e.world(), r), None);
}

#[test]
fn a_vehicle_states_nothing_and_moves_only_with_someone_aboard() {
    let mut e = battle(
        10,
        &[
            r#"(archetype: "wagon", faction: "red", at: (1, 1), name: "W")"#,
            r#"(archetype: "wagon", faction: "red", at: (1, 2), name: "Empty")"#,
            r#"(archetype: "spearman", faction: "red", at: (1, 1), name: "D", riding: Some("W"))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (8, 1), name: "T", overrides: (stats: {"DEX": 5}))"#,
        ],
        &[],
    );
    let (w, t) = (cid(&e, "W"), cid(&e, "T"));
    // The statements skip both wagons: the driver, then T.
    state(
        &mut e,
        "D",
        Intent::Attack {
            target: t,
            weapon: 0,
        },
    );
    state(&mut e, "T", Intent::Defend);
    assert_eq!(
        e.world().resource::<crate::rules::battle::Battle>().phase,
        Phase::Movement
    );
    // Movement in DEX order (D 11, T 5, the wagons 1): the manned wagon
    // moves, carrying its driver; the empty one is never asked.
    pass(&mut e, "D");
    pass(&mut e, "T");
    assert_eq!(prompt(&e), Prompt::Act { actor: w });
    cmd(
        &mut e,
        w,
        Command::Move {
            path: vec![Cell::new(2, 1)],
        },
    );
    assert_eq!(at(&e, cid(&e, "D")), Cell::new(2, 1));
    pass(&mut e, "W");
    assert_eq!(
        e.world().resource::<crate::rules::battle::Battle>().phase,
        Phase::Actions,
        "the empty wagon is skipped"
    );
    let empty = cid(&e, "Empty");
    let why = crate::rules::view::reading(e.world(), |w| {
        crate::rulesets::brp::check::check_move(w, empty, &[Cell::new(2, 2)])
    });
    assert!(
        why.is_err_and(|i| i.0.contains("only with someone aboard")),
        "an empty wagon stays"
    );
}
