//! What a reach search found: the cost of and the way to every cell
//! reached.

use super::*;

/// The result of [`Map::reach_tree`].
#[derive(Clone, Debug)]
pub struct ReachTree {
    pub start: Cell,
    pub(super) width: i32,
    /// The map's height: `cost.len()` is `width * height`.
    pub(super) height: i32,
    pub(super) cost: Vec<u32>,
    pub(super) parent: Vec<u32>,
}

impl ReachTree {
    pub(super) fn index(&self, c: Cell) -> Option<usize> {
        (c.x >= 0 && c.y >= 0 && c.x < self.width && c.y < self.height)
            .then(|| (c.y * self.width + c.x) as usize)
    }

    /// Cost to reach `c`, if it is reached.
    pub fn cost(&self, c: Cell) -> Option<u32> {
        self.index(c)
            .map(|i| self.cost[i])
            .filter(|&v| v != u32::MAX)
    }

    /// The cells after `start` up to and including `c`.
    pub fn path_to(&self, c: Cell) -> Option<Vec<Cell>> {
        let mut i = self.index(c)?;
        if self.cost[i] == u32::MAX {
            return None;
        }
        let mut path = Vec::new();
        while self.parent[i] != u32::MAX {
            path.push(Cell::new(i as i32 % self.width, i as i32 / self.width));
            i = self.parent[i] as usize;
        }
        path.reverse();
        Some(path)
    }

    /// How many steps the path to `c` takes (the length of
    /// [`ReachTree::path_to`]), without building it.
    pub fn steps_to(&self, c: Cell) -> Option<usize> {
        let mut i = self.index(c)?;
        if self.cost[i] == u32::MAX {
            return None;
        }
        let mut n = 0;
        while self.parent[i] != u32::MAX {
            n += 1;
            i = self.parent[i] as usize;
        }
        Some(n)
    }

    /// The cell before `c` on the path to it (`None` for the start and
    /// cells not reached).
    pub fn parent(&self, c: Cell) -> Option<Cell> {
        let i = self.index(c)?;
        let p = *self.parent.get(i)?;
        (p != u32::MAX).then(|| Cell::new(p as i32 % self.width, p as i32 / self.width))
    }

    /// How many cells the tree's map has: what [`ReachTree::slot`] counts
    /// up to, for a table of answers per cell.
    pub fn cells(&self) -> usize {
        self.cost.len()
    }

    /// `c`'s place in a table of [`ReachTree::cells`] answers: slots in
    /// increasing order are cells in row order.
    pub fn slot(&self, c: Cell) -> Option<usize> {
        self.index(c)
    }

    /// The cell whose [`ReachTree::slot`] is `slot` (below
    /// [`ReachTree::cells`]).
    pub fn cell_of_slot(&self, slot: usize) -> Cell {
        Cell::new(slot as i32 % self.width, slot as i32 / self.width)
    }

    /// Every cell but the start reached within `budget_dm`, with its cost,
    /// in row order: the cells, costs and paths a search to `budget_dm`
    /// alone would find (a search's answers within a budget never depend
    /// on how far beyond it the search went).
    pub fn within(&self, budget_dm: u32) -> impl Iterator<Item = (Cell, u32)> + '_ {
        self.reached().filter(move |&(_, c)| c <= budget_dm)
    }

    /// Every cell but the start reached within `budget_dm` that `field`
    /// knows a distance of, with that distance, given to `f` in row order:
    /// what [`ReachTree::within`] gives, filtered by [`Distances::cost`],
    /// read straight from both tables, row by row, when they are of one map
    /// (an AI closing in walks every cell of a tree this way).
    pub fn each_within_field(
        &self,
        budget_dm: u32,
        field: &Distances,
        mut f: impl FnMut(Cell, u32),
    ) {
        let (costs, width) = field.table();
        if width != self.width || costs.len() != self.cost.len() || width <= 0 {
            for (c, _) in self.within(budget_dm) {
                if let Some(d) = field.cost(c) {
                    f(c, d);
                }
            }
            return;
        }
        let rows = self
            .cost
            .chunks_exact(width as usize)
            .zip(costs.chunks_exact(width as usize));
        for (y, (reached, known)) in rows.enumerate() {
            for (x, (&cost, &d)) in reached.iter().zip(known).enumerate() {
                if cost == u32::MAX || cost > budget_dm || d == u32::MAX {
                    continue;
                }
                let c = Cell::new(x as i32, y as i32);
                if c != self.start {
                    f(c, d);
                }
            }
        }
    }

    /// The least `(distance, cost, cell)` over the reached cells but the
    /// start that `field` knows a distance of: the cell nearest a goal by
    /// the way there, then the cheapest to reach, then the least. What
    /// `reached()` would give, filtered and taken the least of; read
    /// straight from both tables when the field is kept for this map (an
    /// AI closing in asks it of every tree it cannot end beside the goal).
    pub fn nearest_by(&self, field: &Distances) -> Option<(u32, u32, Cell)> {
        let at = |i: usize| Cell::new(i as i32 % self.width, i as i32 / self.width);
        match field {
            Distances::Kept { costs, width }
                if *width == self.width && costs.len() == self.cost.len() =>
            {
                let start = self.index(self.start);
                let mut best: Option<(u32, u32, usize)> = None;
                for (i, (&cost, &d)) in self.cost.iter().zip(costs.iter()).enumerate() {
                    if cost == u32::MAX || d == u32::MAX || Some(i) == start {
                        continue;
                    }
                    let better = match best {
                        None => true,
                        Some((bd, bc, bi)) => {
                            (d, cost) < (bd, bc) || ((d, cost) == (bd, bc) && at(i) < at(bi))
                        }
                    };
                    if better {
                        best = Some((d, cost, i));
                    }
                }
                best.map(|(d, cost, i)| (d, cost, at(i)))
            }
            _ => self
                .reached()
                .filter_map(|(c, cost)| Some((field.cost(c)?, cost, c)))
                .min(),
        }
    }

    /// Every reached cell but the start, with its cost, in row order.
    pub fn reached(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        // The cost first: a cell out of reach is not worked out.
        self.cost.iter().enumerate().filter_map(move |(i, &c)| {
            if c == u32::MAX {
                return None;
            }
            let cell = Cell::new(i as i32 % self.width, i as i32 / self.width);
            (cell != self.start).then_some((cell, c))
        })
    }
}
