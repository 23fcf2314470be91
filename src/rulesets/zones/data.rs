//! Everything zones reads from `assets/rulesets/zones/*.ron` ([`ZonesData`]),
//! and how a level's archetype becomes a combatant: its stat block, weapons
//! and gear. The file types are in `equipment` and `bestiary`, the stat
//! block in `stats`.

use std::path::Path;

use bevy::prelude::*;

use crate::rules::components::{
    FireMode, Health, Loadout, OwnGear, ReloadCost, Size, Steed, Weapon, WeaponKind,
};
use crate::rules::dice::DiceExpr;
use crate::rules::error::{DataError, DefError};
use crate::rules::level::CombatantDef;
use crate::rulesets::data::{Files, check_stat_overrides, load, unknown_archetype, unknown_item};
use crate::rulesets::zones::weapon::{ZonesGear, ZonesWeapon};

use super::bestiary::{Bestiary, STATS};
use super::equipment::{Equipment, WeaponDef};
use super::modes::impaired;
use super::settings::ZonesSettings;
use super::stats::{Carried, Known, Piece, ZonesStats};

/// Everything zones reads from its asset folder.
#[derive(Resource, Clone, Debug)]
pub struct ZonesData {
    pub equipment: Equipment,
    pub bestiary: Bestiary,
    pub settings: ZonesSettings,
}

/// The zones components of one combatant.
pub struct ZonesBundle {
    pub stats: ZonesStats,
    pub size: Size,
    pub health: Health,
    pub loadout: Loadout,
    pub steed: Option<Steed>,
}

impl crate::rulesets::skeleton::Equipped for ZonesBundle {
    fn insert_into(self, e: &mut EntityWorldMut) {
        e.insert((
            self.stats,
            self.size,
            self.health,
            self.loadout,
            super::state::Swayed::default(),
        ));
        if let Some(s) = self.steed {
            e.insert(s);
        }
    }
}

impl crate::rulesets::skeleton::Equip for ZonesData {
    type Bundle = ZonesBundle;
    fn equip(&self, def: &CombatantDef) -> Result<ZonesBundle, DefError> {
        ZonesData::equip(self, def)
    }
}

impl ZonesData {
    /// Read `equipment.ron`, `bestiary.ron` and `settings.ron` from `dir` and
    /// check that every archetype's equipment exists.
    pub fn load(dir: &Path) -> Result<ZonesData, DataError> {
        let Files {
            equipment,
            bestiary,
            settings,
            ..
        } = load::<Equipment, Bestiary, ZonesSettings>(dir)?;
        Ok(ZonesData {
            equipment,
            bestiary,
            settings,
        })
    }

    pub fn weapon(&self, id: &str) -> Result<Weapon, String> {
        let d = self
            .equipment
            .weapons
            .get(id)
            .ok_or_else(|| format!("zones has no weapon `{id}`"))?;
        Ok(weapon_from(id, d))
    }

    /// Armour pieces, then the shield: each adds its value to the armour
    /// value (§Reacting to an attack, counter example: "holding a shield and
    /// wearing light armour, so he has an armour value of 2").
    fn worn(
        &self,
        armor: Vec<String>,
        shield: Option<String>,
        damaged: &[String],
    ) -> Result<Vec<Piece>, DefError> {
        let worn = armor
            .into_iter()
            .map(|id| (id, false))
            .chain(shield.map(|id| (id, true)));
        let mut pieces = Vec::new();
        for (id, is_shield) in worn {
            let (table, what) = if is_shield {
                (&self.equipment.shields, "shield")
            } else {
                (&self.equipment.armor, "armour")
            };
            let p = table
                .get(&id)
                .ok_or_else(|| unknown_item("zones", what, &id, table.keys()))?;
            pieces.push(Piece {
                damaged: damaged.contains(&id),
                id,
                name: p.name.clone(),
                value: p.value,
                shield: is_shield,
            });
        }
        Ok(pieces)
    }

    /// The consumable items `ids` names, each with its uses (§Taking a
    /// turn, main actions: "using a consumable item").
    fn carried(&self, ids: &[String]) -> Result<Vec<Carried>, DefError> {
        ids.iter()
            .map(|id| {
                let d = self.equipment.items.get(id).ok_or_else(|| {
                    unknown_item("zones", "item", id, self.equipment.items.keys())
                })?;
                Ok(Carried {
                    id: id.clone(),
                    name: d.name.clone(),
                    heals: d.heals.clone(),
                    uses: d.uses,
                })
            })
            .collect()
    }

    /// The profane powers `ids` names, each with its reach and uses.
    fn known(&self, ids: &[String]) -> Result<Vec<Known>, DefError> {
        ids.iter()
            .map(|id| {
                let d = self.equipment.powers.get(id).ok_or_else(|| {
                    unknown_item("zones", "power", id, self.equipment.powers.keys())
                })?;
                Ok(Known {
                    id: id.clone(),
                    name: d.name.clone(),
                    effect: d.effect.clone(),
                    range: d.range,
                    uses: d.uses,
                })
            })
            .collect()
    }

    /// Build a combatant from its archetype and the level's overrides.
    pub fn equip(&self, def: &CombatantDef) -> Result<ZonesBundle, DefError> {
        let a = self
            .bestiary
            .archetypes
            .get(&def.archetype)
            .ok_or_else(|| {
                unknown_archetype("zones", &def.archetype, self.bestiary.archetypes.keys())
            })?;
        let o = &def.overrides;
        check_stat_overrides("zones", &o.stats, &STATS)?;
        let own = crate::rulesets::data::stats_for("zones", &o.stats);
        let stat = |key: &str, v: i32| own.get(key).copied().unwrap_or(v);
        let weapon_ids = o.weapons.clone().unwrap_or_else(|| a.weapons.clone());
        let mut weapons = weapon_ids
            .iter()
            .map(|w| {
                self.weapon(w)
                    .map_err(|_| unknown_item("zones", "weapon", w, self.equipment.weapons.keys()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let shield = o.shield.clone().unwrap_or_else(|| a.shield.clone());
        let armor_ids = o.armor.clone().unwrap_or_else(|| a.armor.clone());
        let pieces = self.worn(armor_ids, shield.clone(), &o.damaged)?;
        let armor = pieces.iter().map(|p| p.value).sum();
        let armor_names = pieces.iter().map(|p| p.name.clone()).collect();
        // Gear that comes into the fight damaged.
        for id in &o.damaged {
            let w = weapon_ids.iter().position(|w| w == id);
            if let Some(i) = w {
                if let Some(z) = weapons[i].zones_mut() {
                    z.damaged = true;
                }
            } else if !pieces.iter().any(|p| p.id == *id) {
                return Err(DefError::value(
                    id.clone(),
                    format!("`damaged` names `{id}`, which the character does not carry"),
                ));
            }
        }
        weapons.push(unarmed());
        let item_ids = o.items.clone().unwrap_or_else(|| a.items.clone());
        let items = self.carried(&item_ids)?;
        let powers = self.known(&a.powers)?;
        let health = stat("HEALTH", a.health);
        Ok(ZonesBundle {
            stats: ZonesStats {
                str: stat("STR", a.str),
                agi: stat("AGI", a.agi),
                wit: stat("WIT", a.wit),
                armor: stat("ARMOUR", armor),
                armor_names,
                speed: a.speed,
                sprint: a.sprint,
                fearless: a.fearless,
                shield: shield.is_some(),
                pieces,
                broken: Vec::new(),
                items,
                powers,
            },
            size: a.size,
            health: Health {
                hp: health,
                hp_max: health,
                ep: 0,
                ep_max: 0,
            },
            loadout: Loadout {
                ready: Some(0),
                weapons,
            },
            steed: (a.carries > 0).then_some(Steed {
                carries: a.carries,
                vehicle: a.vehicle,
            }),
        })
    }
}

fn modes(damage: &DiceExpr) -> Vec<FireMode> {
    let mode = |name: &str, damage: DiceExpr| FireMode {
        name: name.to_string(),
        shots: 1,
        damage,
        attack_mod: 0,
    };
    vec![
        mode("strike", damage.clone()),
        mode("hold back", impaired()),
        mode("death blow", DiceExpr::flat(0)),
        mode("offer: yield", damage.clone()),
        mode("offer: drop it and stay down", damage.clone()),
    ]
}

/// A weapon as carried, from its equipment entry.
pub fn weapon_from(id: &str, d: &WeaponDef) -> Weapon {
    Weapon {
        id: id.into(),
        name: d.name.as_str().into(),
        kind: if d.range == 0 {
            WeaponKind::Melee
        } else if d.thrown {
            WeaponKind::Thrown
        } else {
            WeaponKind::Missile
        },
        damage: d.damage.clone(),
        reach: 1,
        range_increment_m: 0.0,
        max_range_m: 0.0,
        hands: d.hands,
        modes: modes(&d.damage).into(),
        magazine: 0,
        loaded: 0,
        spare: d.ammo,
        reload: ReloadCost::Free,
        own: OwnGear::new(ZonesWeapon {
            range_zones: d.range,
            blast: d.blast,
            penetrating: d.penetrating,
            damaged: d.improvised,
        }),
    }
}

/// Fists and feet: "Unarmed attacks inflict d4 impaired damage." Every
/// character has them, last in its loadout.
pub fn unarmed() -> Weapon {
    weapon_from(
        "unarmed",
        &WeaponDef {
            name: "Unarmed".into(),
            damage: impaired(),
            range: 0,
            thrown: false,
            hands: 0,
            penetrating: false,
            blast: false,
            ammo: None,
            improvised: false,
        },
    )
}
