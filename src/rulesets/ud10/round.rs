//! The UD10 round (§Starting a Combat Round, §Courses of Action): initiative
//! d10 + INI skill, highest first, kept across rounds or re-rolled; each
//! combatant takes one turn a round in that order.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Condition, Controller, TurnState};
use crate::rules::event::{
    BattleEvent, ConditionRemoved, Modifier, RoundEnded, RoundStarted, TurnOrder, TurnStarted,
};
use crate::rules::roster::Factions;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::ud10::event::{InitiativeRolled, TieBroken, Ud10Event};

use super::attack::d10;
use super::query::stats;
use super::settings::{InitiativeGrouping, Ud10Settings};

pub const RULE_INITIATIVE: &str = "ud10 §Starting a Combat Round";
pub const RULE_TIES: &str = "Fray decides: docs/rulesets/ud10.md §Initiative ties";

/// The turn order of the current round and who is next.
#[derive(Resource, Clone, Debug, Default)]
pub struct Ud10Round {
    pub order: Vec<Cid>,
    pub next: usize,
}

/// Move the battle on when nothing is prompted: start a round, or start the
/// next combatant's turn, or end the round.
pub fn advance(world: &mut Scene) {
    let b = view::resource::<Battle>(world);
    if b.is_over() || b.prompt != Prompt::None {
        return;
    }
    match b.phase {
        Phase::Setup | Phase::RoundEnd => start_round(world),
        _ => next_turn(world),
    }
}

fn start_round(world: &mut Scene) {
    let round = view::resource::<Battle>(world).round + 1;
    emit(world, BattleEvent::RoundStarted(RoundStarted { round }));
    let keep = view::resource::<Ud10Settings>(world).keep_initiative;
    let standing = view::standing_all(world);
    let missing = standing
        .iter()
        .any(|c| view::get::<TurnState>(world, *c).is_none_or(|t| t.initiative.is_none()));
    if round == 1 || !keep || missing {
        roll_initiative(world, &standing);
    }
    let order = order(world, &standing);
    // Its apply keeps the order in `Ud10Round` and opens the actions.
    emit(world, BattleEvent::TurnOrder(TurnOrder { order }));
    next_turn(world);
}

fn roll_initiative(world: &mut Scene, who: &[Cid]) {
    let grouping = view::resource::<Ud10Settings>(world).initiative_grouping;
    let factions = view::resource::<Factions>(world).0.clone();
    let mut group_rolls: Vec<(u8, crate::rules::dice::DiceRoll)> = Vec::new();
    for &c in who {
        let ini = stats(world, c).map_or(0, |s| s.ini);
        let f = view::faction(world, c).unwrap_or(0);
        let grouped = grouping == InitiativeGrouping::PerAiFaction
            && factions
                .get(f as usize)
                .is_some_and(|f| f.control != Controller::Human);
        let roll = if grouped {
            if let Some((_, r)) = group_rolls.iter().find(|(g, _)| *g == f) {
                r.clone()
            } else {
                let r = d10(world);
                group_rolls.push((f, r.clone()));
                r
            }
        } else {
            d10(world)
        };
        let total = roll.total + ini;
        emit(
            world,
            Ud10Event::InitiativeRolled(InitiativeRolled {
                who: c,
                roll,
                modifiers: vec![Modifier::new("Initiative skill", ini, RULE_INITIATIVE)],
                total,
                rule: RULE_INITIATIVE,
            }),
        );
    }
}

/// "The entity with the highest result opens the round, after that, the
/// character with the next lowest result can act". Ties: higher INI skill,
/// then higher DEX, then a random roll-off (Fray decides).
fn order(world: &mut Scene, who: &[Cid]) -> Vec<Cid> {
    let key = |world: &World, c: Cid| {
        let ini = view::get::<TurnState>(world, c)
            .and_then(|t| t.initiative)
            .unwrap_or(0);
        let s = stats(world, c);
        (ini, s.map_or(0, |s| s.ini), s.map_or(0, |s| s.dex))
    };
    let mut keyed: Vec<((i32, i32, i32), Cid)> = who.iter().map(|c| (key(world, *c), *c)).collect();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = Vec::with_capacity(keyed.len());
    let mut i = 0;
    while i < keyed.len() {
        let mut j = i + 1;
        while j < keyed.len() && keyed[j].0 == keyed[i].0 {
            j += 1;
        }
        // (Most stand alone on their result: no list for them.)
        if j == i + 1 {
            out.push(keyed[i].1);
            i = j;
            continue;
        }
        let mut tied: Vec<Cid> = keyed[i..j].iter().map(|k| k.1).collect();
        let between = tied.clone();
        // Fisher-Yates with the battle's one RNG.
        for k in (1..tied.len()).rev() {
            let r = world.dice().pick(k + 1);
            tied.swap(k, r);
        }
        out.extend_from_slice(&tied);
        emit(
            world,
            Ud10Event::TieBroken(TieBroken {
                between,
                order: tied,
                rule: RULE_TIES,
            }),
        );
        i = j;
    }
    out
}

/// The next in the order who still stands takes its turn (its
/// `TurnStarted` moves `Ud10Round::next` past it and prompts it), or the
/// round ends.
fn next_turn(world: &mut Scene) {
    let mut at = view::resource::<Ud10Round>(world).next;
    loop {
        let next = view::resource::<Ud10Round>(world).order.get(at).copied();
        let Some(who) = next else {
            let round = view::resource::<Battle>(world).round;
            emit(world, BattleEvent::RoundEnded(RoundEnded { round }));
            return;
        };
        at += 1;
        if !view::standing(world, who) {
            continue;
        }
        emit(world, BattleEvent::TurnStarted(TurnStarted { who }));
        let conds = view::conditions(world, who);
        for (c, rule) in [
            (
                Condition::Surprised,
                "ud10 §Attacking: surprise lasts until the first turn",
            ),
            (
                Condition::Moving,
                "ud10 §Attack Modifiers: opponent is moving",
            ),
            (Condition::Retreating, super::reach::RULE_RETREAT),
        ] {
            if conds.has(c) {
                emit(
                    world,
                    BattleEvent::ConditionRemoved(ConditionRemoved {
                        who,
                        condition: c,
                        rule,
                    }),
                );
            }
        }
        return;
    }
}
