//! How the zones AI moves: towards the best attack, away when broken, to a
//! weapon on the ground; drawing for range, freeing a grabbed ally.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::zones::check::{self, Striker, check_strike_by};
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::data::MODE_STRIKE;
use crate::rulesets::zones::odds::damage_odds;
use crate::rulesets::zones::queries::{save_chance, stats};
use crate::rulesets::zones::reach::{nearest_enemy_zones, reach, remaining};
use crate::rulesets::zones::state::ZonesRound;
use crate::rulesets::zones::weapon::ZonesGear;

use super::value::{DOWN, turn_value};

/// With nothing but bare hands in hand, the best weapon lying nearby, if
/// the rules let it be picked up now.
pub(super) fn pick_up(world: &World, actor: Cid) -> Option<Command> {
    let l = view::get::<Loadout>(world, actor)?;
    let bare = l.ready.is_none_or(|r| r + 1 == l.weapons.len());
    if !bare {
        return None;
    }
    view::resource::<crate::rules::battle::Ground>(world)
        .0
        .iter()
        .enumerate()
        .map(|(item, (_, w))| {
            (
                w.damage.max(None),
                Command::from(ZonesCommand::PickUp { item }),
            )
        })
        .filter(|(_, c)| check::check(world, actor, c).is_ok())
        .max_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Pull a nearby held ally free when my own strike is worth less than the
/// ally's turn.
pub(super) fn free_an_ally(world: &World, actor: Cid, strike_v: f64) -> Option<Command> {
    let str_ = stats(world, actor).map_or(0, |s| s.str);
    view::allies(world, actor)
        .into_iter()
        .filter(|a| view::conditions(world, *a).has(Condition::Grabbed))
        .map(|a| Command::from(ZonesCommand::FreeAlly { who: a }))
        .find(|c| {
            let Some(ZonesCommand::FreeAlly { who }) = c.own::<ZonesCommand>() else {
                return false;
            };
            save_chance(world, str_) * turn_value(world, *who).max(2.0) > strike_v
                && check::check(world, actor, c).is_ok()
        })
}

pub(super) fn draw_for_range(world: &World, actor: Cid) -> Option<Command> {
    let striker = Striker::of(world, actor)?;
    let l = striker.loadout();
    for (i, w) in l.weapons.iter().enumerate() {
        if Some(i) != l.ready && w.is_ranged() {
            let cmd = Command::Draw { weapon: i };
            let can = view::enemies(world, actor)
                .into_iter()
                .any(|t| check_strike_by(world, &striker, t, i, MODE_STRIKE, false, true).is_ok());
            if can && check::check(world, actor, &cmd).is_ok() {
                return Some(cmd);
            }
        }
    }
    None
}

/// A move towards the enemy. `keep_actions`: only within half speed, and
/// only to a cell from which a strike is possible.
pub(super) fn approach(world: &World, actor: Cid, keep_actions: bool) -> Option<Vec<Cell>> {
    let s = stats(world, actor)?;
    let t = view::resource::<ZonesRound>(world).turn.clone();
    let budget = if keep_actions {
        (2 * s.half_speed()).saturating_sub(t.spent_halves()) / 2
    } else {
        remaining(world, actor)
    };
    if budget == 0 {
        return None;
    }
    let l = view::get::<Loadout>(world, actor)?;
    let ranged = l.ready_weapon().is_some_and(|w| w.is_ranged());
    let map = view::resource::<Map>(world);
    let enemies = view::enemies(world, actor);
    let enemy_cells: Vec<(Cid, Cell)> = enemies
        .iter()
        .filter_map(|e| view::cell(world, *e).map(|c| (*e, c)))
        .collect();
    let here = view::cell(world, actor)?;
    let here_dist = nearest_enemy_zones(world, actor, here).unwrap_or(u32::MAX);
    // What a blow is worth on each enemy, and where each stands (the same
    // for every cell weighed below).
    let w = l.ready_weapon();
    let targets: Vec<(Cell, usize, f64)> = enemy_cells
        .iter()
        .filter_map(|&(e, ec)| {
            let value = w.map_or(1.0, |w| {
                let o = damage_odds(world, actor, e, w, MODE_STRIKE);
                o.mean + DOWN * o.p_down
            });
            Some((ec, map.zone_of(ec)?, value))
        })
        .collect();
    let mut best: Option<(f64, Cell)> = None;
    let tree = reach(world, actor, budget);
    for (cell, cost) in tree.reached() {
        if cost == 0 {
            continue;
        }
        let Some(z) = map.zone_of(cell) else { continue };
        let mut score = 0.0;
        let mut nearest = 99;
        for &(ec, ez, value) in &targets {
            let d = map.zone_distance(z, ez).unwrap_or(99);
            nearest = nearest.min(d);
            let strikes = match w {
                Some(w) if w.is_ranged() => {
                    map.line_of_sight(cell, ec) && 2 * d <= w.zones().range_zones.max(1)
                }
                _ => d == 0,
            };
            if strikes {
                score = f64::max(score, 10.0 + value);
            }
        }
        if keep_actions && score == 0.0 {
            continue;
        }
        if score == 0.0 {
            // Plain approach: nearer is better; archers stay two zones off.
            let want = if ranged { 2 } else { 0 };
            score = 5.0 - f64::from(nearest.abs_diff(want));
            if nearest >= here_dist && !ranged {
                continue;
            }
        }
        // Prefer short paths and cells next to the target.
        let closeness = enemy_cells
            .iter()
            .map(|(_, ec)| Map::chebyshev(*ec, cell))
            .min()
            .unwrap_or(0);
        score -= 0.01 * f64::from(closeness) + 0.001 * tree.steps_to(cell) as f64;
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, cell));
        }
    }
    best.map(|b| tree.path_to(b.1))
}

/// "Those who fail must surrender or retreat": get away if possible,
/// else leave the map, else surrender.
pub(super) fn broken(world: &World, actor: Cid) -> Command {
    // A rider is carried off by its mount, which goes first; if it did not
    // get away, the rider gives up.
    if let Some(m) = view::riding(world, actor) {
        return if crate::rulesets::zones::riders::moving(world, m) {
            Command::EndTurn
        } else {
            Command::from(ZonesCommand::Surrender)
        };
    }
    if crate::rulesets::zones::reach::check_flee(world, actor).is_ok() {
        return Command::Flee;
    }
    let here = view::cell(world, actor);
    let here_d = here.and_then(|c| nearest_enemy_zones(world, actor, c));
    let mut best: Option<(u32, Vec<Cell>)> = None;
    let tree = reach(world, actor, remaining(world, actor));
    for (cell, _) in tree.reached() {
        let d = nearest_enemy_zones(world, actor, cell).unwrap_or(99);
        // Only a cell farther than the best yet needs the legality check.
        if best.as_ref().is_some_and(|b| d <= b.0) {
            continue;
        }
        let path = tree.path_to(cell);
        let cmd = Command::Move { path: path.clone() };
        if check::check(world, actor, &cmd).is_err() {
            continue;
        }
        best = Some((d, path));
    }
    match best {
        Some((d, path)) if Some(d) > here_d => Command::Move { path },
        _ => {
            if view::resource::<ZonesRound>(world).turn.zones > 0 {
                Command::EndTurn
            } else {
                Command::from(ZonesCommand::Surrender)
            }
        }
    }
}
