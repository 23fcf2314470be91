//! The battle as a whole: which ruleset, which round and phase, what the battle
//! waits for (the prompt), the factions, the roster and the log.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use serde::Serialize;

use crate::rules::command::{Command, CommandMsg, Illegal};
use crate::rules::components::{Cid, Conditions, Controller, Size, Steed, Weapon};
use crate::rules::event::{BattleEvent, EndReason};
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

/// One faction of the battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Faction {
    pub id: String,
    pub name: String,
    pub colour: [u8; 3],
    pub control: Controller,
    pub starts_fight: bool,
}

/// All factions, indexed by [`crate::rules::components::FactionId`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Factions(pub Vec<Faction>);

/// Combatant ids to entities and names, in spawn order, and each one's
/// [`Place`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Roster {
    pub entities: Vec<Entity>,
    pub names: Vec<String>,
    /// Each combatant's faction: set when it joins the roster, never
    /// changed.
    pub factions: Vec<u8>,
    places: Vec<Place>,
    /// Who stands ([`Roster::standing`]) and who belongs to each faction
    /// ([`Roster::members`]), a bit per combatant: the AI asks a
    /// combatant's standing enemies or allies thousands of times a battle,
    /// and a row of bits answers without walking every place. Row 0 is
    /// the standing, row `1 + f` faction `f`'s members, each
    /// [`Roster::words`] long; kept with the places by
    /// [`Roster::update_place`] and [`Roster::push`], the only ways to
    /// change them.
    bits: smallvec::SmallVec<[u64; 8]>,
}

/// Where a combatant stands, what has befallen it, what it rides and
/// whether it can be ridden: what nearly every rule, check and AI weighing
/// asks of every combatant, kept in the roster by [`Cid`] rather than on
/// the entities, so that one look-up reads it. The battle's only copy:
/// only [`apply`](crate::rules::apply) changes it, after the spawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub cell: Cell,
    pub conditions: Conditions,
    /// The mount or vehicle it rides (zones §Mounts and vehicles in
    /// combat): a rider shares its mount's cell and moves with it.
    pub riding: Option<Cid>,
    /// A mount or vehicle: others can ride it. Never changes.
    pub steed: Option<Steed>,
    /// Its size, as the ruleset's data gives it. Never changes.
    pub size: Size,
    /// Who holds it in a grab, if anyone.
    pub held_by: Option<Cid>,
}

impl Roster {
    /// A combatant's place.
    pub fn place(&self, cid: Cid) -> Option<&Place> {
        self.places.get(cid.0 as usize)
    }
    /// Every combatant's place, in roster order.
    pub fn places(&self) -> &[Place] {
        &self.places
    }
    /// Change a combatant's place: for [`apply`](crate::rules::apply)
    /// and the spawn (and tests setting a scene up), nothing else. `None`
    /// when there is no such combatant.
    pub(crate) fn update_place<T>(
        &mut self,
        cid: Cid,
        f: impl FnOnce(&mut Place) -> T,
    ) -> Option<T> {
        let i = cid.0 as usize;
        let answer = f(self.places.get_mut(i)?);
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if self.places[i].conditions.out_of_fight() {
            self.bits[word] &= !bit;
        } else {
            self.bits[word] |= bit;
        }
        Some(answer)
    }
    /// Adds the next combatant: its entity, name, faction and place.
    pub(crate) fn push(&mut self, entity: Entity, name: String, faction: u8, place: Place) {
        self.entities.push(entity);
        self.names.push(name);
        self.factions.push(faction);
        self.places.push(place);
        // Made again whole: the rows grow a word every 64 combatants, and
        // a roster is made once a battle (a batch restores it).
        let words = self.words();
        let rows = 1 + self
            .factions
            .iter()
            .map(|&f| usize::from(f) + 1)
            .max()
            .unwrap_or(0);
        self.bits = smallvec::smallvec![0; rows * words];
        for (i, (p, &f)) in self.places.iter().zip(&self.factions).enumerate() {
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            if !p.conditions.out_of_fight() {
                self.bits[word] |= bit;
            }
            self.bits[(1 + usize::from(f)) * words + word] |= bit;
        }
    }
    /// How many `u64` words a row of [`Roster::standing`] or
    /// [`Roster::members`] holds: a bit per combatant.
    pub fn words(&self) -> usize {
        self.places.len().div_ceil(64)
    }
    /// Who stands (is not [out of the fight](Conditions::out_of_fight)):
    /// bit `i % 64` of word `i / 64` for combatant `i`.
    pub fn standing(&self) -> &[u64] {
        &self.bits[..self.words()]
    }
    /// Faction `f`'s combatants, standing or not, as [`Roster::standing`]
    /// gives them; none for a faction no combatant is of.
    pub fn members(&self, f: u8) -> &[u64] {
        let words = self.words();
        let start = (1 + usize::from(f)) * words;
        self.bits.get(start..start + words).unwrap_or(&[])
    }
    pub fn entity(&self, cid: Cid) -> Option<Entity> {
        self.entities.get(cid.0 as usize).copied()
    }
    pub fn name(&self, cid: Cid) -> &str {
        self.names.get(cid.0 as usize).map_or("?", |s| s.as_str())
    }
    pub fn cids(&self) -> impl Iterator<Item = Cid> + '_ {
        (0..self.entities.len()).map(|i| Cid(i as u16))
    }
    pub fn len(&self) -> usize {
        self.entities.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }
}

/// Weapons lying on the ground (dropped when disarmed), where they lie, in
/// the order they fell.
#[derive(Resource, Clone, Debug, Default)]
pub struct Ground(pub Vec<(Cell, Weapon)>);

/// Every event of the battle, in order, and every accepted command. Only
/// ever appended to (by `apply::emit` and the resolve step).
#[derive(Resource)]
pub struct BattleLog {
    pub events: Vec<BattleEvent>,
    pub commands: Vec<CommandMsg>,
    /// The fork snapshot this log was last restored from (its id), if the
    /// log has only been appended to since: its start is then that
    /// snapshot's log, and restoring the same snapshot again only cuts the
    /// log back (a playout restores one snapshot thousands of times). Not
    /// part of the log's value: a copy makes no such claim.
    pub(crate) restored_from: Option<u64>,
    /// The world's change tick when it was last restored from that
    /// snapshot: what has not changed since still holds the snapshot's
    /// value, and a restore of the same snapshot leaves it be.
    pub(crate) restored_at: Option<bevy::ecs::change_detection::Tick>,
    /// Which battle this log is of: a number no other log has had, given
    /// afresh whenever a battle is set up or restored ([`BattleLog::renew`]),
    /// as its events then start again from another state.
    pub(crate) serial: u64,
}

/// Where a battle stands: its log (by [`BattleLog`]'s serial) and how many
/// events it holds. Between a battle's setting up or restoring and the
/// next, its state is a function of its events, which are only appended:
/// two equal moments are one state, and an AI may keep an answer worked
/// out at one moment for the same question at the same moment, or at a
/// later one it knows the events between do not bear on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    serial: u64,
    events: usize,
}

impl Moment {
    /// The moment `n` events later in the same battle.
    pub fn later(self, n: usize) -> Moment {
        Moment {
            serial: self.serial,
            events: self.events + n,
        }
    }

    /// How many events the log held.
    pub fn events(self) -> usize {
        self.events
    }
}

/// The serials of logs: shared by every thread, never given twice.
static LOG_SERIALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl BattleLog {
    /// Where the battle stands now.
    pub fn moment(&self) -> Moment {
        Moment {
            serial: self.serial,
            events: self.events.len(),
        }
    }

    /// Another battle, or the same one restored: a serial of its own, so
    /// that no moment before it equals one after.
    pub(crate) fn renew(&mut self) {
        self.serial = LOG_SERIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Default for BattleLog {
    fn default() -> BattleLog {
        let mut log = BattleLog {
            events: Vec::new(),
            commands: Vec::new(),
            restored_from: None,
            restored_at: None,
            serial: 0,
        };
        log.renew();
        log
    }
}

impl Clone for BattleLog {
    /// A copy is a log of its own (its serial too).
    fn clone(&self) -> BattleLog {
        BattleLog {
            events: self.events.clone(),
            commands: self.commands.clone(),
            ..Default::default()
        }
    }
}

impl std::fmt::Debug for BattleLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BattleLog")
            .field("events", &self.events)
            .field("commands", &self.commands)
            .finish()
    }
}

/// The last command the battle refused, and why (for the UI).
#[derive(Resource, Clone, Debug, Default)]
pub struct LastRejection(pub Option<(CommandMsg, Illegal)>);

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
pub struct ActiveRuleset(pub RulesetHooks);

impl std::fmt::Debug for ActiveRuleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ActiveRuleset({})", self.0.id)
    }
}

/// Every ruleset the app knows, registered by the ruleset plugins.
#[derive(Resource, Default, Clone)]
pub struct RulesetRegistry(pub Vec<RulesetHooks>);

impl RulesetRegistry {
    pub fn get(&self, id: RulesetId) -> Option<RulesetHooks> {
        self.0.iter().find(|h| h.id == id).copied()
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
