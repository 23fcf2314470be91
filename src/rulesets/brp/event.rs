//! brp's own events: what only its rules emit (the DEX order, statements of
//! intent, ranks, percentile rolls, the matrix, weapons damaged by parries,
//! damage with its bonus, First Aid, reloads). The core carries them in
//! `BattleEvent::Ruleset`; `narrate.rs` gives their log lines and `apply.rs`
//! what they change.

use serde::Serialize;

use crate::rules::components::Cid;
use crate::rules::dice::{DbShare, DiceExpr, DiceRoll};
use crate::rules::event::Rule;

use super::chance::{Difficulty, Level};
use super::command::Intent;
use super::data::Velocity;
use super::matrix::{Defense, Harm};

/// A phase of the round (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RoundPhase {
    Intent,
    Movement,
    Actions,
    Resolution,
}

/// How a character's movement this round sets its rank (§5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Band {
    /// Under 6 metres: its full DEX rank.
    Full,
    /// 6–15 metres: half its DEX rank.
    Half,
    /// 16–29 metres: a quarter.
    Quarter,
    /// 30 metres: no action but parries and dodges.
    Run,
}

/// An event of brp's own: each kind a struct of its own (documented
/// there), which its narration and its apply read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum BrpEvent {
    PhaseBegan(PhaseBegan),
    DexOrder(DexOrder),
    Declared(Declared),
    Ranked(Ranked),
    RankCalled(RankCalled),
    AttackRolled(AttackRolled),
    DefenseOffered(DefenseOffered),
    DefenseRolled(DefenseRolled),
    Matrix(Matrix),
    DamageRolled(DamageRolled),
    GearDamaged(GearDamaged),
    Thrown(Thrown),
    FirstAid(FirstAid),
    Reloading(Reloading),
    Reloaded(Reloaded),
}

/// A phase of the round begins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseBegan {
    pub phase: RoundPhase,
    pub rule: Rule,
}

/// The order of DEX, highest first (§5.2), with the groups that tie
/// after every tie-break (they act simultaneously).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DexOrder {
    pub order: Vec<Vec<Cid>>,
    pub rule: Rule,
}

/// `who` states its intent (§5.2).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declared {
    pub who: Cid,
    pub intent: Intent,
    /// The weapon the intent names, by name (for the log).
    pub weapon: Option<String>,
    pub rule: Rule,
}

/// `who` will act on `rank` this round: its DEX, and what its movement
/// made of it (§5.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ranked {
    pub who: Cid,
    pub dex: i32,
    pub moved_dm: u32,
    pub band: Band,
    pub rank: i32,
    pub rule: Rule,
}

/// The count of DEX ranks reaches `rank`: these act, in this order;
/// each inner group acts simultaneously (§5.4).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankCalled {
    pub rank: i32,
    pub order: Vec<Vec<Cid>>,
    pub rule: Rule,
}

/// A percentile attack roll (§5.5).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackRolled {
    pub attacker: Cid,
    pub target: Cid,
    pub weapon: String,
    pub weapon_index: usize,
    /// The skill's rating before the task's difficulty.
    pub rating: i32,
    pub difficulty: Difficulty,
    pub chance: i32,
    pub roll: DiceRoll,
    pub level: Level,
    /// The weapon leaves the hand (thrown), or spends a shot.
    pub thrown: bool,
    pub shot: bool,
    pub rule: Rule,
}

/// An attack that succeeded waits on its target's parry or dodge
/// (§5.6, §5.7): the ways open to it named. Its apply makes it the
/// pending attack and prompts the target.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DefenseOffered {
    pub attack: Pending,
    /// Each parry by what parries (the weapon's or the shield's
    /// name), and `"Dodge"`.
    pub ways: Vec<String>,
    pub rule: Rule,
}

/// A parry or a dodge (§5.6, §5.7, §5.11).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DefenseRolled {
    pub who: Cid,
    pub kind: Defense,
    /// What parried: the weapon's or the shield's name.
    pub with: String,
    pub rating: i32,
    pub difficulty: Difficulty,
    pub chance: i32,
    pub roll: DiceRoll,
    pub level: Level,
    pub rule: Rule,
}

/// The attack meets the matrix (§5.8).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Matrix {
    pub attacker: Cid,
    pub target: Cid,
    pub attack: Level,
    pub defense: Option<(Defense, Level)>,
    pub harm: Harm,
    pub says: &'static str,
    pub rule: Rule,
}

/// A blow's damage (§5.9, §5.13): the weapon's dice, its maximum on a
/// special success, the damage bonus (halved and rounded up for `½db`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DamageRolled {
    pub target: Cid,
    pub weapon: DiceRoll,
    pub special_max: Option<i32>,
    pub bonus: Option<DiceRoll>,
    pub half_bonus: bool,
    pub bonus_added: i32,
    pub total: i32,
    pub rule: Rule,
}

/// A weapon or shield takes damage from a parry (§5.8); at 0 hit points
/// it breaks (`GearBroken` follows).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GearDamaged {
    pub who: Cid,
    pub item: String,
    /// The weapon's index; `None`: the shield.
    pub weapon_index: Option<usize>,
    pub points: i32,
    pub hp_left: i32,
    pub rule: Rule,
}

/// A thrown weapon leaves the thrower's hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thrown {
    pub who: Cid,
    pub weapon_index: usize,
    pub weapon: String,
    pub rule: Rule,
}

/// First Aid (§5.14): the roll, and on a success 1D3 per untreated
/// wound, no more than the wound took. Every untreated wound counts as
/// treated after it, healed or not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstAid {
    pub medic: Cid,
    pub patient: Cid,
    pub chance: i32,
    pub roll: DiceRoll,
    pub level: Level,
    /// Per wound treated: its index, the 1D3, what it healed.
    pub healed: Vec<(usize, DiceRoll, i32)>,
    pub rule: Rule,
}

/// A reload begun: the weapon is loaded at the round's end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reloading {
    pub who: Cid,
    pub weapon_index: usize,
    pub weapon: String,
    pub rule: Rule,
}

/// A reload done.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reloaded {
    pub who: Cid,
    pub weapon_index: usize,
    pub weapon: String,
    pub loaded: u32,
    pub rule: Rule,
}

/// An attack that succeeded, waiting on the defender's parry or dodge.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Pending {
    pub attacker: Cid,
    pub target: Cid,
    pub weapon_index: usize,
    pub weapon: String,
    pub level: Level,
    /// The weapon's damage, its damage bonus share apart.
    pub damage: DiceExpr,
    pub db: Option<DbShare>,
    /// `None`: a melee blow.
    pub velocity: Option<Velocity>,
    /// The weapon leaves the hand (thrown).
    pub thrown: bool,
}

impl Pending {
    pub fn melee(&self) -> bool {
        self.velocity.is_none()
    }
}
