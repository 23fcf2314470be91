//! The decisions the zones text leaves to the GM, as settings. Defaults live
//! in `assets/rulesets/zones/settings.ron`; the reasons for each default are
//! in `docs/rulesets/zones.md`. The text marks no rule optional, so there
//! are no toggles of its rules here.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::dice::DiceExpr;
use crate::rulesets::settings::{OutOfRange, RulesetSettings, in_range};

/// What health 0 (or less) means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ZeroHealth {
    /// Dead on the spot.
    Dead,
    /// Incapacitated, like critical damage; a death blow kills.
    Incapacitated,
}

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZonesSettings {
    /// Critical damage: one hit taking at least this percentage of the
    /// target's maximum health (rounded up) incapacitates it.
    pub critical_percent: u32,
    pub zero_health: ZeroHealth,
    /// Saves: a natural 1 always passes and a natural 20 always fails.
    pub natural_extremes: bool,
    /// Morale checks at the end of the round (§Morale).
    pub morale: bool,
    /// How far "half a zone" of shove goes, in cells (doubled for each size
    /// the shover is larger).
    pub shove_cells: u32,
    /// What falling into a pit does: `None` kills; `Some(dice)` is direct
    /// damage, and the character clings on at the brink.
    pub pit_damage: Option<DiceExpr>,
    /// §Combat gear degradation: durability rolls after the fight.
    pub gear_degradation: bool,
    /// The durability roll: one die of this many sides per item; a 1
    /// damages it.
    pub durability_die: u32,
}

impl Default for ZonesSettings {
    fn default() -> Self {
        ZonesSettings {
            critical_percent: 50,
            zero_health: ZeroHealth::Dead,
            natural_extremes: true,
            morale: true,
            shove_cells: 2,
            pit_damage: None,
            gear_degradation: true,
            durability_die: 6,
        }
    }
}

impl RulesetSettings for ZonesSettings {
    const RULESET: &'static str = "zones";

    fn check_ranges(&self) -> Result<(), OutOfRange> {
        in_range(
            "critical_percent",
            self.critical_percent,
            1..=100,
            "a percentage",
        )?;
        in_range("shove_cells", self.shove_cells, 1..=8, "a number of cells")?;
        in_range(
            "durability_die",
            self.durability_die,
            2..=100,
            "the sides of a die,",
        )?;
        Ok(())
    }

    /// `--set pit_damage=kill`: a pit kills.
    fn alias(key: &str, value: &str) -> Option<&'static str> {
        (key == "pit_damage" && matches!(value, "kill" | "deadly")).then_some("null")
    }
}
