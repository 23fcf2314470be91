//! Helpers for rule tests: tiny levels written inline, an engine on the
//! shipped assets, and scripted dice.

use std::path::{Path, PathBuf};

use crate::data::level::parse_level;
use crate::rules::battle::{Battle, Prompt, RulesetId};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Controller};
use crate::rules::engine::{Controls, Engine, StartOptions};
use crate::rules::event::BattleEvent;
use crate::rules::level::Level;

pub fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
}

pub fn engine() -> Engine {
    match Engine::with_assets(&assets()) {
        Ok(e) => e,
        Err(e) => panic!("assets do not load: {e}"),
    }
}

/// A two-faction level (red, blue) from map rows and combatant entries such
/// as `(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")`.
pub fn level(rows: &[&str], combatants: &[&str]) -> Level {
    level_with(rows, combatants, "")
}

/// As [`level`], with extra top-level fields (`visibility: Bad,`).
pub fn level_with(rows: &[&str], combatants: &[&str], extra: &str) -> Level {
    let rows: Vec<String> = rows.iter().map(|r| format!("\"{r}\"")).collect();
    let text = format!(
        r##"Level(
    name: "Test",
    description: "",
    default_ruleset: "ud10",
    map: (
        legend: {{ '.': Open, '#': Wall, ',': Difficult, '~': Water, 'c': LowCover, 'C': HighCover, '^': HighGround }},
        rows: [{}],
    ),
    {extra}
    factions: [
        (id: "red", name: "Red", colour: "#cc2222", control: Human),
        (id: "blue", name: "Blue", colour: "#2222cc", control: Human),
    ],
    combatants: [{}],
    victory: LastStanding,
)"##,
        rows.join(", "),
        combatants.join(", ")
    );
    match parse_level(Path::new("test.ron"), &text) {
        Ok(l) => l,
        Err(e) => panic!("test level does not parse: {e}\n{text}"),
    }
}

/// Start a ud10 battle where humans (the test) control both sides.
pub fn start(engine: &mut Engine, level: &Level, script: &[u32]) {
    start_ruleset(engine, level, RulesetId::Ud10, script);
}

/// Start a battle under `ruleset` where humans (the test) control both
/// sides, and run its first step (the first round's opening).
pub fn start_ruleset(engine: &mut Engine, level: &Level, ruleset: RulesetId, script: &[u32]) {
    let opts = StartOptions {
        seed: 7,
        script: script.to_vec(),
        control: Controls::PerFaction(vec![Controller::Human, Controller::Human]),
    };
    if let Err(e) = engine.start(level, ruleset, &opts) {
        panic!("battle does not start: {e}");
    }
    engine.step();
}

pub fn cid(engine: &Engine, name: &str) -> Cid {
    match engine.cid(name) {
        Some(c) => c,
        None => panic!("no combatant named {name}"),
    }
}

pub fn prompt(engine: &Engine) -> Prompt {
    engine.world().resource::<Battle>().prompt
}

/// Send a command and run one step; panics if it is refused.
pub fn cmd(engine: &mut Engine, actor: Cid, command: Command) {
    engine.send(actor, command.clone());
    engine.step();
    if let Some(r) = engine.rejection() {
        panic!("{command:?} by {actor:?} refused: {r}");
    }
}

/// Send a command that must be refused; returns the reason.
pub fn refused(engine: &mut Engine, actor: Cid, command: Command) -> String {
    let before = engine.events().len();
    engine.send(actor, command.clone());
    engine.step();
    match engine.rejection() {
        Some(r) => {
            assert_eq!(
                engine.events().len(),
                before,
                "a refused command changed the battle"
            );
            r
        }
        None => panic!("{command:?} by {actor:?} was accepted"),
    }
}

/// Events since index `from`.
pub fn since(engine: &Engine, from: usize) -> Vec<BattleEvent> {
    engine.events()[from..].to_vec()
}
