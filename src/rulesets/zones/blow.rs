//! §Attacking, the steps every attack shares: the attack made, the WIT
//! save to hit, the damage rolled (dice doubled or halved by size), armour
//! taken off, the blow landing (health, critical damage, death or
//! incapacitation, worn gear breaking), a dodge's save, direct damage, a
//! concealed attacker revealed, holds that can no longer be kept let go.
//! Below the attack's flow (`attack.rs`, `blast.rs`, `reaction.rs`,
//! `opportunity.rs`) and the moves that deal damage (`nonlethal.rs`,
//! `mounts.rs`): it imports only `save.rs` and `morale.rs` of the writers.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Health, Weapon};
use crate::rules::dice::{DiceExpr, DiceRoll, RollOptions, Rolled};
use crate::rules::event::{
    BattleEvent, ConditionAdded, ConditionRemoved, DamageRolled, Damaged, Modifier, Released,
};
use crate::rules::map::Map;
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::event::{AttackMade, AttackMissed, ZonesEvent};

use super::maneuvers::{RULE_HOLD, holder};
use super::numbers::{BlowDice, blow_dice};
use super::query::{
    armor, critical_threshold, halved, mounted, nearby, stats, visible, wit_save_reason,
};
use super::save::save;
use super::settings::{ZeroHealth, ZonesSettings};
use super::state::{RULE_ATTACK, RULE_DODGE, RULE_HEALTH, RULE_SIZE, RULE_SNEAK};

/// Roll the damage of an attack: the weapon's die (a d4 when held back),
/// with the dice doubled for each size the attacker is larger, or the
/// result halved (rounded up) for each size it is smaller.
pub fn roll_damage(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
) -> (DiceRoll, i32, Vec<Modifier>) {
    let saddle = mounted(world, attacker);
    let BlowDice {
        expr,
        times,
        size_diff: diff,
    } = blow_dice(world, attacker, target, w, mode, saddle);
    let roll = roll_times(world, &expr, times);
    let mut steps = Vec::new();
    let mut value = roll.total;
    if diff > 0 {
        steps.push(Modifier::new("larger: dice doubled per size", 0, RULE_SIZE));
    } else if diff < 0 {
        let halved = halved(value, -diff);
        steps.push(Modifier::new(
            "smaller: halved per size",
            halved - value,
            RULE_SIZE,
        ));
        value = halved;
    }
    (roll, value, steps)
}

/// `expr` rolled `times` times and added up ("2 x 1D8").
pub(super) fn roll_times(world: &mut Scene, expr: &DiceExpr, times: u32) -> DiceRoll {
    let mut roll = DiceRoll {
        expr: if times > 1 {
            Rolled::Times(times, expr.clone())
        } else {
            Rolled::Expr(expr.clone())
        },
        dice: Default::default(),
        flat: 0,
        total: 0,
    };
    for _ in 0..times {
        let r = expr.roll(&mut world.dice(), &RollOptions::default());
        roll.dice.extend(r.dice);
        roll.flat += r.flat;
        roll.total += r.total;
    }
    roll
}

/// Damage `target` takes from a rolled attack, after armour.
pub struct Blow {
    pub target: Cid,
    /// Who deals it; none for a fall.
    pub by: Option<Cid>,
    pub roll: DiceRoll,
    pub rolled: i32,
    pub steps: Vec<Modifier>,
    pub suffered: i32,
    /// The damage before armour, for worn armour breaking; `None` for
    /// direct damage (no attack).
    pub before_armor: Option<i32>,
}

/// Roll a blow by `attacker` on `target`.
pub fn blow(world: &mut Scene, attacker: Cid, target: Cid, w: &Weapon, mode: usize) -> Blow {
    let (roll, value, mut steps) = roll_damage(world, attacker, target, w, mode);
    emit(
        world,
        BattleEvent::DamageRolled(DamageRolled {
            target,
            roll: roll.clone(),
            rule: RULE_ATTACK,
        }),
    );
    super::gear::break_worn_weapon(world, attacker, w, &roll);
    let (armor, parts) = armor(world, attacker, target, w);
    steps.extend(parts);
    Blow {
        target,
        by: Some(attacker),
        rolled: roll.total,
        roll,
        steps,
        suffered: (value - armor).max(0),
        before_armor: Some(value),
    }
}

/// Apply a blow: health falls; critical damage incapacitates; health 0 or
/// less kills (or incapacitates, by setting).
pub fn land(world: &mut Scene, b: &Blow) {
    let Some(h) = view::get::<Health>(world, b.target).copied() else {
        return;
    };
    let after = h.hp - b.suffered;
    emit(
        world,
        BattleEvent::Damaged(Damaged {
            target: b.target,
            by: b.by,
            rolled: b.rolled,
            steps: b.steps.clone(),
            ep_loss: 0,
            hp_loss: b.suffered,
            hp_after: after,
            ep_after: 0,
            rule: RULE_ATTACK,
        }),
    );
    if b.suffered > 0 {
        super::morale::harmed(world, b.target);
    }
    let conds = view::conditions(world, b.target);
    let zero = view::resource::<ZonesSettings>(world).zero_health;
    if after <= 0 && zero == ZeroHealth::Dead {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who: b.target,
                condition: Condition::Dead,
                rule: RULE_HEALTH,
            }),
        );
    } else if !conds.has(Condition::Incapacitated)
        && (after <= 0 || b.suffered >= critical_threshold(world, b.target))
    {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who: b.target,
                condition: Condition::Incapacitated,
                rule: RULE_HEALTH,
            }),
        );
    }
    if let Some(before) = b.before_armor {
        super::gear::break_worn_armor(world, b.target, before);
    }
    tidy_holds(world);
}

/// "Enemies attacked by a concealed character are taken by surprise and
/// can't react"; "Actions which might reveal a character include:
/// attacking".
pub fn reveal(world: &mut Scene, who: Cid) {
    if view::conditions(world, who).has(Condition::Concealed) {
        emit(
            world,
            BattleEvent::ConditionRemoved(ConditionRemoved {
                who,
                condition: Condition::Concealed,
                rule: RULE_SNEAK,
            }),
        );
    }
}

/// "Concealed characters are revealed when they make noise or become
/// visible to the enemy ... walking right in front of the enemy". Fray
/// decides: a concealed character sharing a zone with a standing enemy who
/// can see it is revealed.
pub fn reveal_seen(world: &mut Scene) {
    for c in view::standing_all(world) {
        if !view::conditions(world, c).has(Condition::Concealed) {
            continue;
        }
        let seen = view::each_enemy(world, c).any(|e| nearby(world, e, c) && visible(world, e, c));
        if seen {
            reveal(world, c);
        }
    }
}

/// The attack is made: the turn's main action (`apply.rs` spends it).
pub(super) fn made(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    index: usize,
    w: &Weapon,
    mode: usize,
    rule: &'static str,
) {
    emit(
        world,
        ZonesEvent::AttackMade(AttackMade {
            attacker,
            target,
            weapon: String::from(&*w.name),
            weapon_index: index,
            mode: w.mode_name(mode).to_string(),
            reaction: false,
            rule,
        }),
    );
}

/// The WIT save to hit, where the text asks for one; a failure is a miss.
/// True when the attack goes on.
pub(super) fn wit_to_hit(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    reaction: bool,
    rule: &'static str,
) -> bool {
    let Some(why) = wit_save_reason(world, attacker, target, w, reaction) else {
        return true;
    };
    let wit = stats(world, attacker).map_or(0, |s| s.wit);
    if save(world, attacker, "WIT", wit, why, rule) {
        return true;
    }
    emit(
        world,
        ZonesEvent::AttackMissed(AttackMissed {
            attacker,
            target,
            rule,
        }),
    );
    false
}

/// "Dodge. Make an AGI save: on a pass the attack misses." True when the
/// attack still lands.
pub(super) fn dodge(world: &mut Scene, who: Cid, attacker: Cid) -> bool {
    let agi = stats(world, who).map_or(0, |s| s.agi);
    if save(world, who, "AGI", agi, "to dodge", RULE_DODGE) {
        emit(
            world,
            ZonesEvent::AttackMissed(AttackMissed {
                attacker,
                target: who,
                rule: RULE_DODGE,
            }),
        );
        false
    } else {
        true
    }
}

/// Damage no armour reduces, dealt `by` someone (none for a fall).
pub(super) fn direct_damage(
    world: &mut Scene,
    target: Cid,
    by: Option<Cid>,
    dice: &DiceExpr,
    rule: &'static str,
) {
    let r = dice.roll(&mut world.dice(), &RollOptions::default());
    emit(
        world,
        BattleEvent::DamageRolled(DamageRolled {
            target,
            roll: r.clone(),
            rule,
        }),
    );
    let b = Blow {
        target,
        by,
        rolled: r.total,
        suffered: r.total,
        roll: r,
        steps: Vec::new(),
        before_armor: None,
    };
    land(world, &b);
}

/// Holds that can no longer be kept end: the grabber is out of the fight,
/// the held character is dead or gone, or the two are no longer side by
/// side (a shove, a swap).
pub fn tidy_holds(world: &mut Scene) {
    // The holds there are, in one look (a release only ends holds, so no
    // other can begin on the way).
    for (who, _) in view::holds(world) {
        let Some(by) = holder(world, who) else {
            continue;
        };
        let apart = match (view::cell(world, who), view::cell(world, by)) {
            (Some(a), Some(b)) => Map::chebyshev(a, b) > 1,
            _ => true,
        };
        let gone = view::conditions(world, who).has(Condition::Dead)
            || view::conditions(world, who).has(Condition::Fled);
        if apart || gone || !view::standing(world, by) {
            release(world, by, who, RULE_HOLD);
        }
    }
}

pub(super) fn release(world: &mut Scene, by: Cid, who: Cid, rule: &'static str) {
    emit(world, BattleEvent::Released(Released { by, who, rule }));
}
