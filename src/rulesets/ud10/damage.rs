//! UD10 damage (§Determining The Damage, §Armor Rating, §Optional Rule:
//! Buffer, §Constitution, §Summary: Taking Damage, §Optional Rule: Armor
//! Penetration, §Optional Rule: Body Zones) and what low HP and EP mean
//! (the text is silent; Fray's decision is in docs/rulesets/ud10.md).

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::components::{Armor, BodyZone, Condition, Health, Protection, Weapon};
use crate::rules::dice::{Dice, RollOptions};
use crate::rules::event::{BattleEvent, Modifier};
use crate::rules::view;

use super::attack::Pending;
use super::check::stats;
use super::settings::{EpZero, Ud10Settings};

pub const RULE_DAMAGE: &str = "ud10 §Determining The Damage";
pub const RULE_ARMOR: &str = "ud10 §Armor Rating";
pub const RULE_BUFFER: &str = "ud10 §Optional Rule: Buffer";
pub const RULE_CON: &str = "ud10 §Constitution";
pub const RULE_PENETRATION: &str = "ud10 §Optional Rule: Armor Penetration";
pub const RULE_ZONES: &str = "ud10 §Optional Rule: Body Zones";
pub const RULE_SUMMARY: &str = "ud10 §Summary: Taking Damage";
pub const RULE_DOWN: &str = "Fray decides: docs/rulesets/ud10.md §Unconscious and dead";

/// The d10 hit location table: "01: head 02: left arm 03: right arm 04-06:
/// trunk 7/8: left leg 9/10: right leg".
pub fn body_zone(die: u32) -> BodyZone {
    match die {
        1 => BodyZone::Head,
        2 => BodyZone::LeftArm,
        3 => BodyZone::RightArm,
        4..=6 => BodyZone::Trunk,
        7 | 8 => BodyZone::LeftLeg,
        _ => BodyZone::RightLeg,
    }
}

/// The result of the damage pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamageOutcome {
    /// Each step, with the nominal value the rule subtracts (or adds back).
    pub steps: Vec<Modifier>,
    pub ep_loss: i32,
    pub hp_loss: i32,
}

/// "roll the weapon damage; subtract the armor rating; optional: subtract
/// the buffer, lessen victim's EP by that amount; subtract the victim's CON
/// attribute; lessen the victim's HP by the remaining value."
pub fn pipeline(
    rolled: i32,
    protection: Protection,
    penetration: i32,
    con: i32,
    s: &Ud10Settings,
) -> DamageOutcome {
    let mut steps = Vec::new();
    let pen = if s.penetration { penetration.max(0) } else { 0 };
    let mut rating = protection.rating;
    if rating > 0 {
        steps.push(Modifier::new("armor rating", -rating, RULE_ARMOR));
        if pen > 0 {
            // "Armor is then made less effective by the penetration score".
            let back = pen.min(rating);
            steps.push(Modifier::new("armor penetration", back, RULE_PENETRATION));
            rating -= back;
        }
    }
    let mut remaining = (rolled - rating).max(0);
    let mut ep_loss = 0;
    if s.buffer && protection.buffer > 0 {
        // "the weapon's penetration score is also subtracted from the
        // buffer's value".
        let buffer = (protection.buffer - pen).max(0);
        if buffer < protection.buffer {
            steps.push(Modifier::new(
                "buffer lessened by penetration",
                buffer - protection.buffer,
                RULE_PENETRATION,
            ));
        }
        ep_loss = remaining.min(buffer);
        if buffer > 0 {
            steps.push(Modifier::new("buffer (to EP)", -buffer, RULE_BUFFER));
        }
        remaining -= ep_loss;
    }
    if con != 0 {
        steps.push(Modifier::new("CON", -con, RULE_CON));
    }
    let hp_loss = (remaining - con).max(0);
    DamageOutcome {
        steps,
        ep_loss,
        hp_loss,
    }
}

/// Apply a hit: location, damage roll, the pipeline, and what the losses do.
pub fn hit(world: &mut World, p: &Pending, weapon: &Weapon) {
    let s = world.resource::<Ud10Settings>().clone();
    let target = p.target;
    let armor = view::get::<Armor>(world, target)
        .cloned()
        .unwrap_or_default();
    let protection = if s.body_zones {
        let die = world.resource_mut::<Dice>().roll_die(10);
        let zone = body_zone(die);
        emit(
            world,
            BattleEvent::HitLocation {
                target,
                die,
                zone,
                rule: RULE_ZONES,
            },
        );
        armor.zone(zone)
    } else {
        armor.averaged()
    };
    let expr = weapon.mode_damage(p.mode).clone();
    let roll = {
        let mut dice = world.resource_mut::<Dice>();
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
        BattleEvent::DamageRolled {
            target,
            roll,
            rule: RULE_DAMAGE,
        },
    );
    let con = stats(world, target).map_or(0, |s| s.con);
    let out = pipeline(rolled, protection, weapon.penetration, con, &s);
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
        BattleEvent::Damaged {
            target,
            rolled,
            steps: out.steps,
            ep_loss: out.ep_loss,
            hp_loss: out.hp_loss,
            hp_after,
            ep_after,
            rule: RULE_SUMMARY,
        },
    );
    consequences(world, target, hp_after, ep_after, health.ep_max, &s);
}

fn consequences(
    world: &mut World,
    who: crate::rules::components::Cid,
    hp: i32,
    ep: i32,
    ep_max: i32,
    s: &Ud10Settings,
) {
    let conds = view::conditions(world, who);
    if conds.has(Condition::Dead) {
        return;
    }
    if hp <= s.dead_at_hp {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who,
                condition: Condition::Dead,
                rule: RULE_DOWN,
            },
        );
        return;
    }
    let knocked_out =
        hp <= s.unconscious_at_hp || (ep_max > 0 && ep <= 0 && s.ep_zero == EpZero::Unconscious);
    if knocked_out && !conds.has(Condition::Unconscious) {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who,
                condition: Condition::Unconscious,
                rule: RULE_DOWN,
            },
        );
    }
}
