//! The battle map: a grid of terrain cells, movement costs, line of sight,
//! path finding and named zones.
//!
//! Coordinates: `x` grows to the right, `y` grows downwards (row index),
//! `(0,0)` is the top-left cell. Costs are in decimetres of movement.
//!
//! Its parts, one file each: the grid's geometry (`grid.rs`: cells,
//! steps and their costs, distance), the kinds of ground (`terrain.rs`),
//! lines and sight (`sight.rs`), the reach search and paths (`reach.rs`,
//! its working memory `frontier.rs`, what it finds `tree.rs`), distance
//! fields kept by goal (`fields.rs`) and zones (`zones.rs`).

use pathfinding::prelude::{astar, dijkstra_reach};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;

mod fields;
mod frontier;
mod grid;
mod reach;
mod sight;
mod terrain;
mod tree;
mod zones;

pub use fields::*;
pub use frontier::*;
pub use grid::*;
use sight::*;
pub use terrain::*;
pub use tree::*;
pub use zones::*;

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
}

#[cfg(test)]
mod tests;
