//! What UD10's own events change, and what its turn bookkeeping takes from
//! the core's events after the core's shared apply: the only place they
//! change.

use bevy::prelude::*;

use crate::rules::apply::{strike, with};
use crate::rules::components::{Loadout, MoveMode, TurnState};
use crate::rules::event::BattleEvent;
use crate::rulesets::ud10::event::Ud10Event;

pub fn apply(world: &mut World, event: &BattleEvent) {
    if let Some(own) = event.own::<Ud10Event>() {
        apply_own(world, own);
    } else if let BattleEvent::Moved { who, mode, .. } = event {
        with::<TurnState>(world, *who, |t| {
            // §Movement: a single step is instantaneous and leaves the
            // action free to come before or after further movement.
            if !t.action_used && *mode != MoveMode::Step {
                t.moved_before_action = true;
            }
            // §Attack Modifiers, aiming: Fray decides (docs/rulesets/ud10.md,
            // "Aiming") that any movement but a single step loses the aim.
            if *mode != MoveMode::Step {
                t.aim = None;
            }
        });
    }
}

fn apply_own(world: &mut World, event: &Ud10Event) {
    match event {
        Ud10Event::InitiativeRolled { .. } => apply_initiative_rolled(world, event),
        Ud10Event::Reloaded { .. } => apply_reloaded(world, event),
        Ud10Event::Aimed { .. } => apply_aimed(world, event),
        Ud10Event::AttackRolled { .. } => apply_attack_rolled(world, event),
        Ud10Event::ReactionRolled { .. } => apply_reaction_rolled(world, event),
        Ud10Event::TieBroken { .. } | Ud10Event::HitLocation { .. } => {}
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
    with::<TurnState>(world, *who, |t| {
        t.aim = Some((*target, *rounds));
        t.aimed_this_turn = true;
        t.action_used = true;
    });
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
        with::<TurnState>(world, *attacker, |t| {
            t.action_used = true;
            t.aim = None;
        });
    }
}

fn apply_reaction_rolled(world: &mut World, event: &Ud10Event) {
    let Ud10Event::ReactionRolled { who, .. } = event else {
        return;
    };
    with::<TurnState>(world, *who, |t| t.reaction_used = true);
}
