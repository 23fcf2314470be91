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

/// An event of brp's own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum BrpEvent {
    /// A phase of the round begins.
    PhaseBegan { phase: RoundPhase, rule: Rule },
    /// The order of DEX, highest first (§5.2), with the groups that tie
    /// after every tie-break (they act simultaneously).
    DexOrder { order: Vec<Vec<Cid>>, rule: Rule },
    /// `who` states its intent (§5.2).
    Declared {
        who: Cid,
        intent: Intent,
        /// The weapon the intent names, by name (for the log).
        weapon: Option<String>,
        rule: Rule,
    },
    /// `who` will act on `rank` this round: its DEX, and what its movement
    /// made of it (§5.3).
    Ranked {
        who: Cid,
        dex: i32,
        moved_dm: u32,
        band: Band,
        rank: i32,
        rule: Rule,
    },
    /// The count of DEX ranks reaches `rank`: these act, in this order;
    /// each inner group acts simultaneously (§5.4).
    RankCalled {
        rank: i32,
        order: Vec<Vec<Cid>>,
        rule: Rule,
    },
    /// A percentile attack roll (§5.5).
    AttackRolled {
        attacker: Cid,
        target: Cid,
        weapon: String,
        weapon_index: usize,
        /// The skill's rating before the task's difficulty.
        rating: i32,
        difficulty: Difficulty,
        chance: i32,
        roll: DiceRoll,
        level: Level,
        /// The weapon leaves the hand (thrown), or spends a shot.
        thrown: bool,
        shot: bool,
        rule: Rule,
    },
    /// An attack that succeeded waits on its target's parry or dodge
    /// (§5.6, §5.7): the ways open to it named. Its apply makes it the
    /// pending attack and prompts the target.
    DefenseOffered {
        attack: Pending,
        /// Each parry by what parries (the weapon's or the shield's
        /// name), and `"Dodge"`.
        ways: Vec<String>,
        rule: Rule,
    },
    /// A parry or a dodge (§5.6, §5.7, §5.11).
    DefenseRolled {
        who: Cid,
        kind: Defense,
        /// What parried: the weapon's or the shield's name.
        with: String,
        rating: i32,
        difficulty: Difficulty,
        chance: i32,
        roll: DiceRoll,
        level: Level,
        rule: Rule,
    },
    /// The attack meets the matrix (§5.8).
    Matrix {
        attacker: Cid,
        target: Cid,
        attack: Level,
        defense: Option<(Defense, Level)>,
        harm: Harm,
        says: &'static str,
        rule: Rule,
    },
    /// A blow's damage (§5.9, §5.13): the weapon's dice, its maximum on a
    /// special success, the damage bonus (halved and rounded up for `½db`).
    DamageRolled {
        target: Cid,
        weapon: DiceRoll,
        special_max: Option<i32>,
        bonus: Option<DiceRoll>,
        half_bonus: bool,
        bonus_added: i32,
        total: i32,
        rule: Rule,
    },
    /// A weapon or shield takes damage from a parry (§5.8); at 0 hit points
    /// it breaks (`GearBroken` follows).
    GearDamaged {
        who: Cid,
        item: String,
        /// The weapon's index; `None`: the shield.
        weapon_index: Option<usize>,
        points: i32,
        hp_left: i32,
        rule: Rule,
    },
    /// A thrown weapon leaves the thrower's hand.
    Thrown {
        who: Cid,
        weapon_index: usize,
        weapon: String,
        rule: Rule,
    },
    /// First Aid (§5.14): the roll, and on a success 1D3 per untreated
    /// wound, no more than the wound took. Every untreated wound counts as
    /// treated after it, healed or not.
    FirstAid {
        medic: Cid,
        patient: Cid,
        chance: i32,
        roll: DiceRoll,
        level: Level,
        /// Per wound treated: its index, the 1D3, what it healed.
        healed: Vec<(usize, DiceRoll, i32)>,
        rule: Rule,
    },
    /// A reload begun: the weapon is loaded at the round's end.
    Reloading {
        who: Cid,
        weapon_index: usize,
        weapon: String,
        rule: Rule,
    },
    /// A reload done.
    Reloaded {
        who: Cid,
        weapon_index: usize,
        weapon: String,
        loaded: u32,
        rule: Rule,
    },
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
