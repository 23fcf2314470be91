//! Read-only questions of §Attacking, §Cover, §Guarding and §Effects of size
//! in combat: who is nearby, in reach, in range, seen or in cover; what a
//! WIT save to hit needs; the armour a blow meets; who may react or guard.
//! Nothing here rolls a die or changes the battle.

use bevy::prelude::*;

use crate::rules::event::Modifier;
use crate::rules::roster::Factions;

use crate::rules::components::{Cid, Condition, Health, Loadout, Size, TurnState, Weapon};
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;
use crate::rulesets::zones::weapon::ZonesGear;

use super::modes::{MODE_STRIKE, MODE_STUNT_SURRENDER, is_stunt};
use super::settings::ZonesSettings;
use super::state::{AttackState, RULE_ATTACK, RULE_COVER};
use super::stats::ZonesStats;

/// The zones stat block of `who`.
pub fn stats(world: &World, who: Cid) -> Option<&ZonesStats> {
    view::get::<ZonesStats>(world, who)
}

/// Chance to pass a d20 save under `target`.
pub fn save_chance(world: &World, target: i32) -> f64 {
    let extremes = view::resource::<ZonesSettings>(world).natural_extremes;
    let passing = if extremes {
        target.clamp(1, 19)
    } else {
        target.clamp(0, 20)
    };
    f64::from(passing) / 20.0
}

pub fn weapon(world: &World, who: Cid, index: usize) -> Option<Weapon> {
    weapon_ref(world, who, index).cloned()
}

/// As [`weapon`], borrowed: what reads only (checks, odds) uses.
pub fn weapon_ref(world: &World, who: Cid, index: usize) -> Option<&Weapon> {
    view::get::<Loadout>(world, who).and_then(|l| l.weapons.get(index))
}

pub fn zone(world: &World, who: Cid) -> Option<usize> {
    let c = view::cell(world, who)?;
    view::resource::<Map>(world).zone_of(c)
}

/// Can `who` reach `target` with a melee attack? Nearby, or "Massive
/// characters can make melee attacks up to range 1" (one zone away).
pub fn melee_reach(world: &World, who: Cid, target: Cid) -> bool {
    melee_reach_from(world, who, zone(world, who), target)
}

/// [`melee_reach`] with `who`'s zone already found (`at`): the AI weighs
/// every weapon against every enemy.
pub fn melee_reach_from(world: &World, who: Cid, at: Option<usize>, target: Cid) -> bool {
    if at.is_some() && at == zone(world, target) {
        return true;
    }
    view::size(world, who) == Size::Massive
        && zone_distance(world, who, target).is_some_and(|d| d <= 1)
}

/// Same zone: "nearby".
pub fn nearby(world: &World, a: Cid, b: Cid) -> bool {
    let za = zone(world, a);
    za.is_some() && za == zone(world, b)
}

/// Zone steps between two characters.
pub fn zone_distance(world: &World, a: Cid, b: Cid) -> Option<u32> {
    let (za, zb) = (zone(world, a)?, zone(world, b)?);
    view::resource::<Map>(world).zone_distance(za, zb)
}

/// Can `a` see `b`? Not in complete darkness (a level's `visibility:
/// Dark`: "when fighting in complete darkness"), nor through walls.
pub fn visible(world: &World, a: Cid, b: Cid) -> bool {
    if view::resource::<crate::rules::battle::BattleRules>(world).dark {
        return false;
    }
    match (view::cell(world, a), view::cell(world, b)) {
        (Some(x), Some(y)) => view::resource::<Map>(world).line_of_sight(x, y),
        _ => false,
    }
}

pub fn size_rank(world: &World, who: Cid) -> i32 {
    match view::size(world, who) {
        Size::Tiny => 0,
        Size::Small => 1,
        Size::Medium => 2,
        Size::Large => 3,
        Size::Massive => 4,
    }
}

/// Range of a ranged weapon against `target`: "the maximum range is halved
/// for each size of difference if the target is smaller, or doubled for each
/// size of difference if the target is larger" (not for blasts).
pub fn range_against(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> u32 {
    if w.zones().blast {
        return w.zones().range_zones;
    }
    let diff = size_rank(world, target) - size_rank(world, attacker);
    if diff >= 0 {
        w.zones().range_zones << diff
    } else {
        w.zones().range_zones >> (-diff)
    }
}

/// Why the attack needs a WIT save to hit, if it does (§Attacking:
/// "For melee attacks: when the target isn't visible ... For ranged
/// attacks: when the target is beyond half range, or the attack is made
/// while moving").
pub fn wit_save_reason(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    reaction: bool,
) -> Option<&'static str> {
    if !w.is_ranged() {
        return (!visible(world, attacker, target)).then_some("to hit a target it cannot see");
    }
    let dist = zone_distance(world, attacker, target).unwrap_or(u32::MAX);
    if dist.saturating_mul(2) > range_against(world, attacker, target, w) {
        return Some("to hit beyond half range");
    }
    let moved = !reaction && super::turns::moved_this_turn(world, attacker);
    moved.then_some("to hit while moving")
}

/// The target's armour against this attack: worn armour and shield, plus
/// cover against a ranged attack that cannot penetrate it, never above 3.
pub fn armor(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> (i32, Vec<Modifier>) {
    let mut parts = Vec::new();
    let total = armor_with(world, attacker, target, w, |m| parts.push(m));
    (total, parts)
}

/// [`armour`]'s total alone, its parts not written down: the odds of every
/// blow the AI weighs read it.
pub fn armor_total(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> i32 {
    armor_with(world, attacker, target, w, |_| {})
}

/// The armour's arithmetic, each part handed to `part`; the total.
fn armor_with(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mut part: impl FnMut(Modifier),
) -> i32 {
    let worn = stats(world, target).map_or(0, |s| (s.armor - lost_of(s)).max(0));
    if worn > 0 {
        part(Modifier::new("armour", -worn, RULE_ATTACK));
    }
    let mut total = worn;
    if w.is_ranged() && in_cover(world, attacker, target) {
        if w.zones().penetrating {
            part(Modifier::new("cover (penetrated)", 0, RULE_COVER));
        } else {
            part(Modifier::new("cover", -1, RULE_COVER));
            total += 1;
        }
    }
    if total > 3 {
        part(Modifier::new("armour never above 3", total - 3, RULE_COVER));
        total = 3;
    }
    total
}

/// Fray decides: a target is in cover when it stands in low or high cover,
/// or when a cover cell next to it lies on the line of fire.
pub fn in_cover(world: &World, attacker: Cid, target: Cid) -> bool {
    let (Some(from), Some(at)) = (view::cell(world, attacker), view::cell(world, target)) else {
        return false;
    };
    let map = view::resource::<Map>(world);
    let cover = |c: Cell| matches!(map.terrain(c), Terrain::LowCover | Terrain::HighCover);
    cover(at) || map.line_end(from, at).any(cover)
}

/// "Attacks made by riders and passengers are impaired" (§Mounts and
/// vehicles in combat).
pub fn mounted(world: &World, attacker: Cid) -> bool {
    view::riding(world, attacker).is_some()
}

/// Sizes the attacker is larger (positive) or smaller (negative) than the
/// target; "Damage from blast attacks isn't modified."
pub(super) fn size_difference(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> i32 {
    if w.zones().blast {
        0
    } else {
        size_rank(world, attacker) - size_rank(world, target)
    }
}

/// "Smaller characters halve damage for each size of difference", rounded
/// up: "a roll of 3 would only inflict 2 damage".
pub(super) fn halved(value: i32, sizes: i32) -> i32 {
    (value + (1 << sizes) - 1) >> sizes
}

/// The health at or under which one hit is critical: at least
/// `critical_percent` of the maximum, rounded up.
pub fn critical_threshold(world: &World, who: Cid) -> i32 {
    critical_threshold_of(
        world,
        view::get::<Health>(world, who).map_or(1, |h| h.hp_max),
    )
}

/// [`critical_threshold`] of a character whose maximum health is `max`
/// (for a caller that has read its health already).
pub fn critical_threshold_of(world: &World, max: i32) -> i32 {
    let pct = view::resource::<ZonesSettings>(world).critical_percent as i32;
    ((max * pct + 99) / 100).max(1)
}

/// Can `who` react to an attack by `attacker` now? "Targets who are unaware
/// of their attacker can't react"; a reaction takes the whole turn, so only
/// those who have not yet taken their turn this round may; a grabbed
/// character "can't act" ("The bandit can't react since he is grabbed"); a
/// distracted one does not see it coming (Fray decides, §Main actions).
pub fn can_react(world: &World, who: Cid, attacker: Cid) -> bool {
    // Vehicles never react; riders carried at full speed cannot.
    !super::turns::is_vehicle(world, who)
        && !super::turns::carried_fast(world, who)
        && view::standing(world, who)
        && view::get::<TurnState>(world, who).is_some_and(|t| !t.done)
        && !view::conditions(world, attacker).has(Condition::Concealed)
        && !view::conditions(world, who).has(Condition::Grabbed)
        && !view::get::<super::state::Swayed>(world, who).is_some_and(|s| s.distracted)
}

/// What a stunt mode offers.
pub fn stunt_effect(mode: usize) -> &'static str {
    match mode {
        MODE_STUNT_SURRENDER => "surrender instead of taking the blow",
        _ => "drop the weapon in hand and stay down for the rest of the fight",
    }
}

/// Nearby allies of the target who may guard it: "A character who is
/// nearby the target of an attack can react by guarding them."
pub fn guards(world: &World, state: &AttackState) -> Vec<Cid> {
    if state.hidden {
        return Vec::new();
    }
    if state.surprise {
        return Vec::new();
    }
    view::allies(world, state.target)
        .into_iter()
        .filter(|a| *a != state.attacker && nearby(world, *a, state.target))
        .filter(|a| can_react(world, *a, state.attacker))
        .collect()
}

/// A declined stunt is resolved "as normal".
pub(super) fn damage_mode(mode: usize) -> usize {
    if is_stunt(mode) { MODE_STRIKE } else { mode }
}

/// "Blast attacks hit a zone and target all characters in it and on its
/// borders." Fray decides: on its borders means standing in a cell of
/// another zone that touches one of its cells. A melee blast spares the
/// attacker.
pub fn blast_targets(world: &World, attacker: Cid, z: usize, ranged: bool) -> Vec<Cid> {
    let map = view::resource::<Map>(world);
    let cells = &map.zones()[z].cells;
    view::all(world)
        .into_iter()
        .filter(|c| {
            let conds = view::conditions(world, *c);
            !conds.has(Condition::Dead) && !conds.has(Condition::Fled)
        })
        .filter(|c| ranged || *c != attacker)
        .filter(|c| {
            view::cell(world, *c).is_some_and(|at| {
                map.zone_of(at) == Some(z) || cells.iter().any(|k| Map::chebyshev(*k, at) == 1)
            })
        })
        .collect()
}

/// Has `who`'s `item` broken in this fight?
pub fn broken(world: &World, who: Cid, item: &str) -> bool {
    stats(world, who).is_some_and(|s| s.broken.iter().any(|b| b == item))
}

/// Armour value lost to broken pieces.
pub fn armor_lost(world: &World, who: Cid) -> i32 {
    stats(world, who).map_or(0, lost_of)
}

/// [`armor_lost`], from the stat block already read.
fn lost_of(s: &ZonesStats) -> i32 {
    // Nothing broken, nothing lost: the pieces are not walked (every blow's
    // odds ask this, and most fights break nothing).
    if s.broken.is_empty() {
        return 0;
    }
    s.pieces
        .iter()
        .filter(|p| p.damaged && s.broken.contains(&p.name))
        .map(|p| p.value)
        .sum()
}

/// [`standing_per_faction`]'s count for the faction `f` alone, without
/// building the list (the checks ask it for every enemy they weigh).
pub fn standing_in_faction(world: &World, f: usize) -> usize {
    u8::try_from(f).map_or(0, |f| view::fighters_in(world, f))
}

/// Standing members of each faction (mounts and vehicles not counted).
pub fn standing_per_faction(world: &World) -> Vec<usize> {
    view::fighters_per_faction(world, view::resource::<Factions>(world).0.len())
}
