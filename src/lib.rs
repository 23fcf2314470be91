//! Fray: tabletop RPG combat rules played out on a tile map.
//!
//! - [`rules`]: the battle as headless Bevy ECS (commands in, events out).
//! - [`rulesets`]: one plugin per ruleset.
//! - [`data`]: RON levels and data files.
//! - [`sim`]: batch simulation ("what are my party's odds?").
//! - [`audit`]: `fray audit`, the AI's play counted over many battles.
//! - [`bench`]: `fray bench`, battles per second side by side.
//! - [`versus`]: `fray versus`, two builds' AIs against each other.
//! - [`cli`]: the `fray` command line.
//! - [`alloc`]: the `fray` binary's allocator.

pub mod alloc;
pub mod audit;
pub mod bench;
pub mod cli;
pub mod data;
#[cfg(test)]
mod fuzz;
#[cfg(feature = "gui")]
pub mod game;
#[cfg(test)]
mod golden;
pub mod playouts;
pub mod rules;
pub mod rulesets;
pub mod sim;
#[cfg(test)]
mod sources;
#[cfg(test)]
pub mod testkit;
pub mod versus;
