//! §Mounts and vehicles in combat.
//!
//! "Mounts and riders, as well as vehicles and passengers, take turn
//! together. Individual mounts, riders, and passengers can choose not to do
//! anything and reserve their turn to react. If the mount or vehicle moves at
//! full speed, riders and passengers can't take any action nor react.
//!
//! Mounts, vehicles, riders, and passengers are targeted individually by
//! enemy attacks. Attacks made by riders and passengers are impaired.
//!
//! Mounting or dismounting, or getting on or on off a vehicle, counts as
//! moving half a zone. If the mount or vehicle is moving, an AGI save is
//! required to avoid falling, suffering d4 direct damage."
//!
//! Fray decides (written in `docs/rulesets/zones.md`):
//! - a pair's turn passes from one member to the next as each ends its part
//!   (`end_turn`), and a member may hand it over and take it back
//!   (`Activate` during the turn); riders cannot move on their own, their
//!   mount carries them;
//! - a rider who acts keeps its mount to half speed, as a mount at full speed
//!   leaves its riders no action;
//! - a mount "is moving" once it has crossed a zone border in this turn;
//! - a vehicle moves only with someone aboard, and never attacks or reacts;
//! - a mount that goes down throws its riders (the AGI save against the
//!   fall); a grabbed rider is pulled down and a shoved one pushed off, with
//!   the same save; riders who are out of the fight slide off;
//! - mounts and vehicles count neither for victory nor for morale.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition, TurnState};
use crate::rules::event::BattleEvent;
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;

use super::attack::save;
use super::check::stats;
use super::data::impaired;
use super::queries::nearby;
use super::round::{TurnBudget, ZonesRound};

pub const RULE_MOUNTS: &str = "zones §Mounts and vehicles in combat";

/// The mount `who` belongs to, as mount or rider.
fn mount_of(world: &World, who: Cid) -> Cid {
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
pub fn pair(world: &World, who: Cid) -> Vec<Cid> {
    let mount = mount_of(world, who);
    let r = world.resource::<ZonesRound>();
    let mut v = vec![mount];
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
    let r = world.resource::<ZonesRound>();
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
    world.resource::<ZonesRound>().carried_fast.contains(&who)
}

/// After `mount` moved: beyond half speed, its riders lose their actions and
/// reactions for the round.
pub fn after_mount_moved(world: &mut World, mount: Cid) {
    let half = stats(world, mount).map_or(1, |s| s.half_speed());
    let fast = budget_of(world, mount).is_some_and(|b| b.beyond(half));
    if !fast {
        return;
    }
    let riders = standing_riders(world, mount);
    let mut r = world.resource_mut::<ZonesRound>();
    for c in riders {
        if !r.carried_fast.contains(&c) {
            r.carried_fast.push(c);
        }
    }
}

/// Half zones `who` may still move this turn on its own.
fn halves_left(world: &World, who: Cid) -> u32 {
    let Some(s) = stats(world, who) else { return 0 };
    let t = &world.resource::<ZonesRound>().turn;
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

/// Get on: half a zone of movement; an AGI save if the mount is moving, a
/// fall (d4 direct damage) on a failure.
pub fn mount(world: &mut World, who: Cid, mount: Cid) {
    world.resource_mut::<ZonesRound>().turn.halves += 1;
    if moving(world, mount) && !fall_save(world, who, "to get on a moving mount") {
        return;
    }
    emit(
        world,
        BattleEvent::Mounted {
            who,
            mount,
            rule: RULE_MOUNTS,
        },
    );
    // The two now take the turn together: a mount that has not had its turn
    // this round goes on with it.
    let joins = super::check::turn_left(world, mount)
        && budget_of(world, mount).is_none()
        && !world.resource::<ZonesRound>().reserved.contains(&mount);
    if joins {
        world.resource_mut::<ZonesRound>().team.push(TurnBudget {
            who: Some(mount),
            ..default()
        });
    }
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
    if view::enemies(world, who)
        .into_iter()
        .any(|e| view::cell(world, e) == Some(to))
    {
        return illegal(format!("an enemy holds {to}"));
    }
    if halves_left(world, who) == 0 {
        return illegal("getting off counts as moving half a zone: no movement left");
    }
    Ok(())
}

/// Can a rider land on `c`: passable, in a zone, no pit, nobody there?
fn landing(world: &World, c: Cell) -> bool {
    let map = world.resource::<Map>();
    map.in_bounds(c)
        && map.terrain(c).passable()
        && map.terrain(c) != Terrain::Pit
        && map.zone_of(c).is_some()
        && view::occupied(world, None).binary_search(&c).is_err()
}

/// Get off onto `to`: half a zone of movement; an AGI save if the mount is
/// moving, d4 direct damage on a failure (the rider lands all the same).
pub fn dismount(world: &mut World, who: Cid, to: Cell) {
    let Some(mount) = view::riding(world, who) else {
        return;
    };
    world.resource_mut::<ZonesRound>().turn.halves += 1;
    get_off(world, who, mount, to, false);
    if moving(world, mount) {
        fall_save(world, who, "to get off a moving mount");
    }
}

fn get_off(world: &mut World, who: Cid, mount: Cid, to: Cell, thrown: bool) {
    emit(
        world,
        BattleEvent::Dismounted {
            who,
            mount,
            to,
            thrown,
            rule: RULE_MOUNTS,
        },
    );
}

/// The AGI save against a fall; on a failure, d4 direct damage. True when
/// it passes.
fn fall_save(world: &mut World, who: Cid, purpose: &'static str) -> bool {
    let agi = stats(world, who).map_or(0, |s| s.agi);
    if save(world, who, "AGI", agi, purpose, RULE_MOUNTS) {
        return true;
    }
    super::nonlethal::direct_damage(world, who, &impaired(), RULE_MOUNTS);
    false
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

/// `rider` comes off its mount against its will, onto `to`: the AGI save
/// against the fall, unless it is out of the fight already.
pub fn throw_off(world: &mut World, rider: Cid, to: Cell) {
    let Some(mount) = view::riding(world, rider) else {
        return;
    };
    get_off(world, rider, mount, to, true);
    if view::standing(world, rider) {
        fall_save(world, rider, "to land on their feet");
    }
}

/// Riders whose mount is out of the fight are thrown; riders who are out of
/// the fight slide off.
pub fn tidy_riders(world: &mut World) {
    for rider in view::all(world) {
        let Some(mount) = view::riding(world, rider) else {
            continue;
        };
        let rider_down = !view::standing(world, rider);
        let mount_down = !view::standing(world, mount);
        if !rider_down && !mount_down {
            continue;
        }
        let gone = view::conditions(world, rider).has(Condition::Fled);
        if gone {
            continue;
        }
        let Some(at) = view::cell(world, mount) else {
            continue;
        };
        let to = landing_near(world, at, None);
        if view::conditions(world, rider).has(Condition::Surrendered) {
            // Giving up: it gets down, with no fall.
            get_off(world, rider, mount, to, false);
        } else {
            throw_off(world, rider, to);
        }
    }
}

/// Can `who` keep its turn to react? Only one of a pair, before it has done
/// anything this turn.
pub fn check_reserve(world: &World, who: Cid) -> Result<(), Illegal> {
    if !paired(world, who) {
        return illegal("only mounts, riders and passengers reserve their turn");
    }
    if !world.resource::<ZonesRound>().turn.untouched() {
        return illegal("only before doing anything this turn");
    }
    Ok(())
}

/// Keep the turn to react: the next of the pair goes on, else play passes.
pub fn reserve(world: &mut World, who: Cid) {
    emit(
        world,
        BattleEvent::TurnReserved {
            who,
            rule: RULE_MOUNTS,
        },
    );
    world.resource_mut::<ZonesRound>().reserved.push(who);
    super::round::finish_part(world, who);
}

/// Can `who` take over the turn of its pair from `from`?
pub fn check_handover(world: &World, from: Cid, to: Cid) -> Result<(), Illegal> {
    let r = world.resource::<ZonesRound>();
    if to == from || !r.team.iter().any(|b| b.who == Some(to)) {
        return illegal("only one of the pair taking this turn together");
    }
    if !view::standing(world, to) {
        return illegal("out of the fight");
    }
    Ok(())
}

/// `to` goes on with the pair's turn; `from` may take it back later.
pub fn hand_over(world: &mut World, from: Cid, to: Cid) {
    {
        let mut r = world.resource_mut::<ZonesRound>();
        let Some(i) = r.team.iter().position(|b| b.who == Some(to)) else {
            return;
        };
        let next = r.team.remove(i);
        let mine = std::mem::replace(&mut r.turn, next);
        r.team.insert(0, mine);
    }
    emit(
        world,
        BattleEvent::TurnHandedOver {
            from,
            to,
            rule: RULE_MOUNTS,
        },
    );
    world.resource_mut::<Battle>().prompt = Prompt::Act { actor: to };
}

/// `who` has ended its part of the turn: give it to the next standing one
/// of its pair who has not yet. False when none is left.
pub fn next_of_pair(world: &mut World, who: Cid) -> bool {
    loop {
        let next = {
            let mut r = world.resource_mut::<ZonesRound>();
            if r.team.is_empty() {
                return false;
            }
            r.team.remove(0)
        };
        let Some(to) = next.who else { continue };
        let reserved = world.resource::<ZonesRound>().reserved.contains(&to);
        if !view::standing(world, to) || reserved || !super::check::turn_left(world, to) {
            continue;
        }
        world.resource_mut::<ZonesRound>().turn = next;
        emit(
            world,
            BattleEvent::TurnHandedOver {
                from: who,
                to,
                rule: RULE_MOUNTS,
            },
        );
        world.resource_mut::<Battle>().prompt = Prompt::Act { actor: to };
        return true;
    }
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
