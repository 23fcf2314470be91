//! Commands: what a player or the AI asks a combatant to do. A command is an
//! intent; the ruleset's legality check decides whether it may happen now.
//!
//! The core's [`Command`] holds the commands every ruleset shares (move,
//! attack, draw, flee, end the turn, dodge, let an attack land); what only
//! one ruleset offers is its own command type, an [`OwnCommand`] carried in
//! [`Command::Ruleset`] that the core never names, as with events
//! ([`crate::rules::event::OwnEvent`]).

use bevy::prelude::*;

use std::any::Any;
use std::fmt::Debug;

use serde::{Deserialize, Serialize};

use crate::rules::components::Cid;
use crate::rules::map::Cell;

/// An intent, answered to the battle's current prompt.
///
/// Serialises as JSON (`fray log --json`, `fray versus`); read back, the
/// core's own commands come from [`Command`]'s `Deserialize` and a
/// ruleset's from its hook ([`crate::rules::hooks::RulesetHooks::parse_own`]):
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
    pub(in crate::rules) actor: Cid,
    pub(in crate::rules) judged: Result<(), Illegal>,
}

impl Verdict {
    pub(crate) fn new(actor: Cid, judged: Result<(), Illegal>) -> Verdict {
        Verdict { actor, judged }
    }
}

/// A ruleset's legality check, as a type, which names exactly one
/// function. Each ruleset's `check.rs` has one (`check::Legality`), which
/// it gives the core as `Ruleset::Check` and whose function its AI asks
/// of the command it settles on (`command::Decision`).
pub trait LegalityCheck: 'static {
    /// Is `command` legal for `actor` now? (Reads only.)
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal>;
}
