//! The rendered game (cargo feature `gui`): title, battle setup, the battle
//! screen, pause menu and results. Everything it shows comes from the rules
//! core's state and events; it only ever sends commands.

pub mod battle;
pub mod flow;
pub mod screens;
pub mod screenshot;
pub mod session;
pub mod tour;
pub mod widgets;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;

use crate::rules::battle::RulesetId;
use session::{Catalog, Screen, Session, Speed};

/// How the game starts.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Jump straight into a battle on this level.
    pub level: Option<PathBuf>,
    pub ruleset: Option<RulesetId>,
    pub seed: Option<u64>,
    /// Every faction played by the AI (a GM preview).
    pub all_ai: bool,
    pub speed: Option<Speed>,
    /// Open this screen first (`title`, `setup`, `battle`).
    pub screen: Option<String>,
    /// Save a screenshot after this many frames, then quit.
    pub screenshot: Option<(PathBuf, u32)>,
    /// Open an overlay at the start: `help` or `menu` (for screenshots).
    pub show: Option<String>,
    /// Measure the game's own systems for this many frames, print, quit.
    pub bench_frames: Option<u32>,
    /// Walk every screen as a player would, saving a screenshot of each
    /// into this folder, then quit (`fray --tour DIR`).
    pub tour: Option<PathBuf>,
    /// Who plays each faction of `level` (`fray play --control`), instead
    /// of the level's own choice or `all_ai`.
    pub controls: Option<Vec<crate::rules::components::Controller>>,
}

/// The game's frame order in `Update`, one set per layer (as in the
/// `bevy_new_2d` template): read the player's input, carry out screen
/// changes, run the battle's logic (the player's commands, AI steps), play
/// the new events back on the board, then draw what they left.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AppSystems {
    Input,
    Flow,
    Logic,
    Playback,
    View,
}

/// Everything the game adds to an app, except the window and rendering
/// plugins (tests add `MinimalPlugins` instead).
pub fn logic_plugins(app: &mut App) {
    crate::rulesets::add_rules(app);
    app.add_plugins(bevy::state::app::StatesPlugin)
        .init_state::<Screen>();
    game_logic(app);
}

/// The game's own logic on top of the rules core and the states plugin.
fn game_logic(app: &mut App) {
    use AppSystems::*;
    // The hard AI looks ahead within the time a frame can wait.
    app.insert_resource(crate::rules::lookahead::LookAhead::game());
    app.configure_sets(Update, (Input, Flow, Logic, Playback, View).chain())
        .configure_sets(OnEnter(Screen::Battle), (Logic, Playback, View).chain());
    session::plugin(app);
    flow::plugin(app);
    battle::logic::plugin(app);
}

/// How the game is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// In a window on the desktop.
    Window,
    /// Every plugin the windowed game has, rendering included, but no
    /// window on the desktop and no event loop: the caller steps the app
    /// with `App::update` (the screen-walk test).
    Headless,
}

/// The game's app: the same plugins whether shown in a window or stepped
/// headless by a test.
pub fn build_app(opts: &GameOptions, display: Display) -> Result<App, String> {
    let assets = crate::rules::engine::assets_dir();
    let mut app = App::new();
    add_engine(&mut app, display, &assets);
    app.add_plugins(bevy_ecs_tilemap::TilemapPlugin)
        .add_plugins(bevy_egui::EguiPlugin::default());
    // The rules core, its data and the game's logic.
    crate::rulesets::add_rules(&mut app);
    crate::rules::engine::load_rulesets(app.world_mut(), &assets).map_err(|e| e.to_string())?;
    app.init_state::<Screen>();
    game_logic(&mut app);
    // What the player sees and touches.
    screens::plugin(&mut app);
    battle::view::plugin(&mut app);
    screenshot::plugin(&mut app, opts.screenshot.clone());
    if let Some(dir) = &opts.tour {
        tour::plugin(&mut app, tour::Tour::standard(Some(dir.clone())));
    }

    app.insert_resource(ClearColor(Color::srgb(0.11, 0.11, 0.13)));
    let catalog = Catalog::load(app.world(), &session::levels_dir());
    first_screen(&mut app, opts, &catalog)?;
    start_options(&mut app, opts);
    app.insert_resource(catalog);
    Ok(app)
}

/// Bevy's default plugins, assets read from `assets`: with a window of
/// 1440×900, or headless (no winit; the log set up once per process).
fn add_engine(app: &mut App, display: Display, assets: &std::path::Path) {
    let assets_abs = std::fs::canonicalize(assets).unwrap_or(assets.to_path_buf());
    let defaults = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window {
                title: "Fray".into(),
                resolution: WindowResolution::new(1440, 900),
                ..default()
            }),
            ..default()
        })
        .set(AssetPlugin {
            file_path: assets_abs.to_string_lossy().into_owned(),
            ..default()
        })
        .set(ImagePlugin::default_nearest());
    match display {
        Display::Window => app.add_plugins(defaults),
        Display::Headless => {
            let defaults = defaults.disable::<bevy::winit::WinitPlugin>();
            // The log is global to the process: the first headless app of a
            // test run sets it up. Without winit, egui finds no native window
            // to read the keyboard and clipboard of, and says so every frame.
            static LOGGING: std::sync::atomic::AtomicBool =
                std::sync::atomic::AtomicBool::new(false);
            if LOGGING.swap(true, std::sync::atomic::Ordering::SeqCst) {
                app.add_plugins(defaults.disable::<bevy::log::LogPlugin>())
            } else {
                app.add_plugins(defaults.set(bevy::log::LogPlugin {
                    filter: format!("{},bevy_egui::input=error", bevy::log::DEFAULT_FILTER),
                    ..default()
                }))
            }
        }
    };
}

/// The session and the first screen: a battle straight away (`fray
/// play`), or the catalog's default level on the title screen (or the
/// screen asked for); an error when no level loads.
fn first_screen(app: &mut App, opts: &GameOptions, catalog: &Catalog) -> Result<(), String> {
    if let Some(level_path) = &opts.level {
        let level = crate::data::level::load_level(level_path).map_err(|e| e.to_string())?;
        let session = Session::new(
            app.world(),
            level,
            level_path.clone(),
            opts.ruleset,
            opts.seed.unwrap_or(1),
            opts.all_ai,
        )?;
        let mut session = session;
        if let Some(controls) = &opts.controls {
            session.controls = controls.clone();
        }
        app.insert_resource(session);
        app.insert_state(Screen::Battle);
    } else if let Some(first) = catalog.default_level() {
        let session = Session::new(
            app.world(),
            first.1.clone(),
            first.0.clone(),
            opts.ruleset,
            opts.seed.unwrap_or(1),
            opts.all_ai,
        )?;
        app.insert_resource(session);
        let screen = match opts.screen.as_deref() {
            Some("setup") => Screen::Setup,
            Some("battle") => Screen::Battle,
            _ => Screen::Title,
        };
        app.insert_state(screen);
    } else {
        return Err(format!(
            "no level loads from {}: Fray needs at least one to play",
            session::levels_dir().display()
        ));
    }
    Ok(())
}

/// What the command line asks of the start: the help or the menu open,
/// the bench, the speed.
fn start_options(app: &mut App, opts: &GameOptions) {
    match opts.show.as_deref() {
        Some("help") => {
            app.world_mut()
                .resource_mut::<battle::view::input::HelpOpen>()
                .0 = true
        }
        Some("menu") => {
            app.world_mut()
                .resource_mut::<battle::logic::Pacing>()
                .menu_on_start = true
        }
        _ => {}
    }
    if let Some(n) = opts.bench_frames {
        battle::view::bench::plugin(app, n);
    }
    if let Some(speed) = opts.speed {
        app.world_mut()
            .resource_mut::<battle::logic::Pacing>()
            .speed = speed;
    }
}

/// Run the game in a window. Returns when the window closes; an error if
/// the game ended on one (a failed system).
pub fn run(opts: GameOptions) -> Result<(), String> {
    let mut app = build_app(&opts, Display::Window)?;
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the game stopped with error code {code}")),
    }
}
