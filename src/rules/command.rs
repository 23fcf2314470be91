//! Commands: what a player or the AI asks a combatant to do. A command is an
//! intent; the ruleset's legality check decides whether it may happen now.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::components::Cid;
use crate::rules::map::Cell;

/// An intent, answered to the battle's current prompt.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Command {
    /// Move along a path of adjacent cells (the cells after the current one).
    Move { path: Vec<Cell> },
    /// Attack a target with one of the carried weapons, in one of its firing modes.
    Attack {
        target: Cid,
        weapon: usize,
        mode: usize,
    },
    /// Take aim at a target with a ranged weapon (the round's action).
    Aim { target: Cid, weapon: usize },
    /// Load a ranged weapon.
    Reload { weapon: usize },
    /// Draw and ready a weapon.
    Draw { weapon: usize },
    /// Crouch behind whatever is at hand (a free action).
    TakeCover,
    /// Stand up from a crouch (a free action).
    Stand,
    /// Disengage from melee along a path; costs the whole round.
    Retreat { path: Vec<Cell> },
    /// Leave the battle over the map's edge (from an edge cell).
    Flee,
    /// Finish this turn.
    EndTurn,
    /// Reaction: parry the attack that just hit.
    Parry,
    /// Reaction: dodge the attack that just hit.
    Dodge,
    /// Reaction: let the attack land (or let the mover go).
    NoReaction,
    /// Alternating activation: this character takes the faction's turn.
    Activate { who: Cid },
    /// Alternating activation: the faction passes.
    Pass,
    /// Alternating activation, first answer of a round by the faction holding
    /// the initiative: let `faction` act first.
    FirstTurnTo { faction: u8 },
    /// Reaction: strike back at the attacker with this weapon.
    Counter { weapon: usize },
    /// Reaction: become the target of an attack on a nearby ally.
    Guard,
    /// Reaction: swap places with a nearby willing ally (or a grabbed
    /// enemy), who becomes the target.
    HideBehind { who: Cid },
    /// Reaction: attack a nearby enemy who is moving away.
    Opportunity { weapon: usize },
    /// Spend the turn surrendering.
    Surrender,
    /// A non-lethal attack on a target (the round's main action).
    Maneuver { target: Cid, kind: Maneuver },
    /// Reaction: answer an attack with a non-lethal attack on the attacker.
    CounterManeuver { kind: Maneuver },
    /// A grabbed character spends its turn trying to break free.
    BreakFree,
    /// Try to free a nearby ally from a grab (the round's main action).
    FreeAlly { who: Cid },
    /// Reaction: accept the alternative effect an attacker proposes (an
    /// attack stunt) instead of the attack.
    Accept,
    /// One melee attack whose damage dice are shared among several smaller
    /// targets: `(target, dice)` pairs.
    SplitAttack {
        weapon: usize,
        shares: Vec<(Cid, u32)>,
    },
    /// Get on a nearby mount or vehicle of one's own side.
    Mount { mount: Cid },
    /// Get off one's mount onto a free cell next to it.
    Dismount { to: Cell },
    /// One of a mount and its riders does nothing this turn and keeps its
    /// turn to react.
    Reserve,
    /// Pick up the `item`-th weapon lying on the ground (a bonus action).
    PickUp { item: usize },
}

/// A non-lethal attack: the target saves or suffers the consequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Maneuver {
    /// Make the target drop this weapon (an index into its loadout).
    Disarm { weapon: usize },
    /// Push the target away.
    Shove,
    /// Grab and hold the target.
    Grapple,
}

impl Maneuver {
    pub fn name(self) -> &'static str {
        match self {
            Maneuver::Disarm { .. } => "disarm",
            Maneuver::Shove => "shove",
            Maneuver::Grapple => "grapple",
        }
    }
}

impl Command {
    /// True for commands that answer a reaction prompt.
    pub fn is_reaction(&self) -> bool {
        matches!(
            self,
            Command::Parry
                | Command::Dodge
                | Command::NoReaction
                | Command::Counter { .. }
                | Command::Guard
                | Command::HideBehind { .. }
                | Command::Opportunity { .. }
                | Command::CounterManeuver { .. }
                | Command::Accept
        )
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
pub struct Illegal(pub String);

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Illegal {}

/// Shorthand for building an [`Illegal`] result.
pub fn illegal<T>(reason: impl Into<String>) -> Result<T, Illegal> {
    Err(Illegal(reason.into()))
}

/// The Resolve step every ruleset shares: drain the commands sent since the
/// last step, check each with the ruleset's legality check, record and
/// execute the legal ones, remember why the last illegal one was refused.
pub fn resolve_with(
    world: &mut World,
    check: fn(&World, Cid, &Command) -> Result<(), Illegal>,
    execute: fn(&mut World, Cid, &Command),
) {
    use crate::rules::battle::{Battle, BattleLog, LastRejection};
    let msgs: Vec<CommandMsg> = world
        .resource_mut::<bevy::ecs::message::Messages<CommandMsg>>()
        .drain()
        .collect();
    for msg in msgs {
        if world.resource::<Battle>().is_over() {
            break;
        }
        match check(world, msg.actor, &msg.command) {
            Err(e) => world.resource_mut::<LastRejection>().0 = Some((msg, e)),
            Ok(()) => {
                world.resource_mut::<LastRejection>().0 = None;
                world.resource_mut::<BattleLog>().commands.push(msg.clone());
                execute(world, msg.actor, &msg.command);
            }
        }
    }
}
