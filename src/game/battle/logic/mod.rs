//! The battle screen's logic, free of rendering so tests can drive it with
//! `MinimalPlugins`: it starts the battle, turns the player's intents into
//! commands for the rules core, steps the battle when an AI is to act (at
//! the speed the player sets), and moves on to the results.

use std::collections::BTreeMap;

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, CommandMsg};
use crate::rules::components::{Cid, Condition, Controller, Loadout, MoveMode};
use crate::rules::engine::{Controls, StartOptions, start_battle, waiting_for_human};
use crate::rules::hooks::{ActiveRuleset, Give, Offer, Offers, Preview};
use crate::rules::log::BattleLog;
use crate::rules::map::Cell;
use crate::rules::roster::Roster;
use crate::rules::view;

use crate::game::AppSystems;
use crate::game::session::{Screen, Session, Speed};

/// What the player's pointer does on the map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Click a cell to move there; click an enemy to attack it with the
    /// weapon in hand.
    #[default]
    Move,
    /// Click a target to attack with this weapon and firing mode.
    Attack { weapon: usize, mode: usize },
    /// One of the ruleset's board tools, by the name its offers give
    /// ("Aim (G)", "Shove"): click one of the combatants or cells they
    /// name.
    Offer(String),
}

/// Something the player did, before it becomes a command.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum UiIntent {
    /// The pointer is over this cell (or off the map).
    Hover(Option<Cell>),
    /// The primary button on a cell.
    Click(Cell),
    /// Pick a tool.
    Tool(Tool),
    /// A command from a button (end turn, reload, parry, ...).
    Command(Command),
    /// The n-th reaction of [`reaction_choices`] (keys 1, 2, 3, ...).
    React(usize),
    /// Show this combatant's sheet.
    Select(Option<Cid>),
    /// On a cell where a rider sits on its mount, strike the mount (true)
    /// or the rider.
    StrikeMounts(bool),
    /// Ask before sending this command (one that gives up a character's
    /// part in the battle: surrender, flight); none: the question is
    /// dropped.
    AskFirst(Option<Command>),
}

/// Pacing of the battle: GM preview controls and animation speed.
#[derive(Resource, Clone, Debug, Default)]
pub struct Pacing {
    /// GM preview paused: no AI step until resumed or stepped.
    pub paused: bool,
    /// Run one AI action, then pause again.
    pub step_once: bool,
    pub speed: Speed,
    /// The pause menu is open.
    pub menu: bool,
    /// Open the pause menu when the next battle starts (`--show menu`).
    pub menu_on_start: bool,
}

/// How far the view has played the battle log. The logic waits while the
/// view is busy animating; without a view it is never busy.
#[derive(Resource, Clone, Debug, Default)]
pub struct Playback {
    /// Seconds of animation still to play.
    pub busy: f32,
    /// Frames to wait after the battle ends before the results.
    pub linger: f32,
}

/// The options of the human whose prompt is up, computed by the ruleset.
#[derive(Clone, Debug, Default)]
pub struct TurnOptions {
    pub actor: Option<Cid>,
    pub legal: Vec<Command>,
    /// Reachable cells: the move there and the kind of movement it makes.
    pub moves: BTreeMap<Cell, (Vec<Cell>, MoveMode)>,
    /// How the ruleset offers its own commands among `legal`.
    pub offers: Offers,
}

impl TurnOptions {
    /// The offers of the board tool `name`.
    pub fn tool_offers<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Offer> + 'a {
        self.offers
            .list
            .iter()
            .filter(move |o| o.label == name && matches!(o.give, Give::On(_) | Give::At { .. }))
    }
}

/// The player's state on the battle screen.
#[derive(Resource, Clone, Debug, Default)]
pub struct TurnUi {
    pub tool: Tool,
    pub hover: Option<Cell>,
    pub selected: Option<Cid>,
    pub options: TurnOptions,
    /// On a cell where a rider sits on its mount, a click strikes the mount
    /// rather than the rider.
    pub strike_mounts: bool,
    /// A command that gives up a character's part, waiting for the player
    /// to confirm it.
    pub confirm: Option<Command>,
    /// The prompt and log length the options were computed for.
    key: Option<(Prompt, usize)>,
}

impl TurnUi {
    /// Are the options laid out for the battle as it is now (its prompt and
    /// log)?
    pub fn is_current(&self, world: &World) -> bool {
        let prompt = world.resource::<Battle>().prompt;
        let len = world.resource::<BattleLog>().events.len();
        self.key == Some((prompt, len))
    }

    /// The command a click on `cell` would send now, if any.
    pub fn command_at(&self, world: &World, cell: Cell) -> Option<Command> {
        let actor = self.options.actor?;
        // A click with the plain pointer on a character the ruleset lets
        // the player pick (who takes the faction's turn, say) picks it; a
        // board tool in hand clicks for its own offers.
        if self.tool == Tool::Move {
            for o in &self.options.offers.list {
                if let Give::Click(who) = o.give
                    && view::cell(world, who) == Some(cell)
                {
                    return Some(o.command.clone());
                }
            }
        }
        let target = target_at(world, cell, actor, self.strike_mounts);
        match (&self.tool, target) {
            (Tool::Move, Some(t)) => {
                let weapon = view::get::<Loadout>(world, actor)?.ready?;
                Some(Command::Attack {
                    target: t,
                    weapon,
                    mode: 0,
                })
            }
            (Tool::Attack { weapon, mode }, Some(t)) => Some(Command::Attack {
                target: t,
                weapon: *weapon,
                mode: *mode,
            }),
            (Tool::Offer(name), _) => self
                .options
                .tool_offers(name)
                .find(|o| match &o.give {
                    Give::On(who) => Some(*who) == target,
                    Give::At { cell: c, .. } => *c == cell,
                    _ => false,
                })
                .map(|o| o.command.clone()),
            (Tool::Move, None) => self
                .options
                .moves
                .get(&cell)
                .map(|(p, _)| Command::Move { path: p.clone() }),
            _ => None,
        }
        // An attack the rules refuse is sent anyway, so the player reads why.
        .filter(|c| self.options.legal.contains(c) || matches!(c, Command::Attack { .. }))
    }
}

/// The enemy of `actor` a click on `cell` aims at: where a rider sits on its
/// mount, the rider (or the mount, with `mounts`).
pub fn target_at(world: &World, cell: Cell, actor: Cid, mounts: bool) -> Option<Cid> {
    let mine = view::faction(world, actor);
    let here: Vec<Cid> = view::standing_all(world)
        .into_iter()
        .filter(|c| view::cell(world, *c) == Some(cell) && view::faction(world, *c) != mine)
        .collect();
    let rider = here.iter().find(|c| view::riding(world, **c).is_some());
    let mount = here.iter().find(|c| view::riding(world, **c).is_none());
    match (rider, mount) {
        (Some(r), Some(m)) => Some(if mounts { *m } else { *r }),
        (r, m) => r.or(m).copied(),
    }
}

/// The ruleset's preview of a command by the prompted actor. A move that
/// ends where a fallen combatant lies says so: the fallen do not hold their
/// cells (every ruleset's docs say why).
pub fn preview(world: &World, command: &Command) -> Option<Preview> {
    let actor = world.resource::<Battle>().prompt.actor()?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    let mut p = (hooks.preview)(world, actor, command);
    if let Command::Move { path } = command
        && let Some(last) = path.last()
    {
        let roster = world.resource::<Roster>();
        let fallen: Vec<&str> = roster
            .cids()
            .filter(|c| {
                *c != actor
                    && roster.place(*c).is_some_and(|pl| {
                        pl.cell == *last
                            && pl.conditions.out_of_fight()
                            && !pl.conditions.has(Condition::Fled)
                    })
            })
            .map(|c| roster.name(c))
            .collect();
        if !fallen.is_empty() {
            p.lines.push(format!(
                "ends over the fallen {} (the fallen do not hold their cells)",
                fallen.join(" and ")
            ));
        }
    }
    Some(p)
}

/// The answers to a human's reaction prompt, in the order the dialog
/// numbers them: the ruleset's legal reactions, "no reaction" last.
pub fn reaction_choices(world: &World) -> Vec<Command> {
    let Some(actor) = human_actor(world) else {
        return Vec::new();
    };
    if !matches!(world.resource::<Battle>().prompt, Prompt::React { .. }) {
        return Vec::new();
    }
    let Some(hooks) = world.get_resource::<ActiveRuleset>().map(|h| h.0) else {
        return Vec::new();
    };
    let v: Vec<Command> = (hooks.legal_commands)(world, actor)
        .into_iter()
        .filter(|c| c.is_reaction() && *c != Command::NoReaction)
        .collect();
    // Answers of one kind together (every counter, every guard), the kinds
    // in the order the ruleset first gives them; letting it land last. The
    // dialog numbers them in this order, and the keys 1-9 follow it.
    let kinds: Vec<String> = v
        .iter()
        .map(|c| reaction_kind(&preview(world, c).unwrap_or_default().title))
        .collect();
    let mut grouped = grouped_by_kind(v, &kinds);
    grouped.push(Command::NoReaction);
    grouped
}

/// `items` with those of one kind together, the kinds in the order they
/// first come, each kind's items in their own order.
fn grouped_by_kind<T>(items: Vec<T>, kinds: &[String]) -> Vec<T> {
    let mut first_seen: Vec<&String> = Vec::new();
    for k in kinds {
        if !first_seen.contains(&k) {
            first_seen.push(k);
        }
    }
    let mut keyed: Vec<(usize, T)> = items
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            (
                first_seen.iter().position(|k| **k == kinds[i]).unwrap_or(0),
                x,
            )
        })
        .collect();
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().map(|(_, x)| x).collect()
}

/// The kind of a reaction, for grouping the dialog's answers: the first
/// word of its preview's title ("Counter", "Dodge", "Guard").
pub fn reaction_kind(title: &str) -> String {
    title
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_string()
}

/// The prompted actor, if a human must answer.
pub fn human_actor(world: &World) -> Option<Cid> {
    let actor = world.resource::<Battle>().prompt.actor()?;
    (view::get::<Controller>(world, actor) == Some(&Controller::Human)).then_some(actor)
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Pacing>()
        .init_resource::<Playback>()
        .init_resource::<TurnUi>()
        .add_message::<UiIntent>()
        .add_systems(OnEnter(Screen::Battle), start.in_set(AppSystems::Logic))
        .add_systems(
            Update,
            (refresh_options, handle_intents, drive, finish)
                .chain()
                .in_set(AppSystems::Logic)
                .run_if(in_state(Screen::Battle)),
        );
}

/// Set the battle up from the session.
pub fn start(world: &mut World) {
    let Some(session) = world.get_resource::<Session>().cloned() else {
        world.resource_mut::<NextState<Screen>>().set(Screen::Setup);
        return;
    };
    let opts = StartOptions {
        seed: session.seed,
        script: Vec::new(),
        control: Controls::PerFaction(session.controls.clone()),
    };
    if let Err(e) = start_battle(world, &session.level, session.ruleset, &opts) {
        error!("cannot start the battle: {e}");
        world.resource_mut::<NextState<Screen>>().set(Screen::Setup);
        return;
    }
    *world.resource_mut::<TurnUi>() = TurnUi::default();
    *world.resource_mut::<Playback>() = Playback::default();
    let mut pacing = world.resource_mut::<Pacing>();
    pacing.menu = std::mem::take(&mut pacing.menu_on_start);
    pacing.step_once = false;
    pacing.paused = false;
}

/// Recompute the human's options when the prompt or the battle changes.
fn refresh_options(world: &mut World) {
    let prompt = world.resource::<Battle>().prompt;
    let len = world.resource::<BattleLog>().events.len();
    if world.resource::<TurnUi>().key == Some((prompt, len)) {
        return;
    }
    let mut options = TurnOptions::default();
    if let Some(actor) = human_actor(world)
        && let Some(hooks) = world.get_resource::<ActiveRuleset>().map(|h| h.0)
    {
        options.actor = Some(actor);
        options.legal = (hooks.legal_commands)(world, actor);
        options.offers = (hooks.offers)(world, actor, &options.legal);
        for c in &options.legal {
            if let Command::Move { path } = c
                && let Some(&end) = path.last()
            {
                let mode = (hooks.preview)(world, actor, c)
                    .move_mode
                    .unwrap_or(MoveMode::Standard);
                options.moves.insert(end, (path.clone(), mode));
            }
        }
    }
    let mut ui = world.resource_mut::<TurnUi>();
    // A new turn starts with the plain tool, and the sheet follows whoever
    // acts now (under zones, the character the side has just activated).
    let activating = |p: Option<Prompt>| matches!(p, Some(Prompt::Activate { .. }));
    if ui.options.actor != options.actor
        || activating(ui.key.map(|k| k.0)) != activating(Some(prompt))
    {
        ui.tool = Tool::Move;
        ui.selected = None;
        ui.confirm = None;
    }
    ui.options = options;
    ui.key = Some((prompt, len));
}

/// Turn intents into commands.
fn handle_intents(world: &mut World) {
    let intents: Vec<UiIntent> = world.resource_mut::<Messages<UiIntent>>().drain().collect();
    for intent in intents {
        match intent {
            UiIntent::Hover(c) => world.resource_mut::<TurnUi>().hover = c,
            UiIntent::Tool(t) => world.resource_mut::<TurnUi>().tool = t,
            UiIntent::Select(c) => world.resource_mut::<TurnUi>().selected = c,
            UiIntent::StrikeMounts(b) => world.resource_mut::<TurnUi>().strike_mounts = b,
            UiIntent::AskFirst(c) => world.resource_mut::<TurnUi>().confirm = c,
            UiIntent::Click(cell) => {
                let ui = world.resource::<TurnUi>().clone();
                match ui.command_at(world, cell) {
                    Some(command) => {
                        // A board tool is used once: the pointer moves and
                        // attacks again.
                        if matches!(ui.tool, Tool::Offer(_)) {
                            world.resource_mut::<TurnUi>().tool = Tool::Move;
                        }
                        send(world, command);
                    }
                    None => {
                        // Not an action: show whoever stands there.
                        let who = view::all(world)
                            .into_iter()
                            .find(|c| view::cell(world, *c) == Some(cell));
                        if who.is_some() {
                            world.resource_mut::<TurnUi>().selected = who;
                        }
                    }
                }
            }
            UiIntent::Command(command) => {
                world.resource_mut::<TurnUi>().confirm = None;
                send(world, command);
            }
            UiIntent::React(i) => {
                if let Some(c) = reaction_choices(world).get(i).cloned() {
                    send(world, c);
                }
            }
        }
    }
}

/// Send a command for the prompted human and resolve it at once.
fn send(world: &mut World, command: Command) {
    let Some(actor) = human_actor(world) else {
        return;
    };
    if matches!(command, Command::Move { .. } | Command::Attack { .. }) {
        world.resource_mut::<TurnUi>().tool = Tool::Move;
    }
    world.write_message(CommandMsg { actor, command });
    crate::rules::engine::step(world);
}

/// Step the battle when an AI (or the ruleset) is to act.
fn drive(world: &mut World) {
    let pacing = world.resource::<Pacing>().clone();
    if pacing.menu || world.resource::<Battle>().is_over() {
        return;
    }
    if world.resource::<Playback>().busy > 0.0 {
        return;
    }
    if waiting_for_human(world) {
        return;
    }
    if pacing.paused && !pacing.step_once {
        return;
    }
    if pacing.speed == Speed::Instant && !pacing.step_once {
        crate::rules::engine::run(world, 100_000);
    } else {
        // One action: step until a command is accepted, a human must answer,
        // or the battle ends.
        let before = world.resource::<BattleLog>().commands.len();
        for _ in 0..10_000 {
            crate::rules::engine::step(world);
            let b = world.resource::<Battle>();
            if b.is_over()
                || world.resource::<BattleLog>().commands.len() > before
                || waiting_for_human(world)
            {
                break;
            }
        }
    }
    world.resource_mut::<Pacing>().step_once = false;
}

/// To the results once the battle is over and the view has shown it.
fn finish(world: &mut World) {
    if !world.resource::<Battle>().is_over() || world.resource::<Playback>().busy > 0.0 {
        return;
    }
    let dt = world
        .get_resource::<Time>()
        .map_or(1.0, |t| t.delta_secs().max(1.0 / 240.0));
    let mut pb = world.resource_mut::<Playback>();
    pb.linger += dt;
    if pb.linger >= 1.5 || world.resource::<Pacing>().speed == Speed::Instant {
        world
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Results);
    }
}

#[cfg(test)]
mod tests;
