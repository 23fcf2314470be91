//! UD10's own events: what only its rules emit (initiative, attack and
//! reaction rolls, aiming, reloading, hit location). The core carries them
//! in `BattleEvent::Ruleset`; `narrate.rs` gives their log lines and
//! `apply.rs` what they change.

use serde::Serialize;

use crate::rules::components::Cid;
use crate::rules::dice::DiceRoll;
use crate::rules::event::{Modifier, Rule};
use crate::rules::level::Facing;
use crate::rulesets::ud10::armor::BodyZone;

/// An event of UD10's own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Ud10Event {
    InitiativeRolled {
        who: Cid,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        rule: Rule,
    },
    /// A tie on initiative broken by a roll-off (Fray decides; see docs/rulesets/ud10.md).
    TieBroken {
        between: Vec<Cid>,
        order: Vec<Cid>,
        rule: Rule,
    },
    Reloaded {
        who: Cid,
        weapon: String,
        index: usize,
        loaded: u32,
        rule: Rule,
    },
    Aimed {
        who: Cid,
        target: Cid,
        rounds: u8,
        rule: Rule,
    },
    /// `who` spent its action cutting itself free of a net (the condition's
    /// removal follows as its own event).
    CutFree { who: Cid, rule: Rule },
    /// `medic` spent its action on a First Aid check for `patient`; on a
    /// success the healing and the waking follow as their own events.
    FirstAid {
        medic: Cid,
        patient: Cid,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        difficulty: i32,
        success: bool,
        rule: Rule,
    },
    AttackRolled {
        attacker: Cid,
        target: Cid,
        weapon: String,
        weapon_index: usize,
        mode: String,
        /// Ammunition spent on this attack.
        shots: u32,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        defense: i32,
        defense_parts: Vec<Modifier>,
        hit: bool,
        /// A free attack (on a fleeing character), not the attacker's action.
        free: bool,
        rule: Rule,
    },
    ReactionRolled {
        who: Cid,
        kind: Reaction,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        against: i32,
        success: bool,
        rule: Rule,
    },
    /// A combatant no other enemy engages turns to face the one attacking
    /// it in melee (Fray decides: docs/rulesets/ud10.md, "From behind").
    Turned {
        who: Cid,
        towards: Cid,
        facing: Facing,
        rule: Rule,
    },
    HitLocation {
        target: Cid,
        die: u32,
        zone: BodyZone,
        rule: Rule,
    },
}

/// UD10's reactions to an attack that hit (§Reactions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Reaction {
    Parry,
    Dodge,
}

impl Reaction {
    pub fn name(self) -> &'static str {
        match self {
            Reaction::Parry => "parry",
            Reaction::Dodge => "dodge",
        }
    }
}
