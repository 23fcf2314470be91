//! The zones round (§Combat procedure): the faction holding the initiative
//! decides which faction acts first; factions alternate taking a turn with
//! one character or passing; each character takes at most one turn a round;
//! the round ends when all factions pass in a row, then morale is checked.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Condition};
use crate::rules::dice::{DiceExpr, RollOptions};
use crate::rules::event::{BattleEvent, RoundEnded, RoundStarted, TurnEnded, TurnStarted};
use crate::rules::roster::Factions;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::zones::event::{
    Activated, ActivationOffered, InitiativeHeld, Passed, PlayGoesTo, TurnReserved, ZonesEvent,
};

use super::check::first_eligible;
use super::riders::RULE_MOUNTS;
use super::state::ZonesRound;

pub const RULE_PROCEDURE: &str = "zones §Combat procedure";
pub const RULE_INITIATIVE: &str =
    "zones §Combat procedure: initiative is held by the faction which started the fight";

/// Move the battle on when nothing is prompted.
pub fn advance(world: &mut Scene) {
    let b = view::resource::<Battle>(world);
    if b.is_over() || b.prompt != Prompt::None {
        return;
    }
    match b.phase {
        Phase::Setup => {
            choose_holder(world);
            // "At the start of the fight, concealed characters play a bonus
            // round, during which only they can act."
            let ambush = view::standing_all(world)
                .into_iter()
                .any(|c| view::conditions(world, c).has(Condition::Concealed));
            if ambush {
                start_bonus_round(world);
            } else {
                start_round(world);
            }
        }
        Phase::RoundEnd => start_round(world),
        _ => next_activation(world),
    }
}

/// "Initiative is held by the faction which started the fight, or is
/// assigned randomly if that's unclear."
fn choose_holder(world: &mut Scene) {
    let factions = view::resource::<Factions>(world).0.clone();
    let starter = factions.iter().position(|f| f.starts_fight);
    let (holder, roll) = match starter {
        Some(f) => (f as u8, None),
        None => {
            let n = factions.len().max(1);
            let expr = DiceExpr::parse(&format!("d{n}")).unwrap_or_else(|_| DiceExpr::flat(1));
            let roll = expr.roll(&mut world.dice(), &RollOptions::default());
            (((roll.total - 1).max(0) as usize % n) as u8, Some(roll))
        }
    };
    emit(
        world,
        ZonesEvent::InitiativeHeld(InitiativeHeld {
            faction: holder,
            roll,
            rule: RULE_INITIATIVE,
        }),
    );
}

/// Round 0: the concealed characters' bonus round (its `RoundStarted`
/// marks it so in the round's state).
fn start_bonus_round(world: &mut Scene) {
    emit(world, BattleEvent::RoundStarted(RoundStarted { round: 0 }));
    next_activation(world);
}

/// A round: its `RoundStarted` sets the round's state afresh (apply).
fn start_round(world: &mut Scene) {
    let round = view::resource::<Battle>(world).round + 1;
    emit(world, BattleEvent::RoundStarted(RoundStarted { round }));
    next_activation(world);
}

/// Ask the next faction to take a turn or pass; a faction with nobody
/// left to act must pass. All factions passing in a row ends the round.
pub fn next_activation(world: &mut Scene) {
    let n = view::resource::<Factions>(world).0.len();
    loop {
        let (next, passes) = {
            let r = view::resource::<ZonesRound>(world);
            (r.next, r.passes)
        };
        if passes >= n {
            end_round(world);
            return;
        }
        if let Some(speaker) = view::reading(world, |world| first_eligible(world, next)) {
            emit(
                world,
                ZonesEvent::ActivationOffered(ActivationOffered {
                    faction: next,
                    speaker,
                    rule: RULE_PROCEDURE,
                }),
            );
            return;
        }
        // A faction with nobody standing passes without a word (the
        // player's log); the pass still counts (apply).
        let gone = super::query::standing_in_faction(world, next as usize) == 0;
        emit(
            world,
            ZonesEvent::Passed(Passed {
                faction: next,
                forced: true,
                gone,
                rule: RULE_PROCEDURE,
            }),
        );
    }
}

/// The faction takes its turn with `who`.
pub fn activate(world: &mut Scene, faction: u8, who: Cid) {
    emit(
        world,
        ZonesEvent::Activated(Activated {
            faction,
            who,
            rule: RULE_PROCEDURE,
        }),
    );
    // Its apply gives the turn (and the pair's: "Mounts and riders ...
    // take turn together").
    emit(world, BattleEvent::TurnStarted(TurnStarted { who }));
}

/// End `who`'s turn: the next of its pair goes on with the turn, else play
/// passes to the next faction.
pub fn end_turn(world: &mut Scene, who: Cid) {
    if view::resource::<Battle>(world).prompt == (Prompt::Act { actor: who }) {
        emit(world, BattleEvent::TurnEnded(TurnEnded { who }));
    }
    finish_part(world, who);
}

/// `who` is through with its part of the turn (ended or reserved): the next
/// of its pair goes on, else play passes to the next faction.
pub fn finish_part(world: &mut Scene, who: Cid) {
    if super::mounts::next_of_pair(world, who) {
        return;
    }
    let n = view::resource::<Factions>(world).0.len().max(1) as u8;
    let f = view::faction(world, who).unwrap_or(0);
    emit(
        world,
        ZonesEvent::PlayGoesTo(PlayGoesTo {
            faction: (f + 1) % n,
            rule: RULE_PROCEDURE,
        }),
    );
}

fn end_round(world: &mut Scene) {
    super::morale::check(world);
    let round = view::resource::<Battle>(world).round;
    emit(world, BattleEvent::RoundEnded(RoundEnded { round }));
}

/// Keep the turn to react: the next of the pair goes on, else play passes.
pub fn reserve(world: &mut Scene, who: Cid) {
    emit(
        world,
        ZonesEvent::TurnReserved(TurnReserved {
            who,
            rule: RULE_MOUNTS,
        }),
    );
    super::round::finish_part(world, who);
}
