//! The kinds of ground a cell can be, and what each does to movement and
//! sight.

use super::*;

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
    pub(super) const fn near_bit(self) -> u8 {
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
