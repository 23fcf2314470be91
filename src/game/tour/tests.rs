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
    eprintln!("{}", app.world().resource::<Audit>().report().0);
    assert_eq!(tour.failed, None, "missed: {:?}", tour.missed);
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
            Title, Setup, Battle, Results, Battle, Title, Battle, Results, Setup, Battle, Results,
            Battle, Setup, Title, Battle, Results, Title, Setup, Battle, Results, Title
        ]
    );
    // Every kind of widget drawn was clicked (the walk fails otherwise:
    // `tour.failed` above), and the count is not empty.
    let audit = app.world().resource::<Audit>();
    let (report, fails) = audit.report();
    eprintln!("{report}");
    assert_eq!(fails, Vec::<String>::new());
    assert!(audit.clicked.len() >= 30, "{report}");
    for kind in [
        "log: back to the latest",
        "menu: quit",
        "confirm: no",
        "help: close",
        "preview: step",
        "setup: seed",
        // brp's statements, ud10's facing, a surrender confirmed.
        "tool: Declare",
        "offer: Declare",
        "tool: Face",
        "give up: no",
        "give up: yes",
    ] {
        assert!(audit.clicked.contains(kind), "{kind} was never clicked");
    }
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
