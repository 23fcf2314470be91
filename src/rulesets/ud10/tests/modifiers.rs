//! §Attack Modifiers: higher ground, range increments, visibility, moving, aiming, cover, line of sight.

use super::*;
use crate::rulesets::ud10::event::AttackRolled;

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
    cmd(&mut e, b, Ud10Command::TakeCover);
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
    // Its tooltip says what it costs: aiming is the turn's action.
    let hooks = e.world().resource::<crate::rules::hooks::ActiveRuleset>().0;
    let aim = crate::rules::command::Command::from(Ud10Command::Aim {
        target: b,
        weapon: 0,
    });
    assert!(
        (hooks.preview)(e.world(), a, &aim)
            .title
            .ends_with("; spends the action")
    );
    cmd(
        &mut e,
        a,
        Ud10Command::Aim {
            target: b,
            weapon: 0,
        },
    );
    assert!(
        view::get::<crate::rules::components::TurnState>(e.world(), a)
            .is_some_and(|t| t.action_used)
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
        Ud10Command::Aim {
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
    let Some(Ud10Event::AttackRolled(AttackRolled { total, hit, .. })) =
        ev.first().and_then(|e| e.own())
    else {
        panic!("no attack: {ev:?}")
    };
    assert_eq!((*total, *hit), (13, false));
    // Aim is spent by the attack.
    assert_eq!(
        view::get::<crate::rulesets::ud10::state::Ud10Turn>(e.world(), a).and_then(|t| t.aim),
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
        Ud10Command::Aim {
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

/// The AI works a melee blow's totals out once per [`melee_key`] of the
/// cell it would strike from: the key must hold all the totals read of the
/// cell (higher ground, the target's rear arc). Every cell around a
/// defender on a hill, facing east, with the rear arc counted on its own.
///
/// [`melee_key`]: crate::rulesets::ud10::numbers::melee_key
#[test]
fn a_melee_blows_totals_read_its_cell_only_through_the_melee_key() {
    use crate::rulesets::ud10::numbers::{Sides, melee_key, totals_from};
    let l = level(
        &[
            "..........",
            "....^^....",
            "...^^.....",
            "..........",
            "..........",
        ],
        &[
            r#"(archetype: "spearman", faction: "red", at: (0, 0), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 2), name: "B", facing: E)"#,
        ],
    );
    let (e, a, b) = begun_with(&l, "facing");
    let w = e.world();
    let weapon = view::get::<Loadout>(w, a)
        .and_then(|l| l.ready_weapon())
        .expect("weapon in hand")
        .clone();
    assert!(!weapon.is_ranged());
    let sides = Sides::of(w, a, b, false);
    let mut seen: [Option<(i32, i32, bool)>; 4] = [None; 4];
    for y in 0..5 {
        for x in 2..7 {
            let from = Cell::new(x, y);
            let t = totals_from(&sides, from, &weapon, 0);
            let got = (t.bonus, t.defense, t.dex_counts);
            let k = melee_key(&sides, from);
            match seen[k] {
                None => seen[k] = Some(got),
                Some(s) => assert_eq!(s, got, "cell {from:?}, key {k}"),
            }
        }
    }
    // Every key came up, with the numbers the rules give: the spearman's
    // Melee 8 (ud10 §Attacking), 2 less against the defender on higher
    // ground (§Attack Modifiers: "opponent on higher ground -2"); Defense
    // 10 + DEX 2 + shield 2 = 14 (§Attacking, §Defense Rating Modifiers),
    // 10 from its rear, where DEX does not count ("attacked from behind")
    // nor, Fray decides, the shield (docs/rulesets/ud10.md).
    let seen = seen.map(|s| s.expect("every key comes up"));
    assert_eq!(
        seen,
        [(8, 14, true), (6, 14, true), (8, 10, false), (6, 10, false)]
    );
}

/// [`shot_chance_bound`]: no cell gives a shot a better chance than it,
/// and a cell that drops every cell-dependent penalty gives exactly it.
/// An archer (Ranged Combat 8, ud10 §Attacking) shooting at a swordsman
/// facing east (Defense 10 + DEX 2 + shield 2 = 14, §Defense Rating
/// Modifiers) with low cover beside it: from behind it under
/// `from_behind: facing`, DEX does not count ("attacked from behind",
/// §Attacking) nor, Fray decides, the shield: Defense 10, so a d10 + 8
/// hits on 2 or more, 0.9; after a standard movement (-4, §Attack
/// Modifiers) on 6 or more, 0.5. Under `from_behind: busy` with nobody
/// else engaging the target, DEX and shield count from everywhere: 14,
/// 0.5. Every cell of the map within the bow's first range increment
/// (15 m, §Ranged Attacks: no penalty) is weighed, cover or not.
///
/// [`shot_chance_bound`]: crate::rulesets::ud10::numbers::shot_chance_bound
#[test]
fn a_shots_bound_is_the_best_chance_any_cell_gives() {
    use crate::rulesets::ud10::numbers::{Sides, shot_chance_bound, totals_from};
    let l = level(
        &[
            "..........",
            "..........",
            ".....c....",
            "..........",
            "..........",
        ],
        &[
            r#"(archetype: "archer", faction: "red", at: (0, 0), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 2), name: "B", facing: E)"#,
        ],
    );
    for (from_behind, bound, moved) in [("facing", 0.9, 0.5), ("busy", 0.5, 0.1)] {
        let (e, a, b) = begun_with(&l, from_behind);
        let w = e.world();
        let bow = view::get::<Loadout>(w, a)
            .and_then(|l| l.ready_weapon())
            .expect("bow in hand")
            .clone();
        assert!(bow.is_ranged());
        let sides = Sides::of(w, a, b, false);
        assert_eq!(
            shot_chance_bound(&sides, &bow, 0, 0),
            bound,
            "{from_behind}"
        );
        assert_eq!(
            shot_chance_bound(&sides, &bow, 0, -4),
            moved,
            "{from_behind}"
        );
        let mut best: f64 = 0.0;
        for y in 0..5 {
            for x in 0..10 {
                let from = Cell::new(x, y);
                if from == Cell::new(4, 2) {
                    continue;
                }
                let p = totals_from(&sides, from, &bow, 0).hit_chance_with(0);
                assert!(p <= bound, "{from_behind}: {from:?} gives {p} over {bound}");
                best = best.max(p);
            }
        }
        assert_eq!(best, bound, "{from_behind}: some cell reaches the bound");
    }
}
