//! `fray bench`: battles per second for every level × ruleset, on one
//! thread and on all cores, maybe beside another build.

use std::path::PathBuf;

use super::args::{cores, levels_or_shipped};

/// `fray bench`'s arguments.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Another build's `fray` to compare with (A = this one, B = that).
    #[arg(long, value_name = "FRAY")]
    vs: Option<PathBuf>,
    /// Battles per run.
    #[arg(long, default_value_t = 1000)]
    battles: u64,
    /// Runs per figure; the median is kept.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Only these levels (default: every level in levels/).
    #[arg(long = "level", value_name = "LEVEL")]
    levels: Vec<PathBuf>,
    /// Playouts for the fork figure (taken when `mirror_duel` is among
    /// the levels).
    #[arg(long, default_value_t = 1000)]
    playouts: u64,
    /// The figures as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Time the battles and print the figures.
pub(super) fn run(a: &BenchArgs) -> Result<(), String> {
    if a.battles == 0 || a.runs == 0 || a.playouts == 0 {
        return Err("--battles, --runs and --playouts expect at least 1".into());
    }
    let this = std::env::current_exe().map_err(|e| format!("cannot find this fray: {e}"))?;
    let levels = levels_or_shipped(&a.levels);
    let cores = cores();
    let threads = if cores > 1 { vec![1, cores] } else { vec![1] };
    let cfg = crate::bench::BenchConfig {
        a: this,
        b: a.vs.clone(),
        levels,
        battles: a.battles,
        runs: a.runs,
        threads,
    };
    let rows = crate::bench::bench(&cfg, |r| {
        if !a.json {
            eprintln!(
                "  {} under {} on {} thread{}: {:.0} battles/s{}",
                r.level,
                r.ruleset,
                r.threads,
                if r.threads == 1 { "" } else { "s" },
                r.a,
                r.ratio.map_or(String::new(), |q| format!(" (A/B {q:.3})"))
            );
        }
    })?;
    // Forks: playouts of the 4 v 4 duel from its third round.
    let duel = cfg
        .levels
        .iter()
        .find(|p| p.file_name().is_some_and(|n| n == "mirror_duel.ron"))
        .cloned();
    let forks = match &duel {
        None => Vec::new(),
        Some(duel) => crate::bench::bench_forks(&cfg, duel, a.playouts, |r| {
            if !a.json {
                eprintln!(
                    "  {} playouts of {} under {} from round 3 on {} threads: {:.1} ms{}",
                    r.playouts,
                    r.level,
                    r.ruleset,
                    r.threads,
                    r.a_ms,
                    r.ratio.map_or(String::new(), |q| format!(" (B/A {q:.3})"))
                );
            }
        })?,
    };
    if a.json {
        let all = serde_json::json!({ "battles": rows, "forks": forks });
        say!(
            "{}",
            serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?
        );
    } else {
        say_raw!("{}", crate::bench::table(&rows));
        if !forks.is_empty() {
            say_raw!("\n{}", crate::bench::fork_table(&forks));
        }
    }
    Ok(())
}
