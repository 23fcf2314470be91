//! §Reacting to an attack (dodge, counter, hide behind a nearby character)
//! and §Guarding: the answers to an attack and what each does.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Weapon};
use crate::rules::event::{BattleEvent, ReactionDeclined, TargetChanged};
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::command::{Maneuver, ZonesCommand};
use crate::rulesets::zones::event::{
    AttackMade, BlowStopped, CounterOrder, ManeuverMade, Reaction, ZonesEvent,
};

use super::attack::{ask_guard, ask_target, hit};
use super::blast::blast_answer;
use super::blow::{Blow, blow, dodge, land, tidy_holds, wit_to_hit};
use super::modes::MODE_STRIKE;
use super::nonlethal::land_maneuver;
use super::opportunity::{finish, opportunity_answer};
use super::query::{damage_mode, guards, weapon};
use super::state::{AttackState, Pending, RULE_COUNTER, RULE_DODGE, RULE_GUARD, RULE_HIDE, Stage};
use super::stunt::accept_stunt;
use super::waiting::taken;

/// What `who` could do at this prompt, for the line that says it did not
/// ("does not dodge, counter or hide behind someone"), read before the
/// answer changes anything.
pub(super) fn forgone(world: &World, who: Cid) -> String {
    let mut words: Vec<&str> = Vec::new();
    for c in super::legal::legal_commands(world, who) {
        let w = match (&c, c.own::<ZonesCommand>()) {
            (Command::Dodge, _) => "dodge",
            (_, Some(ZonesCommand::Counter { .. } | ZonesCommand::CounterManeuver { .. })) => {
                "counter"
            }
            (_, Some(ZonesCommand::HideBehind { .. })) => "hide behind someone",
            (_, Some(ZonesCommand::Guard)) => "guard",
            (_, Some(ZonesCommand::Accept)) => "accept the stunt",
            (_, Some(ZonesCommand::Opportunity { .. })) => "make an opportunity attack",
            _ => continue,
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    crate::rules::narrate::either(&words)
}

/// Answer to a `React` prompt (checked legal).
pub fn resolve_reaction(world: &mut Scene, who: Cid, command: &Command) {
    // A guard or a stunt prompt has one answer besides none: named
    // without asking for every legal command (the AI declines to guard
    // often, and batch simulation feels it).
    let pending = view::resource::<Pending>(world);
    let stage = pending
        .attack
        .as_ref()
        .filter(|_| pending.blast.is_none())
        .map(|a| a.stage);
    let forgoes = match (command, stage) {
        (Command::NoReaction, Some(Stage::Guard)) => "guard".to_string(),
        (Command::NoReaction, Some(Stage::Stunt)) => "accept the stunt".to_string(),
        (Command::NoReaction, _) => forgone(world, who),
        _ => String::new(),
    };
    if view::resource::<Pending>(world).blast.is_some() {
        blast_answer(world, who, command, forgoes);
        return;
    }
    // Read as it waits: the answer's events offer the next question or
    // resume the turn (`waiting.rs`).
    let Some(mut state) = view::resource::<Pending>(world).attack.clone() else {
        opportunity_answer(world, who, command, forgoes);
        return;
    };
    match (state.stage, command, command.own::<ZonesCommand>()) {
        (Stage::Stunt, _, Some(ZonesCommand::Accept)) => {
            accept_stunt(world, &state);
            finish(world);
        }
        (Stage::Stunt, Command::NoReaction, _) => {
            emit(
                world,
                BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
            );
            state.mode = damage_mode(state.mode);
            ask_target(world, state);
        }
        (Stage::Target, Command::NoReaction, _) => {
            emit(
                world,
                BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
            );
            state.guards = guards(world, &state);
            ask_guard(world, state);
        }
        (Stage::Guard, Command::NoReaction, _) => {
            emit(
                world,
                BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
            );
            state.guards.retain(|g| *g != who);
            ask_guard(world, state);
        }
        (Stage::Target, Command::Dodge, _) => {
            taken(world, who, Reaction::Dodge, state.attacker, RULE_DODGE);
            if dodge(world, who, state.attacker) {
                hit(world, &state);
            }
            finish(world);
        }
        (Stage::Target, _, Some(ZonesCommand::CounterManeuver { kind })) => {
            answer_counter(world, who, &state, CounterWith::Maneuver(*kind));
        }
        (Stage::Target, _, Some(ZonesCommand::Counter { weapon })) => {
            answer_counter(world, who, &state, CounterWith::Blow(*weapon));
        }
        (Stage::Target, _, Some(ZonesCommand::HideBehind { who: other })) => {
            hide_behind(world, who, *other, state);
        }
        (Stage::Guard, _, Some(ZonesCommand::Guard)) => guard(world, who, state),
        // Not an answer to this stage (the check refuses these): the
        // attack still waits.
        _ => {}
    }
}

/// §Reactions, counter-attack: strike back instead of being hit.
fn answer_counter(world: &mut Scene, who: Cid, state: &AttackState, strike: CounterWith) {
    taken(world, who, Reaction::Counter, state.attacker, RULE_COUNTER);
    counter(world, state, strike);
    finish(world);
}

/// §Reactions, hide behind someone: the blow goes to `other` instead.
fn hide_behind(world: &mut Scene, who: Cid, other: Cid, mut state: AttackState) {
    taken(world, who, Reaction::HideBehind, state.attacker, RULE_HIDE);
    emit(
        world,
        BattleEvent::TargetChanged(TargetChanged {
            attacker: state.attacker,
            from: who,
            to: other,
            swapped: true,
            rule: RULE_HIDE,
        }),
    );
    tidy_holds(world);
    state.target = other;
    state.hidden = true;
    ask_target(world, state);
}

/// §Reactions, guard: an ally takes the blow in the target's place.
fn guard(world: &mut Scene, who: Cid, mut state: AttackState) {
    taken(world, who, Reaction::Guard, state.attacker, RULE_GUARD);
    emit(
        world,
        BattleEvent::TargetChanged(TargetChanged {
            attacker: state.attacker,
            from: state.target,
            to: who,
            swapped: false,
            rule: RULE_GUARD,
        }),
    );
    state.target = who;
    hit(world, &state);
    finish(world);
}

/// What a counter strikes back with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CounterWith {
    Blow(usize),
    Maneuver(Maneuver),
}

/// "Both characters roll for damage at the same time. Whoever suffers the
/// most damage, after reductions, is hit first. In case of a tie both
/// characters are hit at the same time." A blow that incapacitates or kills
/// stops the other. With non-lethal attacks (§Non-lethal attacks): "If a
/// normal attack is countered by a non-lethal attack, or viceversa, the
/// non-lethal attack is resolved last. If a non-lethal attack is countered
/// by a non-lethal attack, the counter is resolved last."
pub(super) fn counter(world: &mut Scene, state: &AttackState, answer: CounterWith) {
    let (a, t) = (state.attacker, state.target);
    let wt = match answer {
        CounterWith::Blow(i) => {
            let Some(wt) = weapon(world, t, i) else {
                return;
            };
            emit(
                world,
                ZonesEvent::AttackMade(AttackMade {
                    attacker: t,
                    target: a,
                    weapon: String::from(&*wt.name),
                    weapon_index: i,
                    mode: "counter".into(),
                    reaction: true,
                    rule: RULE_COUNTER,
                }),
            );
            if !wit_to_hit(world, t, a, &wt, true, RULE_COUNTER) {
                hit(world, state);
                return;
            }
            Some(wt)
        }
        CounterWith::Maneuver(kind) => {
            emit(
                world,
                ZonesEvent::ManeuverMade(ManeuverMade {
                    attacker: t,
                    target: a,
                    kind: kind.name(),
                    reaction: true,
                    rule: RULE_COUNTER,
                }),
            );
            None
        }
    };
    match (state.maneuver, answer, wt) {
        (None, CounterWith::Blow(_), Some(wt)) => trade_blows(world, state, &wt),
        // A blow against a non-lethal attack: the blow first.
        (Some(kind), CounterWith::Blow(_), Some(wt)) => {
            let b = blow(world, t, a, &wt, MODE_STRIKE);
            land(world, &b);
            land_maneuver(world, a, t, kind);
        }
        (None, CounterWith::Maneuver(kind), _) => {
            hit(world, state);
            land_maneuver(world, t, a, kind);
        }
        // Both non-lethal: "the counter is resolved last".
        (Some(first), CounterWith::Maneuver(kind), _) => {
            land_maneuver(world, a, t, first);
            land_maneuver(world, t, a, kind);
        }
        _ => {}
    }
}

/// §Reacting to an attack, Counter: "Both characters roll for damage at
/// the same time. Whoever suffers the most damage, after reductions, is hit
/// first. In case of a tie both characters are hit at the same time."
fn trade_blows(world: &mut Scene, state: &AttackState, wt: &Weapon) {
    let (a, t) = (state.attacker, state.target);
    let Some(wa) = weapon(world, a, state.weapon) else {
        return;
    };
    let on_target = blow(world, a, t, &wa, damage_mode(state.mode));
    let on_attacker = blow(world, t, a, wt, MODE_STRIKE);
    let order: [&Blow; 2] = if on_attacker.suffered > on_target.suffered {
        [&on_attacker, &on_target]
    } else {
        [&on_target, &on_attacker]
    };
    let tie = on_attacker.suffered == on_target.suffered;
    emit(
        world,
        ZonesEvent::CounterOrder(CounterOrder {
            first: order[0].target,
            then: order[1].target,
            suffers: order[0].suffered,
            then_suffers: order[1].suffered,
            tie,
            rule: RULE_COUNTER,
        }),
    );
    land(world, order[0]);
    // The one hit first strikes back only if still standing (or at
    // once, on a tie).
    let striker = if order[0].target == a { a } else { t };
    if tie || view::standing(world, striker) {
        land(world, order[1]);
    } else {
        emit(
            world,
            ZonesEvent::BlowStopped(BlowStopped {
                who: striker,
                rule: RULE_COUNTER,
            }),
        );
    }
}
