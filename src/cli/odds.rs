//! `fray odds`: each side's odds from the middle of a battle, played out
//! many times from the start of a round.

use std::path::PathBuf;

use super::args::{Workers, load, parse_settings, pick_ruleset};
use super::output::print_report;
use crate::rules::engine::assets_dir;

/// `fray odds`' arguments.
#[derive(clap::Args, Debug)]
pub struct OddsArgs {
    /// The level file (levels/*.ron).
    level: PathBuf,
    /// Ruleset id (default: the level's default ruleset).
    #[arg(long)]
    ruleset: Option<String>,
    /// The battle's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Take the odds at the start of this round (1: before anyone acts).
    #[arg(long, default_value_t = 1)]
    round: u32,
    /// How many playouts.
    #[arg(long, default_value_t = 1000)]
    playouts: u64,
    /// Seed of the playouts' dice; playout i uses a seed derived from it.
    #[arg(long, default_value_t = 1)]
    playout_seed: u64,
    #[command(flatten)]
    workers: Workers,
}

/// Play the battle to the round asked, play it out from there and print
/// the odds.
pub(super) fn run(a: &OddsArgs) -> Result<(), String> {
    if a.playouts == 0 {
        return Err("--playouts expects at least 1 playout, not 0".into());
    }
    let threads = a.workers.threads()?;
    if a.round == 0 {
        return Err("--round expects a round from 1, not 0".into());
    }
    let level = load(&a.level)?;
    let ruleset = pick_ruleset(&level, a.ruleset.as_deref())?;
    let mut engine = crate::rulesets::engine().map_err(|e| e.to_string())?;
    for (k, v) in parse_settings(&a.workers.settings)? {
        engine.configure(ruleset, &k, &v)?;
    }
    let at = crate::playouts::battle_at_round(&mut engine, &level, ruleset, a.seed, a.round)?;
    let started = std::time::Instant::now();
    let pool = crate::playouts::Playouts::new(&assets_dir(), threads)?;
    let pool_seconds = started.elapsed().as_secs_f64();
    let odds = pool.run(
        &std::sync::Arc::new(engine.snapshot()),
        a.playouts,
        a.playout_seed,
    )?;
    let report = crate::playouts::OddsReport {
        level: level.name.clone(),
        level_file: level.source.display().to_string(),
        ruleset: ruleset.id().to_string(),
        seed: a.seed,
        round: a.round,
        standing: at.standing,
        factions: level.factions.iter().map(|f| f.name.clone()).collect(),
        pool_seconds,
        odds,
    };
    print_report(&report, a.workers.json, |r| r.text())
}
