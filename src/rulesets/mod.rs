//! The rulesets Fray plays, one plugin per folder, all shaped alike.

pub mod data;
pub mod settings;
pub mod skeleton;
pub mod ud10;
pub mod zones;

use bevy::prelude::*;

use crate::rules::battle::RulesetId;

/// Every ruleset Fray knows, in the order the setup screen shows them. The
/// implemented ones also add their plugin in [`plugin`]; the others are
/// named so that a level or a command asking for one is told it is coming.
pub const KNOWN: [RulesetId; 5] = [
    ud10::ID,
    RulesetId("brp"),
    RulesetId("osr"),
    zones::ID,
    RulesetId("spelljammer"),
];

/// The known ruleset called `s`.
pub fn parse(s: &str) -> Option<RulesetId> {
    KNOWN.into_iter().find(|r| r.id() == s)
}

/// Add every implemented ruleset.
pub fn plugin(app: &mut App) {
    ud10::plugin(app);
    zones::plugin(app);
}
