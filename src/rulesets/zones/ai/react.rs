//! How the zones AI reacts to an attack, a non-lethal attack or a character
//! moving away: whether the reaction is worth the turn it spends.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Health, Loadout, Weapon};
use crate::rules::view;
use crate::rulesets::zones::check;
use crate::rulesets::zones::command::{Maneuver, ZonesCommand};
use crate::rulesets::zones::maneuvers::{holding, shove_end};
use crate::rulesets::zones::modes::MODE_STRIKE;
use crate::rulesets::zones::numbers::damage_odds;
use crate::rulesets::zones::query::{can_react, save_chance, stats};
use crate::rulesets::zones::state::{AttackState, Pending, Stage};
use crate::rulesets::zones::strike::may_strike;

use super::value::{
    DOWN, ally_can_harm, best_strike_here, blow_value, can_harm, counter_value, p_fails_str,
    reaction_strike, turn_worth,
};

/// The chance of being taken out, whatever one does, at which a proposed
/// stunt is accepted (and at which the AI proposes one).
pub(super) const ACCEPT_AT: f64 = 0.8;

pub(super) fn react(world: &World, actor: Cid, attacker: Cid) -> Command {
    let pending = view::resource::<Pending>(world);
    if pending.moving.is_some() && pending.attack.is_none() {
        return react_to_leaving(world, actor, attacker);
    }
    if let Some(b) = &pending.blast {
        return react_to_blast(world, actor, attacker, b.weapon, b.mode);
    }
    let Some(state) = pending.attack.clone() else {
        return Command::NoReaction;
    };
    if let Some(kind) = state.maneuver {
        return react_to_maneuver(world, actor, attacker, state.stage, kind);
    }
    let Some(w) = view::get::<Loadout>(world, attacker).and_then(|l| l.weapons.get(state.weapon))
    else {
        return Command::NoReaction;
    };
    match state.stage {
        Stage::Stunt => answer_stunt(world, actor, attacker, w),
        Stage::Guard => guard_or_not(world, actor, attacker, &state, w),
        Stage::Target => defend(world, actor, attacker, &state, w),
    }
}

/// §Opportunity attacks: an enemy leaves; strike if that is worth the turn.
fn react_to_leaving(world: &World, actor: Cid, attacker: Cid) -> Command {
    let Some((v, weapon, _)) = best_strike_here(world, actor, true)
        .filter(|(_, _, t)| *t == attacker)
        .or_else(|| opportunity(world, actor, attacker))
    else {
        return Command::NoReaction;
    };
    if v >= 0.8 * turn_worth(world, actor) {
        Command::from(ZonesCommand::Opportunity { weapon })
    } else {
        Command::NoReaction
    }
}

/// §Blast weapons: dodge the blast when the saved damage is worth the turn.
fn react_to_blast(world: &World, actor: Cid, attacker: Cid, weapon: usize, mode: usize) -> Command {
    let Some(w) = view::get::<Loadout>(world, attacker).and_then(|l| l.weapons.get(weapon)) else {
        return Command::NoReaction;
    };
    let o = damage_odds(world, attacker, actor, w, mode);
    let agi = stats(world, actor).map_or(0, |s| s.agi);
    let v = save_chance(world, agi) * (o.mean + DOWN * o.p_down);
    // The cheap test first: a turn's worth is weighed only when it matters.
    if v >= 1.5 && v > turn_worth(world, actor) * 0.9 {
        Command::Dodge
    } else {
        Command::NoReaction
    }
}

/// §Stunts: accepting takes me out for sure; refusing, I may still dodge.
fn answer_stunt(world: &World, actor: Cid, attacker: Cid, w: &Weapon) -> Command {
    let o = damage_odds(world, attacker, actor, w, MODE_STRIKE);
    let escape = if can_react(world, actor, attacker) {
        save_chance(world, stats(world, actor).map_or(0, |s| s.agi))
    } else {
        0.0
    };
    if o.p_down * (1.0 - escape) >= ACCEPT_AT {
        Command::from(ZonesCommand::Accept)
    } else {
        Command::NoReaction
    }
}

/// §Reactions, guard: take the blow meant for an ally when it saves more
/// than my turn is worth.
fn guard_or_not(
    world: &World,
    actor: Cid,
    attacker: Cid,
    state: &AttackState,
    w: &Weapon,
) -> Command {
    let t = damage_odds(world, attacker, state.target, w, state.mode);
    let m = damage_odds(world, attacker, actor, w, state.mode);
    let saved = (t.mean + DOWN * t.p_down) - (m.mean + DOWN * m.p_down);
    if t.p_down >= 0.3 && saved > 2.0 && saved > turn_worth(world, actor).max(2.0) {
        Command::from(ZonesCommand::Guard)
    } else {
        Command::NoReaction
    }
}

/// §Reactions against a blow at me: dodge, counter, or hide behind the
/// enemy I hold, whichever saves most, if that is worth the turn.
fn defend(world: &World, actor: Cid, attacker: Cid, state: &AttackState, w: &Weapon) -> Command {
    let o = damage_odds(world, attacker, actor, w, state.mode);
    let incoming = o.mean + DOWN * o.p_down;
    let agi = stats(world, actor).map_or(0, |s| s.agi);
    // The last of a side who can still harm the enemy gains nothing by a
    // dodge: it spends the turn (§Reactions), the enemy loses nothing
    // meanwhile, and the same blow comes again next round, so a fighter
    // who only dodges can never win. It keeps its turn to strike back (a
    // counter still may). A lone archer at 1 HP once dodged a swordsman's
    // blow every round to the round limit.
    let dodge = if last_fighter(world, actor) {
        0.0
    } else {
        save_chance(world, agi) * incoming
    };
    let mut best = (dodge, Command::Dodge);
    if let Some((v, weapon)) = counter_value(world, actor, attacker, w, state.mode)
        && v > best.0
    {
        best = (v, Command::from(ZonesCommand::Counter { weapon }));
    }
    // Hide behind the enemy I hold: its friend's blow lands on it.
    if let Some(held) = holding(world, actor) {
        let hide = Command::from(ZonesCommand::HideBehind { who: held });
        let o = damage_odds(world, attacker, held, w, state.mode);
        let v = incoming + o.mean + DOWN * o.p_down;
        if v > best.0 && check::check(world, actor, &hide).is_ok() {
            best = (v, hide);
        }
    }
    if best.0 >= 1.5 && best.0 > turn_worth(world, actor) * 0.9 {
        best.1
    } else {
        Command::NoReaction
    }
}

/// Is `who` the last of its side who can harm the enemy? (Its allies asked
/// first: one of them nearly always can, and `who` need not be weighed.)
fn last_fighter(world: &World, who: Cid) -> bool {
    !ally_can_harm(world, who, true) && can_harm(world, who)
}

/// Dodge or strike back at a disarm, shove or grapple, when it is worth the
/// turn.
pub(super) fn react_to_maneuver(
    world: &World,
    actor: Cid,
    attacker: Cid,
    stage: Stage,
    kind: Maneuver,
) -> Command {
    if stage != Stage::Target {
        return Command::NoReaction;
    }
    let p = p_fails_str(world, attacker, actor);
    let my_turn = turn_worth(world, actor);
    let cost = match kind {
        Maneuver::Shove if shove_end(world, attacker, actor).1.is_some() => {
            DOWN + view::get::<Health>(world, actor).map_or(1, |h| h.hp) as f64
        }
        Maneuver::Shove => 0.5,
        Maneuver::Grapple => my_turn.max(2.0) * 1.5,
        Maneuver::Disarm { .. } => 2.0,
    };
    let agi = stats(world, actor).map_or(0, |s| s.agi);
    let mut best = (save_chance(world, agi) * p * cost, Command::Dodge);
    // A blow first; the grab or shove follows only if the attacker stands.
    if let Some((v, weapon, _)) = best_strike_here(world, actor, true).filter(|b| b.2 == attacker) {
        let o = view::get::<Loadout>(world, actor)
            .and_then(|l| l.weapons.get(weapon))
            .map_or(0.0, |w| {
                damage_odds(world, actor, attacker, w, MODE_STRIKE).p_down
            });
        let v = v + o * p * cost;
        if v > best.0 {
            best = (v, Command::from(ZonesCommand::Counter { weapon }));
        }
    }
    if best.0 > my_turn * 0.9 && best.0 >= 1.0 {
        best.1
    } else {
        Command::NoReaction
    }
}

/// An opportunity strike at a mover with any weapon usable as a reaction.
pub(super) fn opportunity(world: &World, actor: Cid, mover: Cid) -> Option<(f64, usize, Cid)> {
    let l = view::get::<Loadout>(world, actor)?;
    l.weapons
        .iter()
        .enumerate()
        .filter(|(i, _)| may_strike(world, actor, reaction_strike(mover, *i)))
        .map(|(i, w)| (blow_value(world, actor, mover, w, MODE_STRIKE), i, mover))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}
