//! Named zones of the map: which zone a cell is in, which zones touch,
//! zone distances.

use super::*;

/// A named area of the map (used by zone-based rulesets and `HoldZone`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    pub name: String,
    pub cells: Vec<Cell>,
}

impl Map {
    /// The zone of the cell at `index` (row by row), if any.
    pub fn zone_at(&self, index: usize) -> Option<u16> {
        self.zone_of.get(index).copied().flatten()
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

    pub(super) fn zone_bfs(&self, a: usize, b: usize) -> Option<u32> {
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
