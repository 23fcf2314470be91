//! The UD10 commands worth checking for an actor now: every kind, with
//! moves to every reachable cell. Reads only.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout, MoveMode};
use crate::rules::view;
use crate::rulesets::ud10::command::Ud10Command;

use super::{check, query, reach};

/// A representative list of legal commands for the actor now.
pub fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
    let mut out = Vec::new();
    let prompt = view::resource::<Battle>(world).prompt;
    if let Prompt::React { .. } = prompt {
        for c in [
            Command::from(Ud10Command::Parry),
            Command::Dodge,
            Command::NoReaction,
        ] {
            if check::check(world, actor, &c).is_ok() {
                out.push(c);
            }
        }
        return out;
    }
    if prompt != (Prompt::Act { actor }) {
        return out;
    }
    let mut push = |c: Command| {
        if check::check(world, actor, &c).is_ok() {
            out.push(c);
        }
    };
    push(Command::EndTurn);
    for (_, path, _) in reach::reach_paths(world, actor, reach::remaining_dm(world, actor)) {
        push(Command::Move { path });
    }
    let t = query::turn(world, actor);
    if t.movement == MoveMode::None && !t.action_used {
        let std_dm = reach::standard_dm(world, actor);
        for (_, path, _) in reach::reach_paths(world, actor, std_dm) {
            push(Command::from(Ud10Command::Retreat { path }));
        }
    }
    if let Some(l) = view::get::<Loadout>(world, actor) {
        for (i, w) in l.weapons.iter().enumerate() {
            for target in view::enemies(world, actor) {
                for mode in 0..w.mode_count() {
                    push(Command::Attack {
                        target,
                        weapon: i,
                        mode,
                    });
                }
                push(Command::from(Ud10Command::Aim { target, weapon: i }));
            }
            push(Command::from(Ud10Command::Reload { weapon: i }));
            push(Command::Draw { weapon: i });
        }
    }
    push(Command::from(Ud10Command::CutFree));
    for patient in super::first_aid::patients(world, actor) {
        push(Command::from(Ud10Command::FirstAid { patient }));
    }
    push(Command::from(Ud10Command::TakeCover));
    push(Command::from(Ud10Command::Stand));
    for facing in super::facing::facings(world, actor) {
        push(Command::from(Ud10Command::Face { facing }));
    }
    push(Command::Flee);
    out
}
