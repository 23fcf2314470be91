//! The attack modes every zones weapon has (§Attacking, §Attack stunts),
//! and the impaired damage die. A leaf.

use crate::rules::dice::DiceExpr;

/// The attack modes every weapon has, in `Command::Attack::mode` order.
pub const MODE_STRIKE: usize = 0;
/// "voluntarily hold back an attack to inflict impaired damage".
pub const MODE_HOLD_BACK: usize = 1;
/// "deliver a death blow" on a nearby incapacitated target.
pub const MODE_DEATH_BLOW: usize = 2;
/// §Attack stunts: "forcing a surrender" instead of the blow.
pub const MODE_STUNT_SURRENDER: usize = 3;
/// §Attack stunts, the text's example: "the bandit is disarmed and
/// incapacitated until the end of the stretch".
pub const MODE_STUNT_DISARM: usize = 4;

/// Is `mode` an attack stunt?
pub fn is_stunt(mode: usize) -> bool {
    matches!(mode, MODE_STUNT_SURRENDER | MODE_STUNT_DISARM)
}

/// Impaired damage: a d4 whatever the weapon (Fray decides, after "Unarmed
/// attacks inflict d4 impaired damage").
pub fn impaired() -> DiceExpr {
    DiceExpr::parse("d4").unwrap_or_else(|_| DiceExpr::flat(1))
}
