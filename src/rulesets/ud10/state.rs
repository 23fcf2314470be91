//! UD10's own turn bookkeeping, beside the core's shared [`TurnState`]: how
//! far and how a combatant has moved this turn (§Movement), whether it moved
//! before its action, and its aim (§Attack Modifiers, "Aiming"). A leaf:
//! state only; `apply.rs` alone changes it.
//!
//! [`TurnState`]: crate::rules::components::TurnState

use bevy::prelude::*;

use crate::rules::components::{Cid, MoveMode};

#[derive(Component, Clone, Debug, PartialEq, Default)]
pub struct Ud10Turn {
    /// Movement made this turn, in decimetres.
    pub moved_dm: u32,
    /// The widest movement of the turn so far.
    pub movement: MoveMode,
    /// Moved before the action this turn (then no movement after it).
    pub moved_before_action: bool,
    /// Aiming: at whom and for how many full rounds.
    pub aim: Option<(Cid, u8)>,
    /// Aimed this turn (so the aim is not lost at the end of the turn).
    pub aimed_this_turn: bool,
    /// Brought round by first aid once this battle: a second fall is beyond
    /// it (docs/rulesets/ud10.md, "First aid").
    pub brought_round: bool,
}

impl Ud10Turn {
    /// A new turn or round: no movement yet.
    pub fn start(&mut self) {
        self.moved_dm = 0;
        self.movement = MoveMode::None;
        self.moved_before_action = false;
    }
}

/// The wider of two movement modes (§Movement): a turn's mode is the widest
/// it has used.
pub fn widest(a: MoveMode, b: MoveMode) -> MoveMode {
    fn rank(m: MoveMode) -> u8 {
        match m {
            MoveMode::None => 0,
            MoveMode::Step => 1,
            MoveMode::Standard => 2,
            MoveMode::Full => 3,
            MoveMode::Retreat => 4,
        }
    }
    if rank(b) > rank(a) { b } else { a }
}
