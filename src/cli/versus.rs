//! `fray versus`: this build's tactical AI against another build's, in
//! lockstep over mirrored battles.

use std::path::PathBuf;

use super::args::{Batch, load, parse_settings, pick_ruleset};
use super::output::print_report;
use crate::rules::engine::assets_dir;

/// `fray versus`' arguments.
#[derive(clap::Args, Debug)]
pub struct VersusArgs {
    /// The level file (levels/*.ron).
    level: PathBuf,
    /// The other build's `fray`.
    #[arg(long, value_name = "FRAY")]
    vs: PathBuf,
    /// Ruleset id (default: the level's default ruleset).
    #[arg(long)]
    ruleset: Option<String>,
    /// How many seeds (battles: this times the level's factions; each
    /// worker thread runs its own other build).
    #[arg(long, default_value_t = 1000)]
    seeds: u64,
    #[command(flatten)]
    batch: Batch,
}

/// Play the two builds against each other and print the report.
pub(super) fn run(a: &VersusArgs) -> Result<(), String> {
    if a.seeds == 0 {
        return Err("--seeds expects at least 1 seed, not 0".into());
    }
    let threads = a.batch.workers.threads()?;
    let level = load(&a.level)?;
    let ruleset = pick_ruleset(&level, a.ruleset.as_deref())?;
    // The other build runs in this folder too; its level is this one's file.
    let level_file = a
        .level
        .canonicalize()
        .map_err(|e| format!("{}: {e}", a.level.display()))?;
    let cfg = crate::versus::VersusConfig {
        level,
        level_file,
        ruleset,
        seeds: a.seeds,
        seed: a.batch.seed,
        threads,
        settings: parse_settings(&a.batch.workers.settings)?,
        assets: assets_dir(),
        other: a.vs.clone(),
    };
    let report = crate::versus::versus(&cfg)?;
    print_report(&report, a.batch.workers.json, |r| r.text())
}
