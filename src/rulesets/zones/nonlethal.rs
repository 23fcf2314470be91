//! §Non-lethal attacks (disarm, shove, grapple) and their part of §Effects
//! of size in combat: the target saves with STR or suffers the consequence;
//! grabbed characters can only try to break free; what a grabbing character
//! may do without letting go.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::event::{BattleEvent, ConditionAdded, Disarmed, Displaced, Grabbed};
use crate::rules::map::Cell;
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::command::Maneuver;
use crate::rulesets::zones::event::{FreeTried, ZonesEvent};

use super::blow::{direct_damage, release, tidy_holds};
use super::maneuvers::{
    RULE_DISARM, RULE_GRAPPLE, RULE_PIT, RULE_SHOVE, RULE_SIZE_SHOVE, free_hand, holder, holding,
    keeps_hold, may_resist, shove_end, size_difference,
};
use super::modes::impaired;
use super::query::stats;
use super::save::save;
use super::settings::ZonesSettings;

/// Before `actor` does `command`: if that frees whom it holds, let go.
pub fn let_go_unless_kept(world: &mut Scene, actor: Cid, command: &Command) {
    if let Some(held) = holding(world, actor)
        && !keeps_hold(world, actor, held, command)
    {
        release(world, actor, held, RULE_GRAPPLE);
    }
}

/// A grabbing character moved: the held one comes along, to the cell the
/// grabber left ("keep hold while moving together with the grabbed
/// character").
pub fn drag(world: &mut Scene, grabber: Cid, from: Cell, path: &[Cell]) {
    let Some(held) = holding(world, grabber) else {
        return;
    };
    let Some(at) = view::cell(world, held) else {
        return;
    };
    let to = if path.len() >= 2 {
        path[path.len() - 2]
    } else {
        from
    };
    if to != at {
        emit(
            world,
            BattleEvent::Displaced(Displaced {
                who: held,
                by: grabber,
                from: at,
                to,
                rule: RULE_GRAPPLE,
            }),
        );
    }
}

/// A non-lethal attack reaches its target (not dodged): the STR save, then
/// the consequence.
pub fn land_maneuver(world: &mut Scene, attacker: Cid, target: Cid, kind: Maneuver) {
    // Stopped when the attacker went down first (a counter), or pointless
    // on the dead.
    if !view::standing(world, attacker) || view::conditions(world, target).has(Condition::Dead) {
        return;
    }
    let (purpose, rule) = match kind {
        Maneuver::Disarm { .. } => ("to keep hold of the weapon", RULE_DISARM),
        Maneuver::Shove => ("to stand firm", RULE_SHOVE),
        Maneuver::Grapple => ("to avoid being grabbed", RULE_GRAPPLE),
    };
    if may_resist(world, attacker, target) {
        let str_ = stats(world, target).map_or(0, |s| s.str);
        if save(world, target, "STR", str_, purpose, rule) {
            return;
        }
    }
    match kind {
        Maneuver::Disarm { weapon } => disarm(world, attacker, target, weapon),
        Maneuver::Shove => shove(world, attacker, target),
        Maneuver::Grapple => {
            if let Some(other) = holding(world, attacker) {
                release(world, attacker, other, RULE_GRAPPLE);
            }
            // Fray decides: a grabbed rider is pulled down off its mount.
            if let Some(m) = view::riding(world, target)
                && let Some(at) = view::cell(world, m)
            {
                let to = super::riders::landing_near(world, at, view::cell(world, attacker));
                super::mounts::throw_off(world, target, to);
                if !view::standing(world, target) {
                    return;
                }
            }
            emit(
                world,
                BattleEvent::Grabbed(Grabbed {
                    by: attacker,
                    who: target,
                    rule: RULE_GRAPPLE,
                }),
            );
        }
    }
}

/// "The target must pass a STR save or drop a weapon chosen by the
/// attacker. If the attacker has a free hand, they can grab the weapon."
fn disarm(world: &mut Scene, attacker: Cid, target: Cid, weapon: usize) {
    let Some(name) = view::get::<Loadout>(world, target)
        .and_then(|l| l.weapons.get(weapon))
        .map(|w| String::from(&*w.name))
    else {
        return;
    };
    let taken_by = free_hand(world, attacker).then(|| {
        // Before the bare hands, which stay last.
        let n = view::get::<Loadout>(world, attacker).map_or(0, |l| l.weapons.len());
        (attacker, n.saturating_sub(1))
    });
    emit(
        world,
        BattleEvent::Disarmed(Disarmed {
            who: target,
            index: weapon,
            weapon: name,
            taken_by,
            rule: RULE_DISARM,
        }),
    );
}

/// "Force them to move by half a zone, and eventually push them into a
/// hazard"; a larger shover inflicts d4 direct damage and doubles the
/// distance for each size of difference. Fray decides: the push goes
/// straight away from the shover, `shove_cells` cells per half zone, and
/// stops at walls, other characters and the map's edge; a pit on the way
/// is fallen into.
fn shove(world: &mut Scene, attacker: Cid, target: Cid) {
    let diff = size_difference(world, attacker, target).max(0);
    if diff > 0 {
        direct_damage(world, target, Some(attacker), &impaired(), RULE_SIZE_SHOVE);
        if !view::standing(world, target) {
            return;
        }
    }
    let Some(at) = view::cell(world, target) else {
        return;
    };
    let (cur, fell) = shove_end(world, attacker, target);
    // Fray decides: a shoved rider is pushed off its mount, and falls.
    if view::riding(world, target).is_some() && (cur != at || fell.is_some()) {
        super::mounts::throw_off(world, target, at);
        if !view::standing(world, target) {
            return;
        }
    }
    let pit_damage = view::resource::<ZonesSettings>(world).pit_damage.clone();
    match (fell, pit_damage) {
        (Some(pit), None) => {
            displace(world, attacker, target, at, pit, RULE_SHOVE);
            emit(
                world,
                BattleEvent::ConditionAdded(ConditionAdded {
                    who: target,
                    condition: Condition::Dead,
                    rule: RULE_PIT,
                }),
            );
        }
        (Some(_), Some(dice)) => {
            displace(world, attacker, target, at, cur, RULE_SHOVE);
            direct_damage(world, target, Some(attacker), &dice, RULE_PIT);
        }
        (None, _) => displace(world, attacker, target, at, cur, RULE_SHOVE),
    }
    tidy_holds(world);
}

fn displace(world: &mut Scene, by: Cid, who: Cid, from: Cell, to: Cell, rule: &'static str) {
    if from != to {
        emit(
            world,
            BattleEvent::Displaced(Displaced {
                who,
                by,
                from,
                to,
                rule,
            }),
        );
    }
}

pub fn break_free(world: &mut Scene, who: Cid) {
    let Some(by) = holder(world, who) else {
        return;
    };
    let str_ = stats(world, who).map_or(0, |s| s.str);
    if save(world, who, "STR", str_, "to break free", RULE_GRAPPLE) {
        release(world, by, who, RULE_GRAPPLE);
    }
}

pub fn free_ally(world: &mut Scene, actor: Cid, who: Cid) {
    let Some(by) = holder(world, who) else {
        return;
    };
    emit(
        world,
        ZonesEvent::FreeTried(FreeTried {
            by: actor,
            who,
            rule: RULE_GRAPPLE,
        }),
    );
    let str_ = stats(world, actor).map_or(0, |s| s.str);
    if save(world, actor, "STR", str_, "to free an ally", RULE_GRAPPLE) {
        release(world, by, who, RULE_GRAPPLE);
    }
}
