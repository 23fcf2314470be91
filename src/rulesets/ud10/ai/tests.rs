//! The AI's search for a move to attack from, against every cell weighed:
//! the bounds that spare cells and searches never change an answer.

use super::*;
use crate::rules::engine::{Controls, Engine};
use crate::testkit::{engine, start_shipped};

/// [`find_move_to_attack`] with no bound: every cell within a standard
/// movement weighed, its shot's -4 after more than a step, the free
/// attacks its path draws, the first best in the tree's order above
/// `floor`.
fn every_cell(look: &Look, floor: Option<f64>) -> MoveToAttack {
    let (world, actor) = (look.world, look.actor);
    let table = look.table()?;
    let map = view::resource::<Map>(world);
    let l = view::get::<Loadout>(world, actor)?;
    let weapon = l.weapons.get(table.weapon)?;
    let w_ranged = l.ready_weapon().is_some_and(|w| w.is_ranged());
    let budget = look.keeps_action;
    let tree = look.tree(budget)?;
    let breaks = look.breaks(tree);
    let mut best: Option<(f64, Cell)> = None;
    for (cell, _) in tree.within(budget) {
        let shift = if w_ranged && tree.parent(cell).is_some_and(|p| p != tree.start) {
            -4
        } else {
            0
        };
        let Some((v, _, _)) = best_attack_with(map, weapon, cell, table, shift, None) else {
            continue;
        };
        let mut score = v;
        if let Some(b) = breaks {
            score -= 1.2 * f64::from(b.count(tree, cell));
        }
        if best.is_none_or(|b| score > b.0) && floor.is_none_or(|f| score > f) {
            best = Some((score, cell));
        }
    }
    let (score, cell) = best?;
    Some((score, tree.path_to(cell)?))
}

/// Play `seeds` of each of `levels` under ud10 to the end, AI on every
/// side, and at every decision of an actor standing on the map call
/// `at` (in a reading scope) with the world, the level, the seed, the
/// actor, its cell and its turn.
fn each_decision(
    levels: &[&str],
    seeds: std::ops::RangeInclusive<u64>,
    mut at: impl FnMut(&World, &str, u64, Cid, Cell, &Turn),
) {
    let mut e: Engine = engine();
    for level in levels {
        for seed in seeds.clone() {
            start_shipped(
                &mut e,
                level,
                crate::rulesets::ud10::ID,
                seed,
                Controls::AllAi,
            );
            for _ in 0..3_000 {
                let battle = view::resource::<Battle>(e.world());
                if battle.is_over() {
                    break;
                }
                if let Prompt::Act { actor } = battle.prompt {
                    view::reading(e.world(), |w| {
                        if let Some(here) = view::cell(w, actor) {
                            at(w, level, seed, actor, here, &turn(w, actor));
                        }
                    });
                }
                e.step();
            }
        }
    }
}

/// At every decision of whole battles where the actor may still move to
/// attack, the search finds what weighing every cell finds: above no
/// floor, above the floor striking from here sets (a quarter more), and
/// above one any attack beats. On three levels, shooters and fighters.
#[test]
fn the_move_to_attack_is_what_weighing_every_cell_finds() {
    let mut asked = 0;
    let mut moves = 0;
    let mut shots = 0;
    let levels = ["mirror_duel", "archer_hill", "ruined_keep"];
    each_decision(&levels, 1..=3, |w, level, seed, actor, here, t| {
        if t.action_used || t.moved_before_action {
            return;
        }
        let look = Look::new(w, actor, here, t);
        let now = look
            .table()
            .and_then(|tb| best_attack_from(w, actor, here, tb, 0));
        let ranged = view::get::<Loadout>(w, actor)
            .and_then(|l| l.ready_weapon())
            .is_some_and(|r| r.is_ranged());
        for floor in [None, now.map(|(v, _, _)| v * 1.25 + 0.02), Some(0.0)] {
            let found = find_move_to_attack(&look, floor);
            assert_eq!(
                found,
                every_cell(&look, floor),
                "{level} seed {seed}, {actor:?} at {here}, floor {floor:?}"
            );
            asked += 1;
            moves += usize::from(found.is_some());
            shots += usize::from(ranged && floor.is_some());
        }
    });
    assert!(
        asked > 1_000 && moves > 300 && shots > 100,
        "{asked} asked, {moves} moves found, {shots} shooters' floors"
    );
}

/// [`aid::first_aid`] with no bound: the aid weighed against the blow
/// from here and against the best move to attack (every cell weighed)
/// wherever the patients lie, then carried out as the AI does
/// ([`aid::give_or_walk`]).
fn aid_weighing_everything(look: &Look, here: Cell, t: &Turn) -> Option<Command> {
    use crate::rulesets::ud10::first_aid;
    let (world, actor) = (look.world, look.actor);
    let patients = first_aid::patients(world, actor);
    if patients.is_empty() || !look.engaged().is_empty() {
        return None;
    }
    let worth = first_aid::numbers(world, actor).chance() * aid::BROUGHT_ROUND;
    let table = look.table();
    let now = table
        .and_then(|tb| best_attack_from(world, actor, here, tb, 0))
        .map_or(0.0, |b| b.0);
    let moved = match table {
        Some(_) if !t.moved_before_action => every_cell(look, Some(worth.next_down())),
        _ => None,
    }
    .map_or(0.0, |b| b.0);
    if worth <= now.max(moved) {
        return None;
    }
    aid::give_or_walk(look, here, t, &patients)
}

/// At every decision of whole battles where the actor may still act, the
/// AI's first aid is what weighing everything decides: the bounds that
/// spare its weighing (patients beyond a move, a blow from here worth the
/// aid) never change it. On the levels where the AI gives first aid most.
#[test]
fn first_aid_is_what_weighing_everything_decides() {
    let (mut asked, mut given, mut walked) = (0, 0, 0);
    let levels = ["archer_hill", "courtyard", "mirror_duel", "ruined_keep"];
    each_decision(&levels, 1..=6, |w, level, seed, actor, here, t| {
        if t.action_used
            || t.movement == MoveMode::Full
            || t.movement == MoveMode::Retreat
            || crate::rulesets::ud10::first_aid::patients(w, actor).is_empty()
        {
            return;
        }
        let found = aid::first_aid(&Look::new(w, actor, here, t), here, t);
        let every = aid_weighing_everything(&Look::new(w, actor, here, t), here, t);
        assert_eq!(found, every, "{level} seed {seed}, {actor:?} at {here}");
        asked += 1;
        given += usize::from(matches!(found, Some(Command::Ruleset(_))));
        walked += usize::from(matches!(found, Some(Command::Move { .. })));
    });
    assert!(
        asked > 300 && given > 10 && walked > 5,
        "{asked} asked, {given} given, {walked} walks to a patient"
    );
}
