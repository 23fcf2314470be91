//! The brp round (§5.1): statement of intent in DEX order (§5.2), movement
//! in the same order (§5.3), actions counted down by DEX rank (§5.4), and
//! the resolution at its end (§5.12, §5.14, §5.9's reload). Each step moves
//! the round on while nothing is prompted.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Condition, Health, Loadout};
use crate::rules::event::{
    BattleEvent, ConditionAdded, ConditionRemoved, Count, GroupActed, RoundEnded, RoundStarted,
    TurnEnded, TurnOrder, TurnStarted,
};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::schedule::{Due, Schedule};
use crate::rules::view;

use super::command::Intent;
use super::derived::RULE_HIT_POINTS;
use super::event::{BrpEvent, DexOrder, PhaseBegan, RankCalled, Ranked, Reloaded, RoundPhase};
use super::query::{
    RULE_ACTIONS, RULE_INTENT, RULE_MOVEMENT, WeaponOrder, band, rank, round, settings,
    tied_groups, weapon_order,
};
use super::stats::{gear, stats, weapon};

pub const RULE_RESOLUTION: &str = "Fray decides: docs/rulesets/brp.md, \"Resolution\"";

/// Move the battle on when nothing is prompted.
pub fn advance(world: &mut Scene) {
    let b = view::resource::<Battle>(world);
    if b.is_over() || b.prompt != Prompt::None {
        return;
    }
    match b.phase {
        Phase::Intent => next_in_order(world, Phase::Intent),
        Phase::Movement => next_in_order(world, Phase::Movement),
        Phase::Actions => next_actor(world),
        Phase::Resolution => resolve(world),
        _ => start_round(world),
    }
}

/// A phase begins: its event's apply puts the battle in it.
fn begin(world: &mut Scene, phase: RoundPhase, rule: &'static str) {
    emit(world, BrpEvent::PhaseBegan(PhaseBegan { phase, rule }));
}

fn start_round(world: &mut Scene) {
    let round_no = view::resource::<Battle>(world).round + 1;
    emit(
        world,
        BattleEvent::RoundStarted(RoundStarted { round: round_no }),
    );
    let standing = view::standing_all(world);
    // §5.2: DEX, highest first; ties by the weapon in hand (missile before
    // melee), then by its skill; then together.
    let keyed: Vec<((i32, WeaponOrder), Cid)> = standing
        .iter()
        .map(|&c| {
            let dex = stats(world, c).map_or(0, |s| s.dex);
            let w = view::get::<Loadout>(world, c)
                .and_then(|l| l.ready_weapon())
                .and_then(gear);
            let mut order = weapon_order(w);
            // §5.2 sorts missile before melee; lengths only matter on rank.
            order.class = order.class.min(1);
            ((-dex, order), c)
        })
        .collect();
    let order = tied_groups(keyed);
    emit(
        world,
        BattleEvent::TurnOrder(TurnOrder {
            order: order.iter().flatten().copied().collect(),
        }),
    );
    // Its apply makes the round's bookkeeping afresh.
    emit(
        world,
        BrpEvent::DexOrder(DexOrder {
            order,
            rule: RULE_INTENT,
        }),
    );
    if settings(world).statement_of_intent {
        begin(world, RoundPhase::Intent, RULE_INTENT);
        next_in_order(world, Phase::Intent);
    } else {
        start_movement(world);
    }
}

fn start_movement(world: &mut Scene) {
    // Next to an enemy when movement begins is "involved in combat" (§5.3;
    // RULE_INVOLVED): the phase's apply marks it.
    begin(world, RoundPhase::Movement, RULE_MOVEMENT);
    next_in_order(world, Phase::Movement);
}

/// §5.2, §5.3: the next standing character in DEX order whose turn in this
/// phase has not come: prompt it; when none is left, the next phase (a
/// vehicle states nothing and moves only when manned: docs/rulesets/brp.md,
/// "Mounts and vehicles").
fn next_in_order(world: &mut Scene, phase: Phase) {
    let r = round(world);
    // The roster once for every candidate (standing, a vehicle): asked
    // after every statement and every move.
    let roster = view::resource::<crate::rules::roster::Roster>(world);
    let next = r.order.iter().flatten().copied().find(|c| {
        let place = roster.place(*c);
        r.slot(*c).is_some_and(|s| !s.done)
            && place.is_some_and(|p| !p.conditions.out_of_fight())
            && (!place.and_then(|p| p.steed).is_some_and(|s| s.vehicle)
                || (phase == Phase::Movement && manned(world, *c)))
    });
    match next {
        Some(who) => {
            emit(world, BattleEvent::TurnStarted(TurnStarted { who }));
        }
        // The next phase's apply gives everyone a turn anew.
        None => match phase {
            Phase::Intent => start_movement(world),
            _ => start_actions(world),
        },
    }
}

/// A vehicle: it states nothing and moves only with someone aboard.
fn is_vehicle(world: &World, c: Cid) -> bool {
    view::steed(world, c).is_some_and(|s| s.vehicle)
}

/// Someone standing rides `c`.
fn manned(world: &World, c: Cid) -> bool {
    view::riders(world, c)
        .iter()
        .any(|r| view::standing(world, *r))
}

/// §5.3–5.4: each character's rank after its movement, and the count.
fn start_actions(world: &mut Scene) {
    begin(world, RoundPhase::Actions, RULE_ACTIONS);
    let bound = settings(world).statement_of_intent;
    let standing = view::standing_all(world);
    let mut acting: Vec<((i32, WeaponOrder), Cid)> = Vec::with_capacity(standing.len());
    for c in standing {
        let Some(slot) = round(world).slot(c).cloned() else {
            continue;
        };
        if (bound && matches!(slot.declared, None | Some(Intent::Defend))) || is_vehicle(world, c) {
            continue;
        }
        let dex = stats(world, c).map_or(0, |s| s.dex);
        let b = band(slot.moved_dm);
        let rank = rank(dex, b);
        emit(
            world,
            BrpEvent::Ranked(Ranked {
                who: c,
                dex,
                moved_dm: slot.moved_dm,
                band: b,
                rank: rank.unwrap_or(0),
                rule: RULE_MOVEMENT,
            }),
        );
        // After the 30-metre run: no action this round.
        let Some(rank) = rank else {
            continue;
        };
        // §5.4: on one rank, attacks by weapon type; other actions after.
        let w = match slot.declared {
            Some(Intent::Attack { weapon: i, .. }) => weapon(world, c, i).map(|(_, g)| g),
            None => view::get::<Loadout>(world, c)
                .and_then(|l| l.ready_weapon())
                .and_then(gear),
            _ => None,
        };
        acting.push(((-rank, weapon_order(w)), c));
    }
    // Ranks, highest first; on each, groups in acting order.
    let mut queue: Vec<(i32, Vec<Vec<Cid>>)> = Vec::with_capacity(acting.len());
    type Keyed = ((i32, WeaponOrder), Cid);
    let mut by_rank: Vec<(i32, Vec<Keyed>)> = Vec::with_capacity(acting.len());
    for item in acting {
        let r = -item.0.0;
        match by_rank.iter_mut().find(|(k, _)| *k == r) {
            Some((_, v)) => v.push(item),
            None => by_rank.push((r, vec![item])),
        }
    }
    by_rank.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (r, items) in by_rank {
        queue.push((r, tied_groups(items)));
    }
    // The count's order, for the turn tracker.
    emit(
        world,
        BattleEvent::TurnOrder(TurnOrder {
            order: queue
                .iter()
                .flat_map(|(_, groups)| groups.iter().flatten().copied())
                .collect(),
        }),
    );
    emit(
        world,
        BattleEvent::Count(Count {
            ranks: queue,
            rule: RULE_ACTIONS,
        }),
    );
    next_actor(world);
}

/// §5.4: the next character the count of DEX ranks reaches (highest
/// first): prompt it; when the count is done, the resolution.
fn next_actor(world: &mut Scene) {
    // Where the count stands: its member's `TurnStarted` moves it past
    // them (apply); here it only looks ahead.
    let mut at = view::resource::<Schedule>(world).at;
    loop {
        let s = view::resource::<Schedule>(world);
        if let Some(i) = s.opens(at) {
            let (rank, order) = s.ranks[i].clone();
            emit(
                world,
                BrpEvent::RankCalled(RankCalled {
                    rank,
                    order,
                    rule: RULE_ACTIONS,
                }),
            );
        }
        let (due, next) = view::resource::<Schedule>(world).due(at);
        at = next;
        match due {
            Due::Over => {
                resolve(world);
                return;
            }
            Due::ScoreDone => {}
            // The group is done: those it dropped fall now.
            Due::GroupDone => fall_now(world),
            Due::Member(who) => {
                if view::standing(world, who) {
                    emit(world, BattleEvent::TurnStarted(TurnStarted { who }));
                    return;
                }
            }
        }
    }
}

/// §5.2 ("simultaneously") and §5.12: those dropped within a simultaneous
/// group fall once the whole group has acted.
pub fn fall_now(world: &mut Scene) {
    let pending = view::resource::<Schedule>(world).falls.clone();
    if pending.is_empty() {
        return;
    }
    let threshold = settings(world).unconscious_at_hp;
    // Tended back above the mark within the group: it does not fall.
    let falls: Vec<Cid> = pending
        .into_iter()
        .filter(|&who| {
            let healed = view::get::<Health>(world, who).is_some_and(|h| h.hp > threshold);
            !healed && !view::conditions(world, who).has(Condition::Unconscious)
        })
        .collect();
    emit(
        world,
        BattleEvent::GroupActed(GroupActed {
            falls: falls.clone(),
            rule: super::query::RULE_SIMULTANEOUS,
        }),
    );
    for who in falls {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who,
                condition: Condition::Unconscious,
                rule: RULE_HIT_POINTS,
            }),
        );
        super::mounts::unseat(world, who);
    }
}

/// §5.1's fourth phase: reloads done, and "If a character is reduced to 0
/// hit points and remains at 0 at the end of the combat round, they are
/// dead" (§5.12).
fn resolve(world: &mut Scene) {
    begin(world, RoundPhase::Resolution, RULE_RESOLUTION);
    fall_now(world);
    let n = round(world).slots.len();
    for i in 0..n {
        let who = Cid(i as u16);
        let reloading = round(world).slot(who).and_then(|s| s.reloading);
        if let Some(index) = reloading
            && let Some(w) = view::get::<Loadout>(world, who).and_then(|l| l.weapons.get(index))
        {
            let loaded = match w.spare {
                Some(spare) => w.magazine.min(w.loaded + spare),
                None => w.magazine,
            };
            let name = String::from(&*w.name);
            emit(
                world,
                BrpEvent::Reloaded(Reloaded {
                    who,
                    weapon_index: index,
                    weapon: name,
                    loaded,
                    rule: super::query::RULE_RELOAD,
                }),
            );
        }
        let c = view::conditions(world, who);
        // Fray decides: surprise lasts the first round (no parry or dodge).
        if c.has(Condition::Surprised) {
            emit(
                world,
                BattleEvent::ConditionRemoved(ConditionRemoved {
                    who,
                    condition: Condition::Surprised,
                    rule: RULE_RESOLUTION,
                }),
            );
        }
        let dying = view::get::<Health>(world, who).is_some_and(|h| h.hp <= 0);
        if dying && !c.has(Condition::Dead) && !c.has(Condition::Fled) {
            emit(
                world,
                BattleEvent::ConditionAdded(ConditionAdded {
                    who,
                    condition: Condition::Dead,
                    rule: RULE_HIT_POINTS,
                }),
            );
            super::mounts::unseat(world, who);
        }
    }
    let round_no = view::resource::<Battle>(world).round;
    emit(
        world,
        BattleEvent::RoundEnded(RoundEnded { round: round_no }),
    );
}

/// The actor's turn in this phase is over.
pub fn end_turn(world: &mut Scene, who: Cid) {
    if view::resource::<Battle>(world).prompt == (Prompt::Act { actor: who }) {
        emit(world, BattleEvent::TurnEnded(TurnEnded { who }));
    }
}
