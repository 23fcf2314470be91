//! What zones' own turn bookkeeping takes from events, after the core's
//! shared apply: the only place it changes.

use bevy::prelude::*;

use crate::rules::apply::with;
use crate::rules::components::TurnState;
use crate::rules::event::BattleEvent;

pub fn apply(world: &mut World, event: &BattleEvent) {
    if let BattleEvent::ReactionTaken { who, .. } = event {
        // §Taking a turn: "A reaction takes the whole turn and doesn't allow
        // for movement or a bonus action."
        with::<TurnState>(world, *who, |t| {
            t.reaction_used = true;
            t.done = true;
        });
    }
}
