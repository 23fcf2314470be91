//! The round's bookkeeping (§5.1–5.4) and the attack waiting on a parry or
//! dodge (§5.6–5.8). A leaf: state only. `apply.rs` records what events
//! say (statements, movement, ranks); `round.rs` keeps its place in the
//! count.

use bevy::prelude::*;

use crate::rules::components::Cid;

use super::command::Intent;
use super::event::Band;
pub use super::event::Pending;

/// One combatant's round.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slot {
    /// Its statement of intent (§5.2).
    pub declared: Option<Intent>,
    /// How far it has moved this round, in decimetres.
    pub moved_dm: u32,
    /// Next to an enemy when the Movement phase began: "involved in
    /// combat", it may not make the 30-metre move (§5.3).
    pub involved: bool,
    /// The rank it acts on and the band that set it (§5.3).
    pub rank: Option<(i32, Band)>,
    /// Its turn in the phase now running is over.
    pub done: bool,
    /// The weapon it is reloading (loaded at the round's end).
    pub reloading: Option<usize>,
    /// Parries and dodges made this round.
    pub defences: u8,
}

/// The round in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct BrpRound {
    /// DEX order, highest first (§5.2); each group ties after every
    /// tie-break.
    pub order: Vec<Vec<Cid>>,
    /// Per combatant, by [`Cid`].
    pub slots: Vec<Slot>,
}

impl BrpRound {
    pub fn slot(&self, cid: Cid) -> Option<&Slot> {
        self.slots.get(cid.0 as usize)
    }
    pub fn declared(&self, cid: Cid) -> Option<Intent> {
        self.slot(cid).and_then(|s| s.declared)
    }
}

/// The attack waiting on a reaction, if any.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingAttack(pub Option<Pending>);
