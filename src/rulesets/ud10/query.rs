//! UD10's read-only accessors of a combatant: its stat block, its turn's
//! bookkeeping, its weapons. A leaf.

use bevy::prelude::*;

use crate::rules::components::{Cid, Loadout, TurnState};
use crate::rules::view;

use super::data::Ud10Stats;

pub fn stats(world: &World, cid: Cid) -> Option<&Ud10Stats> {
    view::get::<Ud10Stats>(world, cid)
}

pub fn turn(world: &World, cid: Cid) -> TurnState {
    view::get::<TurnState>(world, cid)
        .cloned()
        .unwrap_or_default()
}

pub fn loadout(world: &World, cid: Cid) -> Option<&Loadout> {
    view::get::<Loadout>(world, cid)
}
