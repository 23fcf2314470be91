//! Read-only questions about the battle that rulesets, the AI and the UI share.

use bevy::prelude::*;

use crate::rules::battle::{Place, Roster};
use crate::rules::components::{Cid, Conditions, Steed};
use crate::rules::map::Cell;

pub fn entity(world: &World, cid: Cid) -> Option<Entity> {
    world.get_resource::<Roster>()?.entity(cid)
}

/// A combatant's entity, to read several of its components.
pub fn entity_ref(world: &World, cid: Cid) -> Option<EntityRef<'_>> {
    world.get_entity(entity(world, cid)?).ok()
}

/// A component of a combatant.
pub fn get<C: Component>(world: &World, cid: Cid) -> Option<&C> {
    world.get::<C>(entity(world, cid)?)
}

/// A combatant's name, as the level gives it.
pub fn name(world: &World, cid: Cid) -> String {
    world.resource::<Roster>().name(cid).to_string()
}

/// A combatant's [`Place`]: its cell, conditions, mount, and whether it
/// is one.
pub fn place(world: &World, cid: Cid) -> Option<&Place> {
    world.get_resource::<Roster>()?.place(cid)
}

pub fn cell(world: &World, cid: Cid) -> Option<Cell> {
    place(world, cid).map(|p| p.cell)
}

/// A combatant's faction: the roster's copy of its
/// [`FactionId`](crate::rules::components::FactionId), which no rule
/// changes, read without looking the combatant up.
pub fn faction(world: &World, cid: Cid) -> Option<u8> {
    world
        .get_resource::<Roster>()?
        .factions
        .get(cid.0 as usize)
        .copied()
}

pub fn conditions(world: &World, cid: Cid) -> Conditions {
    place(world, cid).map(|p| p.conditions).unwrap_or_default()
}

/// Still in the fight: not dead, unconscious, fled or surrendered.
pub fn standing(world: &World, cid: Cid) -> bool {
    place(world, cid).is_some_and(|p| !p.conditions.out_of_fight())
}

/// Every combatant id, in roster order.
pub fn all(world: &World) -> Vec<Cid> {
    world
        .get_resource::<Roster>()
        .map(|r| r.cids().collect())
        .unwrap_or_default()
}

/// Combatants still in the fight, in roster order.
pub fn standing_all(world: &World) -> Vec<Cid> {
    standing_where(world, |_| true)
}

/// Standing combatants whose faction passes `keep`, in roster order. One
/// look at the roster: the AI asks this thousands of times a battle.
fn standing_where(world: &World, keep: impl Fn(u8) -> bool) -> Vec<Cid> {
    let Some(r) = world.get_resource::<Roster>() else {
        return Vec::new();
    };
    r.places()
        .iter()
        .zip(&r.factions)
        .enumerate()
        .filter(|(_, (p, f))| keep(**f) && !p.conditions.out_of_fight())
        .map(|(i, _)| Cid(i as u16))
        .collect()
}

/// Standing enemies of `cid`, in roster order.
pub fn enemies(world: &World, cid: Cid) -> Vec<Cid> {
    let Some(f) = faction(world, cid) else {
        return Vec::new();
    };
    standing_where(world, |g| g != f)
}

/// Standing allies of `cid` (not counting itself), in roster order.
pub fn allies(world: &World, cid: Cid) -> Vec<Cid> {
    let Some(f) = faction(world, cid) else {
        return Vec::new();
    };
    let mut v = standing_where(world, |g| g == f);
    v.retain(|c| *c != cid);
    v
}

/// The standing combatant on a cell (the fallen do not hold their cell);
/// where a rider sits on its mount, the mount.
pub fn standing_at(world: &World, at: Cell) -> Option<Cid> {
    let r = world.get_resource::<Roster>()?;
    r.places()
        .iter()
        .position(|p| p.cell == at && p.riding.is_none() && !p.conditions.out_of_fight())
        .map(|i| Cid(i as u16))
}

/// The mount or vehicle `who` rides, if any.
pub fn riding(world: &World, who: Cid) -> Option<Cid> {
    place(world, who).and_then(|p| p.riding)
}

/// Who rides `mount`, in roster order.
pub fn riders(world: &World, mount: Cid) -> Vec<Cid> {
    let Some(r) = world.get_resource::<Roster>() else {
        return Vec::new();
    };
    r.places()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.riding == Some(mount))
        .map(|(i, _)| Cid(i as u16))
        .collect()
}

/// Is `who` a mount or a vehicle?
pub fn steed(world: &World, who: Cid) -> Option<Steed> {
    place(world, who).and_then(|p| p.steed)
}

/// Cells held by standing combatants, except `except` (riders share their
/// mount's cell and do not hold one of their own).
pub fn occupied(world: &World, except: Option<Cid>) -> Vec<Cell> {
    // One look at the roster: every move the AI weighs asks this.
    let Some(r) = world.get_resource::<Roster>() else {
        return Vec::new();
    };
    let mut v: Vec<Cell> = r
        .places()
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            except != Some(Cid(*i as u16)) && !p.conditions.out_of_fight() && p.riding.is_none()
        })
        .map(|(_, p)| p.cell)
        .collect();
    v.sort_unstable();
    v
}

/// Is `who` on a cell of the map's edge (from where it can leave the fight)?
pub fn on_map_edge(world: &World, who: Cid) -> bool {
    let Some(c) = cell(world, who) else {
        return false;
    };
    let map = world.resource::<crate::rules::map::Map>();
    c.x == 0 || c.y == 0 || c.x == map.width() - 1 || c.y == map.height() - 1
}
