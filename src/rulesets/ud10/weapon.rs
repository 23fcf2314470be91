//! UD10's own numbers for a weapon, beside the core's [`Weapon`]: its attack
//! modifier (§Attack Modifiers, "AM"), armor penetration (§Optional Rule:
//! Armor Penetration), whether it parries (§Parrying and Dodging) and whether it is
//! small enough to draw while moving (§Free Actions). A leaf: state only.

use crate::rules::components::Weapon;

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Ud10Weapon {
    /// Attack modifier ("AM").
    pub attack_mod: i32,
    /// Armor penetration score.
    pub penetration: i32,
    /// Can parry with it.
    pub parry: bool,
    /// Can be drawn as part of a standard movement.
    pub small: bool,
    /// A hit immobilizes the target instead of dealing damage (a net).
    pub entangles: bool,
}

impl Ud10Weapon {
    const NONE: Ud10Weapon = Ud10Weapon {
        attack_mod: 0,
        penetration: 0,
        parry: false,
        small: false,
        entangles: false,
    };
}

/// UD10's numbers of a weapon (none for a weapon UD10 did not equip).
pub trait Ud10Gear {
    fn ud10(&self) -> &Ud10Weapon;
}

impl Ud10Gear for Weapon {
    fn ud10(&self) -> &Ud10Weapon {
        self.own.get().unwrap_or(&Ud10Weapon::NONE)
    }
}
