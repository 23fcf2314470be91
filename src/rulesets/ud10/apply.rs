//! What UD10's own turn bookkeeping takes from events, after the core's
//! shared apply: the only place it changes.

use bevy::prelude::*;

use crate::rules::apply::with;
use crate::rules::components::{MoveMode, TurnState};
use crate::rules::event::BattleEvent;

pub fn apply(world: &mut World, event: &BattleEvent) {
    if let BattleEvent::Moved { who, mode, .. } = event {
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
