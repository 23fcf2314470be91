//! The level file as serde reads it, before any check.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::rules::level::{Control, DEFAULT_MAX_ROUNDS, Facing, Overrides, Victory, Visibility};
use crate::rules::map::Terrain;

fn default_max_rounds() -> u32 {
    DEFAULT_MAX_ROUNDS
}

#[derive(Deserialize)]
#[serde(rename = "Level", deny_unknown_fields)]
pub(super) struct RawLevel {
    pub(super) name: String,
    #[serde(default)]
    pub(super) description: String,
    pub(super) default_ruleset: String,
    #[serde(default)]
    pub(super) rulesets: Vec<String>,
    pub(super) map: RawMap,
    #[serde(default)]
    pub(super) visibility: Visibility,
    pub(super) factions: Vec<RawFaction>,
    pub(super) combatants: Vec<RawCombatant>,
    pub(super) victory: Victory,
    #[serde(default = "default_max_rounds")]
    pub(super) max_rounds: u32,
}

#[derive(Deserialize)]
#[serde(rename = "Map", deny_unknown_fields)]
pub(super) struct RawMap {
    pub(super) legend: BTreeMap<char, Terrain>,
    pub(super) rows: Vec<String>,
    #[serde(default)]
    pub(super) zone_legend: BTreeMap<char, String>,
    #[serde(default)]
    pub(super) zone_rows: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename = "Faction", deny_unknown_fields)]
pub(super) struct RawFaction {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) colour: String,
    pub(super) control: Control,
    #[serde(default)]
    pub(super) starts_fight: bool,
    #[serde(default)]
    pub(super) surprised: bool,
}

#[derive(Deserialize)]
#[serde(rename = "Combatant", deny_unknown_fields)]
pub(super) struct RawCombatant {
    pub(super) archetype: String,
    pub(super) faction: String,
    pub(super) at: (i32, i32),
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) facing: Option<Facing>,
    #[serde(default)]
    pub(super) overrides: Overrides,
    #[serde(default)]
    pub(super) riding: Option<String>,
}
