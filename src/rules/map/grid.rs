//! The grid's geometry: cells, the steps between them and their costs in
//! decimetres, distance.

use super::*;

/// One cell of the grid.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Cell {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// Side of one cell, in metres.
pub const CELL_METRES: f64 = 1.5;
/// Cost of an orthogonal step, in decimetres.
pub const ORTHO_DM: u32 = 15;
/// Cost of a diagonal step (1.5 m × √2 ≈ 2.1 m), in decimetres.
pub const DIAG_DM: u32 = 21;

/// No way between two cells costs fewer decimetres than this many per
/// metre of the straight line between their centres ([`Map::distance_m`]):
/// a diagonal step is the cheapest per metre, 21 dm for 1.5 m × √2
/// (9.8995 dm a metre); an orthogonal one is 10; terrain only adds. Any
/// way from one cell to another is at least the octile cost of their
/// offset, 15 a step along the longer side plus 6 for each of those that
/// is diagonal, and that is never under 9.8995 times the line (least
/// when the offset is diagonal). A little under that bound, so that
/// rounding never decides (a test holds every field to it).
pub const LEAST_DM_PER_METRE: f64 = 9.89;

/// The eight neighbour offsets: orthogonal first, then diagonal, in a fixed
/// order so that searches are deterministic.
pub(super) const NEIGHBOURS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The order the reach search takes a cell's neighbours in: row above, left
/// to right; then left and right; then the row below. Ties go to the cell
/// found first, so this order is part of every battle's result.
pub const STEP_ORDER: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Map {
    /// Cost in decimetres of one step between 8-neighbours: None if `to` is
    /// out of bounds or impassable, or a diagonal step would cut the corner of
    /// an impassable cell (either orthogonal neighbour impassable). Otherwise
    /// base ORTHO_DM/DIAG_DM × to.cost_factor(), and ×2 when stepping from
    /// non-HighGround onto HighGround (climbing).
    pub fn step_cost(&self, from: Cell, to: Cell) -> Option<u32> {
        // Read from the table `Map::new` made of the terrain's answers
        // (`terrain_step_cost`, below), when the map has it.
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if let Some(row) = self.index(from).and_then(|i| self.steps.get(i))
            && dx.abs() <= 1
            && dy.abs() <= 1
            && (dx, dy) != (0, 0)
        {
            // `STEP_ORDER`'s place of the step: the row above, then left
            // and right, then the row below.
            let k = (3 * (dy + 1) + dx + 1) as usize;
            let step = row[if k > 4 { k - 1 } else { k }];
            return (step != u32::MAX).then_some(step);
        }
        self.terrain_step_cost(from, to)
    }

    /// [`Map::step_cost`] worked out from the terrain.
    pub(super) fn terrain_step_cost(&self, from: Cell, to: Cell) -> Option<u32> {
        let dx = to.x - from.x;
        let dy = to.y - from.y;
        if Map::chebyshev(from, to) != 1 {
            return None;
        }
        let dest = self.terrain(to);
        if !dest.passable() {
            return None;
        }
        let base = if dx != 0 && dy != 0 {
            let side_a = self.terrain(Cell::new(from.x + dx, from.y));
            let side_b = self.terrain(Cell::new(from.x, from.y + dy));
            if !side_a.passable() || !side_b.passable() {
                return None;
            }
            DIAG_DM
        } else {
            ORTHO_DM
        };
        let climb = if dest == Terrain::HighGround && self.terrain(from) != Terrain::HighGround {
            2
        } else {
            1
        };
        Some(base * dest.cost_factor() * climb)
    }

    /// The steps out of `c` a mover can take, with their costs
    /// ([`Map::step_cost`]), neighbours in the reach search's order (the
    /// row above left to right, left, right, the row below): read from the
    /// table [`Map::new`] makes.
    pub fn steps_from(&self, c: Cell) -> impl Iterator<Item = (Cell, u32)> + '_ {
        let row = self.index(c).and_then(|i| self.steps.get(i));
        STEP_ORDER
            .iter()
            .enumerate()
            .filter_map(move |(k, (dx, dy))| {
                let n = Cell::new(c.x + dx, c.y + dy);
                let cost = match row {
                    Some(row) => row[k],
                    None => self.step_cost(c, n).unwrap_or(u32::MAX),
                };
                (cost != u32::MAX).then_some((n, cost))
            })
    }

    /// The cells one step out of the cell at `index` (row by row, as
    /// [`Map::steps_from`] gives them), as indices: for searches that keep
    /// their answers by index.
    pub fn step_indices(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        let offsets = self.step_offsets();
        self.step_row_at(index)
            .into_iter()
            .zip(offsets)
            .filter(|(cost, _)| *cost != u32::MAX)
            .map(move |(_, d)| (index as isize + d) as usize)
    }

    /// The costs of the eight steps out of the cell at `index`, in
    /// [`STEP_ORDER`], `u32::MAX` where no step goes: with
    /// [`Map::step_offsets`], what [`Map::step_indices`] walks, for a
    /// search's innermost loop.
    pub fn step_row_at(&self, index: usize) -> [u32; 8] {
        match self.steps.get(index) {
            Some(row) => *row,
            None => self.step_row(index),
        }
    }

    /// Where each of the eight steps of [`STEP_ORDER`] leads, as an offset
    /// of the cell's index (a step [`Map::step_row_at`] allows never leaves
    /// the map).
    pub fn step_offsets(&self) -> [isize; 8] {
        STEP_ORDER.map(|(dx, dy)| (dy * self.width + dx) as isize)
    }

    /// Chebyshev (king-move) distance in cells.
    pub fn chebyshev(a: Cell, b: Cell) -> i32 {
        (a.x - b.x).abs().max((a.y - b.y).abs())
    }

    /// Euclidean distance between cell centres, in metres. The square root
    /// of the exact sum of squares: IEEE's `sqrt` is correctly rounded on
    /// every platform, where `hypot` is the platform's C library's (glibc's
    /// differs from the true value's rounding for 26,170 of the 4.2 million
    /// pairs of offsets up to 2,048, such as 17 and 27), so a battle's
    /// distances are the same on Windows, macOS and Linux; and it is a
    /// tenth of the cost.
    pub fn distance_m(a: Cell, b: Cell) -> f64 {
        let dx = f64::from(a.x - b.x);
        let dy = f64::from(a.y - b.y);
        (dx * dx + dy * dy).sqrt() * CELL_METRES
    }

    /// Legal steps out of `c` with their costs, never entering blocked cells.
    pub(super) fn successors(&self, c: Cell, blocked: &impl Fn(Cell) -> bool) -> Vec<(Cell, u32)> {
        NEIGHBOURS
            .iter()
            .filter_map(|&(dx, dy)| {
                let n = Cell::new(c.x + dx, c.y + dy);
                let cost = self.step_cost(c, n)?;
                (!blocked(n)).then_some((n, cost))
            })
            .collect()
    }

    /// The costs of the eight steps out of cell `i` ([`Map::steps`]'s row),
    /// for a map read without its table.
    pub(super) fn step_row(&self, i: usize) -> [u32; 8] {
        let c = Cell::new(i as i32 % self.width, i as i32 / self.width);
        STEP_ORDER.map(|(dx, dy)| {
            self.step_cost(c, Cell::new(c.x + dx, c.y + dy))
                .unwrap_or(u32::MAX)
        })
    }
}
