//! §Attacking: an attack is declared, a WIT save to hit is made where the
//! text asks for one, the target may react, and damage is rolled, reduced by
//! armour and applied; a larger attacker may share its dice among smaller
//! targets; attacking reveals a concealed attacker (§Sneaking in combat).

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition};
use crate::rules::event::{BattleEvent, ConditionAdded};
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::command::Maneuver;
use crate::rulesets::zones::event::{AttackMade, ManeuverMade, StuntProposed, ZonesEvent};
use crate::rulesets::zones::weapon::ZonesGear;

use super::blast::{ask_blast, declare_blast};
use super::blow::{blow, land, made, reveal, tidy_holds, wit_to_hit};
use super::modes::{MODE_DEATH_BLOW, MODE_STRIKE, is_stunt};
use super::nonlethal::land_maneuver;
use super::opportunity::finish;
use super::query::{can_react, damage_mode, guards, stunt_effect, weapon, wit_save_reason};
use super::state::{AttackState, BlastState, RULE_ATTACK, RULE_SIZE, RULE_STUNT, Stage, Waiting};
use super::waiting::offer;

/// A split attack: one attack on several smaller targets; like a blast, it
/// asks each target for its reaction, and only one may counter.
pub fn execute_split(world: &mut Scene, attacker: Cid, index: usize, shares: &[(Cid, u32)]) {
    let Some(w) = weapon(world, attacker, index) else {
        return;
    };
    for &(t, _) in shares {
        emit(
            world,
            ZonesEvent::AttackMade(AttackMade {
                attacker,
                target: t,
                weapon: String::from(&*w.name),
                weapon_index: index,
                mode: "shared dice".into(),
                reaction: false,
                rule: RULE_SIZE,
            }),
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
        ZonesEvent::ManeuverMade(ManeuverMade {
            attacker,
            target,
            kind: kind.name(),
            reaction: false,
            rule: super::maneuvers::RULE_NONLETHAL,
        }),
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
            BattleEvent::ConditionAdded(ConditionAdded {
                who: target,
                condition: Condition::Dead,
                rule: "zones §Attacking: death blow",
            }),
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
            ZonesEvent::StuntProposed(StuntProposed {
                attacker,
                target,
                effect: stunt_effect(mode),
                rule: RULE_STUNT,
            }),
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

pub(super) fn ask_guard(world: &mut Scene, mut state: AttackState) {
    match state.guards.first() {
        Some(&g) => {
            state.stage = Stage::Guard;
            let attacker = state.attacker;
            offer(world, g, attacker, Waiting::Attack(state));
        }
        None => {
            hit(world, &state);
            finish(world);
        }
    }
}
