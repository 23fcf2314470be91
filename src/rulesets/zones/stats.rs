//! A zones character's stat block, [`ZonesStats`]: attributes, armour and
//! the pieces worn, speed, and the consumable items and profane powers it
//! carries. `data` builds it from the bestiary and the equipment. A leaf.

use bevy::prelude::*;
use serde::Deserialize;

use crate::rules::dice::DiceExpr;

/// A zones character's attributes (saves roll d20 under them), armour and
/// traits.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct ZonesStats {
    pub str: i32,
    pub agi: i32,
    pub wit: i32,
    /// Worn armour, shield included, before cover (§Cover: "never above 3").
    pub armor: i32,
    /// Names of the armour pieces and shield, for the sheet.
    pub armor_names: Vec<String>,
    /// Full speed in zones (§Taking a turn: "typically 2 zones").
    pub speed: u32,
    /// Sprints: full speed doubled ("or 4 zones if sprinting").
    pub sprint: bool,
    /// "Characters who are immune to fear are also immune to morale."
    pub fearless: bool,
    /// Carries a shield (a hand taken).
    pub shield: bool,
    /// Each piece of armour and the shield, for wear and breakage.
    pub pieces: Vec<Piece>,
    /// The names of the items (weapons, armour, shield) broken in this
    /// fight, kept by `apply` from the `GearBroken` events.
    pub broken: Vec<String>,
    /// Consumable items carried (§Taking a turn: "using a consumable item
    /// (a medicine box, an antidote, etc.)"), with the uses left.
    pub items: Vec<Carried>,
    /// Profane powers known (§Taking a turn: "invoking a profane power"),
    /// with the invocations left.
    pub powers: Vec<Known>,
}

/// A profane power as known to its invoker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub id: String,
    pub name: String,
    pub effect: PowerEffect,
    /// Zones it reaches (0: nearby).
    pub range: u32,
    /// Invocations left.
    pub uses: u32,
}

/// What a profane power does (Fray decides: docs/rulesets/zones.md, "Main
/// actions"). The hostile ones are resisted with a WIT save.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum PowerEffect {
    /// A failed save takes this much direct damage (no armour, no
    /// reaction).
    Harm(DiceExpr),
    /// A failed save breaks the target, as a failed morale check (the
    /// fearless and the steadfast are immune).
    Terrify,
    /// A failed save leaves the target unable to react this round.
    Daze,
    /// No save: an ally (or the invoker) nearby regains this much health;
    /// an incapacitated one lifted above 0 stands, with no turn this round.
    Mend(DiceExpr),
}

impl PowerEffect {
    /// Aimed at an enemy (and resisted), rather than at a friend.
    pub fn hostile(&self) -> bool {
        !matches!(self, PowerEffect::Mend(_))
    }
}

/// A consumable item as carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    pub id: String,
    pub name: String,
    /// The health one use restores.
    pub heals: DiceExpr,
    /// Uses left.
    pub uses: u32,
}

/// A piece of armour, or a shield, as worn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub id: String,
    pub name: String,
    pub value: i32,
    pub shield: bool,
    /// Came into the fight damaged (§Combat gear degradation).
    pub damaged: bool,
}

impl ZonesStats {
    /// Zones a full move covers.
    pub fn full_speed(&self) -> u32 {
        if self.sprint {
            self.speed * 2
        } else {
            self.speed
        }
    }
    /// Zones a move with actions covers ("move half their speed").
    pub fn half_speed(&self) -> u32 {
        self.full_speed() / 2
    }
}
