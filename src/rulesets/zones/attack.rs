//! §Attacking: an attack is declared, a WIT save to hit is made where the
//! text asks for one, the target may react, and damage is rolled, reduced by
//! armour and applied; a larger attacker may share its dice among smaller
//! targets; attacking reveals a concealed attacker (§Sneaking in combat).

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Health, Weapon};
use crate::rules::dice::{DiceExpr, DiceRoll, RollOptions, Rolled};
use crate::rules::event::{BattleEvent, Modifier};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::zones::command::Maneuver;
use crate::rulesets::zones::event::ZonesEvent;
use crate::rulesets::zones::weapon::ZonesGear;

use super::blast::{ask_blast, declare_blast};
use super::data::{MODE_DEATH_BLOW, MODE_STRIKE, is_stunt};
use super::nonlethal::{land_maneuver, tidy_holds};
use super::odds::{BlowDice, blow_dice};
use super::opportunity::next_opportunist;
use super::query::{
    armour, can_react, critical_threshold, damage_mode, guards, halved, mounted, nearby, stats,
    stunt_effect, visible, weapon, wit_save_reason,
};
use super::reaction::ask_guard;
use super::round::end_turn;
use super::settings::{ZeroHealth, ZonesSettings};
use super::state::ZonesRound;
use super::state::{
    AttackState, BlastState, Pending, RULE_ATTACK, RULE_HEALTH, RULE_SIZE, RULE_SNEAK, RULE_STUNT,
    Stage, Waiting,
};
use super::waiting::{offer, resume};

/// Roll a d20 save under `target` and log it. Fray decides: equal or under
/// passes; with `natural_extremes`, 1 always passes and 20 always fails.
pub fn save(
    world: &mut Scene,
    who: Cid,
    attribute: &'static str,
    target: i32,
    purpose: &'static str,
    rule: &'static str,
) -> bool {
    let r = world.dice().roll_die(20);
    let extremes = view::resource::<ZonesSettings>(world).natural_extremes;
    let pass = if extremes && r == 1 {
        true
    } else if extremes && r == 20 {
        false
    } else {
        r as i32 <= target
    };
    emit(
        world,
        ZonesEvent::SaveRolled {
            who,
            attribute,
            roll: DiceRoll::one_die(20, r),
            target,
            pass,
            purpose,
            rule,
        },
    );
    pass
}

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

/// A split attack: one attack on several smaller targets; like a blast, it
/// asks each target for its reaction, and only one may counter.
pub fn execute_split(world: &mut Scene, attacker: Cid, index: usize, shares: &[(Cid, u32)]) {
    let Some(w) = weapon(world, attacker, index) else {
        return;
    };
    for &(t, _) in shares {
        emit(
            world,
            ZonesEvent::AttackMade {
                attacker,
                target: t,
                weapon: String::from(&*w.name),
                weapon_index: index,
                mode: "shared dice".into(),
                reaction: false,
                rule: RULE_SIZE,
            },
        );
    }
    reveal(world, attacker);
    // One WIT save if any target is unseen; a miss misses them all.
    if let Some(&(t, _)) = shares
        .iter()
        .find(|(t, _)| wit_save_reason(world, attacker, *t, &w, false).is_some())
        && !wit_to_hit(world, attacker, t, &w, false, RULE_SIZE)
    {
        return;
    }
    let targets: Vec<Cid> = shares.iter().map(|s| s.0).collect();
    let asking = targets
        .iter()
        .copied()
        .filter(|t| can_react(world, *t, attacker))
        .collect();
    let b = BlastState {
        attacker,
        weapon: index,
        mode: MODE_STRIKE,
        targets,
        asking,
        dodged: Vec::new(),
        counter: None,
        shares: shares.to_vec(),
    };
    ask_blast(world, b);
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
    pub before_armour: Option<i32>,
}

/// Roll a blow by `attacker` on `target`.
pub fn blow(world: &mut Scene, attacker: Cid, target: Cid, w: &Weapon, mode: usize) -> Blow {
    let (roll, value, mut steps) = roll_damage(world, attacker, target, w, mode);
    emit(
        world,
        BattleEvent::DamageRolled {
            target,
            roll: roll.clone(),
            rule: RULE_ATTACK,
        },
    );
    super::gear::break_worn_weapon(world, attacker, w, &roll);
    let (armour, parts) = armour(world, attacker, target, w);
    steps.extend(parts);
    Blow {
        target,
        by: Some(attacker),
        rolled: roll.total,
        roll,
        steps,
        suffered: (value - armour).max(0),
        before_armour: Some(value),
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
        BattleEvent::Damaged {
            target: b.target,
            by: b.by,
            rolled: b.rolled,
            steps: b.steps.clone(),
            ep_loss: 0,
            hp_loss: b.suffered,
            hp_after: after,
            ep_after: 0,
            rule: RULE_ATTACK,
        },
    );
    if b.suffered > 0 {
        super::morale::harmed(world, b.target);
    }
    let conds = view::conditions(world, b.target);
    let zero = view::resource::<ZonesSettings>(world).zero_health;
    if after <= 0 && zero == ZeroHealth::Dead {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who: b.target,
                condition: Condition::Dead,
                rule: RULE_HEALTH,
            },
        );
    } else if !conds.has(Condition::Incapacitated)
        && (after <= 0 || b.suffered >= critical_threshold(world, b.target))
    {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who: b.target,
                condition: Condition::Incapacitated,
                rule: RULE_HEALTH,
            },
        );
    }
    if let Some(before) = b.before_armour {
        super::gear::break_worn_armour(world, b.target, before);
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
            BattleEvent::ConditionRemoved {
                who,
                condition: Condition::Concealed,
                rule: RULE_SNEAK,
            },
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

/// An attack on the actor's turn (§Attacking). The state machine goes on in
/// [`resolve_reaction`] when a reaction prompt is answered.
pub fn execute_attack(world: &mut Scene, attacker: Cid, target: Cid, weapon: usize, mode: usize) {
    if super::query::weapon_ref(world, attacker, weapon).is_some_and(|w| w.zones().blast) {
        declare_blast(world, attacker, target, weapon, mode);
    } else {
        declare_attack(world, attacker, target, weapon, mode);
    }
    reveal(world, attacker);
}

/// A non-lethal attack on the actor's turn (§Non-lethal attacks): no save
/// to hit (the target is nearby), then the target may react as to any
/// attack.
pub fn execute_maneuver(world: &mut Scene, attacker: Cid, target: Cid, kind: Maneuver) {
    emit(
        world,
        ZonesEvent::ManeuverMade {
            attacker,
            target,
            kind: kind.name(),
            reaction: false,
            rule: super::maneuvers::RULE_NONLETHAL,
        },
    );
    let state = AttackState {
        attacker,
        target,
        weapon: 0,
        mode: MODE_STRIKE,
        stage: Stage::Target,
        hidden: false,
        guards: Vec::new(),
        maneuver: Some(kind),
        surprise: view::conditions(world, attacker).has(Condition::Concealed),
    };
    ask_target(world, state);
    reveal(world, attacker);
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
        ZonesEvent::AttackMade {
            attacker,
            target,
            weapon: String::from(&*w.name),
            weapon_index: index,
            mode: w.mode_name(mode).to_string(),
            reaction: false,
            rule,
        },
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
        ZonesEvent::AttackMissed {
            attacker,
            target,
            rule,
        },
    );
    false
}

pub(super) fn declare_attack(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    weapon: usize,
    mode: usize,
) {
    let Some(w) = self::weapon(world, attacker, weapon) else {
        return;
    };
    made(world, attacker, target, weapon, &w, mode, RULE_ATTACK);
    if mode == MODE_DEATH_BLOW {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who: target,
                condition: Condition::Dead,
                rule: "zones §Attacking: death blow",
            },
        );
        tidy_holds(world);
        return;
    }
    if !wit_to_hit(world, attacker, target, &w, false, RULE_ATTACK) {
        return;
    }
    let state = AttackState {
        attacker,
        target,
        weapon,
        mode,
        stage: Stage::Target,
        hidden: false,
        guards: Vec::new(),
        maneuver: None,
        surprise: view::conditions(world, attacker).has(Condition::Concealed),
    };
    if is_stunt(mode) {
        // "The attacker can propose an alternative effect to the target
        // instead of inflicting damage ... before the target decides
        // whether to react."
        emit(
            world,
            ZonesEvent::StuntProposed {
                attacker,
                target,
                effect: stunt_effect(mode),
                rule: RULE_STUNT,
            },
        );
        let waits = Waiting::Attack(AttackState {
            stage: Stage::Stunt,
            ..state
        });
        offer(world, target, attacker, waits);
        return;
    }
    ask_target(world, state);
}

/// Ask the target to react, or go on to the guards.
pub(super) fn ask_target(world: &mut Scene, mut state: AttackState) {
    let asked = view::reading(world, |world| {
        !state.surprise
            && can_react(world, state.target, state.attacker)
            && !view::conditions(world, state.target).has(Condition::Surrendered)
    });
    if asked {
        state.stage = Stage::Target;
        offer(world, state.target, state.attacker, Waiting::Attack(state));
        return;
    }
    state.guards = view::reading(world, |world| guards(world, &state));
    ask_guard(world, state);
}

/// The attack lands on its (current) target.
pub(super) fn hit(world: &mut Scene, state: &AttackState) {
    if let Some(kind) = state.maneuver {
        land_maneuver(world, state.attacker, state.target, kind);
        return;
    }
    let Some(w) = weapon(world, state.attacker, state.weapon) else {
        return;
    };
    let b = blow(
        world,
        state.attacker,
        state.target,
        &w,
        damage_mode(state.mode),
    );
    land(world, &b);
}

/// The attack is over: back to the turn it interrupted.
pub(super) fn finish(world: &mut Scene) {
    if view::resource::<Pending>(world).moving.is_some() {
        next_opportunist(world);
        return;
    }
    let who = view::resource::<ZonesRound>(world).turn.who;
    resume(world, who);
    if let Some(who) = who
        && !view::standing(world, who)
    {
        end_turn(world, who);
    }
}
