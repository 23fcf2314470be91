//! brp's own commands: the statement of intent (§5.2), the parry (§5.6,
//! §5.11), First Aid (§5.14) and reloading (§5.9). The core carries them in
//! `Command::Ruleset`; moving, attacking, dodging and ending a turn are the
//! core's own commands.

use serde::{Deserialize, Serialize};

use crate::rules::command::OwnCommand;
use crate::rules::components::Cid;

/// What a character states it will do this round (§5.2). Defensive actions
/// are not declared: parries and dodges are open to every character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Intent {
    /// Attack `target` with carried weapon `weapon` (§5.5).
    Attack { target: Cid, weapon: usize },
    /// First Aid on `patient` (§5.14: "takes one combat round").
    FirstAid { patient: Cid },
    /// Reload a crossbow or a firearm ("a full combat round to reload").
    Reload { weapon: usize },
    /// Only parries and dodges: free to move the full 30 metres (§5.3).
    Defend,
}

/// A command of brp's own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BrpCommand {
    /// The statement of intent, at the character's turn to state it.
    Declare(Intent),
    /// Reaction: parry the attack that just succeeded, with the weapon in
    /// hand or (`shield`) the shield.
    Parry { shield: bool },
    /// The round's action: First Aid on a wounded ally beside the medic.
    FirstAid { patient: Cid },
    /// The round's action: reload the weapon.
    Reload { weapon: usize },
    /// In the Movement phase: kneel behind a large shield (§5.11: "If a
    /// character kneels behind a large shield, the chance becomes 90%").
    /// Moving again stands the character up.
    Kneel,
}

impl OwnCommand for BrpCommand {
    fn is_reaction(&self) -> bool {
        matches!(self, BrpCommand::Parry { .. })
    }
    /// What to declare is a choice among like answers (the easy AI
    /// sometimes states another).
    fn choice(&self) -> Option<&'static str> {
        match self {
            BrpCommand::Declare(_) => Some("declare"),
            BrpCommand::FirstAid { .. } => Some("first aid"),
            _ => None,
        }
    }
}
