//! The shared vocabulary of a battle's set-up: the level (map, factions,
//! combatants, victory condition) as the rules core takes it. `src/data/`
//! reads level files into these types; the core never reads files.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::rules::error::{DataError, DefAt, DefError};
use serde::{Deserialize, Deserializer, Serialize};

use crate::rules::map::{Cell, Map};

/// A loaded, validated level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Level {
    pub name: String,
    pub description: String,
    pub default_ruleset: String,
    /// Rulesets the level is meant for; empty = any ruleset that defines its
    /// archetypes.
    pub rulesets: Vec<String>,
    pub map: Map,
    pub visibility: Visibility,
    pub factions: Vec<FactionDef>,
    pub combatants: Vec<CombatantDef>,
    pub victory: Victory,
    pub max_rounds: u32,
    /// The file the level was read from.
    pub source: PathBuf,
    /// Where things are in that file, for errors found after loading.
    #[serde(skip)]
    pub spans: Spans,
}

/// A position in a file: line and column, 1-based.
pub type Pos = (usize, usize);

/// Where the level's parts are in its file, so that a problem found after
/// loading (an archetype, a stat or a piece of gear a ruleset does not know,
/// a level that is not for the ruleset asked) is reported at its line and
/// column like a syntax error.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Spans {
    /// The top-level value.
    pub root: Option<Pos>,
    /// Each top-level field's value (`rulesets`, `map`, `victory`, ...).
    pub fields: BTreeMap<String, Pos>,
    /// Each combatant's entry, in order.
    pub combatants: Vec<EntrySpans>,
}

/// Where one entry (a combatant) and what is inside it are.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EntrySpans {
    /// The entry itself.
    pub at: Option<Pos>,
    /// The value of each field inside it, at any depth (`archetype`,
    /// `weapons`, `stats`, ...); the first one of a name.
    pub fields: BTreeMap<String, Pos>,
    /// Every string inside it (`"longsword"`, the `"DEX"` of `stats`), in
    /// order.
    pub strings: Vec<(String, Pos)>,
}

impl Level {
    /// An error about the level's top-level `field`, at its value.
    pub fn error_at_field(&self, field: &str, message: impl Into<String>) -> DataError {
        let pos = self
            .spans
            .fields
            .get(field)
            .copied()
            .or(self.spans.root)
            .unwrap_or((1, 1));
        DataError::new(&self.source, pos, message)
    }

    /// An error a ruleset finds in combatant `index`, at what it is about.
    pub fn error_at_combatant(&self, index: usize, e: &DefError) -> DataError {
        let entry = self.spans.combatants.get(index);
        let pos = entry.and_then(|s| match &e.at {
            DefAt::Entry => None,
            DefAt::Field(f) => s.fields.get(*f).copied(),
            DefAt::Value(v) => s
                .strings
                .iter()
                .find(|(text, _)| text == v)
                .map(|(_, p)| *p),
        });
        let pos = pos
            .or(entry.and_then(|s| s.at))
            .or(self.spans.root)
            .unwrap_or((1, 1));
        let c = self.combatants.get(index);
        let who = match c {
            Some(CombatantDef { name: Some(n), .. }) => format!("combatant {} ({n})", index + 1),
            Some(c) => format!("combatant {} (`{}`)", index + 1, c.archetype),
            None => format!("combatant {}", index + 1),
        };
        DataError::new(&self.source, pos, format!("{who}: {}", e.message))
    }
}

/// Lighting and weather.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Visibility {
    #[default]
    Clear,
    /// Fog, night.
    Bad,
    /// Complete darkness: nobody sees anybody.
    Dark,
}

/// Who gives a faction's (or combatant's) orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Control {
    Human,
    Ai,
}

/// One side of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FactionDef {
    pub id: String,
    pub name: String,
    /// Parsed from `"#rrggbb"`.
    pub colour: [u8; 3],
    pub control: Control,
    pub starts_fight: bool,
    pub surprised: bool,
}

/// One of the eight compass directions (y grows southwards).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Facing {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Facing {
    /// All directions, clockwise from north.
    pub const ALL: [Facing; 8] = [
        Facing::N,
        Facing::NE,
        Facing::E,
        Facing::SE,
        Facing::S,
        Facing::SW,
        Facing::W,
        Facing::NW,
    ];

    /// The direction in words ("north-east"), north up the map.
    pub fn name(self) -> &'static str {
        match self {
            Facing::N => "north",
            Facing::NE => "north-east",
            Facing::E => "east",
            Facing::SE => "south-east",
            Facing::S => "south",
            Facing::SW => "south-west",
            Facing::W => "west",
            Facing::NW => "north-west",
        }
    }

    /// Unit grid step in this direction; `N` is `(0,-1)`.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Facing::N => (0, -1),
            Facing::NE => (1, -1),
            Facing::E => (1, 0),
            Facing::SE => (1, 1),
            Facing::S => (0, 1),
            Facing::SW => (-1, 1),
            Facing::W => (-1, 0),
            Facing::NW => (-1, -1),
        }
    }

    /// The direction with the same signs as `(dx, dy)`; None for `(0,0)`.
    pub fn from_delta(dx: i32, dy: i32) -> Option<Facing> {
        let d = (dx.signum(), dy.signum());
        Facing::ALL.into_iter().find(|f| f.delta() == d)
    }

    /// The one of the eight directions nearest the bearing `(dx, dy)`, in
    /// exact integers: within 22.5° of an axis (`|minor| < (√2 − 1)·|major|`,
    /// squared: `(|minor| + |major|)² < 2·major²`) it is the axis, else the
    /// diagonal; exactly on 22.5° it is the diagonal. None for `(0,0)`.
    pub fn toward(dx: i32, dy: i32) -> Option<Facing> {
        let (ax, ay) = (i64::from(dx).abs(), i64::from(dy).abs());
        let axis = |major: i64, minor: i64| (minor + major).pow(2) < 2 * major * major;
        if axis(ax, ay) {
            Facing::from_delta(dx, 0)
        } else if axis(ay, ax) {
            Facing::from_delta(0, dy)
        } else {
            Facing::from_delta(dx, dy)
        }
    }
}

/// One combatant placed by the level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CombatantDef {
    pub archetype: String,
    pub faction: String,
    pub at: Cell,
    pub name: Option<String>,
    pub facing: Option<Facing>,
    pub overrides: Overrides,
    /// The name of the mount or vehicle it starts on (zones §Mounts and
    /// vehicles in combat); a rider's `at` is its mount's cell.
    pub riding: Option<String>,
}

/// Per-combatant changes to its archetype.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overrides {
    pub stats: BTreeMap<String, i32>,
    pub weapons: Option<Vec<String>>,
    pub armor: Option<Vec<String>>,
    /// `None`: the archetype's shield; `Some(None)` (written `shield: None`):
    /// no shield; `Some(Some(name))` (written `shield: "buckler"`): that one.
    #[serde(deserialize_with = "explicit_option")]
    pub shield: Option<Option<String>>,
    pub control: Option<Control>,
    pub surprised: bool,
    pub concealed: bool,
    /// Equipment that comes into the fight already damaged (ids of weapons,
    /// armour or shield; zones §Combat gear degradation).
    pub damaged: Vec<String>,
    /// Consumable items carried instead of the archetype's (zones: a
    /// medicine box); a ruleset without such items refuses them.
    pub items: Option<Vec<String>>,
}

/// Deserializes a present field as `Some(value)`, so `None` in the file
/// becomes `Some(None)`; an absent field stays `None` through `default`.
fn explicit_option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// How the battle is won.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Victory {
    /// The last faction with combatants able to fight wins.
    LastStanding,
    /// `faction` wins if it still has combatants after `rounds` rounds.
    Survive { faction: String, rounds: u32 },
    /// `faction` wins by holding `zone` for `rounds` consecutive rounds.
    HoldZone {
        faction: String,
        zone: String,
        rounds: u32,
    },
}

/// Rounds after which an undecided battle is a draw, when not given.
pub const DEFAULT_MAX_ROUNDS: u32 = 100;

/// The largest map a level may draw: 64 cells a side (the shipped maps are
/// at most 21). Within the limits one battle runs in bounded time and
/// memory (README, "Limits").
pub const MAX_MAP_SIDE: usize = 64;
/// The most combatants a level may field, all factions together (the
/// game's stress level, `tests/data/stress_64x64.ron`, has 100).
pub const MAX_COMBATANTS: usize = 100;
/// The most factions a level may have.
pub const MAX_FACTIONS: usize = 8;
/// The most rounds a battle may last (`max_rounds`, victory rounds): twice
/// the default, and far beyond any fight the texts describe.
pub const MAX_ROUNDS: u32 = 200;
