//! The decisions the zones text leaves to the GM, as settings. Defaults live
//! in `assets/rulesets/zones/settings.ron`; the reasons for each default are
//! in `docs/rulesets/zones.md`. The text marks no rule optional, so there
//! are no toggles of its rules here.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::dice::DiceExpr;

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

fn parse_bool(key: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "on" | "yes" => Ok(true),
        "false" | "off" | "no" => Ok(false),
        _ => Err(format!("{key} expects true or false, not `{v}`")),
    }
}

impl ZonesSettings {
    pub const KEYS: [&'static str; 8] = [
        "critical_percent",
        "zero_health",
        "natural_extremes",
        "morale",
        "shove_cells",
        "pit_damage",
        "gear_degradation",
        "durability_die",
    ];

    /// Change one setting from text (`fray simulate --set zero_health=Incapacitated`).
    pub fn set(&mut self, key: &str, v: &str) -> Result<(), String> {
        match key {
            "critical_percent" => {
                self.critical_percent = v
                    .parse()
                    .ok()
                    .filter(|p| (1..=100).contains(p))
                    .ok_or_else(|| format!("{key} expects a percentage 1-100, not `{v}`"))?;
            }
            "zero_health" => {
                self.zero_health = match v {
                    "Dead" | "dead" => ZeroHealth::Dead,
                    "Incapacitated" | "incapacitated" => ZeroHealth::Incapacitated,
                    _ => return Err(format!("{key} expects Dead or Incapacitated, not `{v}`")),
                }
            }
            "natural_extremes" => self.natural_extremes = parse_bool(key, v)?,
            "morale" => self.morale = parse_bool(key, v)?,
            "shove_cells" => {
                self.shove_cells = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=8).contains(n))
                    .ok_or_else(|| format!("{key} expects a number of cells 1-8, not `{v}`"))?;
            }
            "gear_degradation" => self.gear_degradation = parse_bool(key, v)?,
            "durability_die" => {
                self.durability_die = v
                    .parse()
                    .ok()
                    .filter(|n| (2..=100).contains(n))
                    .ok_or_else(|| format!("{key} expects the sides of a die, 2-100, not `{v}`"))?;
            }
            "pit_damage" => {
                self.pit_damage = match v {
                    "kill" | "None" | "deadly" => None,
                    dice => Some(dice.parse().map_err(|e| {
                        format!("{key} expects `kill` or a dice expression like 2d6: {e}")
                    })?),
                }
            }
            _ => {
                return Err(format!(
                    "zones has no setting `{key}`; expected one of {}",
                    Self::KEYS.join(", ")
                ));
            }
        }
        Ok(())
    }
}
