//! `assets/rulesets/zones/equipment.ron`: weapons, armour, shields,
//! consumable items and profane powers, and Fray's ranges for their
//! numbers.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::rules::dice::DiceExpr;
use crate::rulesets::data::Ranges;

use super::stats::PowerEffect;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub name: String,
    /// The damage die (§Attacking: "damage depending on the weapon used").
    pub damage: DiceExpr,
    /// Range in zones; absent for melee weapons.
    #[serde(default)]
    pub range: u32,
    #[serde(default)]
    pub thrown: bool,
    #[serde(default = "one")]
    pub hands: u8,
    /// Powerful enough to penetrate cover (§Cover).
    #[serde(default)]
    pub penetrating: bool,
    /// Hits a whole zone (§Blast attacks).
    #[serde(default)]
    pub blast: bool,
    /// Shots or throws carried; absent = enough for any fight.
    #[serde(default)]
    pub ammo: Option<u32>,
    /// An improvised weapon: "handled as if they were already damaged".
    #[serde(default)]
    pub improvised: bool,
}

fn one() -> u8 {
    1
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorDef {
    pub name: String,
    /// Armour value it adds.
    pub value: i32,
}

/// A consumable item (docs/rulesets/zones.md, "Main actions").
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    pub name: String,
    /// The health one use restores (a die).
    pub heals: DiceExpr,
    /// Uses in one item.
    #[serde(default = "one_use")]
    pub uses: u32,
}

fn one_use() -> u32 {
    1
}

/// A profane power (docs/rulesets/zones.md, "Main actions").
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerDef {
    pub name: String,
    pub effect: PowerEffect,
    /// Zones it reaches (0: nearby only).
    #[serde(default)]
    pub range: u32,
    /// Invocations a fight.
    #[serde(default = "one_use")]
    pub uses: u32,
}

/// `assets/rulesets/zones/equipment.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equipment {
    pub weapons: BTreeMap<String, WeaponDef>,
    /// The file says `armour`, as the rules text does.
    #[serde(rename = "armour")]
    pub armor: BTreeMap<String, ArmorDef>,
    pub shields: BTreeMap<String, ArmorDef>,
    /// Consumable items.
    #[serde(default)]
    pub items: BTreeMap<String, ItemDef>,
    /// Profane powers.
    #[serde(default)]
    pub powers: BTreeMap<String, PowerDef>,
}

impl crate::rulesets::data::Equipment for Equipment {
    fn defines(&self, kind: &str, id: &str) -> bool {
        match kind {
            "weapon" => self.weapons.contains_key(id),
            "armour" => self.armor.contains_key(id),
            "shield" => self.shields.contains_key(id),
            "item" => self.items.contains_key(id),
            "power" => self.powers.contains_key(id),
            _ => false,
        }
    }
    /// Fray's ranges (docs/rulesets/zones.md, "Ranges and maps").
    fn ranges(&self, r: &mut Ranges) {
        for (id, w) in &self.weapons {
            r.damage(id, "damage", &w.damage);
            r.int(id, "range", w.range, 0..=20);
            r.int(id, "hands", w.hands, 0..=2);
            r.int(id, "ammo", w.ammo.unwrap_or(0), 0..=1000);
        }
        for (id, p) in self.armor.iter().chain(&self.shields) {
            r.int(id, "value", p.value, 0..=30);
        }
        for (id, i) in &self.items {
            r.damage(id, "heals", &i.heals);
            r.int(id, "uses", i.uses, 1..=20);
        }
        for (id, p) in &self.powers {
            if let PowerEffect::Harm(d) | PowerEffect::Mend(d) = &p.effect {
                r.damage(id, "effect", d);
            }
            r.int(id, "range", p.range, 0..=20);
            r.int(id, "uses", p.uses, 1..=20);
        }
    }
}
