//! The `fray` command line: `simulate`, `log`, `check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::data::level::load_level;
use crate::rules::battle::RulesetId;
use crate::rules::components::Controller;
use crate::rules::engine::{
    Controls, Engine, StartOptions, Stop, assets_dir, supported_rulesets, validate,
};
use crate::rules::level::Level;
use crate::sim::{SimConfig, simulate};

/// Write to standard output. When the reader has gone (`fray log … | head`),
/// `fray` ends at once, silently and with success: nothing it could still
/// print would be read.
fn out(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut so = std::io::stdout().lock();
    if let Err(e) = so.write_fmt(args).and_then(|()| so.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("fray: cannot write the output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`out`].
macro_rules! say {
    ($($t:tt)*) => { out(format_args!("{}\n", format_args!($($t)*))) };
}

/// `print!` through [`out`].
macro_rules! say_raw {
    ($($t:tt)*) => { out(format_args!($($t)*)) };
}

/// A command's report: as JSON, or as the text `text` writes of it.
fn print_report<R: serde::Serialize>(
    report: &R,
    json: bool,
    text: impl FnOnce(&R) -> String,
) -> Result<(), String> {
    if json {
        say!(
            "{}",
            serde_json::to_string_pretty(report).map_err(|e| e.to_string())?
        );
    } else {
        say_raw!("{}", text(report));
    }
    Ok(())
}

#[derive(Parser, Debug)]
#[command(
    name = "fray",
    version,
    about = "Tabletop RPG combat rules played out on a tile map"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
    /// With no command: open this screen first (title, setup, battle).
    #[arg(long, global = false)]
    pub screen: Option<String>,
    /// With no command or `play`: save a screenshot and quit.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Frames to wait before the screenshot.
    #[arg(long, default_value_t = 90)]
    pub after_frames: u32,
    /// With no command: walk every screen as a player would (title, setup,
    /// a skirmish, the pause menu, results, play again, a GM preview),
    /// save a screenshot of each into this folder, then quit.
    #[arg(long, value_name = "DIR")]
    pub tour: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Play a battle on a level in the game window.
    Play {
        /// The level file (levels/*.ron).
        level: PathBuf,
        #[arg(long)]
        ruleset: Option<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Every faction played by the AI: a GM preview.
        #[arg(long)]
        all_ai: bool,
        /// Speed of AI turns: x1, x2, x4, instant.
        #[arg(long)]
        speed: Option<String>,
        /// Save a screenshot after --after-frames frames and quit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        #[arg(long, default_value_t = 90)]
        after_frames: u32,
        /// Open an overlay at the start: help or menu.
        #[arg(long)]
        show: Option<String>,
        /// Time the game's own systems over this many frames, print the
        /// figures and quit.
        #[arg(long)]
        bench_frames: Option<u32>,
        /// Who plays each faction, in the level's order: `human`, or an AI
        /// level as `fray simulate --control` takes them (`easy`, `normal`,
        /// `hard`, `random`).
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "human|ai|easy|hard|random,..."
        )]
        control: Vec<String>,
    },
    /// Simulate many all-AI battles of a level: win rates with 95% intervals,
    /// mean rounds, mean casualties.
    Simulate {
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
    },
    /// Play one all-AI battle and print its whole log: every roll, modifier
    /// and rule.
    Log {
        /// The level file (levels/*.ron).
        level: PathBuf,
        #[arg(long)]
        seed: u64,
        #[arg(long)]
        ruleset: Option<String>,
        /// Die results to use, in order, before the RNG takes over: 7,3,10,...
        #[arg(long, value_delimiter = ',')]
        dice: Vec<u32>,
        /// Change a ruleset setting, e.g. --set buffer=false (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        settings: Vec<String>,
        /// One JSON object per event instead of text.
        #[arg(long)]
        json: bool,
        /// Who plays each faction, as `fray simulate --control` (default:
        /// the tactical AI everywhere).
        #[arg(long, value_delimiter = ',', value_name = "ai|easy|hard|random,...")]
        control: Vec<String>,
    },
    /// Each side's odds from the middle of a battle: play the seeded
    /// all-AI battle (as `fray log` shows it) to the start of a round, then
    /// play it out many times from there with fresh dice.
    Odds(OddsArgs),
    /// What the AI does, counted over many seeded all-AI battles of every
    /// level (or those given) under every ruleset it supports: attacks
    /// from behind, free attacks drawn and then wasted, aims, shots from
    /// cover, passes, battles that ran to the round limit.
    Audit {
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
    },
    /// Validate level files and ruleset data (files or folders).
    Check {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// This build's tactical AI against another build's, in lockstep over
    /// mirrored battles: each seed played once per faction, this build's
    /// AI on that faction and the other's on the rest (the other build
    /// needs `fray serve-ai`). Refuses if the two builds' rules play a
    /// command differently.
    Versus {
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
    },
    /// Answer another build's `fray versus`: JSON requests on standard
    /// input, one a line, answered on standard output.
    ServeAi,
    /// Battles per second for every level × ruleset, on one thread and on
    /// all cores; with --vs, another build side by side in the same run.
    Bench {
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
    },
}

/// What every batch of seeded battles takes (`simulate`, `audit`,
/// `versus`).
#[derive(clap::Args, Debug)]
pub struct Batch {
    /// Seed of the whole batch; battle i uses a seed derived from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    workers: Workers,
}

/// What every command that plays many battles on worker threads takes
/// (a batch, and `odds`' playouts).
#[derive(clap::Args, Debug, Default)]
pub struct Workers {
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Change a setting of the ruleset played, e.g. --set body_zones=false
    /// (repeatable; `versus` changes it in both builds).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    settings: Vec<String>,
    /// The report as JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl Workers {
    /// The worker threads asked for, or every core; none is refused.
    fn threads(&self) -> Result<usize, String> {
        match self.threads {
            Some(0) => Err("--threads expects at least 1 thread, not 0".into()),
            Some(n) => Ok(n),
            None => Ok(cores()),
        }
    }
}

/// The default level, found from the working directory or the source tree.
pub fn default_level() -> PathBuf {
    let local = PathBuf::from("levels/open_field.ron");
    if local.is_file() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/open_field.ron")
}

fn parse_settings(settings: &[String]) -> Result<Vec<(String, String)>, String> {
    settings
        .iter()
        .map(|s| {
            s.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("--set expects KEY=VALUE, not `{s}`"))
        })
        .collect()
}

/// The machine's cores (the default number of worker threads).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The ruleset asked on the command line, or the level's default.
fn pick_ruleset(level: &Level, ruleset: Option<&str>) -> Result<RulesetId, String> {
    let id = ruleset.unwrap_or(&level.default_ruleset);
    crate::rulesets::parse(id).ok_or_else(|| {
        let msg = format!(
            "unknown ruleset `{id}`; expected one of {}",
            crate::rulesets::KNOWN.map(|r| r.id()).join(", ")
        );
        match ruleset {
            Some(_) => msg,
            None => level.error_at_field("default_ruleset", msg).to_string(),
        }
    })
}

fn load(level: &Path) -> Result<Level, String> {
    load_level(level).map_err(|e| e.to_string())
}

/// Run the command line; the exit code says whether it worked.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => cmd_game(
            cli.screen,
            cli.screenshot.map(|p| (p, cli.after_frames)),
            cli.tour,
        ),
        Some(Cmd::Play {
            level,
            ruleset,
            seed,
            all_ai,
            speed,
            screenshot,
            after_frames,
            show,
            bench_frames,
            control,
        }) => cmd_play(
            level,
            ruleset.as_deref(),
            seed,
            all_ai,
            speed.as_deref(),
            screenshot.map(|p| (p, after_frames)),
            show,
            bench_frames,
            &control,
        ),
        Some(Cmd::Simulate {
            level,
            ruleset,
            battles,
            batch,
            control,
        }) => cmd_simulate(&level, ruleset.as_deref(), battles, &batch, &control),
        Some(Cmd::Log {
            level,
            seed,
            ruleset,
            dice,
            settings,
            json,
            control,
        }) => cmd_log(
            &level,
            seed,
            ruleset.as_deref(),
            dice,
            &settings,
            json,
            &control,
        ),
        Some(Cmd::Odds(args)) => cmd_odds(&args),
        Some(Cmd::Check { paths }) => cmd_check(&paths),
        Some(Cmd::Audit {
            levels,
            ruleset,
            battles,
            batch,
        }) => cmd_audit(levels, ruleset.as_deref(), battles, &batch),
        Some(Cmd::Bench {
            vs,
            battles,
            runs,
            levels,
            playouts,
            json,
        }) => cmd_bench(vs, battles, runs, levels, playouts, json),
        Some(Cmd::Versus {
            level,
            vs,
            ruleset,
            seeds,
            batch,
        }) => cmd_versus(&level, vs, ruleset.as_deref(), seeds, &batch),
        Some(Cmd::ServeAi) => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            crate::versus::serve(stdin, stdout, &assets_dir())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fray: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--control` for `level`: one controller per faction, or none. Only the
/// game window (`fray play`) has a human to wait for.
fn level_control(
    level: &crate::rules::level::Level,
    control: &[String],
) -> Result<Controls, String> {
    level_control_with(level, control, false)
}

fn level_control_with(
    level: &crate::rules::level::Level,
    control: &[String],
    humans: bool,
) -> Result<Controls, String> {
    let control = parse_control(control, humans)?;
    if let Controls::PerFaction(v) = &control
        && v.len() != level.factions.len()
    {
        return Err(format!(
            "--control names {} factions; the level has {}",
            v.len(),
            level.factions.len()
        ));
    }
    Ok(control)
}

fn parse_control(control: &[String], humans: bool) -> Result<Controls, String> {
    if control.is_empty() {
        return Ok(Controls::AllAi);
    }
    control
        .iter()
        .map(|c| match c.trim() {
            "ai" | "normal" => Ok(Controller::Ai),
            "easy" => Ok(Controller::EasyAi),
            "hard" => Ok(Controller::HardAi),
            "human" if humans => Ok(Controller::Human),
            "random" => Ok(Controller::RandomAi),
            other => Err(format!(
                "--control expects {}ai (or normal), easy, hard or random, not `{other}`",
                if humans { "human, " } else { "" }
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Controls::PerFaction)
}

#[cfg(feature = "gui")]
fn cmd_game(
    screen: Option<String>,
    shot: Option<(PathBuf, u32)>,
    tour: Option<PathBuf>,
) -> Result<(), String> {
    crate::game::run(crate::game::GameOptions {
        screen,
        screenshot: shot,
        tour,
        ..Default::default()
    })
}

#[cfg(not(feature = "gui"))]
fn cmd_game(
    _screen: Option<String>,
    _shot: Option<(PathBuf, u32)>,
    _tour: Option<PathBuf>,
) -> Result<(), String> {
    eprintln!("fray: built without the game window (feature `gui`); simulating the default level.");
    let batch = Batch {
        seed: 1,
        workers: Workers::default(),
    };
    cmd_simulate(&default_level(), None, 1000, &batch, &[])
}

#[cfg(feature = "gui")]
#[allow(clippy::too_many_arguments)]
fn cmd_play(
    level: PathBuf,
    ruleset: Option<&str>,
    seed: u64,
    all_ai: bool,
    speed: Option<&str>,
    shot: Option<(PathBuf, u32)>,
    show: Option<String>,
    bench_frames: Option<u32>,
    control: &[String],
) -> Result<(), String> {
    let lvl = load(&level)?;
    let controls = match level_control_with(&lvl, control, true)? {
        Controls::PerFaction(v) => Some(v),
        _ => None,
    };
    let ruleset = match ruleset {
        Some(_) => Some(pick_ruleset(&lvl, ruleset)?),
        None => None,
    };
    let speed = match speed {
        Some(s) => Some(
            crate::game::session::Speed::parse(s)
                .ok_or_else(|| format!("--speed expects x1, x2, x4 or instant, not `{s}`"))?,
        ),
        None => None,
    };
    crate::game::run(crate::game::GameOptions {
        level: Some(level),
        ruleset,
        seed: Some(seed),
        all_ai,
        speed,
        screen: None,
        screenshot: shot,
        show,
        bench_frames,
        tour: None,
        controls,
    })
}

#[cfg(not(feature = "gui"))]
#[allow(clippy::too_many_arguments)]
fn cmd_play(
    _level: PathBuf,
    _ruleset: Option<&str>,
    _seed: u64,
    _all_ai: bool,
    _speed: Option<&str>,
    _shot: Option<(PathBuf, u32)>,
    _show: Option<String>,
    _bench_frames: Option<u32>,
    _control: &[String],
) -> Result<(), String> {
    Err("this fray was built without the game window (cargo feature `gui`)".into())
}

fn cmd_simulate(
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
    let report = simulate(&cfg)?;
    print_report(&report, batch.workers.json, |r| r.text())
}

fn cmd_versus(
    level_path: &Path,
    other: PathBuf,
    ruleset: Option<&str>,
    seeds: u64,
    batch: &Batch,
) -> Result<(), String> {
    if seeds == 0 {
        return Err("--seeds expects at least 1 seed, not 0".into());
    }
    let threads = batch.workers.threads()?;
    let level = load(level_path)?;
    let ruleset = pick_ruleset(&level, ruleset)?;
    // The other build runs in this folder too; its level is this one's file.
    let level_file = level_path
        .canonicalize()
        .map_err(|e| format!("{}: {e}", level_path.display()))?;
    let cfg = crate::versus::VersusConfig {
        level,
        level_file,
        ruleset,
        seeds,
        seed: batch.seed,
        threads,
        settings: parse_settings(&batch.workers.settings)?,
        assets: assets_dir(),
        other,
    };
    let report = crate::versus::versus(&cfg)?;
    print_report(&report, batch.workers.json, |r| r.text())
}

fn cmd_bench(
    vs: Option<PathBuf>,
    battles: u64,
    runs: usize,
    levels: Vec<PathBuf>,
    playouts: u64,
    json: bool,
) -> Result<(), String> {
    if battles == 0 || runs == 0 || playouts == 0 {
        return Err("--battles, --runs and --playouts expect at least 1".into());
    }
    let a = std::env::current_exe().map_err(|e| format!("cannot find this fray: {e}"))?;
    let levels = if levels.is_empty() {
        let dir = default_level()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("levels"));
        crate::bench::shipped_levels(&dir)
    } else {
        levels
    };
    let cores = cores();
    let threads = if cores > 1 { vec![1, cores] } else { vec![1] };
    let cfg = crate::bench::BenchConfig {
        a,
        b: vs,
        levels,
        battles,
        runs,
        threads,
    };
    let rows = crate::bench::bench(&cfg, |r| {
        if !json {
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
        Some(duel) => crate::bench::bench_forks(&cfg, duel, playouts, |r| {
            if !json {
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
    if json {
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

fn cmd_audit(
    levels: Vec<PathBuf>,
    ruleset: Option<&str>,
    battles: u64,
    batch: &Batch,
) -> Result<(), String> {
    if battles == 0 {
        return Err("--battles expects at least 1 battle, not 0".into());
    }
    let threads = batch.workers.threads()?;
    let paths = if levels.is_empty() {
        let dir = default_level()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("levels"));
        crate::bench::shipped_levels(&dir)
    } else {
        levels
    };
    let levels = paths
        .into_iter()
        .map(|p| load(&p).map(|l| (p, l)))
        .collect::<Result<Vec<_>, String>>()?;
    let ruleset = match ruleset {
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
        battles,
        seed: batch.seed,
        threads,
        settings: parse_settings(&batch.workers.settings)?,
        assets: assets_dir(),
    })?;
    print_report(&report, batch.workers.json, |r| r.text())
}

fn cmd_odds(a: &OddsArgs) -> Result<(), String> {
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

fn cmd_log(
    level_path: &Path,
    seed: u64,
    ruleset: Option<&str>,
    dice: Vec<u32>,
    settings: &[String],
    json: bool,
    control: &[String],
) -> Result<(), String> {
    let level = load(level_path)?;
    let ruleset = pick_ruleset(&level, ruleset)?;
    let control = level_control(&level, control)?;
    let mut engine = crate::rulesets::engine().map_err(|e| e.to_string())?;
    for (k, v) in parse_settings(settings)? {
        engine.configure(ruleset, &k, &v)?;
    }
    let scripted = dice.len();
    engine.start(
        &level,
        ruleset,
        &StartOptions {
            seed,
            script: dice,
            control,
        },
    )?;
    let stop = engine.run(crate::sim::MAX_STEPS);
    let dice_state = engine
        .world()
        .resource::<crate::rules::dice::Dice>()
        .clone();
    if let Some(err) = dice_state.error() {
        return Err(format!("--dice: {err}"));
    }
    if json {
        for e in engine.events() {
            say!("{}", serde_json::to_string(e).map_err(|e| e.to_string())?);
        }
    } else {
        say_raw!("{}", engine.log_text());
        if scripted > 0 {
            say!(
                "({} of {} scripted dice used)",
                scripted - dice_state.script_left(),
                scripted
            );
        }
    }
    if stop == Stop::StepLimit {
        return Err("the battle did not end within the step limit".into());
    }
    Ok(())
}

fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The ruleset a data folder belongs to: `.../rulesets/<id>`.
fn ruleset_folder(dir: &Path) -> Option<RulesetId> {
    let name = dir.file_name()?.to_str()?;
    let parent = dir.parent()?.file_name()?.to_str()?;
    (parent == "rulesets")
        .then(|| crate::rulesets::parse(name))
        .flatten()
}

fn cmd_check(paths: &[PathBuf]) -> Result<(), String> {
    let mut failures = 0usize;
    let mut checked = 0usize;
    let engine = crate::rulesets::engine();
    let mut report = |path: &Path, r: Result<String, String>| match r {
        Ok(note) => {
            checked += 1;
            say!("ok    {}{}", path.display(), note);
        }
        Err(e) => {
            checked += 1;
            failures += 1;
            say!("ERROR {e}");
        }
    };
    for p in paths {
        if p.is_dir() {
            if let Some(id) = ruleset_folder(p) {
                report(p, check_ruleset_dir(&engine, id, p));
                continue;
            }
            let files = ron_files(p);
            if files.is_empty() {
                report(p, Err(format!("{}: no .ron files here", p.display())));
            }
            for f in files {
                let r = check_level(&engine, &f);
                report(&f, r);
            }
        } else if let Some(id) = p.parent().and_then(ruleset_folder) {
            let r = check_ruleset_dir(&engine, id, p.parent().unwrap_or(p));
            report(p, r);
        } else {
            let r = check_level(&engine, p);
            report(p, r);
        }
    }
    if failures > 0 {
        return Err(format!("{failures} of {checked} files have errors"));
    }
    Ok(())
}

fn check_ruleset_dir(
    engine: &Result<Engine, crate::rules::error::DataError>,
    id: RulesetId,
    dir: &Path,
) -> Result<String, String> {
    let engine = engine.as_ref().map_err(|e| e.to_string())?;
    let hooks = engine
        .world()
        .resource::<crate::rules::hooks::RulesetRegistry>()
        .get(id)
        .ok_or_else(|| format!("{}: the {id} ruleset is not implemented yet", dir.display()))?;
    (hooks.check_data)(dir)
        .map(|_| String::new())
        .map_err(|e| e.to_string())
}

fn check_level(
    engine: &Result<Engine, crate::rules::error::DataError>,
    path: &Path,
) -> Result<String, String> {
    let level = load(path)?;
    let engine = engine.as_ref().map_err(|e| e.to_string())?;
    // The level must play under its default ruleset: the same validation
    // `simulate`, `log`, `play` and the game make.
    let default = pick_ruleset(&level, None)?;
    validate(engine.world(), &level, default).map_err(|e| e.to_string())?;
    let supported = supported_rulesets(engine.world(), &level);
    // Every supported ruleset must be able to set the battle up.
    let mut scratch = crate::rulesets::engine().map_err(|e| e.to_string())?;
    for r in &supported {
        scratch
            .start(&level, *r, &StartOptions::default())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(format!(
        "  ({}; plays under {})",
        level.name,
        supported
            .iter()
            .map(|r| r.id())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}
