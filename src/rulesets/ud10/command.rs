//! UD10's own commands: what only its rules offer (aiming, reloading, cover,
//! the retreat, the parry). The core carries them in `Command::Ruleset`.

use serde::{Deserialize, Serialize};

use crate::rules::command::OwnCommand;
use crate::rules::components::Cid;
use crate::rules::level::Facing;
use crate::rules::map::Cell;

/// A command of UD10's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ud10Command {
    /// Take aim at a target with a ranged weapon (the round's action).
    Aim { target: Cid, weapon: usize },
    /// Load a ranged weapon.
    Reload { weapon: usize },
    /// Crouch behind whatever is at hand (a free action).
    TakeCover,
    /// Stand up from a crouch (a free action).
    Stand,
    /// Turn to face a direction, in one's own turn (free; Fray decides:
    /// docs/rulesets/ud10.md, "From behind").
    Face { facing: Facing },
    /// Disengage from melee along a path; costs the whole round.
    Retreat { path: Vec<Cell> },
    /// Reaction: parry the attack that just hit.
    Parry,
    /// Cut oneself free of a net (the round's action, §Performing Actions:
    /// "using or manipulating an item or tool"; what it ends is §Defense
    /// Rating Modifiers' "immobilized").
    CutFree,
    /// First aid on an unconscious ally next to the medic (the round's
    /// action, §Performing Actions: "performing a skill action that can be
    /// completed within the combat round").
    FirstAid { patient: Cid },
}

impl OwnCommand for Ud10Command {
    /// Whom to bring round is a choice (the hard AI weighs each patient).
    fn choice(&self) -> Option<&'static str> {
        matches!(self, Ud10Command::FirstAid { .. }).then_some("first aid")
    }
    fn is_reaction(&self) -> bool {
        matches!(self, Ud10Command::Parry)
    }
}
