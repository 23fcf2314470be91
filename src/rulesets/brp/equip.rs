//! How a level's archetype becomes a brp combatant: its stat block with the
//! level's overrides, the chances its skills give, its weapons, armor and
//! shield from the tables.

use crate::rules::components::{
    Health, Loadout, OwnGear, ReloadCost, Size, Steed, Weapon, WeaponKind,
};
use crate::rules::error::DefError;
use crate::rules::level::CombatantDef;
use crate::rulesets::data::{check_stat_overrides, unknown_archetype, unknown_item};

use super::data::{BrpData, CHARACTERISTICS, MeleeDef, MissileDef, db_share};
use super::derived::{hit_points, weapon_rating};
use super::stats::{BrpArmor, BrpShield, BrpStats, BrpWeapon, Wounds};

/// The brp components of one combatant.
pub struct BrpBundle {
    pub stats: BrpStats,
    pub size: Size,
    pub health: Health,
    pub loadout: Loadout,
    pub armor: BrpArmor,
    pub shield: Option<BrpShield>,
    pub wounds: Wounds,
    /// A mount or vehicle: who can ride it (docs/rulesets/brp.md, "Mounts
    /// and vehicles").
    pub steed: Option<Steed>,
}

impl crate::rulesets::skeleton::Equipped for BrpBundle {
    fn insert_into(self, e: &mut bevy::prelude::EntityWorldMut) {
        e.insert((
            self.stats,
            self.size,
            self.health,
            self.loadout,
            self.armor,
            self.wounds,
        ));
        if let Some(s) = self.shield {
            e.insert(s);
        }
        if let Some(s) = self.steed {
            e.insert(s);
        }
    }
}

impl crate::rulesets::skeleton::Equip for BrpData {
    type Bundle = BrpBundle;
    fn equip(&self, def: &CombatantDef) -> Result<BrpBundle, DefError> {
        BrpData::equip(self, def)
    }
}

impl BrpData {
    /// The chance a skill not tied to a weapon gives (Dodge, First Aid,
    /// Throw): the stat block's rating, else its base (`tables.ron`).
    fn skill(&self, skills: &std::collections::BTreeMap<String, i32>, name: &str, dex: i32) -> i32 {
        if let Some(&v) = skills.get(name) {
            return v;
        }
        match self.tables.skill_bases.get(name) {
            Some(super::data::Base::Flat(n)) => *n,
            Some(super::data::Base::Dex(k)) => dex * k,
            None => 0,
        }
    }

    /// Specialties of the same skill as `skill` (for §5.5's related
    /// specialty).
    fn related(&self, skill: &str) -> Vec<&str> {
        let melee = self
            .equipment
            .melee
            .values()
            .chain(self.equipment.natural.values());
        let mut v: Vec<&str> = melee
            .filter(|w| w.skill == skill)
            .map(|w| w.specialty.as_str())
            .chain(
                self.equipment
                    .missile
                    .values()
                    .filter(|w| w.skill == skill)
                    .map(|w| w.specialty.as_str()),
            )
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn melee(&self, id: &str, d: &MeleeDef, s: &BrpStats) -> Weapon {
        let r = weapon_rating(
            &s.skills,
            &d.specialty,
            d.base,
            self.related(&d.skill),
            self.settings.related_specialty,
        );
        Weapon {
            id: id.into(),
            name: d.name.as_str().into(),
            kind: WeaponKind::Melee,
            damage: d.damage.clone(),
            reach: 1,
            range_increment_m: 0.0,
            max_range_m: 0.0,
            hands: d.hands,
            modes: Default::default(),
            magazine: 0,
            loaded: 0,
            spare: None,
            reload: ReloadCost::Free,
            own: OwnGear::new(BrpWeapon {
                skill: d.skill.clone(),
                specialty: d.specialty.clone(),
                chance: r.chance,
                source: r.source,
                hp: d.hp,
                length: Some(d.length),
                velocity: None,
                range_m: 0.0,
                thrown: false,
                reload_rounds: 0,
                db: db_share(&d.damage),
            }),
        }
    }

    fn missile(&self, id: &str, d: &MissileDef, s: &BrpStats, physical: i32) -> Weapon {
        let mut r = weapon_rating(
            &s.skills,
            &d.specialty,
            d.base,
            self.related(&d.skill),
            self.settings.related_specialty,
        );
        // §5.10: Throw is a physical skill; armor's modifier applies.
        if d.skill == "Throw" {
            r.chance = (r.chance + physical).max(0);
        }
        let magazine = match (d.shots, d.reload_rounds) {
            (Some(n), _) => n,
            (None, 0) => 0,
            (None, _) => 1,
        };
        Weapon {
            id: id.into(),
            name: d.name.as_str().into(),
            kind: if d.thrown {
                WeaponKind::Thrown
            } else {
                WeaponKind::Missile
            },
            damage: d.damage.clone(),
            reach: 0,
            range_increment_m: d.range,
            max_range_m: 3.0 * d.range,
            hands: d.hands,
            modes: Default::default(),
            magazine,
            loaded: magazine,
            spare: None,
            reload: if magazine > 0 {
                ReloadCost::Action
            } else {
                ReloadCost::Free
            },
            own: OwnGear::new(BrpWeapon {
                skill: d.skill.clone(),
                specialty: d.specialty.clone(),
                chance: r.chance,
                source: r.source,
                hp: d.hp,
                length: None,
                velocity: Some(d.velocity),
                range_m: d.range,
                thrown: d.thrown,
                reload_rounds: d.reload_rounds,
                db: db_share(&d.damage),
            }),
        }
    }

    /// Build the brp components of a combatant from its archetype and the
    /// level's overrides.
    pub fn equip(&self, def: &CombatantDef) -> Result<BrpBundle, DefError> {
        let a = self
            .bestiary
            .archetypes
            .get(&def.archetype)
            .ok_or_else(|| {
                unknown_archetype("brp", &def.archetype, self.bestiary.archetypes.keys())
            })?;
        let o = &def.overrides;
        check_stat_overrides("brp", &o.stats, &CHARACTERISTICS)?;
        if o.items.as_ref().is_some_and(|i| !i.is_empty()) {
            return Err(DefError::field(
                "items",
                "brp has no consumable items; expected none",
            ));
        }
        let own = crate::rulesets::data::stats_for("brp", &o.stats);
        let stat = |key: &str, v: i32| own.get(key).copied().unwrap_or(v);
        let (str_, con, siz, dex) = (
            stat("STR", a.str),
            stat("CON", a.con),
            stat("SIZ", a.siz),
            stat("DEX", a.dex),
        );
        let armor_ids = o.armor.clone().unwrap_or_else(|| a.armor.clone());
        let mut armor = BrpArmor::default();
        for id in &armor_ids {
            let d = self
                .equipment
                .armor
                .get(id)
                .ok_or_else(|| unknown_item("brp", "armor", id, self.equipment.armor.keys()))?;
            armor.pieces.push(d.name.clone());
            // §5.10: helmets add ("+2") to the armor worn.
            armor.ap += d.ap;
            armor.ap_high_velocity += d.ap_high_velocity.unwrap_or(d.ap);
            armor.physical += d.physical;
        }
        let mut stats = BrpStats {
            str: str_,
            con,
            siz,
            int: stat("INT", a.int),
            pow: stat("POW", a.pow),
            dex,
            app: stat("APP", a.app),
            skills: a.skills.clone(),
            db: self.damage_bonus(str_ + siz),
            dodge: 0,
            first_aid: 0,
        };
        stats.dodge = (self.skill(&a.skills, "Dodge", dex) + armor.physical).max(0);
        stats.first_aid = self.skill(&a.skills, "First Aid", dex);
        let weapon_ids = o.weapons.clone().unwrap_or_else(|| a.weapons.clone());
        let mut weapons = Vec::new();
        for id in &weapon_ids {
            let w = if let Some(d) = self.equipment.melee.get(id) {
                self.melee(id, d, &stats)
            } else if let Some(d) = self.equipment.natural.get(id) {
                self.melee(id, d, &stats)
            } else if let Some(d) = self.equipment.missile.get(id) {
                self.missile(id, d, &stats, armor.physical)
            } else {
                return Err(unknown_item(
                    "brp",
                    "weapon",
                    id,
                    self.equipment.weapon_ids(),
                ));
            };
            weapons.push(w);
        }
        // Every character can fight bare-handed (§5.9's Brawl row); a
        // vehicle fights not at all.
        if !a.vehicle
            && !weapon_ids.iter().any(|w| w == "brawl")
            && let Some(d) = self.equipment.melee.get("brawl")
        {
            weapons.push(self.melee("brawl", d, &stats));
        }
        let shield_id = o.shield.clone().unwrap_or_else(|| a.shield.clone());
        let shield = match shield_id {
            Some(id) => {
                let s = self.equipment.shields.get(&id).ok_or_else(|| {
                    unknown_item("brp", "shield", &id, self.equipment.shields.keys())
                })?;
                let chance = a.skills.get(&s.skill).copied().unwrap_or(s.base);
                Some(BrpShield {
                    id: id.clone(),
                    name: s.name.clone(),
                    chance,
                    hp: s.hp,
                    class: s.class,
                })
            }
            None => None,
        };
        let hp = hit_points(con, siz);
        Ok(BrpBundle {
            stats,
            size: a.size,
            health: Health {
                hp,
                hp_max: hp,
                ep: 0,
                ep_max: 0,
            },
            loadout: Loadout {
                ready: (!weapons.is_empty()).then_some(0),
                weapons,
            },
            armor,
            shield,
            wounds: Wounds::default(),
            steed: (a.carries > 0).then_some(Steed {
                carries: a.carries,
                vehicle: a.vehicle,
            }),
        })
    }
}
