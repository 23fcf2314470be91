//! UD10 damage (§Determining The Damage, §Armor Rating, §Optional Rule:
//! Buffer, §Constitution, §Summary: Taking Damage, §Optional Rule: Armor
//! Penetration, §Optional Rule: Body Zones) and what low HP and EP mean
//! (the text is silent; Fray's decision is in docs/rulesets/ud10.md).

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Health, Loadout};
use crate::rules::dice::{DiceExpr, RollOptions};
use crate::rules::event::{BattleEvent, ConditionAdded, DamageRolled, Damaged};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::ud10::event::{HitLocation, Ud10Event};
use crate::rulesets::ud10::weapon::Ud10Gear;

use super::armor::{Armor, Protection};
use super::harm::{RULE_DAMAGE, RULE_DOWN, RULE_SUMMARY, RULE_ZONES, body_zone, pipeline};
use super::numbers::{Pending, RULE_IMMOBILIZED};
use super::query::stats;
use super::settings::{EpZero, Ud10Settings};

/// Apply a hit with the attacker's weapon `p` names: location, damage
/// roll, the pipeline, and what the losses do.
pub fn hit(world: &mut Scene, p: &Pending) {
    let Some(blow) = blow(world, p) else {
        return;
    };
    if blow.entangles {
        entangle(world, p.target);
        return;
    }
    let s = *view::resource::<Ud10Settings>(world);
    let protection = protection(world, p.target, &s);
    let rolled = roll_damage(world, p.target, &blow.damage);
    take_damage(world, p, rolled, protection, blow.penetration, &s);
}

/// What the blow needs of the weapon, read where it lies (its dice the only
/// part copied).
struct Blow {
    /// A net: it holds rather than harms.
    entangles: bool,
    /// Its armor penetration score.
    penetration: i32,
    /// Its damage dice in the attack's mode.
    damage: DiceExpr,
}

/// The blow of the weapon `p` names; none if the attacker or the weapon is
/// gone.
fn blow(world: &Scene, p: &Pending) -> Option<Blow> {
    view::get::<Loadout>(world, p.attacker)
        .and_then(|l| l.weapons.get(p.weapon))
        .map(|w| {
            let g = w.ud10();
            Blow {
                entangles: g.entangles,
                penetration: g.penetration,
                damage: w.mode_damage(p.mode).clone(),
            }
        })
}

/// A net: no damage; the target is held where it stands.
fn entangle(world: &mut Scene, target: Cid) {
    if !view::conditions(world, target).has(Condition::Immobilized) {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who: target,
                condition: Condition::Immobilized,
                rule: RULE_IMMOBILIZED,
            }),
        );
    }
}

/// §Armor Rating: the protection the target wears where the blow lands,
/// the zone rolled on a d10 under §Optional Rule: Body Zones, its armour
/// averaged over the body otherwise. The armour is read where it is, not
/// copied (its pieces are named): the hit location's event changes none
/// of it.
fn protection(world: &mut Scene, target: Cid, s: &Ud10Settings) -> Protection {
    let worn = |world: &World, zone| {
        let armor = view::get::<Armor>(world, target);
        match (armor, zone) {
            (Some(a), Some(z)) => a.zone(z),
            (Some(a), None) => a.averaged(),
            (None, Some(z)) => Armor::default().zone(z),
            (None, None) => Armor::default().averaged(),
        }
    };
    if !s.body_zones {
        return worn(world, None);
    }
    let die = world.dice().roll_die(10);
    let zone = body_zone(die);
    emit(
        world,
        Ud10Event::HitLocation(HitLocation {
            target,
            die,
            zone,
            rule: RULE_ZONES,
        }),
    );
    worn(world, Some(zone))
}

/// §Determining The Damage: the weapon's dice, a ten rolled again and
/// added; what was rolled (never below nothing).
fn roll_damage(world: &mut Scene, target: Cid, expr: &DiceExpr) -> i32 {
    let roll = {
        let mut dice = world.dice();
        expr.roll(
            &mut dice,
            &RollOptions {
                db: None,
                // "Whenever a ten comes up on a damage roll, the die may be
                // rolled again and the result is added up."
                explode_sides: Some(10),
            },
        )
    };
    let rolled = roll.total.max(0);
    emit(
        world,
        BattleEvent::DamageRolled(DamageRolled {
            target,
            roll,
            rule: RULE_DAMAGE,
        }),
    );
    rolled
}

/// §Summary: Taking Damage: what is rolled goes through armour, buffer and
/// Constitution to the EP and HP lost, and the losses' consequences follow.
fn take_damage(
    world: &mut Scene,
    p: &Pending,
    rolled: i32,
    protection: Protection,
    penetration: i32,
    s: &Ud10Settings,
) {
    let target = p.target;
    let con = stats(world, target).map_or(0, |s| s.con);
    let out = pipeline(rolled, protection, penetration, con, s);
    let health = view::get::<Health>(world, target)
        .copied()
        .unwrap_or(Health {
            hp: 0,
            hp_max: 0,
            ep: 0,
            ep_max: 0,
        });
    let hp_after = health.hp - out.hp_loss;
    let ep_after = (health.ep - out.ep_loss).max(0);
    emit(
        world,
        BattleEvent::Damaged(Damaged {
            target,
            by: Some(p.attacker),
            rolled,
            steps: out.steps,
            ep_loss: out.ep_loss,
            hp_loss: out.hp_loss,
            hp_after,
            ep_after,
            rule: RULE_SUMMARY,
        }),
    );
    consequences(world, target, hp_after, ep_after, health.ep_max, s);
}

/// What the losses do (Fray decides: docs/rulesets/ud10.md, "Unconscious
/// and dead"): dead at the settings' HP, else knocked out at theirs or at
/// no EP left (where the settings say so).
fn consequences(world: &mut Scene, who: Cid, hp: i32, ep: i32, ep_max: i32, s: &Ud10Settings) {
    let conds = view::conditions(world, who);
    if conds.has(Condition::Dead) {
        return;
    }
    if hp <= s.dead_at_hp {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who,
                condition: Condition::Dead,
                rule: RULE_DOWN,
            }),
        );
        return;
    }
    let knocked_out =
        hp <= s.unconscious_at_hp || (ep_max > 0 && ep <= 0 && s.ep_zero == EpZero::Unconscious);
    if knocked_out && !conds.has(Condition::Unconscious) {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who,
                condition: Condition::Unconscious,
                rule: RULE_DOWN,
            }),
        );
    }
}
