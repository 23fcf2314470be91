//! The battle map: a grid of terrain cells, movement costs, line of sight,
//! path finding and named zones.
//!
//! Coordinates: `x` grows to the right, `y` grows downwards (row index),
//! `(0,0)` is the top-left cell. Costs are in decimetres of movement.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use pathfinding::prelude::{astar, dijkstra_reach};
use serde::{Deserialize, Serialize};

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

/// What a cell is made of. At most eight kinds: [`Map::near_any`]'s table
/// keeps one bit a kind in a byte ([`Terrain::near_bit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    Open,
    Wall,
    Difficult,
    Water,
    LowCover,
    HighCover,
    HighGround,
    /// A hazard (a chasm, a spiked pit, lava): never entered by choice, but
    /// a character can be pushed into it.
    Pit,
}

impl Terrain {
    /// The kind's number, 0 to 7, in the order of the enum (the game's
    /// tile sheet holds the kinds in this order).
    pub const fn ordinal(self) -> u8 {
        match self {
            Terrain::Open => 0,
            Terrain::Wall => 1,
            Terrain::Difficult => 2,
            Terrain::Water => 3,
            Terrain::LowCover => 4,
            Terrain::HighCover => 5,
            Terrain::HighGround => 6,
            Terrain::Pit => 7,
        }
    }

    /// The kind's bit in [`Map::near_any`]'s byte a cell. (A ninth kind
    /// needs a wider table: its ordinal, which the match above makes its
    /// author write, fails this assertion in a debug build as soon as a
    /// map holds it.)
    const fn near_bit(self) -> u8 {
        debug_assert!(self.ordinal() < 8, "Map::near holds eight kinds");
        1 << self.ordinal()
    }

    /// Whether a combatant can stand on or move through the cell
    /// (`Wall`, `HighCover` and `Pit` cannot be entered).
    pub fn passable(self) -> bool {
        !matches!(self, Terrain::Wall | Terrain::HighCover | Terrain::Pit)
    }

    /// Whether the cell blocks line of sight (only `Wall`).
    pub fn blocks_sight(self) -> bool {
        matches!(self, Terrain::Wall)
    }

    /// Cost multiplier to enter the cell: Open 1, Difficult 2, Water 3,
    /// LowCover 2 (climbing over), HighGround 1. Impassable terrain returns 0:
    /// it is never entered, check [`Terrain::passable`] first.
    pub fn cost_factor(self) -> u32 {
        match self {
            Terrain::Open | Terrain::HighGround => 1,
            Terrain::Difficult | Terrain::LowCover => 2,
            Terrain::Water => 3,
            Terrain::Wall | Terrain::HighCover | Terrain::Pit => 0,
        }
    }

    /// Lower-case display name ("low cover").
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open",
            Terrain::Wall => "wall",
            Terrain::Difficult => "difficult",
            Terrain::Water => "water",
            Terrain::LowCover => "low cover",
            Terrain::HighCover => "high cover",
            Terrain::HighGround => "high ground",
            Terrain::Pit => "pit",
        }
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

/// A named area of the map (used by zone-based rulesets and `HoldZone`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    pub name: String,
    pub cells: Vec<Cell>,
}

/// The eight neighbour offsets: orthogonal first, then diagonal, in a fixed
/// order so that searches are deterministic.
const NEIGHBOURS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The battle map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, bevy::prelude::Resource)]
pub struct Map {
    width: i32,
    height: i32,
    terrain: Vec<Terrain>,
    zones: Vec<Zone>,
    zone_of: Vec<Option<u16>>,
    zone_links: Vec<Vec<u16>>,
    /// Zone steps between every two zones (`u32::MAX`: unconnected), row by
    /// row: the AI asks for them thousands of times a battle.
    #[serde(default)]
    zone_dist: Vec<u32>,
    /// The cost of each step out of each cell, row by row, neighbours in
    /// [`STEP_ORDER`] (`u32::MAX`: no step): the reach search asks for them
    /// thousands of times a decision. Made by [`Map::new`]; a map read
    /// some other way falls back on [`Map::step_cost`].
    /// Shared: a battle's copy of the level's map costs no copy of it.
    #[serde(skip)]
    steps: std::sync::Arc<[[u32; 8]]>,
    /// The terrains of each cell's block of nine (itself and its eight
    /// neighbours, off the map `Wall` as [`Map::terrain`] reads it), one
    /// bit a [`Terrain`], row by row ([`Map::near_any`]): a ruleset asks
    /// whether cover stands by a target for every attack its AI weighs.
    /// Made by [`Map::new`]; a map read some other way looks.
    #[serde(skip)]
    near: std::sync::Arc<[u8]>,
    /// What is known of the line between every two cells ([`Lines`]),
    /// filled as the rules ask. Shared by every copy of the map.
    #[serde(skip)]
    lines: Kept<Lines>,
    /// The distance from each cell to every other, ignoring who stands
    /// where ([`Map::distances`]), found the first time a rule asks for
    /// it. Shared by every copy of the map.
    #[serde(skip)]
    fields: Kept<Fields>,
}

/// Distance fields kept by goal cell (maps of up to [`Lines::MAX_CELLS`]
/// cells): the terrain never changes, so one search serves every battle.
/// Also the distance of every cell from the map's edge ([`Map::exit_distances`]).
#[derive(Default)]
struct Fields(
    Vec<std::sync::OnceLock<Box<[u32]>>>,
    std::sync::OnceLock<Box<[u32]>>,
);

/// The distances [`Map::distances`] gives: a kept field, or one searched
/// for the occasion.
pub enum Distances<'m> {
    /// The whole field, row by row (`u32::MAX`: unreachable).
    Kept {
        costs: &'m [u32],
        width: i32,
    },
    Searched(ReachTree),
}

impl Distances<'_> {
    /// The distance of `c`, if known; see [`Map::distances`].
    pub fn cost(&self, c: Cell) -> Option<u32> {
        match self {
            Distances::Kept { costs, width } => {
                // Within the row's width, the index is past the table's end
                // exactly when the row is past its last: no height needed.
                if c.x < 0 || c.y < 0 || c.x >= *width {
                    return None;
                }
                costs
                    .get(c.y as usize * *width as usize + c.x as usize)
                    .copied()
                    .filter(|&v| v != u32::MAX)
            }
            Distances::Searched(tree) => tree.cost(c),
        }
    }

    /// The whole field as a table, row by row (`u32::MAX`: no distance
    /// known), and the width of its rows.
    fn table(&self) -> (&[u32], i32) {
        match self {
            Distances::Kept { costs, width } => (costs, *width),
            Distances::Searched(tree) => (&tree.cost, tree.width),
        }
    }
}

/// The lines between cells, as the rules ask about them: whether each is
/// clear to see along, and which of its cells touch its far end. Both
/// depend on the terrain alone, which never changes, so each line is
/// walked once per map however many battles ask (the AI asks for every
/// cell it weighs against every enemy). Kept only for maps of up to
/// [`Lines::MAX_CELLS`] cells (every shipped level); larger maps walk the
/// line each time.
#[derive(Default)]
struct Lines(Vec<std::sync::atomic::AtomicU16>);

impl Lines {
    /// The largest map whose lines are kept: a `u16` per pair of cells.
    const MAX_CELLS: usize = 1024;
    /// The entry is filled.
    const KNOWN: u16 = 1 << 15;
    /// The line is clear to see along.
    const CLEAR: u16 = 1 << 14;
    /// How many cells touch the far end (bits 12-13); their offsets from
    /// it follow, three bits each, in line order.
    const COUNT_SHIFT: u16 = 12;

    fn for_cells(n: usize) -> Lines {
        if n > Self::MAX_CELLS {
            return Lines::default();
        }
        Lines(
            (0..n * n)
                .map(|_| std::sync::atomic::AtomicU16::new(0))
                .collect(),
        )
    }
}

/// What a map keeps of the answers it worked out ([`Lines`], [`Fields`]):
/// not part of its value, so two maps of the same terrain are equal
/// whatever each has been asked, and shared by every copy.
#[derive(Default)]
struct Kept<T>(std::sync::Arc<T>);

impl<T> Clone for Kept<T> {
    fn clone(&self) -> Kept<T> {
        Kept(self.0.clone())
    }
}

impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Kept<T>) -> bool {
        true
    }
}

impl<T> Eq for Kept<T> {}

impl<T> fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Kept")
    }
}

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

/// One step of a grid line traversal: either a single cell, or a pair of
/// side cells when the line passes exactly through a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineStep {
    Cell(Cell),
    Corner(Cell, Cell),
}

/// The steps of a grid line from one cell's centre to another's
/// ([`Map::line_steps`]).
struct LineSteps {
    /// Cells to cross in x and y.
    n: (i64, i64),
    /// Direction in x and y.
    s: (i32, i32),
    /// Grid lines crossed so far in x and y.
    i: (i64, i64),
    /// The cell the walk is in.
    p: Cell,
    b: Cell,
    /// A cell entered through a corner, still to be given after the corner.
    pending: Option<Cell>,
}

impl Iterator for LineSteps {
    type Item = LineStep;

    fn next(&mut self) -> Option<LineStep> {
        if let Some(c) = self.pending.take() {
            return Some(LineStep::Cell(c));
        }
        let ((nx, ny), (sx, sy)) = (self.n, self.s);
        while self.i.0 < nx || self.i.1 < ny {
            let (ix, iy) = self.i;
            let p = self.p;
            // Compare the parameter at which the line crosses the next
            // vertical grid line, (0.5 + ix) / nx, with the next horizontal
            // one, (0.5 + iy) / ny.
            let decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
            let corner = if decision == 0 {
                self.p = Cell::new(p.x + sx, p.y + sy);
                self.i = (ix + 1, iy + 1);
                Some(LineStep::Corner(
                    Cell::new(p.x + sx, p.y),
                    Cell::new(p.x, p.y + sy),
                ))
            } else if decision < 0 {
                self.p.x += sx;
                self.i.0 += 1;
                None
            } else {
                self.p.y += sy;
                self.i.1 += 1;
                None
            };
            let entered = (self.p != self.b).then_some(self.p);
            match (corner, entered) {
                (Some(c), e) => {
                    self.pending = e;
                    return Some(c);
                }
                (None, Some(e)) => return Some(LineStep::Cell(e)),
                (None, None) => {}
            }
        }
        None
    }
}

/// The cheapest wanted cell a search has seen leave its frontier (the
/// least of equally cheap ones), its cost first.
#[derive(Default)]
struct Cheapest(Option<(u32, Cell)>);

impl Cheapest {
    /// Hear of `cell` (not `start`) leaving the frontier at cost `c`, and
    /// say whether the search is done: a cell dearer than the one found
    /// leaves only after every cell as cheap.
    fn settle(&mut self, c: u32, cell: Cell, start: Cell, wanted: impl Fn(Cell) -> bool) -> bool {
        if self.0.is_some_and(|(cheapest, _)| c > cheapest) {
            return true;
        }
        if cell != start && self.0.is_none_or(|(_, least)| cell < least) && wanted(cell) {
            self.0 = Some((c, cell));
        }
        false
    }
}

/// What a search does with a cell leaving its frontier, its cost final.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Settled {
    /// Step out of it to its neighbours.
    Expand,
    /// Go on without stepping out of it: no cell the search is for lies
    /// beyond it.
    Leave,
    /// End the search.
    Stop,
}

/// The frontier of a reach search: cells waiting by cost, in a ring of
/// buckets one decimetre apart (a step costs at most [`MAX_STEP_DM`], so
/// every waiting cost lies within one turn of the ring). Cells leave by
/// cost, and cells of one cost by index: the order a binary heap of
/// `(cost, index)` gives, for a fraction of its work. Kept per thread and
/// reused: a battle runs thousands of searches.
struct Frontier {
    /// Cells waiting, by `cost % RING`.
    ring: Box<[Vec<u32>; RING]>,
    /// Which buckets hold cells.
    filled: u64,
    /// The cost of the bucket being emptied, and its cells, sorted.
    cost: u32,
    now: Vec<u32>,
    next: usize,
}

/// The costliest single step: a diagonal into water (a climb costs at
/// most a diagonal onto high ground, 2 × 21).
const MAX_STEP_DM: u32 = DIAG_DM * 3;
const RING: usize = 64;
const _: () = assert!((MAX_STEP_DM as usize) < RING);

impl Default for Frontier {
    fn default() -> Frontier {
        Frontier {
            ring: Box::new(std::array::from_fn(|_| Vec::new())),
            filled: 0,
            cost: 0,
            now: Vec::new(),
            next: 0,
        }
    }
}

thread_local! {
    static FRONTIER: std::cell::RefCell<Frontier> = std::cell::RefCell::new(Frontier::default());
    /// The answers [`Map::toward_past`] keeps, by a hash of their key.
    static TOWARD: std::cell::RefCell<Vec<Option<TowardKept>>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The last tree [`Map::reach_tree_kept`] searched on this thread.
    static LAST_REACH: std::cell::RefCell<Option<LastReach>> = const { std::cell::RefCell::new(None) };
}

/// How many answers of [`Map::toward_past`] a thread keeps.
const KEPT_TOWARD: usize = 1024;

/// The slot of `slots` a kept answer of a search from `start` within
/// `budget_dm` never entering `held` (towards `goal`, if it has one) lies
/// in: a hash of all of them.
pub fn kept_slot(
    start: Cell,
    budget_dm: u32,
    held: &[Cell],
    goal: Option<Cell>,
    slots: usize,
) -> usize {
    let bits = held
        .iter()
        .chain([&start])
        .chain(goal.as_ref())
        .fold(u64::from(budget_dm), |b, c| {
            b.rotate_left(11) ^ (c.x as u32 as u64) << 16 ^ c.y as u32 as u64
        });
    (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % slots
}

/// Which map a kept answer was worked out on ([`Map::key`]): that map or a
/// copy of it, which share its table of steps. Terrain and zones are set
/// when a map is made ([`Map::new`], [`Map::with_zones`], each with a table
/// of its own) and never change after, so a map this key [`MapKey::is`]
/// has the same cells, costs and zones.
#[derive(Clone)]
pub struct MapKey(std::sync::Arc<[[u32; 8]]>);

impl MapKey {
    /// Is `map` the map this key was taken from, or a copy of it?
    pub fn is(&self, map: &Map) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &map.steps)
    }
}

/// An answer of [`Map::toward_past`], and all its search read.
struct TowardKept {
    steps: std::sync::Arc<[[u32; 8]]>,
    start: Cell,
    goal: Cell,
    budget_dm: u32,
    held: smallvec::SmallVec<[Cell; 16]>,
    path: Option<Vec<Cell>>,
}

/// A tree [`Map::reach_tree_kept`] searched, and all the search read.
struct LastReach {
    steps: std::sync::Arc<[[u32; 8]]>,
    budget_dm: u32,
    held: smallvec::SmallVec<[Cell; 16]>,
    tree: std::sync::Arc<ReachTree>,
}

/// Runs `f` with this thread's frontier, emptied: a fresh one when a
/// search is under way on the thread already (one searching inside
/// another's question).
fn with_frontier<T>(f: impl FnOnce(&mut Frontier) -> T) -> T {
    FRONTIER.with(|kept| {
        let mut fresh = None;
        let mut kept = kept.try_borrow_mut();
        let frontier = match kept.as_mut() {
            Ok(f) => &mut **f,
            Err(_) => fresh.insert(Frontier::default()),
        };
        frontier.clear();
        f(frontier)
    })
}

impl Frontier {
    fn clear(&mut self) {
        // Only the buckets still holding cells (a search cut short leaves
        // some): the others are empty.
        let mut filled = self.filled;
        while filled != 0 {
            self.ring[filled.trailing_zeros() as usize].clear();
            filled &= filled - 1;
        }
        self.filled = 0;
        self.cost = 0;
        self.now.clear();
        self.next = 0;
    }

    /// A cell waiting at `cost`: never below the cost being emptied, and
    /// less than a ring's turn beyond it.
    fn push(&mut self, cost: u32, i: u32) {
        let slot = cost as usize % RING;
        self.ring[slot].push(i);
        self.filled |= 1u64 << slot;
    }

    /// The cheapest waiting cell, lowest index first among equals.
    fn pop(&mut self) -> Option<(u32, u32)> {
        loop {
            if let Some(&i) = self.now.get(self.next) {
                self.next += 1;
                return Some((self.cost, i));
            }
            if self.filled == 0 {
                return None;
            }
            let at = self.cost as usize % RING;
            let ahead = self.filled.rotate_right(at as u32).trailing_zeros();
            self.cost += ahead;
            let slot = (at + ahead as usize) % RING;
            self.filled &= !(1u64 << slot);
            self.now.clear();
            std::mem::swap(&mut self.now, &mut self.ring[slot]);
            // (Most buckets hold one cell.)
            if self.now.len() > 1 {
                self.now.sort_unstable();
            }
            self.next = 0;
        }
    }
}

impl Map {
    /// A map of `width` × `height` cells; `terrain` is row-major.
    ///
    /// # Panics
    /// When `terrain.len() != width * height` (a programming error; the level
    /// loader validates file data before building a map).
    pub fn new(width: i32, height: i32, terrain: Vec<Terrain>) -> Map {
        let width = width.max(0);
        let height = height.max(0);
        let n = width as usize * height as usize;
        assert_eq!(terrain.len(), n, "terrain must have width * height cells");
        let mut map = Map {
            width,
            height,
            terrain,
            zones: Vec::new(),
            zone_of: vec![None; n],
            zone_links: Vec::new(),
            zone_dist: Vec::new(),
            steps: std::sync::Arc::from([]),
            near: std::sync::Arc::from([]),
            lines: Kept(std::sync::Arc::new(Lines::for_cells(n))),
            fields: Kept(std::sync::Arc::new(if n <= Lines::MAX_CELLS {
                Fields(
                    (0..n).map(|_| std::sync::OnceLock::new()).collect(),
                    std::sync::OnceLock::new(),
                )
            } else {
                Fields::default()
            })),
        };
        map.steps = map
            .cells()
            .map(|c| {
                STEP_ORDER.map(|(dx, dy)| {
                    map.terrain_step_cost(c, Cell::new(c.x + dx, c.y + dy))
                        .unwrap_or(u32::MAX)
                })
            })
            .collect();
        map.near = map
            .cells()
            .map(|c| {
                NEIGHBOURS
                    .iter()
                    .chain(&[(0, 0)])
                    .fold(0u8, |bits, (dx, dy)| {
                        bits | map.terrain(Cell::new(c.x + dx, c.y + dy)).near_bit()
                    })
            })
            .collect();
        map
    }

    /// Does the block of nine cells around `c` (`c` and its eight
    /// neighbours) hold any of `kinds`? Off the map counts as `Wall`.
    pub fn near_any(&self, c: Cell, kinds: &[Terrain]) -> bool {
        let wanted = kinds.iter().fold(0u8, |bits, t| bits | t.near_bit());
        match self.index(c).and_then(|i| self.near.get(i)) {
            Some(bits) => bits & wanted != 0,
            None => NEIGHBOURS
                .iter()
                .chain(&[(0, 0)])
                .any(|(dx, dy)| kinds.contains(&self.terrain(Cell::new(c.x + dx, c.y + dy)))),
        }
    }

    /// Attaches zones, filling the cell → zone table and the adjacency graph.
    /// Out-of-bounds cells are ignored; a cell listed in several zones belongs
    /// to the first. Two zones are adjacent when a passable cell of one touches
    /// a passable cell of the other orthogonally or diagonally.
    pub fn with_zones(mut self, zones: Vec<Zone>) -> Map {
        let zones: Vec<Zone> = zones.into_iter().take(usize::from(u16::MAX)).collect();
        self.zone_of = vec![None; self.terrain.len()];
        for (z, zone) in zones.iter().enumerate() {
            let Ok(z) = u16::try_from(z) else { break };
            for &c in &zone.cells {
                if let Some(slot) = self.index(c).and_then(|i| self.zone_of.get_mut(i))
                    && slot.is_none()
                {
                    *slot = Some(z);
                }
            }
        }
        let mut links: Vec<Vec<u16>> = vec![Vec::new(); zones.len()];
        for c in self.cells() {
            let Some(za) = self.zone_of(c) else { continue };
            if !self.terrain(c).passable() {
                continue;
            }
            for (dx, dy) in NEIGHBOURS {
                let n = Cell::new(c.x + dx, c.y + dy);
                if let Some(zb) = self.zone_of(n)
                    && zb != za
                    && self.terrain(n).passable()
                    && let Ok(zb16) = u16::try_from(zb)
                    && let Some(list) = links.get_mut(za)
                {
                    list.push(zb16);
                }
            }
        }
        for l in &mut links {
            l.sort_unstable();
            l.dedup();
        }
        self.zones = zones;
        self.zone_links = links;
        // A table of its own: a [`MapKey`] names one map and its zones.
        self.steps = self.steps.iter().copied().collect();
        let n = self.zones.len();
        self.zone_dist = Vec::with_capacity(n * n);
        for a in 0..n {
            for b in 0..n {
                let d = self.zone_bfs(a, b).unwrap_or(u32::MAX);
                self.zone_dist.push(d);
            }
        }
        self
    }

    /// What names this map (and its copies) for answers kept across
    /// battles; none for a map read without its table of steps (a test's).
    pub fn key(&self) -> Option<MapKey> {
        (!self.steps.is_empty()).then(|| MapKey(self.steps.clone()))
    }

    /// Number of columns.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// Whether `c` lies on the map.
    pub fn in_bounds(&self, c: Cell) -> bool {
        c.x >= 0 && c.y >= 0 && c.x < self.width && c.y < self.height
    }

    fn index(&self, c: Cell) -> Option<usize> {
        if self.in_bounds(c) {
            Some(c.y as usize * self.width as usize + c.x as usize)
        } else {
            None
        }
    }

    /// Terrain of `c`; `Wall` when out of bounds.
    pub fn terrain(&self, c: Cell) -> Terrain {
        self.index(c)
            .and_then(|i| self.terrain.get(i).copied())
            .unwrap_or(Terrain::Wall)
    }

    /// All cells in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let w = self.width;
        (0..self.height).flat_map(move |y| (0..w).map(move |x| Cell::new(x, y)))
    }

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
    fn terrain_step_cost(&self, from: Cell, to: Cell) -> Option<u32> {
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

    /// The zone of the cell at `index` (row by row), if any.
    pub fn zone_at(&self, index: usize) -> Option<u16> {
        self.zone_of.get(index).copied().flatten()
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

    /// Walks the segment between the centres of `a` and `b` (exclusive of
    /// both) in exact integer arithmetic, step by step, allocating nothing.
    fn line_steps(a: Cell, b: Cell) -> LineSteps {
        let dx = b.x - a.x;
        let dy = b.y - a.y;
        LineSteps {
            n: (i64::from(dx.abs()), i64::from(dy.abs())),
            s: (dx.signum(), dy.signum()),
            i: (0, 0),
            p: a,
            b,
            pending: None,
        }
    }

    /// Cells a straight line from the centre of `a` to the centre of `b`
    /// passes through, excluding `a` and `b` (supercover: when the line passes
    /// exactly through a corner both side cells are included, the horizontal
    /// neighbour first). Ordered from `a` to `b`.
    pub fn cells_between(a: Cell, b: Cell) -> Vec<Cell> {
        Map::cells_between_iter(a, b).collect()
    }

    /// [`Map::cells_between`], one cell at a time, allocating nothing.
    pub fn cells_between_iter(a: Cell, b: Cell) -> impl Iterator<Item = Cell> {
        Map::line_steps(a, b).flat_map(|step| {
            let (first, second) = match step {
                LineStep::Cell(c) => (c, None),
                LineStep::Corner(h, v) => (h, Some(v)),
            };
            std::iter::once(first).chain(second)
        })
    }

    /// True when no cell strictly between `a` and `b` blocks sight (a line
    /// touching a corner is blocked only if both side cells block).
    /// Symmetric: `los(a, b) == los(b, a)`.
    pub fn line_of_sight(&self, a: Cell, b: Cell) -> bool {
        match self.line(a, b) {
            Some(bits) => bits & Lines::CLEAR != 0,
            None => self.walk_sight(a, b),
        }
    }

    fn walk_sight(&self, a: Cell, b: Cell) -> bool {
        Map::line_steps(a, b).all(|step| match step {
            LineStep::Cell(c) => !self.terrain(c).blocks_sight(),
            LineStep::Corner(h, v) => {
                !(self.terrain(h).blocks_sight() && self.terrain(v).blocks_sight())
            }
        })
    }

    /// The cells of the line from `a` to `b` ([`Map::cells_between`]) that
    /// touch `b`, in line order: what stands right before the far end (a
    /// ruleset's cover).
    pub fn line_end(&self, a: Cell, b: Cell) -> impl Iterator<Item = Cell> {
        let bits = self.line(a, b);
        let known = bits.map(|bits| {
            let n = (bits >> Lines::COUNT_SHIFT) & 3;
            (0..n).map(move |k| {
                let (dx, dy) = NEIGHBOURS[usize::from((bits >> (3 * k)) & 7)];
                Cell::new(b.x + dx, b.y + dy)
            })
        });
        let walked = bits
            .is_none()
            .then(|| Map::cells_between_iter(a, b).filter(move |c| Map::chebyshev(*c, b) == 1));
        known
            .into_iter()
            .flatten()
            .chain(walked.into_iter().flatten())
    }

    /// The kept answers about the line from `a` to `b`, walking it the
    /// first time; `None` when the map keeps none (too large, out of
    /// bounds, or more than three cells touch the end).
    fn line(&self, a: Cell, b: Cell) -> Option<u16> {
        use std::sync::atomic::Ordering::Relaxed;
        let n = self.terrain.len();
        let slot = self.lines.0.0.get(self.index(a)? * n + self.index(b)?)?;
        let bits = slot.load(Relaxed);
        if bits & Lines::KNOWN != 0 {
            return Some(bits);
        }
        let mut bits = Lines::KNOWN;
        if self.walk_sight(a, b) {
            bits |= Lines::CLEAR;
        }
        let mut count = 0u16;
        for c in Map::cells_between_iter(a, b).filter(|c| Map::chebyshev(*c, b) == 1) {
            if count == 3 {
                return None;
            }
            let k = NEIGHBOURS
                .iter()
                .position(|&d| d == (c.x - b.x, c.y - b.y))?;
            bits |= (k as u16) << (3 * count);
            count += 1;
        }
        bits |= count << Lines::COUNT_SHIFT;
        // Every thread that walks the line finds the same answer.
        slot.store(bits, Relaxed);
        Some(bits)
    }

    /// Legal steps out of `c` with their costs, never entering blocked cells.
    fn successors(&self, c: Cell, blocked: &impl Fn(Cell) -> bool) -> Vec<(Cell, u32)> {
        NEIGHBOURS
            .iter()
            .filter_map(|&(dx, dy)| {
                let n = Cell::new(c.x + dx, c.y + dy);
                let cost = self.step_cost(c, n)?;
                (!blocked(n)).then_some((n, cost))
            })
            .collect()
    }

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
    fn tree(&self, start: Cell, cost: Vec<u32>, parent: Vec<u32>) -> ReachTree {
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
    fn toward_searched(
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
    fn walk_down(
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

    /// The distances from `start` (ignoring occupants) of every cell nearer
    /// to it than `until` is, `until`'s own, and of cells found on the way:
    /// the search stops once it reaches `until`. What an AI closing in on
    /// `start` from `until` needs, without searching the whole map. Costs
    /// of cells nearer than `until` are exact (the same as
    /// [`Map::reach_tree`]'s); farther cells are absent or over-estimated
    /// but never below `until`'s cost.
    pub fn field_until(&self, start: Cell, until: Cell) -> ReachTree {
        self.search(start, u32::MAX, |_| false, self.index(until))
    }

    /// The distances to `goal` (ignoring occupants) of every cell nearer to
    /// it than `until`, and of `until`: exact, as [`Map::field_until`]'s;
    /// farther cells have their exact distance or none. Kept per goal for
    /// maps of up to [`Lines::MAX_CELLS`] cells, so that one search serves
    /// every battle on the level; larger maps search to `until` each time.
    pub fn distances(&self, goal: Cell, until: Cell) -> Distances<'_> {
        match self.index(goal).and_then(|g| self.fields.0.0.get(g)) {
            Some(kept) => Distances::Kept {
                costs: kept.get_or_init(|| {
                    self.search(goal, u32::MAX, |_| false, None)
                        .cost
                        .into_boxed_slice()
                }),
                width: self.width,
            },
            None => Distances::Searched(self.field_until(goal, until)),
        }
    }

    /// How far each cell is from the nearest passable cell on the map's
    /// edge, where a combatant can leave the battle (ignoring occupants):
    /// found once per map, as [`Map::distances`]' fields are.
    pub fn exit_distances(&self) -> Distances<'_> {
        let costs = self.fields.0.1.get_or_init(|| {
            let edge: Vec<Cell> = self
                .cells()
                .filter(|c| {
                    (c.x == 0 || c.y == 0 || c.x == self.width - 1 || c.y == self.height - 1)
                        && self.terrain(*c).passable()
                })
                .collect();
            self.search_from(
                &edge,
                u32::MAX,
                |_| false,
                &[],
                None,
                |_, _| Settled::Expand,
            )
            .cost
            .into_boxed_slice()
        });
        Distances::Kept {
            costs,
            width: self.width,
        }
    }

    fn search(
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
    fn search_past(
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
    fn search_from(
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
        // Cells held by others look already reached at no cost: no step
        // ever improves on that, so none is entered (a cheaper test than
        // asking `blocked`). Made unreached again after the search.
        let held: smallvec::SmallVec<[usize; 16]> = held
            .iter()
            .filter_map(|c| self.index(*c))
            .filter(|&i| cost[i] == u32::MAX)
            .collect();
        for &i in &held {
            cost[i] = 0;
        }
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
        for &i in &held {
            if !starts.iter().any(|s| self.index(*s) == Some(i)) {
                cost[i] = u32::MAX;
            }
        }
        self.tree(start, cost, parent)
    }

    /// The costs of the eight steps out of cell `i` ([`Map::steps`]'s row),
    /// for a map read without its table.
    fn step_row(&self, i: usize) -> [u32; 8] {
        let c = Cell::new(i as i32 % self.width, i as i32 / self.width);
        STEP_ORDER.map(|(dx, dy)| {
            self.step_cost(c, Cell::new(c.x + dx, c.y + dy))
                .unwrap_or(u32::MAX)
        })
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

    /// All zones, in index order.
    pub fn zones(&self) -> &[Zone] {
        &self.zones
    }

    /// Index of the zone containing `c`, if any.
    pub fn zone_of(&self, c: Cell) -> Option<usize> {
        self.index(c)
            .and_then(|i| self.zone_of.get(i).copied().flatten())
            .map(usize::from)
    }

    /// Index of the zone called `name`.
    pub fn zone_index(&self, name: &str) -> Option<usize> {
        self.zones.iter().position(|z| z.name == name)
    }

    /// Whether zones `a` and `b` touch (a zone is not adjacent to itself).
    pub fn zones_adjacent(&self, a: usize, b: usize) -> bool {
        u16::try_from(b).is_ok_and(|b| self.zone_neighbours(a).binary_search(&b).is_ok())
    }

    /// Indices of the zones adjacent to `z`, ascending; empty for an unknown zone.
    pub fn zone_neighbours(&self, z: usize) -> &[u16] {
        self.zone_links.get(z).map_or(&[], Vec::as_slice)
    }

    /// Zone steps between two zones by BFS over the adjacency graph (0 for the
    /// same zone), None if unconnected or unknown.
    pub fn zone_distance(&self, a: usize, b: usize) -> Option<u32> {
        let n = self.zones.len();
        if a >= n || b >= n {
            return None;
        }
        match self.zone_dist.get(a * n + b) {
            Some(&u32::MAX) => None,
            Some(&d) => Some(d),
            None => self.zone_bfs(a, b),
        }
    }

    fn zone_bfs(&self, a: usize, b: usize) -> Option<u32> {
        let n = self.zones.len();
        let mut dist: Vec<Option<u32>> = vec![None; n];
        dist[a] = Some(0);
        let mut queue = VecDeque::from([a]);
        while let Some(z) = queue.pop_front() {
            let d = dist[z]?;
            if z == b {
                return Some(d);
            }
            for &next in self.zone_neighbours(z) {
                let next = usize::from(next);
                if next < n && dist[next].is_none() {
                    dist[next] = Some(d + 1);
                    queue.push_back(next);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept answers about lines are the walked ones, the first time and
    /// after, on a map small enough to keep them and on one too large.
    #[test]
    fn kept_lines_answer_as_walking_them_does() {
        let small = grid(&["..#..c..", ".C..#...", "..c...#.", "#...C...", "...c..,."]);
        let wide = Map::new(33, 32, vec![Terrain::Open; 33 * 32]);
        for (m, starts) in [(&small, 40), (&wide, 3)] {
            for _ in 0..2 {
                for a in m.cells().take(starts) {
                    for b in m.cells() {
                        assert_eq!(m.line_of_sight(a, b), m.walk_sight(a, b), "{a} {b}");
                        let walked: Vec<Cell> = Map::cells_between(a, b)
                            .into_iter()
                            .filter(|c| Map::chebyshev(*c, b) == 1)
                            .collect();
                        let kept: Vec<Cell> = m.line_end(a, b).collect();
                        assert_eq!(kept, walked, "{a} {b}");
                    }
                }
            }
        }
        assert!(
            small
                .lines
                .0
                .0
                .iter()
                .all(|s| s.load(std::sync::atomic::Ordering::Relaxed) != 0)
        );
        assert!(wide.lines.0.0.is_empty());
    }

    /// Builds a map from rows of characters: '.' open, '#' wall, ',' difficult,
    /// '~' water, 'c' low cover, 'C' high cover, '^' high ground.
    fn grid(rows: &[&str]) -> Map {
        let height = rows.len() as i32;
        let width = rows[0].len() as i32;
        let terrain = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|ch| match ch {
                '.' => Terrain::Open,
                '#' => Terrain::Wall,
                ',' => Terrain::Difficult,
                '~' => Terrain::Water,
                'c' => Terrain::LowCover,
                'C' => Terrain::HighCover,
                '^' => Terrain::HighGround,
                other => panic!("bad test char {other}"),
            })
            .collect();
        Map::new(width, height, terrain)
    }

    fn c(x: i32, y: i32) -> Cell {
        Cell::new(x, y)
    }

    /// The tree counts a path's steps exactly as the path it would build.
    #[test]
    fn steps_to_counts_the_path_without_building_it() {
        let m = grid(&["....#.", ".##.#.", "......"]);
        let tree = m.reach_tree(c(0, 0), 200, |_| false);
        let mut seen = 0;
        for (cell, _) in tree.reached() {
            let path = tree.path_to(cell).expect("a path");
            assert_eq!(tree.steps_to(cell), Some(path.len()), "{cell}");
            seen += 1;
        }
        assert!(seen > 10);
        assert_eq!(tree.steps_to(c(0, 0)), Some(0));
        assert_eq!(tree.steps_to(c(4, 0)), None);
        assert_eq!(tree.steps_to(c(9, 9)), None);
    }

    #[test]
    fn cell_display_and_terrain_basics() {
        assert_eq!(c(3, -1).to_string(), "(3,-1)");
        assert!(!Terrain::Wall.passable());
        assert!(!Terrain::HighCover.passable());
        assert!(Terrain::LowCover.passable());
        assert!(Terrain::Wall.blocks_sight());
        assert!(!Terrain::HighCover.blocks_sight());
        assert_eq!(Terrain::LowCover.name(), "low cover");
        assert_eq!(Terrain::HighGround.name(), "high ground");
        let m = grid(&["..", ".#"]);
        assert_eq!(m.width(), 2);
        assert_eq!(m.height(), 2);
        assert_eq!(m.terrain(c(1, 1)), Terrain::Wall);
        assert_eq!(m.terrain(c(0, 1)), Terrain::Open);
        assert_eq!(m.terrain(c(5, 0)), Terrain::Wall);
        assert_eq!(m.terrain(c(-1, 0)), Terrain::Wall);
        assert!(!m.in_bounds(c(2, 0)));
        assert_eq!(
            m.cells().collect::<Vec<_>>(),
            vec![c(0, 0), c(1, 0), c(0, 1), c(1, 1)]
        );
    }

    /// The table the reach search reads is `step_cost`, cell by cell, and a
    /// map without it (read some other way) searches the same.
    #[test]
    fn the_step_table_is_step_cost() {
        let m = grid(&[
            "..#.", //
            ".,~^", //
            "c.#^", //
            ".C..",
        ]);
        for (i, c) in m.cells().enumerate() {
            for (k, (dx, dy)) in STEP_ORDER.iter().enumerate() {
                let n = Cell::new(c.x + dx, c.y + dy);
                assert_eq!(
                    m.steps[i][k],
                    m.terrain_step_cost(c, n).unwrap_or(u32::MAX),
                    "{c} -> {n}"
                );
            }
        }
        // Asked of any two cells (the same, a step apart, further, off the
        // map), the table answers as the terrain does.
        for y in -1..=4 {
            for x in -1..=4 {
                let c = Cell::new(x, y);
                for dy in -2..=2 {
                    for dx in -2..=2 {
                        let n = Cell::new(x + dx, y + dy);
                        assert_eq!(m.step_cost(c, n), m.terrain_step_cost(c, n), "{c} -> {n}");
                    }
                }
            }
        }
        let bare = Map {
            steps: std::sync::Arc::from([]),
            ..m.clone()
        };
        for start in m.cells() {
            let (a, b) = (
                m.reach_tree(start, 90, |_| false),
                bare.reach_tree(start, 90, |_| false),
            );
            assert_eq!(a.cost, b.cost, "{start}");
            assert_eq!(a.parent, b.parent, "{start}");
        }
    }

    /// The table of terrains near each cell answers as looking at the
    /// nine cells does, off the map (as `Wall`) too.
    #[test]
    fn the_table_of_terrains_near_is_the_nine_cells() {
        let m = grid(&["..c~", "#.^.", "C,.."]);
        let bare = Map {
            near: std::sync::Arc::from([]),
            ..m.clone()
        };
        let kinds: [&[Terrain]; 4] = [
            &[Terrain::LowCover, Terrain::HighCover],
            &[Terrain::Wall],
            &[Terrain::Water],
            &[Terrain::Open, Terrain::Pit],
        ];
        let mut seen = [0; 2];
        for y in -1..=3 {
            for x in -1..=4 {
                let c = Cell::new(x, y);
                for k in kinds {
                    let near = m.near_any(c, k);
                    assert_eq!(near, bare.near_any(c, k), "{c} {k:?}");
                    seen[usize::from(near)] += 1;
                }
            }
        }
        // Both answers given, and the table read (not the walk) on the map.
        assert!(seen[0] > 0 && seen[1] > 0);
        assert_eq!(m.near.len(), 12);
        assert!(m.near_any(Cell::new(3, 1), &[Terrain::Water]));
        assert!(!m.near_any(Cell::new(3, 2), &[Terrain::Water]));
        assert!(m.near_any(Cell::new(1, 1), &[Terrain::LowCover]));
        assert!(!m.near_any(Cell::new(3, 2), &[Terrain::LowCover]));
        assert!(m.near_any(Cell::new(0, 0), &[Terrain::Wall]), "off the map");
    }

    /// A field searched until a cell is reached agrees with the whole
    /// field on every cell nearer than that one, and puts no farther cell
    /// below it.
    #[test]
    fn a_field_until_a_cell_agrees_with_the_whole_field_nearer_than_it() {
        let m = grid(&[
            "..#.....", //
            ".,~^..#.", //
            "c.#^.,..", //
            ".C....~.",
        ]);
        let mut cut_short = 0;
        for goal in m.cells() {
            let whole = m.reach_tree(goal, u32::MAX, |_| false);
            for until in m.cells() {
                let part = m.field_until(goal, until);
                let Some(limit) = whole.cost(until) else {
                    assert_eq!(part.cost, whole.cost, "{goal} {until}");
                    continue;
                };
                assert_eq!(part.cost(until), Some(limit), "{goal} {until}");
                for cell in m.cells() {
                    match (whole.cost(cell), part.cost(cell)) {
                        (Some(w), p) if w < limit => assert_eq!(p, Some(w), "{goal} {cell}"),
                        (_, Some(p)) => assert!(p >= limit, "{goal} {cell}"),
                        (_, None) => cut_short += 1,
                    }
                }
            }
        }
        // The search did stop early.
        assert!(cut_short > 0);
    }

    /// `nearest_by` is the least `(distance, cost, cell)` of `reached()`,
    /// from a kept field and from one searched for the occasion, on a map
    /// with walls, water and slopes, from every start to every goal and
    /// with others' cells held; cells tie on distance and cost, so the
    /// cell's own order decides some. `each_within_field` gives what
    /// `within` and the field's `cost` give, under every budget.
    #[test]
    fn nearest_by_is_the_least_of_the_reached_cells() {
        let m = grid(&[
            "..#.....", //
            ".,~^..#.", //
            "c.#^.,..", //
            ".C....~.",
        ]);
        let held = [c(4, 1), c(1, 3)];
        let (mut found, mut ties, mut walked) = (0, 0, 0);
        for start in m.cells() {
            for budget in [30, 60, 200] {
                let tree = m.reach_tree_past(start, budget, &held);
                for goal in m.cells() {
                    let fields = [
                        m.distances(goal, start),
                        Distances::Searched(m.field_until(goal, start)),
                    ];
                    for field in fields.iter() {
                        let all: Vec<(u32, u32, Cell)> = tree
                            .reached()
                            .filter_map(|(c, cost)| Some((field.cost(c)?, cost, c)))
                            .collect();
                        let least = all.iter().min().copied();
                        assert_eq!(tree.nearest_by(field), least, "{start} {goal}");
                        // Each cell within a budget the field knows, read
                        // from both tables: what `within` and `cost` give.
                        for within in [0, 20, budget] {
                            let mut each = Vec::new();
                            tree.each_within_field(within, field, |c, d| each.push((c, d)));
                            let asked: Vec<(Cell, u32)> = tree
                                .within(within)
                                .filter_map(|(c, _)| Some((c, field.cost(c)?)))
                                .collect();
                            assert_eq!(each, asked, "{start} {goal} {within}");
                            walked += each.len();
                        }
                        found += usize::from(least.is_some());
                        ties += usize::from(least.is_some_and(|(d, cost, cell)| {
                            all.iter()
                                .any(|&(d2, c2, x)| (d2, c2) == (d, cost) && x != cell)
                        }));
                    }
                }
            }
        }
        assert!(found > 1_000 && ties > 100, "{found} found, {ties} tied");
        assert!(walked > 10_000, "{walked} cells walked");
        // A field of another map's shape is read cell by cell; a field's
        // cells off its map, or past a row's end, have no distance.
        let other = grid(&["...", ".#.", "...", "..."]);
        let field = other.distances(c(2, 3), c(0, 0));
        assert_eq!(field.cost(c(2, 3)), Some(0));
        for off in [c(3, 0), c(-1, 1), c(0, -1), c(0, 4), c(5, 5)] {
            assert_eq!(field.cost(off), None, "{off}");
        }
        let tree = m.reach_tree_past(c(0, 0), 200, &held);
        let mut each = Vec::new();
        tree.each_within_field(200, &field, |c, d| each.push((c, d)));
        let asked: Vec<(Cell, u32)> = tree
            .within(200)
            .filter_map(|(c, _)| Some((c, field.cost(c)?)))
            .collect();
        assert_eq!(each, asked);
        assert!(each.len() > 5, "{each:?}");
    }

    /// The search the frontier replaced, as it was: a binary heap of
    /// `(cost, index)`, a `blocked` test for every step.
    fn heap_search(m: &Map, start: Cell, budget: u32, held: &[Cell]) -> (Vec<u32>, Vec<u32>) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = (m.width * m.height) as usize;
        let (mut cost, mut parent) = (vec![u32::MAX; n], vec![u32::MAX; n]);
        let mut heap = BinaryHeap::new();
        let s = m.index(start).expect("start on the map");
        cost[s] = 0;
        heap.push(Reverse((0u32, s as u32)));
        while let Some(Reverse((c, i))) = heap.pop() {
            if c > cost[i as usize] {
                continue;
            }
            let here = Cell::new(i as i32 % m.width, i as i32 / m.width);
            for (dx, dy) in STEP_ORDER {
                let next = Cell::new(here.x + dx, here.y + dy);
                let Some(step) = m.step_cost(here, next) else {
                    continue;
                };
                let j = m.index(next).expect("a step stays on the map");
                let nc = c + step;
                if nc > budget || nc >= cost[j] || held.contains(&next) {
                    continue;
                }
                cost[j] = nc;
                parent[j] = i;
                heap.push(Reverse((nc, j as u32)));
            }
        }
        (cost, parent)
    }

    mod searches {
        use super::*;
        use proptest::prelude::*;

        fn terrain() -> impl Strategy<Value = Terrain> {
            prop_oneof![
                6 => Just(Terrain::Open),
                1 => Just(Terrain::Wall),
                1 => Just(Terrain::Difficult),
                1 => Just(Terrain::Water),
                1 => Just(Terrain::LowCover),
                1 => Just(Terrain::HighGround),
            ]
        }

        fn map_and_cells() -> impl Strategy<Value = (Map, Cell, Vec<Cell>, u32, u32)> {
            (2i32..11, 2i32..11).prop_flat_map(|(w, h)| {
                (
                    proptest::collection::vec(terrain(), (w * h) as usize),
                    (0..w, 0..h),
                    proptest::collection::vec((0..w, 0..h), 0..8),
                    0u32..250,
                    0u32..250,
                )
                    .prop_map(move |(t, (sx, sy), held, a, b)| {
                        let held = held
                            .into_iter()
                            .map(|(x, y)| Cell::new(x, y))
                            .filter(|c| *c != Cell::new(sx, sy))
                            .collect();
                        (
                            Map::new(w, h, t),
                            Cell::new(sx, sy),
                            held,
                            a.min(b),
                            a.max(b),
                        )
                    })
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]

            /// The reach search with its frontier finds the very costs and
            /// paths (ties included) the binary heap and a `blocked` test
            /// found, with the cells others hold marked or asked about.
            #[test]
            fn the_frontier_searches_as_the_heap_did((m, start, held, _, budget) in map_and_cells()) {
                let (cost, parent) = heap_search(&m, start, budget, &held);
                let past = m.reach_tree_past(start, budget, &held);
                prop_assert_eq!(&past.cost, &cost);
                prop_assert_eq!(&past.parent, &parent);
                let asked = m.reach_tree(start, budget, |c| held.contains(&c));
                prop_assert_eq!(&asked.cost, &cost);
                prop_assert_eq!(&asked.parent, &parent);
            }

            /// A tree searched further, read within a smaller budget, is the
            /// tree searched to that budget: the same cells, costs and paths.
            #[test]
            fn a_further_search_read_within_a_budget_is_that_search((m, start, held, near, far) in map_and_cells()) {
                let small = m.reach_tree_past(start, near, &held);
                let big = m.reach_tree_past(start, far, &held);
                let within: Vec<(Cell, u32)> = big.within(near).collect();
                let direct: Vec<(Cell, u32)> = small.reached().collect();
                prop_assert_eq!(&within, &direct);
                for (c, _) in direct {
                    prop_assert_eq!(big.path_to(c), small.path_to(c));
                }
            }

            /// The search that stops at the cheapest wanted cell finds the
            /// cell the whole tree gives as the least `(cost, cell)` of those
            /// wanted, and its very path; with none wanted, the whole tree.
            /// Wanted: the cells beside a goal, or those in a band of columns.
            #[test]
            fn the_nearest_wanted_cell_is_the_whole_tree_s(
                (m, start, held, _, budget) in map_and_cells(),
                (gx, gy, band) in (0i32..11, 0i32..11, 0i32..3),
            ) {
                let goal = Cell::new(gx, gy);
                let wants: [&dyn Fn(Cell) -> bool; 2] = [
                    &|c: Cell| Map::chebyshev(c, goal) <= 1,
                    &|c: Cell| c.x % 3 == band,
                ];
                for wanted in wants {
                    let whole = m.reach_tree_past(start, budget, &held);
                    let best = whole
                        .reached()
                        .filter(|(c, _)| wanted(*c))
                        .min_by_key(|(c, cost)| (*cost, *c));
                    match (m.nearest_past(start, budget, &held, wanted), best) {
                        (Ok(path), Some((c, _))) => prop_assert_eq!(Some(path), whole.path_to(c)),
                        (Err(tree), None) => {
                            prop_assert_eq!(&tree.cost, &whole.cost);
                            prop_assert_eq!(&tree.parent, &whole.parent);
                        }
                        (found, best) => prop_assert!(false, "found {:?}, the whole tree's {:?}", found.ok(), best),
                    }
                }
            }

            /// The way toward a goal is what the whole tree gives: the path
            /// to the cheapest cell beside the goal (the least of equally
            /// cheap ones), else to the reached cell least by (distance to
            /// the goal by the kept field, cost, cell) if nearer than the
            /// start, else none; searched, and again from what was kept.
            #[test]
            fn the_way_toward_a_goal_is_the_whole_tree_s(
                (m, start, held, _, budget) in map_and_cells(),
                (gx, gy) in (0i32..11, 0i32..11),
            ) {
                let goal = Cell::new(gx, gy);
                let whole = m.reach_tree_past(start, budget, &held);
                let beside = whole
                    .reached()
                    .filter(|(c, _)| Map::chebyshev(*c, goal) <= 1)
                    .min_by_key(|(c, cost)| (*cost, *c));
                let field = m.distances(goal, start);
                let here_d = field.cost(start).unwrap_or(u32::MAX);
                let nearest = whole
                    .reached()
                    .filter_map(|(c, cost)| Some((field.cost(c)?, cost, c)))
                    .filter(|(d, _, _)| *d < here_d)
                    .min();
                let expected = match (beside, nearest) {
                    (Some((c, _)), _) | (None, Some((_, _, c))) => whole.path_to(c),
                    (None, None) => None,
                };
                prop_assert_eq!(&m.toward_searched(start, budget, &held, goal), &expected);
                prop_assert_eq!(&m.toward_past(start, budget, &held, goal), &expected);
                prop_assert_eq!(&m.toward_past(start, budget, &held, goal), &expected);
            }
        }
    }

    /// A kept way toward a goal is given again only on the map it was
    /// found on: two maps alike but for a wall, the same start, goal,
    /// budget and held cells, each its own way, asked in turn.
    #[test]
    fn a_kept_way_toward_a_goal_is_its_own_maps() {
        let open = grid(&["......", "......", "......"]);
        let walled = grid(&["......", "..#...", "......"]);
        let (start, goal) = (Cell::new(0, 1), Cell::new(5, 1));
        let held = [Cell::new(1, 0)];
        for _ in 0..2 {
            for m in [&open, &walled] {
                let whole = m.reach_tree_past(start, 200, &held);
                let cheapest = whole
                    .reached()
                    .filter(|(c, _)| Map::chebyshev(*c, goal) <= 1)
                    .min_by_key(|(c, cost)| (*cost, *c))
                    .and_then(|(c, _)| whole.path_to(c));
                assert_eq!(m.toward_past(start, 200, &held, goal), cheapest);
            }
        }
        assert_ne!(
            open.toward_past(start, 200, &held, goal),
            walled.toward_past(start, 200, &held, goal),
            "the wall changes the way"
        );
    }

    /// The kept distances are the whole field's, every time they are asked
    /// for; a map too large to keep them searches to `until`.
    #[test]
    fn kept_distances_are_the_whole_field() {
        let m = grid(&[
            "..#.....", //
            ".,~^..#.", //
            "c.#^.,..", //
            ".C....~.",
        ]);
        for _ in 0..2 {
            for goal in m.cells() {
                let whole = m.reach_tree(goal, u32::MAX, |_| false);
                let kept = m.distances(goal, Cell::new(0, 0));
                assert!(matches!(kept, Distances::Kept { .. }));
                for c in m.cells().chain([Cell::new(-1, 0), Cell::new(8, 3)]) {
                    assert_eq!(kept.cost(c), whole.cost(c), "{goal} {c}");
                }
            }
        }
        let wide = Map::new(33, 32, vec![Terrain::Open; 33 * 32]);
        let (goal, until) = (Cell::new(0, 0), Cell::new(3, 3));
        let Distances::Searched(tree) = wide.distances(goal, until) else {
            panic!("a map of 1,056 cells keeps no fields");
        };
        assert_eq!(tree.cost, wide.field_until(goal, until).cost);
    }

    /// No way between two cells costs less than `LEAST_DM_PER_METRE` per
    /// metre of the line between them: on open ground (every offset up to
    /// 40 cells, where the diagonal comes within 0.1 % of it) and over
    /// terrain and walls (every cell's distance to every goal).
    #[test]
    fn no_way_is_cheaper_a_metre_than_the_least() {
        let open = Map::new(41, 41, vec![Terrain::Open; 41 * 41]);
        let rough = grid(&[
            "..#.....", //
            ".,~^..#.", //
            "c.#^.,..", //
            ".C....~.",
        ]);
        let mut closest = f64::MAX;
        for (m, goals) in [
            (&open, vec![Cell::new(0, 0)]),
            (&rough, rough.cells().collect()),
        ] {
            for goal in goals {
                let field = m.distances(goal, goal);
                for c in m.cells().filter(|c| *c != goal) {
                    let Some(cost) = field.cost(c) else { continue };
                    let line = Map::distance_m(c, goal);
                    assert!(
                        f64::from(cost) >= LEAST_DM_PER_METRE * line,
                        "{goal} {c}: {cost} dm for {line} m"
                    );
                    closest = closest.min(f64::from(cost) / line);
                }
            }
        }
        // The bound is within 0.1 % of the cheapest way found: it spares
        // searches, and is not so low that it spares none.
        assert!(closest < LEAST_DM_PER_METRE * 1.001, "{closest}");
    }

    /// A kept tree is the tree a fresh search finds; asked for the same
    /// (by this map or a copy of it) it is given again, asked for another
    /// start, budget, held cells or map, it is searched.
    #[test]
    fn a_kept_tree_is_given_again_only_for_the_same_search() {
        let rows = ["....", ".#..", "..,.", "...."];
        let m = grid(&rows);
        let same = |a: &ReachTree, b: &ReachTree| {
            a.start == b.start && a.cost == b.cost && a.parent == b.parent
        };
        let held = [c(2, 0)];
        let first = m.reach_tree_kept(c(0, 0), 45, &held);
        assert!(same(&first, &m.reach_tree_past(c(0, 0), 45, &held)));
        let again = m.reach_tree_kept(c(0, 0), 45, &held);
        assert!(std::sync::Arc::ptr_eq(&first, &again));
        assert!(std::sync::Arc::ptr_eq(
            &first,
            &m.clone().reach_tree_kept(c(0, 0), 45, &held)
        ));
        for (start, budget, held) in [
            (c(0, 1), 45, &held[..]),
            (c(0, 0), 60, &held[..]),
            (c(0, 0), 45, &[][..]),
        ] {
            let other = m.reach_tree_kept(start, budget, held);
            assert!(!std::sync::Arc::ptr_eq(&first, &other));
            assert!(same(&other, &m.reach_tree_past(start, budget, held)));
        }
        let m2 = grid(&rows);
        let first = m.reach_tree_kept(c(0, 0), 45, &held);
        assert!(!std::sync::Arc::ptr_eq(
            &first,
            &m2.reach_tree_kept(c(0, 0), 45, &held)
        ));
    }

    #[test]
    fn step_costs() {
        let m = grid(&[
            "....", //
            ".,~^", //
            "..#^", //
            "....",
        ]);
        assert_eq!(m.step_cost(c(0, 0), c(1, 0)), Some(15));
        assert_eq!(m.step_cost(c(0, 0), c(0, 1)), Some(15));
        assert_eq!(m.step_cost(c(0, 1), c(1, 0)), Some(21));
        assert_eq!(m.step_cost(c(0, 0), c(1, 1)), Some(42)); // diagonal onto difficult
        assert_eq!(m.step_cost(c(1, 0), c(1, 1)), Some(30));
        assert_eq!(m.step_cost(c(2, 0), c(2, 1)), Some(45));
        assert_eq!(m.step_cost(c(3, 0), c(3, 1)), Some(30)); // climbing
        assert_eq!(m.step_cost(c(3, 1), c(3, 2)), Some(15)); // along the hill
        assert_eq!(m.step_cost(c(3, 2), c(3, 3)), Some(15)); // down
        assert_eq!(m.step_cost(c(2, 0), c(3, 1)), Some(42)); // diagonal climb
        // Corner cutting past the wall at (2,2).
        assert_eq!(m.step_cost(c(1, 2), c(2, 3)), None);
        assert_eq!(m.step_cost(c(1, 1), c(2, 2)), None); // into a wall
        assert_eq!(m.step_cost(c(1, 3), c(2, 3)), Some(15));
        // Not neighbours, out of bounds.
        assert_eq!(m.step_cost(c(0, 0), c(2, 0)), None);
        assert_eq!(m.step_cost(c(0, 0), c(0, 0)), None);
        assert_eq!(m.step_cost(c(0, 0), c(-1, 0)), None);
        assert_eq!(m.path_cost(c(0, 0), &[c(1, 0), c(2, 0), c(2, 1)]), Some(75));
        assert_eq!(m.path_cost(c(0, 0), &[]), Some(0));
        assert_eq!(m.path_cost(c(0, 0), &[c(2, 0)]), None);
    }

    #[test]
    fn reachable_counts_around_wall() {
        let m = grid(&[
            ".....", //
            "..#..", //
            "..#..", //
            ".....",
        ]);
        let r = m.reachable(c(0, 0), 15, |_| false);
        assert_eq!(r.len(), 3);
        assert_eq!(r[&c(0, 0)], 0);
        assert_eq!(r[&c(1, 0)], 15);
        assert_eq!(r[&c(0, 1)], 15);
        let r = m.reachable(c(0, 0), 21, |_| false);
        assert_eq!(r.len(), 4);
        assert_eq!(r[&c(1, 1)], 21);
        let r = m.reachable(c(1, 1), 30, |_| false);
        // 15: (1,0), (0,1), (1,2); 21: (0,0), (0,2); 30: (2,0) via (1,0),
        // since the diagonal (1,1)->(2,0) would cut the wall's corner, and (1,3).
        assert_eq!(
            r.keys().copied().collect::<Vec<_>>(),
            vec![
                c(0, 0),
                c(0, 1),
                c(0, 2),
                c(1, 0),
                c(1, 1),
                c(1, 2),
                c(1, 3),
                c(2, 0)
            ]
        );
        assert_eq!(r[&c(2, 0)], 30);
        assert_eq!(r[&c(1, 3)], 30);
        let r = m.reachable(c(0, 0), 1000, |_| false);
        assert_eq!(r.len(), 18);
        // Blocking (0,1) and (1,0) and (1,1) walls the start in.
        let r = m.reachable(c(0, 0), 1000, |x| {
            x == c(0, 1) || x == c(1, 0) || x == c(1, 1)
        });
        assert_eq!(r.len(), 1);
        // The start is never blocked.
        let r = m.reachable(c(0, 0), 15, |x| x == c(0, 0));
        assert_eq!(r.len(), 3);
    }

    #[test]
    fn path_around_wall() {
        let m = grid(&[
            ".....", //
            "..#..", //
            "..#..", //
            ".....",
        ]);
        let (steps, cost) = m.path(c(1, 1), c(3, 1), |_| false).unwrap();
        // Over the top; both diagonals next to the wall would cut its corner.
        assert_eq!(steps, vec![c(1, 0), c(2, 0), c(3, 0), c(3, 1)]);
        assert_eq!(cost, 60);
        assert_eq!(m.path_cost(c(1, 1), &steps), Some(60));
        // Deterministic.
        assert_eq!(m.path(c(1, 1), c(3, 1), |_| false), Some((steps, 60)));
        // Block the top route: round the bottom, again without cutting corners.
        let (steps, cost) = m.path(c(1, 1), c(3, 1), |x| x == c(2, 0)).unwrap();
        assert_eq!(
            steps,
            vec![c(1, 2), c(1, 3), c(2, 3), c(3, 3), c(3, 2), c(3, 1)]
        );
        assert_eq!(cost, 90);
        assert_eq!(m.path(c(1, 1), c(1, 1), |_| false), Some((vec![], 0)));
        assert_eq!(m.path(c(1, 1), c(2, 1), |_| false), None);
        assert_eq!(m.path(c(1, 1), c(3, 1), |x| x == c(3, 1)), None);
        assert_eq!(m.path(c(1, 1), c(3, 1), |x| x.x == 2), None);
    }

    #[test]
    fn path_costs_agree_with_reachable_and_ties_are_stable() {
        let m = grid(&[
            "..,...", //
            ".#..~.", //
            "..C.^^", //
            ".c....",
        ]);
        let start = c(0, 0);
        let all = m.reachable(start, u32::MAX, |_| false);
        assert_eq!(all.len(), 22);
        for (&cell, &cost) in &all {
            let (steps, path_cost) = m.path(start, cell, |_| false).unwrap();
            assert_eq!(path_cost, cost, "{cell}");
            assert_eq!(m.path_cost(start, &steps), Some(cost), "{cell}");
        }
        // Many equally cheap paths lead across open ground; the same one is
        // returned every time.
        let open = grid(&[".....", ".....", "....."]);
        let first = open.path(c(0, 0), c(4, 2), |_| false).unwrap();
        assert_eq!(first.1, 15 + 15 + 21 + 21);
        for _ in 0..10 {
            assert_eq!(open.path(c(0, 0), c(4, 2), |_| false).unwrap(), first);
        }
    }

    #[test]
    fn path_prefers_cheap_terrain() {
        let m = grid(&[
            ".~.", //
            "...",
        ]);
        let (steps, cost) = m.path(c(0, 0), c(2, 0), |_| false).unwrap();
        // Through the water: 45 + 15 = 60; around: 21 + 21 = 42.
        assert_eq!(steps, vec![c(1, 1), c(2, 0)]);
        assert_eq!(cost, 42);
    }

    #[test]
    fn cells_between_lines() {
        assert_eq!(Map::cells_between(c(0, 0), c(0, 0)), vec![]);
        assert_eq!(Map::cells_between(c(0, 0), c(1, 0)), vec![]);
        assert_eq!(Map::cells_between(c(0, 0), c(3, 0)), vec![c(1, 0), c(2, 0)]);
        // Exact diagonal: each corner contributes both side cells.
        assert_eq!(
            Map::cells_between(c(0, 0), c(2, 2)),
            vec![c(1, 0), c(0, 1), c(1, 1), c(2, 1), c(1, 2)]
        );
        assert_eq!(
            Map::cells_between(c(0, 0), c(4, 1)),
            vec![c(1, 0), c(2, 0), c(2, 1), c(3, 1)]
        );
        // (0,0)->(2,1) crosses row boundary inside cell x=1.
        assert_eq!(Map::cells_between(c(0, 0), c(2, 1)), vec![c(1, 0), c(1, 1)]);
        assert_eq!(
            Map::cells_between(c(3, 1), c(0, 0)),
            vec![c(2, 1), c(1, 1), c(2, 0), c(1, 0)]
        );
    }

    #[test]
    fn line_of_sight_walls_and_cover() {
        let m = grid(&[
            ".....", //
            "..#..", //
            "..c..", //
            ".....",
        ]);
        assert!(!m.line_of_sight(c(0, 1), c(4, 1)));
        assert!(!m.line_of_sight(c(4, 1), c(0, 1)));
        assert!(m.line_of_sight(c(0, 2), c(4, 2))); // low cover does not block
        assert!(m.line_of_sight(c(0, 0), c(4, 0)));
        assert!(m.line_of_sight(c(2, 1), c(2, 3))); // the end points never block
        // Through the wall's centre.
        assert!(!m.line_of_sight(c(1, 0), c(3, 2)));
        // Past one wall corner: only one side blocks.
        let m1 = grid(&[
            ".#", //
            "..",
        ]);
        assert!(m1.line_of_sight(c(0, 0), c(1, 1)));
        assert!(m1.line_of_sight(c(1, 1), c(0, 0)));
        let m2 = grid(&[
            ".#", //
            "#.",
        ]);
        assert!(!m2.line_of_sight(c(0, 0), c(1, 1)));
        assert!(!m2.line_of_sight(c(1, 1), c(0, 0)));
    }

    #[test]
    fn line_of_sight_is_symmetric() {
        let m = grid(&[
            "..#...", //
            ".#..#.", //
            "...#..", //
            "#.c..#", //
            "..#.C.",
        ]);
        let cells: Vec<Cell> = m.cells().collect();
        for &a in &cells {
            for &b in &cells {
                assert_eq!(m.line_of_sight(a, b), m.line_of_sight(b, a), "{a} {b}");
                let mut fwd = Map::cells_between(a, b);
                let mut back = Map::cells_between(b, a);
                fwd.sort();
                back.sort();
                assert_eq!(fwd, back, "{a} {b}");
            }
        }
        // (0,0)-(2,2) touches corners whose sides are (1,0)/(0,1) then
        // (2,1)/(1,2); it passes the centre of the wall at (1,1).
        assert!(!m.line_of_sight(c(0, 0), c(2, 2)));
        assert!(m.line_of_sight(c(0, 0), c(0, 2)));
        assert!(!m.line_of_sight(c(0, 0), c(1, 2))); // crosses (1,1)
        assert!(m.line_of_sight(c(0, 3), c(5, 3))); // end points may be walls
        assert!(!m.line_of_sight(c(0, 2), c(5, 2)));
        assert!(m.line_of_sight(c(3, 4), c(5, 4))); // high cover does not block sight
    }

    #[test]
    fn distances() {
        assert_eq!(Map::chebyshev(c(0, 0), c(3, -5)), 5);
        assert_eq!(Map::distance_m(c(0, 0), c(3, 4)), 7.5);
        assert_eq!(Map::distance_m(c(2, 2), c(2, 2)), 0.0);
        // The correctly rounded root on every platform: glibc's hypot gives
        // 31.906112267087636 for 17 and 27 cells, one unit in the last
        // place above the true root's rounding.
        assert_eq!(
            Map::distance_m(c(0, 0), c(17, 27)),
            31.906_112_267_087_632 * CELL_METRES
        );
        // 20 and 21 cells (with negative coordinates): 29 cells, 43.5 m.
        assert_eq!(Map::distance_m(c(5, 5), c(-15, -16)), 43.5);
    }

    /// The way off the map: the cost from each cell to the nearest
    /// passable edge cell; none inside walls.
    #[test]
    fn exit_distances_lead_to_the_open_edge() {
        let m = grid(&[
            "#####.#", //
            "#.....#", //
            "#.###.#", //
            "#.#.#.#", //
            "#######",
        ]);
        let d = m.exit_distances();
        assert_eq!(d.cost(c(5, 0)), Some(0));
        assert_eq!(d.cost(c(5, 1)), Some(ORTHO_DM));
        // One way off: the distances are those from it.
        let from_exit = m.reach_tree(c(5, 0), u32::MAX, |_| false);
        for cell in m.cells() {
            assert_eq!(d.cost(cell), from_exit.cost(cell), "{cell}");
        }
        assert!(d.cost(c(1, 3)) > d.cost(c(1, 1)));
        // Walled in, and walls themselves: no way off.
        assert_eq!(d.cost(c(3, 3)), None);
        assert_eq!(d.cost(c(0, 0)), None);
        let cave = grid(&["###", "#.#", "###"]);
        assert_eq!(cave.exit_distances().cost(c(1, 1)), None);
    }

    #[test]
    fn zones_and_adjacency() {
        let m = grid(&[
            "..#..", //
            "..#..", //
            ".....", //
            "#####", //
            ".....",
        ]);
        let zone = |name: &str, cells: &[(i32, i32)]| Zone {
            name: name.to_string(),
            cells: cells.iter().map(|&(x, y)| c(x, y)).collect(),
        };
        let m = m.with_zones(vec![
            zone("west", &[(0, 0), (1, 0), (0, 1), (1, 1)]),
            zone("east", &[(3, 0), (4, 0), (3, 1), (4, 1)]),
            zone("middle", &[(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)]),
            zone("south", &[(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]),
            zone("wall", &[(2, 0), (2, 1)]),
        ]);
        assert_eq!(m.zones().len(), 5);
        assert_eq!(m.zone_of(c(1, 1)), Some(0));
        assert_eq!(m.zone_of(c(2, 2)), Some(2));
        assert_eq!(m.zone_of(c(2, 3)), None);
        assert_eq!(m.zone_of(c(9, 9)), None);
        assert_eq!(m.zone_index("east"), Some(1));
        assert_eq!(m.zone_index("nowhere"), None);
        // West and east are separated by a wall column; both touch the middle.
        assert!(!m.zones_adjacent(0, 1));
        assert!(m.zones_adjacent(0, 2));
        assert!(m.zones_adjacent(2, 1));
        assert!(!m.zones_adjacent(2, 2));
        // A map's key names it and its copies, not a map given other zones
        // (answers kept by the key read the zones).
        let key = m.key().expect("a map made by Map::new");
        assert!(key.is(&m) && key.is(&m.clone()));
        let regrouped = m.clone().with_zones(vec![zone("all", &[(0, 0), (1, 0)])]);
        assert!(!key.is(&regrouped));
        // The south zone only touches walls.
        assert!(!m.zones_adjacent(2, 3));
        // A zone drawn over walls touches nothing.
        assert_eq!(m.zone_neighbours(4), &[] as &[u16]);
        assert_eq!(m.zone_neighbours(0), &[2]);
        assert_eq!(m.zone_neighbours(2), &[0, 1]);
        assert_eq!(m.zone_neighbours(99), &[] as &[u16]);
        assert_eq!(m.zone_distance(0, 0), Some(0));
        assert_eq!(m.zone_distance(0, 2), Some(1));
        assert_eq!(m.zone_distance(0, 1), Some(2));
        assert_eq!(m.zone_distance(0, 3), None);
        assert_eq!(m.zone_distance(0, 17), None);
    }
}

/// The result of [`Map::reach_tree`].
#[derive(Clone, Debug)]
pub struct ReachTree {
    pub start: Cell,
    width: i32,
    /// The map's height: `cost.len()` is `width * height`.
    height: i32,
    cost: Vec<u32>,
    parent: Vec<u32>,
}

impl ReachTree {
    fn index(&self, c: Cell) -> Option<usize> {
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
