//! What a player would answer at the human's prompt: a new player's click
//! (the walk's `ByHand`), or the ruleset's AI's choice (its `PlayOut`).

use bevy::prelude::*;

use crate::game::battle::logic::{TurnUi, UiIntent, human_actor};
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::hooks::{ActiveRuleset, Give};
use crate::rules::map::Cell;
use crate::rules::view;

/// The click or button a new player would use at the human's prompt: give
/// the turn to the first character offered, answer an attack with the first
/// reaction offered, strike an enemy in reach with the weapon in hand, walk
/// once a turn towards the nearest enemy (`walked` remembers whose turn
/// walked), or end the turn.
pub fn human_click(world: &World, walked: &mut Option<(Cid, u32)>) -> Option<UiIntent> {
    let actor = human_actor(world)?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    let legal = (hooks.legal_commands)(world, actor);
    let battle = world.resource::<Battle>();
    match battle.prompt {
        Prompt::Activate { .. } => (hooks.offers)(world, actor, &legal)
            .list
            .iter()
            .find_map(|o| match o.give {
                Give::Click(who) => view::cell(world, who).map(UiIntent::Click),
                _ => None,
            }),
        Prompt::React { .. } => Some(UiIntent::React(0)),
        Prompt::Act { .. } => {
            // The screen has not laid out this turn's options yet: a
            // player would wait for it.
            let ui = world.resource::<TurnUi>();
            if ui.options.actor != Some(actor) || !ui.is_current(world) {
                return None;
            }
            let ready = view::get::<Loadout>(world, actor).and_then(|l| l.ready);
            let strike = legal.iter().find_map(|c| match c {
                Command::Attack {
                    target,
                    weapon,
                    mode: 0,
                } if Some(*weapon) == ready && view::standing(world, *target) => {
                    view::cell(world, *target)
                }
                _ => None,
            });
            if let Some(cell) = strike {
                return Some(UiIntent::Click(cell));
            }
            let turn = (actor, battle.round);
            if *walked != Some(turn)
                && let Some(cell) = towards_enemy(world, actor)
            {
                *walked = Some(turn);
                return Some(UiIntent::Click(cell));
            }
            if legal.contains(&Command::EndTurn) {
                return Some(UiIntent::Command(Command::EndTurn));
            }
            // A prompt the turn cannot simply end (brp's statement of
            // intent): what the ruleset offers to a click on a combatant,
            // else its first button.
            let offers = (hooks.offers)(world, actor, &legal);
            offers
                .list
                .iter()
                .find_map(|o| match o.give {
                    Give::Click(who) => view::cell(world, who).map(UiIntent::Click),
                    _ => None,
                })
                .or_else(|| {
                    offers
                        .list
                        .iter()
                        .find(|o| o.give == Give::Button)
                        .map(|o| UiIntent::Command(o.command.clone()))
                })
                .or(Some(UiIntent::Command(Command::EndTurn)))
        }
        Prompt::None => None,
    }
}

/// Of the cells the move tool offers, the one nearest an enemy.
fn towards_enemy(world: &World, actor: Cid) -> Option<Cell> {
    let ui = world.resource::<TurnUi>();
    if ui.options.actor != Some(actor) {
        return None;
    }
    let enemies: Vec<Cell> = view::enemies(world, actor)
        .into_iter()
        .filter_map(|e| view::cell(world, e))
        .collect();
    let distance = |c: &Cell| {
        enemies
            .iter()
            .map(|e| (e.x - c.x).abs().max((e.y - c.y).abs()))
            .min()
            .unwrap_or(0)
    };
    ui.options.moves.keys().copied().min_by_key(distance)
}

/// What the ruleset's AI would do at the human's prompt.
pub(super) fn ai_choice(world: &mut World) -> Option<Command> {
    let actor = human_actor(world)?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    Some((hooks.decide)(world, actor))
}
