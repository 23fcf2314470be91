//! Opportunity attacks on a character who moves away (§Reacting to an
//! attack): each enemy it leaves may strike before the move goes on.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::event::{BattleEvent, ReactionDeclined};
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::event::{AttackMade, Reaction, ZonesEvent};

use super::blow::{blow, land, wit_to_hit};
use super::movement::resume_move;
use super::query::{can_react, nearby, weapon};
use super::round::end_turn;
use super::state::{MoveState, Pending, RULE_ATTACK, Waiting, ZonesRound};
use super::waiting::{offer, resume, taken};

/// The next enemy at the border is asked, or the move resumes.
pub(super) fn next_opportunist(world: &mut Scene) {
    let Some(m) = view::resource::<Pending>(world).moving.clone() else {
        return;
    };
    let mover = m.who;
    let still: Vec<Cid> = m
        .candidates
        .iter()
        .skip(1)
        .copied()
        .filter(|c| can_react(world, *c, mover) && nearby(world, *c, mover))
        .collect();
    if view::standing(world, mover)
        && let Some(&first) = still.first()
    {
        let waits = Waiting::Move(MoveState {
            candidates: still,
            ..m
        });
        offer(world, first, mover, waits);
        return;
    }
    resume_move(world);
}

/// An enemy at the border answers: strike at the mover, or let it go.
pub(super) fn opportunity_answer(world: &mut Scene, who: Cid, command: &Command, forgoes: String) {
    let Some(mover) = view::resource::<Pending>(world)
        .moving
        .as_ref()
        .map(|m| m.who)
    else {
        return;
    };
    match (command, command.own::<ZonesCommand>()) {
        (_, Some(ZonesCommand::Opportunity { weapon })) => {
            taken(
                world,
                who,
                Reaction::Opportunity,
                mover,
                super::reach::RULE_OPPORTUNITY,
            );
            if let Some(w) = self::weapon(world, who, *weapon) {
                emit(
                    world,
                    ZonesEvent::AttackMade(AttackMade {
                        attacker: who,
                        target: mover,
                        weapon: String::from(&*w.name),
                        weapon_index: *weapon,
                        mode: "opportunity".into(),
                        reaction: true,
                        rule: super::reach::RULE_OPPORTUNITY,
                    }),
                );
                if wit_to_hit(world, who, mover, &w, true, RULE_ATTACK) {
                    // The mover is in the middle of its own turn: it cannot
                    // react.
                    let b = blow(world, who, mover, &w, 0);
                    land(world, &b);
                }
            }
        }
        _ => emit(
            world,
            BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
        ),
    }
    next_opportunist(world);
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
