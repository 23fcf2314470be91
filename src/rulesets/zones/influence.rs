//! §Taking a turn, main actions the text names without mechanics:
//! "distracting, intimidating, taunting, using a consumable item (a medicine
//! box, an antidote, etc.)", and "invoking a profane power". What Fray decides (docs/rulesets/zones.md, "Main
//! actions"): who may be the target of words or an item, and the odds the
//! preview and the AI read. Reads only.

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition, Health};
use crate::rules::view;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::stats::PowerEffect;

use super::query::{save_chance, standing_in_faction, stats, visible, zone_distance};
use super::state::{Swayed, ZonesRound};
use super::turns::is_vehicle;

/// Words carry to a visible enemy nearby or in a neighbouring zone.
pub const WORDS_REACH: u32 = 1;

/// May `who` speak `kind` at `target` now (the main action apart)?
pub fn check_influence(
    world: &World,
    who: Cid,
    target: Cid,
    kind: Influence,
) -> Result<(), Illegal> {
    if !view::is_enemy(world, who, target) {
        return illegal("words are for an enemy still in the fight");
    }
    if view::conditions(world, target).has(Condition::Concealed) {
        return illegal("you don't know where it is");
    }
    if is_vehicle(world, target) {
        return illegal("a vehicle hears nothing");
    }
    if !visible(world, who, target) {
        return illegal("out of sight");
    }
    if zone_distance(world, who, target).is_none_or(|d| d > WORDS_REACH) {
        return illegal("too far for words: nearby or the next zone");
    }
    let swayed = view::get::<Swayed>(world, target)
        .cloned()
        .unwrap_or_default();
    match kind {
        Influence::Intimidate => subject_to_intimidation(world, target),
        Influence::Distract if swayed.distracted => illegal("already distracted"),
        Influence::Taunt if swayed.taunted_by == Some(who) => illegal("already taunted by you"),
        Influence::Distract | Influence::Taunt => Ok(()),
    }
}

/// §Morale: "Characters who are immune to fear are also immune to morale";
/// those who passed a morale check "aren't subject to morale for the
/// remainder of the stretch". Fray decides that intimidation works on one
/// who would be subject to morale: wounded to half its health or less, or
/// of a side reduced to half its numbers or less; not a mount (mounts
/// follow their riders).
pub fn subject_to_intimidation(world: &World, target: Cid) -> Result<(), Illegal> {
    subject_to_intimidation_with(world, target, |f| side_down_to_half(world, f))
}

/// Is faction `f` reduced to half its numbers or less (of more than one at
/// the start)? One of the ways §Morale makes a character subject to morale,
/// as [`subject_to_intimidation`] reads it.
pub fn side_down_to_half(world: &World, f: usize) -> bool {
    let original = view::resource::<ZonesRound>(world)
        .original
        .get(f)
        .copied()
        .unwrap_or(0);
    original > 1 && 2 * standing_in_faction(world, f) <= original
}

/// [`subject_to_intimidation`], `down_to_half` answering
/// [`side_down_to_half`] (the AI asks it of every enemy, most of one side).
pub fn subject_to_intimidation_with(
    world: &World,
    target: Cid,
    mut down_to_half: impl FnMut(usize) -> bool,
) -> Result<(), Illegal> {
    let c = view::conditions(world, target);
    if stats(world, target).is_some_and(|s| s.fearless) {
        return illegal("fearless: immune to fear");
    }
    if c.has(Condition::Steadfast) {
        return illegal("steadfast: no longer subject to morale");
    }
    if c.has(Condition::Broken) {
        return illegal("already broken");
    }
    if view::steed(world, target).is_some() {
        return illegal("a mount follows its riders");
    }
    let wounded = view::get::<Health>(world, target).is_some_and(|h| 2 * h.hp <= h.hp_max);
    // The side's numbers only matter for one not wounded (its side counted
    // only then: the AI asks this of every enemy at every decision).
    let mut outnumbered = || down_to_half(view::faction(world, target).unwrap_or(0) as usize);
    if !(wounded || outnumbered()) {
        return illegal(
            "not shaken: only one at half health or less, or of a side down to half its numbers",
        );
    }
    Ok(())
}

/// The chance words sway `target`: its WIT save fails.
pub fn p_swayed(world: &World, target: Cid) -> f64 {
    1.0 - save_chance(world, stats(world, target).map_or(0, |s| s.wit))
}

/// Taunted by a taunter still in the fight and in view: may `who` attack
/// `target`? (Fray decides: "attack the taunter or nobody", on its own turn,
/// until the end of its next turn.)
pub fn check_taunt(world: &World, who: Cid, target: Cid) -> Result<(), Illegal> {
    let Some(by) = view::get::<Swayed>(world, who).and_then(|s| s.taunted_by) else {
        return Ok(());
    };
    if by == target
        || !view::standing(world, by)
        || view::conditions(world, by).has(Condition::Concealed)
    {
        return Ok(());
    }
    illegal(format!(
        "taunted by {}: attack them or nobody this turn",
        view::name(world, by)
    ))
}

/// May `who` use its `item`-th item on `on` (the main action apart)? On
/// itself or a nearby ally, not the dead, not one at full health.
pub fn check_item(world: &World, who: Cid, item: usize, on: Cid) -> Result<(), Illegal> {
    let Some(carried) = stats(world, who).and_then(|s| s.items.get(item)) else {
        return illegal("no such item");
    };
    if carried.uses == 0 {
        return illegal(format!("the {} is used up", carried.name));
    }
    check_mending(world, who, on)
}

/// May `who` invoke its `power`-th profane power at `target` (the main
/// action apart)? A hostile power reaches a visible enemy within its range
/// in zones, not a concealed one nor a vehicle; a mending one the invoker
/// or an ally nearby, as an item does.
pub fn check_invoke(world: &World, who: Cid, power: usize, target: Cid) -> Result<(), Illegal> {
    let Some(p) = stats(world, who).and_then(|s| s.powers.get(power)) else {
        return illegal("no such power");
    };
    if p.uses == 0 {
        return illegal(format!("{} is spent for this fight", p.name));
    }
    if !p.effect.hostile() {
        return check_mending(world, who, target);
    }
    if !view::is_enemy(world, who, target) {
        return illegal("a curse is for an enemy still in the fight");
    }
    if view::conditions(world, target).has(Condition::Concealed) {
        return illegal("you don't know where it is");
    }
    if is_vehicle(world, target) {
        return illegal("a vehicle has no soul to curse");
    }
    if !visible(world, who, target) {
        return illegal("out of sight");
    }
    if zone_distance(world, who, target).is_none_or(|d| d > p.range) {
        return illegal(format!("beyond the power's reach ({} zones)", p.range));
    }
    let c = view::conditions(world, target);
    match p.effect {
        PowerEffect::Terrify if stats(world, target).is_some_and(|s| s.fearless) => {
            illegal("fearless: immune to fear")
        }
        PowerEffect::Terrify if c.has(Condition::Steadfast) || c.has(Condition::Broken) => {
            illegal("beyond fear now: steadfast or already broken")
        }
        PowerEffect::Terrify if view::steed(world, target).is_some() => {
            illegal("a mount follows its riders")
        }
        PowerEffect::Daze if view::get::<Swayed>(world, target).is_some_and(|s| s.distracted) => {
            illegal("already dazed or distracted")
        }
        _ => Ok(()),
    }
}

/// Healing (an item, a mending power): on oneself or a nearby ally, not
/// the dead, not one at full health.
fn check_mending(world: &World, who: Cid, on: Cid) -> Result<(), Illegal> {
    if on != who && view::faction(world, on) != view::faction(world, who) {
        return illegal("only on yourself or an ally");
    }
    let c = view::conditions(world, on);
    if c.has(Condition::Dead) || c.has(Condition::Fled) {
        return illegal("beyond any help");
    }
    if on != who && !super::query::nearby(world, who, on) {
        return illegal("only on someone nearby (the same zone)");
    }
    if view::get::<Health>(world, on).is_some_and(|h| h.hp >= h.hp_max)
        && !c.has(Condition::Incapacitated)
    {
        return illegal("not hurt");
    }
    Ok(())
}
