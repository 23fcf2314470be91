//! Zones' own numbers for a weapon, beside the core's [`Weapon`]: its range
//! in zones (§Attacking: "within range"), blast (§Blast attacks),
//! penetrating (§Cover: "powerful enough to penetrate the cover") and
//! whether it is damaged (§Combat gear degradation;
//! improvised weapons start so). A leaf: state only.

use crate::rules::components::Weapon;

#[derive(Clone, Debug, PartialEq, Default)]
pub struct ZonesWeapon {
    /// Range in zones (0 for melee weapons).
    pub range_zones: u32,
    /// Hits every character in a zone.
    pub blast: bool,
    /// Penetrates cover (§Cover): the target gains no armour from it.
    pub penetrating: bool,
    /// Worn by use: breaks on a damage die of 1.
    pub damaged: bool,
}

impl ZonesWeapon {
    const NONE: ZonesWeapon = ZonesWeapon {
        range_zones: 0,
        blast: false,
        penetrating: false,
        damaged: false,
    };
}

/// Zones' numbers of a weapon (none for a weapon zones did not equip).
pub trait ZonesGear {
    fn zones(&self) -> &ZonesWeapon;
    /// To mark the weapon damaged.
    fn zones_mut(&mut self) -> Option<&mut ZonesWeapon>;
}

impl ZonesGear for Weapon {
    fn zones(&self) -> &ZonesWeapon {
        self.own.get().unwrap_or(&ZonesWeapon::NONE)
    }
    fn zones_mut(&mut self) -> Option<&mut ZonesWeapon> {
        self.own.get_mut()
    }
}
