//! The rulesets Fray plays, one plugin per folder, all shaped alike.

pub mod data;
pub mod settings;
pub mod skeleton;
pub mod ud10;
pub mod zones;

use bevy::prelude::*;

/// Add every implemented ruleset.
pub fn plugin(app: &mut App) {
    ud10::plugin(app);
    zones::plugin(app);
}
