//! First aid (§Performing Actions, a skill action): when bringing a fallen
//! ally round is worth more than the blow the AI could strike instead.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::first_aid;
use crate::rulesets::ud10::query::Turn;
use crate::rulesets::ud10::reach::{engaged_enemies, standard_dm};

use super::{Look, best_attack_from, best_move_to_attack};

/// What an ally brought round is worth, in the units of an attack's value
/// (a hit's expected share of its target's HP plus the chance to drop it):
/// a combatant back in the fight, but at 1 HP and only from next round.
pub(super) const BROUGHT_ROUND: f64 = 0.6;

/// First aid on an ally lying next to `actor`, or the move that keeps the
/// action and ends next to one, when the check's chance times what the ally
/// is worth beats the best attack this turn (and no enemy engages the medic,
/// who would draw free attacks walking off or be struck kneeling).
pub(super) fn first_aid(look: &Look, here: Cell, t: &Turn) -> Option<Command> {
    let (world, actor) = (look.world, look.actor);
    let patients = first_aid::patients(world, actor);
    if patients.is_empty() || !look.engaged().is_empty() {
        return None;
    }
    // Aid is given lying next to the patient, from here or after a move
    // that keeps the action (none once the actor has moved), which ends
    // at most `strike_steps` cells away (a step costs at least ORTHO_DM
    // and goes one cell): with every patient farther than that, neither
    // is possible, and no attack need be weighed against it.
    let steps = if t.moved_before_action {
        0
    } else {
        look.strike_steps
    };
    if patients
        .iter()
        .all(|p| view::cell(world, *p).is_none_or(|c| Map::chebyshev(here, c) > steps + 1))
    {
        return None;
    }
    let worth = first_aid::numbers(world, actor).chance() * BROUGHT_ROUND;
    let table = look.table();
    let now = table
        .and_then(|tb| best_attack_from(world, actor, here, tb, 0))
        .map_or(0.0, |b| b.0);
    // Only whether a move to attack is worth the aid or more matters: the
    // search looks above a floor just under it (the floor is exclusive),
    // and a move worth less reads as none, as it would lose to the aid.
    // (No move need be weighed when the blow from here is worth as much.)
    if worth <= now {
        return None;
    }
    let moved = match table {
        Some(_) if !t.moved_before_action => best_move_to_attack(look, Some(worth.next_down())),
        _ => None,
    }
    .map_or(0.0, |b| b.0);
    if worth <= moved {
        return None;
    }
    give_or_walk(look, here, t, &patients)
}

/// The aid decided on: given to the first of `patients` the check allows
/// from here, else the walk that keeps the action to the nearest cell
/// beside one of them where no enemy engages the medic.
pub(super) fn give_or_walk(
    look: &Look,
    here: Cell,
    t: &Turn,
    patients: &[crate::rules::components::Cid],
) -> Option<Command> {
    let (world, actor) = (look.world, look.actor);
    if let Some(&patient) = patients
        .iter()
        .find(|p| first_aid::check(world, actor, **p).is_ok())
    {
        return Some(Command::from(Ud10Command::FirstAid { patient }));
    }
    if t.moved_before_action {
        return None;
    }
    // Walk to the nearest cell next to a patient within a standard movement
    // (the action is kept), where no enemy engages the medic.
    let budget = standard_dm(world, actor).saturating_sub(t.moved_dm);
    let tree = look.tree(budget)?;
    let lying: Vec<Cell> = patients
        .iter()
        .filter_map(|p| view::cell(world, *p))
        .collect();
    let (cell, _) = tree
        .within(budget)
        .filter(|(c, _)| *c != here && lying.iter().any(|l| Map::chebyshev(*c, *l) <= 1))
        .filter(|(c, _)| engaged_enemies(world, actor, *c).is_empty())
        .min_by_key(|(c, cost)| (*cost, *c))?;
    Some(Command::Move {
        path: tree.path_to(cell)?,
    })
}
