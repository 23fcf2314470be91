//! The battle camera: pan (keys, stick, screen edge, drag), zoom (wheel,
//! keys, triggers), centre on the acting combatant.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::*;

use crate::game::session::Screen;
use crate::rules::map::Map;

use super::TILE;
use super::input::{Player, UiAction, pointer_free};
use super::playback::{Shown, Timeline};

/// The one camera (the egui panels draw through it too).
#[derive(Component)]
pub struct MainCamera;

/// Follow the acting combatant when a turn starts.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Follow(pub bool);

impl Default for Follow {
    fn default() -> Self {
        Follow(true)
    }
}

pub fn plugin(app: &mut App) {
    // Spawned at once, not in `Startup`: a game started straight into a
    // battle enters it before `Startup` runs, and fits the map to this camera.
    app.world_mut().spawn((Camera2d, MainCamera));
    app.init_resource::<Follow>()
        .add_systems(
            OnEnter(Screen::Battle),
            fit_map.after(crate::game::battle::logic::start),
        )
        .add_systems(OnExit(Screen::Battle), reset_camera)
        .add_systems(
            Update,
            (pan_zoom, follow)
                .after(super::playback::play)
                .run_if(in_state(Screen::Battle)),
        );
}

fn scale_of(p: &Projection) -> f32 {
    match p {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    }
}

fn set_scale(p: &mut Projection, s: f32) {
    if let Projection::Orthographic(o) = p {
        o.scale = s.clamp(0.3, 6.0);
    }
}

/// Start a battle with the whole map in view.
fn fit_map(
    map: Res<Map>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
) {
    let (w, h) = (map.width() as f32 * TILE, map.height() as f32 * TILE);
    // Leave room for the panels around the map.
    let avail = Vec2::new(
        (window.width() - 640.0).max(320.0),
        (window.height() - 300.0).max(240.0),
    );
    let s = (w / avail.x).max(h / avail.y).max(0.5);
    set_scale(&mut cam.1, s);
    let off = panel_offset(s);
    cam.0.translation.x = off.x;
    cam.0.translation.y = off.y;
}

/// Where the camera must stand, relative to a point, to show that point in
/// the middle of the space the panels leave free (left 260 px, right 330 px,
/// top 25 px, bottom 250 px), at zoom `scale`.
pub fn panel_offset(scale: f32) -> Vec2 {
    Vec2::new((330.0 - 260.0) / 2.0, -(250.0 - 25.0) / 2.0) * scale
}

fn reset_camera(mut cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>) {
    cam.0.translation = Vec3::ZERO;
    set_scale(&mut cam.1, 1.0);
}

#[allow(clippy::too_many_arguments)]
fn pan_zoom(
    time: Res<Time>,
    action: Single<&ActionState<UiAction>, With<Player>>,
    window: Single<&Window, With<PrimaryWindow>>,
    free: Option<Res<bevy_egui::input::EguiWantsInput>>,
    map: Res<Map>,
    mut cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
    mut last_cursor: Local<Option<Vec2>>,
) {
    let pointer_ok = pointer_free(free.as_deref());
    let scale = scale_of(&cam.1);
    let speed = 900.0 * scale * time.delta_secs();
    let mut pan = action.axis_pair(&UiAction::Pan);
    // Edge scrolling.
    if let Some(c) = window.cursor_position()
        && window.focused
        && pointer_ok
    {
        let m = 8.0;
        if c.x < m {
            pan.x -= 1.0;
        }
        if c.x > window.width() - m {
            pan.x += 1.0;
        }
        if c.y < m {
            pan.y += 1.0;
        }
        if c.y > window.height() - m {
            pan.y -= 1.0;
        }
    }
    cam.0.translation.x += pan.x.clamp(-1.0, 1.0) * speed;
    cam.0.translation.y += pan.y.clamp(-1.0, 1.0) * speed;
    // Drag with the middle (or right) button.
    let cursor = window.cursor_position();
    if action.pressed(&UiAction::Drag)
        && let (Some(now), Some(before)) = (cursor, *last_cursor)
    {
        let d = now - before;
        cam.0.translation.x -= d.x * scale;
        cam.0.translation.y += d.y * scale;
    }
    *last_cursor = cursor;
    // Zoom.
    let mut zoom = 0.0;
    if pointer_ok {
        zoom -= action.value(&UiAction::Zoom) * 0.1;
    }
    if action.pressed(&UiAction::ZoomIn) {
        zoom -= 1.5 * time.delta_secs();
    }
    if action.pressed(&UiAction::ZoomOut) {
        zoom += 1.5 * time.delta_secs();
    }
    if zoom != 0.0 {
        set_scale(&mut cam.1, scale * (1.0 + zoom));
    }
    // Keep the map in reach.
    let (w, h) = (map.width() as f32 * TILE, map.height() as f32 * TILE);
    cam.0.translation.x = cam.0.translation.x.clamp(-w, w);
    cam.0.translation.y = cam.0.translation.y.clamp(-h, h);
}

fn follow(
    follow: Res<Follow>,
    action: Single<&ActionState<UiAction>, With<Player>>,
    mut tl: ResMut<Timeline>,
    shown: Res<Shown>,
    mut target: Local<Option<Vec2>>,
    time: Res<Time>,
    mut cam: Single<(&mut Transform, &Projection), With<MainCamera>>,
) {
    let off = panel_offset(scale_of(cam.1));
    let new_turn = std::mem::take(&mut tl.focus_new);
    if ((new_turn && follow.0) || action.just_pressed(&UiAction::Centre))
        && let Some(cid) = tl.focus
    {
        *target = shown.get(cid).map(|s| s.pos + off);
    }
    // Any manual panning cancels the glide.
    if action.axis_pair(&UiAction::Pan) != Vec2::ZERO || action.pressed(&UiAction::Drag) {
        *target = None;
    }
    if let Some(t) = *target {
        let cur = cam.0.translation.truncate();
        let k = (time.delta_secs() * 6.0).min(1.0);
        let next = cur.lerp(t, k);
        cam.0.translation.x = next.x;
        cam.0.translation.y = next.y;
        if next.distance(t) < 2.0 {
            *target = None;
        }
    }
}
