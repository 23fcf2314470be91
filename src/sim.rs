//! Batch simulation: many seeded all-AI battles of one level, spread over
//! the cores, each thread reusing one engine (one World) for all its battles.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use serde::Serialize;

use crate::rules::battle::RulesetId;
use crate::rules::engine::{Controls, Engine, StartOptions, Stop};
use crate::rules::event::EndReason;
use crate::rules::level::Level;
use crate::rules::roster::{Factions, Roster};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    pub level: Level,
    pub ruleset: RulesetId,
    pub battles: u64,
    pub seed: u64,
    pub threads: usize,
    /// Ruleset settings to change, `key=value`.
    pub settings: Vec<(String, String)>,
    pub assets: PathBuf,
    pub progress: bool,
    pub control: Controls,
}

/// One battle's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleResult {
    pub winner: Option<u8>,
    pub rounds: u32,
    /// Combatants out of the fight at the end, per faction.
    pub casualties: Vec<u32>,
    pub end: End,
}

/// How a battle ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// A faction won.
    Won,
    /// Nobody left standing on any side: a real draw.
    Draw,
    /// The level's `max_rounds` passed with nobody winning: a stalemate.
    RoundLimit,
    /// The battle did not end within [`MAX_STEPS`] steps: a stalemate too,
    /// and a sign that some AI could not finish its turns.
    StepLimit,
}

/// A faction's share of the results.
#[derive(Clone, Debug, Serialize)]
pub struct FactionStats {
    pub id: String,
    pub name: String,
    pub wins: u64,
    pub win_rate: f64,
    /// 95% Wilson score interval of the win rate.
    pub win_rate_low: f64,
    pub win_rate_high: f64,
    pub mean_casualties: f64,
    pub combatants: u32,
}

/// The summary of a batch.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    pub level: String,
    /// The level's file.
    pub level_file: String,
    pub ruleset: String,
    pub battles: u64,
    pub seed: u64,
    pub factions: Vec<FactionStats>,
    /// Battles nobody won because nobody was left standing.
    pub draws: u64,
    /// Battles nobody won in time: ended by the level's round limit or the
    /// step limit, counted apart from real draws.
    pub stalemates: u64,
    pub round_limit: u64,
    pub step_limit: u64,
    /// The seed of the first stalemate, to look at with `fray log`.
    pub stalemate_seed: Option<u64>,
    pub mean_rounds: f64,
    pub threads: usize,
    pub seconds: f64,
    pub battles_per_second: f64,
}

/// The seed of battle `i` of a batch seeded with `seed` (SplitMix64).
pub fn battle_seed(seed: u64, i: u64) -> u64 {
    crate::rules::dice::stream_seed(seed, i)
}

/// `k` of `n` as a percentage (0 when `n` is 0).
pub fn percent(k: u64, n: u64) -> f64 {
    if n > 0 {
        100.0 * k as f64 / n as f64
    } else {
        0.0
    }
}

/// One side's wins over a set of battles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinRate {
    pub wins: u64,
    pub rate: f64,
    /// 95% Wilson score interval of the rate.
    pub low: f64,
    pub high: f64,
}

/// How often `faction` won among `results` (a batch, or the playouts of
/// one battle).
pub fn win_rate<'a>(results: impl IntoIterator<Item = &'a BattleResult>, faction: u8) -> WinRate {
    let (mut n, mut wins) = (0u64, 0u64);
    for r in results {
        n += 1;
        if r.winner == Some(faction) {
            wins += 1;
        }
    }
    let (low, high) = wilson(wins, n);
    WinRate {
        wins,
        rate: if n > 0 { wins as f64 / n as f64 } else { 0.0 },
        low,
        high,
    }
}

/// Mean rounds fought over `results` (0 for none).
pub fn mean_rounds<'a>(results: impl IntoIterator<Item = &'a BattleResult>) -> f64 {
    let (mut n, mut rounds) = (0u64, 0u64);
    for r in results {
        n += 1;
        rounds += u64::from(r.rounds);
    }
    if n > 0 { rounds as f64 / n as f64 } else { 0.0 }
}

/// 95% Wilson score interval for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A step limit no real battle approaches; a battle that hits it is a draw.
pub const MAX_STEPS: u64 = 200_000;

/// Start a battle of a batch on `engine`: `level` under `ruleset` from
/// `seed` (no scripted dice), `control` playing its factions.
pub fn start_seeded(
    engine: &mut Engine,
    level: &Level,
    ruleset: RulesetId,
    seed: u64,
    control: Controls,
) -> Result<(), String> {
    engine.start(level, ruleset, &seeded(seed, control))
}

/// A batch battle's start: `seed`, no scripted dice, `control`.
fn seeded(seed: u64, control: Controls) -> StartOptions {
    StartOptions {
        seed,
        script: Vec::new(),
        control,
    }
}

/// Run one battle on an engine to its end. The engine is a batch's: it
/// starts no other level than `level` ([`Engine::start_same`]).
pub fn run_one(
    engine: &mut Engine,
    level: &Level,
    ruleset: RulesetId,
    seed: u64,
    control: &Controls,
) -> Result<BattleResult, String> {
    engine.start_same(level, ruleset, &seeded(seed, control.clone()))?;
    let stop = engine.run(MAX_STEPS);
    if stop == Stop::WaitingForHuman {
        return Err("a faction is controlled by a human; simulate with AI only".into());
    }
    Ok(result_of(engine, stop))
}

/// How the engine's battle stands after a run that stopped with `stop`.
pub fn result_of(engine: &mut Engine, stop: Stop) -> BattleResult {
    let nf = engine.world().resource::<Factions>().0.len();
    let mut casualties = vec![0u32; nf];
    let roster = engine.world().resource::<Roster>();
    for (p, f) in roster.places().iter().zip(&roster.factions) {
        if p.conditions.out_of_fight() {
            casualties[*f as usize] += 1;
        }
    }
    let (winner, rounds) = engine.outcome().map_or(
        (
            None,
            engine
                .world()
                .resource::<crate::rules::battle::Battle>()
                .round,
        ),
        |o| (o.winner, o.rounds),
    );
    let end = match (stop, engine.outcome()) {
        (Stop::StepLimit, _) | (_, None) => End::StepLimit,
        (_, Some(o)) if o.winner.is_some() => End::Won,
        (_, Some(o)) if matches!(o.reason, EndReason::RoundLimit { .. }) => End::RoundLimit,
        _ => End::Draw,
    };
    BattleResult {
        winner,
        rounds,
        casualties,
        end,
    }
}

/// Work items `0..total` spread over `threads` scoped threads, each
/// making its own state once (`init`: an engine, a child process) and
/// taking the next item as it finishes one; the results in item order.
/// The first error ends the batch.
pub fn spread<S, T: Send>(
    threads: usize,
    total: u64,
    init: impl Fn() -> Result<S, String> + Sync,
    work: impl Fn(&mut S, u64) -> Result<T, String> + Sync,
) -> Result<Vec<(u64, T)>, String> {
    let next = AtomicU64::new(0);
    let parts: Vec<Result<Vec<(u64, T)>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (next, init, work) = (&next, &init, &work);
                s.spawn(move || -> Result<Vec<(u64, T)>, String> {
                    let mut state = init()?;
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        out.push((i, work(&mut state, i)?));
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a worker thread panicked".into()))
            })
            .collect()
    });
    let mut all = Vec::with_capacity(total as usize);
    for p in parts {
        all.extend(p?);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all)
}

/// Simulate a batch and summarise it.
pub fn simulate(cfg: &SimConfig) -> Result<SimReport, String> {
    let threads = cfg.threads.max(1).min(cfg.battles.max(1) as usize);
    let started = Instant::now();
    // On a terminal every batch shows its progress, ticking even while
    // one long battle is under way.
    let bar = if cfg.progress {
        let b = indicatif::ProgressBar::new(cfg.battles);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} battles ({per_sec}, {elapsed} so far, eta {eta})",
        ) {
            b.set_style(style);
        }
        b.enable_steady_tick(std::time::Duration::from_millis(250));
        Some(b)
    } else {
        None
    };
    let all = spread(
        threads,
        cfg.battles,
        || {
            let mut engine =
                crate::rulesets::engine_with_assets(&cfg.assets).map_err(|e| e.to_string())?;
            for (k, v) in &cfg.settings {
                engine.configure(cfg.ruleset, k, v)?;
            }
            Ok(engine)
        },
        |engine, i| {
            let r = run_one(
                engine,
                &cfg.level,
                cfg.ruleset,
                battle_seed(cfg.seed, i),
                &cfg.control,
            )?;
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok(r)
        },
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let all = all?;
    let seconds = started.elapsed().as_secs_f64();
    Ok(summarise(cfg, threads, &all, seconds))
}

fn summarise(
    cfg: &SimConfig,
    threads: usize,
    all: &[(u64, BattleResult)],
    seconds: f64,
) -> SimReport {
    let n = all.len() as u64;
    let factions = cfg
        .level
        .factions
        .iter()
        .enumerate()
        .map(|(fi, f)| {
            let w = win_rate(all.iter().map(|(_, r)| r), fi as u8);
            let cas: u64 = all
                .iter()
                .map(|(_, r)| r.casualties.get(fi).copied().unwrap_or(0) as u64)
                .sum();
            FactionStats {
                id: f.id.clone(),
                name: f.name.clone(),
                wins: w.wins,
                win_rate: w.rate,
                win_rate_low: w.low,
                win_rate_high: w.high,
                mean_casualties: if n > 0 { cas as f64 / n as f64 } else { 0.0 },
                combatants: cfg
                    .level
                    .combatants
                    .iter()
                    .filter(|c| c.faction == f.id)
                    .count() as u32,
            }
        })
        .collect();
    let count = |end: End| all.iter().filter(|(_, r)| r.end == end).count() as u64;
    let (draws, round_limit, step_limit) = (
        count(End::Draw),
        count(End::RoundLimit),
        count(End::StepLimit),
    );
    let stalemate_seed = all
        .iter()
        .find(|(_, r)| matches!(r.end, End::RoundLimit | End::StepLimit))
        .map(|(i, _)| battle_seed(cfg.seed, *i));
    SimReport {
        level: cfg.level.name.clone(),
        level_file: cfg.level.source.display().to_string(),
        ruleset: cfg.ruleset.id().to_string(),
        battles: n,
        seed: cfg.seed,
        factions,
        draws,
        stalemates: round_limit + step_limit,
        round_limit,
        step_limit,
        stalemate_seed,
        mean_rounds: mean_rounds(all.iter().map(|(_, r)| r)),
        threads,
        seconds,
        battles_per_second: if seconds > 0.0 {
            n as f64 / seconds
        } else {
            0.0
        },
    }
}

impl SimReport {
    /// The report as readable text.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} under {}: {} battles (seed {})\n",
            self.level, self.ruleset, self.battles, self.seed
        );
        for f in &self.factions {
            s.push_str(&format!(
                "  {:<24} wins {:>6.1}%  (95% CI {:.1}%-{:.1}%)  mean casualties {:.2} of {}\n",
                f.name,
                100.0 * f.win_rate,
                100.0 * f.win_rate_low,
                100.0 * f.win_rate_high,
                f.mean_casualties,
                f.combatants
            ));
        }
        let rate = |k: u64| percent(k, self.battles);
        s.push_str(&format!(
            "  draws {:.1}%   mean rounds {:.2}\n",
            rate(self.draws),
            self.mean_rounds
        ));
        if let Some(seed) = self.stalemate_seed {
            s.push_str(&format!(
                "  stalemates {:.1}%: {} at the round limit, {} at the step limit; \
                 look at one: fray log {} --ruleset {} --seed {seed}\n",
                rate(self.stalemates),
                self.round_limit,
                self.step_limit,
                self.level_file,
                self.ruleset
            ));
        }
        s.push_str(&format!(
            "  {:.2} s on {} thread{}: {:.0} battles/s\n",
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.battles_per_second
        ));
        s
    }
}
