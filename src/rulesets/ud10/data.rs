//! UD10 stat blocks, equipment and bestiary, read from
//! `assets/rulesets/ud10/*.ron`, and how a level's archetype becomes a
//! combatant.

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
use serde::Deserialize;

use crate::data::error::locate;
use crate::rules::components::{
    FireMode, Health, Loadout, OwnGear, ReloadCost, Size, Weapon, WeaponKind,
};
use crate::rules::dice::DiceExpr;
use crate::rules::error::{DataError, DefError};
use crate::rules::level::{CombatantDef, Overrides};
use crate::rulesets::data::{
    Files, Ranges, StatRange, archetype_gear, check_stat_overrides, load, stat_range,
    unknown_archetype, unknown_item,
};
use crate::rulesets::ud10::weapon::Ud10Weapon;

use super::armor::{Armor, BodyZone, Protection, Shield};
use super::settings::Ud10Settings;

/// A UD10 combatant's attributes and combat skills.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Ud10Stats {
    pub str: i32,
    pub dex: i32,
    pub con: i32,
    /// Initiative skill.
    pub ini: i32,
    /// Hand-to-hand combat skill.
    pub melee: i32,
    /// Ranged combat skill.
    pub ranged: i32,
    /// Parry skill; `None` parries untrained, by DEX (§Parrying and Dodging).
    pub parry: Option<i32>,
    /// Dodge skill; `None` dodges by DEX.
    pub dodge: Option<i32>,
    /// First Aid skill; `None` treats untrained, by DEX (docs/rulesets/ud10.md,
    /// "First aid").
    pub first_aid: Option<i32>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponDef {
    pub name: String,
    pub kind: WeaponKind,
    pub damage: DiceExpr,
    /// Attack modifier ("AM").
    #[serde(default)]
    pub am: i32,
    #[serde(default = "one")]
    pub reach: i32,
    /// Range increment in metres (ranged weapons).
    #[serde(default)]
    pub range_increment: f64,
    /// Maximum range in metres (ranged weapons).
    #[serde(default)]
    pub max_range: f64,
    #[serde(default = "one_u8")]
    pub hands: u8,
    #[serde(default)]
    pub small: bool,
    #[serde(default)]
    pub penetration: i32,
    #[serde(default)]
    pub parry: bool,
    /// A hit immobilizes instead of dealing damage (a net).
    #[serde(default)]
    pub entangles: bool,
    #[serde(default)]
    pub modes: Vec<FireMode>,
    #[serde(default)]
    pub magazine: u32,
    #[serde(default)]
    pub spare: Option<u32>,
    #[serde(default)]
    pub reload: ReloadCost,
}

fn one() -> i32 {
    1
}
fn one_u8() -> u8 {
    1
}

/// Armor rating per body zone of one piece of armor.
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ZoneRatings {
    #[serde(default)]
    pub head: i32,
    #[serde(default)]
    pub arms: i32,
    #[serde(default)]
    pub trunk: i32,
    #[serde(default)]
    pub legs: i32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorDef {
    pub name: String,
    pub rating: ZoneRatings,
    /// Buffer of the piece, where it covers (Optional Rule: Buffer).
    #[serde(default)]
    pub buffer: i32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShieldDef {
    pub name: String,
    /// "has a shield: +2" (§Defense Rating Modifiers).
    pub defense: i32,
}

/// `assets/rulesets/ud10/equipment.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equipment {
    pub weapons: BTreeMap<String, WeaponDef>,
    pub armor: BTreeMap<String, ArmorDef>,
    pub shields: BTreeMap<String, ShieldDef>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skills {
    pub initiative: i32,
    pub melee: i32,
    pub ranged: i32,
    #[serde(default)]
    pub parry: Option<i32>,
    #[serde(default)]
    pub dodge: Option<i32>,
    #[serde(default)]
    pub first_aid: Option<i32>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchetypeDef {
    pub name: String,
    #[serde(default)]
    pub size: Size,
    pub str: i32,
    pub dex: i32,
    pub con: i32,
    pub hp: i32,
    pub ep: i32,
    pub skills: Skills,
    /// Carried weapons; the first is in hand when the battle starts.
    pub weapons: Vec<String>,
    #[serde(default)]
    pub armor: Vec<String>,
    #[serde(default)]
    pub shield: Option<String>,
}

/// `assets/rulesets/ud10/bestiary.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bestiary {
    pub archetypes: BTreeMap<String, ArchetypeDef>,
}

/// Everything UD10 reads from its asset folder.
#[derive(Resource, Clone, Debug)]
pub struct Ud10Data {
    pub equipment: Equipment,
    pub bestiary: Bestiary,
    pub settings: Ud10Settings,
}

impl Ud10Data {
    /// Read `equipment.ron`, `bestiary.ron` and `settings.ron` from `dir` and
    /// check that every archetype's equipment exists.
    pub fn load(dir: &Path) -> Result<Ud10Data, DataError> {
        let files: Files<Equipment, Bestiary, Ud10Settings> = load(dir)?;
        // ud10 §Performing Actions: every combatant attacks with a weapon.
        for (id, a) in &files.bestiary.archetypes {
            if a.weapons.is_empty() {
                let (line, column) = locate(&files.bestiary_text, None, &format!("\"{id}\""));
                return Err(DataError {
                    file: files.bestiary_file,
                    line,
                    column,
                    message: format!("archetype `{id}` expected at least one weapon"),
                });
            }
        }
        let Files {
            equipment,
            bestiary,
            settings,
            ..
        } = files;
        Ok(Ud10Data {
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
            .ok_or_else(|| format!("ud10 has no weapon `{id}`"))?;
        Ok(Weapon {
            id: id.into(),
            name: d.name.as_str().into(),
            kind: d.kind,
            damage: d.damage.clone(),
            reach: d.reach,
            range_increment_m: d.range_increment,
            max_range_m: d.max_range,
            hands: d.hands,
            modes: d.modes.clone().into(),
            magazine: d.magazine,
            loaded: d.magazine,
            spare: d.spare,
            reload: d.reload,
            own: OwnGear::new(Ud10Weapon {
                attack_mod: d.am,
                penetration: d.penetration,
                parry: d.parry,
                small: d.small,
                entangles: d.entangles,
            }),
        })
    }

    pub fn armor(&self, ids: &[String]) -> Result<Armor, String> {
        let mut armor = Armor::default();
        for id in ids {
            let d = self
                .equipment
                .armor
                .get(id)
                .ok_or_else(|| format!("ud10 has no armor `{id}`"))?;
            armor.pieces.push(d.name.clone());
            for z in BodyZone::ALL {
                let r = match z {
                    BodyZone::Head => d.rating.head,
                    BodyZone::LeftArm | BodyZone::RightArm => d.rating.arms,
                    BodyZone::Trunk => d.rating.trunk,
                    BodyZone::LeftLeg | BodyZone::RightLeg => d.rating.legs,
                };
                if r > 0 {
                    let p: &mut Protection = &mut armor.zones[z.index()];
                    p.rating += r;
                    p.buffer = p.buffer.max(d.buffer);
                }
            }
        }
        Ok(armor)
    }

    /// Build the UD10 components of a combatant from its archetype and the
    /// level's overrides.
    pub fn equip(&self, def: &CombatantDef) -> Result<Ud10Bundle, DefError> {
        let a = self
            .bestiary
            .archetypes
            .get(&def.archetype)
            .ok_or_else(|| {
                unknown_archetype("ud10", &def.archetype, self.bestiary.archetypes.keys())
            })?;
        let o = &def.overrides;
        check_stat_overrides("ud10", &o.stats, &STATS)?;
        refuse_items(o)?;
        let own = crate::rulesets::data::stats_for("ud10", &o.stats);
        let weapons = self.weapons_of(a, o)?;
        let armor = self.armor_of(a, o)?;
        let shield = self.shield_of(a, o)?;
        Ok(Ud10Bundle {
            stats: stats_of(a, &own),
            size: a.size,
            health: health_of(a, &own),
            loadout: Loadout {
                ready: if weapons.is_empty() { None } else { Some(0) },
                weapons,
            },
            armor,
            shield,
        })
    }

    /// The weapons the combatant carries: the level's, else its
    /// archetype's, each one the equipment names. Fray decides
    /// (docs/rulesets/ud10.md, "Weapons"): every UD10 attack is made with a
    /// weapon, so a combatant without one could only wait; it is refused.
    fn weapons_of(&self, a: &ArchetypeDef, o: &Overrides) -> Result<Vec<Weapon>, DefError> {
        let weapon_ids = o.weapons.clone().unwrap_or_else(|| a.weapons.clone());
        let weapons = weapon_ids
            .iter()
            .map(|w| {
                self.weapon(w)
                    .map_err(|_| unknown_item("ud10", "weapon", w, self.equipment.weapons.keys()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if weapons.is_empty() {
            return Err(DefError::field(
                "weapons",
                "carries no weapon; expected at least one (every ud10 attack is made with a weapon)",
            ));
        }
        Ok(weapons)
    }

    /// The armour the combatant wears (the level's pieces, else its
    /// archetype's), each piece one the equipment names.
    fn armor_of(&self, a: &ArchetypeDef, o: &Overrides) -> Result<Armor, DefError> {
        let armor_ids = o.armor.clone().unwrap_or_else(|| a.armor.clone());
        if let Some(id) = armor_ids
            .iter()
            .find(|id| !self.equipment.armor.contains_key(*id))
        {
            return Err(unknown_item(
                "ud10",
                "armor",
                id,
                self.equipment.armor.keys(),
            ));
        }
        self.armor(&armor_ids).map_err(DefError::entry)
    }

    /// The shield the combatant carries, if any (the level's choice, else
    /// its archetype's), one the equipment names.
    fn shield_of(&self, a: &ArchetypeDef, o: &Overrides) -> Result<Option<Shield>, DefError> {
        let shield_id = o.shield.clone().unwrap_or_else(|| a.shield.clone());
        let Some(id) = shield_id else {
            return Ok(None);
        };
        let s =
            self.equipment.shields.get(&id).ok_or_else(|| {
                unknown_item("ud10", "shield", &id, self.equipment.shields.keys())
            })?;
        Ok(Some(Shield {
            name: s.name.clone(),
            defense: s.defense,
        }))
    }
}

/// §Performing Actions: "using or manipulating an item" is the net (a
/// weapon) here; ud10 has no consumables to carry, and refuses a level's.
fn refuse_items(o: &Overrides) -> Result<(), DefError> {
    if o.items.as_ref().is_some_and(|i| !i.is_empty()) {
        return Err(DefError::field(
            "items",
            "ud10 has no consumable items; expected none (a net is a weapon: `weapons`)",
        ));
    }
    Ok(())
}

/// The combatant's attributes and skills: the level's (`own`, by stat
/// name), else its archetype's.
fn stats_of(a: &ArchetypeDef, own: &BTreeMap<String, i32>) -> Ud10Stats {
    let stat = |key: &str, v: i32| own.get(key).copied().unwrap_or(v);
    Ud10Stats {
        str: stat("STR", a.str),
        dex: stat("DEX", a.dex),
        con: stat("CON", a.con),
        ini: stat("INI", a.skills.initiative),
        melee: stat("MELEE", a.skills.melee),
        ranged: stat("RANGED", a.skills.ranged),
        parry: own.get("PARRY").copied().or(a.skills.parry),
        dodge: own.get("DODGE").copied().or(a.skills.dodge),
        first_aid: own.get("FIRST_AID").copied().or(a.skills.first_aid),
    }
}

/// The combatant's HP and EP, full: the level's (`own`), else its
/// archetype's.
fn health_of(a: &ArchetypeDef, own: &BTreeMap<String, i32>) -> Health {
    let hp = own.get("HP").copied().unwrap_or(a.hp);
    let ep = own.get("EP").copied().unwrap_or(a.ep);
    Health {
        hp,
        hp_max: hp,
        ep,
        ep_max: ep,
    }
}

/// The stats a level may set for a UD10 combatant, and Fray's ranges for
/// them (docs/rulesets/ud10.md, "Ranges"): attributes -5 to 20, skills 0 to
/// 30, HP and EP 1 to 999 (a combatant starts able to fight).
pub const STATS: [StatRange; 11] = [
    ("STR", -5..=20),
    ("DEX", -5..=20),
    ("CON", -5..=20),
    ("HP", 1..=999),
    ("EP", 1..=999),
    ("INI", 0..=30),
    ("MELEE", 0..=30),
    ("RANGED", 0..=30),
    ("PARRY", 0..=30),
    ("DODGE", 0..=30),
    ("FIRST_AID", 0..=30),
];

/// The UD10 components of one combatant.
pub struct Ud10Bundle {
    pub stats: Ud10Stats,
    pub size: Size,
    pub health: Health,
    pub loadout: Loadout,
    pub armor: Armor,
    pub shield: Option<Shield>,
}

impl crate::rulesets::skeleton::Equipped for Ud10Bundle {
    fn insert_into(self, e: &mut EntityWorldMut) {
        e.insert((
            self.stats,
            self.size,
            self.health,
            self.loadout,
            self.armor,
            super::state::Ud10Turn::default(),
        ));
        if let Some(s) = self.shield {
            e.insert(s);
        }
    }
}

impl crate::rulesets::skeleton::Equip for Ud10Data {
    type Bundle = Ud10Bundle;
    fn equip(&self, def: &CombatantDef) -> Result<Ud10Bundle, DefError> {
        Ud10Data::equip(self, def)
    }
}

impl crate::rulesets::data::Equipment for Equipment {
    fn defines(&self, kind: &str, id: &str) -> bool {
        match kind {
            "weapon" => self.weapons.contains_key(id),
            "armor" => self.armor.contains_key(id),
            "shield" => self.shields.contains_key(id),
            _ => false,
        }
    }
    /// Fray's ranges (docs/rulesets/ud10.md, "Ranges").
    fn ranges(&self, r: &mut Ranges) {
        for (id, w) in &self.weapons {
            r.damage(id, "damage", &w.damage);
            r.int(id, "am", w.am, -10..=10);
            r.int(id, "reach", w.reach, 1..=5);
            r.int(id, "hands", w.hands, 1..=2);
            r.int(id, "penetration", w.penetration, 0..=20);
            r.int(id, "magazine", w.magazine, 0..=1000);
            r.int(id, "spare", w.spare.unwrap_or(0), 0..=10_000);
            r.real(id, "range_increment", w.range_increment, 0.0..=1000.0);
            r.real(id, "max_range", w.max_range, 0.0..=10_000.0);
            if w.kind != WeaponKind::Melee {
                r.check(
                    w.range_increment > 0.0 && w.max_range >= w.range_increment,
                    id,
                    "range_increment",
                    format!(
                        "`{id}` is a ranged weapon with range_increment {} and max_range {}; expected an increment above 0 and a max_range at least that",
                        w.range_increment, w.max_range
                    ),
                );
            }
            for m in &w.modes {
                r.damage(id, "damage", &m.damage);
                r.int(id, "shots", m.shots, 1..=100);
                r.int(id, "attack_mod", m.attack_mod, -10..=10);
            }
        }
        for (id, a) in &self.armor {
            for (field, v) in [
                ("head", a.rating.head),
                ("arms", a.rating.arms),
                ("trunk", a.rating.trunk),
                ("legs", a.rating.legs),
                ("buffer", a.buffer),
            ] {
                r.int(id, field, v, 0..=30);
            }
        }
        for (id, sh) in &self.shields {
            r.int(id, "defense", sh.defense, 0..=10);
        }
    }
}

impl crate::rulesets::data::Bestiary for Bestiary {
    fn gear(&self) -> Vec<(&str, Vec<(&'static str, &str)>)> {
        self.archetypes
            .iter()
            .map(|(id, a)| {
                let gear = archetype_gear(&a.weapons, "armor", &a.armor, a.shield.as_ref());
                (id.as_str(), gear)
            })
            .collect()
    }
    /// The same ranges as a level's overrides ([`STATS`]); every archetype
    /// carries a weapon.
    fn ranges(&self, r: &mut Ranges) {
        let range = |key: &str| stat_range(&STATS, key);
        for (id, a) in &self.archetypes {
            let s = &a.skills;
            for (field, key, v) in [
                ("str", "STR", Some(a.str)),
                ("dex", "DEX", Some(a.dex)),
                ("con", "CON", Some(a.con)),
                ("hp", "HP", Some(a.hp)),
                ("ep", "EP", Some(a.ep)),
                ("initiative", "INI", Some(s.initiative)),
                ("melee", "MELEE", Some(s.melee)),
                ("ranged", "RANGED", Some(s.ranged)),
                ("parry", "PARRY", s.parry),
                ("dodge", "DODGE", s.dodge),
                ("first_aid", "FIRST_AID", s.first_aid),
            ] {
                if let Some(v) = v {
                    r.int(id, field, v, range(key));
                }
            }
            r.check(
                !a.weapons.is_empty(),
                id,
                "weapons",
                format!("`{id}` carries no weapon; expected at least one (every ud10 attack is made with a weapon)"),
            );
        }
    }
}
