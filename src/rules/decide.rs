//! Controllers answer prompts: an AI answers at once, a human leaves the
//! battle waiting. The AI goes through the same command message and the
//! same legality check as a player.

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::battle::{ActiveRuleset, Battle};
use crate::rules::command::CommandMsg;
use crate::rules::components::Controller;
use crate::rules::dice::Dice;
use crate::rules::view;

/// Who answers the current prompt, if anyone must.
pub fn prompted_controller(world: &World) -> Option<Controller> {
    let actor = view::resource::<Battle>(world).prompt.actor()?;
    view::get::<Controller>(world, actor).copied()
}

/// The AI answers the current prompt when its controller is an AI.
pub fn decide(world: &mut World) {
    let battle = view::resource::<Battle>(world);
    if battle.is_over() {
        return;
    }
    let Some(actor) = battle.prompt.actor() else {
        return;
    };
    if !view::resource::<Messages<CommandMsg>>(world).is_empty() {
        return;
    }
    let Some(hooks) = view::get_resource::<ActiveRuleset>(world).map(|h| h.0) else {
        return;
    };
    let command = match view::get::<Controller>(world, actor).copied() {
        Some(Controller::Ai) => (hooks.decide)(world, actor),
        Some(Controller::RandomAi) => {
            let legal = (hooks.legal_commands)(world, actor);
            if legal.is_empty() {
                return;
            }
            let i = world.resource_mut::<Dice>().pick(legal.len());
            legal[i].clone()
        }
        Some(Controller::Human) | None => return,
    };
    world.write_message(CommandMsg { actor, command });
}
