//! Percentile chances (§5.5): roll D100 at or under the chance; a special
//! success below a fifth of it; Difficult tasks at half the chance and long
//! shots at a quarter (§5.9); what the range of a missile does to it. A
//! leaf: numbers only.

use serde::Serialize;

use super::settings::SpecialBoundary;

pub const RULE_ATTACK: &str = "brp §5.5 Attacking";
pub const RULE_RANGE: &str = "brp §5.9 Weapons and Damage";
pub const RULE_HALVES: &str = "Fray decides: docs/rulesets/brp.md, \"Halves and quarters\"";

/// How well a roll went (§5.8: "special success > success > failure").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Level {
    Failure,
    Success,
    Special,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Failure => "failure",
            Level::Success => "success",
            Level::Special => "special success",
        }
    }
}

/// The highest roll that is a special success for `chance` (0: none).
pub fn special_up_to(chance: i32, boundary: SpecialBoundary) -> i32 {
    let chance = chance.max(0);
    match boundary {
        // "less than 1/5 of the attack chance": 5 × roll < chance.
        SpecialBoundary::BelowFifth => (chance - 1).div_euclid(5).max(0),
        SpecialBoundary::FifthOrLess => ceil_div(chance, 5),
    }
    .min(chance)
}

/// What a D100 roll (1–100) achieves against `chance` (§5.5: "equal to or
/// lower than the attack chance ... Any roll higher ... is a failure").
pub fn level(roll: u32, chance: i32, boundary: SpecialBoundary) -> Level {
    let roll = roll as i32;
    if roll > chance {
        Level::Failure
    } else if roll <= special_up_to(chance, boundary) {
        Level::Special
    } else {
        Level::Success
    }
}

/// How hard a task is: what it does to the chance (§5.5 "as if Difficult
/// (1/2 chance)"; §5.9 "Difficult (½ skill chance)", "¼ the normal chance",
/// "no chance").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Difficulty {
    Normal,
    Difficult,
    Quarter,
    Impossible,
}

impl Difficulty {
    /// The chance a task of this difficulty leaves of `chance`: halves and
    /// quarters round up, as §5.9 rounds the half damage bonus.
    pub fn of(self, chance: i32) -> i32 {
        match self {
            Difficulty::Normal => chance,
            Difficulty::Difficult => ceil_div(chance, 2),
            Difficulty::Quarter => ceil_div(chance, 4),
            Difficulty::Impossible => 0,
        }
    }

    /// The harder of two.
    pub fn and(self, other: Difficulty) -> Difficulty {
        self.max(other)
    }

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Normal => "normal",
            Difficulty::Difficult => "Difficult (½)",
            Difficulty::Quarter => "¼",
            Difficulty::Impossible => "no chance",
        }
    }
}

/// A missile's range band (§5.9): "below this range the attack chance is
/// not modified, while at up to twice the range the attack becomes
/// Difficult (½ skill chance). At up to three times the range, the attack
/// chance is ¼ the normal chance, and beyond three times the range there is
/// no chance of hitting the target." At exactly the range it is no longer
/// "below" it: Difficult.
pub fn range_band(distance_m: f64, range_m: f64) -> Difficulty {
    if distance_m < range_m {
        Difficulty::Normal
    } else if distance_m <= 2.0 * range_m {
        Difficulty::Difficult
    } else if distance_m <= 3.0 * range_m {
        Difficulty::Quarter
    } else {
        Difficulty::Impossible
    }
}

/// `a / b` rounded up, for non-negative `a` and positive `b`.
pub fn ceil_div(a: i32, b: i32) -> i32 {
    (a.max(0) + b - 1) / b
}

/// The chance of a D100 roll reaching `level` or better against `chance`.
pub fn p_at_least(level: Level, chance: i32, boundary: SpecialBoundary) -> f64 {
    let hits = match level {
        Level::Failure => 100,
        Level::Success => chance.clamp(0, 100),
        Level::Special => special_up_to(chance, boundary).clamp(0, 100),
    };
    f64::from(hits) / 100.0
}
