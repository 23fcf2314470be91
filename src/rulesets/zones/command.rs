//! zones' own commands: what only its rules offer (activations and passes,
//! the reactions beyond a dodge, non-lethal attacks, stunts, riders' turns,
//! surrender). The core carries them in `Command::Ruleset`.

use serde::{Deserialize, Serialize};

use crate::rules::command::OwnCommand;
use crate::rules::components::Cid;
use crate::rules::map::Cell;

/// A command of zones' own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZonesCommand {
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
    /// Hide again (§Sneaking in combat), out of every enemy's sight: the
    /// round's main action.
    Hide,
    /// Intimidate, distract or taunt an enemy (§Taking a turn, main
    /// actions): its WIT save decides.
    Influence { target: Cid, kind: Influence },
    /// Use the `item`-th consumable carried on oneself or a nearby ally
    /// (§Taking a turn: "using a consumable item (a medicine box ...)").
    UseItem { item: usize, on: Cid },
    /// Invoke the `power`-th profane power known at `target` (§Taking a
    /// turn: "invoking a profane power").
    Invoke { power: usize, target: Cid },
}

/// Words as a main action (§Taking a turn: "distracting, intimidating,
/// taunting"). Fray decides what each does: docs/rulesets/zones.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Influence {
    /// A failed WIT save breaks a wounded or outnumbered enemy, as a failed
    /// morale check does; a pass makes it steadfast.
    Intimidate,
    /// A failed WIT save leaves the enemy unable to react this round.
    Distract,
    /// A failed WIT save leaves the enemy able to attack only the taunter
    /// until the end of its next turn.
    Taunt,
}

impl Influence {
    pub const ALL: [Influence; 3] = [Influence::Intimidate, Influence::Distract, Influence::Taunt];

    pub fn name(self) -> &'static str {
        match self {
            Influence::Intimidate => "intimidate",
            Influence::Distract => "distract",
            Influence::Taunt => "taunt",
        }
    }
}

impl OwnCommand for ZonesCommand {
    /// Which character takes the faction's turn is a choice the easy AI may
    /// get wrong.
    /// Words and items are choices too (whom, which): the hard AI weighs
    /// each by playing it on.
    fn choice(&self) -> Option<&'static str> {
        match self {
            ZonesCommand::Activate { .. } => Some("activate"),
            ZonesCommand::Influence { .. } => Some("influence"),
            ZonesCommand::UseItem { .. } => Some("use an item"),
            ZonesCommand::Invoke { .. } => Some("invoke a power"),
            _ => None,
        }
    }
    /// §Combat procedure: passing gives the activation away unused.
    fn passes(&self) -> bool {
        matches!(self, ZonesCommand::Pass)
    }
    fn is_reaction(&self) -> bool {
        matches!(
            self,
            ZonesCommand::Counter { .. }
                | ZonesCommand::Guard
                | ZonesCommand::HideBehind { .. }
                | ZonesCommand::Opportunity { .. }
                | ZonesCommand::CounterManeuver { .. }
                | ZonesCommand::Accept
        )
    }
}

/// A non-lethal attack: the target saves or suffers the consequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
