//! Headless tests of the battle screen's input in the real game app (the
//! plugins `fray` builds, egui included), stepped frame by frame.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::MainCamera;
use crate::game::battle::logic::human_actor;
use crate::game::{Display, GameOptions, build_app};
use crate::rules::components::{Controller, Loadout};

/// The game app in a battle on Open Field, the first faction played by a
/// human, stepped until it is the human's turn.
fn at_the_humans_turn() -> App {
    at_the_humans_turn_under(None)
}

/// As [`at_the_humans_turn`], under `ruleset` (the level's own: `None`).
fn at_the_humans_turn_under(ruleset: Option<crate::rules::battle::RulesetId>) -> App {
    let opts = GameOptions {
        level: Some(std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/levels/open_field.ron"
        ))),
        ruleset,
        controls: Some(vec![Controller::Human, Controller::Ai]),
        ..Default::default()
    };
    let mut app = build_app(&opts, Display::Headless).expect("the game app");
    app.finish();
    app.cleanup();
    for _ in 0..3000 {
        app.update();
        if human_actor(app.world_mut()).is_some() {
            // A few more frames: the panels are drawn at least once.
            for _ in 0..3 {
                app.update();
            }
            return app;
        }
    }
    panic!("the human's turn never came");
}

fn window(app: &mut App) -> Entity {
    app.world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .expect("a primary window")
}

fn key(app: &mut App, code: KeyCode, logical: Key) {
    let window = window(app);
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code: code,
            logical_key: logical.clone(),
            state,
            text: None,
            repeat: false,
            window,
        });
        app.update();
    }
}

fn focused(app: &mut App) -> Option<bevy_egui::egui::Id> {
    let ctx = super::panels::egui_ctx(app.world_mut()).expect("egui");
    ctx.memory(|m| m.focused())
}

/// Tab draws the next weapon; it never moves egui's keyboard focus (onto
/// the top bar's Menu and Help buttons), so a later Enter only ends the
/// turn and never presses a focused button (it once opened the Controls
/// overlay).
#[test]
fn tab_draws_a_weapon_and_never_moves_the_keyboard_focus() {
    let mut app = at_the_humans_turn();
    let actor = human_actor(app.world_mut()).expect("the human's turn");
    let ready = |app: &mut App| {
        crate::rules::view::get::<Loadout>(app.world(), actor).and_then(|l| l.ready)
    };
    let before = ready(&mut app);
    key(&mut app, KeyCode::Tab, Key::Tab);
    assert_eq!(focused(&mut app), None, "Tab moved egui's focus");
    app.update();
    assert_ne!(ready(&mut app), before, "Tab drew no weapon");
    key(&mut app, KeyCode::Tab, Key::Tab);
    assert_eq!(focused(&mut app), None, "Tab moved egui's focus");
    key(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    assert!(
        !app.world().resource::<super::input::HelpOpen>().0,
        "Enter opened the Controls overlay"
    );
    assert!(
        !app.world()
            .resource::<crate::game::battle::logic::Pacing>()
            .menu
    );
}

/// Put the pointer at `at` in the window, and step a frame.
fn point_at(app: &mut App, at: Vec2) {
    let window = window(app);
    app.world_mut()
        .get_mut::<Window>(window)
        .expect("the window")
        .set_cursor_position(Some(at));
    app.update();
}

fn zoom_after_a_wheel_at(app: &mut App, at: Vec2) -> f32 {
    point_at(app, at);
    let scale = |app: &mut App| {
        let p = app
            .world_mut()
            .query_filtered::<&Projection, With<MainCamera>>()
            .single(app.world())
            .expect("the camera")
            .clone();
        match p {
            Projection::Orthographic(o) => o.scale,
            _ => 1.0,
        }
    };
    let before = scale(app);
    let window = window(app);
    app.world_mut().write_message(MouseWheel {
        unit: MouseScrollUnit::Line,
        x: 0.0,
        y: 3.0,
        window,
        phase: bevy::input::touch::TouchPhase::Moved,
    });
    app.update();
    app.update();
    scale(app) / before
}

/// The wheel over the log (or any panel) scrolls the panel, never zooms the
/// map; over the map it zooms.
#[test]
fn the_wheel_over_a_panel_never_zooms_the_map() {
    let mut app = at_the_humans_turn();
    // The window is 1440 x 900: the log is in the bottom panel (280 px),
    // the sheet on the right (330 px), the turn order on the left (260 px).
    for (what, at) in [
        ("the log", Vec2::new(720.0, 860.0)),
        ("the sheet", Vec2::new(1300.0, 400.0)),
        ("the turn order", Vec2::new(100.0, 400.0)),
    ] {
        assert_eq!(
            zoom_after_a_wheel_at(&mut app, at),
            1.0,
            "{what} zoomed the map"
        );
    }
    let z = zoom_after_a_wheel_at(&mut app, Vec2::new(720.0, 350.0));
    assert!(z < 1.0, "the wheel over the map did not zoom it in: {z}");
}

/// A click over a panel never reaches the map: with the map zoomed in so
/// that it runs on under the panels, the pointer over the log or the sheet
/// points at no cell (a click needs one), over the map it does.
#[test]
fn the_pointer_over_a_panel_points_at_no_cell() {
    let mut app = at_the_humans_turn();
    for _ in 0..3 {
        zoom_after_a_wheel_at(&mut app, Vec2::new(720.0, 350.0));
    }
    let hover_at = |app: &mut App, at: Vec2| {
        point_at(app, at);
        app.update();
        app.world()
            .resource::<crate::game::battle::logic::TurnUi>()
            .hover
    };
    assert_eq!(hover_at(&mut app, Vec2::new(720.0, 860.0)), None);
    assert!(hover_at(&mut app, Vec2::new(720.0, 350.0)).is_some());
    assert_eq!(hover_at(&mut app, Vec2::new(1300.0, 400.0)), None);
}

/// Under ud10 (which reads facing) every standing token shows a nose on
/// its rim the way its combatant faces; a grab shows as a rope from the
/// grabber to the one it holds, gone once it lets go.
#[test]
fn tokens_show_facing_and_a_grab() {
    use crate::rules::components::{Cid, Heading};
    use crate::rules::roster::Roster;
    let mut app = at_the_humans_turn();
    let actor = human_actor(app.world_mut()).expect("the human's turn");
    let heading = crate::rules::view::get::<Heading>(app.world(), actor)
        .expect("a heading")
        .0;
    let noses: Vec<Vec3> = {
        let world = app.world_mut();
        let mut tokens = world.query::<(&super::tokens::Token, &Children)>();
        let children: Vec<Entity> = tokens
            .iter(world)
            .filter(|(t, _)| t.0 == actor)
            .flat_map(|(_, c)| c.iter().collect::<Vec<_>>())
            .collect();
        children
            .into_iter()
            .filter(|e| super::tokens::is_nose(world, *e))
            .filter(|e| world.get::<Visibility>(*e) != Some(&Visibility::Hidden))
            .filter_map(|e| world.get::<Transform>(e).map(|t| t.translation))
            .collect()
    };
    assert_eq!(noses.len(), 2, "the nose (outline and fill) is shown");
    let (dx, dy) = heading.delta();
    let want = Vec2::new(dx as f32, -(dy as f32)).normalize();
    for n in noses {
        let got = Vec2::new(n.x, n.y - 2.0).normalize();
        assert!(got.dot(want) > 0.99, "nose at {n:?}, facing {heading:?}");
    }
    let ropes = |app: &mut App| super::tokens::ropes(app.world_mut());
    assert!(ropes(&mut app).is_empty());
    let held = Cid(if actor.0 == 0 { 1 } else { 0 });
    let hold = |app: &mut App, by: Option<Cid>| {
        app.world_mut()
            .resource_mut::<Roster>()
            .update_place(held, |p| p.held_by = by)
            .expect("a place");
        app.update();
    };
    hold(&mut app, Some(actor));
    assert_eq!(ropes(&mut app), vec![held]);
    hold(&mut app, None);
    app.update();
    assert!(ropes(&mut app).is_empty());
}

/// brp's statements of intent are drawn on the board (a line from each to
/// its target) and the top bar says which phase the round is in.
#[test]
fn statements_of_intent_are_drawn_on_the_board() {
    use crate::rulesets::brp::command::{BrpCommand, Intent};
    let mut app = at_the_humans_turn_under(Some(crate::rulesets::brp::ID));
    let aims = |app: &mut App| super::tokens::aims(app.world_mut());
    assert!(aims(&mut app).is_empty(), "nothing stated yet");
    let actor = human_actor(app.world_mut()).expect("the human's turn");
    let target = crate::rules::view::enemies(app.world(), actor)[0];
    let hooks = app
        .world()
        .resource::<crate::rules::hooks::ActiveRuleset>()
        .0;
    assert_eq!(
        (hooks.round_note)(app.world()).as_deref(),
        Some("Statement of intent")
    );
    let cmd = crate::rules::command::Command::from(BrpCommand::Declare(Intent::Attack {
        target,
        weapon: 0,
    }));
    app.world_mut()
        .write_message(crate::game::battle::logic::UiIntent::Command(cmd));
    for _ in 0..5 {
        app.update();
    }
    assert!(aims(&mut app).contains(&actor), "{:?}", aims(&mut app));
    let note = (hooks.order_note)(app.world(), actor).map(|n| n.1);
    assert!(
        note.as_deref().is_some_and(|n| n.contains("will attack")),
        "{note:?}"
    );
}

/// The camera's position and zoom.
fn camera_at(app: &mut App) -> (Vec2, f32) {
    let (t, p) = app
        .world_mut()
        .query_filtered::<(&Transform, &Projection), With<MainCamera>>()
        .single(app.world())
        .map(|(t, p)| (*t, p.clone()))
        .expect("the camera");
    let s = match p {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    (t.translation.truncate(), s)
}

/// Is the whole map in the space the panels leave free, as they were
/// last drawn?
fn whole_map_in_view(app: &mut App) -> bool {
    let (cam, scale) = camera_at(app);
    let w = app.world();
    let edges = *w.resource::<super::input::PanelEdges>();
    let win = w
        .iter_entities()
        .find_map(|e| e.get::<Window>().map(|w| w.size()))
        .expect("a window");
    super::camera::map_in_view(
        w.resource::<crate::rules::map::Map>(),
        cam,
        scale,
        win,
        &edges,
    )
}

/// Every shipped level opens with the whole map in the space the panels
/// leave free (Ruined Keep's top row once lay under the top bar), and
/// keeps that framing while the AI plays on with the camera following
/// (no column cut when an actor stands at an edge); zoomed in by the
/// player it stays so, and M fits the whole map again.
#[test]
fn a_battle_opens_with_the_whole_map_in_view_and_keeps_it() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/levels"));
    let mut levels: Vec<_> = std::fs::read_dir(&dir)
        .expect("levels/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    levels.sort();
    assert!(levels.len() >= 10);
    for level in levels {
        let opts = GameOptions {
            level: Some(level.clone()),
            all_ai: true,
            ..Default::default()
        };
        let mut app = build_app(&opts, Display::Headless).expect("the game app");
        app.finish();
        app.cleanup();
        for _ in 0..5 {
            app.update();
        }
        let name = level.display().to_string();
        assert!(whole_map_in_view(&mut app), "{name} opens cut");
        let start = camera_at(&mut app);
        for _ in 0..200 {
            app.update();
        }
        assert!(whole_map_in_view(&mut app), "{name}: the map left the view");
        assert_eq!(camera_at(&mut app), start, "{name}: the framing moved");
        if level.ends_with("ruined_keep.ron") {
            let z = zoom_after_a_wheel_at(&mut app, Vec2::new(720.0, 350.0));
            assert!(z < 1.0);
            for _ in 0..30 {
                app.update();
            }
            assert!(!whole_map_in_view(&mut app), "zoomed in, not kept");
            key(&mut app, KeyCode::KeyM, Key::Character("m".into()));
            app.update();
            assert!(whole_map_in_view(&mut app), "M did not fit the map");
            assert_eq!(camera_at(&mut app), start);
        }
    }
}

/// Flight gives up a character's part: F asks first ("Yes, flee" or "No,
/// fight on" drawn), "No" keeps the character on the field, and only
/// "Yes" sends it off the map.
#[test]
fn fleeing_by_key_asks_first() {
    use crate::game::battle::logic::{TurnUi, UiIntent};
    use crate::rules::command::Command;
    let mut app = at_the_humans_turn();
    let actor = human_actor(app.world_mut()).expect("the human's turn");
    // Onto the west edge first, along a path the bar offers.
    let path = app
        .world()
        .resource::<TurnUi>()
        .options
        .moves
        .iter()
        .find(|(c, _)| c.x == 0)
        .map(|(_, (p, _))| p.clone())
        .expect("a cell on the west edge in reach");
    app.world_mut()
        .write_message(UiIntent::Command(Command::Move { path }));
    for _ in 0..3 {
        app.update();
    }
    let standing = |app: &App| crate::rules::view::standing(app.world(), actor);
    let kinds = |app: &mut App| -> Vec<String> {
        crate::game::widgets::last_pass(app.world_mut())
            .into_iter()
            .filter_map(|w| w.kind)
            .collect()
    };
    key(&mut app, KeyCode::KeyF, Key::Character("f".into()));
    app.update();
    assert_eq!(
        app.world().resource::<TurnUi>().confirm,
        Some(Command::Flee)
    );
    assert!(standing(&app), "F alone sent the flight");
    let drawn = kinds(&mut app);
    assert!(
        drawn.iter().any(|k| k == "give up: yes") && drawn.iter().any(|k| k == "give up: no"),
        "{drawn:?}"
    );
    app.world_mut().write_message(UiIntent::AskFirst(None));
    for _ in 0..3 {
        app.update();
    }
    assert!(standing(&app));
    assert!(!kinds(&mut app).iter().any(|k| k.starts_with("give up")));
    key(&mut app, KeyCode::KeyF, Key::Character("f".into()));
    app.world_mut()
        .write_message(UiIntent::Command(Command::Flee));
    for _ in 0..3 {
        app.update();
    }
    assert!(!standing(&app), "the flight was confirmed");
    assert_eq!(app.world().resource::<TurnUi>().confirm, None);
}
