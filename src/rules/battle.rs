//! The battle as a whole: which ruleset, which round and phase, what the
//! battle waits for (the prompt), the weapons on the ground, the victory
//! condition, and the step's schedule. Who fights is `roster.rs`, what
//! happened `log.rs`, what a ruleset gives the core `hooks.rs`.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use serde::Serialize;

use crate::rules::components::{Cid, Weapon};
use crate::rules::event::EndReason;
use crate::rules::map::Cell;

/// A ruleset's id, as levels, settings folders and the command line name it
/// (`"ud10"`). Each ruleset folder defines its own (`rulesets::ud10::ID`);
/// `rulesets::KNOWN` lists them. The core names none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct RulesetId(pub &'static str);

impl RulesetId {
    pub fn id(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Display for RulesetId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Where in its round the battle is. A ruleset uses the subset it needs
/// (see docs/rounds.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum Phase {
    #[default]
    Setup,
    RoundStart,
    Intent,
    Movement,
    Actions,
    Resolution,
    Countdown(u8),
    Segment(i8),
    Activation,
    RoundEnd,
    Over,
}

/// What the battle waits for. Each prompt is answered by one command from the
/// controller of the combatant (or faction) it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
pub enum Prompt {
    /// Nothing: the ruleset advances by itself.
    #[default]
    None,
    /// The actor's turn: commands until `EndTurn`.
    Act { actor: Cid },
    /// A reaction to an attack by `attacker` (or, for an opportunity
    /// attack, to `attacker` moving away).
    React { actor: Cid, attacker: Cid },
    /// Alternating activation: the faction chooses which of its characters
    /// takes a turn, or passes. `speaker` is the member who answers for the
    /// faction (its first standing member); its controller decides.
    Activate { faction: u8, speaker: Cid },
}

impl Prompt {
    /// The combatant whose controller must answer.
    pub fn actor(self) -> Option<Cid> {
        match self {
            Prompt::None => None,
            Prompt::Act { actor } | Prompt::React { actor, .. } => Some(actor),
            Prompt::Activate { speaker, .. } => Some(speaker),
        }
    }
}

/// The final result of a battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Winning faction index, `None` for a draw.
    pub winner: Option<u8>,
    pub reason: EndReason,
    pub rounds: u32,
}

/// The state of the battle as a whole.
#[derive(Resource, Clone, Debug, Default)]
pub struct Battle {
    pub ruleset: Option<RulesetId>,
    pub round: u32,
    pub rounds_completed: u32,
    /// The last completed round the level's victory condition was judged
    /// on (round-based conditions are judged once a round).
    pub judged: u32,
    pub phase: Phase,
    pub prompt: Prompt,
    pub outcome: Option<Outcome>,
    pub seed: u64,
    /// Schedule runs so far (a guard against a ruleset that never advances).
    pub steps: u64,
}

impl Battle {
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
}

/// Weapons lying on the ground (dropped when disarmed), where they lie, in
/// the order they fell.
#[derive(Resource, Clone, Debug, Default)]
pub struct Ground(pub Vec<(Cell, Weapon)>);

/// The victory condition in force, resolved to indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VictoryRule {
    LastStanding,
    Survive {
        faction: u8,
        rounds: u32,
    },
    HoldZone {
        faction: u8,
        zone: usize,
        rounds: u32,
    },
}

/// Battle-wide settings from the level.
#[derive(Resource, Clone, Debug)]
pub struct BattleRules {
    pub level: String,
    pub victory: VictoryRule,
    pub max_rounds: u32,
    /// Bad visibility (fog, night).
    pub bad_visibility: bool,
    /// Complete darkness (zones: nobody is visible).
    pub dark: bool,
    /// Consecutive completed rounds the holding faction has held its zone.
    pub held_rounds: u32,
}

impl Default for BattleRules {
    fn default() -> Self {
        BattleRules {
            level: String::new(),
            victory: VictoryRule::LastStanding,
            max_rounds: 100,
            bad_visibility: false,
            dark: false,
            held_rounds: 0,
        }
    }
}

/// The schedule that advances a battle by one step.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BattleStep;

/// The order of a battle step (one system, `rules::battle_step`, runs
/// them in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BattleSet {
    /// AI controllers answer the current prompt.
    Decide,
    /// The ruleset checks and executes commands.
    Resolve,
    /// The ruleset moves the round forward when nothing is prompted.
    Advance,
    /// The core checks the victory condition.
    Victory,
}
