//! The zones commands worth checking for an actor now: every kind, with
//! moves to every reachable zone. Reads only.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Ground, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::map::Cell;
use crate::rules::roster::Factions;
use crate::rules::view;
use crate::rulesets::zones::command::{Influence, Maneuver, ZonesCommand};

use super::state::ZonesRound;
use super::{check, query, reach};

/// A representative list of legal commands for the actor now.
pub fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
    let mut out = Vec::new();
    let mut push = |c: Command| {
        if check::check(world, actor, &c).is_ok() {
            out.push(c);
        }
    };
    match view::resource::<Battle>(world).prompt {
        Prompt::None => {}
        Prompt::Activate { faction, .. } => activation(world, faction, &mut push),
        Prompt::React { attacker, .. } => reactions(world, actor, attacker, &mut push),
        Prompt::Act { .. } => turn(world, actor, &mut push),
    }
    out
}

/// The non-lethal attacks one could try on `target`: a shove, a grapple,
/// and a disarm of each weapon it can drop.
pub fn maneuvers(world: &World, target: Cid) -> Vec<Maneuver> {
    let mut v = vec![Maneuver::Shove, Maneuver::Grapple];
    if let Some(l) = view::get::<Loadout>(world, target) {
        for (weapon, w) in l.weapons.iter().enumerate() {
            if w.hands > 0 {
                v.push(Maneuver::Disarm { weapon });
            }
        }
    }
    v
}

/// Split attacks worth offering: the weapon in hand shared evenly between
/// two nearby smaller enemies, or half to one and a quarter to each of two
/// others (shares that come out in whole dice).
pub fn split_candidates(world: &World, actor: Cid) -> Vec<Command> {
    let Some(weapon) = view::get::<Loadout>(world, actor).and_then(|l| l.ready) else {
        return Vec::new();
    };
    let me = query::size_rank(world, actor);
    let smaller: Vec<(Cid, u32)> = view::enemies(world, actor)
        .into_iter()
        .filter(|t| query::melee_reach(world, actor, *t))
        .filter_map(|t| {
            let diff = me - query::size_rank(world, t);
            (diff >= 1).then(|| (t, 1u32 << diff))
        })
        .collect();
    let mut out = Vec::new();
    for (i, &(a, fa)) in smaller.iter().enumerate() {
        for (j, &(b, fb)) in smaller.iter().enumerate().skip(i + 1) {
            out.push(Command::from(ZonesCommand::SplitAttack {
                weapon,
                shares: vec![(a, fa / 2), (b, fb / 2)],
            }));
            for &(c, _) in smaller.iter().skip(j + 1) {
                for (half, q1, q2) in [(a, b, c), (b, a, c), (c, a, b)] {
                    let full = |x: Cid| smaller.iter().find(|s| s.0 == x).map_or(0, |s| s.1);
                    if full(q1) >= 4 && full(q2) >= 4 {
                        out.push(Command::from(ZonesCommand::SplitAttack {
                            weapon,
                            shares: vec![
                                (half, full(half) / 2),
                                (q1, full(q1) / 4),
                                (q2, full(q2) / 4),
                            ],
                        }));
                    }
                }
            }
        }
    }
    out
}

/// §Procedure: the faction's choices when it is its activation.
fn activation(world: &World, faction: u8, push: &mut impl FnMut(Command)) {
    for who in super::check::eligible(world, faction) {
        push(Command::from(ZonesCommand::Activate { who }));
    }
    push(Command::from(ZonesCommand::Pass));
    for f in 0..view::resource::<Factions>(world).0.len() {
        push(Command::from(ZonesCommand::FirstTurnTo {
            faction: f as u8,
        }));
    }
}

/// §Reactions: the attacked character's answers to `attacker`.
fn reactions(world: &World, actor: Cid, attacker: Cid, push: &mut impl FnMut(Command)) {
    push(Command::from(ZonesCommand::Accept));
    push(Command::NoReaction);
    push(Command::Dodge);
    push(Command::from(ZonesCommand::Guard));
    let n = view::get::<Loadout>(world, actor).map_or(0, |l| l.weapons.len());
    for weapon in 0..n {
        push(Command::from(ZonesCommand::Counter { weapon }));
        push(Command::from(ZonesCommand::Opportunity { weapon }));
    }
    for kind in maneuvers(world, attacker) {
        push(Command::from(ZonesCommand::CounterManeuver { kind }));
    }
    for who in view::all(world) {
        if who != attacker && who != actor {
            push(Command::from(ZonesCommand::HideBehind { who }));
        }
    }
}

/// §Taking a turn: what the acting character may try.
fn turn(world: &World, actor: Cid, push: &mut impl FnMut(Command)) {
    push(Command::EndTurn);
    push(Command::from(ZonesCommand::Reserve));
    for item in 0..view::resource::<Ground>(world).0.len() {
        push(Command::from(ZonesCommand::PickUp { item }));
    }
    for b in view::resource::<ZonesRound>(world).team.clone() {
        if let Some(who) = b.who {
            push(Command::from(ZonesCommand::Activate { who }));
        }
    }
    for mount in view::allies(world, actor) {
        push(Command::from(ZonesCommand::Mount { mount }));
    }
    if let Some(at) = view::riding(world, actor).and_then(|m| view::cell(world, m)) {
        for dy in -1..=1 {
            for dx in -1..=1 {
                push(Command::from(ZonesCommand::Dismount {
                    to: Cell::new(at.x + dx, at.y + dy),
                }));
            }
        }
    }
    push(Command::from(ZonesCommand::BreakFree));
    for who in view::allies(world, actor) {
        push(Command::from(ZonesCommand::FreeAlly { who }));
    }
    for target in view::enemies(world, actor) {
        for kind in maneuvers(world, target) {
            push(Command::from(ZonesCommand::Maneuver { target, kind }));
        }
    }
    let tree = reach::reach(world, actor, reach::remaining(world, actor));
    for (cell, _) in tree.reached() {
        push(Command::Move {
            path: tree.path_to(cell),
        });
    }
    if let Some(l) = view::get::<Loadout>(world, actor) {
        for (i, w) in l.weapons.iter().enumerate() {
            for target in view::all(world) {
                for mode in 0..w.mode_count() {
                    push(Command::Attack {
                        target,
                        weapon: i,
                        mode,
                    });
                }
            }
            push(Command::Draw { weapon: i });
        }
    }
    for c in split_candidates(world, actor) {
        push(c);
    }
    for target in view::enemies(world, actor) {
        for kind in Influence::ALL {
            push(Command::from(ZonesCommand::Influence { target, kind }));
        }
    }
    let (items, powers) =
        query::stats(world, actor).map_or((0, 0), |s| (s.items.len(), s.powers.len()));
    for item in 0..items {
        for on in view::all(world) {
            push(Command::from(ZonesCommand::UseItem { item, on }));
        }
    }
    for power in 0..powers {
        for target in view::all(world) {
            push(Command::from(ZonesCommand::Invoke { power, target }));
        }
    }
    push(Command::from(ZonesCommand::Hide));
    push(Command::from(ZonesCommand::Surrender));
    push(Command::Flee);
}
