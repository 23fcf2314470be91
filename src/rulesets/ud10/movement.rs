//! UD10 movement (§Movement), fleeing (Optional Rule: Fleeing From Battle)
//! and retreat (Optional Rule: Retreat).

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Loadout, MoveMode};
use crate::rules::event::{
    BattleEvent, ConditionAdded, ConditionRemoved, Fled, MoveInterrupted, Moved,
};
use crate::rules::map::{Cell, Map};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;

use super::attack;
use super::event::{Faced, Ud10Event};
use super::numbers::RULE_FROM_BEHIND;
use super::reach::{RULE_FLEEING, RULE_MOVEMENT, RULE_RETREAT, Threat, engaged_enemies, threat};
use super::settings::Ud10Settings;

/// Execute a legal move, step by step. With the fleeing rule, each opponent
/// the mover runs away from gets a free attack before the step that breaks
/// the engagement.
pub fn execute_move(world: &mut Scene, who: Cid, path: &[Cell], mode: MoveMode) {
    let Some(end) = walk(world, who, path, mode) else {
        return;
    };
    // A retreat keeps the facing it had.
    if mode != MoveMode::Retreat {
        face_nearest_enemy(world, who, end);
    }
    mark_moving(world, who, mode);
}

/// The steps of `path`, as `Moved` events; where a step breaks away from
/// enemies engaging the mover (§Optional Rule: Fleeing From Battle, unless
/// it retreats), the steps so far, then each of those enemies' free
/// attack. The cell the mover ends on; none if a free attack struck it
/// down on the way (it stops where it is).
fn walk(world: &mut Scene, who: Cid, path: &[Cell], mode: MoveMode) -> Option<Cell> {
    let mut cur = view::cell(world, who)?;
    let fleeing = view::resource::<Ud10Settings>(world).fleeing && mode != MoveMode::Retreat;
    let rule = if mode == MoveMode::Retreat {
        RULE_RETREAT
    } else {
        RULE_MOVEMENT
    };
    let mut seg_from = cur;
    let mut segment: Vec<Cell> = Vec::new();
    let mut attacked: Vec<Cid> = Vec::new();
    // The enemies' melee reach, found once and again only after a free
    // attack (nothing else changes during the move): the enemies engaging
    // the mover at a cell are those whose reach covers it.
    let threats = |world: &World| -> Vec<(Cid, Threat)> {
        view::reading(world, |world| {
            view::enemies(world, who)
                .into_iter()
                .filter_map(|e| threat(world, e).map(|t| (e, t)))
                .collect()
        })
    };
    let mut reaches = if fleeing { threats(world) } else { Vec::new() };
    for &next in path {
        if fleeing {
            let map = view::resource::<Map>(world);
            let runners: view::Cids = reaches
                .iter()
                .filter(|(e, t)| {
                    t.covers(map, cur) && !attacked.contains(e) && !t.covers(map, next)
                })
                .map(|(e, _)| *e)
                .collect();
            if !runners.is_empty() {
                flush(world, who, seg_from, &mut segment, mode, rule);
                seg_from = cur;
                for e in runners {
                    attacked.push(e);
                    free_attack(world, e, who);
                    if !view::standing(world, who) {
                        emit(
                            world,
                            BattleEvent::MoveInterrupted(MoveInterrupted { who, at: cur }),
                        );
                        return None;
                    }
                }
                reaches = threats(world);
            }
        }
        segment.push(next);
        cur = next;
    }
    flush(world, who, seg_from, &mut segment, mode, rule);
    Some(cur)
}

/// The mover ends facing the nearest enemy, not its last step (Fray
/// decides: docs/rulesets/ud10.md, "From behind").
fn face_nearest_enemy(world: &mut Scene, who: Cid, end: Cell) {
    if let Some((e, facing)) = view::reading(world, |world| {
        super::facing::turn_after_move(world, who, end)
    }) {
        emit(
            world,
            Ud10Event::Faced(Faced {
                who,
                towards: Some(e),
                facing,
                rule: RULE_FROM_BEHIND,
            }),
        );
    }
}

/// A standard or full move leaves the mover moving (§Attack Modifiers:
/// opponent is moving) and up from any crouch (§Movement).
fn mark_moving(world: &mut Scene, who: Cid, mode: MoveMode) {
    if !matches!(mode, MoveMode::Standard | MoveMode::Full) {
        return;
    }
    let conds = view::conditions(world, who);
    if !conds.has(Condition::Moving) {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who,
                condition: Condition::Moving,
                rule: "ud10 §Attack Modifiers: opponent is moving",
            }),
        );
    }
    if conds.has(Condition::Crouching) {
        emit(
            world,
            BattleEvent::ConditionRemoved(ConditionRemoved {
                who,
                condition: Condition::Crouching,
                rule: RULE_MOVEMENT,
            }),
        );
    }
}

/// The steps walked since `from` as one `Moved` event, at their cost on
/// the map; the segment emptied. Nothing if no step was walked.
fn flush(
    world: &mut Scene,
    who: Cid,
    from: Cell,
    segment: &mut Vec<Cell>,
    mode: MoveMode,
    rule: &'static str,
) {
    if segment.is_empty() {
        return;
    }
    let cost = view::resource::<Map>(world)
        .path_cost(from, segment)
        .unwrap_or(0);
    emit(
        world,
        BattleEvent::Moved(Moved {
            who,
            from,
            path: std::mem::take(segment),
            cost_dm: cost,
            zones: 0,
            mode,
            rule,
        }),
    );
}

/// "every one of those opponents gets an immediate free action to attack the
/// fleeing character" — with the ready weapon, and from behind: the fleeing
/// character has turned their back.
fn free_attack(world: &mut Scene, attacker: Cid, target: Cid) {
    let Some(weapon) = view::get::<Loadout>(world, attacker).and_then(|l| l.ready) else {
        return;
    };
    attack::execute_attack(world, attacker, target, weapon, 0, true);
}

/// §Optional Rule: Retreat: the retreater marked retreating, then its move.
pub fn execute_retreat(world: &mut Scene, who: Cid, path: &[Cell]) {
    emit(
        world,
        BattleEvent::ConditionAdded(ConditionAdded {
            who,
            condition: Condition::Retreating,
            rule: RULE_RETREAT,
        }),
    );
    execute_move(world, who, path, MoveMode::Retreat);
}

/// §Optional Rule: Fleeing From Battle: leaving the battle over the map's
/// edge draws each engaging enemy's free attack first; the one still
/// standing has fled.
pub fn execute_flee(world: &mut Scene, who: Cid) {
    let Some(at) = view::cell(world, who) else {
        return;
    };
    if view::resource::<Ud10Settings>(world).fleeing {
        for e in engaged_enemies(world, who, at) {
            free_attack(world, e, who);
            if !view::standing(world, who) {
                return;
            }
        }
    }
    emit(
        world,
        BattleEvent::Fled(Fled {
            who,
            rule: RULE_FLEEING,
        }),
    );
}
