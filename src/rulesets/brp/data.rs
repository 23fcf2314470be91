//! brp's data, read from `assets/rulesets/brp/*.ron`: the weapon, armor and
//! shield tables of §5.9–5.11 row by row (`equipment.ron`), the standard
//! values the text names without giving (`tables.ron`: the damage bonus,
//! the base chances of the skills it names), and a stat block for each of
//! Fray's archetypes (`bestiary.ron`).

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::error::{locate, parse_ron, read_capped};
use crate::rules::components::Size;
use crate::rules::dice::{DbShare, DiceExpr};
use crate::rules::error::DataError;
use crate::rulesets::data::{self as shared, Files, Ranges, archetype_gear, stat_range};

use super::settings::BrpSettings;

/// Which weapons act first on the same DEX rank (§5.4): "missile weapons",
/// then "long weapons (spears, lances, etc.)", then "medium-length weapons
/// (swords, axes, etc.)", then "short weapons (daggers, etc.) or ...
/// unarmed". The tables do not class their melee weapons; each row's class
/// is Fray's (docs/rulesets/brp.md, "Weapon lengths").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Length {
    Long,
    Medium,
    Short,
}

/// How fast a missile flies (§5.6: "impossible to parry firearms or
/// high-velocity weapons"; §5.7: nor to dodge them; §5.11: a shield parries
/// "low-velocity missile weapons (thrown, arrows, etc.)").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Velocity {
    Low,
    High,
}

/// A row of the Melee Weapons table (§5.9).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeDef {
    pub name: String,
    /// "Melee Weapon", or "Brawl" for the bare hands.
    pub skill: String,
    /// The specialty, whose rating the attack and the parry use.
    pub specialty: String,
    /// The base chance, in percent.
    pub base: i32,
    /// As the table writes it, `db` included ("1D8+2+db").
    pub damage: DiceExpr,
    pub hands: u8,
    /// Hit points when used to parry; `None`: "n/a" (cannot break).
    pub hp: Option<i32>,
    /// Fray's class for §5.4's order on a shared rank.
    pub length: Length,
}

/// A row of the Missile Weapons table (§5.9).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissileDef {
    pub name: String,
    /// "Missile Weapon", "Firearm", "Energy Weapon" or "Throw".
    pub skill: String,
    pub specialty: String,
    pub base: i32,
    pub damage: DiceExpr,
    pub hands: u8,
    pub hp: Option<i32>,
    /// The range, in metres: normal chance up to it, ½ up to twice it, ¼
    /// up to three times, none beyond (§5.9).
    pub range: f64,
    pub velocity: Velocity,
    /// Thrown: the weapon leaves the hand (and the fight) when used.
    #[serde(default)]
    pub thrown: bool,
    /// Full rounds a reload takes (crossbows: 1, "a full combat round to
    /// reload"); 0: ready again at once.
    #[serde(default)]
    pub reload_rounds: u8,
    /// Shots before it must be reloaded ("Pistols and rifles hold 6 shots
    /// apiece; laser pistols and rifles have charges for 20 shots"); `None`:
    /// one missile at a time.
    #[serde(default)]
    pub shots: Option<u32>,
}

/// A row of the Armor Types table (§5.10).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorDef {
    pub name: String,
    /// Armor points, subtracted from damage.
    pub ap: i32,
    /// Riot gear's "12/6": the points against firearms and energy weapons,
    /// where they differ (Fray's reading: docs/rulesets/brp.md).
    #[serde(default)]
    pub ap_high_velocity: Option<i32>,
    /// The skill modifier to physical skills, in percent (−20 for chain).
    #[serde(default)]
    pub physical: i32,
    /// The skill modifier to perception skills (helmets).
    #[serde(default)]
    pub perception: i32,
    /// A helmet: its points add to the armor worn ("+2").
    #[serde(default)]
    pub helmet: bool,
}

/// How well a shield stops missiles (§5.11): "a target shield has a
/// straight 15% chance ..., a full (heater, kite, or round) shield has 30%,
/// and a large (hoplite or riot-style) shield has 60%".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShieldClass {
    Target,
    Full,
    Large,
}

/// A row of the Shields Table (§5.11).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShieldDef {
    pub name: String,
    /// Base chance to parry or attack with, in percent.
    pub base: i32,
    /// "Shield".
    pub skill: String,
    /// Its armor and hit points (one number in the table).
    pub hp: i32,
    /// Damage as a weapon (a bash).
    pub damage: DiceExpr,
    pub class: ShieldClass,
}

/// `assets/rulesets/brp/equipment.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equipment {
    /// The Melee Weapons table.
    pub melee: BTreeMap<String, MeleeDef>,
    /// The Missile Weapons table.
    pub missile: BTreeMap<String, MissileDef>,
    /// Fray's: the natural weapons of the creatures, on the tables' scale
    /// (the text has no bestiary).
    pub natural: BTreeMap<String, MeleeDef>,
    pub armor: BTreeMap<String, ArmorDef>,
    pub shields: BTreeMap<String, ShieldDef>,
}

impl Equipment {
    /// Every weapon of the three tables, by id.
    pub fn weapon_ids(&self) -> impl Iterator<Item = &String> {
        self.melee
            .keys()
            .chain(self.missile.keys())
            .chain(self.natural.keys())
    }

    /// Every specialty a weapon or shield of the tables trains.
    pub fn specialties(&self) -> impl Iterator<Item = &str> {
        let melee = self.melee.values().chain(self.natural.values());
        melee
            .map(|w| w.specialty.as_str())
            .chain(self.missile.values().map(|w| w.specialty.as_str()))
            .chain(self.shields.values().map(|s| s.skill.as_str()))
    }
}

impl shared::Equipment for Equipment {
    fn defines(&self, kind: &str, id: &str) -> bool {
        match kind {
            "weapon" => {
                self.melee.contains_key(id)
                    || self.missile.contains_key(id)
                    || self.natural.contains_key(id)
            }
            "armor" => self.armor.contains_key(id),
            "shield" => self.shields.contains_key(id),
            _ => false,
        }
    }

    fn ranges(&self, r: &mut Ranges) {
        for (id, w) in self.melee.iter().chain(&self.natural) {
            weapon_ranges(r, id, w.base, &w.damage, w.hands, w.hp);
        }
        for (id, w) in &self.missile {
            weapon_ranges(r, id, w.base, &w.damage, w.hands, w.hp);
            r.real(id, "range", w.range, 1.0..=10_000.0);
            r.int(id, "reload_rounds", w.reload_rounds, 0..=10);
            if let Some(n) = w.shots {
                r.int(id, "shots", n, 1..=1000);
            }
        }
        for (id, a) in &self.armor {
            r.int(id, "ap", a.ap, 0..=100);
            if let Some(ap) = a.ap_high_velocity {
                r.int(id, "ap_high_velocity", ap, 0..=100);
            }
            r.int(id, "physical", a.physical, -100..=0);
            r.int(id, "perception", a.perception, -100..=0);
        }
        for (id, s) in &self.shields {
            r.int(id, "base", s.base, 0..=100);
            r.int(id, "hp", s.hp, 1..=1000);
            damage_ranges(r, id, &s.damage);
        }
    }
}

fn weapon_ranges(
    r: &mut Ranges,
    id: &str,
    base: i32,
    damage: &DiceExpr,
    hands: u8,
    hp: Option<i32>,
) {
    r.int(id, "base", base, 0..=100);
    r.int(id, "hands", hands, 1..=2);
    if let Some(hp) = hp {
        r.int(id, "hp", hp, 1..=1000);
    }
    damage_ranges(r, id, damage);
}

/// A damage expression the rules can roll: in Fray's range, with at most
/// one damage bonus term, never subtracted.
fn damage_ranges(r: &mut Ranges, id: &str, damage: &DiceExpr) {
    r.damage(id, "damage", damage);
    r.check(
        damage.db_terms() <= 1 && damage.db_share().is_none_or(|(_, negative)| !negative),
        id,
        "damage",
        format!("`{id}` has damage {damage}; expected at most one `+db` or `+½db`"),
    );
}

/// The damage bonus for a range of STR + SIZ (the text names it in §5.9 and
/// §5.13 without a table: `tables.ron` gives the standard one).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusRow {
    /// The highest STR + SIZ of the row (the row starts above the last).
    pub up_to: i32,
    pub bonus: DiceExpr,
}

/// How a skill's base chance is found: a number, or a characteristic times
/// a factor (Dodge: DEX × 2).
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub enum Base {
    Flat(i32),
    Dex(i32),
}

/// `assets/rulesets/brp/tables.ron`: the standard values of the system the
/// text comes from, for what the text names but does not give.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tables {
    /// The damage bonus by STR + SIZ, lowest first.
    pub damage_bonus: Vec<BonusRow>,
    /// Beyond the last row, each further `step` points (or part of them)
    /// adds this.
    pub damage_bonus_step: i32,
    pub damage_bonus_per_step: DiceExpr,
    /// The base chance of each skill the text names that is not a weapon's
    /// specialty (Dodge, First Aid, ...).
    pub skill_bases: BTreeMap<String, Base>,
    /// §5.11: a shield's straight chance to parry a missile, by class, and
    /// kneeling behind a large one.
    pub shield_vs_missiles: ShieldChances,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShieldChances {
    pub target: i32,
    pub full: i32,
    pub large: i32,
    pub kneeling_large: i32,
}

impl ShieldChances {
    /// The chance for a shield of this class (kneeling only helps a large one).
    pub fn of(&self, class: ShieldClass, kneeling: bool) -> i32 {
        match class {
            ShieldClass::Target => self.target,
            ShieldClass::Full => self.full,
            ShieldClass::Large if kneeling => self.kneeling_large,
            ShieldClass::Large => self.large,
        }
    }
}

/// A stat block of `bestiary.ron`: the seven characteristics, skill ratings
/// by name (a skill not listed is at its base chance), and gear.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchetypeDef {
    pub name: String,
    #[serde(default)]
    pub size: Size,
    pub str: i32,
    pub con: i32,
    pub siz: i32,
    pub int: i32,
    pub pow: i32,
    pub dex: i32,
    pub app: i32,
    #[serde(default)]
    pub skills: BTreeMap<String, i32>,
    /// Carried weapons; the first is in hand when the battle starts.
    pub weapons: Vec<String>,
    #[serde(default)]
    pub armor: Vec<String>,
    #[serde(default)]
    pub shield: Option<String>,
    /// A mount or vehicle: how many ride it (Fray's: docs/rulesets/brp.md,
    /// "Mounts and vehicles").
    #[serde(default)]
    pub carries: u8,
    /// A vehicle rather than a mount: it moves only with someone aboard and
    /// never attacks, parries nor dodges.
    #[serde(default)]
    pub vehicle: bool,
}

/// `assets/rulesets/brp/bestiary.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bestiary {
    pub archetypes: BTreeMap<String, ArchetypeDef>,
}

/// The characteristics a level may set for one combatant, and the skills,
/// with Fray's ranges.
pub const CHARACTERISTICS: [shared::StatRange; 7] = [
    ("STR", 1..=200),
    ("CON", 1..=200),
    ("SIZ", 1..=200),
    ("INT", 1..=200),
    ("POW", 1..=200),
    ("DEX", 1..=200),
    ("APP", 1..=200),
];

impl shared::Bestiary for Bestiary {
    fn gear(&self) -> Vec<(&str, Vec<(&'static str, &str)>)> {
        self.archetypes
            .iter()
            .map(|(id, a)| {
                (
                    id.as_str(),
                    archetype_gear(&a.weapons, "armor", &a.armor, a.shield.as_ref()),
                )
            })
            .collect()
    }

    fn ranges(&self, r: &mut Ranges) {
        for (id, a) in &self.archetypes {
            for (key, v) in [
                ("STR", a.str),
                ("CON", a.con),
                ("SIZ", a.siz),
                ("INT", a.int),
                ("POW", a.pow),
                ("DEX", a.dex),
                ("APP", a.app),
            ] {
                let field = match key {
                    "STR" => "str",
                    "CON" => "con",
                    "SIZ" => "siz",
                    "INT" => "int",
                    "POW" => "pow",
                    "DEX" => "dex",
                    _ => "app",
                };
                r.int(id, field, v, stat_range(&CHARACTERISTICS, key));
            }
            for v in a.skills.values() {
                r.int(id, "skills", *v, 0..=300);
            }
            r.int(id, "carries", a.carries, 0..=8);
            r.check(
                !a.vehicle || a.carries > 0,
                id,
                "vehicle",
                format!("`{id}` is a vehicle that carries nobody; expected carries of 1 or more"),
            );
        }
    }
}

/// Everything brp reads from its asset folder.
#[derive(Resource, Clone, Debug)]
pub struct BrpData {
    pub equipment: Equipment,
    pub tables: Tables,
    pub bestiary: Bestiary,
    pub settings: BrpSettings,
}

impl BrpData {
    /// Read the folder's four files and check them against each other:
    /// every archetype's gear is in the tables, every skill it rates is one
    /// the tables name, and it carries a weapon.
    pub fn load(dir: &Path) -> Result<BrpData, DataError> {
        let files: Files<Equipment, Bestiary, BrpSettings> = shared::load(dir)?;
        let tables_file = dir.join("tables.ron");
        let tables_text = read_capped(&tables_file)?;
        let tables: Tables = parse_ron(&tables_file, &tables_text)?;
        check_tables(&tables, &tables_file, &tables_text)?;
        let at = |id: &str, needle: &str| {
            let (line, column) = locate(&files.bestiary_text, Some(&format!("\"{id}\"")), needle);
            (files.bestiary_file.clone(), line, column)
        };
        for (id, a) in &files.bestiary.archetypes {
            // §5.5: every combatant attacks with a weapon (Brawl at least);
            // a vehicle does not attack.
            if a.weapons.is_empty() && !a.vehicle {
                let (file, line, column) = at(id, "weapons:");
                return Err(DataError {
                    file,
                    line,
                    column,
                    message: format!("archetype `{id}` expected at least one weapon"),
                });
            }
            for skill in a.skills.keys() {
                let known = files.equipment.specialties().any(|s| s == skill)
                    || tables.skill_bases.contains_key(skill);
                if !known {
                    let (file, line, column) = at(id, &format!("\"{skill}\""));
                    let mut names: Vec<&str> = files
                        .equipment
                        .specialties()
                        .chain(tables.skill_bases.keys().map(String::as_str))
                        .collect();
                    names.sort_unstable();
                    names.dedup();
                    return Err(DataError {
                        file,
                        line,
                        column,
                        message: format!(
                            "archetype `{id}` rates the skill `{skill}`, which brp does not know; expected one of {}",
                            crate::data::error::quoted_list(&names)
                        ),
                    });
                }
            }
        }
        let Files {
            equipment,
            bestiary,
            settings,
            ..
        } = files;
        Ok(BrpData {
            equipment,
            tables,
            bestiary,
            settings,
        })
    }

    /// The damage bonus of a character with this STR + SIZ (`tables.ron`).
    pub fn damage_bonus(&self, str_siz: i32) -> DiceExpr {
        damage_bonus(&self.tables, str_siz)
    }
}

/// The damage bonus for `str_siz` by the table, and beyond its last row one
/// `damage_bonus_per_step` more for each `damage_bonus_step` points or part.
pub fn damage_bonus(t: &Tables, str_siz: i32) -> DiceExpr {
    if let Some(row) = t.damage_bonus.iter().find(|r| str_siz <= r.up_to) {
        return row.bonus.clone();
    }
    let Some(last) = t.damage_bonus.last() else {
        return DiceExpr::flat(0);
    };
    let over = str_siz - last.up_to;
    let steps = (over + t.damage_bonus_step - 1) / t.damage_bonus_step.max(1);
    let mut bonus = last.bonus.clone();
    for _ in 0..steps {
        bonus = bonus.plus(&t.damage_bonus_per_step);
    }
    bonus
}

/// The tables' rows rise, the step is positive, no bonus names a bonus.
fn check_tables(t: &Tables, file: &Path, text: &str) -> Result<(), DataError> {
    let fail = |needle: &str, message: String| {
        Err(DataError::new(file, locate(text, None, needle), message))
    };
    if t.damage_bonus.is_empty() {
        return fail(
            "damage_bonus:",
            "expected at least one row of the damage bonus".into(),
        );
    }
    for pair in t.damage_bonus.windows(2) {
        if pair[1].up_to <= pair[0].up_to {
            return fail(
                &format!("up_to: {}", pair[1].up_to),
                format!(
                    "damage bonus rows go up: expected up_to above {}, found {}",
                    pair[0].up_to, pair[1].up_to
                ),
            );
        }
    }
    if !(1..=100).contains(&t.damage_bonus_step) {
        return fail(
            "damage_bonus_step:",
            format!(
                "damage_bonus_step is {}; expected 1 to 100",
                t.damage_bonus_step
            ),
        );
    }
    let bonuses = t
        .damage_bonus
        .iter()
        .map(|r| &r.bonus)
        .chain([&t.damage_bonus_per_step]);
    for b in bonuses {
        if b.uses_db() {
            return fail(
                "db",
                format!("a damage bonus of {b} names a damage bonus; expected dice and numbers"),
            );
        }
    }
    for (skill, base) in &t.skill_bases {
        let v = match base {
            Base::Flat(n) | Base::Dex(n) => *n,
        };
        if !(0..=100).contains(&v) {
            return fail(
                &format!("\"{skill}\""),
                format!("the base of `{skill}` is {v}; expected 0 to 100"),
            );
        }
    }
    let s = t.shield_vs_missiles;
    for (name, v) in [
        ("target", s.target),
        ("full", s.full),
        ("large", s.large),
        ("kneeling_large", s.kneeling_large),
    ] {
        if !(0..=100).contains(&v) {
            return fail(
                &format!("{name}:"),
                format!("{name} is {v}; expected 0 to 100"),
            );
        }
    }
    Ok(())
}

/// How much of a weapon's damage bonus its damage adds (§5.9: thrown and
/// bow rows add "½db").
pub fn db_share(damage: &DiceExpr) -> Option<DbShare> {
    damage.db_share().map(|(share, _)| share)
}
