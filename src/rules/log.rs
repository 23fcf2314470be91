//! The battle's log: every event in order and every accepted command.

use bevy::prelude::*;

use crate::rules::command::{CommandMsg, Illegal};
use crate::rules::event::BattleEvent;

/// Every event of the battle, in order, and every accepted command. Only
/// ever appended to (by `apply::emit` and the resolve step).
#[derive(Resource)]
pub struct BattleLog {
    pub events: Vec<BattleEvent>,
    pub commands: Vec<CommandMsg>,
    /// The fork snapshot this log was last restored from (its id), if the
    /// log has only been appended to since: its start is then that
    /// snapshot's log, and restoring the same snapshot again only cuts the
    /// log back (a playout restores one snapshot thousands of times). Not
    /// part of the log's value: a copy makes no such claim.
    pub(crate) restored_from: Option<u64>,
    /// The world's change tick when it was last restored from that
    /// snapshot: what has not changed since still holds the snapshot's
    /// value, and a restore of the same snapshot leaves it be.
    pub(crate) restored_at: Option<bevy::ecs::change_detection::Tick>,
    /// Which battle this log is of: a number no other log has had, given
    /// afresh whenever a battle is set up or restored ([`BattleLog::renew`]),
    /// as its events then start again from another state.
    pub(crate) serial: u64,
}

/// Where a battle stands: its log (by [`BattleLog`]'s serial) and how many
/// events it holds. Between a battle's setting up or restoring and the
/// next, its state is a function of its events, which are only appended:
/// two equal moments are one state, and an AI may keep an answer worked
/// out at one moment for the same question at the same moment, or at a
/// later one it knows the events between do not bear on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    serial: u64,
    events: usize,
}

impl Moment {
    /// The moment `n` events later in the same battle.
    pub fn later(self, n: usize) -> Moment {
        Moment {
            serial: self.serial,
            events: self.events + n,
        }
    }

    /// How many events the log held.
    pub fn events(self) -> usize {
        self.events
    }
}

/// The serials of logs: shared by every thread, never given twice.
static LOG_SERIALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl BattleLog {
    /// Where the battle stands now.
    pub fn moment(&self) -> Moment {
        Moment {
            serial: self.serial,
            events: self.events.len(),
        }
    }

    /// Another battle, or the same one restored: a serial of its own, so
    /// that no moment before it equals one after.
    pub(crate) fn renew(&mut self) {
        self.serial = LOG_SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for BattleLog {
    fn default() -> BattleLog {
        let mut log = BattleLog {
            events: Vec::new(),
            commands: Vec::new(),
            restored_from: None,
            restored_at: None,
            serial: 0,
        };
        log.renew();
        log
    }
}

impl Clone for BattleLog {
    /// A copy is a log of its own (its serial too).
    fn clone(&self) -> BattleLog {
        BattleLog {
            events: self.events.clone(),
            commands: self.commands.clone(),
            ..Default::default()
        }
    }
}

impl std::fmt::Debug for BattleLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BattleLog")
            .field("events", &self.events)
            .field("commands", &self.commands)
            .finish()
    }
}

/// The last command the battle refused, and why (for the UI).
#[derive(Resource, Clone, Debug, Default)]
pub struct LastRejection(pub Option<(CommandMsg, Illegal)>);
