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
mod tests {
    //! The battle screen driven without a window (`MinimalPlugins` +
    //! `StatesPlugin`): a human's clicks become the right commands, and an
    //! all-AI battle runs from setup to the results.

    use bevy::prelude::*;

    use super::*;
    use crate::game::session::{Screen, Session, Speed};
    use crate::rules::command::Command;
    use crate::rules::components::Controller;
    use crate::rules::log::BattleLog;

    /// The reaction dialog's answers come grouped by kind, the kinds in the
    /// ruleset's order ("Counter: Shove ..." is a counter like "Counter
    /// East swordsman with the Sword").
    #[test]
    fn reactions_are_grouped_by_kind() {
        let titles = [
            "Dodge: AGI save under 11",
            "Counter East swordsman with the Sword",
            "Guard Theobald",
            "Counter: Shove East swordsman",
            "Hide behind Sybilla",
            "Guard Sybilla",
        ];
        let kinds: Vec<String> = titles.iter().map(|t| reaction_kind(t)).collect();
        assert_eq!(kinds[3], "Counter");
        let order = grouped_by_kind((0..titles.len()).collect(), &kinds);
        assert_eq!(order, vec![0, 1, 3, 2, 5, 4]);
    }

    /// A move that ends where a fallen enemy lies says it steps over the
    /// body (the fallen hold no cell); one that ends on open ground does not.
    #[test]
    fn a_move_onto_a_fallen_enemy_says_so() {
        use crate::rules::components::Condition;
        use crate::testkit::{cid, engine, set_condition, start};
        let l = level(
            &["......", "......"],
            &[
                r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "A")"#,
                r#"(archetype: "swordsman", faction: "blue", at: (2, 0), name: "B")"#,
                r#"(archetype: "swordsman", faction: "blue", at: (5, 1), name: "C")"#,
            ],
        );
        let mut e = engine();
        start(&mut e, &l, &[10, 1, 1]);
        let b = cid(&e, "B");
        set_condition(&mut e, b, Condition::Dead);
        let lines = |e: &crate::rules::engine::Engine, to: Cell| {
            preview(
                e.world(),
                &Command::Move {
                    path: vec![Cell::new(1, 0), to],
                },
            )
            .expect("a preview")
            .lines
        };
        let onto = lines(&e, Cell::new(2, 0));
        assert!(
            onto.iter()
                .any(|l| l == "ends over the fallen B (the fallen do not hold their cells)"),
            "{onto:?}"
        );
        assert!(
            !lines(&e, Cell::new(2, 1))
                .iter()
                .any(|l| l.contains("fallen"))
        );
    }

    /// A click on a cell where a rider sits on its mount strikes the rider,
    /// or the mount when the player picks "the mount".
    #[test]
    fn a_click_on_a_mounted_enemy_picks_rider_or_mount() {
        use crate::rules::engine::{Controls, StartOptions};
        use crate::testkit::{cid, engine};
        let level =
            crate::data::level::load_level(std::path::Path::new("levels/caravan_ambush.ron"))
                .unwrap();
        let mut e = engine();
        let opts = StartOptions {
            seed: 1,
            script: Vec::new(),
            control: Controls::AsLevel,
        };
        e.start(&level, crate::rulesets::zones::ID, &opts).unwrap();
        let [hesk, varga, raven] = ["Hesk", "Chief Varga", "Raven"].map(|n| cid(&e, n));
        let at = view::cell(e.world(), raven).unwrap();
        assert_eq!(target_at(e.world(), at, hesk, false), Some(varga));
        assert_eq!(target_at(e.world(), at, hesk, true), Some(raven));
        // One's own side is no target.
        let wagon = view::cell(e.world(), hesk).unwrap();
        assert_eq!(target_at(e.world(), wagon, hesk, false), None);
    }
    use crate::rules::map::Cell;
    use crate::rulesets::ud10::command::Ud10Command;
    use crate::rulesets::zones::command::ZonesCommand;
    use crate::testkit::{assets, level};

    fn app(session: Session) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::logic_plugins(&mut app);
        crate::rules::engine::load_rulesets(app.world_mut(), &assets()).expect("assets");
        app.insert_resource(session);
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Battle);
        app
    }

    fn screen(app: &App) -> Screen {
        *app.world().resource::<State<Screen>>().get()
    }

    /// The battle screen on `level` under ud10, red played at this desk
    /// and blue by the AI, run until it is `who`'s turn (the AI may act
    /// first, by initiative).
    fn ud10_at_turn_of(level: crate::rules::level::Level, who: Cid) -> App {
        let session = Session {
            level,
            path: "test.ron".into(),
            ruleset: crate::rulesets::ud10::ID,
            supported: vec![crate::rulesets::ud10::ID],
            controls: vec![Controller::Human, Controller::Ai],
            seed: 3,
        };
        let mut app = app(session);
        for _ in 0..100 {
            app.update();
            if human_actor(app.world()) == Some(who) {
                break;
            }
        }
        assert_eq!(human_actor(app.world()), Some(who));
        app
    }

    /// A ruleset's board tool, as the player meets it: the ruleset offers
    /// "Aim (G)" on the enemy in sight, the bar shows the tool, a click on
    /// the enemy with it sends the aim, and the pointer goes back to moving.
    #[test]
    fn a_rulesets_board_tool_sends_its_command_on_a_click() {
        let l = level(
            &["..........", "..........", ".........."],
            &[
                r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
                r#"(archetype: "swordsman", faction: "blue", at: (8, 1), name: "B", facing: W)"#,
            ],
        );
        let (a, b) = (Cid(0), Cid(1));
        let mut app = ud10_at_turn_of(l, a);
        // The options are read at the start of the next frame.
        app.update();
        let ui = app.world().resource::<TurnUi>();
        let aim = ui
            .options
            .tool_offers("Aim (G)")
            .next()
            .expect("the aim tool is offered")
            .clone();
        assert_eq!(aim.give, Give::On(b));
        assert_eq!(aim.key, Some(crate::rules::hooks::OfferKey::Letter('G')));
        let at_b = view::cell(app.world(), b).unwrap();
        app.world_mut()
            .write_message(UiIntent::Tool(Tool::Offer(aim.label.clone())));
        app.update();
        app.world_mut().write_message(UiIntent::Click(at_b));
        app.update();
        let sent: Vec<Command> = app
            .world()
            .resource::<BattleLog>()
            .commands
            .iter()
            .filter(|c| c.actor == a)
            .map(|c| c.command.clone())
            .collect();
        assert_eq!(
            sent.last().and_then(|c| c.own::<Ud10Command>()),
            Some(&Ud10Command::Aim {
                target: b,
                weapon: 0
            })
        );
        assert_eq!(app.world().resource::<TurnUi>().tool, Tool::Move);
    }

    /// Facing, as the player meets it (ud10): a move clicked away from the
    /// near enemy ends facing it, not the last step's way; the "Face (T)"
    /// tool offers the cells beside the mover, and a click on one turns it
    /// that way, free (the action still there).
    #[test]
    fn a_player_ends_a_move_facing_the_nearest_enemy_and_turns_with_the_face_tool() {
        use crate::rules::components::Heading;
        use crate::rules::level::Facing;
        let l = level(
            &["..........", "..........", ".........."],
            &[
                r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A", facing: E)"#,
                r#"(archetype: "archer", faction: "blue", at: (9, 1), name: "B", facing: W)"#,
            ],
        );
        let a = Cid(0);
        let mut app = ud10_at_turn_of(l, a);
        let heading = |app: &App| view::get::<Heading>(app.world(), a).map(|h| h.0);
        app.world_mut()
            .write_message(UiIntent::Hover(Some(Cell::new(1, 1))));
        app.world_mut()
            .write_message(UiIntent::Click(Cell::new(1, 1)));
        app.update();
        assert_eq!(view::cell(app.world(), a), Some(Cell::new(1, 1)));
        assert_eq!(heading(&app), Some(Facing::E), "the last step went west");
        app.update();
        let cells: Vec<Cell> = app
            .world()
            .resource::<TurnUi>()
            .options
            .tool_offers("Face (T)")
            .map(|o| match &o.give {
                Give::At { cell, .. } => *cell,
                g => panic!("{g:?}"),
            })
            .collect();
        assert_eq!(cells.len(), 7, "eight ways but the one faced: {cells:?}");
        assert!(!cells.contains(&Cell::new(2, 1)));
        app.world_mut()
            .write_message(UiIntent::Tool(Tool::Offer("Face (T)".into())));
        app.update();
        app.world_mut()
            .write_message(UiIntent::Click(Cell::new(1, 0)));
        app.update();
        assert_eq!(heading(&app), Some(Facing::N));
        assert!(!crate::rulesets::ud10::query::action_used(app.world(), a));
        assert_eq!(app.world().resource::<TurnUi>().tool, Tool::Move);
    }

    #[test]
    fn a_human_turn_of_clicks_reaches_the_core_as_commands() {
        // Red (the human) has a swordsman, blue (AI) an archer out of reach.
        let l = level(
            &["..........", "..........", ".........."],
            &[
                r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
                r#"(archetype: "archer", faction: "blue", at: (5, 1), name: "B", facing: W)"#,
                r#"(archetype: "archer", faction: "blue", at: (9, 2), name: "C", facing: W)"#,
            ],
        );
        let a = Cid(0);
        let b = Cid(1);
        let mut app = ud10_at_turn_of(l, a);
        assert_eq!(screen(&app), Screen::Battle);
        let by_a = |app: &App| -> Vec<Command> {
            app.world()
                .resource::<BattleLog>()
                .commands
                .iter()
                .filter(|c| c.actor == a)
                .map(|c| c.command.clone())
                .collect()
        };
        // Click A itself: selects it, sends nothing.
        app.world_mut()
            .write_message(UiIntent::Click(Cell::new(1, 1)));
        app.update();
        assert_eq!(app.world().resource::<TurnUi>().selected, Some(a));
        assert!(by_a(&app).is_empty());
        // Hover and click a reachable cell: a move along the shown path.
        app.world_mut()
            .write_message(UiIntent::Hover(Some(Cell::new(4, 1))));
        app.world_mut()
            .write_message(UiIntent::Click(Cell::new(4, 1)));
        app.update();
        // Click the enemy: an attack with the weapon in hand.
        app.world_mut()
            .write_message(UiIntent::Click(Cell::new(5, 1)));
        app.update();
        // The archer may dodge: the AI answers, then it is A's again.
        for _ in 0..10 {
            if human_actor(app.world()) == Some(a) {
                break;
            }
            app.update();
        }
        // End the turn from the action bar.
        app.world_mut()
            .write_message(UiIntent::Command(Command::EndTurn));
        app.update();
        let cmds = by_a(&app);
        assert_eq!(
            cmds[..2],
            [
                Command::Move {
                    path: vec![Cell::new(2, 1), Cell::new(3, 1), Cell::new(4, 1)]
                },
                Command::Attack {
                    target: b,
                    weapon: 0,
                    mode: 0
                },
            ]
        );
        // The archer may dodge: the AI answers; then A ends the turn.
        assert_eq!(cmds.last(), Some(&Command::EndTurn));
    }

    /// The game's logic (no window) in a battle on the shipped level `name`
    /// under `ruleset`, its first faction played by a human, at the speed
    /// that shows nothing.
    fn human_battle(name: &str, ruleset: crate::rules::battle::RulesetId, seed: u64) -> App {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("levels/{name}.ron"));
        let l = crate::data::level::load_level(&path).expect("level");
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::logic_plugins(&mut app);
        crate::rules::engine::load_rulesets(app.world_mut(), &assets()).expect("assets");
        let session =
            Session::new(app.world(), l, path, Some(ruleset), seed, false).expect("session");
        assert_eq!(session.controls[0], Controller::Human);
        app.insert_resource(session);
        app.world_mut().resource_mut::<Pacing>().speed = Speed::Instant;
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Battle);
        app
    }

    /// Zones: the human's faction is asked who acts; a click on one of its
    /// characters gives it the turn, numbered reactions answer attacks, and
    /// the skirmish is played to the results.
    #[test]
    fn a_zones_skirmish_is_played_to_the_end_by_clicks() {
        let mut app = human_battle("village_crossroads", crate::rulesets::zones::ID, 5);
        // The clicks a new player makes, as the screen-walk test makes them.
        let (mut activations, mut reactions, mut walked) = (0, 0, None);
        let mut frames = 0;
        // While choosing who acts, the player looks at an enemy's sheet;
        // once a character is activated, the sheet follows it.
        let (mut looked_at, mut followed) = (None, 0);
        while screen(&app) != Screen::Results && frames < 20_000 {
            frames += 1;
            let w = app.world();
            let prompt = w.resource::<Battle>().prompt;
            if let (Some(enemy), Prompt::Act { actor }) = (looked_at, prompt)
                && w.resource::<TurnUi>().options.actor == Some(actor)
                && w.resource::<TurnUi>().key.map(|k| k.0) == Some(prompt)
            {
                let selected = w.resource::<TurnUi>().selected;
                assert_ne!(selected, Some(enemy), "the sheet stayed on {enemy:?}");
                followed += 1;
                looked_at = None;
            }
            if let Some(i) = crate::game::tour::human_click(w, &mut walked) {
                match prompt {
                    Prompt::Activate { .. } => {
                        activations += 1;
                        let enemy = view::enemies(w, Cid(0)).first().copied();
                        app.world_mut().write_message(UiIntent::Select(enemy));
                        app.update();
                        looked_at = enemy;
                    }
                    Prompt::React { .. } => reactions += 1,
                    _ => {}
                }
                app.world_mut().write_message(i);
            }
            app.update();
        }
        assert!(followed > 0);
        assert_eq!(screen(&app), Screen::Results, "after {frames} frames");
        assert!(
            activations > 0 && reactions > 0,
            "{activations} {reactions}"
        );
        let log = app.world().resource::<BattleLog>();
        let by_human = |f: fn(&Command) -> bool| {
            log.commands
                .iter()
                .filter(|c| view::faction(app.world(), c.actor) == Some(0) && f(&c.command))
                .count()
        };
        assert!(by_human(|c| matches!(c.own(), Some(ZonesCommand::Activate { .. }))) > 0);
        assert!(by_human(|c| matches!(c, Command::Attack { .. })) > 0);
    }

    /// brp: the human states each character's intent by clicking an enemy,
    /// moves, strikes on its DEX rank, answers attacks from the dialog, and
    /// the skirmish is played to the results.
    #[test]
    fn a_brp_skirmish_is_played_to_the_end_by_clicks() {
        use crate::rulesets::brp::command::BrpCommand;
        let mut app = human_battle("open_field", crate::rulesets::brp::ID, 3);
        let (mut reactions, mut walked, mut frames) = (0, None, 0);
        while screen(&app) != Screen::Results && frames < 20_000 {
            frames += 1;
            let w = app.world();
            if let Some(i) = crate::game::tour::human_click(w, &mut walked) {
                if matches!(w.resource::<Battle>().prompt, Prompt::React { .. }) {
                    reactions += 1;
                }
                app.world_mut().write_message(i);
            }
            app.update();
        }
        assert_eq!(screen(&app), Screen::Results, "after {frames} frames");
        let log = app.world().resource::<BattleLog>();
        let by_human = |f: fn(&Command) -> bool| {
            log.commands
                .iter()
                .filter(|c| view::faction(app.world(), c.actor) == Some(0) && f(&c.command))
                .count()
        };
        assert!(by_human(|c| matches!(c.own(), Some(BrpCommand::Declare(_)))) > 0);
        assert!(by_human(|c| matches!(c, Command::Move { .. })) > 0);
        assert!(by_human(|c| matches!(c, Command::Attack { .. })) > 0);
        assert!(reactions > 0, "no attack was answered");
    }

    #[test]
    fn an_all_ai_battle_runs_from_setup_to_results() {
        all_ai_to_results(None);
    }

    /// The setup screen's "AI: easy" against "AI: normal": the game plays
    /// it to the results as any preview.
    #[test]
    fn an_easy_ai_against_the_normal_one_runs_to_results() {
        all_ai_to_results(Some(vec![Controller::EasyAi, Controller::Ai]));
    }

    /// "AI: hard" against "AI: normal": the look-ahead plays within the
    /// game's time budget, to the results.
    #[test]
    fn a_hard_ai_against_the_normal_one_runs_to_results() {
        all_ai_to_results(Some(vec![Controller::Ai, Controller::HardAi]));
    }

    fn all_ai_to_results(controls: Option<Vec<Controller>>) {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/mirror_duel.ron");
        let l = crate::data::level::load_level(&path).expect("level");
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::logic_plugins(&mut app);
        crate::rules::engine::load_rulesets(app.world_mut(), &assets()).expect("assets");
        let mut session = Session::new(app.world(), l, path, None, 7, true).expect("session");
        // The level other than the normal AI the setup asked for, if any.
        let other = controls
            .as_ref()
            .and_then(|c| c.iter().copied().find(|c| *c != Controller::Ai));
        if let Some(c) = controls {
            session.controls = c;
        }
        assert!(session.is_preview());
        app.insert_resource(session);
        app.world_mut().resource_mut::<Pacing>().speed = Speed::X4;
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Battle);
        let mut frames = 0;
        while screen(&app) != Screen::Results && frames < 5_000 {
            app.update();
            frames += 1;
        }
        assert_eq!(screen(&app), Screen::Results, "after {frames} frames");
        assert!(
            app.world()
                .resource::<crate::rules::battle::Battle>()
                .is_over()
        );
        if let Some(other) = other {
            let mut q = app.world_mut().query::<&Controller>();
            assert!(q.iter(app.world()).any(|c| *c == other), "{other:?} played");
        }
    }
}
