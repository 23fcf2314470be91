//! A walk through every screen in the order a player meets them, driven by
//! the same intents a player's clicks send: the title, the battle setup
//! (a level, a ruleset, who plays each side), a skirmish played by hand for
//! a few commands and then to its end, the pause menu, the results, "play
//! again", back to the title, a GM preview to its results, a second
//! skirmish under the other ruleset, and Quit.
//!
//! `fray --tour DIR` walks it in the real window and saves a screenshot of
//! each screen into DIR; the screen-walk test walks it headless. A step that
//! does not finish in its frame budget ends the game with an error.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use crate::game::AppSystems;
use crate::game::battle::logic::{Pacing, TurnUi, UiIntent, human_actor};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Speed, levels_dir};
use crate::rules::battle::{ActiveRuleset, Battle, Give, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Controller, Loadout};
use crate::rules::map::Cell;
use crate::rules::view;

/// One step of the walk.
#[derive(Clone, Debug)]
pub enum Step {
    /// Wait until the game shows this screen, then this many frames more
    /// (so that every system of the screen has run).
    Reach(Screen, u32),
    /// Send what a button sends.
    Send(ScreenIntent),
    /// Wait until a human must answer a prompt.
    AwaitHuman,
    /// Play the human's side by clicks for this many commands: give the
    /// turn to a character, walk towards the enemy, strike, react, end the
    /// turn.
    ByHand(u32),
    /// From here the human's prompts are answered with what the AI would
    /// choose, sent as the player's own commands, until the battle ends.
    PlayOut,
    /// How fast the AI's turns play out.
    Speed(Speed),
    /// Wait this many frames.
    Frames(u32),
    /// Save a screenshot named `NAME.png` (when the walk has a folder).
    Shot(&'static str),
}

/// The walk and how far it has got.
#[derive(Resource, Clone, Debug)]
pub struct Tour {
    pub steps: Vec<Step>,
    /// The step being walked.
    pub at: usize,
    /// Frames spent on this step.
    frames: u32,
    /// Frames spent on this step since its condition held.
    settled: u32,
    /// Where screenshots go (none: no screenshots).
    shots: Option<PathBuf>,
    /// The screenshot being written.
    writing: Option<PathBuf>,
    /// Commands sent by hand in the current `ByHand` step.
    sent: u32,
    /// The human character that has walked in its current turn.
    walked: Option<(Cid, u32)>,
    /// Every screen the walk has shown, in order (repeats folded).
    pub seen: Vec<Screen>,
    /// Commands sent for the human, by clicks and buttons.
    pub human_commands: u32,
    /// Screenshots written.
    pub saved: Vec<PathBuf>,
    /// Why the walk stopped short, if it did.
    pub failed: Option<String>,
}

/// A step that takes longer than this many frames fails the walk.
const STEP_BUDGET: u32 = 20_000;

impl Tour {
    pub fn new(steps: Vec<Step>, shots: Option<PathBuf>) -> Tour {
        Tour {
            steps,
            at: 0,
            frames: 0,
            settled: 0,
            shots,
            writing: None,
            sent: 0,
            walked: None,
            seen: Vec::new(),
            human_commands: 0,
            saved: Vec::new(),
            failed: None,
        }
    }

    /// The walk a new player takes: a ud10 skirmish on the courtyard (a
    /// level the AI plays on both sides until the setup gives the player
    /// the garrison), its pause menu and results, play again, the title, a
    /// GM preview, then a zones skirmish in the shrine of the pale god (its
    /// cultists' powers, the captain's medicine box).
    pub fn standard(shots: Option<PathBuf>) -> Tour {
        use ScreenIntent as I;
        use Step::*;
        let level = |name: &str| levels_dir().join(name);
        let steps = vec![
            Reach(Screen::Title, 30),
            Shot("title"),
            Send(I::Open(Screen::Setup)),
            Reach(Screen::Setup, 10),
            Send(I::PickLevel(level("courtyard.ron"))),
            Send(I::PickRuleset(crate::rulesets::ud10::ID)),
            Send(I::Control(0, Controller::Human)),
            Send(I::Control(1, Controller::Ai)),
            Send(I::Seed(7)),
            Frames(10),
            Shot("setup"),
            Send(I::Start),
            Reach(Screen::Battle, 10),
            AwaitHuman,
            Frames(30),
            Shot("battle"),
            ByHand(6),
            Send(I::Menu(true)),
            Frames(10),
            Shot("menu"),
            Send(I::Menu(false)),
            Speed(crate::game::session::Speed::Instant),
            PlayOut,
            Reach(Screen::Results, 20),
            Shot("results"),
            Send(I::PlayAgain),
            Reach(Screen::Battle, 10),
            AwaitHuman,
            ByHand(2),
            Send(I::Menu(true)),
            Frames(5),
            Send(I::Open(Screen::Title)),
            Reach(Screen::Title, 10),
            Speed(crate::game::session::Speed::X4),
            Send(I::GmPreview),
            Reach(Screen::Battle, 60),
            Shot("preview"),
            Speed(crate::game::session::Speed::Instant),
            Reach(Screen::Results, 10),
            Send(I::Open(Screen::Setup)),
            Reach(Screen::Setup, 5),
            Send(I::PickLevel(level("pale_shrine.ron"))),
            Send(I::PickRuleset(crate::rulesets::zones::ID)),
            Send(I::Control(0, Controller::Human)),
            Send(I::Control(1, Controller::Ai)),
            Frames(5),
            Send(I::Start),
            Reach(Screen::Battle, 5),
            AwaitHuman,
            Frames(10),
            Shot("zones"),
            ByHand(1),
            Frames(10),
            Shot("zones_turn"),
            ByHand(5),
            PlayOut,
            Reach(Screen::Results, 10),
            Send(I::Open(Screen::Title)),
            Reach(Screen::Title, 10),
            Send(I::Quit),
        ];
        Tour::new(steps, shots)
    }

    /// Whether the walk reached its end.
    pub fn done(&self) -> bool {
        self.at >= self.steps.len()
    }
}

pub fn plugin(app: &mut App, tour: Tour) {
    app.insert_resource(tour)
        .add_systems(Update, walk.in_set(AppSystems::Input));
}

/// One frame of the walk.
fn walk(world: &mut World) {
    let screen = *world.resource::<State<Screen>>().get();
    let mut tour = world.resource::<Tour>().clone();
    if tour.seen.last() != Some(&screen) {
        tour.seen.push(screen);
    }
    if tour.done() || tour.failed.is_some() {
        world.insert_resource(tour);
        return;
    }
    tour.frames += 1;
    let step = tour.steps[tour.at].clone();
    let finished = match step {
        Step::Reach(want, frames) => {
            if screen == want {
                tour.settled += 1;
            }
            tour.settled > frames
        }
        Step::Send(intent) => {
            world.write_message(intent);
            true
        }
        Step::AwaitHuman => human_actor(world).is_some(),
        Step::Frames(n) => tour.frames > n,
        Step::Speed(s) => {
            world.resource_mut::<Pacing>().speed = s;
            true
        }
        Step::Shot(name) => shoot(world, &mut tour, name),
        Step::ByHand(n) => {
            if tour.sent < n
                && let Some(intent) = human_click(world, &mut tour.walked)
            {
                world.write_message(intent);
                tour.sent += 1;
                tour.human_commands += 1;
            }
            tour.sent >= n || screen != Screen::Battle
        }
        Step::PlayOut => {
            if let Some(command) = ai_choice(world) {
                world.write_message(UiIntent::Command(command));
                tour.human_commands += 1;
            }
            screen != Screen::Battle || world.resource::<Battle>().is_over()
        }
    };
    if finished {
        tour.at += 1;
        tour.frames = 0;
        tour.settled = 0;
        tour.sent = 0;
    } else if tour.frames > STEP_BUDGET {
        let why = format!(
            "the screen walk is stuck at step {} ({:?}) on the {:?} screen",
            tour.at, tour.steps[tour.at], screen
        );
        error!("{why}");
        tour.failed = Some(why);
        world.write_message(AppExit::error());
    }
    world.insert_resource(tour);
}

/// Save a screenshot; true once the file is written (or at once without a
/// folder).
fn shoot(world: &mut World, tour: &mut Tour, name: &str) -> bool {
    let Some(dir) = &tour.shots else {
        return true;
    };
    match &tour.writing {
        None => {
            let path = dir.join(format!("{name}.png"));
            if let Err(e) = std::fs::create_dir_all(dir) {
                tour.failed = Some(format!("cannot create {}: {e}", dir.display()));
                world.write_message(AppExit::error());
                return false;
            }
            let _ = std::fs::remove_file(&path);
            world
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()));
            tour.writing = Some(path);
            false
        }
        Some(path) if path.exists() && tour.frames > 3 => {
            tour.saved.push(path.clone());
            tour.writing = None;
            true
        }
        Some(_) => false,
    }
}

/// The click or button a new player would use at the human's prompt: give
/// the turn to the first character offered, answer an attack with the first
/// reaction offered, strike an enemy in reach with the weapon in hand, walk
/// once a turn towards the nearest enemy (`walked` remembers whose turn
/// walked), or end the turn.
pub fn human_click(world: &World, walked: &mut Option<(Cid, u32)>) -> Option<UiIntent> {
    let actor = human_actor(world)?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    let legal = (hooks.legal_commands)(world, actor);
    let battle = world.resource::<Battle>();
    match battle.prompt {
        Prompt::Activate { .. } => (hooks.offers)(world, actor, &legal)
            .list
            .iter()
            .find_map(|o| match o.give {
                Give::Click(who) => view::cell(world, who).map(UiIntent::Click),
                _ => None,
            }),
        Prompt::React { .. } => Some(UiIntent::React(0)),
        Prompt::Act { .. } => {
            // The screen has not laid out this turn's options yet: a
            // player would wait for it.
            let ui = world.resource::<TurnUi>();
            if ui.options.actor != Some(actor) || !ui.is_current(world) {
                return None;
            }
            let ready = view::get::<Loadout>(world, actor).and_then(|l| l.ready);
            let strike = legal.iter().find_map(|c| match c {
                Command::Attack {
                    target,
                    weapon,
                    mode: 0,
                } if Some(*weapon) == ready && view::standing(world, *target) => {
                    view::cell(world, *target)
                }
                _ => None,
            });
            if let Some(cell) = strike {
                return Some(UiIntent::Click(cell));
            }
            let turn = (actor, battle.round);
            if *walked != Some(turn)
                && let Some(cell) = towards_enemy(world, actor)
            {
                *walked = Some(turn);
                return Some(UiIntent::Click(cell));
            }
            if legal.contains(&Command::EndTurn) {
                return Some(UiIntent::Command(Command::EndTurn));
            }
            // A prompt the turn cannot simply end (brp's statement of
            // intent): what the ruleset offers to a click on a combatant,
            // else its first button.
            let offers = (hooks.offers)(world, actor, &legal);
            offers
                .list
                .iter()
                .find_map(|o| match o.give {
                    Give::Click(who) => view::cell(world, who).map(UiIntent::Click),
                    _ => None,
                })
                .or_else(|| {
                    offers
                        .list
                        .iter()
                        .find(|o| o.give == Give::Button)
                        .map(|o| UiIntent::Command(o.command.clone()))
                })
                .or(Some(UiIntent::Command(Command::EndTurn)))
        }
        Prompt::None => None,
    }
}

/// Of the cells the move tool offers, the one nearest an enemy.
fn towards_enemy(world: &World, actor: Cid) -> Option<Cell> {
    let ui = world.resource::<TurnUi>();
    if ui.options.actor != Some(actor) {
        return None;
    }
    let enemies: Vec<Cell> = view::enemies(world, actor)
        .into_iter()
        .filter_map(|e| view::cell(world, e))
        .collect();
    let distance = |c: &Cell| {
        enemies
            .iter()
            .map(|e| (e.x - c.x).abs().max((e.y - c.y).abs()))
            .min()
            .unwrap_or(0)
    };
    ui.options.moves.keys().copied().min_by_key(distance)
}

/// What the ruleset's AI would do at the human's prompt.
fn ai_choice(world: &mut World) -> Option<Command> {
    let actor = human_actor(world)?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    Some((hooks.decide)(world, actor))
}

#[cfg(test)]
mod tests {
    //! The screen walk in the real game app: the plugins `fray` builds,
    //! rendering included, stepped frame by frame without a desktop window.
    //! A panic, a system whose parameters fail validation (Bevy's default
    //! error handler panics), or a step that never finishes fails it.

    use super::*;
    use crate::game::{Display, GameOptions, build_app};

    /// Step the app until it asks to exit.
    fn run_to_exit(app: &mut App, max_frames: u32) -> (AppExit, u32) {
        let mut frames = 0u32;
        loop {
            app.update();
            frames += 1;
            if let Some(exit) = app.should_exit() {
                return (exit, frames);
            }
            assert!(frames < max_frames, "no exit after {frames} frames");
        }
    }

    #[test]
    fn a_player_walks_every_screen_from_the_title_to_quit() {
        let mut app = build_app(&GameOptions::default(), Display::Headless).expect("the game app");
        plugin(&mut app, Tour::standard(None));
        app.finish();
        app.cleanup();
        let (exit, frames) = run_to_exit(&mut app, 200_000);
        let tour = app.world().resource::<Tour>().clone();
        assert_eq!(tour.failed, None);
        assert!(
            tour.done(),
            "stopped at step {} of {}",
            tour.at,
            tour.steps.len()
        );
        assert_eq!(exit, AppExit::Success);
        use Screen::*;
        assert_eq!(
            tour.seen,
            [
                Title, Setup, Battle, Results, Battle, Title, Battle, Results, Setup, Battle,
                Results, Title
            ]
        );
        assert!(tour.human_commands >= 14, "{}", tour.human_commands);
        // The screens were drawn: egui ran a pass in (nearly) every frame.
        let ctx = crate::game::battle::view::panels::egui_ctx(app.world_mut()).expect("egui");
        assert!(
            ctx.cumulative_pass_nr() + 5 >= u64::from(frames),
            "{} egui passes in {frames} frames",
            ctx.cumulative_pass_nr()
        );
        eprintln!(
            "walked {} steps in {frames} frames; {} commands for the human",
            tour.steps.len(),
            tour.human_commands
        );
    }

    /// The window's close button on the title screen ends the game with
    /// success.
    #[test]
    fn closing_the_window_quits_cleanly() {
        use bevy::window::{PrimaryWindow, WindowCloseRequested};
        let mut app = build_app(&GameOptions::default(), Display::Headless).expect("the game app");
        app.finish();
        app.cleanup();
        for _ in 0..10 {
            app.update();
        }
        assert_eq!(app.should_exit(), None);
        let window = app
            .world_mut()
            .query_filtered::<Entity, With<PrimaryWindow>>()
            .single(app.world())
            .expect("a primary window");
        app.world_mut()
            .write_message(WindowCloseRequested { window });
        let (exit, _) = run_to_exit(&mut app, 100);
        assert_eq!(exit, AppExit::Success);
    }
}
