//! `fray bench`: battles per second for every shipped level under every
//! ruleset that plays it, on one thread and on all cores; with `--vs`, a
//! second build side by side in the same run (A B A B ...), because this
//! machine's figures move by a third between runs. Each figure is the
//! median of its runs; each run is a whole `fray simulate` process, its own
//! time taken from its report (the simulation, not the start-up).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

use crate::data::level::load_levels;
use crate::rules::engine::supported_rulesets;

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// This build's `fray`.
    pub a: PathBuf,
    /// The other build's, to compare with.
    pub b: Option<PathBuf>,
    /// The levels (files).
    pub levels: Vec<PathBuf>,
    /// Battles per run.
    pub battles: u64,
    /// Runs per figure (the median is kept).
    pub runs: usize,
    /// Thread counts to measure (1 and every core).
    pub threads: Vec<usize>,
}

/// One figure: a level under a ruleset on some threads.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub level: String,
    pub ruleset: String,
    pub threads: usize,
    /// Median battles per second of this build.
    pub a: f64,
    /// Median battles per second of the other build, if any.
    pub b: Option<f64>,
    /// Median of the run-by-run ratios A/B (pairs taken in turn).
    pub ratio: Option<f64>,
}

/// Battles per second of one `simulate` run of `exe`.
fn run(
    exe: &Path,
    level: &Path,
    ruleset: &str,
    battles: u64,
    threads: usize,
) -> Result<f64, String> {
    let out = Command::new(exe)
        .arg("simulate")
        .arg(level)
        .args(["--ruleset", ruleset, "--json", "--seed", "1"])
        .args(["--battles", &battles.to_string()])
        .args(["--threads", &threads.to_string()])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} simulate {} --ruleset {ruleset}: {}",
            exe.display(),
            level.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{}: not a simulate report: {e}", exe.display()))?;
    report["battles_per_second"]
        .as_f64()
        .ok_or_else(|| format!("{}: the report has no battles_per_second", exe.display()))
}

/// One fork figure: playouts of a 4 v 4 battle from its third round.
#[derive(Clone, Debug, Serialize)]
pub struct ForkRow {
    pub level: String,
    pub ruleset: String,
    pub threads: usize,
    pub playouts: u64,
    /// Median milliseconds for all the playouts, this build.
    pub a_ms: f64,
    /// The other build's, if it has `fray odds`.
    pub b_ms: Option<f64>,
    /// Median of the run-by-run ratios B/A of the times (above 1: A is
    /// faster), as for battles/s.
    pub ratio: Option<f64>,
}

/// The battle `fork` figures are taken from, and the round.
pub const FORK_SEED: u64 = 1;
pub const FORK_ROUND: u32 = 3;

/// Milliseconds of one `odds` run of `exe`: `playouts` playouts of the
/// level's battle from the start of round 3, on `threads` threads (the
/// playouts alone, the engines made before). `None` when the build has no
/// `fray odds`.
fn run_fork(
    exe: &Path,
    level: &Path,
    ruleset: &str,
    playouts: u64,
    threads: usize,
) -> Result<Option<f64>, String> {
    let out = Command::new(exe)
        .arg("odds")
        .arg(level)
        .args(["--ruleset", ruleset, "--json"])
        .args(["--seed", &FORK_SEED.to_string()])
        .args(["--round", &FORK_ROUND.to_string()])
        .args(["--playouts", &playouts.to_string()])
        .args(["--threads", &threads.to_string()])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        if stderr.contains("unrecognized subcommand") {
            return Ok(None);
        }
        return Err(format!(
            "{} odds {} --ruleset {ruleset}: {}",
            exe.display(),
            level.display(),
            stderr.trim()
        ));
    }
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{}: not an odds report: {e}", exe.display()))?;
    report["odds"]["seconds"]
        .as_f64()
        .map(|s| Some(1000.0 * s))
        .ok_or_else(|| format!("{}: the report has no odds.seconds", exe.display()))
}

/// The fork figure under every ruleset that plays `level`, on every core.
pub fn bench_forks(
    cfg: &BenchConfig,
    level_path: &Path,
    playouts: u64,
    mut progress: impl FnMut(&ForkRow),
) -> Result<Vec<ForkRow>, String> {
    let engine = crate::rulesets::engine().map_err(|e| e.to_string())?;
    let level = crate::data::level::load_level(level_path).map_err(|e| e.to_string())?;
    let threads = cfg.threads.iter().copied().max().unwrap_or(1);
    let mut rows = Vec::new();
    for ruleset in supported_rulesets(engine.world(), &level) {
        let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut b_has = cfg.b.is_some();
        for _ in 0..cfg.runs.max(1) {
            let x = run_fork(&cfg.a, level_path, ruleset.id(), playouts, threads)?
                .ok_or("this fray has no `odds` command")?;
            a.push(x);
            if let (Some(other), true) = (&cfg.b, b_has) {
                match run_fork(other, level_path, ruleset.id(), playouts, threads)? {
                    Some(y) => {
                        b.push(y);
                        if x > 0.0 {
                            ratios.push(y / x);
                        }
                    }
                    None => b_has = false,
                }
            }
        }
        let row = ForkRow {
            level: level.name.clone(),
            ruleset: ruleset.id().to_string(),
            threads,
            playouts,
            a_ms: median(a),
            b_ms: b_has.then(|| median(b)),
            ratio: b_has.then(|| median(ratios)),
        };
        progress(&row);
        rows.push(row);
    }
    Ok(rows)
}

/// The fork figures as a Markdown table.
pub fn fork_table(rows: &[ForkRow]) -> String {
    let with_b = rows.iter().any(|r| r.b_ms.is_some());
    let mut s = String::from(if with_b {
        "| playouts from round 3 | ruleset | threads | A ms | B ms | B/A |\n|---|---|---|---|---|---|\n"
    } else {
        "| playouts from round 3 | ruleset | threads | ms |\n|---|---|---|---|\n"
    });
    for r in rows {
        s.push_str(&format!(
            "| {} × {} | {} | {} | {:.1} |",
            r.playouts, r.level, r.ruleset, r.threads, r.a_ms
        ));
        if let (Some(b), Some(q)) = (r.b_ms, r.ratio) {
            s.push_str(&format!(" {b:.1} | {q:.3} |"));
        }
        s.push('\n');
    }
    s
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Every level file of `dir`, in name order.
pub fn shipped_levels(dir: &Path) -> Vec<PathBuf> {
    load_levels(dir).into_iter().map(|(p, _)| p).collect()
}

/// Measure every level × ruleset × thread count; `progress` hears of each
/// figure as it is taken.
pub fn bench(cfg: &BenchConfig, mut progress: impl FnMut(&Row)) -> Result<Vec<Row>, String> {
    let engine = crate::rulesets::engine().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for path in &cfg.levels {
        let level = crate::data::level::load_level(path).map_err(|e| e.to_string())?;
        for ruleset in supported_rulesets(engine.world(), &level) {
            for &threads in &cfg.threads {
                let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
                for _ in 0..cfg.runs.max(1) {
                    let x = run(&cfg.a, path, ruleset.id(), cfg.battles, threads)?;
                    a.push(x);
                    if let Some(other) = &cfg.b {
                        let y = run(other, path, ruleset.id(), cfg.battles, threads)?;
                        b.push(y);
                        if y > 0.0 {
                            ratios.push(x / y);
                        }
                    }
                }
                let row = Row {
                    level: level.name.clone(),
                    ruleset: ruleset.id().to_string(),
                    threads,
                    a: median(a),
                    b: cfg.b.as_ref().map(|_| median(b)),
                    ratio: cfg.b.as_ref().map(|_| median(ratios)),
                };
                progress(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// The figures as a Markdown table (the README's speed table).
pub fn table(rows: &[Row]) -> String {
    let with_b = rows.iter().any(|r| r.b.is_some());
    let mut s = String::from(if with_b {
        "| level | ruleset | threads | A battles/s | B battles/s | A/B |\n|---|---|---|---|---|---|\n"
    } else {
        "| level | ruleset | threads | battles/s |\n|---|---|---|---|\n"
    });
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {:.0} |",
            r.level, r.ruleset, r.threads, r.a
        ));
        if let (Some(b), Some(q)) = (r.b, r.ratio) {
            s.push_str(&format!(" {b:.0} | {q:.3} |"));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_the_runs_is_kept() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(Vec::new()), 0.0);
    }

    #[test]
    fn the_table_has_a_column_for_the_other_build_when_there_is_one() {
        let row = Row {
            level: "Mirror Duel".into(),
            ruleset: "ud10".into(),
            threads: 1,
            a: 1000.4,
            b: Some(500.0),
            ratio: Some(2.0),
        };
        assert_eq!(
            table(std::slice::from_ref(&row)),
            "| level | ruleset | threads | A battles/s | B battles/s | A/B |\n|---|---|---|---|---|---|\n\
             | Mirror Duel | ud10 | 1 | 1000 | 500 | 2.000 |\n"
        );
        let alone = Row {
            b: None,
            ratio: None,
            ..row
        };
        assert_eq!(
            table(&[alone]),
            "| level | ruleset | threads | battles/s |\n|---|---|---|---|\n| Mirror Duel | ud10 | 1 | 1000 |\n"
        );
    }
}
