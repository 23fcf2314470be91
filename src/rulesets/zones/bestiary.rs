//! `assets/rulesets/zones/bestiary.ron`: the archetypes a level places,
//! and the ranges of their stats (the same a level's overrides keep to).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::rules::components::Size;
use crate::rulesets::data::{Ranges, StatRange, archetype_gear, stat_range};

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchetypeDef {
    pub name: String,
    #[serde(default)]
    pub size: Size,
    pub str: i32,
    pub agi: i32,
    pub wit: i32,
    pub health: i32,
    /// Carried weapons; the first is in hand when the fight starts.
    pub weapons: Vec<String>,
    /// The file says `armour`, as the rules text does.
    #[serde(default, rename = "armour")]
    pub armor: Vec<String>,
    #[serde(default)]
    pub shield: Option<String>,
    #[serde(default = "two")]
    pub speed: u32,
    #[serde(default)]
    pub sprint: bool,
    #[serde(default)]
    pub fearless: bool,
    /// A mount or vehicle: how many ride it (§Mounts and vehicles in combat).
    #[serde(default)]
    pub carries: u8,
    /// A vehicle rather than a mount: moves only with someone aboard, never
    /// attacks nor reacts.
    #[serde(default)]
    pub vehicle: bool,
    /// Consumable items carried.
    #[serde(default)]
    pub items: Vec<String>,
    /// Profane powers known.
    #[serde(default)]
    pub powers: Vec<String>,
}

fn two() -> u32 {
    2
}

/// `assets/rulesets/zones/bestiary.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bestiary {
    pub archetypes: BTreeMap<String, ArchetypeDef>,
}

/// The stats a level may set for a zones character, and Fray's ranges for
/// them (docs/rulesets/zones.md, "Ranges"): attributes 1 to 20 (a save is a
/// d20 under them), health 1 to 999, armour 0 to 30.
pub const STATS: [StatRange; 5] = [
    ("STR", 1..=20),
    ("AGI", 1..=20),
    ("WIT", 1..=20),
    ("HEALTH", 1..=999),
    ("ARMOUR", 0..=30),
];

impl crate::rulesets::data::Bestiary for Bestiary {
    fn gear(&self) -> Vec<(&str, Vec<(&'static str, &str)>)> {
        self.archetypes
            .iter()
            .map(|(id, a)| {
                let mut gear = archetype_gear(&a.weapons, "armour", &a.armor, a.shield.as_ref());
                gear.extend(a.items.iter().map(|i| ("item", i.as_str())));
                gear.extend(a.powers.iter().map(|p| ("power", p.as_str())));
                (id.as_str(), gear)
            })
            .collect()
    }
    /// The same ranges as a level's overrides ([`STATS`]), and speeds and
    /// loads that keep a turn's movement finite.
    fn ranges(&self, r: &mut Ranges) {
        let range = |key: &str| stat_range(&STATS, key);
        for (id, a) in &self.archetypes {
            for (field, key, v) in [
                ("str", "STR", a.str),
                ("agi", "AGI", a.agi),
                ("wit", "WIT", a.wit),
                ("health", "HEALTH", a.health),
            ] {
                r.int(id, field, v, range(key));
            }
            r.int(id, "speed", a.speed, 0..=10);
            r.int(id, "carries", a.carries, 0..=10);
        }
    }
}
