//! A playout: a restored fork of a running battle continued with a fresh
//! random stream and the AI playing every side (the primitive of live odds
//! and of the look-ahead AI).

use bevy::ecs::message::Messages;

use crate::rules::view;

use crate::rules::battle::Battle;
use crate::rules::command::CommandMsg;
use crate::rules::components::Controller;
use crate::rules::dice::Dice;
use crate::rules::engine::{Engine, Stop};
use crate::rules::fork::{Snapshot, restore, snapshot};
use crate::rules::roster::{Factions, Roster};

impl Engine {
    /// The battle's state as it stands (see [`snapshot`]).
    pub fn snapshot(&self) -> Snapshot {
        snapshot(self.world())
    }

    /// Replace this engine's battle with an exact copy of `snap`'s.
    pub fn restore(&mut self, snap: &Snapshot) {
        restore(self.world_mut(), snap);
    }

    /// Continue `snap`'s battle to its end as a playout: an exact copy,
    /// then a fresh random stream from `seed` (any scripted dice dropped),
    /// commands sent but not yet resolved dropped, and the AI playing every
    /// side. Deterministic for a given snapshot and seed.
    pub fn playout(&mut self, snap: &Snapshot, seed: u64, max_steps: u64) -> Stop {
        self.playout_with(snap, None, seed, None, max_steps)
    }

    /// [`Engine::playout`], but the first command is `first` (the command
    /// a look-ahead weighs: it still goes through the legality check), and
    /// the playout stops at the start of round `until_round` when it has
    /// not ended by then (`Stop::StepLimit`).
    pub fn playout_with(
        &mut self,
        snap: &Snapshot,
        first: Option<CommandMsg>,
        seed: u64,
        until_round: Option<u32>,
        max_steps: u64,
    ) -> Stop {
        let world = self.world_mut();
        restore(world, snap);
        {
            let mut messages = view::write::resource_mut::<Messages<CommandMsg>>(world);
            messages.clear();
            if let Some(first) = first {
                messages.write(first);
            }
        }
        view::write::resource_mut::<Dice>(world).reseed(seed);
        for f in &mut view::write::resource_mut::<Factions>(world).0 {
            f.control = Controller::Ai;
        }
        // The roster's entities, not a new query: a playout is started
        // thousands of times a second.
        for e in view::resource::<Roster>(world).entities.clone() {
            if let Some(mut c) = view::write::get_mut::<Controller>(world, e) {
                *c = Controller::Ai;
            }
        }
        let Some(until) = until_round else {
            return self.run(max_steps);
        };
        for _ in 0..max_steps {
            let battle = view::resource::<Battle>(self.world());
            if battle.is_over() {
                return Stop::Over;
            }
            if battle.round >= until {
                return Stop::StepLimit;
            }
            self.step();
        }
        if view::resource::<Battle>(self.world()).is_over() {
            Stop::Over
        } else {
            Stop::StepLimit
        }
    }
}
