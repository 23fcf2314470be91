//! How the zones AI moves: towards the best attack, away when broken, to a
//! weapon on the ground; drawing for range, freeing a grabbed ally.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Loadout, Weapon};
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::zones::check;
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::modes::MODE_STRIKE;
use crate::rulesets::zones::numbers::damage_odds;
use crate::rulesets::zones::query::{save_chance, stats};
use crate::rulesets::zones::reach::{
    ZoneReach, enemy_zones, nearest_enemy_zones, nearest_of, reach, remaining,
};
use crate::rulesets::zones::state::ZonesRound;
use crate::rulesets::zones::strike::{Strike, Striker};
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
            let can = view::each_enemy(world, actor).any(|target| {
                striker.may(
                    world,
                    Strike {
                        target,
                        index: i,
                        mode: MODE_STRIKE,
                        reaction: false,
                        drawn: true,
                    },
                )
            });
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
    let budget = if keep_actions {
        half_speed_left(world, actor)?
    } else {
        remaining(world, actor)
    };
    approach_within(world, actor, budget, keep_actions)
}

/// What is left of half speed this turn, in zones.
fn half_speed_left(world: &World, actor: Cid) -> Option<u32> {
    let s = stats(world, actor)?;
    let t = view::resource::<ZonesRound>(world).turn.clone();
    Some((2 * s.half_speed()).saturating_sub(t.spent_halves()) / 2)
}

/// A concealed character's move towards the enemy: within half speed, as
/// sneaking is (§Sneaking in combat), wherever it leads.
pub(super) fn sneak_closer(world: &World, actor: Cid) -> Option<Vec<Cell>> {
    approach_within(world, actor, half_speed_left(world, actor)?, false)
}

/// A move towards the enemy within `budget` zones; `keep_actions`: only to
/// a cell from which a strike is possible.
fn approach_within(
    world: &World,
    actor: Cid,
    budget: u32,
    keep_actions: bool,
) -> Option<Vec<Cell>> {
    if budget == 0 {
        return None;
    }
    let weighing = Weighing::of(world, actor, keep_actions)?;
    if keep_actions && weighing.out_of_reach(budget) {
        return None;
    }
    let tree = reach(world, actor, budget);
    weighing.best_cell(&tree).map(|cell| tree.path_to(cell))
}

/// What an approach weighs every cell it may reach against, worked out
/// once for the whole search.
struct Weighing<'w> {
    map: &'w Map,
    /// Only a cell from which a strike is possible will do.
    keep_actions: bool,
    /// Where the mover stands.
    here: Cell,
    /// Zones from `here` to the nearest enemy.
    here_dist: u32,
    /// A ranged weapon in hand with shots left: its bearer keeps its
    /// distance. (A bow without arrows is no reason to.)
    ranged: bool,
    /// The ranged weapon in hand, if any.
    shooting: Option<&'w Weapon>,
    /// Where each enemy stands.
    enemy_cells: Vec<Cell>,
    /// Each enemy's cell and zone, and what a blow is worth on it.
    targets: Vec<(Cell, usize, f64)>,
    /// What a cell's zone gives every cell in it: the zones from it to the
    /// nearest target, and (with a weapon that is not ranged) the best blow
    /// struck there.
    by_zone: Vec<(u32, f64)>,
}

impl<'w> Weighing<'w> {
    /// Where `actor` and its enemies stand, and what a blow with the
    /// weapon in hand is worth on each (the same for every cell weighed).
    fn of(world: &'w World, actor: Cid, keep_actions: bool) -> Option<Weighing<'w>> {
        let l = view::get::<Loadout>(world, actor)?;
        let w = l.ready_weapon();
        let ranged = w.is_some_and(|w| w.is_ranged() && w.spare != Some(0));
        let map = view::resource::<Map>(world);
        let enemy_cells: Vec<(Cid, Cell)> = view::enemies(world, actor)
            .iter()
            .filter_map(|e| view::cell(world, *e).map(|c| (*e, c)))
            .collect();
        let here = view::cell(world, actor)?;
        let here_dist = nearest_enemy_zones(world, actor, here).unwrap_or(u32::MAX);
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
        Some(Weighing {
            map,
            keep_actions,
            here,
            here_dist,
            ranged,
            shooting: w.filter(|w| w.is_ranged()),
            enemy_cells: enemy_cells.into_iter().map(|(_, c)| c).collect(),
            by_zone: by_zone(map, &targets),
            targets,
        })
    }

    /// No enemy stands near enough to be struck from any cell within
    /// `budget` zone crossings, so no cell to strike from is searched for.
    /// (The crossings a move makes are at least the zones' distance, which
    /// counts no occupant and no corner; a cell `budget` crossings off is
    /// at least the enemy's distance less `budget` from it.)
    fn out_of_reach(&self, budget: u32) -> bool {
        let Some(mine) = self.map.zone_of(self.here) else {
            return false;
        };
        let reach_zones = self
            .shooting
            .map_or(0, |w| w.zones().range_zones.max(1) / 2);
        // (Zones with no way between are 99 apart, as below.)
        !self
            .targets
            .iter()
            .any(|&(_, ez, _)| match self.map.zone_distance(mine, ez) {
                Some(d) => d <= budget.saturating_add(reach_zones),
                None => 99 <= reach_zones,
            })
    }

    /// The best cell of `tree` to move to, if any is worth it: the best
    /// score, less a little for the enemy's distance and the path's length.
    fn best_cell(&self, tree: &ZoneReach) -> Option<Cell> {
        let mut best: Option<(f64, Cell)> = None;
        for (cell, cost) in tree.reached() {
            if cost == 0 {
                continue;
            }
            let Some(mut score) = self.score(cell) else {
                continue;
            };
            // Nearness and the path's length only lower the score: a cell
            // that cannot beat the best so far without them is not weighed.
            if best.as_ref().is_some_and(|b| score <= b.0) {
                continue;
            }
            // Prefer short paths and cells next to the target.
            let closeness = self
                .enemy_cells
                .iter()
                .map(|ec| Map::chebyshev(*ec, cell))
                .min()
                .unwrap_or(0);
            // The path's length only lowers the score: a cell that cannot beat
            // the best so far without it is not walked back to the start.
            if best
                .as_ref()
                .is_some_and(|b| score - 0.01 * f64::from(closeness) <= b.0)
            {
                continue;
            }
            score -= 0.01 * f64::from(closeness) + 0.001 * tree.steps_to(cell) as f64;
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, cell));
            }
        }
        best.map(|b| b.1)
    }

    /// What moving to `cell` is worth before nearness and the path's
    /// length: the best blow or shot from it, else (when a strike is not
    /// required) a plain approach, nearer being better and archers staying
    /// two zones off; none for a cell no nearer than here.
    fn score(&self, cell: Cell) -> Option<f64> {
        let z = self.map.zone_of(cell)?;
        let &(nearest, blow) = self.by_zone.get(z)?;
        let score = match self.shooting {
            Some(w) => self.shot_from(z, cell, w),
            None => blow,
        };
        if score != 0.0 {
            return Some(score);
        }
        if self.keep_actions || (nearest >= self.here_dist && !self.ranged) {
            return None;
        }
        let want = if self.ranged { 2 } else { 0 };
        Some(5.0 - f64::from(nearest.abs_diff(want)))
    }

    /// The best shot with `w` from `cell`, in zone `z`, at a target within
    /// range and in sight (§Attacking: "within range"); 0 for none.
    fn shot_from(&self, z: usize, cell: Cell, w: &Weapon) -> f64 {
        let mut score = 0.0;
        for &(ec, ez, value) in &self.targets {
            let d = self.map.zone_distance(z, ez).unwrap_or(99);
            if 2 * d <= w.zones().range_zones.max(1) && self.map.line_of_sight(cell, ec) {
                score = f64::max(score, 10.0 + value);
            }
        }
        score
    }
}

/// For each zone of the map: the zones from it to the nearest of
/// `targets`, and the best blow struck there (10 and the blow's worth, for
/// a target in that very zone).
fn by_zone(map: &Map, targets: &[(Cell, usize, f64)]) -> Vec<(u32, f64)> {
    (0..map.zones().len())
        .map(|z| {
            let mut nearest = 99;
            let mut blow = 0.0;
            for &(_, ez, value) in targets {
                let d = map.zone_distance(z, ez).unwrap_or(99);
                nearest = nearest.min(d);
                if d == 0 {
                    blow = f64::max(blow, 10.0 + value);
                }
            }
            (nearest, blow)
        })
        .collect()
}

/// "Those who fail must surrender or retreat": leave the map if possible,
/// else head for the way off it, else keep away from the enemy while an
/// ally fights on, else surrender.
pub(super) fn broken(world: &World, actor: Cid) -> Command {
    // A rider is carried off by its mount, which goes first; if it did not
    // get away, the rider gives up.
    if let Some(m) = view::riding(world, actor) {
        return if crate::rulesets::zones::turns::moving(world, m) {
            Command::EndTurn
        } else {
            Command::from(ZonesCommand::Surrender)
        };
    }
    if crate::rulesets::zones::reach::check_flee(world, actor).is_ok() {
        return Command::Flee;
    }
    let give_up = || {
        if view::resource::<ZonesRound>(world).turn.zones > 0 {
            Command::EndTurn
        } else {
            Command::from(ZonesCommand::Surrender)
        }
    };
    // Retreat means leaving: towards the nearest way off the map. (One
    // search and one look at where the enemies stand serve every cell and
    // both ways of getting away.)
    let here = view::cell(world, actor);
    let map = view::resource::<Map>(world);
    let exits = map.exit_distances();
    let enemies = enemy_zones(world, actor);
    let searched = std::cell::OnceCell::new();
    let tree = || searched.get_or_init(|| reach(world, actor, remaining(world, actor)));
    if let Some(here_exit) = here.and_then(|c| exits.cost(c)) {
        let best = best_legal_move(world, actor, tree(), |cell| {
            let to_exit = exits.cost(cell).filter(|d| *d < here_exit)?;
            let away = nearest_of(map, cell, &enemies).unwrap_or(99);
            Some((to_exit, std::cmp::Reverse(away)))
        });
        if let Some((_, path)) = best {
            return Command::Move { path };
        }
    }
    // No way off the map (a cave), or none nearer: Fray decides that the
    // broken keep as far from the enemy as they can while an ally still
    // fights, and that the last of a side who can fight no more
    // surrenders. (Broken fighters running in circles inside walls from
    // pursuers as fast as they once lasted until the round limit.)
    if !super::value::ally_can_harm(world, actor, false) {
        return give_up();
    }
    let here_d = here.and_then(|c| nearest_of(map, c, &enemies));
    let best = best_legal_move(world, actor, tree(), |cell| {
        Some(std::cmp::Reverse(
            nearest_of(map, cell, &enemies).unwrap_or(99),
        ))
    });
    match best {
        Some((std::cmp::Reverse(d), path)) if Some(d) > here_d => Command::Move { path },
        _ => give_up(),
    }
}

/// The legal move in `tree` to the cell of lowest `key` (cells without one
/// are not weighed; ties go to the first in the tree's order). The cells
/// are tried best first: only those better than the first legal one are
/// checked and found wanting. The best is nearly always legal: it is
/// found and tried before the others are put in order.
fn best_legal_move<K: Ord>(
    world: &World,
    actor: Cid,
    tree: &ZoneReach,
    key: impl Fn(Cell) -> Option<K>,
) -> Option<(K, Vec<Cell>)> {
    let order = |a: &(K, usize, Cell), b: &(K, usize, Cell)| a.0.cmp(&b.0).then(a.1.cmp(&b.1));
    let legal = |cell: Cell| {
        let path = tree.path_to(cell);
        check::check(world, actor, &Command::Move { path: path.clone() })
            .is_ok()
            .then_some(path)
    };
    let mut cells: Vec<(K, usize, Cell)> = tree
        .reached()
        .enumerate()
        .filter_map(|(n, (cell, _))| key(cell).map(|k| (k, n, cell)))
        .collect();
    let first = (0..cells.len()).min_by(|&i, &j| order(&cells[i], &cells[j]))?;
    let (k, _, cell) = cells.swap_remove(first);
    if let Some(path) = legal(cell) {
        return Some((k, path));
    }
    cells.sort_unstable_by(order);
    cells
        .into_iter()
        .find_map(|(k, _, cell)| legal(cell).map(|path| (k, path)))
}
