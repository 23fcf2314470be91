//! Controllers answer prompts: an AI answers at once, a human leaves the
//! battle waiting. The AI goes through the same command message and the
//! same legality check as a player.

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::battle::{ActiveRuleset, Battle};
use crate::rules::command::{Command, CommandMsg};
use crate::rules::components::Controller;
use crate::rules::dice::Dice;
use crate::rules::view;

/// Who answers the current prompt, if anyone must.
pub fn prompted_controller(world: &World) -> Option<Controller> {
    let actor = view::resource::<Battle>(world).prompt.actor()?;
    view::get::<Controller>(world, actor).copied()
}

/// One time in [`EASY_SLIPS`], the easy AI's answer to a choice (which
/// cell to move to, whom to attack, and the ruleset's own choices such as
/// zones' which character acts) is another legal answer, picked at random:
/// it plays like the AI with a worse eye. Everything else (reactions,
/// ending the turn, passing) is the AI's own.
fn weaker(
    world: &mut World,
    actor: crate::rules::components::Cid,
    planned: Command,
    legal_commands: fn(&World, crate::rules::components::Cid) -> Vec<Command>,
) -> Command {
    let Some(choice) = planned.choice() else {
        return planned;
    };
    if world.resource_mut::<Dice>().pick(EASY_SLIPS) != 0 {
        return planned;
    }
    let same: Vec<Command> = legal_commands(world, actor)
        .into_iter()
        .filter(|c| c.choice() == Some(choice))
        .collect();
    if same.is_empty() {
        return planned;
    }
    let i = world.resource_mut::<Dice>().pick(same.len());
    same[i].clone()
}

/// The easy AI slips one choice (where to move, whom to attack, a
/// ruleset's own such as who acts) in this many.
pub const EASY_SLIPS: usize = 2;

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
        Some(Controller::HardAi) => {
            let planned = (hooks.decide)(world, actor);
            crate::rules::lookahead::decide(world, actor, planned, hooks.legal_commands)
        }
        Some(Controller::EasyAi) => {
            let planned = (hooks.decide)(world, actor);
            weaker(world, actor, planned, hooks.legal_commands)
        }
        Some(Controller::Human) | None => return,
    };
    world.write_message(CommandMsg { actor, command });
}
