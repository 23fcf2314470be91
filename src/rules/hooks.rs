//! What a ruleset gives the core, the AI and the game ([`RulesetHooks`]),
//! the ruleset in force, and the registry of every ruleset the app knows.

use bevy::prelude::*;

use crate::rules::battle::RulesetId;
use crate::rules::command::{Command, Illegal};
use crate::rules::components::Cid;
use crate::rules::map::Cell;

/// One figure `fray audit` counts: a short name and what it counts.
#[derive(Clone, Copy, Debug)]
pub struct AuditFigure {
    pub name: &'static str,
    pub counts: &'static str,
    /// The figure this one is a part of (shown as a share of it).
    pub of: Option<&'static str>,
}

/// The hooks a ruleset gives the core, the AI and the UI: one legality check,
/// the list of legal commands, and its tactical AI.
#[derive(Clone, Copy)]
pub struct RulesetHooks {
    pub id: RulesetId,
    /// Is this command legal for this actor now?
    pub check: fn(&World, Cid, &Command) -> Result<(), Illegal>,
    /// A representative list of legal commands for the actor now (every
    /// distinct kind of command, with moves to every reachable cell).
    pub legal_commands: fn(&World, Cid) -> Vec<Command>,
    /// The ruleset's tactical AI: the command it chooses for the actor now.
    pub decide: fn(&World, Cid) -> Command,
    /// [`RulesetHooks::decide`], with the legality check's answer on the
    /// command when the AI asked it (the core's decide takes it).
    pub decision: fn(&World, Cid) -> crate::rules::command::Decision,
    /// One of the ruleset's own commands, from the JSON it serialises to
    /// (`fray versus` sends commands between two builds so).
    pub parse_own: fn(serde_json::Value) -> Result<Command, String>,
    /// Check and execute the commands sent since the last step (the
    /// step's [`BattleSet::Resolve`]), the first with the verdict the
    /// step's AI reached for it, if any.
    pub resolve: fn(&mut World, Option<crate::rules::command::Verdict>),
    /// Move the round on when nobody is to act (the step's
    /// [`BattleSet::Advance`]).
    pub advance: fn(&mut World),
    /// Read the ruleset's data from `assets/rulesets/` into the world.
    pub load: fn(&mut World, &std::path::Path) -> Result<(), crate::rules::error::DataError>,
    /// Read and check one data folder of the ruleset (`fray check`).
    pub check_data: fn(&std::path::Path) -> Result<(), crate::rules::error::DataError>,
    /// Can the level be played under the ruleset? (Each combatant's
    /// archetype, stats and gear, the riders' mounts, the level as a whole;
    /// errors point into the level's file.)
    pub validate:
        fn(&World, &crate::rules::level::Level) -> Result<(), crate::rules::error::DataError>,
    /// Give a freshly spawned combatant the ruleset's components.
    pub equip: fn(
        &mut World,
        Entity,
        &crate::rules::level::CombatantDef,
    ) -> Result<(), crate::rules::error::DefError>,
    /// Add the ruleset to an app (its resources, these hooks, what a fork
    /// copies): an engine like another is built from these.
    pub plugin: fn(&mut App),
    /// Clear the ruleset's per-battle state.
    pub reset: fn(&mut World),
    /// Change one of the ruleset's settings (`key=value`).
    pub configure: fn(&mut World, &str, &str) -> Result<(), String>,
    /// What a command would do, in the rules' own numbers, for the UI to
    /// show before the player commits (chance, damage range, modifiers).
    pub preview: fn(&World, Cid, &Command) -> Preview,
    /// The combatant's sheet: the ruleset's stat block as labelled lines.
    pub sheet: fn(&World, Cid) -> Vec<(String, String)>,
    /// What a row of the sheet means (its label given), for its tooltip.
    pub sheet_tip: fn(&World, Cid, &str) -> Option<String>,
    /// What the ruleset's own state takes from an event, after the core has
    /// applied what every ruleset shares (one of the only writers of state,
    /// with the core's `apply`).
    pub apply: fn(&mut World, &crate::rules::event::BattleEvent),
    /// What the ruleset does once the battle has ended (its events follow
    /// `BattleEnded` in the log).
    pub aftermath: fn(&mut World),
    /// What the results screen says of a combatant after the fight, beyond
    /// its health and fate (worn gear, say).
    pub after_note: fn(&World, Cid) -> Option<String>,
    /// How the game offers the ruleset's own commands among the actor's
    /// legal ones (labels, buttons, board tools, keys).
    pub offers: fn(&World, Cid, &[Command]) -> Offers,
    /// What `fray audit` counts of the AI's play under the ruleset.
    pub audit_figures: &'static [AuditFigure],
    /// The ruleset's own keys and prompts for the game's help overlay.
    pub help: &'static [(&'static str, &'static str)],
    /// How a round goes under the ruleset, a line a step, for a player who
    /// has not read its text (the game's primer on a battle's first round,
    /// and its help).
    pub round: &'static [&'static str],
    /// Whether the way a combatant faces matters under the ruleset (the
    /// board then shows it on every token).
    pub facing: bool,
    /// What a kind of ground means under the ruleset (cover, cost to
    /// cross), for the board's hover; none for plain ground.
    pub terrain_note: fn(&World, crate::rules::map::Terrain) -> Option<String>,
    /// Count the AI's play in the events of the step just run (from the
    /// index given), one count per figure.
    pub audit: fn(&World, usize, &mut [u64]),
    /// Where in its round the battle is, beyond the round's number, for
    /// the top bar ("Movement", "Actions: DEX rank 12").
    pub round_note: fn(&World) -> Option<String>,
    /// A word on a combatant for its row of the turn order (its rank, what
    /// it has stated): a short one for the row, a longer one for its
    /// tooltip.
    pub order_note: fn(&World, Cid) -> Option<(String, String)>,
    /// Whom a combatant has said it will attack this round (a statement of
    /// intent), for the board to draw.
    pub aims_at: fn(&World, Cid) -> Option<Cid>,
}

/// How the game offers a ruleset's own legal commands at the current
/// prompt: the ruleset names them and says how each is given; the game
/// shows them and sends them, and names no ruleset. (The core's shared
/// commands, move, attack, draw, flee, end the turn, dodge and let it land,
/// the game offers by itself.)
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Offers {
    pub list: Vec<Offer>,
    /// At a reaction prompt that is not about an ordinary attack: the
    /// dialog's title and question ("An enemy moves away!", "... Strike as
    /// it goes?").
    pub reaction: Option<(String, String)>,
    /// A line of advice the action bar shows under the offers.
    pub hint: Option<String>,
}

/// One of a ruleset's own commands, as the game offers it.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    pub command: Command,
    /// The button's label, or the name of the board tool it belongs to
    /// (offers with the same tool name make one tool).
    pub label: String,
    pub give: Give,
    /// The key that gives it, or picks its tool.
    pub key: Option<OfferKey>,
}

/// How the player gives an offered command.
#[derive(Clone, Debug, PartialEq)]
pub enum Give {
    /// A button in the action bar.
    Button,
    /// A button set apart at the end of the bar, beside the end of the
    /// turn: a choice that gives up more than a turn (surrender).
    Apart,
    /// A button, or a click on this combatant with the plain pointer.
    Click(Cid),
    /// The board tool named by the label, then a click on this combatant.
    On(Cid),
    /// The board tool named by the label, then a click on this cell; `path`
    /// is the way there, drawn under the pointer.
    At { cell: Cell, path: Vec<Cell> },
}

/// The keys a ruleset may give its offers. Letters are for the ruleset
/// (the game keeps W, A, S, D, C, E, F, P and Z for itself); `EndTurn` is
/// the end-turn key, for a prompt where a turn cannot be ended (passing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKey {
    Letter(char),
    EndTurn,
}

/// A ruleset's account of a command before it is sent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Preview {
    /// One line: "Attack Blue archer with the Longsword".
    pub title: String,
    /// Chance of success (to hit, to parry), if the command rolls.
    pub chance: Option<f64>,
    /// Range of HP the target loses on a success, before exploding dice.
    pub damage: Option<(i32, i32)>,
    /// Every number that goes into it, by name.
    pub lines: Vec<String>,
    /// Why the command is illegal now, if it is.
    pub illegal: Option<String>,
    /// For a move: the kind of movement it makes.
    pub move_mode: Option<crate::rules::components::MoveMode>,
    /// Cells the command sends someone to, to mark on the board (where a
    /// shoved target lands).
    pub lands: Vec<Cell>,
    /// For an answer to an attack: what the blow does to the one it hits if
    /// it lands, in one line ("If the blow lands: 3-12 HP, 40% to take
    /// Theobald out"), said above the answers.
    pub stakes: Option<String>,
}

/// The hooks of the ruleset in force.
#[derive(Resource, Clone, Copy)]
pub struct ActiveRuleset(pub &'static RulesetHooks);

impl std::fmt::Debug for ActiveRuleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ActiveRuleset({})", self.0.id)
    }
}

/// Every ruleset the app knows, registered by the ruleset plugins.
#[derive(Resource, Default, Clone)]
pub struct RulesetRegistry(pub Vec<&'static RulesetHooks>);

impl RulesetRegistry {
    pub fn get(&self, id: RulesetId) -> Option<&'static RulesetHooks> {
        self.0.iter().find(|h| h.id == id).copied()
    }
}
