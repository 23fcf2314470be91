//! What a brp combatant carries into the battle: its characteristics and the
//! chances its skills give (§5.5, §5.7, §5.14), worked out once when it is
//! equipped; its armor (§5.10) and shield (§5.11); what each weapon is under
//! §5.9; its wounds, one by one (§5.14). A leaf: state only; `apply.rs`
//! alone changes it.

use std::collections::BTreeMap;

use bevy::prelude::*;

use crate::rules::components::{Cid, Loadout, Weapon};
use crate::rules::dice::{DbShare, DiceExpr};
use crate::rules::view;

use super::data::{Length, ShieldClass, Velocity};
use super::derived::Source;

/// A brp combatant's characteristics and the chances of the skills the
/// combat rules use.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct BrpStats {
    pub str: i32,
    pub con: i32,
    pub siz: i32,
    pub int: i32,
    pub pow: i32,
    pub dex: i32,
    pub app: i32,
    /// Skill ratings as the stat block gives them.
    pub skills: BTreeMap<String, i32>,
    /// The damage bonus by STR + SIZ (`tables.ron`).
    pub db: DiceExpr,
    /// Dodge, its armor's physical modifier applied (§5.10: "Dodge" is a
    /// physical skill).
    pub dodge: i32,
    /// First Aid (§5.14).
    pub first_aid: i32,
}

/// What a weapon is under §5.9, carried on the core's [`Weapon`].
#[derive(Clone, Debug, PartialEq)]
pub struct BrpWeapon {
    pub skill: String,
    pub specialty: String,
    /// The wielder's chance with it (its own rating, the base, or a related
    /// specialty at half: §5.5).
    pub chance: i32,
    pub source: Source,
    /// Hit points left when it parries (§5.8); `None`: "n/a", it cannot
    /// parry (the bare hands, a creature's bite).
    pub hp: Option<i32>,
    /// Melee weapons: the class for §5.4's order on a shared rank.
    pub length: Option<Length>,
    /// Missiles: how fast (§5.6, §5.7, §5.11).
    pub velocity: Option<Velocity>,
    /// Missiles: the range, in metres (§5.9).
    pub range_m: f64,
    /// Leaves the hand when used.
    pub thrown: bool,
    /// Full rounds a reload takes (crossbows: 1).
    pub reload_rounds: u8,
    /// The share of the damage bonus its damage adds.
    pub db: Option<DbShare>,
}

impl BrpWeapon {
    pub fn is_missile(&self) -> bool {
        self.velocity.is_some()
    }
    /// Can it parry (§5.6 "the relevant Melee Weapon skill")? A melee
    /// weapon with hit points.
    pub fn parries(&self) -> bool {
        !self.is_missile() && self.hp.is_some_and(|hp| hp > 0)
    }
}

/// A weapon's brp part (every weapon of a brp combatant has one).
pub fn gear(w: &Weapon) -> Option<&BrpWeapon> {
    w.own.get::<BrpWeapon>()
}

/// The armor worn (§5.10): its points, helmets added.
#[derive(Component, Clone, Debug, PartialEq, Default)]
pub struct BrpArmor {
    pub pieces: Vec<String>,
    pub ap: i32,
    /// Against firearms and energy weapons (riot gear's "12/6").
    pub ap_high_velocity: i32,
    /// The skill modifier to physical skills, in percent.
    pub physical: i32,
}

impl BrpArmor {
    /// The points that stop a blow of this velocity (melee: `None`).
    pub fn against(&self, velocity: Option<Velocity>) -> i32 {
        match velocity {
            Some(Velocity::High) => self.ap_high_velocity,
            _ => self.ap,
        }
    }
}

/// A shield (§5.11).
#[derive(Component, Clone, Debug, PartialEq)]
pub struct BrpShield {
    pub id: String,
    pub name: String,
    /// The wielder's Shield chance to parry.
    pub chance: i32,
    /// Armor / hit points left.
    pub hp: i32,
    pub class: ShieldClass,
}

/// One injury (§5.14: "Keep track of each injury separately").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wound {
    /// Hit points it took.
    pub hp: i32,
    /// First Aid has been applied to it ("only once").
    pub treated: bool,
}

/// A combatant's injuries in the order taken.
#[derive(Component, Clone, Debug, PartialEq, Default)]
pub struct Wounds(pub Vec<Wound>);

impl Wounds {
    pub fn untreated(&self) -> impl Iterator<Item = (usize, &Wound)> {
        self.0.iter().enumerate().filter(|(_, w)| !w.treated)
    }
}

/// A combatant's stats.
pub fn stats(world: &World, cid: Cid) -> Option<&BrpStats> {
    view::get::<BrpStats>(world, cid)
}

/// The weapon in hand and its brp part.
pub fn ready(world: &World, cid: Cid) -> Option<(usize, &Weapon, &BrpWeapon)> {
    let l = view::get::<Loadout>(world, cid)?;
    let i = l.ready?;
    let w = l.weapons.get(i)?;
    Some((i, w, gear(w)?))
}

/// A carried weapon and its brp part.
pub fn weapon(world: &World, cid: Cid, index: usize) -> Option<(&Weapon, &BrpWeapon)> {
    let w = view::get::<Loadout>(world, cid)?.weapons.get(index)?;
    Some((w, gear(w)?))
}
