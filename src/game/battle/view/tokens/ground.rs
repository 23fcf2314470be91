//! What lies on the ground (a dropped weapon), drawn small in a corner of
//! its cell.

use bevy::prelude::*;

use crate::game::AppSystems;
use crate::game::session::Screen;
use crate::rules::battle::Ground;
use crate::rules::map::Map;

use super::super::TILE;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        // The ground exists before any battle (the core inits it), but a
        // condition runs even where its set's `in_state` fails, so it must
        // never require a resource only a battle brings.
        sync_ground
            .run_if(resource_exists_and_changed::<Ground>)
            .in_set(AppSystems::View)
            .run_if(in_state(Screen::Battle)),
    );
}

/// A weapon lying on the ground, drawn small in a corner of its cell.
#[derive(Component)]
struct GroundItem;

/// The icon of a weapon, by its id.
pub fn weapon_icon(id: &str) -> &'static str {
    match id {
        "dagger" => "dagger",
        "axe" | "battleaxe" => "axe",
        "spear" => "spear",
        "bow" => "bow",
        "crossbow" | "musket" => "crossbow",
        "mace" | "giant_club" | "improvised" | "improvised_great" => "club",
        "javelin" => "javelin",
        _ => "sword",
    }
}

/// Redraw what lies on the ground whenever it changes.
fn sync_ground(
    mut commands: Commands,
    ground: Res<Ground>,
    map: Res<Map>,
    assets: Res<AssetServer>,
    old: Query<Entity, With<GroundItem>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    for (i, (cell, w)) in ground.0.iter().enumerate() {
        // Several on one cell fan out a little.
        let p = super::super::cell_to_world(&map, *cell)
            + Vec2::new(-TILE * 0.4 + 6.0 * i as f32, -TILE * 0.4);
        commands.spawn((
            GroundItem,
            Sprite {
                image: assets.load("tokens/disc.png"),
                color: Color::srgb(0.93, 0.87, 0.7),
                custom_size: Some(Vec2::splat(TILE * 0.4)),
                ..default()
            },
            // Over the token of whoever stands on it, so it is seen.
            Transform::from_xyz(p.x, p.y, 11.0),
            DespawnOnExit(Screen::Battle),
        ));
        commands.spawn((
            GroundItem,
            Sprite {
                image: assets.load(format!("tokens/{}.png", weapon_icon(&w.id))),
                custom_size: Some(Vec2::splat(TILE * 0.32)),
                ..default()
            },
            Transform::from_xyz(p.x, p.y + 1.0, 11.1),
            DespawnOnExit(Screen::Battle),
        ));
    }
}
