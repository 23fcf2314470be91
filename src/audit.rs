//! `fray audit`: what the AI does, counted over many seeded all-AI battles.
//! The battles are the ones `fray simulate` plays (battle `i` seeded with
//! [`battle_seed`]); after each step the ruleset counts, from the events
//! that step made, the plays its audit figures name (attacks from behind,
//! free attacks drawn and then wasted, aims, shots from cover, passes...),
//! and the core counts how battles ended. The figures make the AI's
//! mistakes measurable before and after a change.

use std::path::PathBuf;

use serde::Serialize;

use crate::rules::battle::RulesetId;
use crate::rules::engine::{Controls, StartOptions, Stop};
use crate::rules::hooks::RulesetRegistry;
use crate::rules::level::Level;
use crate::sim::{End, MAX_STEPS, battle_seed, result_of};

/// What to audit.
pub struct AuditConfig {
    /// The levels, with the file each came from.
    pub levels: Vec<(PathBuf, Level)>,
    /// Only this ruleset (default: every ruleset each level can be played
    /// under).
    pub ruleset: Option<RulesetId>,
    pub battles: u64,
    pub seed: u64,
    pub threads: usize,
    /// Ruleset settings to change, `key=value` (with one ruleset only).
    pub settings: Vec<(String, String)>,
    pub assets: PathBuf,
}

/// One figure's total over a level's battles.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Figure {
    pub name: &'static str,
    pub counts: &'static str,
    /// The figure this one is a part of.
    pub of: Option<&'static str>,
    pub total: u64,
}

/// The audit of one level under one ruleset.
#[derive(Clone, Debug, Serialize)]
pub struct AuditRow {
    pub level: String,
    pub level_file: String,
    pub ruleset: &'static str,
    pub battles: u64,
    /// Battles that ran to the level's round limit with nobody winning.
    pub round_limit: u64,
    /// Battles that did not end within the step limit.
    pub step_limit: u64,
    /// The seeds of the first few battles nobody won in time, to look at
    /// with `fray log --seed`.
    pub stalemate_seeds: Vec<u64>,
    pub rounds: u64,
    /// The ruleset's figures, in its order.
    pub figures: Vec<Figure>,
}

impl AuditRow {
    pub fn figure(&self, name: &str) -> Option<u64> {
        self.figures
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.total)
    }
}

/// Every level × ruleset audited.
#[derive(Clone, Debug, Serialize)]
pub struct AuditReport {
    pub battles: u64,
    pub seed: u64,
    pub rows: Vec<AuditRow>,
}

/// Audit every level under its rulesets (or the one asked).
pub fn audit(cfg: &AuditConfig) -> Result<AuditReport, String> {
    let probe = crate::rulesets::engine_with_assets(&cfg.assets).map_err(|e| e.to_string())?;
    let mut jobs: Vec<(usize, RulesetId)> = Vec::new();
    let mut refused: Option<String> = None;
    for (i, (path, level)) in cfg.levels.iter().enumerate() {
        match cfg.ruleset {
            // Levels made for other rulesets are left out; if none is
            // left, the first level says why.
            Some(r) => match crate::rules::engine::validate(probe.world(), level, r) {
                Ok(()) => jobs.push((i, r)),
                Err(e) => {
                    refused.get_or_insert(format!("{}: {e}", path.display()));
                }
            },
            None => {
                for r in crate::rules::engine::supported_rulesets(probe.world(), level) {
                    jobs.push((i, r));
                }
            }
        }
    }
    if jobs.is_empty() {
        return Err(refused.unwrap_or_else(|| "no level to audit".into()));
    }
    if !cfg.settings.is_empty() && cfg.ruleset.is_none() {
        return Err("--set needs --ruleset: settings belong to one ruleset".into());
    }
    let mut rows = Vec::new();
    for (li, ruleset) in jobs {
        let (path, level) = &cfg.levels[li];
        rows.push(audit_level(cfg, path, level, ruleset)?);
    }
    Ok(AuditReport {
        battles: cfg.battles,
        seed: cfg.seed,
        rows,
    })
}

/// What one worker counted.
#[derive(Default)]
struct Counted {
    round_limit: u64,
    step_limit: u64,
    stalemates: Vec<(u64, u64)>,
    rounds: u64,
    figures: Vec<u64>,
}

fn audit_level(
    cfg: &AuditConfig,
    path: &std::path::Path,
    level: &Level,
    ruleset: RulesetId,
) -> Result<AuditRow, String> {
    let threads = cfg.threads.clamp(1, cfg.battles.max(1) as usize) as u64;
    let parts: Vec<Result<Counted, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || audit_share(cfg, level, ruleset, t, threads)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("an audit thread panicked".into()))
            })
            .collect()
    });
    let probe = crate::rulesets::engine_with_assets(&cfg.assets).map_err(|e| e.to_string())?;
    let hooks = probe
        .world()
        .resource::<RulesetRegistry>()
        .get(ruleset)
        .ok_or_else(|| format!("the {ruleset} ruleset is not implemented yet"))?;
    let mut row = AuditRow {
        level: level.name.clone(),
        level_file: path.display().to_string(),
        ruleset: ruleset.id(),
        battles: cfg.battles,
        round_limit: 0,
        step_limit: 0,
        stalemate_seeds: Vec::new(),
        rounds: 0,
        figures: hooks
            .audit_figures
            .iter()
            .map(|f| Figure {
                name: f.name,
                counts: f.counts,
                of: f.of,
                total: 0,
            })
            .collect(),
    };
    let mut stalemates = Vec::new();
    for part in parts {
        let part = part?;
        stalemates.extend(part.stalemates);
        row.round_limit += part.round_limit;
        row.step_limit += part.step_limit;
        row.rounds += part.rounds;
        for (f, n) in row.figures.iter_mut().zip(part.figures) {
            f.total += n;
        }
    }
    stalemates.sort_unstable();
    row.stalemate_seeds = stalemates
        .into_iter()
        .take(STALEMATE_SEEDS)
        .map(|(_, s)| s)
        .collect();
    Ok(row)
}

/// How many stalemate seeds a row keeps.
const STALEMATE_SEEDS: usize = 5;

/// Battles `t`, `t + threads`, ... of the level, on an engine of its own.
fn audit_share(
    cfg: &AuditConfig,
    level: &Level,
    ruleset: RulesetId,
    t: u64,
    threads: u64,
) -> Result<Counted, String> {
    let mut engine = crate::rulesets::engine_with_assets(&cfg.assets).map_err(|e| e.to_string())?;
    for (k, v) in &cfg.settings {
        engine.configure(ruleset, k, v)?;
    }
    let hooks = engine
        .world()
        .resource::<RulesetRegistry>()
        .get(ruleset)
        .ok_or_else(|| format!("the {ruleset} ruleset is not implemented yet"))?;
    let mut counted = Counted {
        figures: vec![0; hooks.audit_figures.len()],
        ..Counted::default()
    };
    let mut i = t;
    while i < cfg.battles {
        engine.start(
            level,
            ruleset,
            &StartOptions {
                seed: battle_seed(cfg.seed, i),
                script: Vec::new(),
                control: Controls::AllAi,
            },
        )?;
        let mut stop = Stop::StepLimit;
        for _ in 0..MAX_STEPS {
            let first = engine.events().len();
            stop = engine.run(1);
            (hooks.audit)(engine.world(), first, &mut counted.figures);
            if stop != Stop::StepLimit {
                break;
            }
        }
        let result = result_of(&mut engine, stop);
        counted.rounds += u64::from(result.rounds);
        match result.end {
            End::RoundLimit => counted.round_limit += 1,
            End::StepLimit => counted.step_limit += 1,
            End::Won | End::Draw => {}
        }
        if matches!(result.end, End::RoundLimit | End::StepLimit) {
            counted.stalemates.push((i, battle_seed(cfg.seed, i)));
        }
        i += threads;
    }
    Ok(counted)
}

impl AuditReport {
    /// The report as tables, one per ruleset: a row per level and a total.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{} seeded all-AI battles per level (seed {}), as `fray simulate` plays them\n",
            self.battles, self.seed
        );
        let mut rulesets: Vec<&'static str> = self.rows.iter().map(|r| r.ruleset).collect();
        rulesets.dedup();
        rulesets.sort_unstable();
        rulesets.dedup();
        for rs in rulesets {
            let rows: Vec<&AuditRow> = self.rows.iter().filter(|r| r.ruleset == rs).collect();
            let Some(first) = rows.first() else { continue };
            out.push_str(&format!("\n{rs}\n"));
            let mut head = vec![
                "level".to_string(),
                "battles".into(),
                "round limit".into(),
                "mean rounds".into(),
            ];
            head.extend(first.figures.iter().map(|f| f.name.to_string()));
            out.push_str(&format!("| {} |\n", head.join(" | ")));
            out.push_str(&format!("|{}\n", "---|".repeat(head.len())));
            let mut total = AuditRow {
                level: "all".into(),
                level_file: String::new(),
                ruleset: rs,
                battles: 0,
                round_limit: 0,
                step_limit: 0,
                stalemate_seeds: Vec::new(),
                rounds: 0,
                figures: first
                    .figures
                    .iter()
                    .map(|f| Figure {
                        total: 0,
                        ..f.clone()
                    })
                    .collect(),
            };
            for r in &rows {
                out.push_str(&row_line(r));
                total.battles += r.battles;
                total.round_limit += r.round_limit;
                total.step_limit += r.step_limit;
                total.rounds += r.rounds;
                for (t, f) in total.figures.iter_mut().zip(&r.figures) {
                    t.total += f.total;
                }
            }
            if rows.len() > 1 {
                out.push_str(&row_line(&total));
            }
            out.push('\n');
            for f in &first.figures {
                out.push_str(&format!("- {}: {}\n", f.name, f.counts));
            }
            for r in rows.iter().filter(|r| !r.stalemate_seeds.is_empty()) {
                let seeds: Vec<String> = r.stalemate_seeds.iter().map(u64::to_string).collect();
                out.push_str(&format!(
                    "- {} ran out of time in battles seeded {} (see `fray log {} --ruleset {rs} --seed S`)\n",
                    r.level,
                    seeds.join(", "),
                    r.level_file
                ));
            }
        }
        out
    }
}

fn row_line(r: &AuditRow) -> String {
    let mut cells = vec![
        r.level.clone(),
        r.battles.to_string(),
        if r.step_limit > 0 {
            format!("{} (+{} step limit)", r.round_limit, r.step_limit)
        } else {
            r.round_limit.to_string()
        },
        format!("{:.1}", r.rounds as f64 / r.battles.max(1) as f64),
    ];
    for f in &r.figures {
        let whole = f.of.and_then(|of| r.figure(of));
        cells.push(match whole {
            Some(w) if w > 0 => format!("{} ({:.0} %)", f.total, 100.0 * f.total as f64 / w as f64),
            _ => f.total.to_string(),
        });
    }
    format!("| {} |\n", cells.join(" | "))
}
