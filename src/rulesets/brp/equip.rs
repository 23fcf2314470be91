//! How a level's archetype becomes a brp combatant: its stat block with the
//! level's overrides, the chances its skills give, its weapons, armor and
//! shield from the tables.

use std::collections::BTreeMap;

use crate::rules::components::{
    Health, Loadout, OwnGear, ReloadCost, Size, Steed, Weapon, WeaponKind,
};
use crate::rules::error::DefError;
use crate::rules::level::CombatantDef;
use crate::rulesets::data::{check_stat_overrides, unknown_archetype, unknown_item};

use super::data::{ArchetypeDef, BrpData, CHARACTERISTICS, MeleeDef, MissileDef, db_share};
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
    fn skill(&self, skills: &BTreeMap<String, i32>, name: &str, dex: i32) -> i32 {
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
    /// level's overrides: its stat block, armor, weapons and shield, each
    /// from the tables.
    pub fn equip(&self, def: &CombatantDef) -> Result<BrpBundle, DefError> {
        let a = self.archetype(def)?;
        let o = &def.overrides;
        let armor = self.armor(o.armor.as_ref().unwrap_or(&a.armor))?;
        let stats = self.stats(a, &o.stats, &armor);
        let weapon_ids = o.weapons.as_ref().unwrap_or(&a.weapons);
        let weapons = self.weapons(a, weapon_ids, &stats, armor.physical)?;
        let shield = self.shield(a, o.shield.as_ref().unwrap_or(&a.shield))?;
        let hp = hit_points(stats.con, stats.siz);
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

    /// The archetype `def` names, once its overrides are ones brp takes:
    /// known characteristics, and no consumable items.
    fn archetype(&self, def: &CombatantDef) -> Result<&ArchetypeDef, DefError> {
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
        Ok(a)
    }

    /// §5.10: the armor worn, by its pieces' ids: their points added up
    /// (helmets add, "+2"), and their modifier to physical skills.
    fn armor(&self, ids: &[String]) -> Result<BrpArmor, DefError> {
        let mut armor = BrpArmor::default();
        for id in ids {
            let d = self
                .equipment
                .armor
                .get(id)
                .ok_or_else(|| unknown_item("brp", "armor", id, self.equipment.armor.keys()))?;
            armor.pieces.push(d.name.clone());
            armor.ap += d.ap;
            armor.ap_high_velocity += d.ap_high_velocity.unwrap_or(d.ap);
            armor.physical += d.physical;
        }
        Ok(armor)
    }

    /// The stat block: the archetype's characteristics with the level's
    /// `overrides`, its damage bonus, and its Dodge (the armor's physical
    /// modifier applied, §5.10) and First Aid chances.
    fn stats(
        &self,
        a: &ArchetypeDef,
        overrides: &BTreeMap<String, i32>,
        armor: &BrpArmor,
    ) -> BrpStats {
        let own = crate::rulesets::data::stats_for("brp", overrides);
        let stat = |key: &str, v: i32| own.get(key).copied().unwrap_or(v);
        let (str_, siz, dex) = (stat("STR", a.str), stat("SIZ", a.siz), stat("DEX", a.dex));
        BrpStats {
            str: str_,
            con: stat("CON", a.con),
            siz,
            int: stat("INT", a.int),
            pow: stat("POW", a.pow),
            dex,
            app: stat("APP", a.app),
            skills: a.skills.clone(),
            db: self.damage_bonus(str_ + siz),
            dodge: (self.skill(&a.skills, "Dodge", dex) + armor.physical).max(0),
            first_aid: self.skill(&a.skills, "First Aid", dex),
        }
    }

    /// The weapons carried, by their ids (melee, natural or missile), their
    /// chances from `stats` (`physical`: the armor's modifier to Throw);
    /// and bare hands for every character (§5.9's Brawl row), a vehicle
    /// fighting not at all.
    fn weapons(
        &self,
        a: &ArchetypeDef,
        ids: &[String],
        stats: &BrpStats,
        physical: i32,
    ) -> Result<Vec<Weapon>, DefError> {
        let mut weapons = Vec::new();
        for id in ids {
            let w = if let Some(d) = self.equipment.melee.get(id) {
                self.melee(id, d, stats)
            } else if let Some(d) = self.equipment.natural.get(id) {
                self.melee(id, d, stats)
            } else if let Some(d) = self.equipment.missile.get(id) {
                self.missile(id, d, stats, physical)
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
        if !a.vehicle
            && !ids.iter().any(|w| w == "brawl")
            && let Some(d) = self.equipment.melee.get("brawl")
        {
            weapons.push(self.melee("brawl", d, stats));
        }
        Ok(weapons)
    }

    /// The shield carried, by its id (none: no shield), at the archetype's
    /// rating in its skill, else the skill's base.
    fn shield(&self, a: &ArchetypeDef, id: &Option<String>) -> Result<Option<BrpShield>, DefError> {
        let Some(id) = id else {
            return Ok(None);
        };
        let s = self
            .equipment
            .shields
            .get(id)
            .ok_or_else(|| unknown_item("brp", "shield", id, self.equipment.shields.keys()))?;
        let chance = a.skills.get(&s.skill).copied().unwrap_or(s.base);
        Ok(Some(BrpShield {
            id: id.clone(),
            name: s.name.clone(),
            chance,
            hp: s.hp,
            class: s.class,
        }))
    }
}
