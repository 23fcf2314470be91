//! Which way a UD10 combatant may face, and which way it turns by itself at
//! the end of a move (Fray decides: docs/rulesets/ud10.md, "From behind").
//! Reads only.

use bevy::prelude::*;

use crate::rules::components::{Cid, Heading};
use crate::rules::level::Facing;
use crate::rules::map::{Cell, Map};
use crate::rules::view;

/// The nearest standing enemy of `who` standing at `at`, and the way to face
/// it: nearest by steps (Chebyshev), then by straight-line distance, then
/// the first in the roster.
pub fn nearest_enemy(world: &World, who: Cid, at: Cell) -> Option<(Cid, Facing)> {
    let (e, c) = view::enemies(world, who)
        .into_iter()
        .filter_map(|e| view::cell(world, e).map(|c| (e, c)))
        .filter(|&(_, c)| c != at)
        .min_by_key(|&(e, c)| {
            let (dx, dy) = (c.x - at.x, c.y - at.y);
            (Map::chebyshev(at, c), dx * dx + dy * dy, e.0)
        })?;
    Some((e, Facing::toward(c.x - at.x, c.y - at.y)?))
}

/// Where a mover ending its move at `at` turns by itself: the nearest
/// enemy, unless it already faces that way.
pub fn turn_after_move(world: &World, who: Cid, at: Cell) -> Option<(Cid, Facing)> {
    let (e, f) = nearest_enemy(world, who, at)?;
    (view::get::<Heading>(world, who).map(|h| h.0) != Some(f)).then_some((e, f))
}

/// The ways `who` may turn to now: each direction whose neighbouring cell
/// is on the map (facing off the board guards nothing), but the one it
/// faces.
pub fn facings(world: &World, who: Cid) -> Vec<Facing> {
    let Some(at) = view::cell(world, who) else {
        return Vec::new();
    };
    let map = view::resource::<Map>(world);
    let now = view::get::<Heading>(world, who).map(|h| h.0);
    Facing::ALL
        .into_iter()
        .filter(|&f| Some(f) != now)
        .filter(|f| {
            let (dx, dy) = f.delta();
            map.in_bounds(Cell {
                x: at.x + dx,
                y: at.y + dy,
            })
        })
        .collect()
}
