//! §Blast attacks: a blast hits a zone and its borders; a ranged blast may
//! stray on a failed WIT save; one damage roll for every target, and one
//! target at most may counter.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Weapon};
use crate::rules::dice::DiceRoll;
use crate::rules::event::{BattleEvent, DamageRolled, ReactionDeclined};
use crate::rules::map::Map;
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::event::{AttackMade, AttackMissed, BlastHits, Reaction, ZonesEvent};

use super::blow::{Blow, blow, dodge, land, made, roll_damage, roll_times, wit_to_hit};
use super::modes::MODE_STRIKE;
use super::opportunity::finish;
use super::query::{
    armor, blast_targets, can_react, damage_mode, stats, weapon, wit_save_reason, zone,
};
use super::save::save;
use super::state::{BlastState, Pending, RULE_BLAST, RULE_COUNTER, RULE_DODGE, RULE_SIZE, Waiting};
use super::waiting::{offer, taken};

/// A blast attack (§Blast attacks): "Melee blast attacks hit the
/// attacker's zone and don't target the attacker themselves. They can't
/// miss. Ranged blast attacks hit any zone within range and target the
/// attacker as well if directed at their own zone. If they miss, they are
/// deviated and hit a random neighbouring zone." Fray aims a ranged blast
/// at the zone the target stands in.
pub(super) fn declare_blast(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    weapon: usize,
    mode: usize,
) {
    let Some(w) = self::weapon(world, attacker, weapon) else {
        return;
    };
    made(world, attacker, target, weapon, &w, mode, RULE_BLAST);
    let aimed = if w.is_ranged() {
        zone(world, target)
    } else {
        zone(world, attacker)
    };
    let Some(mut hit_zone) = aimed else {
        return;
    };
    let mut deviated = None;
    if w.is_ranged()
        && let Some(why) = wit_save_reason(world, attacker, target, &w, false)
    {
        let wit = stats(world, attacker).map_or(0, |s| s.wit);
        if !save(world, attacker, "WIT", wit, why, RULE_BLAST) {
            // "Assign a number to each neighbouring zone and roll a die to
            // determine which one is hit."
            let around: Vec<u16> = view::resource::<Map>(world)
                .zone_neighbours(hit_zone)
                .to_vec();
            if around.is_empty() {
                emit(
                    world,
                    ZonesEvent::AttackMissed(AttackMissed {
                        attacker,
                        target,
                        rule: RULE_BLAST,
                    }),
                );
                return;
            }
            let r = world.dice().roll_die(around.len() as u32);
            hit_zone = usize::from(around[(r as usize - 1).min(around.len() - 1)]);
            deviated = Some(DiceRoll::one_die(around.len() as u32, r));
        }
    }
    let targets = blast_targets(world, attacker, hit_zone, w.is_ranged());
    let zone_name = view::resource::<Map>(world).zones()[hit_zone].name.clone();
    emit(
        world,
        ZonesEvent::BlastHits(BlastHits {
            attacker,
            zone: zone_name,
            deviated,
            targets: targets.clone(),
            rule: RULE_BLAST,
        }),
    );
    let asking = targets
        .iter()
        .copied()
        .filter(|t| *t != attacker && can_react(world, *t, attacker))
        .collect();
    let b = BlastState {
        attacker,
        weapon,
        mode,
        targets,
        asking,
        dodged: Vec::new(),
        counter: None,
        shares: Vec::new(),
    };
    ask_blast(world, b);
}

/// Ask the next target of a blast for its reaction, or roll the damage.
pub(super) fn ask_blast(world: &mut Scene, b: BlastState) {
    match b.asking.first() {
        Some(&t) => {
            let attacker = b.attacker;
            offer(world, t, attacker, Waiting::Blast(b));
        }
        None => {
            blast_damage(world, &b);
            finish(world);
        }
    }
}

pub(super) fn blast_answer(world: &mut Scene, who: Cid, command: &Command, forgoes: String) {
    let Some(mut b) = view::resource::<Pending>(world).blast.clone() else {
        return;
    };
    b.asking.retain(|t| *t != who);
    match (command, command.own::<ZonesCommand>()) {
        (Command::Dodge, _) => {
            taken(world, who, Reaction::Dodge, b.attacker, RULE_DODGE);
            if !dodge(world, who, b.attacker) {
                // Still in the blast.
            } else {
                b.dodged.push(who);
            }
        }
        (_, Some(ZonesCommand::Counter { weapon })) if b.counter.is_none() => {
            taken(world, who, Reaction::Counter, b.attacker, RULE_COUNTER);
            b.counter = Some((who, *weapon));
        }
        _ => emit(
            world,
            BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
        ),
    }
    ask_blast(world, b);
}

/// One damage roll for the whole blast ("it always inflicts d6 damage"),
/// each target's armour taken off. A counter is weighed against the blast's
/// damage on the one who counters.
pub(super) fn blast_damage(world: &mut Scene, b: &BlastState) {
    let Some(w) = weapon(world, b.attacker, b.weapon) else {
        return;
    };
    let hit: Vec<Cid> = b
        .targets
        .iter()
        .copied()
        .filter(|t| !b.dodged.contains(t))
        .collect();
    let Some(&first) = hit.first() else {
        return;
    };
    let blows: Vec<Blow> = if b.shares.is_empty() {
        blast_blows(world, b, &w, first, &hit)
    } else {
        hit.iter()
            .map(|&t| {
                let dice = b.shares.iter().find(|s| s.0 == t).map_or(1, |s| s.1);
                share_blow(world, b.attacker, t, &w, dice)
            })
            .collect()
    };
    resolve_multi(world, b, blows);
}

/// One share of a split attack: `dice` times the weapon's dice, no size
/// step (the share already counts the sizes), armour off.
pub(super) fn share_blow(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    dice: u32,
) -> Blow {
    let roll = roll_times(world, &w.damage, dice);
    emit(
        world,
        BattleEvent::DamageRolled(DamageRolled {
            target,
            roll: roll.clone(),
            rule: RULE_SIZE,
        }),
    );
    super::gear::break_worn_weapon(world, attacker, w, &roll);
    let (arm, steps) = armor(world, attacker, target, w);
    Blow {
        target,
        by: Some(attacker),
        rolled: roll.total,
        suffered: (roll.total - arm).max(0),
        before_armor: Some(roll.total),
        roll,
        steps,
    }
}

/// A blast: one damage roll for everyone it hits.
pub(super) fn blast_blows(
    world: &mut Scene,
    b: &BlastState,
    w: &Weapon,
    first: Cid,
    hit: &[Cid],
) -> Vec<Blow> {
    let (roll, value, steps) = roll_damage(world, b.attacker, first, w, damage_mode(b.mode));
    emit(
        world,
        BattleEvent::DamageRolled(DamageRolled {
            target: first,
            roll: roll.clone(),
            rule: RULE_BLAST,
        }),
    );
    super::gear::break_worn_weapon(world, b.attacker, w, &roll);
    hit.iter()
        .map(|&t| {
            let (arm, parts) = armor(world, b.attacker, t, w);
            let mut st = steps.clone();
            st.extend(parts);
            Blow {
                target: t,
                by: Some(b.attacker),
                roll: roll.clone(),
                rolled: roll.total,
                steps: st,
                suffered: (value - arm).max(0),
                before_armor: Some(value),
            }
        })
        .collect()
}

/// Land a blast's or a split attack's blows, weighing the one counter.
pub(super) fn resolve_multi(world: &mut Scene, b: &BlastState, blows: Vec<Blow>) {
    let mut counter_blow = None;
    if let Some((c, i)) = b.counter
        && let Some(wc) = weapon(world, c, i)
    {
        emit(
            world,
            ZonesEvent::AttackMade(AttackMade {
                attacker: c,
                target: b.attacker,
                weapon: String::from(&*wc.name),
                weapon_index: i,
                mode: "counter".into(),
                reaction: true,
                rule: RULE_COUNTER,
            }),
        );
        if wit_to_hit(world, c, b.attacker, &wc, true, RULE_COUNTER) {
            counter_blow = Some((c, blow(world, c, b.attacker, &wc, MODE_STRIKE)));
        }
    }
    if let Some((c, cb)) = &counter_blow {
        let on_counterer = blows
            .iter()
            .find(|x| x.target == *c)
            .map_or(0, |x| x.suffered);
        if cb.suffered > on_counterer {
            // The attacker is hit first; taken out, its blast is stopped.
            land(world, cb);
            if !view::standing(world, b.attacker) {
                return;
            }
            for x in &blows {
                land(world, x);
            }
            return;
        }
        let tie = cb.suffered == on_counterer;
        for x in &blows {
            land(world, x);
        }
        if tie || view::standing(world, *c) {
            land(world, cb);
        }
        return;
    }
    for x in &blows {
        land(world, x);
    }
}
