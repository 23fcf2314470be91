//! Lines between cells and line of sight, each line kept once walked.

use super::*;

/// The lines between cells, as the rules ask about them: whether each is
/// clear to see along, and which of its cells touch its far end. Both
/// depend on the terrain alone, which never changes, so each line is
/// walked once per map however many battles ask (the AI asks for every
/// cell it weighs against every enemy). Kept only for maps of up to
/// [`Lines::MAX_CELLS`] cells (every shipped level); larger maps walk the
/// line each time.
#[derive(Default)]
pub(super) struct Lines(pub(super) Vec<std::sync::atomic::AtomicU16>);

impl Lines {
    /// The largest map whose lines are kept: a `u16` per pair of cells.
    pub(super) const MAX_CELLS: usize = 1024;
    /// The entry is filled.
    const KNOWN: u16 = 1 << 15;
    /// The line is clear to see along.
    const CLEAR: u16 = 1 << 14;
    /// How many cells touch the far end (bits 12-13); their offsets from
    /// it follow, three bits each, in line order.
    const COUNT_SHIFT: u16 = 12;

    pub(super) fn for_cells(n: usize) -> Lines {
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

/// One step of a grid line traversal: either a single cell, or a pair of
/// side cells when the line passes exactly through a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineStep {
    Cell(Cell),
    Corner(Cell, Cell),
}

/// The steps of a grid line from one cell's centre to another's
/// ([`Map::line_steps`]).
pub(super) struct LineSteps {
    /// Cells to cross in x and y.
    pub(super) n: (i64, i64),
    /// Direction in x and y.
    pub(super) s: (i32, i32),
    /// Grid lines crossed so far in x and y.
    pub(super) i: (i64, i64),
    /// The cell the walk is in.
    pub(super) p: Cell,
    pub(super) b: Cell,
    /// A cell entered through a corner, still to be given after the corner.
    pub(super) pending: Option<Cell>,
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

impl Map {
    /// Walks the segment between the centres of `a` and `b` (exclusive of
    /// both) in exact integer arithmetic, step by step, allocating nothing.
    pub(super) fn line_steps(a: Cell, b: Cell) -> LineSteps {
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

    pub(super) fn walk_sight(&self, a: Cell, b: Cell) -> bool {
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
    pub(super) fn line(&self, a: Cell, b: Cell) -> Option<u16> {
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
}
