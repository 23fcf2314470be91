//! What the player sees on the battle screen and how they touch it.

pub mod bench;
pub mod board;
pub mod camera;
pub mod input;
pub mod panels;
pub mod playback;
pub mod tokens;
pub mod whereabouts;

use bevy::prelude::*;

use crate::rules::map::{Cell, Map};

/// World units per map cell.
pub const TILE: f32 = 64.0;

/// The one camera (the egui panels draw through it too); the camera
/// moves it, the input reads the pointer through it.
#[derive(Component)]
pub struct MainCamera;

/// The centre of a cell in world coordinates (cells count down, the world
/// counts up).
pub fn cell_to_world(map: &Map, c: Cell) -> Vec2 {
    Vec2::new(
        (c.x as f32 + 0.5 - map.width() as f32 / 2.0) * TILE,
        (map.height() as f32 / 2.0 - c.y as f32 - 0.5) * TILE,
    )
}

/// The cell under a world position, if on the map.
pub fn world_to_cell(map: &Map, p: Vec2) -> Option<Cell> {
    let x = (p.x / TILE + map.width() as f32 / 2.0).floor() as i32;
    let y = (map.height() as f32 / 2.0 - p.y / TILE).floor() as i32;
    let c = Cell::new(x, y);
    map.in_bounds(c).then_some(c)
}

pub fn plugin(app: &mut App) {
    board::plugin(app);
    camera::plugin(app);
    input::plugin(app);
    tokens::plugin(app);
    playback::plugin(app);
    panels::plugin(app);
    whereabouts::plugin(app);
}

#[cfg(test)]
mod tests;
