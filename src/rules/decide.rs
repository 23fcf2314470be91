//! Controllers answer prompts: an AI answers at once, a human leaves the
//! battle waiting. The AI goes through the same command message and the
//! same legality check as a player.

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::battle::Battle;
use crate::rules::command::{Command, CommandMsg, Verdict};
use crate::rules::components::{Cid, Controller};
use crate::rules::dice::Dice;
use crate::rules::view;

/// The hard AI: the command it chooses for an actor, given the tactical
/// AI's (`planned`) and the ruleset's legal commands. The core's plugin
/// puts in the look-ahead's (`lookahead::decide`); it is reached through
/// this rather than named, because a look-ahead plays battles out, and
/// those ask the AI here again: the files form no circle.
#[derive(Resource, Clone, Copy)]
pub struct HardAi(pub fn(&World, Cid, Command, LegalCommands) -> Command);

/// A ruleset's list of an actor's legal commands.
pub type LegalCommands = fn(&World, Cid) -> Vec<Command>;

/// Who answers the current prompt, if anyone must.
pub fn prompted_controller(world: &World) -> Option<Controller> {
    let actor = view::resource::<Battle>(world).prompt.actor()?;
    view::get::<Controller>(world, actor).copied()
}

/// One time in [`EASY_SLIPS`], the easy AI's answer to a choice (which
/// cell to move to, whom to attack, the ruleset's own choices such as
/// zones' which character acts, and how to meet an attack) is another
/// legal answer to it, picked at random: it plays like the AI with a worse
/// eye. Everything else (ending the turn, passing, reloading) is the AI's
/// own. (Reactions slip too since the normal AI won only 68.5 % of zones
/// battles over the shipped levels against an easy AI that always reacted
/// as it does; 76.3 % with the levels as they are now.)
fn weaker(
    world: &mut World,
    actor: crate::rules::components::Cid,
    planned: Command,
    legal_commands: fn(&World, crate::rules::components::Cid) -> Vec<Command>,
) -> Command {
    let reacting = matches!(
        view::resource::<Battle>(world).prompt,
        crate::rules::battle::Prompt::React { .. }
    );
    let choice = planned.choice();
    if choice.is_none() && !reacting {
        return planned;
    }
    if view::write::resource_mut::<Dice>(world).pick(EASY_SLIPS) != 0 {
        return planned;
    }
    // Any legal answer to a reaction prompt; else one to the same choice.
    let same: Vec<Command> = legal_commands(world, actor)
        .into_iter()
        .filter(|c| reacting || c.choice() == choice)
        .collect();
    if same.is_empty() {
        return planned;
    }
    let i = view::write::resource_mut::<Dice>(world).pick(same.len());
    same[i].clone()
}

/// The easy AI slips one choice (where to move, whom to attack, a
/// ruleset's own such as who acts, a reaction) in this many.
pub const EASY_SLIPS: usize = 2;

/// The AI answers the current prompt when its controller is an AI, by the
/// hooks of the ruleset in force. The AI's own command (not the easy,
/// hard or random AI's, which draw on the dice first) comes back with the
/// legality check's verdict on it, reached in the scope the AI read the
/// battle in: the step's Resolve takes it ([`Verdict`]); and so does
/// whether the battle is in force under the hooks ([`Decided`]).
pub fn decide(world: &mut World, hooks: Option<&crate::rules::hooks::RulesetHooks>) -> Decided {
    let Some(hooks) = hooks else {
        return Decided::default();
    };
    // Who answers, and what the AI would, in one reading scope: the hook's
    // own scope is this one, so what the step found it need not find again.
    let (in_force, asked) = view::reading(world, |world| {
        let battle = view::resource::<Battle>(world);
        let in_force = battle.ruleset == Some(hooks.id) && !battle.is_over();
        (in_force, ask(world, hooks, battle))
    });
    let decided = |verdict| Decided { verdict, in_force };
    let Some((actor, controller, planned, verdict)) = asked else {
        return decided(None);
    };
    let command = match (controller, planned) {
        (Controller::Ai, Some(planned)) => planned,
        (Controller::RandomAi, _) => {
            let legal = (hooks.legal_commands)(world, actor);
            if legal.is_empty() {
                return decided(None);
            }
            let i = view::write::resource_mut::<Dice>(world).pick(legal.len());
            legal[i].clone()
        }
        (Controller::HardAi, Some(planned)) => match view::get_resource::<HardAi>(world) {
            Some(hard) => (hard.0)(world, actor, planned, hooks.legal_commands),
            None => planned,
        },
        (Controller::EasyAi, Some(planned)) => weaker(world, actor, planned, hooks.legal_commands),
        _ => return decided(None),
    };
    view::write::resource_mut::<Messages<CommandMsg>>(world).write(CommandMsg { actor, command });
    decided(verdict)
}

/// What [`decide`] found: the verdict on the AI's command, if the plain AI
/// sent one, and whether the battle is played under the hooks' ruleset and
/// not over, read in the same scope (deciding changes neither: the step's
/// Resolve asks it, without looking the battle up again).
#[derive(Default)]
pub struct Decided {
    pub verdict: Option<Verdict>,
    pub in_force: bool,
}

/// Who answers the prompt, and what the AI would: its command, and the
/// legality check's verdict on the plain AI's.
type Asked = (
    crate::rules::components::Cid,
    Controller,
    Option<Command>,
    Option<Verdict>,
);

/// [`decide`]'s reading part, in its scope.
fn ask(world: &World, hooks: &crate::rules::hooks::RulesetHooks, battle: &Battle) -> Option<Asked> {
    if battle.is_over() {
        return None;
    }
    let actor = battle.prompt.actor()?;
    if !view::resource::<Messages<CommandMsg>>(world).is_empty() {
        return None;
    }
    let controller = view::get::<Controller>(world, actor).copied()?;
    let decision = match controller {
        Controller::Ai | Controller::HardAi | Controller::EasyAi => {
            Some((hooks.decision)(world, actor))
        }
        Controller::RandomAi | Controller::Human | Controller::Remote => None,
    };
    // The AI's own answer from the check when it asked, else the check's.
    let verdict = match (controller, &decision) {
        (Controller::Ai, Some(d)) => Some(Verdict::new(
            actor,
            match &d.judged {
                Some(judged) => {
                    // Debug builds hold the AI to its word.
                    debug_assert_eq!(
                        *judged,
                        (hooks.check)(world, actor, &d.command),
                        "the AI's answer from the check on {:?} is not the check's",
                        d.command
                    );
                    judged.clone()
                }
                None => (hooks.check)(world, actor, &d.command),
            },
        )),
        _ => None,
    };
    Some((actor, controller, decision.map(|d| d.command), verdict))
}

#[cfg(test)]
mod tests {
    use crate::rules::components::Controller;
    use crate::rules::dice::stream_seed;
    use crate::rules::engine::Controls;
    use crate::testkit::{engine, start_shipped};

    /// The easy level is weaker than the AI under both rulesets: the AI
    /// wins most mirrored battles against it (each side for half of them).
    #[test]
    fn the_ai_beats_its_easy_level() {
        let mut e = engine();
        for ruleset in [
            crate::rulesets::ud10::ID,
            crate::rulesets::zones::ID,
            crate::rulesets::brp::ID,
        ] {
            let (mut normal, mut easy) = (0, 0);
            for i in 0..100u64 {
                let side = (i % 2) as usize;
                let mut ctl = vec![Controller::EasyAi, Controller::EasyAi];
                ctl[side] = Controller::Ai;
                let control = Controls::PerFaction(ctl);
                start_shipped(&mut e, "mirror_duel", ruleset, stream_seed(77, i), control);
                e.run(1_000_000);
                match e.outcome().and_then(|o| o.winner) {
                    Some(w) if w as usize == side => normal += 1,
                    Some(_) => easy += 1,
                    None => {}
                }
            }
            assert!(
                normal > 2 * easy,
                "{ruleset:?}: normal {normal}, easy {easy}"
            );
        }
    }
}
