//! Where a zones character can move this turn, in zones (§Taking a turn),
//! who gets an opportunity attack as it leaves (§Opportunity attacks), and
//! whether it can outrun a chase off the map (§Chases). Reads only.

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition, MoveMode, TurnState};
use crate::rules::map::{Cell, Map};
use crate::rules::view;

use super::query::stats;
use super::state::ZonesRound;

pub const RULE_MOVE: &str = "zones §Taking a turn";
pub const RULE_OPPORTUNITY: &str = "zones §Opportunity attacks";

/// Zones `who` may still cross this turn.
pub fn remaining(world: &World, who: Cid) -> u32 {
    let Some(s) = stats(world, who) else { return 0 };
    let t = &view::resource::<ZonesRound>(world).turn;
    // A mount whose rider acted keeps to half speed (§Mounts and vehicles:
    // at full speed, riders "can't take any action").
    let cap = if t.acted() || super::turns::riders_acted(world, who) {
        s.half_speed()
    } else {
        s.full_speed()
    };
    (2 * cap).saturating_sub(t.spent_halves()) / 2
}

/// Cells `who` may not enter: held by an enemy, or outside every zone. Cells
/// held by allies may be crossed but not ended on.
pub(super) fn enemy_cells(world: &World, who: Cid) -> view::Cells {
    let mut v: view::Cells = view::enemies(world, who)
        .into_iter()
        .filter_map(|c| view::cell(world, c))
        .collect();
    v.sort();
    v
}

/// Every cell `who` can reach within `budget` zone crossings, by a 0-1
/// breadth-first search over cells: the zone crossings to each and the
/// way there. Paths are built only for the cells asked for.
///
/// The answers are kept per thread ([`kept_reach`] of them, by a hash of
/// their key), by all the search reads (the map, the start, the budget,
/// the cells enemies hold, the cells others hold): a battle asks the same
/// again when nobody has moved, and a batch of battles on one level asks
/// its searches again and again (more than four in five of them, kept
/// without bound, on `mirror_duel` and `ruined_keep` over a batch of
/// 1,000).
pub fn reach(world: &World, who: Cid, budget: u32) -> std::rc::Rc<ZoneReach> {
    let map = view::resource::<Map>(world);
    let Some(start) = view::cell(world, who).filter(|c| map.in_bounds(*c)) else {
        return std::rc::Rc::new(ZoneReach {
            start: Cell::new(-1, -1),
            width: map.width().max(0) as usize,
            cost: Vec::new(),
            parent: Vec::new(),
            occupied: view::Cells::new(),
        });
    };
    let held = enemy_cells(world, who);
    let occupied = view::occupied(world, Some(who));
    let Some(key) = map.key() else {
        return std::rc::Rc::new(search(map, start, budget, &held, occupied));
    };
    let cells = (map.width().max(0) * map.height().max(0)) as usize;
    let slots = kept_reach(cells);
    let slot = crate::rules::map::kept_slot(start, budget, &occupied, None, slots);
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        // Another size of map: its answers in place of the last map's.
        if kept.len() != slots {
            kept.clear();
            kept.resize_with(slots, || None);
        }
        if let Some(k) = &kept[slot]
            && k.tree.start == start
            && k.budget == budget
            && k.map.is(map)
            && k.held == held
            && k.tree.occupied == occupied
        {
            return k.tree.clone();
        }
        let tree = std::rc::Rc::new(search(map, start, budget, &held, occupied));
        kept[slot] = Some(Kept {
            map: key,
            budget,
            held,
            tree: tree.clone(),
        });
        tree
    })
}

/// How many bytes of answers [`reach`] keeps a thread, at most (a
/// search's costs and parents: 8 bytes a cell).
const KEPT_BYTES: usize = 1 << 20;

/// How many answers [`reach`] keeps a thread on a map of `cells` cells: as
/// many as [`KEPT_BYTES`] holds, no more than 256. (More ran no faster:
/// 5,461 on `mirror_duel` spared more searches and cost more in memory.
/// 256 ran a zones batch in 0.9 % less processor time than keeping only
/// the last answer on `mirror_duel` and 2.9 % less on `ruined_keep`, 15
/// runs each; 64, about 1.3 % more than 256.)
fn kept_reach(cells: usize) -> usize {
    (KEPT_BYTES / (8 * cells.max(1))).clamp(1, 256)
}

/// An answer [`reach`] keeps, and all its search read (the start and the
/// cells others hold are the answer's own).
struct Kept {
    map: crate::rules::map::MapKey,
    budget: u32,
    held: view::Cells,
    tree: std::rc::Rc<ZoneReach>,
}

thread_local! {
    /// The answers [`reach`] keeps, by a hash of their key.
    static KEPT: std::cell::RefCell<Vec<Option<Kept>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`reach`], searched: from `start` (on the map), never entering the
/// cells `held` (by enemies); `occupied`, the cells others hold, kept for
/// the answer.
fn search(map: &Map, start: Cell, budget: u32, held: &[Cell], occupied: view::Cells) -> ZoneReach {
    let w = map.width().max(0) as usize;
    let h = map.height().max(0) as usize;
    let idx = |c: Cell| c.y as usize * w + c.x as usize;
    let mut cost = vec![u32::MAX; w * h];
    let mut parent = vec![u32::MAX; w * h];
    let from = idx(start);
    // Cells enemies hold look already reached at no cost: no step improves
    // on that, so none is entered. Made unreached again after the search.
    let held: smallvec::SmallVec<[usize; 16]> = held
        .iter()
        .filter(|c| map.in_bounds(**c))
        .map(|c| idx(*c))
        .filter(|&i| i != from)
        .collect();
    for &i in &held {
        cost[i] = 0;
    }
    cost[from] = 0;
    let mut queue = VecDeque::with_capacity(w * h);
    queue.push_back(from);
    let offsets = map.step_offsets();
    while let Some(i) = queue.pop_front() {
        let base = cost[i];
        let zc = map.zone_at(i);
        // The neighbours row by row, as the search has always taken them
        // (`Map::step_indices`' order, its loop written out).
        let row = map.step_row_at(i);
        for k in 0..8 {
            if row[k] == u32::MAX {
                continue;
            }
            let j = (i as isize + offsets[k]) as usize;
            let Some(zn) = map.zone_at(j) else { continue };
            let step = u32::from(zc != Some(zn));
            let nc = base + step;
            if nc > budget || nc >= cost[j] {
                continue;
            }
            cost[j] = nc;
            parent[j] = i as u32;
            if step == 0 {
                queue.push_front(j);
            } else {
                queue.push_back(j);
            }
        }
    }
    for i in held {
        cost[i] = u32::MAX;
    }
    ZoneReach {
        start,
        width: w,
        cost,
        parent,
        occupied,
    }
}

/// The result of [`reach`].
pub struct ZoneReach {
    start: Cell,
    width: usize,
    cost: Vec<u32>,
    parent: Vec<u32>,
    /// Cells held by others (sorted): crossed, never ended on.
    occupied: view::Cells,
}

impl ZoneReach {
    fn cell(&self, i: usize) -> Cell {
        Cell::new((i % self.width) as i32, (i / self.width) as i32)
    }

    /// Every cell the move can end on but the start, in row order, with its
    /// zone crossings.
    pub fn reached(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        // The cost first: most of the map is out of reach.
        self.cost.iter().enumerate().filter_map(|(i, &k)| {
            if k == u32::MAX {
                return None;
            }
            let c = self.cell(i);
            (c != self.start && self.occupied.binary_search(&c).is_err()).then_some((c, k))
        })
    }

    /// The way to `c`: the cells after the start, up to and including `c`.
    pub fn path_to(&self, c: Cell) -> Vec<Cell> {
        let mut path = Vec::with_capacity(self.steps_to(c));
        let mut i = c.y as usize * self.width + c.x as usize;
        path.push(c);
        while let Some(&p) = self.parent.get(i) {
            let pc = self.cell(p as usize);
            if p == u32::MAX || pc == self.start {
                break;
            }
            path.push(pc);
            i = p as usize;
        }
        path.reverse();
        path
    }

    /// How many cells [`ZoneReach::path_to`] would give.
    pub fn steps_to(&self, c: Cell) -> usize {
        let mut n = 1;
        let mut i = c.y as usize * self.width + c.x as usize;
        while let Some(&p) = self.parent.get(i) {
            if p == u32::MAX || self.cell(p as usize) == self.start {
                break;
            }
            n += 1;
            i = p as usize;
        }
        n
    }
}

/// Zone borders a path crosses from `start`.
pub fn crossings(map: &Map, start: Cell, path: &[Cell]) -> u32 {
    let mut prev = map.zone_of(start);
    let mut n = 0;
    for c in path {
        let z = map.zone_of(*c);
        if z != prev {
            n += 1;
        }
        prev = z;
    }
    n
}

/// Check a move; on success, the zone borders it crosses.
pub fn check_move(world: &World, who: Cid, path: &[Cell]) -> Result<u32, Illegal> {
    let Some(start) = view::cell(world, who) else {
        return illegal("not on the map");
    };
    let Some(&last) = path.last() else {
        return illegal("an empty path");
    };
    let map = view::resource::<Map>(world);
    let enemies = enemy_cells(world, who);
    let mut prev = start;
    for c in path {
        if map.step_cost(prev, *c).is_none() {
            return illegal("not a path of adjacent passable cells");
        }
        if map.zone_of(*c).is_none() {
            return illegal(format!("{c} is in no zone"));
        }
        if enemies.binary_search(c).is_ok() {
            return illegal(format!("an enemy holds {c}"));
        }
        prev = *c;
    }
    if view::occupied(world, Some(who))
        .binary_search(&last)
        .is_ok()
    {
        return illegal(format!("{last} is occupied"));
    }
    let zones = crossings(map, start, path);
    let left = remaining(world, who);
    if zones > left {
        return illegal(format!(
            "{zones} zone{} is more than the {left} left this turn",
            if zones == 1 { "" } else { "s" }
        ));
    }
    if view::conditions(world, who).has(Condition::Broken) {
        retreating(world, who, path)?;
    }
    Ok(zones)
}

/// A broken character may only get away: the move must not end in a zone
/// holding an enemy, nor nearer (in zones) to the nearest enemy.
pub(super) fn retreating(world: &World, who: Cid, path: &[Cell]) -> Result<(), Illegal> {
    let (Some(start), Some(&end)) = (view::cell(world, who), path.last()) else {
        return Ok(());
    };
    let before = nearest_enemy_zones(world, who, start);
    let after = nearest_enemy_zones(world, who, end);
    if after == Some(0) || after < before {
        return illegal("broken by fear: only moves away from the enemy");
    }
    Ok(())
}

/// Zone steps from `at` to the nearest standing enemy of `who`.
pub fn nearest_enemy_zones(world: &World, who: Cid, at: Cell) -> Option<u32> {
    nearest_of(view::resource::<Map>(world), at, &enemy_zones(world, who))
}

/// The zones `who`'s standing enemies stand in, one entry each (what
/// [`nearest_enemy_zones`] measures from; found once for the many cells an
/// AI weighs).
pub fn enemy_zones(world: &World, who: Cid) -> smallvec::SmallVec<[usize; 16]> {
    let map = view::resource::<Map>(world);
    view::enemies(world, who)
        .into_iter()
        .filter_map(|e| view::cell(world, e).and_then(|c| map.zone_of(c)))
        .collect()
}

/// [`nearest_enemy_zones`] with the enemies' zones found ([`enemy_zones`]).
pub fn nearest_of(map: &Map, at: Cell, zones: &[usize]) -> Option<u32> {
    let z = map.zone_of(at)?;
    zones
        .iter()
        .filter_map(|ez| map.zone_distance(z, *ez))
        .min()
}

/// The mode a move makes: within half speed it keeps the actions.
pub fn mode_after(world: &World, who: Cid, zones: u32) -> MoveMode {
    let half = stats(world, who).map_or(1, |s| s.half_speed());
    let t = &view::resource::<ZonesRound>(world).turn;
    let moved = 2 * (t.zones + zones) + t.halves;
    if moved <= 2 * half {
        MoveMode::Standard
    } else {
        MoveMode::Full
    }
}

/// Enemies who may make an opportunity attack on `mover` leaving `zone`:
/// nearby, standing, aware of it and with their turn still to take.
pub fn opportunists(world: &World, mover: Cid, zone: usize) -> Vec<Cid> {
    if view::conditions(world, mover).has(Condition::Concealed) {
        return Vec::new();
    }
    let map = view::resource::<Map>(world);
    view::enemies(world, mover)
        .into_iter()
        .filter(|e| view::cell(world, *e).and_then(|c| map.zone_of(c)) == Some(zone))
        .filter(|e| view::get::<TurnState>(world, *e).is_some_and(|t| !t.done))
        .filter(|e| {
            let c = view::conditions(world, *e);
            !c.has(Condition::Broken) && !c.has(Condition::Grabbed)
        })
        .collect()
}

pub const RULE_CHASE: &str = "zones §Chases";

/// Leaving the fight over the map's edge, with §Chases: "If the fleeing
/// characters can move faster or keep the speed for longer, the save is not
/// required. If the opposite is true, escaping is impossible."
pub fn check_flee(world: &World, who: Cid) -> Result<(), Illegal> {
    if !view::on_map_edge(world, who) {
        return illegal("flee from a cell on the map's edge");
    }
    if chase(world, who) == Chase::Impossible {
        return illegal("the pursuers are faster: escaping is impossible (§Chases)");
    }
    Ok(())
}

/// How a chase would go for `who` leaving the map now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chase {
    /// Nobody can pursue, or the fugitive is faster: it escapes.
    Escapes,
    /// As fast as the fastest pursuer: an AGI save.
    Save,
    /// A pursuer is faster.
    Impossible,
}

/// Fray decides: the pursuers are the standing enemies free to run (not
/// broken, surrendered or grabbed); speed is full speed in zones.
pub fn chase(world: &World, who: Cid) -> Chase {
    let mine = stats(world, who).map_or(0, |s| s.full_speed());
    let fastest = view::enemies(world, who)
        .into_iter()
        .filter(|e| {
            let c = view::conditions(world, *e);
            !c.has(Condition::Broken) && !c.has(Condition::Grabbed)
        })
        .filter_map(|e| stats(world, e).map(|s| s.full_speed()))
        .max();
    match fastest {
        None => Chase::Escapes,
        Some(f) if mine > f => Chase::Escapes,
        Some(f) if mine == f => Chase::Save,
        Some(_) => Chase::Impossible,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::engine::Controls;
    use crate::testkit::{engine, start_shipped};

    /// A kept answer is the search's own; asked again it is given again,
    /// also after other searches; asked for another budget or start it is
    /// searched; and as a battle goes on (people moving, falling), every
    /// answer is what a search finds then.
    #[test]
    fn a_kept_zone_reach_is_the_searchs_own_and_only_for_its_own_key() {
        let mut e = engine();
        start_shipped(
            &mut e,
            "mirror_duel",
            crate::rulesets::zones::ID,
            5,
            Controls::AllAi,
        );
        let fresh = |w: &World, who: Cid, budget: u32| {
            let map = view::resource::<Map>(w);
            let start = view::cell(w, who).expect("on the map");
            search(
                map,
                start,
                budget,
                &enemy_cells(w, who),
                view::occupied(w, Some(who)),
            )
        };
        let same = |a: &ZoneReach, b: &ZoneReach| {
            a.start == b.start
                && a.cost == b.cost
                && a.parent == b.parent
                && a.occupied == b.occupied
        };
        let (a, b) = (Cid(0), Cid(1));
        view::reading(e.world(), |w| {
            let first = reach(w, a, 2);
            assert!(same(&first, &fresh(w, a, 2)));
            assert!(std::rc::Rc::ptr_eq(&first, &reach(w, a, 2)));
            for (who, budget) in [(a, 1), (b, 2)] {
                let other = reach(w, who, budget);
                assert!(!std::rc::Rc::ptr_eq(&first, &other));
                assert!(same(&other, &fresh(w, who, budget)));
            }
            assert!(std::rc::Rc::ptr_eq(&first, &reach(w, a, 2)));
        });
        // Step by step to the end: whoever stands, each answer is the
        // search's.
        let mut steps = 0;
        while e.outcome().is_none() && steps < 400 {
            e.run(1);
            steps += 1;
            view::reading(e.world(), |w| {
                for who in view::standing_all(w) {
                    for budget in 0..3 {
                        assert!(same(&reach(w, who, budget), &fresh(w, who, budget)));
                    }
                }
            });
        }
        assert!(e.outcome().is_some());
    }
}
