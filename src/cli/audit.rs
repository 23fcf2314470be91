//! `fray audit`: what the AI does, counted over many seeded all-AI
//! battles of every level under every ruleset it supports.

use std::path::PathBuf;

use super::args::{Batch, levels_or_shipped, load, parse_settings};
use super::output::print_report;
use crate::rules::engine::assets_dir;

/// `fray audit`'s arguments.
#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Level files (default: every level in levels/).
    levels: Vec<PathBuf>,
    /// Only this ruleset.
    #[arg(long)]
    ruleset: Option<String>,
    /// Battles per level and ruleset.
    #[arg(long, default_value_t = 200)]
    battles: u64,
    #[command(flatten)]
    batch: Batch,
}

/// Count what the AI does and print the report.
pub(super) fn run(a: &AuditArgs) -> Result<(), String> {
    if a.battles == 0 {
        return Err("--battles expects at least 1 battle, not 0".into());
    }
    let threads = a.batch.workers.threads()?;
    let paths = levels_or_shipped(&a.levels);
    let levels = paths
        .into_iter()
        .map(|p| load(&p).map(|l| (p, l)))
        .collect::<Result<Vec<_>, String>>()?;
    let ruleset = match a.ruleset.as_deref() {
        Some(id) => Some(crate::rulesets::parse(id).ok_or_else(|| {
            format!(
                "unknown ruleset `{id}`; expected one of {}",
                crate::rulesets::KNOWN.map(|r| r.id()).join(", ")
            )
        })?),
        None => None,
    };
    let report = crate::audit::audit(&crate::audit::AuditConfig {
        levels,
        ruleset,
        battles: a.battles,
        seed: a.batch.seed,
        threads,
        settings: parse_settings(&a.batch.workers.settings)?,
        assets: assets_dir(),
    })?;
    print_report(&report, a.batch.workers.json, |r| r.text())
}
