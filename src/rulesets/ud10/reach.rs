//! Where a combatant can move this turn and whom it threatens (§Movement,
//! §Optional Rule: Fleeing From Battle, §Optional Rule: Retreat): the checks
//! of moving, retreating and fleeing. Reads only.

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition, Loadout, MoveMode, WeaponKind};
use crate::rules::map::{Cell, Map, ORTHO_DM, ReachTree};
use crate::rules::view;

use super::query::{Turn, stats, turn};
use super::settings::Ud10Settings;

pub const RULE_MOVEMENT: &str = "ud10 §Movement";
pub const RULE_FLEEING: &str = "ud10 §Optional Rule: Fleeing From Battle";
pub const RULE_RETREAT: &str = "ud10 §Optional Rule: Retreat";

/// Standard movement: "5 meters plus her STR attribute", in decimetres.
pub fn standard_dm(world: &World, cid: Cid) -> u32 {
    let str_ = stats(world, cid).map_or(0, |s| s.str);
    ((5 + str_).max(0) as u32) * 10
}

/// Full movement: "up to two times as far as her standard movement".
pub fn full_dm(world: &World, cid: Cid) -> u32 {
    2 * standard_dm(world, cid)
}

/// The furthest the combatant may still move this turn, in decimetres.
pub fn remaining_dm(world: &World, cid: Cid) -> u32 {
    remaining_dm_in(world, cid, &turn(world, cid))
}

/// [`remaining_dm`], the combatant's turn `t` read already.
pub fn remaining_dm_in(world: &World, cid: Cid, t: &Turn) -> u32 {
    if t.movement == MoveMode::Retreat || (t.action_used && t.moved_before_action) {
        return 0;
    }
    let cap = if t.action_used {
        standard_dm(world, cid)
    } else {
        full_dm(world, cid)
    };
    cap.saturating_sub(t.moved_dm)
}

/// Cells blocked for `who`'s movement: those held by other standing combatants.
pub fn blocker(world: &World, who: Cid) -> impl Fn(Cell) -> bool + use<> {
    let occ = view::occupied(world, Some(who));
    move |c: Cell| occ.binary_search(&c).is_ok()
}

/// Cost of a path of adjacent, passable, unoccupied cells from `start`.
pub(super) fn path_cost(
    world: &World,
    who: Cid,
    start: Cell,
    path: &[Cell],
) -> Result<u32, Illegal> {
    let Some(cost) = view::resource::<Map>(world).path_cost(start, path) else {
        return illegal("not a path of adjacent passable cells");
    };
    let blocked = blocker(world, who);
    if let Some(c) = path.iter().find(|c| blocked(**c)) {
        return illegal(format!("{c} is occupied"));
    }
    Ok(cost)
}

/// Check a move; on success, the movement mode it makes and its cost.
pub fn check_move(world: &World, who: Cid, path: &[Cell]) -> Result<(MoveMode, u32), Illegal> {
    check_move_in(world, who, &turn(world, who), path)
}

/// [`check_move`] with `who`'s turn read already (`t`).
pub(super) fn check_move_in(
    world: &World,
    who: Cid,
    t: &Turn,
    path: &[Cell],
) -> Result<(MoveMode, u32), Illegal> {
    if view::conditions(world, who).has(Condition::Immobilized) {
        return illegal("immobilized");
    }
    let Some(start) = view::cell(world, who) else {
        return illegal("not on the map");
    };
    if path.is_empty() {
        return illegal("an empty path");
    }
    let cost = path_cost(world, who, start, path)?;
    if t.action_used && t.moved_before_action {
        return illegal("moved before the action: no more movement this round");
    }
    let total = t.moved_dm + cost;
    let standard = standard_dm(world, who);
    let mode = if t.moved_dm == 0 && path.len() == 1 {
        MoveMode::Step
    } else if total <= standard {
        MoveMode::Standard
    } else if total <= 2 * standard && !t.action_used {
        MoveMode::Full
    } else {
        return illegal(format!(
            "too far: {:.1} m this turn, {:.1} m allowed",
            total as f64 / 10.0,
            if t.action_used {
                standard
            } else {
                2 * standard
            } as f64
                / 10.0
        ));
    };
    Ok((mode, cost))
}

/// Enemies engaged in melee with a combatant standing at `at`: standing, with
/// a melee weapon in hand whose reach covers `at`.
pub fn engaged_enemies(world: &World, who: Cid, at: Cell) -> view::Cids {
    let map = view::resource::<Map>(world);
    let mut enemies = view::enemies(world, who);
    enemies.retain(|e| threatens(world, map, *e, at));
    enemies
}

/// Does `e` threaten the cell `at` with a ready melee weapon?
pub fn threatens(world: &World, map: &Map, e: Cid, at: Cell) -> bool {
    threat(world, e).is_some_and(|t| t.covers(map, at))
}

/// Where a combatant stands and how far its melee weapon in hand reaches:
/// what [`threatens`] reads of it, looked up once for the many cells an
/// AI weighs.
#[derive(Clone, Copy, Debug)]
pub struct Threat {
    at: Cell,
    reach: i32,
}

/// `e`'s [`Threat`], if it holds a melee weapon.
pub fn threat(world: &World, e: Cid) -> Option<Threat> {
    let at = view::cell(world, e)?;
    let w = view::get::<Loadout>(world, e).and_then(|l| l.ready_weapon())?;
    (w.kind == WeaponKind::Melee).then_some(Threat { at, reach: w.reach })
}

impl Threat {
    /// Does the weapon reach the cell `c`: within its reach, and in sight
    /// beyond the adjacent cells.
    pub fn covers(&self, map: &Map, c: Cell) -> bool {
        let d = Map::chebyshev(self.at, c);
        d <= self.reach && (d <= 1 || map.line_of_sight(self.at, c))
    }
}

/// Whose free attacks the path to each cell of a reach tree draws
/// (§Optional Rule: Fleeing From Battle): as the move is carried out, every
/// enemy whose reach a step leaves strikes once. The AI weighs the whole
/// path this way, not only where it ends: walking past an enemy draws its
/// blow even when the path ends within its reach again. Answers are kept
/// per cell, for the one tree every question names.
pub struct Breakaways<'w> {
    map: &'w Map,
    /// The enemies with a melee weapon in hand; bit `i` of an answer is
    /// `enemies[i]`.
    enemies: Vec<(Cid, Threat)>,
    /// Answers found so far, per cell (`u32::MAX`: not yet).
    known: std::cell::RefCell<Vec<u32>>,
}

impl<'w> Breakaways<'w> {
    /// For `who`'s paths in `tree`, the tree every later question names,
    /// none of them longer than `budget_dm`: an enemy whose reach covers no
    /// cell so near (a step costs at least [`ORTHO_DM`] and goes one cell)
    /// draws no free attack on any of them, and is not weighed.
    pub fn new(world: &'w World, who: Cid, tree: &ReachTree, budget_dm: u32) -> Breakaways<'w> {
        let enemies = weighed(world, who, tree.start, budget_dm).collect();
        Breakaways {
            map: view::resource::<Map>(world),
            enemies,
            known: std::cell::RefCell::new(vec![u32::MAX; tree.cells()]),
        }
    }

    /// The enemies whose free attacks the path to `c` draws, as bits.
    pub fn drawn(&self, tree: &ReachTree, c: Cell) -> u32 {
        let Some(slot) = tree.slot(c) else {
            return 0;
        };
        let known = self.known.borrow()[slot];
        if known != u32::MAX {
            return known;
        }
        let drawn = match tree.parent(c) {
            None => 0,
            Some(p) => {
                let mut d = self.drawn(tree, p);
                for (i, (_, t)) in self.enemies.iter().enumerate() {
                    if t.covers(self.map, p) && !t.covers(self.map, c) {
                        d |= 1 << i;
                    }
                }
                d
            }
        };
        self.known.borrow_mut()[slot] = drawn;
        drawn
    }

    /// How many free attacks the path to `c` draws.
    pub fn count(&self, tree: &ReachTree, c: Cell) -> u32 {
        self.drawn(tree, c).count_ones()
    }

    /// Does the path to `c` draw a free attack from `e`?
    pub fn draws_from(&self, tree: &ReachTree, c: Cell, e: Cid) -> bool {
        let d = self.drawn(tree, c);
        self.enemies
            .iter()
            .enumerate()
            .any(|(i, (x, _))| *x == e && d & (1 << i) != 0)
    }
}

/// The enemies (with their threats) whose free attacks [`Breakaways`]
/// weighs for paths from `start` of at most `budget_dm`: those with a
/// melee weapon in hand whose reach covers a cell so near, the first 32.
fn weighed(
    world: &World,
    who: Cid,
    start: Cell,
    budget_dm: u32,
) -> impl Iterator<Item = (Cid, Threat)> + '_ {
    let steps = (budget_dm / ORTHO_DM) as i32;
    view::enemies(world, who)
        .into_iter()
        .filter_map(move |e| threat(world, e).map(|t| (e, t)))
        .filter(move |(_, t)| Map::chebyshev(t.at, start) <= steps + t.reach)
        .take(32)
}

/// The threats of the enemies engaging `who` at `start` among those
/// [`Breakaways`] weighs for its paths from there of at most `budget_dm`:
/// a path ending out of one's reach draws its free attack.
pub fn engaging_weighed(
    world: &World,
    who: Cid,
    start: Cell,
    budget_dm: u32,
) -> smallvec::SmallVec<[Threat; 4]> {
    let map = view::resource::<Map>(world);
    weighed(world, who, start, budget_dm)
        .map(|(_, t)| t)
        .filter(|t| t.covers(map, start))
        .collect()
}

pub fn check_retreat(world: &World, who: Cid, path: &[Cell]) -> Result<(Cell, u32), Illegal> {
    if !view::resource::<Ud10Settings>(world).retreat {
        return illegal("retreat is off in this game's settings");
    }
    let t = turn(world, who);
    if t.action_used || t.movement != MoveMode::None {
        return illegal("a retreat takes the whole round: it must be the turn's only deed");
    }
    let Some(start) = view::cell(world, who) else {
        return illegal("not on the map");
    };
    if engaged_enemies(world, who, start).is_empty() {
        return illegal("not engaged in melee: nothing to retreat from");
    }
    if view::conditions(world, who).has(Condition::Immobilized) {
        return illegal("immobilized");
    }
    let cost = path_cost(world, who, start, path)?;
    if cost > standard_dm(world, who) {
        return illegal("a retreat covers at most a standard movement");
    }
    Ok((start, cost))
}

/// Leaving the battle over the map's edge.
pub fn check_flee(world: &World, who: Cid) -> Result<(), Illegal> {
    if !view::on_map_edge(world, who) {
        return illegal("flee from a cell on the map's edge");
    }
    if view::conditions(world, who).has(Condition::Immobilized) {
        return illegal("immobilized");
    }
    Ok(())
}

/// Every cell `who` can still reach this turn, with the path there and its
/// cost, in row order.
pub fn reach_paths(world: &World, who: Cid, budget_dm: u32) -> Vec<(Cell, Vec<Cell>, u32)> {
    let Some(tree) = reach(world, who, budget_dm) else {
        return Vec::new();
    };
    tree.reached()
        .filter_map(|(c, cost)| tree.path_to(c).map(|p| (c, p, cost)))
        .collect()
}

/// Where `who` can still go this turn, as one tree: the paths are built
/// only for the cells asked (the AI weighs every cell but walks to one).
/// The same tree asked for again (the decision before asked for it, and
/// nobody has moved since) is not searched again ([`Map::reach_tree_kept`]).
pub fn reach(world: &World, who: Cid, budget_dm: u32) -> Option<std::sync::Arc<ReachTree>> {
    let start = view::cell(world, who)?;
    let map = view::resource::<Map>(world);
    Some(map.reach_tree_kept(start, budget_dm, &view::occupied(world, Some(who))))
}
