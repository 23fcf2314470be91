//! What UD10's own events change, and what its turn bookkeeping takes from
//! the core's events after the core's shared apply: the only place they
//! change.

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::apply::{each, strike, with};
use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Condition, Heading, Loadout, MoveMode, TurnState};
use crate::rules::event::{
    BattleEvent, ConditionAdded, Drew, Moved, ReactionDeclined, RoundStarted, TurnEnded, TurnOrder,
    TurnStarted,
};
use crate::rulesets::ud10::event::{
    Aimed, AttackRolled, CutFree, Faced, FirstAid, InitiativeRolled, ReactionOffered,
    ReactionRolled, Reloaded, Turned, Ud10Event,
};

use super::numbers::PendingAttack;
use super::query;
use super::round::Ud10Round;
use super::state::{Ud10Turn, widest};

pub fn apply(world: &mut World, event: &BattleEvent) {
    match event {
        BattleEvent::Ruleset(_) => {
            if let Some(own) = event.own::<Ud10Event>() {
                apply_own(world, own);
            }
        }
        BattleEvent::RoundStarted(RoundStarted { .. }) => each::<Ud10Turn>(world, |t| t.start()),
        // §Starting a Combat Round: the round's order, and its actions open.
        BattleEvent::TurnOrder(TurnOrder { order }) => {
            *view::write::resource_mut::<Ud10Round>(world) = Ud10Round {
                order: order.clone(),
                next: 0,
            };
            view::write::resource_mut::<Battle>(world).phase = Phase::Actions;
        }
        BattleEvent::TurnStarted(TurnStarted { who }) => {
            with::<Ud10Turn>(world, *who, |t| {
                t.start();
                t.aimed_this_turn = false;
            });
            // The order goes on after it (those before it who had fallen
            // were passed over).
            let mut r = view::write::resource_mut::<Ud10Round>(world);
            if let Some(i) = r.order.iter().position(|c| c == who) {
                r.next = i + 1;
            }
        }
        BattleEvent::Moved(e) => apply_moved(world, e),
        BattleEvent::Drew(Drew {
            who,
            as_movement: true,
            ..
        }) => {
            // §Free Actions: a small weapon drawn as part of a standard
            // movement.
            let action_used = query::action_used(world, *who);
            with::<Ud10Turn>(world, *who, |t| {
                t.movement = widest(t.movement, MoveMode::Standard);
                if !action_used {
                    t.moved_before_action = true;
                }
            });
        }
        BattleEvent::ReactionDeclined(ReactionDeclined { .. }) => answered(world),
        // §Optional Rule: Retreat: the retreat takes the whole round.
        BattleEvent::ConditionAdded(ConditionAdded {
            who,
            condition: Condition::Retreating,
            ..
        }) => with::<TurnState>(world, *who, |t| t.action_used = true),
        BattleEvent::TurnEnded(TurnEnded { who }) => with::<Ud10Turn>(world, *who, |t| {
            if !t.aimed_this_turn {
                t.aim = None;
            }
        }),
        _ => {}
    }
}

fn apply_moved(world: &mut World, e: &Moved) {
    let Moved {
        who, cost_dm, mode, ..
    } = e;
    let action_used = query::action_used(world, *who);
    with::<Ud10Turn>(world, *who, |t| {
        t.moved_dm += *cost_dm;
        // The mode of the whole turn's movement: the widest so far.
        t.movement = widest(t.movement, *mode);
        // §Movement: a single step is instantaneous and leaves the action
        // free to come before or after further movement.
        if !action_used && *mode != MoveMode::Step {
            t.moved_before_action = true;
        }
        // §Attack Modifiers, aiming: Fray decides (docs/rulesets/ud10.md,
        // "Aiming") that any movement but a single step loses the aim.
        if *mode != MoveMode::Step {
            t.aim = None;
        }
    });
}

/// A UD10 event's change: each event's own apply.
fn apply_own(world: &mut World, event: &Ud10Event) {
    match event {
        Ud10Event::InitiativeRolled(e) => apply_initiative_rolled(world, e),
        // Said in the log; the order follows as the core's `TurnOrder`.
        Ud10Event::TieBroken(_) => {}
        Ud10Event::Reloaded(e) => apply_reloaded(world, e),
        Ud10Event::Aimed(e) => apply_aimed(world, e),
        Ud10Event::CutFree(e) => apply_cut_free(world, e),
        Ud10Event::FirstAid(e) => apply_first_aid(world, e),
        Ud10Event::AttackRolled(e) => apply_attack_rolled(world, e),
        Ud10Event::ReactionRolled(e) => apply_reaction_rolled(world, e),
        Ud10Event::Turned(e) => apply_turned(world, e),
        Ud10Event::Faced(e) => apply_faced(world, e),
        // Said in the log; the damage follows as its own events.
        Ud10Event::HitLocation(_) => {}
        Ud10Event::NoReaction(_) => {}
        Ud10Event::ReactionOffered(e) => apply_reaction_offered(world, e),
    }
}

/// §Starting a Combat Round: the combatant's initiative for the round.
fn apply_initiative_rolled(world: &mut World, e: &InitiativeRolled) {
    with::<TurnState>(world, e.who, |t| t.initiative = Some(e.total));
}

/// §Performing Actions: the weapon holds what was loaded, taken from the
/// spare; the action is spent.
fn apply_reloaded(world: &mut World, e: &Reloaded) {
    with::<Loadout>(world, e.who, |l| {
        if let Some(w) = l.weapons.get_mut(e.index) {
            let added = e.loaded.saturating_sub(w.loaded);
            w.loaded = e.loaded;
            if let Some(s) = w.spare.as_mut() {
                *s = s.saturating_sub(added);
            }
        }
    });
    with::<TurnState>(world, e.who, |t| t.action_used = true);
}

/// §Attack Modifiers, aiming: the aim is kept, and the action spent.
fn apply_aimed(world: &mut World, e: &Aimed) {
    with::<Ud10Turn>(world, e.who, |t| {
        t.aim = Some((e.target, e.rounds));
        t.aimed_this_turn = true;
    });
    with::<TurnState>(world, e.who, |t| t.action_used = true);
}

/// Cutting free of a net spends the action.
fn apply_cut_free(world: &mut World, e: &CutFree) {
    with::<TurnState>(world, e.who, |t| t.action_used = true);
}

/// First aid spends the medic's action; a patient brought round comes to
/// itself slowly: no turn this round (docs/rulesets/ud10.md, "First aid").
fn apply_first_aid(world: &mut World, e: &FirstAid) {
    with::<TurnState>(world, e.medic, |t| t.action_used = true);
    if e.success {
        with::<Ud10Turn>(world, e.patient, |t| t.brought_round = true);
        let mut r = view::write::resource_mut::<Ud10Round>(world);
        let at = r.next.min(r.order.len());
        let rest: Vec<_> = r.order.split_off(at);
        r.order.extend(rest.into_iter().filter(|c| *c != e.patient));
    }
}

/// The attack strikes (ammunition spent); unless free, it spends the
/// attacker's action and its aim.
fn apply_attack_rolled(world: &mut World, e: &AttackRolled) {
    strike(world, e.attacker, e.target, e.weapon_index, e.shots);
    if !e.free {
        with::<TurnState>(world, e.attacker, |t| t.action_used = true);
        with::<Ud10Turn>(world, e.attacker, |t| t.aim = None);
    }
}

/// The reaction of the round is spent, and the pending attack answered.
fn apply_reaction_rolled(world: &mut World, e: &ReactionRolled) {
    with::<TurnState>(world, e.who, |t| t.reaction_used = true);
    answered(world);
}

/// Turned to face its only attacker in melee (Fray decides:
/// docs/rulesets/ud10.md, "From behind").
fn apply_turned(world: &mut World, e: &Turned) {
    with::<Heading>(world, e.who, |h| h.0 = e.facing);
}

/// Facing its new way (Fray decides: docs/rulesets/ud10.md, "From behind").
fn apply_faced(world: &mut World, e: &Faced) {
    with::<Heading>(world, e.who, |h| h.0 = e.facing);
}

/// §Parrying and Dodging: the attack waits as the pending one, and the
/// target is asked to answer it.
fn apply_reaction_offered(world: &mut World, e: &ReactionOffered) {
    view::write::resource_mut::<Battle>(world).prompt = Prompt::React {
        actor: e.attack.target,
        attacker: e.attack.attacker,
    };
    view::write::resource_mut::<PendingAttack>(world).0 = Some(e.attack.clone());
}

/// The pending attack answered (a reaction rolled or declined): nothing is
/// pending, and the attacker's turn goes on.
fn answered(world: &mut World) {
    if let Some(p) = view::write::resource_mut::<PendingAttack>(world).0.take() {
        view::write::resource_mut::<Battle>(world).prompt = Prompt::Act { actor: p.attacker };
    }
}
