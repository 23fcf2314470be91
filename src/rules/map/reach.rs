//! The reach search: where a combatant can get to and by which path, the
//! cheapest way toward a goal, paths and their cost.

use super::*;

impl Map {
    /// Every cell reachable from `start` with total cost <= `budget_dm`, never
    /// entering a cell for which `blocked(cell)` is true (`start` itself is
    /// never blocked), with its cost. Includes `start` with cost 0.
    pub fn reachable(
        &self,
        start: Cell,
        budget_dm: u32,
        blocked: impl Fn(Cell) -> bool,
    ) -> BTreeMap<Cell, u32> {
        dijkstra_reach(&start, |&c| self.successors(c, &blocked))
            .take_while(|item| item.total_cost <= budget_dm)
            .map(|item| (item.node, item.total_cost))
            .collect()
    }

    /// Cheapest costs (and the path tree) from `start` to every cell within
    /// `budget_dm`, never entering a blocked cell. The same search as
    /// [`Map::reachable`], on flat arrays instead of hash maps: the AI runs it
    /// for every decision, and this is several times faster (measured with
    /// `fray simulate`). Ties go to the cell found first, so results are
    /// deterministic.
    pub fn reach_tree(
        &self,
        start: Cell,
        budget_dm: u32,
        blocked: impl Fn(Cell) -> bool,
    ) -> ReachTree {
        self.search(start, budget_dm, blocked, None)
    }

    /// [`Map::reach_tree`] never entering the cells `held` (those other
    /// combatants stand on): the same tree as `reach_tree` with a `blocked`
    /// that answers true for them, found faster.
    pub fn reach_tree_past(&self, start: Cell, budget_dm: u32, held: &[Cell]) -> ReachTree {
        let n = (self.width * self.height) as usize;
        let Some(s) = self.index(start).filter(|_| self.steps.len() == n) else {
            return self.search_past(start, budget_dm, held, |_, _, _| Settled::Expand);
        };
        // The search of `search_from` with nothing to ask of a cell as it
        // leaves the frontier and nothing blocked but the cells held: the
        // AI's one search a decision, on its own.
        // (No step's cost, u32::MAX, is then over the budget.)
        let budget_dm = budget_dm.min(u32::MAX - 1);
        let mut cost = vec![u32::MAX; n];
        let mut parent = vec![u32::MAX; n];
        let offset = STEP_ORDER.map(|(dx, dy)| (dy * self.width + dx) as isize);
        let held: smallvec::SmallVec<[usize; 16]> = held
            .iter()
            .filter_map(|c| self.index(*c))
            .filter(|&i| i != s)
            .collect();
        for &i in &held {
            cost[i] = 0;
        }
        cost[s] = 0;
        with_frontier(|frontier| {
            frontier.push(0, s as u32);
            while let Some((c, i)) = frontier.pop() {
                let iu = i as usize;
                // Left behind by a cheaper way found later, or too dear to
                // step out of within the budget.
                if c > cost[iu] || c.saturating_add(ORTHO_DM) > budget_dm {
                    continue;
                }
                let row = &self.steps[iu];
                // The eight steps written out: the compiler does not unroll
                // the loop, and the frontier is the search's only other work.
                let mut relax = |k: usize| {
                    // No step (u32::MAX) never fits the budget.
                    let nc = c.saturating_add(row[k]);
                    if nc > budget_dm {
                        return;
                    }
                    // A possible step never leaves the map.
                    let j = iu.wrapping_add_signed(offset[k]);
                    if nc < cost[j] {
                        cost[j] = nc;
                        parent[j] = i;
                        frontier.push(nc, j as u32);
                    }
                };
                relax(0);
                relax(1);
                relax(2);
                relax(3);
                relax(4);
                relax(5);
                relax(6);
                relax(7);
            }
        });
        for &i in &held {
            cost[i] = u32::MAX;
        }
        self.tree(start, cost, parent)
    }

    /// The tree of a search from `start` on this map: its costs and parents.
    pub(super) fn tree(&self, start: Cell, cost: Vec<u32>, parent: Vec<u32>) -> ReachTree {
        ReachTree {
            start,
            width: self.width,
            height: self.height,
            cost,
            parent,
        }
    }

    /// [`Map::reach_tree_past`], shared: the last tree searched on a thread
    /// is kept with all its search read (this map's table of steps, the
    /// start, the budget, the held cells), and asked for the same again,
    /// it is given again, not searched: an AI's decisions sometimes ask for
    /// the tree the decision before did (a blow struck, then where to go).
    /// (Keeping hundreds, for a batch's battles, which open alike, spared a
    /// third of ud10's searches on `mirror_duel` and ran no faster: the
    /// kept trees' memory cost what the searches did.)
    pub fn reach_tree_kept(
        &self,
        start: Cell,
        budget_dm: u32,
        held: &[Cell],
    ) -> std::sync::Arc<ReachTree> {
        // A map read without its table of steps is a test's: not kept.
        if self.steps.is_empty() {
            return std::sync::Arc::new(self.reach_tree_past(start, budget_dm, held));
        }
        LAST_REACH.with(|last| {
            let mut last = last.borrow_mut();
            // The table is the map's own, made once by `Map::new`, never
            // changed, shared by the map's copies only; the memo holds it,
            // so no other table can come to lie where it lay.
            if let Some(l) = last.as_ref()
                && std::sync::Arc::ptr_eq(&l.steps, &self.steps)
                && l.tree.start == start
                && l.budget_dm == budget_dm
                && l.held[..] == *held
            {
                return l.tree.clone();
            }
            let tree = std::sync::Arc::new(self.reach_tree_past(start, budget_dm, held));
            *last = Some(LastReach {
                steps: self.steps.clone(),
                budget_dm,
                held: held.into(),
                tree: tree.clone(),
            });
            tree
        })
    }

    /// The cheapest cell other than `start` within `budget_dm` that
    /// `wanted` accepts (the least cell among equally cheap ones), and the
    /// way there: the least `(cost, cell)` of the cells in
    /// [`Map::reach_tree_past`]'s tree that `wanted` accepts, and its path
    /// in that tree. The search stops once every cell as cheap has left the
    /// frontier: Dijkstra's search finds no cheaper cell later, and a
    /// cell's cost and path are final when it leaves. `Err`: no cell is
    /// wanted, and the whole tree.
    pub fn nearest_past(
        &self,
        start: Cell,
        budget_dm: u32,
        held: &[Cell],
        wanted: impl Fn(Cell) -> bool,
    ) -> Result<Vec<Cell>, ReachTree> {
        let mut cheapest = Cheapest::default();
        let tree = self.search_past(start, budget_dm, held, |_, cell, c| {
            if cheapest.settle(c, cell, start, &wanted) {
                Settled::Stop
            } else {
                Settled::Expand
            }
        });
        match cheapest.0 {
            Some((_, cell)) => tree.path_to(cell).ok_or(tree),
            None => Err(tree),
        }
    }

    /// Where a mover closing in on `goal` goes with `budget_dm` to spend,
    /// never entering the cells `held`: the way to the cheapest cell beside
    /// `goal` it reaches, the least of equally cheap ones (what
    /// [`Map::nearest_past`] finds wanting the cells within one step of
    /// `goal`); when it reaches none, the way to the reached cell nearest
    /// `goal` by the way there ([`Map::distances`] to `goal`), then the
    /// cheapest, then the least (what [`ReachTree::nearest_by`] picks from
    /// the tree `nearest_past` gives back), if nearer than `start`; else
    /// none. The same cells and paths as those two, for less search:
    ///
    /// - a way beside the goal found first by walking down the field (any
    ///   way bounds the cheapest) leaves unstepped-out-of every cell from
    ///   which no cell beside the goal is as cheap: a step costs at least
    ///   [`ORTHO_DM`] and goes one cell, so none is cheaper than the cell's
    ///   cost and `ORTHO_DM` a cell of Chebyshev distance left;
    /// - with no such way found, a cell from which the budget left reaches
    ///   no cell beside the goal and none as near it as the nearest found
    ///   so far (nor nearer than `start`) is not stepped out of: every cell
    ///   lies at least `ORTHO_DM` a cell of Chebyshev distance from `goal`.
    ///
    /// A cell not stepped out of lies on no way to any cell the answer is
    /// chosen among, so those cells keep their costs, and the path to the
    /// one chosen its cells: a cell's parent is the first cell to leave the
    /// frontier that gives it its cost, and cells leave in the same order.
    /// Maps too large to keep distance fields ([`Lines::MAX_CELLS`]) are
    /// searched whole.
    ///
    /// The answers are kept per thread ([`KEPT_TOWARD`] of them), by all
    /// they are worked out from (this map's table of steps, the start, the
    /// budget, the held cells, the goal): a batch of battles on one level
    /// asks its opening moves again every battle, until the first die
    /// sets them apart. (Within one battle the same question hardly ever
    /// comes again: someone has moved. A lone battle gains nothing.)
    pub fn toward_past(
        &self,
        start: Cell,
        budget_dm: u32,
        held: &[Cell],
        goal: Cell,
    ) -> Option<Vec<Cell>> {
        // A map read without its table of steps is a test's: not kept.
        if self.steps.is_empty() {
            return self.toward_searched(start, budget_dm, held, goal);
        }
        let slot = kept_slot(start, budget_dm, held, Some(goal), KEPT_TOWARD);
        TOWARD.with(|kept| {
            let mut kept = kept.borrow_mut();
            if kept.len() != KEPT_TOWARD {
                kept.resize_with(KEPT_TOWARD, || None);
            }
            // The table is the map's own, never changed, shared by the map's
            // copies only; the memo holds it, so no other table can come to
            // lie where it lay.
            if let Some(k) = &kept[slot]
                && k.start == start
                && k.goal == goal
                && k.budget_dm == budget_dm
                && std::sync::Arc::ptr_eq(&k.steps, &self.steps)
                && k.held[..] == *held
            {
                return k.path.clone();
            }
            let path = self.toward_searched(start, budget_dm, held, goal);
            kept[slot] = Some(TowardKept {
                steps: self.steps.clone(),
                start,
                goal,
                budget_dm,
                held: held.into(),
                path: path.clone(),
            });
            path
        })
    }

    /// [`Map::toward_past`], worked out.
    pub(super) fn toward_searched(
        &self,
        start: Cell,
        budget_dm: u32,
        held: &[Cell],
        goal: Cell,
    ) -> Option<Vec<Cell>> {
        let beside = |c: Cell| Map::chebyshev(c, goal) <= 1;
        let field = self.distances(goal, start);
        let here_d = field.cost(start).unwrap_or(u32::MAX);
        let Distances::Kept { costs, .. } = field else {
            return match self.nearest_past(start, budget_dm, held, beside) {
                Ok(path) => Some(path),
                Err(tree) => tree
                    .nearest_by(&field)
                    .filter(|(d, _, _)| *d < here_d)
                    .and_then(|(_, _, c)| tree.path_to(c)),
            };
        };
        let bound = self.walk_down(start, budget_dm, held, costs, beside);
        let mut cheapest = Cheapest::default();
        let mut nearest: Option<(u32, u32, Cell)> = None;
        let tree = self.search_past(start, budget_dm, held, |i, cell, c| {
            if cheapest.settle(c, cell, start, beside) {
                return Settled::Stop;
            }
            if cell != start {
                let d = costs[i];
                if d != u32::MAX && d < here_d && nearest.is_none_or(|b| (d, c, cell) < b) {
                    nearest = Some((d, c, cell));
                }
            }
            let off = i64::from(Map::chebyshev(cell, goal));
            let steps_left = i64::from(budget_dm.saturating_sub(c) / ORTHO_DM);
            let dm = i64::from(ORTHO_DM);
            let useless = match bound {
                Some(u) => i64::from(c) + dm * (off - 1).max(0) > i64::from(u),
                None => {
                    let least_off = off - steps_left;
                    let best = nearest.map_or(here_d, |b| b.0);
                    least_off > 1 && dm * least_off > i64::from(best)
                }
            };
            if useless {
                Settled::Leave
            } else {
                Settled::Expand
            }
        });
        let (_, cell) = cheapest.0.or(nearest.map(|(_, c, cell)| (c, cell)))?;
        tree.path_to(cell)
    }

    /// The cost of a way from `start` to a cell `beside` accepts (not
    /// `start`) within `budget_dm`, never through the cells `held`, found by
    /// walking down `field` (a distance field: each step to the neighbour
    /// nearest by it, the first in step order of equally near ones, only
    /// ever nearer); none when the walk stops short. Any such way costs no
    /// less than the cheapest.
    pub(super) fn walk_down(
        &self,
        start: Cell,
        budget_dm: u32,
        held: &[Cell],
        field: &[u32],
        beside: impl Fn(Cell) -> bool,
    ) -> Option<u32> {
        let mut at = start;
        let mut i = self.index(at)?;
        let mut spent = 0u32;
        while at == start || !beside(at) {
            let row = match self.steps.get(i) {
                Some(row) => *row,
                None => self.step_row(i),
            };
            let mut next: Option<(u32, u32, Cell, usize)> = None;
            for (k, (dx, dy)) in STEP_ORDER.iter().enumerate() {
                if row[k] == u32::MAX {
                    continue;
                }
                let n = Cell::new(at.x + dx, at.y + dy);
                let j = self.index(n)?;
                if field[j] < field[i] && next.is_none_or(|b| field[j] < b.0) && !held.contains(&n)
                {
                    next = Some((field[j], row[k], n, j));
                }
            }
            let (_, step, n, j) = next?;
            spent = spent.checked_add(step).filter(|s| *s <= budget_dm)?;
            (at, i) = (n, j);
        }
        Some(spent)
    }

    pub(super) fn search(
        &self,
        start: Cell,
        budget_dm: u32,
        blocked: impl Fn(Cell) -> bool,
        until: Option<usize>,
    ) -> ReachTree {
        self.search_from(&[start], budget_dm, blocked, &[], until, |_, _| {
            Settled::Expand
        })
    }

    /// [`Map::search_from`] out of `start` alone, never into the cells
    /// `held`; `settle` hears of each cell leaving the frontier as its
    /// index, the cell and its cost.
    pub(super) fn search_past(
        &self,
        start: Cell,
        budget_dm: u32,
        held: &[Cell],
        mut settle: impl FnMut(usize, Cell, u32) -> Settled,
    ) -> ReachTree {
        let w = self.width;
        self.search_from(
            &[start],
            budget_dm,
            |_| false,
            held,
            None,
            |i, c| settle(i, Cell::new(i as i32 % w, i as i32 / w), c),
        )
    }

    /// [`Map::search`] from several cells at once (the tree's start is the
    /// first; the parents lead back to whichever is nearest).
    ///
    /// Dijkstra's search, its frontier a [`Frontier`] (cells leave it by
    /// cost, then by index, as a binary heap of `(cost, index)` would give
    /// them: ties go to the cell found first). `settle` hears of each cell
    /// as it leaves the frontier (its index and cost, both final) and says
    /// whether to step out of it ([`Settled`]).
    pub(super) fn search_from(
        &self,
        starts: &[Cell],
        budget_dm: u32,
        blocked: impl Fn(Cell) -> bool,
        held: &[Cell],
        until: Option<usize>,
        mut settle: impl FnMut(usize, u32) -> Settled,
    ) -> ReachTree {
        let n = (self.width * self.height) as usize;
        let w = self.width;
        let mut cost = vec![u32::MAX; n];
        let mut parent = vec![u32::MAX; n];
        // Where each of the eight steps leads, as an index offset: a
        // possible step never leaves the map.
        let offset = STEP_ORDER.map(|(dx, dy)| (dy * w + dx) as isize);
        let start = starts.first().copied().unwrap_or(Cell::new(0, 0));
        let held = self.mark_held(held, &mut cost);
        with_frontier(|frontier| {
            for start in starts {
                if let Some(i) = self.index(*start) {
                    cost[i] = 0;
                    frontier.push(0, i as u32);
                }
            }
            while let Some((c, i)) = frontier.pop() {
                let iu = i as usize;
                if c > cost[iu] {
                    continue;
                }
                if until == Some(iu) {
                    break;
                }
                match settle(iu, c) {
                    Settled::Expand => {}
                    Settled::Leave => continue,
                    Settled::Stop => break,
                }
                // No step costs less than an orthogonal one: out of a cell
                // this dear, none stays within the budget.
                if c.saturating_add(ORTHO_DM) > budget_dm {
                    continue;
                }
                let row = match self.steps.get(iu) {
                    Some(row) => *row,
                    None => self.step_row(iu),
                };
                for k in 0..8 {
                    let step = row[k];
                    if step == u32::MAX {
                        continue;
                    }
                    let j = (iu as isize + offset[k]) as usize;
                    let nc = c + step;
                    if nc > budget_dm || nc >= cost[j] {
                        continue;
                    }
                    let next = Cell::new(j as i32 % w, j as i32 / w);
                    if blocked(next) {
                        continue;
                    }
                    cost[j] = nc;
                    parent[j] = i;
                    frontier.push(nc, j as u32);
                }
            }
        });
        self.unmark_held(&held, starts, &mut cost);
        self.tree(start, cost, parent)
    }

    /// Cells held by others look already reached at no cost: no step ever
    /// improves on that, so none is entered (a cheaper test than asking
    /// `blocked`). Returns their indices, to be made unreached again after
    /// the search ([`Map::unmark_held`]).
    fn mark_held(&self, held: &[Cell], cost: &mut [u32]) -> smallvec::SmallVec<[usize; 16]> {
        let held: smallvec::SmallVec<[usize; 16]> = held
            .iter()
            .filter_map(|c| self.index(*c))
            .filter(|&i| cost[i] == u32::MAX)
            .collect();
        for &i in &held {
            cost[i] = 0;
        }
        held
    }

    /// The held cells marked by [`Map::mark_held`] made unreached again,
    /// but for a start.
    fn unmark_held(&self, held: &[usize], starts: &[Cell], cost: &mut [u32]) {
        for &i in held {
            if !starts.iter().any(|s| self.index(*s) == Some(i)) {
                cost[i] = u32::MAX;
            }
        }
    }

    /// Cheapest path `start` → `goal` by A* (Chebyshev × ORTHO_DM heuristic),
    /// never entering blocked cells (`goal` blocked → None). Returns the cells
    /// after `start` up to and including `goal`, and the total cost. The
    /// search expands neighbours in a fixed order over deterministic
    /// containers, so equal inputs always give the same path.
    pub fn path(
        &self,
        start: Cell,
        goal: Cell,
        blocked: impl Fn(Cell) -> bool,
    ) -> Option<(Vec<Cell>, u32)> {
        if start == goal {
            return Some((Vec::new(), 0));
        }
        if blocked(goal) || !self.terrain(goal).passable() {
            return None;
        }
        let (mut cells, cost) = astar(
            &start,
            |&c| self.successors(c, &blocked),
            |&c| Map::chebyshev(c, goal).unsigned_abs() * ORTHO_DM,
            |&c| c == goal,
        )?;
        cells.remove(0);
        Some((cells, cost))
    }

    /// Cost of an explicit path (each step an 8-neighbour step with a Some
    /// cost), None if any step is illegal. An empty path costs 0.
    pub fn path_cost(&self, start: Cell, steps: &[Cell]) -> Option<u32> {
        let mut from = start;
        let mut total = 0u32;
        for &to in steps {
            total = total.checked_add(self.step_cost(from, to)?)?;
            from = to;
        }
        Some(total)
    }
}
