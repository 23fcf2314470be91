//! The Attack and Defense Matrix (§5.8): what an attack's level of success
//! and the defender's parry or dodge come to. A leaf: the table only.

use serde::Serialize;

use super::chance::Level;

pub const RULE_MATRIX: &str = "brp §5.8 Combat Summary";

/// The defence a successful attack met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Defense {
    Parry,
    Dodge,
}

/// What the attack does to the defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Harm {
    /// "No damage; no effect", or parried or dodged.
    None,
    /// Damage rolled normally, armor subtracted.
    Normal,
    /// The special success's damage (§5.13), armor subtracted.
    Special,
}

/// One row of the matrix, as it applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Outcome {
    pub harm: Harm,
    /// Points of damage the parrying weapon or shield takes ("Parrying
    /// weapon or shield takes 2 points of damage").
    pub to_parrying_weapon: i32,
    /// Points of damage the attacker's weapon takes ("If parried in melee
    /// combat, attacker's weapon takes 1 point of damage").
    pub to_attacking_weapon: i32,
    /// The row's result, in the text's words.
    pub says: &'static str,
}

/// The matrix: the attack's level, the defence tried (if any) and its
/// level, and whether the attack is melee (the attacker's weapon suffers
/// only from a melee parry). A failed attack is never defended against
/// ("If an attack fails, it does not need to be parried").
pub fn outcome(attack: Level, defense: Option<(Defense, Level)>, melee: bool) -> Outcome {
    let o = |harm, to_parrying_weapon, to_attacking_weapon, says| Outcome {
        harm,
        to_parrying_weapon,
        to_attacking_weapon,
        says,
    };
    let (kind, level) = match defense {
        Some((k, l)) => (Some(k), l),
        None => (None, Level::Failure),
    };
    let parried = kind == Some(Defense::Parry);
    match (attack, level) {
        (Level::Failure, _) => o(Harm::None, 0, 0, "No damage; no effect."),
        (Level::Special, Level::Special) => o(
            Harm::None,
            0,
            0,
            "Defender parries or dodges attack, no other result.",
        ),
        (Level::Special, Level::Success) => o(
            Harm::Normal,
            if parried { 2 } else { 0 },
            0,
            "Attack partially parried or dodged and achieves a normal success. Defender's armor value subtracted from damage. Parrying weapon or shield takes 2 points of damage.",
        ),
        (Level::Special, Level::Failure) => o(
            Harm::Special,
            0,
            0,
            "Attack achieves a special success. Attack does full damage plus normal damage bonus and appropriate special result. Defender's armor value subtracted from damage.",
        ),
        (Level::Success, Level::Special) => o(
            Harm::None,
            0,
            if parried && melee { 1 } else { 0 },
            "Defender blocks or dodges damage; no other result. If parried in melee combat, attacker's weapon takes 1 point of damage.",
        ),
        (Level::Success, Level::Success) => o(
            Harm::None,
            0,
            0,
            "Defender blocks or dodges damage, no other result.",
        ),
        (Level::Success, Level::Failure) => o(
            Harm::Normal,
            0,
            0,
            "Attack strikes defender and rolls damage normally. Defender's armor value subtracted from damage.",
        ),
    }
}
