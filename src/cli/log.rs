//! `fray log`: one all-AI battle and its whole log, every roll, modifier
//! and rule.

use std::path::PathBuf;

use super::args::{level_control, load, parse_settings, pick_ruleset};
use crate::rules::engine::{StartOptions, Stop};

/// `fray log`'s arguments.
#[derive(clap::Args, Debug)]
pub struct LogArgs {
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
}

/// Play the battle and print its log.
pub(super) fn run(a: &LogArgs) -> Result<(), String> {
    let level = load(&a.level)?;
    let ruleset = pick_ruleset(&level, a.ruleset.as_deref())?;
    let control = level_control(&level, &a.control)?;
    let mut engine = crate::rulesets::engine().map_err(|e| e.to_string())?;
    for (k, v) in parse_settings(&a.settings)? {
        engine.configure(ruleset, &k, &v)?;
    }
    let scripted = a.dice.len();
    engine.start(
        &level,
        ruleset,
        &StartOptions {
            seed: a.seed,
            script: a.dice.clone(),
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
    if a.json {
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
