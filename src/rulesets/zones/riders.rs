//! §Mounts and vehicles in combat, read only: who rides what, the pair's
//! turn and budget, whether getting on or off, reserving or handing the
//! turn over is allowed.

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, TurnState};
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;

use super::query::{nearby, stats};
use super::state::{TurnBudget, ZonesRound};

pub const RULE_MOUNTS: &str = "zones §Mounts and vehicles in combat";

/// The mount `who` belongs to, as mount or rider.
pub(super) fn mount_of(world: &World, who: Cid) -> Cid {
    view::riding(world, who).unwrap_or(who)
}

/// Is `who` one of a pair: riding, or carrying someone?
pub fn paired(world: &World, who: Cid) -> bool {
    view::riding(world, who).is_some() || !standing_riders(world, who).is_empty()
}

/// The standing riders of `mount`.
pub fn standing_riders(world: &World, mount: Cid) -> Vec<Cid> {
    view::riders(world, mount)
        .into_iter()
        .filter(|r| view::standing(world, *r))
        .collect()
}

/// Those who take the turn together with `who`: the mount first, then its
/// riders, as far as they are standing and still have their turn.
pub fn pair(world: &World, who: Cid) -> view::Cids {
    let mount = mount_of(world, who);
    let r = view::resource::<ZonesRound>(world);
    let mut v = view::Cids::new();
    v.push(mount);
    v.extend(standing_riders(world, mount));
    v.retain(|c| {
        *c == who
            || (view::standing(world, *c)
                && view::get::<TurnState>(world, *c).is_some_and(|t| !t.done)
                && !r.reserved.contains(c))
    });
    v
}

/// A vehicle with nobody aboard: it cannot take a turn.
pub fn idle_vehicle(world: &World, who: Cid) -> bool {
    view::steed(world, who).is_some_and(|s| s.vehicle) && standing_riders(world, who).is_empty()
}

pub fn is_vehicle(world: &World, who: Cid) -> bool {
    view::steed(world, who).is_some_and(|s| s.vehicle)
}

/// What `who` has spent in the turn in progress, if it takes part in it.
pub fn budget_of(world: &World, who: Cid) -> Option<TurnBudget> {
    let r = view::resource::<ZonesRound>(world);
    if r.turn.who == Some(who) {
        return Some(r.turn.clone());
    }
    r.team.iter().find(|b| b.who == Some(who)).cloned()
}

/// "If the mount or vehicle is moving": Fray decides, it has crossed a zone
/// border in the turn in progress.
pub fn moving(world: &World, mount: Cid) -> bool {
    budget_of(world, mount).is_some_and(|b| b.zones > 0)
}

/// Has `who` moved in this turn, on its own feet or carried? (Shooting
/// "while moving" needs a WIT save.)
pub fn moved_this_turn(world: &World, who: Cid) -> bool {
    budget_of(world, who).is_some_and(|b| b.zones > 0)
        || view::riding(world, who).is_some_and(|m| moving(world, m))
}

/// A rider of `mount` has acted in this turn: the mount keeps to half speed.
pub fn riders_acted(world: &World, mount: Cid) -> bool {
    standing_riders(world, mount)
        .into_iter()
        .any(|r| budget_of(world, r).is_some_and(|b| b.acted()))
}

/// Carried at full speed this round: no action nor reaction.
pub fn carried_fast(world: &World, who: Cid) -> bool {
    view::resource::<ZonesRound>(world)
        .carried_fast
        .contains(&who)
}

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
