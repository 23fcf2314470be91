//! UD10's optional rules (toggles) and the decisions the text leaves to the
//! GM (settings). Defaults live in `assets/rulesets/ud10/settings.ron`; the
//! reasons for each default are in `docs/rulesets/ud10.md`.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// What 0 endurance points does (the text is silent; Fray decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EpZero {
    /// Collapses from exhaustion and is out of the fight.
    Unconscious,
    /// Keeps fighting; EP only measures bruising.
    NoEffect,
}

/// Ties on initiative.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InitiativeGrouping {
    /// Every combatant rolls its own d10 (§Starting a Combat Round).
    Individual,
    /// One d10 per AI-controlled faction, each member adds its own INI skill
    /// ("The GM may decide to roll INI once for ... each group of NPCs").
    PerAiFaction,
}

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ud10Settings {
    /// Keep initiative results across rounds ("For speedier gameplay ...
    /// keep their rolled INI results") instead of rolling every round.
    pub keep_initiative: bool,
    pub initiative_grouping: InitiativeGrouping,
    /// Optional Rule: Body Zones.
    pub body_zones: bool,
    /// Optional Rule: Buffer.
    pub buffer: bool,
    /// Optional Rule: Armor Penetration.
    pub penetration: bool,
    /// Optional Rule: Fleeing From Battle (free attacks on who runs from melee).
    pub fleeing: bool,
    /// Optional Rule: Retreat.
    pub retreat: bool,
    /// Allow dodging melee attacks ("the GM determines whether ... it is maybe
    /// possible to dodge the attack").
    pub dodge: bool,
    /// At or below this many HP a combatant falls unconscious.
    pub unconscious_at_hp: i32,
    /// At or below this many HP a combatant dies.
    pub dead_at_hp: i32,
    pub ep_zero: EpZero,
    /// Cover ratings the GM assigns (§Taking Cover): low cover, high cover.
    pub low_cover: i32,
    pub high_cover: i32,
}

impl Default for Ud10Settings {
    fn default() -> Self {
        Ud10Settings {
            keep_initiative: true,
            initiative_grouping: InitiativeGrouping::Individual,
            body_zones: true,
            buffer: true,
            penetration: true,
            fleeing: true,
            retreat: true,
            dodge: true,
            unconscious_at_hp: 0,
            dead_at_hp: -5,
            ep_zero: EpZero::Unconscious,
            low_cover: 2,
            high_cover: 4,
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

fn parse_int(key: &str, v: &str) -> Result<i32, String> {
    v.parse()
        .map_err(|_| format!("{key} expects a whole number, not `{v}`"))
}

impl Ud10Settings {
    /// Every setting's name, for `--set` help and errors.
    pub const KEYS: [&'static str; 13] = [
        "keep_initiative",
        "initiative_grouping",
        "body_zones",
        "buffer",
        "penetration",
        "fleeing",
        "retreat",
        "dodge",
        "unconscious_at_hp",
        "dead_at_hp",
        "ep_zero",
        "low_cover",
        "high_cover",
    ];

    /// Change one setting from text (`fray simulate --set body_zones=false`).
    pub fn set(&mut self, key: &str, v: &str) -> Result<(), String> {
        match key {
            "keep_initiative" => self.keep_initiative = parse_bool(key, v)?,
            "initiative_grouping" => {
                self.initiative_grouping = match v {
                    "Individual" | "individual" => InitiativeGrouping::Individual,
                    "PerAiFaction" | "per_ai_faction" => InitiativeGrouping::PerAiFaction,
                    _ => {
                        return Err(format!(
                            "{key} expects Individual or PerAiFaction, not `{v}`"
                        ));
                    }
                }
            }
            "body_zones" => self.body_zones = parse_bool(key, v)?,
            "buffer" => self.buffer = parse_bool(key, v)?,
            "penetration" => self.penetration = parse_bool(key, v)?,
            "fleeing" => self.fleeing = parse_bool(key, v)?,
            "retreat" => self.retreat = parse_bool(key, v)?,
            "dodge" => self.dodge = parse_bool(key, v)?,
            "unconscious_at_hp" => self.unconscious_at_hp = parse_int(key, v)?,
            "dead_at_hp" => self.dead_at_hp = parse_int(key, v)?,
            "ep_zero" => {
                self.ep_zero = match v {
                    "Unconscious" | "unconscious" => EpZero::Unconscious,
                    "NoEffect" | "no_effect" => EpZero::NoEffect,
                    _ => return Err(format!("{key} expects Unconscious or NoEffect, not `{v}`")),
                }
            }
            "low_cover" => self.low_cover = parse_int(key, v)?,
            "high_cover" => self.high_cover = parse_int(key, v)?,
            _ => {
                return Err(format!(
                    "ud10 has no setting `{key}`; expected one of {}",
                    Self::KEYS.join(", ")
                ));
            }
        }
        Ok(())
    }
}
