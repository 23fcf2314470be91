//! Many playouts of one running battle, in parallel: the odds of each side
//! from where the battle stands. A [`Playouts`] pool keeps one engine per
//! worker thread, made once (reading the ruleset data takes longer than a
//! hundred playouts), so that the game can ask again and again as a battle
//! goes on. Each playout restores the battle's [`Snapshot`] and continues it
//! with its own random stream ([`battle_seed`] of the seed and its index) and
//! the AI playing every side, so the figures depend only on the snapshot and
//! the seed, never on how the work fell between the threads.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::Instant;

use serde::Serialize;

use crate::rules::engine::Engine;
use crate::rules::fork::Snapshot;
use crate::sim::{BattleResult, End, MAX_STEPS, battle_seed, mean_rounds, result_of, win_rate};

/// One request to the workers.
struct Job {
    snap: Arc<Snapshot>,
    count: u64,
    seed: u64,
    next: Arc<AtomicU64>,
    /// Each worker's results, sent once when its share is done (a send
    /// per playout woke the waiting thread a thousand times a run).
    results: mpsc::Sender<Vec<(u64, BattleResult)>>,
}

struct Worker {
    jobs: mpsc::Sender<Job>,
    handle: Option<JoinHandle<()>>,
}

/// A pool of engines that play out snapshots.
pub struct Playouts {
    workers: Vec<Worker>,
}

/// One side's chances over a set of playouts.
#[derive(Clone, Debug, Serialize)]
pub struct SideOdds {
    pub faction: u8,
    pub wins: u64,
    pub win_rate: f64,
    /// 95% Wilson score interval.
    pub win_rate_low: f64,
    pub win_rate_high: f64,
}

/// What a set of playouts found.
#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    pub playouts: u64,
    pub seed: u64,
    pub sides: Vec<SideOdds>,
    /// Playouts nobody won: no one left standing, the round limit, or the
    /// step limit.
    pub draws: u64,
    pub mean_rounds: f64,
    pub threads: usize,
    /// The playouts alone: the pool was ready before.
    pub seconds: f64,
    /// Each playout's result, in seed order.
    #[serde(skip)]
    pub results: Vec<BattleResult>,
}

impl Playouts {
    /// A pool of `threads` engines reading ruleset data from `assets`.
    pub fn new(assets: &Path, threads: usize) -> Result<Playouts, String> {
        let mut workers = Vec::new();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<(), String>>();
        for _ in 0..threads.max(1) {
            let (jobs, inbox) = mpsc::channel::<Job>();
            let assets = assets.to_path_buf();
            let ready = ready_tx.clone();
            let handle = std::thread::spawn(move || {
                let mut engine = match crate::rulesets::engine_with_assets(&assets) {
                    Ok(e) => {
                        let _ = ready.send(Ok(()));
                        e
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e.to_string()));
                        return;
                    }
                };
                for job in inbox {
                    work(&mut engine, &job);
                }
            });
            workers.push(Worker {
                jobs,
                handle: Some(handle),
            });
        }
        drop(ready_tx);
        let pool = Playouts { workers };
        for _ in 0..pool.workers.len() {
            ready_rx
                .recv()
                .map_err(|_| "a playout thread ended while starting".to_string())??;
        }
        Ok(pool)
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Play `snap`'s battle out `count` times, playout `i` seeded with
    /// `battle_seed(seed, i)`.
    pub fn run(&self, snap: &Arc<Snapshot>, count: u64, seed: u64) -> Result<Odds, String> {
        let started = Instant::now();
        let next = Arc::new(AtomicU64::new(0));
        let (tx, rx) = mpsc::channel();
        for w in &self.workers {
            w.jobs
                .send(Job {
                    snap: Arc::clone(snap),
                    count,
                    seed,
                    next: Arc::clone(&next),
                    results: tx.clone(),
                })
                .map_err(|_| "a playout thread has stopped".to_string())?;
        }
        drop(tx);
        let mut all: Vec<(u64, BattleResult)> = rx.iter().flatten().collect();
        if all.len() as u64 != count {
            return Err(format!(
                "{} of {count} playouts came back: a playout thread panicked",
                all.len()
            ));
        }
        all.sort_by_key(|(i, _)| *i);
        let seconds = started.elapsed().as_secs_f64();
        let results: Vec<BattleResult> = all.into_iter().map(|(_, r)| r).collect();
        Ok(odds(
            &results,
            snap_factions(&results),
            seed,
            self.threads(),
            seconds,
        ))
    }
}

impl Drop for Playouts {
    fn drop(&mut self) {
        let handles: Vec<_> = self
            .workers
            .drain(..)
            .filter_map(|mut w| w.handle.take())
            .collect();
        // The job senders are gone with the workers: each thread's loop ends.
        for h in handles {
            let _ = h.join();
        }
    }
}

/// A worker's share of a job: playouts until the shared counter runs out.
fn work(engine: &mut Engine, job: &Job) {
    let mut done = Vec::new();
    loop {
        let i = job.next.fetch_add(1, Ordering::Relaxed);
        if i >= job.count {
            break;
        }
        let stop = engine.playout(&job.snap, battle_seed(job.seed, i), MAX_STEPS);
        done.push((i, result_of(engine, stop)));
    }
    let _ = job.results.send(done);
}

/// How many factions the results speak of.
fn snap_factions(results: &[BattleResult]) -> usize {
    results.first().map_or(0, |r| r.casualties.len())
}

fn odds(
    results: &[BattleResult],
    factions: usize,
    seed: u64,
    threads: usize,
    seconds: f64,
) -> Odds {
    let sides = (0..factions)
        .map(|f| {
            let w = win_rate(results, f as u8);
            SideOdds {
                faction: f as u8,
                wins: w.wins,
                win_rate: w.rate,
                win_rate_low: w.low,
                win_rate_high: w.high,
            }
        })
        .collect();
    Odds {
        playouts: results.len() as u64,
        seed,
        sides,
        draws: results.iter().filter(|r| r.end != End::Won).count() as u64,
        mean_rounds: mean_rounds(results),
        threads,
        seconds,
        results: results.to_vec(),
    }
}

/// Where a battle stood when its odds were taken.
#[derive(Clone, Debug)]
pub struct At {
    /// Combatants still in the fight, per faction.
    pub standing: Vec<u32>,
}

/// Start the seeded all-AI battle and play it to the start of `round`
/// (before anyone acts in it): the state `fray odds` forks. An error if the
/// battle is over by then.
pub fn battle_at_round(
    engine: &mut Engine,
    level: &crate::rules::level::Level,
    ruleset: crate::rules::battle::RulesetId,
    seed: u64,
    round: u32,
) -> Result<At, String> {
    use crate::rules::battle::Battle;
    engine.start(
        level,
        ruleset,
        &crate::rules::engine::StartOptions {
            seed,
            script: Vec::new(),
            control: crate::rules::engine::Controls::AllAi,
        },
    )?;
    let mut steps = 0;
    loop {
        let battle = engine.world().resource::<Battle>();
        if let Some(o) = &battle.outcome {
            return Err(format!(
                "battle {seed} is over in round {} ({}), before round {round}: nothing left to play out",
                o.rounds,
                match o.winner {
                    Some(f) => format!("{} won", level.factions[f as usize].name),
                    None => "nobody won".into(),
                }
            ));
        }
        if battle.round >= round {
            break;
        }
        if steps == MAX_STEPS {
            return Err(format!(
                "battle {seed} did not reach round {round} within {MAX_STEPS} steps"
            ));
        }
        engine.step();
        steps += 1;
    }
    let world = engine.world();
    let mut standing = vec![0u32; level.factions.len()];
    for c in crate::rules::view::standing_all(world) {
        if let Some(n) =
            crate::rules::view::faction(world, c).and_then(|f| standing.get_mut(usize::from(f)))
        {
            *n += 1;
        }
    }
    Ok(At { standing })
}

/// `fray odds`' report.
#[derive(Clone, Debug, Serialize)]
pub struct OddsReport {
    pub level: String,
    pub level_file: String,
    pub ruleset: String,
    /// The battle's seed.
    pub seed: u64,
    /// The round at whose start the odds were taken.
    pub round: u32,
    /// Combatants in the fight then, per faction.
    pub standing: Vec<u32>,
    /// The factions' names, in the level's order.
    pub factions: Vec<String>,
    /// Time to make the pool's engines (once per pool).
    pub pool_seconds: f64,
    pub odds: Odds,
}

impl OddsReport {
    /// The report as readable text.
    pub fn text(&self) -> String {
        let o = &self.odds;
        let who: Vec<String> = self
            .factions
            .iter()
            .zip(&self.standing)
            .map(|(f, n)| format!("{f} {n}"))
            .collect();
        let mut s = format!(
            "{} under {}, battle {} at the start of round {} (standing: {}):\n",
            self.level,
            self.ruleset,
            self.seed,
            self.round,
            who.join(", ")
        );
        for side in &o.sides {
            let name = self
                .factions
                .get(side.faction as usize)
                .map_or("?", String::as_str);
            s.push_str(&format!(
                "  {:<24} wins {:>6.1}%  (95% CI {:.1}%-{:.1}%)\n",
                name,
                100.0 * side.win_rate,
                100.0 * side.win_rate_low,
                100.0 * side.win_rate_high
            ));
        }
        s.push_str(&format!(
            "  nobody wins {:.1}%   mean rounds {:.2}\n",
            crate::sim::percent(o.draws, o.playouts),
            o.mean_rounds
        ));
        s.push_str(&format!(
            "  {} playouts (seed {}) in {:.3} s on {} thread{} ({:.3} s to make the engines first)\n",
            o.playouts,
            o.seed,
            o.seconds,
            o.threads,
            if o.threads == 1 { "" } else { "s" },
            self.pool_seconds
        ));
        s
    }
}
