//! The rendered game (cargo feature `gui`): title, battle setup, the battle
//! screen, pause menu and results. Everything it shows comes from the rules
//! core's state and events; it only ever sends commands.

pub mod battle;
pub mod screens;
pub mod screenshot;
pub mod session;

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
}

/// Everything the game adds to an app, except the window and rendering
/// plugins (tests add `MinimalPlugins` instead).
pub fn logic_plugins(app: &mut App) {
    crate::rules::engine::add_rules(app);
    app.add_plugins(bevy::state::app::StatesPlugin)
        .init_state::<Screen>();
    session::plugin(app);
    battle::logic::plugin(app);
}

/// Run the game in a window. Returns when the window closes.
pub fn run(opts: GameOptions) -> Result<(), String> {
    let assets = crate::rules::engine::assets_dir();
    let assets_abs = std::fs::canonicalize(&assets).unwrap_or(assets.clone());
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
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
            .set(ImagePlugin::default_nearest()),
    );
    app.add_plugins(bevy_ecs_tilemap::TilemapPlugin)
        .add_plugins(bevy_egui::EguiPlugin::default());
    // The rules core, its data and the game's logic.
    crate::rules::engine::add_rules(&mut app);
    crate::rules::engine::load_rulesets(app.world_mut(), &assets).map_err(|e| e.to_string())?;
    app.init_state::<Screen>();
    session::plugin(&mut app);
    battle::logic::plugin(&mut app);
    // What the player sees and touches.
    screens::plugin(&mut app);
    battle::view::plugin(&mut app);
    screenshot::plugin(&mut app, opts.screenshot.clone());

    app.insert_resource(ClearColor(Color::srgb(0.11, 0.11, 0.13)));
    let catalog = Catalog::load(&session::levels_dir());
    // A battle straight away (`fray play`), or the title screen.
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
    }
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
        battle::view::bench::plugin(&mut app, n);
    }
    if let Some(speed) = opts.speed {
        app.world_mut()
            .resource_mut::<battle::logic::Pacing>()
            .speed = speed;
    }
    app.insert_resource(catalog);
    app.run();
    Ok(())
}
