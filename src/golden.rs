//! Golden battle logs: every shipped level, under every ruleset that plays
//! it, for three seeds, played by the AI on every side. The readable log and
//! the JSON events (one per line, as `fray log --json` prints them) are kept
//! in `tests/golden/`. A refactor leaves them byte for byte; a change that
//! is meant to change battles re-blesses them, and its commit says why:
//!
//! ```sh
//! INSTA_UPDATE=always cargo test golden   # rewrite tests/golden/ from today's code
//! git diff --stat tests/golden/           # then read what changed
//! ```

use std::path::Path;

use crate::data::level::load_level;
use crate::rules::engine::{Controls, StartOptions, supported_rulesets};

/// The seeds every level and ruleset is played with.
const SEEDS: [u64; 3] = [1, 2, 3];

/// One battle's log, readable and as JSON lines.
fn battle_logs(
    level: &Path,
    ruleset: crate::rules::battle::RulesetId,
    seed: u64,
) -> (String, String) {
    let l = load_level(level).expect("a shipped level loads");
    let mut engine = crate::rulesets::engine().expect("the shipped rulesets load");
    engine
        .start(
            &l,
            ruleset,
            &StartOptions {
                seed,
                script: Vec::new(),
                control: Controls::AllAi,
            },
        )
        .expect("the battle starts");
    let stop = engine.run(crate::sim::MAX_STEPS);
    let mut text = engine.log_text();
    text.push_str(&format!("(stopped: {stop:?})\n"));
    let json: Vec<String> = engine
        .events()
        .iter()
        .map(|e| serde_json::to_string(e).expect("events serialise"))
        .collect();
    (text, json.join("\n") + "\n")
}

#[test]
fn golden_battle_logs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut levels: Vec<_> = std::fs::read_dir(root.join("levels"))
        .expect("levels/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    levels.sort();
    assert!(levels.len() >= 9, "{levels:?}");
    let world = crate::rulesets::engine().expect("rulesets");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root.join("tests/golden"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let mut played = 0;
    settings.bind(|| {
        for level in &levels {
            let stem = level.file_stem().and_then(|s| s.to_str()).expect("a name");
            let l = load_level(level).expect("a shipped level loads");
            for ruleset in supported_rulesets(world.world(), &l) {
                for seed in SEEDS {
                    let (text, json) = battle_logs(level, ruleset, seed);
                    let name = format!("{stem}.{}.seed{seed}", ruleset.id());
                    insta::assert_snapshot!(format!("{name}.log"), text);
                    insta::assert_snapshot!(format!("{name}.jsonl"), json);
                    played += 1;
                }
            }
        }
    });
    // Nine levels: seven under both rulesets, two under zones alone.
    assert!(played >= 16 * SEEDS.len(), "{played} battles");
}
