//! `fray play`: a battle on a level in the game window.

use std::path::PathBuf;

/// `fray play`'s arguments.
#[derive(clap::Args, Debug)]
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
pub struct PlayArgs {
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
}

/// Open the game window on the battle asked for.
#[cfg(feature = "gui")]
pub(super) fn run(a: PlayArgs) -> Result<(), String> {
    use super::args::{level_control_with, load, pick_ruleset};
    use crate::rules::engine::Controls;

    let lvl = load(&a.level)?;
    let controls = match level_control_with(&lvl, &a.control, true)? {
        Controls::PerFaction(v) => Some(v),
        _ => None,
    };
    let ruleset = match a.ruleset.as_deref() {
        Some(id) => Some(pick_ruleset(&lvl, Some(id))?),
        None => None,
    };
    let speed = match a.speed.as_deref() {
        Some(s) => Some(
            crate::game::session::Speed::parse(s)
                .ok_or_else(|| format!("--speed expects x1, x2, x4 or instant, not `{s}`"))?,
        ),
        None => None,
    };
    crate::game::run(crate::game::GameOptions {
        level: Some(a.level),
        ruleset,
        seed: Some(a.seed),
        all_ai: a.all_ai,
        speed,
        screen: None,
        screenshot: a.screenshot.map(|p| (p, a.after_frames)),
        show: a.show,
        bench_frames: a.bench_frames,
        tour: None,
        controls,
    })
}

/// Built without the game window: nothing to play in.
#[cfg(not(feature = "gui"))]
pub(super) fn run(_a: PlayArgs) -> Result<(), String> {
    Err("this fray was built without the game window (cargo feature `gui`)".into())
}
