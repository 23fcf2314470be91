//! UD10's armor and shield components (§Armor Rating, §Optional Rule:
//! Buffer, §Optional Rule: Body Zones, shields in §Defense Rating
//! Modifiers): what a combatant wears, per body zone. Only ud10 has them.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Body zones of the d10 hit location table (UD10 "Optional Rule: Body Zones").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BodyZone {
    Head,
    LeftArm,
    RightArm,
    Trunk,
    LeftLeg,
    RightLeg,
}

impl BodyZone {
    pub const ALL: [BodyZone; 6] = [
        BodyZone::Head,
        BodyZone::LeftArm,
        BodyZone::RightArm,
        BodyZone::Trunk,
        BodyZone::LeftLeg,
        BodyZone::RightLeg,
    ];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        match self {
            BodyZone::Head => "head",
            BodyZone::LeftArm => "left arm",
            BodyZone::RightArm => "right arm",
            BodyZone::Trunk => "trunk",
            BodyZone::LeftLeg => "left leg",
            BodyZone::RightLeg => "right leg",
        }
    }
}

/// Protection of one body zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub struct Protection {
    pub rating: i32,
    pub buffer: i32,
}

/// Worn armor, summed per body zone from its pieces.
#[derive(Component, Clone, Debug, PartialEq, Default)]
pub struct Armor {
    pub pieces: Vec<String>,
    pub zones: [Protection; 6],
}

impl Armor {
    /// Protection averaged over all body zones, rounded to nearest (UD10:
    /// "When not using the body zones, armor protection is averaged from all
    /// body zones into one single statistic").
    pub fn averaged(&self) -> Protection {
        let n = self.zones.len() as i32;
        let r: i32 = self.zones.iter().map(|z| z.rating).sum();
        let b: i32 = self.zones.iter().map(|z| z.buffer).sum();
        Protection {
            rating: (2 * r + n) / (2 * n),
            buffer: (2 * b + n) / (2 * n),
        }
    }
    pub fn zone(&self, z: BodyZone) -> Protection {
        self.zones[z.index()]
    }
}

/// A carried shield.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Shield {
    pub name: String,
    /// Bonus to the bearer's defense while it can be used.
    pub defense: i32,
}

/// What a shield adds to the defense (`check::shield_usable` asks it of a
/// combatant): its defense, while no two-handed weapon is in hand.
pub fn shield_bonus(
    shield: Option<&Shield>,
    loadout: Option<&crate::rules::components::Loadout>,
) -> Option<i32> {
    let s = shield?;
    let two_handed = loadout
        .and_then(|l| l.ready_weapon())
        .is_some_and(|w| w.hands >= 2);
    (!two_handed).then_some(s.defense)
}
