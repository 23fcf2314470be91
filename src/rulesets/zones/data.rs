//! Zones stat blocks, equipment and bestiary, read from
//! `assets/rulesets/zones/*.ron`, and how a level's archetype becomes a
//! combatant.

use std::collections::BTreeMap;
use std::path::Path;

use bevy::prelude::*;
use serde::Deserialize;

use crate::rules::components::{
    FireMode, Health, Loadout, OwnGear, ReloadCost, Size, Steed, Weapon, WeaponKind,
};
use crate::rules::dice::DiceExpr;
use crate::rules::error::{DataError, DefError};
use crate::rules::level::CombatantDef;
use crate::rulesets::data::{
    Files, Ranges, StatRange, archetype_gear, check_stat_overrides, load, stat_range,
    unknown_archetype, unknown_item,
};
use crate::rulesets::zones::weapon::{ZonesGear, ZonesWeapon};

use super::settings::ZonesSettings;

/// A zones character's attributes (saves roll d20 under them), armour and
/// traits.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct ZonesStats {
    pub str: i32,
    pub agi: i32,
    pub wit: i32,
    /// Worn armour, shield included, before cover (§Cover: "never above 3").
    pub armour: i32,
    /// Names of the armour pieces and shield, for the sheet.
    pub armour_names: Vec<String>,
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
pub struct ArmourDef {
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
    pub armour: BTreeMap<String, ArmourDef>,
    pub shields: BTreeMap<String, ArmourDef>,
    /// Consumable items.
    #[serde(default)]
    pub items: BTreeMap<String, ItemDef>,
    /// Profane powers.
    #[serde(default)]
    pub powers: BTreeMap<String, PowerDef>,
}

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
    #[serde(default)]
    pub armour: Vec<String>,
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

/// Everything zones reads from its asset folder.
#[derive(Resource, Clone, Debug)]
pub struct ZonesData {
    pub equipment: Equipment,
    pub bestiary: Bestiary,
    pub settings: ZonesSettings,
}

/// The attack modes every weapon has, in `Command::Attack::mode` order.
pub const MODE_STRIKE: usize = 0;
/// "voluntarily hold back an attack to inflict impaired damage".
pub const MODE_HOLD_BACK: usize = 1;
/// "deliver a death blow" on a nearby incapacitated target.
pub const MODE_DEATH_BLOW: usize = 2;
/// §Attack stunts: "forcing a surrender" instead of the blow.
pub const MODE_STUNT_SURRENDER: usize = 3;
/// §Attack stunts, the text's example: "the bandit is disarmed and
/// incapacitated until the end of the stretch".
pub const MODE_STUNT_DISARM: usize = 4;

/// Is `mode` an attack stunt?
pub fn is_stunt(mode: usize) -> bool {
    matches!(mode, MODE_STUNT_SURRENDER | MODE_STUNT_DISARM)
}

/// Impaired damage: a d4 whatever the weapon (Fray decides, after "Unarmed
/// attacks inflict d4 impaired damage").
pub fn impaired() -> DiceExpr {
    DiceExpr::parse("d4").unwrap_or_else(|_| DiceExpr::flat(1))
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
        armour: Vec<String>,
        shield: Option<String>,
        damaged: &[String],
    ) -> Result<Vec<Piece>, DefError> {
        let worn = armour
            .into_iter()
            .map(|id| (id, false))
            .chain(shield.map(|id| (id, true)));
        let mut pieces = Vec::new();
        for (id, is_shield) in worn {
            let (table, what) = if is_shield {
                (&self.equipment.shields, "shield")
            } else {
                (&self.equipment.armour, "armour")
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
        let armour_ids = o.armor.clone().unwrap_or_else(|| a.armour.clone());
        let pieces = self.worn(armour_ids, shield.clone(), &o.damaged)?;
        let armour = pieces.iter().map(|p| p.value).sum();
        let armour_names = pieces.iter().map(|p| p.name.clone()).collect();
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
                armour: stat("ARMOUR", armour),
                armour_names,
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

impl crate::rulesets::data::Equipment for Equipment {
    fn defines(&self, kind: &str, id: &str) -> bool {
        match kind {
            "weapon" => self.weapons.contains_key(id),
            "armour" => self.armour.contains_key(id),
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
        for (id, p) in self.armour.iter().chain(&self.shields) {
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

impl crate::rulesets::data::Bestiary for Bestiary {
    fn gear(&self) -> Vec<(&str, Vec<(&'static str, &str)>)> {
        self.archetypes
            .iter()
            .map(|(id, a)| {
                let mut gear = archetype_gear(&a.weapons, "armour", &a.armour, a.shield.as_ref());
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
