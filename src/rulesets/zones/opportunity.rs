//! Opportunity attacks on a character who moves away (§Reacting to an
//! attack): each enemy it leaves may strike before the move goes on.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::event::BattleEvent;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::event::{Reaction, ZonesEvent};

use super::attack::{blow, land, wit_to_hit};
use super::movement::resume_move;
use super::query::{can_react, nearby, weapon};
use super::reaction::taken;
use super::state::{Pending, RULE_ATTACK};

/// The next enemy at the border is asked, or the move resumes.
pub(super) fn next_opportunist(world: &mut Scene) {
    let mover = view::resource::<Pending>(world)
        .moving
        .as_ref()
        .map(|m| m.who);
    let Some(mover) = mover else { return };
    let next = {
        let mut p = view::resource_mut::<Pending>(world.unlogged());
        let m = p.moving.as_mut().expect("checked above");
        if !m.candidates.is_empty() {
            m.candidates.remove(0);
        }
        m.candidates.clone()
    };
    let still: Vec<Cid> = next
        .into_iter()
        .filter(|c| can_react(world, *c, mover) && nearby(world, *c, mover))
        .collect();
    if view::standing(world, mover)
        && let Some(&first) = still.first()
    {
        if let Some(m) = view::resource_mut::<Pending>(world.unlogged())
            .moving
            .as_mut()
        {
            m.candidates = still.clone();
        }
        view::resource_mut::<Battle>(world.unlogged()).prompt = Prompt::React {
            actor: first,
            attacker: mover,
        };
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
                    ZonesEvent::AttackMade {
                        attacker: who,
                        target: mover,
                        weapon: String::from(&*w.name),
                        weapon_index: *weapon,
                        mode: "opportunity".into(),
                        reaction: true,
                        rule: super::reach::RULE_OPPORTUNITY,
                    },
                );
                if wit_to_hit(world, who, mover, &w, true, RULE_ATTACK) {
                    // The mover is in the middle of its own turn: it cannot
                    // react.
                    let b = blow(world, who, mover, &w, 0);
                    land(world, &b);
                }
            }
        }
        _ => emit(world, BattleEvent::ReactionDeclined { who, forgoes }),
    }
    next_opportunist(world);
}
