//! What UD10's own events change, and what its turn bookkeeping takes from
//! the core's events after the core's shared apply: the only place they
//! change.

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::apply::{each, strike, with};
use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Condition, Heading, Loadout, MoveMode, TurnState};
use crate::rules::event::BattleEvent;
use crate::rulesets::ud10::event::Ud10Event;

use super::numbers::PendingAttack;
use super::query;
use super::round::Ud10Round;
use super::state::{Ud10Turn, widest};
use crate::rules::event::{
    ConditionAdded, Drew, Moved, ReactionDeclined, RoundStarted, TurnEnded, TurnOrder, TurnStarted,
};

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
        BattleEvent::Moved(Moved { .. }) => apply_moved(world, event),
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

fn apply_moved(world: &mut World, event: &BattleEvent) {
    let BattleEvent::Moved(Moved {
        who, cost_dm, mode, ..
    }) = event
    else {
        return;
    };
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

fn apply_own(world: &mut World, event: &Ud10Event) {
    match event {
        Ud10Event::InitiativeRolled { .. } => apply_initiative_rolled(world, event),
        Ud10Event::Reloaded { .. } => apply_reloaded(world, event),
        Ud10Event::Aimed { .. } => apply_aimed(world, event),
        Ud10Event::CutFree { who, .. } => with::<TurnState>(world, *who, |t| t.action_used = true),
        Ud10Event::FirstAid {
            medic,
            patient,
            success,
            ..
        } => {
            with::<TurnState>(world, *medic, |t| t.action_used = true);
            if *success {
                // Brought round, it comes to itself slowly: no turn this
                // round (docs/rulesets/ud10.md, "First aid").
                with::<Ud10Turn>(world, *patient, |t| t.brought_round = true);
                let mut r = view::write::resource_mut::<Ud10Round>(world);
                let at = r.next.min(r.order.len());
                let rest: Vec<_> = r.order.split_off(at);
                r.order.extend(rest.into_iter().filter(|c| c != patient));
            }
        }
        Ud10Event::AttackRolled { .. } => apply_attack_rolled(world, event),
        Ud10Event::ReactionRolled { .. } => {
            apply_reaction_rolled(world, event);
            answered(world);
        }
        Ud10Event::Turned { who, facing, .. } | Ud10Event::Faced { who, facing, .. } => {
            with::<Heading>(world, *who, |h| h.0 = *facing)
        }
        Ud10Event::ReactionOffered { attack, .. } => {
            view::write::resource_mut::<Battle>(world).prompt = Prompt::React {
                actor: attack.target,
                attacker: attack.attacker,
            };
            view::write::resource_mut::<PendingAttack>(world).0 = Some(attack.clone());
        }
        Ud10Event::TieBroken { .. }
        | Ud10Event::HitLocation { .. }
        | Ud10Event::NoReaction { .. } => {}
    }
}

fn apply_initiative_rolled(world: &mut World, event: &Ud10Event) {
    let Ud10Event::InitiativeRolled { who, total, .. } = event else {
        return;
    };
    with::<TurnState>(world, *who, |t| t.initiative = Some(*total));
}

fn apply_reloaded(world: &mut World, event: &Ud10Event) {
    let Ud10Event::Reloaded {
        who, index, loaded, ..
    } = event
    else {
        return;
    };
    with::<Loadout>(world, *who, |l| {
        if let Some(w) = l.weapons.get_mut(*index) {
            let added = loaded.saturating_sub(w.loaded);
            w.loaded = *loaded;
            if let Some(s) = w.spare.as_mut() {
                *s = s.saturating_sub(added);
            }
        }
    });
    with::<TurnState>(world, *who, |t| t.action_used = true);
}

fn apply_aimed(world: &mut World, event: &Ud10Event) {
    let Ud10Event::Aimed {
        who,
        target,
        rounds,
        ..
    } = event
    else {
        return;
    };
    with::<Ud10Turn>(world, *who, |t| {
        t.aim = Some((*target, *rounds));
        t.aimed_this_turn = true;
    });
    with::<TurnState>(world, *who, |t| t.action_used = true);
}

fn apply_attack_rolled(world: &mut World, event: &Ud10Event) {
    let Ud10Event::AttackRolled {
        attacker,
        target,
        weapon_index,
        shots,
        free,
        ..
    } = event
    else {
        return;
    };
    strike(world, *attacker, *target, *weapon_index, *shots);
    if !*free {
        with::<TurnState>(world, *attacker, |t| t.action_used = true);
        with::<Ud10Turn>(world, *attacker, |t| t.aim = None);
    }
}

fn apply_reaction_rolled(world: &mut World, event: &Ud10Event) {
    let Ud10Event::ReactionRolled { who, .. } = event else {
        return;
    };
    with::<TurnState>(world, *who, |t| t.reaction_used = true);
}

/// The pending attack answered (a reaction rolled or declined): nothing is
/// pending, and the attacker's turn goes on.
fn answered(world: &mut World) {
    if let Some(p) = view::write::resource_mut::<PendingAttack>(world).0.take() {
        view::write::resource_mut::<Battle>(world).prompt = Prompt::Act { actor: p.attacker };
    }
}
