//! The reach search's working memory: a bucketed frontier reused from
//! search to search, and the searches kept by the map they ran on.

use super::*;

/// The cheapest wanted cell a search has seen leave its frontier (the
/// least of equally cheap ones), its cost first.
#[derive(Default)]
pub(super) struct Cheapest(pub(super) Option<(u32, Cell)>);

impl Cheapest {
    /// Hear of `cell` (not `start`) leaving the frontier at cost `c`, and
    /// say whether the search is done: a cell dearer than the one found
    /// leaves only after every cell as cheap.
    pub(super) fn settle(
        &mut self,
        c: u32,
        cell: Cell,
        start: Cell,
        wanted: impl Fn(Cell) -> bool,
    ) -> bool {
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
pub(super) enum Settled {
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
pub(super) struct Frontier {
    /// Cells waiting, by `cost % RING`.
    pub(super) ring: Box<[Vec<u32>; RING]>,
    /// Which buckets hold cells.
    pub(super) filled: u64,
    /// The cost of the bucket being emptied, and its cells, sorted.
    pub(super) cost: u32,
    pub(super) now: Vec<u32>,
    pub(super) next: usize,
}

/// The costliest single step: a diagonal into water (a climb costs at
/// most a diagonal onto high ground, 2 × 21).
pub(super) const MAX_STEP_DM: u32 = DIAG_DM * 3;
pub(super) const RING: usize = 64;
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
    pub(super) static FRONTIER: std::cell::RefCell<Frontier> = std::cell::RefCell::new(Frontier::default());
    /// The answers [`Map::toward_past`] keeps, by a hash of their key.
    pub(super) static TOWARD: std::cell::RefCell<Vec<Option<TowardKept>>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The last tree [`Map::reach_tree_kept`] searched on this thread.
    pub(super) static LAST_REACH: std::cell::RefCell<Option<LastReach>> = const { std::cell::RefCell::new(None) };
}

/// How many answers of [`Map::toward_past`] a thread keeps.
pub(super) const KEPT_TOWARD: usize = 1024;

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
pub struct MapKey(pub(super) std::sync::Arc<[[u32; 8]]>);

impl MapKey {
    /// Is `map` the map this key was taken from, or a copy of it?
    pub fn is(&self, map: &Map) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &map.steps)
    }
}

/// An answer of [`Map::toward_past`], and all its search read.
pub(super) struct TowardKept {
    pub(super) steps: std::sync::Arc<[[u32; 8]]>,
    pub(super) start: Cell,
    pub(super) goal: Cell,
    pub(super) budget_dm: u32,
    pub(super) held: smallvec::SmallVec<[Cell; 16]>,
    pub(super) path: Option<Vec<Cell>>,
}

/// A tree [`Map::reach_tree_kept`] searched, and all the search read.
pub(super) struct LastReach {
    pub(super) steps: std::sync::Arc<[[u32; 8]]>,
    pub(super) budget_dm: u32,
    pub(super) held: smallvec::SmallVec<[Cell; 16]>,
    pub(super) tree: std::sync::Arc<ReachTree>,
}

/// Runs `f` with this thread's frontier, emptied: a fresh one when a
/// search is under way on the thread already (one searching inside
/// another's question).
pub(super) fn with_frontier<T>(f: impl FnOnce(&mut Frontier) -> T) -> T {
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
    pub(super) fn clear(&mut self) {
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
    pub(super) fn push(&mut self, cost: u32, i: u32) {
        let slot = cost as usize % RING;
        self.ring[slot].push(i);
        self.filled |= 1u64 << slot;
    }

    /// The cheapest waiting cell, lowest index first among equals.
    pub(super) fn pop(&mut self) -> Option<(u32, u32)> {
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
