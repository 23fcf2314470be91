//! UD10's read-only accessors of a combatant: its stat block, its turn's
//! bookkeeping, its weapons. A leaf.

use bevy::prelude::*;

use crate::rules::components::{Cid, Loadout, MoveMode, TurnState};
use crate::rules::view;

use super::data::Ud10Stats;
use super::state::Ud10Turn;

pub fn stats(world: &World, cid: Cid) -> Option<&Ud10Stats> {
    view::get::<Ud10Stats>(world, cid)
}

/// A combatant's turn as UD10 reads it: the core's shared bookkeeping and
/// UD10's own ([`Ud10Turn`]) side by side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Turn {
    pub initiative: Option<i32>,
    pub done: bool,
    pub action_used: bool,
    pub reaction_used: bool,
    pub moved_dm: u32,
    pub movement: MoveMode,
    pub moved_before_action: bool,
    pub aim: Option<(Cid, u8)>,
}

/// Has the combatant used this round's reaction? ([`Turn`]'s
/// `reaction_used`, read alone.)
pub fn reaction_used(world: &World, cid: Cid) -> bool {
    view::get::<TurnState>(world, cid).is_some_and(|s| s.reaction_used)
}

/// Has the combatant used this turn's action? ([`Turn`]'s `action_used`,
/// read alone.)
pub fn action_used(world: &World, cid: Cid) -> bool {
    view::get::<TurnState>(world, cid).is_some_and(|s| s.action_used)
}

pub fn turn(world: &World, cid: Cid) -> Turn {
    let s = view::get::<TurnState>(world, cid)
        .cloned()
        .unwrap_or_default();
    let u = view::get::<Ud10Turn>(world, cid)
        .cloned()
        .unwrap_or_default();
    Turn {
        initiative: s.initiative,
        done: s.done,
        action_used: s.action_used,
        reaction_used: s.reaction_used,
        moved_dm: u.moved_dm,
        movement: u.movement,
        moved_before_action: u.moved_before_action,
        aim: u.aim,
    }
}

pub fn loadout(world: &World, cid: Cid) -> Option<&Loadout> {
    view::get::<Loadout>(world, cid)
}
