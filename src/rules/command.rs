//! Commands: what a player or the AI asks a combatant to do. A command is an
//! intent; the ruleset's legality check decides whether it may happen now.
//!
//! The core's [`Command`] holds the commands every ruleset shares (move,
//! attack, draw, flee, end the turn, dodge, let an attack land); what only
//! one ruleset offers is its own command type, an [`OwnCommand`] carried in
//! [`Command::Ruleset`] that the core never names, as with events
//! ([`crate::rules::event::OwnEvent`]).

use bevy::prelude::*;

use crate::rules::view;
use std::any::Any;
use std::fmt::Debug;

use serde::{Deserialize, Serialize};

use crate::rules::components::Cid;
use crate::rules::map::Cell;

/// An intent, answered to the battle's current prompt.
///
/// Serialises as JSON (`fray log --json`, `fray versus`); read back, the
/// core's own commands come from [`Command`]'s `Deserialize` and a
/// ruleset's from its hook ([`crate::rules::battle::RulesetHooks::parse_own`]):
/// the core does not know the ruleset's type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Move along a path of adjacent cells (the cells after the current one).
    Move { path: Vec<Cell> },
    /// Attack a target with one of the carried weapons, in one of its firing modes.
    Attack {
        target: Cid,
        weapon: usize,
        mode: usize,
    },
    /// Draw and ready a weapon.
    Draw { weapon: usize },
    /// Leave the battle over the map's edge (from an edge cell).
    Flee,
    /// Finish this turn.
    EndTurn,
    /// Reaction: dodge the attack that just hit.
    Dodge,
    /// Reaction: let the attack land (or let the mover go).
    NoReaction,
    /// A command of the ruleset in force, in that ruleset's own vocabulary.
    #[serde(untagged, skip_deserializing)]
    Ruleset(RulesetCommand),
}

impl Command {
    /// True for commands that answer a reaction prompt.
    pub fn is_reaction(&self) -> bool {
        match self {
            Command::Dodge | Command::NoReaction => true,
            Command::Ruleset(c) => c.0.is_reaction(),
            _ => false,
        }
    }

    /// What choice this command is one answer to, among commands of the
    /// same choice: a move (which cell), an attack (which target, weapon
    /// and mode), or a ruleset's own ([`OwnCommand::choice`]). The easy AI
    /// sometimes picks another answer to the same choice.
    pub fn choice(&self) -> Option<&'static str> {
        match self {
            Command::Move { .. } => Some("move"),
            Command::Attack { .. } => Some("attack"),
            Command::Ruleset(c) => c.0.choice(),
            _ => None,
        }
    }

    /// Does the command give up a turn or an activation without acting (a
    /// ruleset's own pass, [`OwnCommand::passes`])? The hard AI never
    /// prefers one to acting: two sides that each wait for the other
    /// never fight.
    pub fn is_pass(&self) -> bool {
        match self {
            Command::Ruleset(c) => c.0.passes(),
            _ => false,
        }
    }

    /// The command as the ruleset command type `C`, if it is one.
    pub fn own<C: OwnCommand>(&self) -> Option<&C> {
        match self {
            Command::Ruleset(c) => c.0.as_any().downcast_ref::<C>(),
            _ => None,
        }
    }
}

/// A ruleset's own command type: what only that ruleset offers. It is
/// written in the ruleset's folder; the core carries it without knowing it.
pub trait OwnCommand: Clone + PartialEq + Eq + Debug + Serialize + Send + Sync + 'static {
    /// True for the commands that answer a reaction prompt.
    fn is_reaction(&self) -> bool;
    /// The choice this command answers among like commands of the ruleset
    /// (which character acts, say), if another answer is a worse play
    /// rather than another kind of play ([`Command::choice`]).
    fn choice(&self) -> Option<&'static str> {
        None
    }
    /// True for a command that gives up the faction's activation or the
    /// character's turn without acting ([`Command::is_pass`]).
    fn passes(&self) -> bool {
        false
    }
}

impl<C: OwnCommand> From<C> for Command {
    fn from(c: C) -> Self {
        Command::Ruleset(RulesetCommand(Box::new(c)))
    }
}

/// A ruleset's command, boxed so that the core's enum does not grow with
/// the rulesets. Serialises as the command itself.
pub struct RulesetCommand(Box<dyn DynCommand>);

impl Clone for RulesetCommand {
    fn clone(&self) -> Self {
        RulesetCommand(self.0.clone_box())
    }
}

impl PartialEq for RulesetCommand {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_dyn(other.0.as_any())
    }
}

impl Eq for RulesetCommand {}

impl Debug for RulesetCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for RulesetCommand {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        erased_serde::serialize(&*self.0, serializer)
    }
}

/// [`OwnCommand`] as an object: what [`RulesetCommand`] needs of the box.
trait DynCommand: erased_serde::Serialize + Debug + Send + Sync {
    fn clone_box(&self) -> Box<dyn DynCommand>;
    fn as_any(&self) -> &dyn Any;
    fn eq_dyn(&self, other: &dyn Any) -> bool;
    fn is_reaction(&self) -> bool;
    fn choice(&self) -> Option<&'static str>;
    fn passes(&self) -> bool;
}

impl<C: OwnCommand> DynCommand for C {
    fn clone_box(&self) -> Box<dyn DynCommand> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn eq_dyn(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<C>() == Some(self)
    }
    fn is_reaction(&self) -> bool {
        OwnCommand::is_reaction(self)
    }
    fn choice(&self) -> Option<&'static str> {
        OwnCommand::choice(self)
    }
    fn passes(&self) -> bool {
        OwnCommand::passes(self)
    }
}

/// A command sent to the battle by a controller (the UI, the AI, a test).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct CommandMsg {
    pub actor: Cid,
    pub command: Command,
}

/// Why a command is not legal now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub std::borrow::Cow<'static, str>);

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Illegal {}

/// Shorthand for building an [`Illegal`] result.
///
/// A reason written out in the code costs no allocation: the AI asks the
/// check about thousands of commands a battle, most of them illegal.
pub fn illegal<T>(reason: impl Into<std::borrow::Cow<'static, str>>) -> Result<T, Illegal> {
    Err(Illegal(reason.into()))
}

/// An AI's answer to the prompt: its command, and, when the AI asked the
/// ruleset's legality check about that very command in the scope it
/// decided in (as it does of the command it settles on), the check's
/// answer. The core's decide takes that answer as its [`Verdict`] instead
/// of asking the check again.
#[derive(Clone, Debug)]
pub struct Decision {
    pub command: Command,
    pub judged: Option<Result<(), Illegal>>,
}

impl Decision {
    /// A command the AI found legal with the ruleset's check.
    pub fn legal(command: Command) -> Decision {
        Decision {
            command,
            judged: Some(Ok(())),
        }
    }

    /// A command the AI did not ask the check about (its fallback).
    pub fn unjudged(command: Command) -> Decision {
        Decision {
            command,
            judged: None,
        }
    }
}

/// The legality check's verdict on the one command the step's AI sent
/// ([`crate::rules::decide::decide`]), reached with the same check in the
/// reading scope the AI decided in, where what the check reads has been
/// found already: the step's Resolve takes it for that command instead of
/// checking it again. Nothing changes the world between the two (the AI
/// answers only an empty queue, and Resolve follows at once), so the
/// verdict is the one the check would give there. Only the core's decide
/// makes one.
pub struct Verdict {
    actor: Cid,
    judged: Result<(), Illegal>,
}

impl Verdict {
    pub(crate) fn new(actor: Cid, judged: Result<(), Illegal>) -> Verdict {
        Verdict { actor, judged }
    }
}

/// The Resolve step every ruleset shares: drain the commands sent since the
/// last step, check each with the ruleset's legality check (the first with
/// the `verdict` the step's AI reached for it, if it sent it), record and
/// execute the legal ones, remember why the last illegal one was refused.
pub fn resolve_with(
    world: &mut World,
    verdict: Option<Verdict>,
    check: fn(&World, Cid, &Command) -> Result<(), Illegal>,
    execute: fn(&mut World, Cid, &Command),
) {
    let mut messages = view::resource_mut::<bevy::ecs::message::Messages<CommandMsg>>(world);
    // Mostly the one command the AI sent: taken alone, not gathered.
    if messages.len() <= 1 {
        let Some(msg) = messages.drain().next() else {
            return;
        };
        let verdict = verdict.filter(|v| msg.actor == v.actor);
        resolve_one(world, msg, verdict, check, execute);
        return;
    }
    let msgs: smallvec::SmallVec<[CommandMsg; 4]> = messages.drain().collect();
    debug_assert!(
        verdict.is_none(),
        "a verdict comes with the only command of the step"
    );
    let mut verdict = verdict.filter(|v| msgs.first().is_some_and(|m| m.actor == v.actor));
    for msg in msgs {
        if !resolve_one(world, msg, verdict.take(), check, execute) {
            break;
        }
    }
}

/// [`resolve_with`] for one command: judged (by `verdict`, if given) and
/// carried out, or refused; false, and nothing done, once the battle is
/// over.
fn resolve_one(
    world: &mut World,
    msg: CommandMsg,
    verdict: Option<Verdict>,
    check: fn(&World, Cid, &Command) -> Result<(), Illegal>,
    execute: fn(&mut World, Cid, &Command),
) -> bool {
    use crate::rules::battle::{Battle, BattleLog, LastRejection};
    if view::resource::<Battle>(world).is_over() {
        return false;
    }
    let judged = match verdict {
        Some(v) => v.judged,
        None => check(world, msg.actor, &msg.command),
    };
    match judged {
        Err(e) => view::resource_mut::<LastRejection>(world).0 = Some((msg, e)),
        Ok(()) => {
            view::resource_mut::<LastRejection>(world).0 = None;
            execute(world, msg.actor, &msg.command);
            // Recorded once carried out (nothing reads the list while a
            // command executes): the message itself, not a copy.
            view::resource_mut::<BattleLog>(world).commands.push(msg);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::cell::Cell as Counter;

    use bevy::ecs::message::Messages;
    use bevy::prelude::World;

    use super::*;
    use crate::rules::battle::{Battle, BattleLog, LastRejection};

    thread_local! {
        static CHECKED: Counter<u32> = const { Counter::new(0) };
        static EXECUTED: Counter<u32> = const { Counter::new(0) };
    }

    fn refuse(_: &World, _: Cid, _: &Command) -> Result<(), Illegal> {
        CHECKED.with(|c| c.set(c.get() + 1));
        illegal("the check refuses everything")
    }

    fn record(_: &mut World, _: Cid, _: &Command) {
        EXECUTED.with(|c| c.set(c.get() + 1));
    }

    /// Resolve with one command from `actor` sent, and `verdict`: how many
    /// times the check ran, how many commands ran, and the refusal kept.
    fn resolve(actor: Cid, verdict: Option<Verdict>) -> (u32, u32, Option<Illegal>) {
        resolve_sent(&[actor], verdict)
    }

    /// [`resolve`] with a command from each of `actors` sent, in order.
    fn resolve_sent(actors: &[Cid], verdict: Option<Verdict>) -> (u32, u32, Option<Illegal>) {
        let mut world = World::new();
        world.init_resource::<Battle>();
        world.init_resource::<BattleLog>();
        world.init_resource::<LastRejection>();
        world.init_resource::<Messages<CommandMsg>>();
        for &actor in actors {
            world
                .resource_mut::<Messages<CommandMsg>>()
                .write(CommandMsg {
                    actor,
                    command: Command::EndTurn,
                });
        }
        CHECKED.with(|c| c.set(0));
        EXECUTED.with(|c| c.set(0));
        resolve_with(&mut world, verdict, refuse, record);
        let refused = world.resource::<LastRejection>().0.clone().map(|(_, e)| e);
        (
            CHECKED.with(Counter::get),
            EXECUTED.with(Counter::get),
            refused,
        )
    }

    #[test]
    fn the_ai_s_verdict_stands_for_the_check_of_its_command() {
        // Legal by the verdict: executed, the check not asked again.
        assert_eq!(
            resolve(Cid(3), Some(Verdict::new(Cid(3), Ok(())))),
            (0, 1, None)
        );
        // Refused by the verdict: refused for its reason, not executed.
        let why = Illegal("no".into());
        assert_eq!(
            resolve(Cid(3), Some(Verdict::new(Cid(3), Err(why.clone())))),
            (0, 0, Some(why))
        );
        // No verdict, or one about someone else's command: the check judges.
        let checked = Some(Illegal("the check refuses everything".into()));
        assert_eq!(resolve(Cid(3), None), (1, 0, checked.clone()));
        assert_eq!(
            resolve(Cid(3), Some(Verdict::new(Cid(4), Ok(())))),
            (1, 0, checked.clone())
        );
        // Nothing sent: nothing checked, run or refused.
        assert_eq!(resolve_sent(&[], None), (0, 0, None));
    }

    /// Several commands in one step (sent between steps, as a player's
    /// can be; no verdict comes with them): each is checked in turn.
    #[test]
    fn several_commands_are_each_judged_in_turn() {
        let checked = Some(Illegal("the check refuses everything".into()));
        assert_eq!(
            resolve_sent(&[Cid(1), Cid(2), Cid(1)], None),
            (3, 0, checked)
        );
    }
}
