//! What several subcommands read from their arguments: a batch's seed and
//! workers, `--set`, `--control`, the ruleset asked for, the level file.

use std::path::{Path, PathBuf};

use crate::data::level::load_level;
use crate::rules::battle::RulesetId;
use crate::rules::components::Controller;
use crate::rules::engine::Controls;
use crate::rules::level::Level;

/// What every batch of seeded battles takes (`simulate`, `audit`,
/// `versus`).
#[derive(clap::Args, Debug)]
pub struct Batch {
    /// Seed of the whole batch; battle i uses a seed derived from it.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    #[command(flatten)]
    pub(super) workers: Workers,
}

/// What every command that plays many battles on worker threads takes
/// (a batch, and `odds`' playouts).
#[derive(clap::Args, Debug, Default)]
pub struct Workers {
    /// Worker threads (default: every core).
    #[arg(long)]
    pub(super) threads: Option<usize>,
    /// Change a setting of the ruleset played, e.g. --set body_zones=false
    /// (repeatable; `versus` changes it in both builds).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) settings: Vec<String>,
    /// The report as JSON instead of text.
    #[arg(long)]
    pub(super) json: bool,
}

impl Workers {
    /// The worker threads asked for, or every core; none is refused.
    pub(super) fn threads(&self) -> Result<usize, String> {
        match self.threads {
            Some(0) => Err("--threads expects at least 1 thread, not 0".into()),
            Some(n) => Ok(n),
            None => Ok(cores()),
        }
    }
}

/// The default level, found from the working directory or the source tree.
pub(super) fn default_level() -> PathBuf {
    let local = PathBuf::from("levels/open_field.ron");
    if local.is_file() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/open_field.ron")
}

/// The level files named, or every shipped level (the folder of the
/// default one) when none is.
pub(super) fn levels_or_shipped(named: &[PathBuf]) -> Vec<PathBuf> {
    if !named.is_empty() {
        return named.to_vec();
    }
    let dir = default_level()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("levels"));
    crate::bench::shipped_levels(&dir)
}

/// `--set KEY=VALUE` options as pairs.
pub(super) fn parse_settings(settings: &[String]) -> Result<Vec<(String, String)>, String> {
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
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The ruleset asked on the command line, or the level's default.
pub(super) fn pick_ruleset(level: &Level, ruleset: Option<&str>) -> Result<RulesetId, String> {
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

/// The level file at `level`, loaded by the one level loader.
pub(super) fn load(level: &Path) -> Result<Level, String> {
    load_level(level).map_err(|e| e.to_string())
}

/// `--control` for `level`: one controller per faction, or none. Only the
/// game window (`fray play`) has a human to wait for.
pub(super) fn level_control(
    level: &crate::rules::level::Level,
    control: &[String],
) -> Result<Controls, String> {
    level_control_with(level, control, false)
}

/// `--control` for `level`, `human` allowed when `humans`.
pub(super) fn level_control_with(
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

/// `--control`'s words, one controller per faction; none given is all
/// AI.
pub(super) fn parse_control(control: &[String], humans: bool) -> Result<Controls, String> {
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
