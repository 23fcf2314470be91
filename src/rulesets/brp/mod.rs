//! brp (`../shared/rules/brp.txt`, §5.1–5.14): rounds in four phases in DEX
//! order, D100 roll-under with special successes, the parry and dodge
//! matrix, weapons and shields that break, First Aid against the end of the
//! round. Fray's decisions where the text leaves a call to the gamemaster
//! are in `docs/rulesets/brp.md`.
//!
//! In progress (issue #16): the tables, the percentile rules and the
//! matrix are here and tested; the ruleset is not yet offered (the round,
//! the actions, the AI and the game come next), so `rulesets::KNOWN` still
//! names it as coming.

pub mod chance;
pub mod data;
pub mod matrix;
pub mod numbers;
pub mod settings;

use crate::rules::battle::RulesetId;

/// The id levels and the command line use.
pub const ID: RulesetId = RulesetId("brp");

#[cfg(test)]
mod tests;
