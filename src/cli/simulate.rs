//! `fray simulate`: many all-AI battles of a level, its win rates with
//! 95% intervals, mean rounds and casualties.

use std::path::{Path, PathBuf};

use super::args::{Batch, level_control, load, parse_settings, pick_ruleset};
use super::output::print_report;
use crate::rules::engine::assets_dir;
use crate::sim::SimConfig;

/// `fray simulate`'s arguments.
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The level file (levels/*.ron).
    level: PathBuf,
    /// Ruleset id (default: the level's default ruleset).
    #[arg(long)]
    ruleset: Option<String>,
    /// How many battles.
    #[arg(long, default_value_t = 1000)]
    battles: u64,
    #[command(flatten)]
    batch: Batch,
    /// Who plays each faction, in the level's order: `ai` or `normal`
    /// (the tactical AI, the default), `easy` (the AI with a worse eye:
    /// one choice in two of where to move, whom to attack, who acts or
    /// how to meet an attack goes elsewhere at random), `hard` (the AI
    /// looking ahead: it plays its choice and a few others on from
    /// forks of the battle and keeps the best) or `random` (random
    /// legal commands, a baseline).
    #[arg(long, value_delimiter = ',', value_name = "ai|easy|hard|random,...")]
    control: Vec<String>,
}

/// Run `fray simulate` as asked.
pub(super) fn run(a: &SimulateArgs) -> Result<(), String> {
    simulate(
        &a.level,
        a.ruleset.as_deref(),
        a.battles,
        &a.batch,
        &a.control,
    )
}

/// Simulate `battles` battles of the level at `level_path` and print the
/// report.
pub(super) fn simulate(
    level_path: &Path,
    ruleset: Option<&str>,
    battles: u64,
    batch: &Batch,
    control: &[String],
) -> Result<(), String> {
    if battles == 0 {
        return Err("--battles expects at least 1 battle, not 0".into());
    }
    let threads = batch.workers.threads()?;
    let level = load(level_path)?;
    let control = level_control(&level, control)?;
    let ruleset = pick_ruleset(&level, ruleset)?;
    let cfg = SimConfig {
        level,
        ruleset,
        battles,
        seed: batch.seed,
        threads,
        settings: parse_settings(&batch.workers.settings)?,
        assets: assets_dir(),
        progress: !batch.workers.json && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        control,
    };
    let report = crate::sim::simulate(&cfg)?;
    print_report(&report, batch.workers.json, |r| r.text())
}
