//! The battle camera: pan (keys, stick, screen edge, drag), zoom (wheel,
//! keys, triggers), centre on the acting combatant.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::*;

use crate::game::session::Screen;
use crate::rules::map::Map;

use super::MainCamera;
use super::TILE;
use super::input::{PanelCover, PanelEdges, Player, UiAction, pointer_free};
use super::playback::{Shown, Timeline};

/// Follow the acting combatant when a turn starts.
#[derive(Resource, Clone, Copy, Debug)]
pub struct Follow(pub bool);

impl Default for Follow {
    fn default() -> Self {
        Follow(true)
    }
}

/// How the battle is framed: fitted to the panels as they were drawn (the
/// first frame guesses their sizes), and whether the player has moved or
/// zoomed the camera since; until then a change of the panels fits the map
/// again.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Framing {
    pub fitted_to: Option<PanelEdges>,
    pub held: bool,
}

pub fn plugin(app: &mut App) {
    // Spawned at once, not in `Startup`: a game started straight into a
    // battle enters it before `Startup` runs, and fits the map to this camera.
    app.world_mut().spawn((Camera2d, MainCamera));
    app.init_resource::<Follow>()
        .init_resource::<Framing>()
        .add_systems(
            OnEnter(Screen::Battle),
            fit_map.in_set(crate::game::AppSystems::View),
        )
        .add_systems(OnExit(Screen::Battle), reset_camera)
        .add_systems(
            Update,
            (pan_zoom, refit, follow)
                .chain()
                .in_set(crate::game::AppSystems::View)
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

/// The zoom and camera position that show the whole map, with half a tile
/// around it, in the space the panels leave free (and no closer than
/// twice the tiles' size).
pub fn fit(map: &Map, window: Vec2, e: &PanelEdges) -> (f32, Vec2) {
    let (w, h) = (map.width() as f32 * TILE, map.height() as f32 * TILE);
    let avail = Vec2::new(
        (window.x - e.left - e.right).max(160.0),
        (window.y - e.top - e.bottom).max(120.0),
    );
    let s = ((w + TILE) / avail.x)
        .max((h + TILE) / avail.y)
        .clamp(0.5, 6.0);
    (s, panel_offset(s, e))
}

/// Start a battle with the whole map in view.
fn fit_map(
    map: Res<Map>,
    edges: Res<PanelEdges>,
    mut framing: ResMut<Framing>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
) {
    let (s, at) = fit(&map, window.size(), &edges);
    set_scale(&mut cam.1, s);
    cam.0.translation.x = at.x;
    cam.0.translation.y = at.y;
    *framing = Framing {
        fitted_to: Some(*edges),
        held: false,
    };
}

/// Fit the map again when the panels' sizes become known (their first
/// drawing) or change, unless the player has framed the battle since; and
/// when the player asks (M, Home).
fn refit(
    action: Single<&ActionState<UiAction>, With<Player>>,
    map: Res<Map>,
    edges: Res<PanelEdges>,
    framing: ResMut<Framing>,
    window: Single<&Window, With<PrimaryWindow>>,
    cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
) {
    let asked = action.just_pressed(&UiAction::FitMap);
    if asked || (!framing.held && framing.fitted_to != Some(*edges)) {
        fit_map(map, edges, framing, window, cam);
    }
}

/// Where the camera must stand, relative to a point, to show that point in
/// the middle of the space the panels `e` leave free, at zoom `scale`.
pub fn panel_offset(scale: f32, e: &PanelEdges) -> Vec2 {
    Vec2::new((e.right - e.left) / 2.0, -(e.bottom - e.top) / 2.0) * scale
}

/// The free space's rectangle in the window (logical pixels, y down).
fn free_space(window: Vec2, e: &PanelEdges) -> Rect {
    Rect::new(e.left, e.top, window.x - e.right, window.y - e.bottom)
}

/// Is the whole map in the free space, with the camera at `cam`?
pub fn map_in_view(map: &Map, cam: Vec2, scale: f32, window: Vec2, e: &PanelEdges) -> bool {
    let (w, h) = (map.width() as f32 * TILE, map.height() as f32 * TILE);
    let free = free_space(window, e);
    let to_screen = |p: Vec2| {
        Vec2::new(
            (p.x - cam.x) / scale + window.x / 2.0,
            window.y / 2.0 - (p.y - cam.y) / scale,
        )
    };
    let (a, b) = (
        to_screen(Vec2::new(-w / 2.0, h / 2.0)),
        to_screen(Vec2::new(w / 2.0, -h / 2.0)),
    );
    a.x >= free.min.x - 1.0
        && a.y >= free.min.y - 1.0
        && b.x <= free.max.x + 1.0
        && b.y <= free.max.y + 1.0
}

fn reset_camera(mut cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>) {
    cam.0.translation = Vec3::ZERO;
    set_scale(&mut cam.1, 1.0);
}

#[allow(clippy::too_many_arguments)]
fn pan_zoom(
    time: Res<Time>,
    mut framing: ResMut<Framing>,
    action: Single<&ActionState<UiAction>, With<Player>>,
    window: Single<&Window, With<PrimaryWindow>>,
    free: Option<Res<bevy_egui::input::EguiWantsInput>>,
    cover: Res<PanelCover>,
    map: Res<Map>,
    mut cam: Single<(&mut Transform, &mut Projection), With<MainCamera>>,
    mut last_cursor: Local<Option<Vec2>>,
) {
    let pointer_ok = pointer_free(free.as_deref(), &cover, window.cursor_position());
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
    // The player framed the battle: it stays as they left it.
    if pan != Vec2::ZERO || zoom != 0.0 || action.pressed(&UiAction::Drag) {
        framing.held = true;
    }
    // Keep the map in reach.
    let (w, h) = (map.width() as f32 * TILE, map.height() as f32 * TILE);
    cam.0.translation.x = cam.0.translation.x.clamp(-w, w);
    cam.0.translation.y = cam.0.translation.y.clamp(-h, h);
}

/// Bring the acting combatant into view when its turn starts, and the
/// human's prompted character (a reaction, an activation) when the prompt
/// changes; the camera moves only as far as needed to show it clear of the
/// panels, and not at all while the whole map is in view. The centre key
/// always centres; fitting the map stops a glide.
#[allow(clippy::too_many_arguments)]
fn follow(
    follow: Res<Follow>,
    map: Res<Map>,
    edges: Res<PanelEdges>,
    action: Single<&ActionState<UiAction>, With<Player>>,
    mut tl: ResMut<Timeline>,
    shown: Res<Shown>,
    turn: Res<crate::game::battle::logic::TurnUi>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut last_prompted: Local<Option<crate::rules::components::Cid>>,
    mut target: Local<Option<Vec2>>,
    time: Res<Time>,
    mut cam: Single<(&mut Transform, &Projection), With<MainCamera>>,
) {
    let scale = scale_of(cam.1);
    let off = panel_offset(scale, &edges);
    let cur = cam.0.translation.truncate();
    let new_turn = std::mem::take(&mut tl.focus_new);
    let all_in_view = map_in_view(&map, cur, scale, window.size(), &edges);
    if action.just_pressed(&UiAction::FitMap) {
        *target = None;
    } else if action.just_pressed(&UiAction::Centre)
        && let Some(cid) = tl.focus
    {
        *target = shown.get(cid).map(|s| s.pos + off);
    } else if new_turn
        && follow.0
        && !all_in_view
        && let Some(cid) = tl.focus
    {
        *target = shown
            .get(cid)
            .and_then(|s| into_view(s.pos, cur, scale, window.size(), &edges));
    }
    let prompted = turn.options.actor;
    if prompted != *last_prompted {
        *last_prompted = prompted;
        if let Some(cid) = prompted
            && !all_in_view
            && let Some(s) = shown.get(cid)
            && let Some(t) = into_view(s.pos, target.unwrap_or(cur), scale, window.size(), &edges)
        {
            *target = Some(t);
        }
    }
    // Any manual panning cancels the glide.
    if action.axis_pair(&UiAction::Pan) != Vec2::ZERO || action.pressed(&UiAction::Drag) {
        *target = None;
    }
    if let Some(t) = *target {
        let k = (time.delta_secs() * 6.0).min(1.0);
        let next = cur.lerp(t, k);
        cam.0.translation.x = next.x;
        cam.0.translation.y = next.y;
        if next.distance(t) < 2.0 {
            *target = None;
        }
    }
}

/// The camera position that shows world point `p` inside the space the
/// panels leave free (with a margin of a tile and a half), moving the
/// camera at `cam` as little as possible; `None` if it is in view already.
pub fn into_view(p: Vec2, cam: Vec2, scale: f32, window: Vec2, e: &PanelEdges) -> Option<Vec2> {
    let m = TILE * 1.5 / scale;
    let (left, right) = (e.left + m, window.x - e.right - m);
    let (top, bottom) = (e.top + m, window.y - e.bottom - m);
    if left >= right || top >= bottom {
        return Some(p + panel_offset(scale, e));
    }
    // Screen position of p with the camera at `cam`.
    let sx = (p.x - cam.x) / scale + window.x / 2.0;
    let sy = window.y / 2.0 - (p.y - cam.y) / scale;
    let dx = if sx < left {
        (sx - left) * scale
    } else if sx > right {
        (sx - right) * scale
    } else {
        0.0
    };
    let dy = if sy < top {
        -(sy - top) * scale
    } else if sy > bottom {
        -(sy - bottom) * scale
    } else {
        0.0
    };
    (dx != 0.0 || dy != 0.0).then(|| cam + Vec2::new(dx, dy))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn into_view_moves_only_as_far_as_needed() {
        let win = Vec2::new(1440.0, 900.0);
        let e = PanelEdges::default();
        // The camera at the origin, zoom 1: screen x = p.x + 720.
        // A point in the free space needs no move.
        assert_eq!(
            into_view(Vec2::new(0.0, 0.0), Vec2::ZERO, 1.0, win, &e),
            None
        );
        // A point under the left panel (screen x 120): the camera moves
        // left until it sits at the panel's edge plus the margin.
        let t = into_view(Vec2::new(-600.0, 0.0), Vec2::ZERO, 1.0, win, &e).unwrap();
        let sx = (-600.0 - t.x) + 720.0;
        assert!((sx - (260.0 + TILE * 1.5)).abs() < 0.01, "{sx}");
        assert_eq!(t.y, 0.0);
        // Below the bottom panel: the camera moves down (y falls).
        let t = into_view(Vec2::new(0.0, -400.0), Vec2::ZERO, 1.0, win, &e).unwrap();
        assert!(t.y < 0.0 && t.x == 0.0);
    }
}
