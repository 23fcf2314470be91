//! Carrying out a checked UD10 command: each emits the events that say what
//! happened; `apply.rs` changes the state from them.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition};
use crate::rules::event::{BattleEvent, ConditionAdded, ConditionRemoved, Healed, TurnEnded};
use crate::rules::level::Facing;
use crate::rules::scene::Scene;
use crate::rules::scene::{draw, emit};
use crate::rules::view;
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::event::{Aimed, CutFree, Faced, FirstAid, Reloaded, Ud10Event};

use super::{
    RULE_ACTIONS, RULE_FREE_ACTIONS, attack, check, first_aid, movement, numbers, query, reach,
};

pub fn execute(world: &mut Scene, actor: Cid, command: &Command) {
    match (command, command.own::<Ud10Command>()) {
        (Command::Move { path }, _) => {
            if let Ok((mode, _)) = reach::check_move(world, actor, path) {
                movement::execute_move(world, actor, path, mode);
            }
        }
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => attack::execute_attack(world, actor, *target, *weapon, *mode, false),
        (_, Some(Ud10Command::Aim { target, .. })) => execute_aim(world, actor, *target),
        (_, Some(Ud10Command::CutFree)) => execute_cut_free(world, actor),
        (_, Some(Ud10Command::FirstAid { patient })) => execute_first_aid(world, actor, *patient),
        (_, Some(Ud10Command::Reload { weapon })) => execute_reload(world, actor, *weapon),
        (Command::Draw { weapon }, _) => execute_draw(world, actor, *weapon),
        (_, Some(Ud10Command::TakeCover)) => execute_take_cover(world, actor),
        (_, Some(Ud10Command::Stand)) => execute_stand(world, actor),
        (_, Some(Ud10Command::Face { facing })) => execute_face(world, actor, *facing),
        (_, Some(Ud10Command::Retreat { path })) => {
            movement::execute_retreat(world, actor, path);
            end_turn(world, actor);
        }
        (Command::Flee, _) => {
            movement::execute_flee(world, actor);
            end_turn(world, actor);
        }
        (Command::EndTurn, _) => end_turn(world, actor),
        (_, Some(Ud10Command::Parry)) | (Command::Dodge, _) | (Command::NoReaction, _) => {
            attack::resolve_reaction(world, actor, command);
        }
        // Refused by the check: not part of a ud10 round.
        _ => {}
    }
    end_if_struck_down(world, command);
}

/// A combatant struck down during its own turn (a free attack while
/// fleeing) has no more turn (unless the command already ended it).
fn end_if_struck_down(world: &mut Scene, command: &Command) {
    if let Prompt::Act { actor: a } = view::resource::<Battle>(world).prompt
        && !view::standing(world, a)
        && !matches!(
            (command, command.own::<Ud10Command>()),
            (Command::EndTurn, _) | (Command::Flee, _) | (_, Some(Ud10Command::Retreat { .. }))
        )
    {
        end_turn(world, a);
    }
}

/// The combatant's turn ends, if it is the one acting.
pub fn end_turn(world: &mut Scene, who: Cid) {
    if view::resource::<Battle>(world).prompt == (Prompt::Act { actor: who }) {
        emit(world, BattleEvent::TurnEnded(TurnEnded { who }));
    }
}

/// Cutting itself free of a net takes the action (§Performing Actions);
/// the condition goes.
fn execute_cut_free(world: &mut Scene, actor: Cid) {
    emit(
        world,
        Ud10Event::CutFree(CutFree {
            who: actor,
            rule: numbers::RULE_IMMOBILIZED,
        }),
    );
    emit(
        world,
        BattleEvent::ConditionRemoved(ConditionRemoved {
            who: actor,
            condition: Condition::Immobilized,
            rule: numbers::RULE_IMMOBILIZED,
        }),
    );
}

/// §Free Actions: crouching behind whatever is at hand.
fn execute_take_cover(world: &mut Scene, actor: Cid) {
    emit(
        world,
        BattleEvent::ConditionAdded(ConditionAdded {
            who: actor,
            condition: Condition::Crouching,
            rule: RULE_FREE_ACTIONS,
        }),
    );
}

/// §Free Actions: standing up from a crouch.
fn execute_stand(world: &mut Scene, actor: Cid) {
    emit(
        world,
        BattleEvent::ConditionRemoved(ConditionRemoved {
            who: actor,
            condition: Condition::Crouching,
            rule: RULE_FREE_ACTIONS,
        }),
    );
}

/// Facing the way the combatant chose (Fray decides: docs/rulesets/ud10.md,
/// "From behind").
fn execute_face(world: &mut Scene, actor: Cid, facing: Facing) {
    emit(
        world,
        Ud10Event::Faced(Faced {
            who: actor,
            towards: None,
            facing,
            rule: numbers::RULE_FROM_BEHIND,
        }),
    );
}

/// §Attack Modifiers, aiming: a second round at the same target adds to
/// the first (at most two).
fn execute_aim(world: &mut Scene, actor: Cid, target: Cid) {
    let rounds = match query::turn(world, actor).aim {
        Some((at, r)) if at == target => (r + 1).min(2),
        _ => 1,
    };
    emit(
        world,
        Ud10Event::Aimed(Aimed {
            who: actor,
            target,
            rounds,
            rule: numbers::RULE_ATTACK_MODS,
        }),
    );
}

/// §Performing Actions: reloading fills the magazine from what is spare.
fn execute_reload(world: &mut Scene, actor: Cid, weapon: usize) {
    let Some(w) = query::loadout(world, actor).and_then(|l| l.weapons.get(weapon)) else {
        return;
    };
    let room = w.magazine - w.loaded;
    let add = w.spare.map_or(room, |s| s.min(room));
    let (name, loaded) = (String::from(&*w.name), w.loaded + add);
    emit(
        world,
        Ud10Event::Reloaded(Reloaded {
            who: actor,
            weapon: name,
            index: weapon,
            loaded,
            rule: RULE_ACTIONS,
        }),
    );
}

/// Drawing a weapon: an action, or part of a standard movement for a small
/// one (§Free Actions).
fn execute_draw(world: &mut Scene, actor: Cid, weapon: usize) {
    let t = query::turn(world, actor);
    let Some(w) = query::loadout(world, actor).and_then(|l| l.weapons.get(weapon)) else {
        return;
    };
    let as_movement = check::draw_as_movement(&t, w);
    let (cost, rule) = if as_movement {
        ("part of its standard movement", reach::RULE_MOVEMENT)
    } else {
        ("spends the action", RULE_ACTIONS)
    };
    draw(world, actor, weapon, as_movement, cost, rule);
}

/// §Performing Actions, a skill action (Fray decides: first aid): d10 + First
/// Aid (or DEX) against the difficulty; a success brings the patient round
/// with at least 1 HP.
fn execute_first_aid(world: &mut Scene, medic: Cid, patient: Cid) {
    let n = first_aid::numbers(world, medic);
    let roll = attack::d10(world);
    let total = roll.total + n.bonus();
    let success = total >= n.difficulty;
    emit(
        world,
        Ud10Event::FirstAid(FirstAid {
            medic,
            patient,
            roll,
            total,
            difficulty: n.difficulty,
            modifiers: n.modifiers,
            success,
            rule: first_aid::RULE_FIRST_AID,
        }),
    );
    if !success {
        return;
    }
    let hp = view::get::<crate::rules::components::Health>(world, patient).map_or(0, |h| h.hp);
    let hp_after = hp.max(1);
    emit(
        world,
        BattleEvent::Healed(Healed {
            target: patient,
            by: medic,
            gained: hp_after - hp,
            hp_after,
            rule: first_aid::RULE_FIRST_AID,
        }),
    );
    emit(
        world,
        BattleEvent::ConditionRemoved(ConditionRemoved {
            who: patient,
            condition: Condition::Unconscious,
            rule: first_aid::RULE_FIRST_AID,
        }),
    );
}
