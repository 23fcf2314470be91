//! The `fray` command line: one file per subcommand (`play`, `simulate`,
//! `log`, `odds`, `audit`, `check`, `versus`, `serve-ai`, `bench`; with
//! none, the game), what several read from their arguments in `args.rs`,
//! and what they print through in `output.rs`.

#[macro_use]
mod output;
mod args;
mod audit;
mod bench;
mod check;
mod game;
mod log;
mod odds;
mod play;
mod serve_ai;
mod simulate;
mod versus;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    Play(play::PlayArgs),
    /// Simulate many all-AI battles of a level: win rates with 95% intervals,
    /// mean rounds, mean casualties.
    Simulate(simulate::SimulateArgs),
    /// Play one all-AI battle and print its whole log: every roll, modifier
    /// and rule.
    Log(log::LogArgs),
    /// Each side's odds from the middle of a battle: play the seeded
    /// all-AI battle (as `fray log` shows it) to the start of a round, then
    /// play it out many times from there with fresh dice.
    Odds(odds::OddsArgs),
    /// What the AI does, counted over many seeded all-AI battles of every
    /// level (or those given) under every ruleset it supports: attacks
    /// from behind, free attacks drawn and then wasted, aims, shots from
    /// cover, passes, battles that ran to the round limit.
    Audit(audit::AuditArgs),
    /// Validate level files and ruleset data (files or folders).
    Check(check::CheckArgs),
    /// This build's tactical AI against another build's, in lockstep over
    /// mirrored battles: each seed played once per faction, this build's
    /// AI on that faction and the other's on the rest (the other build
    /// needs `fray serve-ai`). Refuses if the two builds' rules play a
    /// command differently.
    Versus(versus::VersusArgs),
    /// Answer another build's `fray versus`: JSON requests on standard
    /// input, one a line, answered on standard output.
    ServeAi,
    /// Battles per second for every level × ruleset, on one thread and on
    /// all cores; with --vs, another build side by side in the same run.
    Bench(bench::BenchArgs),
}

/// Run the command line; the exit code says whether it worked.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => game::run(
            cli.screen,
            cli.screenshot.map(|p| (p, cli.after_frames)),
            cli.tour,
        ),
        Some(Cmd::Play(a)) => play::run(a),
        Some(Cmd::Simulate(a)) => simulate::run(&a),
        Some(Cmd::Log(a)) => log::run(&a),
        Some(Cmd::Odds(a)) => odds::run(&a),
        Some(Cmd::Audit(a)) => audit::run(&a),
        Some(Cmd::Check(a)) => check::run(&a),
        Some(Cmd::Versus(a)) => versus::run(&a),
        Some(Cmd::ServeAi) => serve_ai::run(),
        Some(Cmd::Bench(a)) => bench::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fray: {e}");
            ExitCode::FAILURE
        }
    }
}
