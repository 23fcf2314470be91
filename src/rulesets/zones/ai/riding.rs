//! The zones AI on a mount or a vehicle: who of the pair moves, when a rider
//! gets off to fight on foot.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::view;
use crate::rulesets::zones::check::{self};
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::modes::MODE_STRIKE;
use crate::rulesets::zones::query::{save_chance, stats};
use crate::rulesets::zones::state::ZonesRound;

use super::moves::broken;
use super::value::{DOWN, best_strike_here};

/// A mount or vehicle with riders still to act this turn: carry them away if
/// one is broken; a vehicle stands still for its passengers to shoot; a
/// mount keeps to half speed when a rider could strike from here. `None`:
/// act as anyone would.
pub(super) fn steer(world: &World, actor: Cid) -> Option<Command> {
    let riders = crate::rulesets::zones::turns::standing_riders(world, actor);
    if riders.is_empty() {
        return None;
    }
    if riders
        .iter()
        .any(|r| view::conditions(world, *r).has(Condition::Broken))
    {
        return Some(
            match (
                broken(world, actor),
                broken(world, actor).own::<ZonesCommand>(),
            ) {
                (_, Some(ZonesCommand::Surrender)) => Command::EndTurn,
                (c, _) => c,
            },
        );
    }
    let pending: Vec<Cid> = riders
        .into_iter()
        .filter(|r| crate::rulesets::zones::turns::budget_of(world, *r).is_some_and(|b| !b.acted()))
        .collect();
    if pending.is_empty() {
        return None;
    }
    if crate::rulesets::zones::turns::is_vehicle(world, actor) {
        return Some(Command::EndTurn);
    }
    None
}

/// Get off when the weapon in hand, on foot, is worth more against a
/// nearby enemy than the saddle's impaired blow, by more than the fall a
/// moving mount risks; land next to that enemy's side.
pub(super) fn get_off_to_fight(world: &World, actor: Cid) -> Option<Command> {
    let mount = view::riding(world, actor)?;
    let t = view::resource::<ZonesRound>(world).turn.clone();
    if t.acted() {
        return None;
    }
    let w = view::get::<Loadout>(world, actor)?.ready_weapon()?.clone();
    if w.is_ranged() {
        return None;
    }
    let saddle = best_strike_here(world, actor, false).map_or(0.0, |b| b.0);
    let (foot, target) = view::enemies(world, actor)
        .into_iter()
        .filter(|e| crate::rulesets::zones::query::melee_reach(world, actor, *e))
        .map(|e| {
            let o = crate::rulesets::zones::numbers::damage_odds_on_foot(
                world,
                actor,
                e,
                &w,
                MODE_STRIKE,
            );
            (o.mean + DOWN * o.p_down, e)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let fall = if crate::rulesets::zones::turns::moving(world, mount) {
        let agi = stats(world, actor).map_or(0, |s| s.agi);
        (1.0 - save_chance(world, agi)) * 2.5
    } else {
        0.0
    };
    if foot - saddle <= fall + 0.5 {
        return None;
    }
    let at = view::cell(world, mount)?;
    let to = crate::rulesets::zones::riders::landing_near(world, at, view::cell(world, target));
    let c = Command::from(ZonesCommand::Dismount { to });
    check::check(world, actor, &c).is_ok().then_some(c)
}

/// A rider who could strike from where it sits now.
pub(super) fn rider_can_strike(world: &World, mount: Cid) -> bool {
    crate::rulesets::zones::turns::standing_riders(world, mount)
        .into_iter()
        .any(|r| {
            crate::rulesets::zones::turns::budget_of(world, r).is_some_and(|b| !b.acted())
                && best_strike_here(world, r, false).is_some()
        })
}
