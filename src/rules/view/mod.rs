//! The battle's world as the rules, the AI and the game read it: the
//! questions everyone asks about the combatants (who stands, whose enemy,
//! where, riding what), here; reading a resource or a component
//! (`storage.rs`), within scopes that remember where things lie
//! (`scope.rs`); and, apart, the write path (`write.rs`), for `apply` and
//! the battle's own bookkeeping.

use bevy::prelude::*;

use crate::rules::components::{Cid, Conditions, Size, Steed};
use crate::rules::map::Cell;
use crate::rules::map::Map;
use crate::rules::roster::{Place, Roster};

mod scope;
mod storage;
pub mod write;

pub use scope::{fixed, moved, reading};
pub use storage::{entity, entity_ref, get, get_resource, resource};

use storage::roster;

/// A combatant's name, as the level gives it.
pub fn name(world: &World, cid: Cid) -> String {
    resource::<Roster>(world).name(cid).to_string()
}

/// A combatant's [`Place`]: its cell, conditions, mount, and whether it
/// is one.
pub fn place(world: &World, cid: Cid) -> Option<&Place> {
    roster(world)?.place(cid)
}

pub fn cell(world: &World, cid: Cid) -> Option<Cell> {
    place(world, cid).map(|p| p.cell)
}

/// A combatant's faction: the roster's copy of its
/// [`FactionId`](crate::rules::components::FactionId), which no rule
/// changes, read without looking the combatant up.
pub fn faction(world: &World, cid: Cid) -> Option<u8> {
    roster(world)?.factions.get(cid.0 as usize).copied()
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
    roster(world)
        .map(|r| r.cids().collect())
        .unwrap_or_default()
}

/// Combatants still in the fight who are not mounts or vehicles (a
/// riderless horse does not carry on the fight), with their factions, in
/// roster order: one look at the roster.
pub fn fighters(world: &World) -> impl Iterator<Item = u8> + '_ {
    roster(world).into_iter().flat_map(|r| {
        r.places()
            .iter()
            .zip(&r.factions)
            .filter(|(p, _)| !p.conditions.out_of_fight() && p.steed.is_none())
            .map(|(_, f)| *f)
    })
}

/// How many of faction `f`'s combatants still fight (mounts and vehicles
/// not counted).
pub fn fighters_in(world: &World, f: u8) -> usize {
    fighters(world).filter(|g| *g == f).count()
}

/// How many of each faction's combatants still fight (mounts and vehicles
/// not counted), by faction id, for `n` factions.
pub fn fighters_per_faction(world: &World, n: usize) -> Vec<usize> {
    let mut v = vec![0; n];
    for f in fighters(world) {
        if let Some(slot) = v.get_mut(usize::from(f)) {
            *slot += 1;
        }
    }
    v
}

/// Every hold in a grab: (held, holder), in roster order of the held.
pub fn holds(world: &World) -> smallvec::SmallVec<[(Cid, Cid); 4]> {
    roster(world)
        .map(|r| {
            r.places()
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.held_by.map(|by| (Cid(i as u16), by)))
                .collect()
        })
        .unwrap_or_default()
}

/// A list of combatants, kept inline (no heap allocation) for up to
/// sixteen: the AI asks for enemies and allies thousands of times a battle.
pub type Cids = smallvec::SmallVec<[Cid; 16]>;

/// A list of cells, kept inline for up to sixteen (those combatants hold).
pub type Cells = smallvec::SmallVec<[Cell; 16]>;

/// Combatants still in the fight, in roster order.
pub fn standing_all(world: &World) -> Cids {
    let Some(r) = roster(world) else {
        return Cids::new();
    };
    let all = ones(r.standing().iter().copied());
    debug_assert_eq!(all, standing_scan(r, |_| true));
    all
}

/// The combatants of a row of the roster's bits ([`Roster::standing`]),
/// word by word, in roster order.
#[inline]
fn ones(words: impl Iterator<Item = u64>) -> Cids {
    let mut cids = Cids::new();
    for (k, mut word) in words.enumerate() {
        while word != 0 {
            cids.push(Cid((k * 64 + word.trailing_zeros() as usize) as u16));
            word &= word - 1;
        }
    }
    cids
}

/// Standing combatants whose faction passes `keep`, in roster order, the
/// places walked one by one: what the roster's bits must say (debug
/// builds check them against it).
fn standing_scan(r: &Roster, keep: impl Fn(u8) -> bool) -> Cids {
    r.places()
        .iter()
        .zip(&r.factions)
        .enumerate()
        .filter(|(_, (p, f))| keep(**f) && !p.conditions.out_of_fight())
        .map(|(i, _)| Cid(i as u16))
        .collect()
}

/// Standing combatants of faction `f` (`mine`: true) or of any other
/// (`mine`: false), in roster order: one row of bits each.
#[inline]
fn standing_of(r: &Roster, f: u8, mine: bool) -> Cids {
    let members = r.members(f);
    let flip = if mine { 0 } else { u64::MAX };
    let found = ones(
        r.standing()
            .iter()
            .enumerate()
            .map(|(k, s)| s & (members.get(k).copied().unwrap_or(0) ^ flip)),
    );
    debug_assert_eq!(found, standing_scan(r, |g| (g == f) == mine));
    found
}

/// Standing enemies of `cid`, in roster order.
pub fn enemies(world: &World, cid: Cid) -> Cids {
    let Some(r) = roster(world) else {
        return Cids::new();
    };
    let Some(&f) = r.factions.get(cid.0 as usize) else {
        return Cids::new();
    };
    standing_of(r, f, false)
}

/// [`enemies`] one at a time, in the same order, without building the
/// list: for a question that may stop at the first (is any of them next
/// to this cell, can any of them see that one).
pub fn each_enemy(world: &World, cid: Cid) -> impl Iterator<Item = Cid> + '_ {
    let mine = faction(world, cid);
    roster(world)
        .filter(|_| mine.is_some())
        .into_iter()
        .flat_map(move |r| {
            r.places()
                .iter()
                .zip(&r.factions)
                .enumerate()
                .filter(move |(_, (p, f))| Some(**f) != mine && !p.conditions.out_of_fight())
                .map(|(i, _)| Cid(i as u16))
        })
}

/// Is `target` one of `who`'s [`enemies`] (standing, of another
/// faction)? Asked without building the list: every check of a command
/// aimed at an enemy asks it.
pub fn is_enemy(world: &World, who: Cid, target: Cid) -> bool {
    let Some(r) = roster(world) else {
        return false;
    };
    let (Some(mine), Some(theirs), Some(p)) = (
        r.factions.get(who.0 as usize),
        r.factions.get(target.0 as usize),
        r.places().get(target.0 as usize),
    ) else {
        return false;
    };
    mine != theirs && !p.conditions.out_of_fight()
}

/// Standing combatants of faction `f`, in roster order: one look at the
/// roster.
pub fn standing_in(world: &World, f: u8) -> Cids {
    roster(world).map_or_else(Cids::new, |r| standing_of(r, f, true))
}

/// Standing allies of `cid` (not counting itself), in roster order.
pub fn allies(world: &World, cid: Cid) -> Cids {
    let Some(r) = roster(world) else {
        return Cids::new();
    };
    let Some(&f) = r.factions.get(cid.0 as usize) else {
        return Cids::new();
    };
    let mut allies = standing_of(r, f, true);
    allies.retain(|c| *c != cid);
    allies
}

/// The standing combatant on a cell (the fallen do not hold their cell);
/// where a rider sits on its mount, the mount.
pub fn standing_at(world: &World, at: Cell) -> Option<Cid> {
    let r = roster(world)?;
    r.places()
        .iter()
        .position(|p| p.cell == at && p.riding.is_none() && !p.conditions.out_of_fight())
        .map(|i| Cid(i as u16))
}

/// The mount or vehicle `who` rides, if any.
pub fn riding(world: &World, who: Cid) -> Option<Cid> {
    place(world, who).and_then(|p| p.riding)
}

/// Every rider, in roster order: one look at the roster.
pub fn all_riding(world: &World) -> Cids {
    roster(world)
        .map(|r| {
            r.places()
                .iter()
                .enumerate()
                .filter(|(_, p)| p.riding.is_some())
                .map(|(i, _)| Cid(i as u16))
                .collect()
        })
        .unwrap_or_default()
}

/// Who rides `mount`, in roster order.
pub fn riders(world: &World, mount: Cid) -> Vec<Cid> {
    let Some(r) = roster(world) else {
        return Vec::new();
    };
    r.places()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.riding == Some(mount))
        .map(|(i, _)| Cid(i as u16))
        .collect()
}

/// A combatant's size (medium when it has no place).
pub fn size(world: &World, who: Cid) -> Size {
    place(world, who).map(|p| p.size).unwrap_or_default()
}

/// Who holds `who` in a grab, if anyone.
pub fn held_by(world: &World, who: Cid) -> Option<Cid> {
    place(world, who).and_then(|p| p.held_by)
}

/// Whom `grabber` holds in a grab, if anyone (the first in roster order).
pub fn holding(world: &World, grabber: Cid) -> Option<Cid> {
    roster(world)?
        .places()
        .iter()
        .position(|p| p.held_by == Some(grabber))
        .map(|i| Cid(i as u16))
}

/// Is `who` a mount or a vehicle?
pub fn steed(world: &World, who: Cid) -> Option<Steed> {
    place(world, who).and_then(|p| p.steed)
}

/// Cells held by standing combatants, except `except` (riders share their
/// mount's cell and do not hold one of their own).
pub fn occupied(world: &World, except: Option<Cid>) -> Cells {
    // One look at the roster, and no allocation for up to sixteen: every
    // move the AI weighs and every move checked asks this.
    let Some(r) = roster(world) else {
        return Cells::new();
    };
    let mut v: Cells = r
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
    let map = resource::<Map>(world);
    c.x == 0 || c.y == 0 || c.x == map.width() - 1 || c.y == map.height() - 1
}

#[cfg(test)]
mod tests;
