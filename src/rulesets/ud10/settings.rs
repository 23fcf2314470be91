//! UD10's optional rules (toggles) and the decisions the text leaves to the
//! GM (settings). Defaults live in `assets/rulesets/ud10/settings.ron`; the
//! reasons for each default are in `docs/rulesets/ud10.md`.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rulesets::settings::{OutOfRange, RulesetSettings, in_range};

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

/// When an attack comes "from behind" (§Attacking: DEX "does not apply
/// when the opponent is ... attacked from behind"). The text leaves it to
/// the GM; see docs/rulesets/ud10.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FromBehind {
    /// From the defender's rear arc while another enemy engages it in
    /// melee: a combatant fighting one opponent turns to face it.
    #[default]
    Busy,
    /// From the rear arc of whatever way the defender faces (its last
    /// attack, the nearest enemy at the end of its move, or where it
    /// turned), even in a duel.
    Facing,
}

#[derive(Resource, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
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
    /// When an attack counts as from behind.
    #[serde(default)]
    pub from_behind: FromBehind,
    /// §Performing Actions, a skill action: the difficulty a First Aid check
    /// (d10 + First Aid, or DEX untrained) must reach to bring an
    /// unconscious ally round.
    #[serde(default = "first_aid_difficulty")]
    pub first_aid_difficulty: i32,
}

fn first_aid_difficulty() -> i32 {
    10
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
            from_behind: FromBehind::Busy,
            first_aid_difficulty: first_aid_difficulty(),
        }
    }
}

impl RulesetSettings for Ud10Settings {
    const RULESET: &'static str = "ud10";

    /// Fray's ranges: a threshold no character could reach, or a cover
    /// rating beyond any skill, is a typing slip, not a house rule.
    fn check_ranges(&self) -> Result<(), OutOfRange> {
        in_range(
            "unconscious_at_hp",
            self.unconscious_at_hp,
            -100..=100,
            "HP",
        )?;
        in_range(
            "dead_at_hp",
            self.dead_at_hp,
            -100..=self.unconscious_at_hp,
            "HP, at most unconscious_at_hp:",
        )?;
        in_range("low_cover", self.low_cover, 0..=20, "a cover rating")?;
        in_range(
            "first_aid_difficulty",
            self.first_aid_difficulty,
            0..=40,
            "a difficulty",
        )?;
        in_range(
            "high_cover",
            self.high_cover,
            self.low_cover..=20,
            "a cover rating, at least low_cover:",
        )?;
        Ok(())
    }
}
