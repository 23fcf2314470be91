//! §Mounts and vehicles in combat, read only: whether getting on or off,
//! reserving or handing the turn over is allowed; where a rider lands.
//! (Who rides what and the pair's turn are `turns.rs`'s.)

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::Cid;
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;

use super::query::{nearby, stats};
use super::state::ZonesRound;
use super::turns::{mount_of, paired, standing_riders};

pub const RULE_MOUNTS: &str = "zones §Mounts and vehicles in combat";

/// Half zones `who` may still move this turn on its own.
pub(super) fn halves_left(world: &World, who: Cid) -> u32 {
    let Some(s) = stats(world, who) else { return 0 };
    let t = &view::resource::<ZonesRound>(world).turn;
    let cap = if t.acted() {
        s.half_speed()
    } else {
        s.full_speed()
    };
    (2 * cap).saturating_sub(t.spent_halves())
}

/// Can `who` get on `mount` now?
pub fn check_mount(world: &World, who: Cid, mount: Cid) -> Result<(), Illegal> {
    if view::riding(world, who).is_some() {
        return illegal("already riding");
    }
    if view::steed(world, who).is_some() {
        return illegal("a mount does not ride");
    }
    let Some(steed) = view::steed(world, mount) else {
        return illegal("that is not a mount or a vehicle");
    };
    if view::faction(world, mount) != view::faction(world, who) || !view::standing(world, mount) {
        return illegal("only a standing mount of your own side");
    }
    if !nearby(world, who, mount) {
        return illegal("the mount is not nearby (the same zone)");
    }
    if standing_riders(world, mount).len() >= usize::from(steed.carries) {
        return illegal(format!("it carries {} at most", steed.carries));
    }
    if halves_left(world, who) == 0 {
        return illegal("getting on counts as moving half a zone: no movement left");
    }
    Ok(())
}

/// Can `who` get off onto `to` now? A free cell next to its mount.
pub fn check_dismount(world: &World, who: Cid, to: Cell) -> Result<(), Illegal> {
    let Some(mount) = view::riding(world, who) else {
        return illegal("not riding");
    };
    let Some(at) = view::cell(world, mount) else {
        return illegal("the mount is not on the map");
    };
    if Map::chebyshev(at, to) != 1 {
        return illegal("get off onto a cell next to the mount");
    }
    if !landing(world, to) {
        return illegal(format!("{to} is not a free cell of a zone"));
    }
    if view::each_enemy(world, who).any(|e| view::cell(world, e) == Some(to)) {
        return illegal(format!("an enemy holds {to}"));
    }
    if halves_left(world, who) == 0 {
        return illegal("getting off counts as moving half a zone: no movement left");
    }
    Ok(())
}

/// Can a rider land on `c`: passable, in a zone, no pit, nobody there?
pub(super) fn landing(world: &World, c: Cell) -> bool {
    let map = view::resource::<Map>(world);
    map.in_bounds(c)
        && map.terrain(c).passable()
        && map.terrain(c) != Terrain::Pit
        && map.zone_of(c).is_some()
        && view::occupied(world, None).binary_search(&c).is_err()
}

/// A free cell next to `at` to land on, the nearest to `towards` (then the
/// first in reading order); `at` itself when there is none.
pub fn landing_near(world: &World, at: Cell, towards: Option<Cell>) -> Cell {
    let mut best: Option<(i32, Cell)> = None;
    for dy in -1..=1 {
        for dx in -1..=1 {
            let c = Cell::new(at.x + dx, at.y + dy);
            if c == at || !landing(world, c) {
                continue;
            }
            let d = towards.map_or(0, |t| Map::chebyshev(c, t));
            if best.is_none_or(|b| d < b.0) {
                best = Some((d, c));
            }
        }
    }
    best.map_or(at, |b| b.1)
}

/// Can `who` keep its turn to react? Only one of a pair, before it has done
/// anything this turn.
pub fn check_reserve(world: &World, who: Cid) -> Result<(), Illegal> {
    if !paired(world, who) {
        return illegal("only mounts, riders and passengers reserve their turn");
    }
    if !view::resource::<ZonesRound>(world).turn.untouched() {
        return illegal("only before doing anything this turn");
    }
    Ok(())
}

/// Can `who` take over the turn of its pair from `from`?
pub fn check_handover(world: &World, from: Cid, to: Cid) -> Result<(), Illegal> {
    let r = view::resource::<ZonesRound>(world);
    if to == from || !r.team.iter().any(|b| b.who == Some(to)) {
        return illegal("only one of the pair taking this turn together");
    }
    if !view::standing(world, to) {
        return illegal("out of the fight");
    }
    Ok(())
}

/// Whom a swap of places (hiding behind) would tear from a mount: a rider or
/// a mount carrying someone can only swap within its own pair (a no-op: they
/// share the cell).
pub fn swap_allowed(world: &World, a: Cid, b: Cid) -> bool {
    if mount_of(world, a) == mount_of(world, b) {
        return true;
    }
    !paired(world, a) && !paired(world, b)
}
