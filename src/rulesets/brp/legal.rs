//! The brp commands worth checking for an actor now: every statement it
//! could make, moves to every cell it can still reach, every action and
//! reaction the check accepts. Reads only.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::map::{Cell, Map, ReachTree};
use crate::rules::view;

use super::check;
use super::command::{BrpCommand, Intent};
use super::query::move_left;

/// Every cell `who` can still reach this round, as a search tree.
pub fn reach(world: &World, who: Cid) -> Option<ReachTree> {
    searched(world, who, |map, start, budget, held| {
        map.reach_tree_past(start, budget, held)
    })
}

/// The cheapest cell `who` can still reach this round that `wanted`
/// accepts (the least among equally cheap ones), and the way there: the
/// cell and path [`reach`]'s tree gives, found without searching beyond
/// it ([`Map::nearest_past`]). `Err`: none is wanted, and the whole tree.
pub fn nearest(
    world: &World,
    who: Cid,
    wanted: impl Fn(Cell) -> bool,
) -> Option<Result<Vec<Cell>, ReachTree>> {
    searched(world, who, |map, start, budget, held| {
        map.nearest_past(start, budget, held, wanted)
    })
}

/// Where `who` goes this round closing in on `goal`: the way to the
/// cheapest cell beside it it can reach, else to the reachable cell nearest
/// it by the way there (walls and moats counted), then the cheapest, if
/// nearer than where it stands ([`Map::toward_past`]). None: it stays.
pub fn toward(world: &World, who: Cid, goal: Cell) -> Option<Vec<Cell>> {
    searched(world, who, |map, start, budget, held| {
        map.toward_past(start, budget, held, goal)
    })
    .flatten()
}

/// A search of where `who` can still go this round: from its cell, as far
/// as its movement left, never into a cell another holds.
fn searched<T>(
    world: &World,
    who: Cid,
    search: impl FnOnce(&Map, Cell, u32, &[Cell]) -> T,
) -> Option<T> {
    let start = view::cell(world, who)?;
    let map = view::resource::<Map>(world);
    Some(search(
        map,
        start,
        move_left(world, who),
        &view::occupied(world, Some(who)),
    ))
}

/// The allies `actor` could tend (§5.14).
pub fn patients(world: &World, actor: Cid) -> Vec<Cid> {
    let f = view::faction(world, actor);
    view::all(world)
        .into_iter()
        .filter(|c| *c != actor && view::faction(world, *c) == f)
        .filter(|c| check::check_intent(world, actor, &Intent::FirstAid { patient: *c }).is_ok())
        .collect()
}

/// A representative list of legal commands for the actor now.
pub fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
    let mut out = Vec::new();
    let b = view::resource::<Battle>(world);
    let mut push = |c: Command| {
        if check::check(world, actor, &c).is_ok() {
            out.push(c);
        }
    };
    if let Prompt::React { .. } = b.prompt {
        push(Command::from(BrpCommand::Parry { shield: false }));
        push(Command::from(BrpCommand::Parry { shield: true }));
        push(Command::Dodge);
        push(Command::NoReaction);
        return out;
    }
    if b.prompt != (Prompt::Act { actor }) {
        return out;
    }
    let weapons = view::get::<Loadout>(world, actor).map_or(0, |l| l.weapons.len());
    match b.phase {
        Phase::Intent => {
            for target in view::enemies(world, actor) {
                for weapon in 0..weapons {
                    push(Command::from(BrpCommand::Declare(Intent::Attack {
                        target,
                        weapon,
                    })));
                }
            }
            for patient in patients(world, actor) {
                push(Command::from(BrpCommand::Declare(Intent::FirstAid {
                    patient,
                })));
            }
            for weapon in 0..weapons {
                push(Command::from(BrpCommand::Declare(Intent::Reload {
                    weapon,
                })));
            }
            push(Command::from(BrpCommand::Declare(Intent::Defend)));
        }
        Phase::Movement => {
            push(Command::EndTurn);
            push(Command::from(BrpCommand::Kneel));
            if let Some(tree) = reach(world, actor) {
                let start = view::cell(world, actor);
                for (cell, _) in tree.reached() {
                    if Some(cell) == start {
                        continue;
                    }
                    if let Some(path) = tree.path_to(cell) {
                        push(Command::Move { path });
                    }
                }
            }
        }
        Phase::Actions => {
            push(Command::EndTurn);
            for target in view::enemies(world, actor) {
                for weapon in 0..weapons {
                    push(Command::Attack {
                        target,
                        weapon,
                        mode: 0,
                    });
                }
            }
            for patient in patients(world, actor) {
                push(Command::from(BrpCommand::FirstAid { patient }));
            }
            for weapon in 0..weapons {
                push(Command::from(BrpCommand::Reload { weapon }));
            }
        }
        _ => {}
    }
    out
}
