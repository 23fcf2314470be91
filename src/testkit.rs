//! The one test kit every ruleset's tests use: tiny levels drawn inline
//! ([`Scenario`]), an engine on the shipped assets, scripted dice, and
//! helpers to send commands and read the battle.

use std::path::{Path, PathBuf};

use crate::data::level::parse_level;
use crate::rules::battle::{Battle, Prompt, RulesetId};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Controller, Health};
use crate::rules::engine::{Controls, Engine, StartOptions};
use crate::rules::event::BattleEvent;
use crate::rules::level::Level;
use crate::rules::map::Cell;
use crate::rules::view;

pub fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
}

pub fn engine() -> Engine {
    match crate::rulesets::engine_with_assets(&assets()) {
        Ok(e) => e,
        Err(e) => panic!("assets do not load: {e}"),
    }
}

/// A test battle's level, written as a player would draw it: the map as
/// rows of characters (`.` open, `#` wall, `,` difficult, `~` water, `c`
/// low cover, `C` high cover, `^` high ground, `o` pit), optional zones as a
/// second grid, two factions and the combatants as level entries such as
/// `(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")`.
/// Both factions are human-controlled: the test sends every command.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub default_ruleset: RulesetId,
    pub rows: Vec<String>,
    /// Zone grid rows; zones are named by their letter in upper case.
    pub zones: Vec<String>,
    /// (id, display name, colour, starts the fight)
    pub factions: [(&'static str, &'static str, &'static str, bool); 2],
    pub combatants: Vec<String>,
    /// Extra top-level level fields (`visibility: Bad,`).
    pub extra: String,
}

impl Scenario {
    /// A UD10 test level: factions `red` and `blue`.
    pub fn ud10(rows: &[&str]) -> Scenario {
        Scenario {
            name: "Test".into(),
            default_ruleset: crate::rulesets::ud10::ID,
            rows: rows.iter().map(|r| r.to_string()).collect(),
            zones: Vec::new(),
            factions: [
                ("red", "Red", "#cc2222", false),
                ("blue", "Blue", "#2222cc", false),
            ],
            combatants: Vec::new(),
            extra: String::new(),
        }
    }

    /// A zones test level: factions `players` and `bandits`, zones drawn
    /// as a grid of letters.
    pub fn zones(rows: &[&str], zones: &[&str]) -> Scenario {
        Scenario {
            name: "Zones test".into(),
            default_ruleset: crate::rulesets::zones::ID,
            zones: zones.iter().map(|r| r.to_string()).collect(),
            factions: [
                ("players", "Players", "#2222cc", false),
                ("bandits", "Bandits", "#cc2222", false),
            ],
            ..Scenario::ud10(rows)
        }
    }

    /// A brp test level: factions `red` and `blue`.
    pub fn brp(rows: &[&str]) -> Scenario {
        Scenario {
            name: "brp test".into(),
            default_ruleset: crate::rulesets::brp::ID,
            ..Scenario::ud10(rows)
        }
    }

    pub fn with(mut self, combatants: &[&str]) -> Scenario {
        self.combatants
            .extend(combatants.iter().map(|c| c.to_string()));
        self
    }

    pub fn extra(mut self, fields: &str) -> Scenario {
        self.extra = fields.to_string();
        self
    }

    /// The second faction started the fight.
    pub fn second_starts(mut self, starts: bool) -> Scenario {
        self.factions[1].3 = starts;
        self
    }

    /// The level's RON text.
    pub fn source(&self) -> String {
        let q = |v: &[String]| {
            v.iter()
                .map(|r| format!("\"{r}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let zones = if self.zones.is_empty() {
            String::new()
        } else {
            let mut letters: Vec<char> = self
                .zones
                .iter()
                .flat_map(|r| r.chars())
                .filter(|c| c.is_ascii_alphabetic())
                .collect();
            letters.sort();
            letters.dedup();
            let legend: Vec<String> = letters
                .iter()
                .map(|c| format!("'{c}': \"{}\"", c.to_ascii_uppercase()))
                .collect();
            format!(
                "zone_legend: {{ {} }},\n        zone_rows: [{}],",
                legend.join(", "),
                q(&self.zones)
            )
        };
        let faction = |(id, name, colour, starts): (&str, &str, &str, bool)| {
            let starts = if starts { ", starts_fight: true" } else { "" };
            format!(
                "(id: \"{id}\", name: \"{name}\", colour: \"{colour}\", control: Human{starts})"
            )
        };
        format!(
            r##"Level(
    name: "{}",
    description: "",
    default_ruleset: "{}",
    map: (
        legend: {{ '.': Open, '#': Wall, ',': Difficult, '~': Water, 'c': LowCover, 'C': HighCover, '^': HighGround, 'o': Pit }},
        rows: [{}],
        {zones}
    ),
    {}
    factions: [
        {},
        {},
    ],
    combatants: [{}],
    victory: LastStanding,
)"##,
            self.name,
            self.default_ruleset.id(),
            q(&self.rows),
            self.extra,
            faction(self.factions[0]),
            faction(self.factions[1]),
            self.combatants.join(", ")
        )
    }

    /// The level, parsed as a level file is.
    pub fn level(&self) -> Level {
        let text = self.source();
        match parse_level(Path::new("test.ron"), &text) {
            Ok(l) => l,
            Err(e) => panic!("test level does not parse: {e}\n{text}"),
        }
    }

    /// An engine with this battle started under `ruleset` (no dice
    /// scripted).
    pub fn start_under(&self, ruleset: RulesetId) -> Engine {
        let mut e = engine();
        start_ruleset(&mut e, &self.level(), ruleset, &[]);
        e
    }

    /// An engine on the shipped assets with this battle started under the
    /// scenario's ruleset, with these dice first.
    pub fn start(&self, script: &[u32]) -> Engine {
        let mut e = engine();
        start_ruleset(&mut e, &self.level(), self.default_ruleset, script);
        e
    }
}

/// A two-faction UD10 level (red, blue) from map rows and combatant entries.
pub fn level(rows: &[&str], combatants: &[&str]) -> Level {
    level_with(rows, combatants, "")
}

/// As [`level`], with extra top-level fields (`visibility: Bad,`).
pub fn level_with(rows: &[&str], combatants: &[&str], extra: &str) -> Level {
    Scenario::ud10(rows).with(combatants).extra(extra).level()
}

/// The shipped level `levels/NAME.ron` played to its end under `ruleset`,
/// the AI on every side, from `seed`.
pub fn play_shipped(name: &str, ruleset: RulesetId, seed: u64) -> Engine {
    let mut engine = engine();
    start_shipped(&mut engine, name, ruleset, seed, Controls::AllAi);
    engine.run(1_000_000);
    engine
}

/// Start the shipped level `levels/NAME.ron` in `engine` under `ruleset`
/// from `seed`, with `control` playing its factions.
pub fn start_shipped(
    engine: &mut Engine,
    name: &str,
    ruleset: RulesetId,
    seed: u64,
    control: Controls,
) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("levels/{name}.ron"));
    let level = match crate::data::level::load_level(&path) {
        Ok(l) => l,
        Err(e) => panic!("{name} does not load: {e}"),
    };
    let opts = StartOptions {
        seed,
        script: Vec::new(),
        control,
    };
    if let Err(e) = engine.start(&level, ruleset, &opts) {
        panic!("battle does not start: {e}");
    }
}

/// Start a ud10 battle where humans (the test) control both sides.
pub fn start(engine: &mut Engine, level: &Level, script: &[u32]) {
    start_ruleset(engine, level, crate::rulesets::ud10::ID, script);
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
pub fn cmd(engine: &mut Engine, actor: Cid, command: impl Into<Command>) {
    let command = command.into();
    engine.send(actor, command.clone());
    engine.step();
    if let Some(r) = engine.rejection() {
        panic!("{command:?} by {actor:?} refused: {r}");
    }
}

/// Send a command that must be refused; returns the reason.
pub fn refused(engine: &mut Engine, actor: Cid, command: impl Into<Command>) -> String {
    let command = command.into();
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

/// A combatant's health.
pub fn hp(e: &Engine, c: Cid) -> i32 {
    view::get::<Health>(e.world(), c).map_or(-99, |h| h.hp)
}

/// Set a combatant's health, as a scenario needs it (not a rule's doing).
pub fn set_hp(e: &mut Engine, c: Cid, hp: i32) {
    let ent = view::entity(e.world(), c).expect("a combatant");
    e.world_mut().get_mut::<Health>(ent).expect("health").hp = hp;
}

/// Give a combatant a condition, as a scenario needs it.
pub fn set_condition(e: &mut Engine, c: Cid, cond: Condition) {
    e.world_mut()
        .resource_mut::<crate::rules::roster::Roster>()
        .update_place(c, |p| p.conditions.insert(cond))
        .expect("a combatant");
}

/// Whether a combatant has a condition.
pub fn has(e: &Engine, c: Cid, cond: Condition) -> bool {
    view::conditions(e.world(), c).has(cond)
}

/// A combatant's cell.
pub fn at(e: &Engine, c: Cid) -> Cell {
    view::cell(e.world(), c).unwrap_or(Cell::new(-1, -1))
}
