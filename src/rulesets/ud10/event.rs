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
use crate::rulesets::ud10::numbers::Pending;

/// An event of UD10's own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Ud10Event {
    InitiativeRolled(InitiativeRolled),
    TieBroken(TieBroken),
    Reloaded(Reloaded),
    Aimed(Aimed),
    CutFree(CutFree),
    FirstAid(FirstAid),
    AttackRolled(AttackRolled),
    ReactionRolled(ReactionRolled),
    Turned(Turned),
    Faced(Faced),
    HitLocation(HitLocation),
    NoReaction(NoReaction),
    ReactionOffered(ReactionOffered),
}

/// `who` rolled its initiative for the round (§Starting a Combat Round):
/// the die, its modifiers and their total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InitiativeRolled {
    pub who: Cid,
    pub roll: DiceRoll,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub rule: Rule,
}

/// A tie on initiative broken by a roll-off (Fray decides; see docs/rulesets/ud10.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TieBroken {
    pub between: Vec<Cid>,
    pub order: Vec<Cid>,
    pub rule: Rule,
}

/// `who` spent its action reloading its `index`-th weapon, `weapon`: it
/// now holds `loaded` (§Performing Actions).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reloaded {
    pub who: Cid,
    pub weapon: String,
    pub index: usize,
    pub loaded: u32,
    pub rule: Rule,
}

/// `who` spent its action aiming at `target`, `rounds` rounds so far
/// (§Attack Modifiers, aiming).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Aimed {
    pub who: Cid,
    pub target: Cid,
    pub rounds: u8,
    pub rule: Rule,
}

/// `who` spent its action cutting itself free of a net (the condition's
/// removal follows as its own event).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CutFree {
    pub who: Cid,
    pub rule: Rule,
}

/// `medic` spent its action on a First Aid check for `patient`; on a
/// success the healing and the waking follow as their own events.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstAid {
    pub medic: Cid,
    pub patient: Cid,
    pub roll: DiceRoll,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub difficulty: i32,
    pub success: bool,
    pub rule: Rule,
}

/// `attacker`'s attack roll on `target` with its `weapon_index`-th weapon,
/// `weapon`, in `mode`: the roll and its modifiers against `target`'s
/// Defense and its parts, a hit or a miss.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackRolled {
    pub attacker: Cid,
    pub target: Cid,
    pub weapon: String,
    pub weapon_index: usize,
    pub mode: String,
    /// Ammunition spent on this attack.
    pub shots: u32,
    pub roll: DiceRoll,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub defense: i32,
    pub defense_parts: Vec<Modifier>,
    pub hit: bool,
    /// A free attack (on a fleeing character), not the attacker's action.
    pub free: bool,
    pub rule: Rule,
}

/// `who` answered a hit with a parry or a dodge (`kind`): the roll and its
/// modifiers against the attack's total, `against`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionRolled {
    pub who: Cid,
    pub kind: Reaction,
    pub roll: DiceRoll,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
    pub against: i32,
    pub success: bool,
    pub rule: Rule,
}

/// A combatant no other enemy engages turns to face the one attacking
/// it in melee (Fray decides: docs/rulesets/ud10.md, "From behind").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Turned {
    pub who: Cid,
    pub towards: Cid,
    pub facing: Facing,
    pub rule: Rule,
}

/// A combatant faces a new way: the nearest enemy at the end of its
/// move (`towards`), or the way it chose (Fray decides:
/// docs/rulesets/ud10.md, "From behind").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Faced {
    pub who: Cid,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub towards: Option<Cid>,
    pub facing: Facing,
    pub rule: Rule,
}

/// Where a hit landed on `target`: the d10 and the body zone it names.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HitLocation {
    pub target: Cid,
    pub die: u32,
    pub zone: BodyZone,
    pub rule: Rule,
}

/// A hit `who` could neither parry nor dodge, and why not each
/// (§Parrying and Dodging: the GM determines whether the opponent is
/// eligible); the damage follows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NoReaction {
    pub who: Cid,
    pub parry: Barred,
    pub dodge: Barred,
    pub rule: Rule,
}

/// A hit its target may answer (§Parrying and Dodging): the attack
/// waits on the target's parry, dodge or neither, the ways open to it
/// named. Its apply makes it the pending attack and prompts the target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionOffered {
    pub attack: Pending,
    pub parry: bool,
    pub dodge: bool,
    pub rule: Rule,
}

/// Why a reaction to a hit cannot come (§Parrying and Dodging).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Barred {
    /// "only one Parry attempt per combat round": this round's is spent.
    Spent,
    /// No attack waits for an answer.
    NothingPending,
    /// The defender could not see it coming (from behind, helpless): its
    /// DEX does not count, nor may it react.
    Unforeseen,
    /// Missiles are not parried or dodged.
    Missile,
    /// A free attack on one who turns to flee (§Fleeing From Battle).
    Fleeing,
    /// "an appropriate weapon ready": the one in hand (if any) is not.
    Weapon(Option<String>),
    /// Dodging is off in this game's settings.
    DodgeOff,
    /// The reaction must roll higher than the attack's `against`, and
    /// cannot even with a ten: 10 + `name` `bonus`.
    Beyond {
        against: i32,
        name: &'static str,
        bonus: i32,
    },
}

/// "Red spearman cannot parry: 18 is beyond 10 + Parry 5": one line for a
/// hit `who` cannot answer, each reaction's reason said once (one reason
/// for both where they share it; dodging left out where it is off).
pub fn cannot_react(who: &str, parry: &Barred, dodge: &Barred) -> String {
    if parry == dodge {
        return format!("{who} cannot parry or dodge: {}", parry.plain());
    }
    if *dodge == Barred::DodgeOff {
        return format!("{who} cannot parry: {}", parry.plain());
    }
    format!(
        "{who} cannot parry ({}) or dodge ({})",
        parry.plain(),
        dodge.plain()
    )
}

impl Barred {
    /// The reason as the check states it (`kind` the reaction refused).
    pub fn why(&self, kind: Reaction) -> String {
        match self {
            Barred::Spent => "the reaction of this round is spent".into(),
            Barred::NothingPending => "no attack is pending".into(),
            Barred::Unforeseen => {
                "an attack that cannot be foreseen cannot be parried or dodged".into()
            }
            Barred::Missile => "missiles cannot be parried or dodged".into(),
            Barred::Fleeing => "a free attack on one who flees cannot be parried or dodged".into(),
            Barred::Weapon(Some(w)) => format!("cannot parry with the {w}"),
            Barred::Weapon(None) => "no weapon ready to parry with".into(),
            Barred::DodgeOff => "dodging is off in this game's settings".into(),
            Barred::Beyond {
                against,
                name,
                bonus,
            } => format!(
                "cannot beat the attack's {against}: a {} is 10 + {name} {bonus} = {} at best",
                kind.name(),
                10 + bonus
            ),
        }
    }

    /// The reason in a player's words, after "cannot parry: ".
    pub fn plain(&self) -> String {
        match self {
            Barred::Spent => "this round's reaction is spent".into(),
            Barred::NothingPending => "no attack to answer".into(),
            Barred::Unforeseen => "the blow came unseen".into(),
            Barred::Missile => "missiles cannot be parried or dodged".into(),
            Barred::Fleeing => "the blow falls on one turning to flee".into(),
            Barred::Weapon(Some(w)) => format!("the {} cannot parry", w.to_lowercase()),
            Barred::Weapon(None) => "no weapon in hand".into(),
            Barred::DodgeOff => "dodging is off".into(),
            Barred::Beyond {
                against,
                name,
                bonus,
            } => format!(
                "{against} is beyond 10 + {} {bonus}",
                name.trim_end_matches(" skill")
            ),
        }
    }
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
