//! Distance fields: every cell's distance to a goal or to the map's edge,
//! kept by goal (the terrain never changes).

use super::*;

/// Distance fields kept by goal cell (maps of up to [`Lines::MAX_CELLS`]
/// cells): the terrain never changes, so one search serves every battle.
/// Also the distance of every cell from the map's edge ([`Map::exit_distances`]).
#[derive(Default)]
pub(super) struct Fields(
    pub(super) Vec<std::sync::OnceLock<Box<[u32]>>>,
    pub(super) std::sync::OnceLock<Box<[u32]>>,
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
    pub(super) fn table(&self) -> (&[u32], i32) {
        match self {
            Distances::Kept { costs, width } => (costs, *width),
            Distances::Searched(tree) => (&tree.cost, tree.width),
        }
    }
}

impl Map {
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
}
