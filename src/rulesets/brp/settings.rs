//! brp's optional rules (toggles) and the calls the text leaves to the
//! gamemaster (settings). Defaults live in `assets/rulesets/brp/settings.ron`;
//! the reasons for each are in `docs/rulesets/brp.md`.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rulesets::settings::{OutOfRange, RulesetSettings, in_range};

/// Where a special success starts (§5.5: "If the roll is less than 1/5 of
/// the attack chance, a special success is achieved").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum SpecialBoundary {
    /// The text's words: a roll below a fifth of the chance (60%: 01–11).
    #[default]
    BelowFifth,
    /// A roll at or under a fifth of the chance, the fifth rounded up, as
    /// many tables play it (60%: 01–12; 62%: 01–13).
    FifthOrLess,
}

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrpSettings {
    /// §5.2: the statement of intent, in DEX order, before anyone moves.
    /// Off: "forgo the verbal part of the statement of intent phase and
    /// move directly into counting down DEX".
    pub statement_of_intent: bool,
    /// §5.5: "a related specialty skill may be used as if Difficult (1/2
    /// chance)".
    pub related_specialty: bool,
    /// §5.7: "the gamemaster may allow the character to dodge arrows and
    /// thrown weapons as if the task were Difficult (half the normal skill
    /// level)".
    pub dodge_thrown_and_arrows: bool,
    /// §5.5: where a special success starts.
    #[serde(default)]
    pub special: SpecialBoundary,
    /// §5.12: "If a character is reduced to 2 hit points, they fall
    /// unconscious": at or below this many.
    pub unconscious_at_hp: i32,
    /// Parries and dodges a character may make in a round, together (0: no
    /// limit, as the text sets none; many tables allow one).
    #[serde(default)]
    pub defences_per_round: u8,
}

impl Default for BrpSettings {
    fn default() -> Self {
        BrpSettings {
            statement_of_intent: true,
            related_specialty: true,
            dodge_thrown_and_arrows: false,
            special: SpecialBoundary::BelowFifth,
            unconscious_at_hp: 2,
            defences_per_round: 0,
        }
    }
}

impl RulesetSettings for BrpSettings {
    const RULESET: &'static str = "brp";

    /// Fray's range: unconscious before 0 hit points, where death waits for
    /// the end of the round (§5.12), and no higher than a character could
    /// fall.
    fn check_ranges(&self) -> Result<(), OutOfRange> {
        in_range("unconscious_at_hp", self.unconscious_at_hp, 0..=20, "HP")?;
        in_range(
            "defences_per_round",
            self.defences_per_round,
            0..=10,
            "a count (0: no limit)",
        )
    }
}
