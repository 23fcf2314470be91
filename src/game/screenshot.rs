//! `--screenshot PATH --after-frames N`: save what the window shows after N
//! frames, then quit, so a screen can be checked with nobody at the desk.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Capturing, Screenshot, save_to_disk};

#[derive(Resource)]
struct Shot {
    path: PathBuf,
    after: u32,
    frame: u32,
    taken_at: Option<u32>,
}

pub fn plugin(app: &mut App, shot: Option<(PathBuf, u32)>) {
    if let Some((path, after)) = shot {
        app.insert_resource(Shot {
            path,
            after,
            frame: 0,
            taken_at: None,
        })
        .add_systems(Last, take);
    }
}

fn take(
    mut commands: Commands,
    mut shot: ResMut<Shot>,
    capturing: Query<(), With<Capturing>>,
    mut exit: MessageWriter<AppExit>,
) {
    shot.frame += 1;
    match shot.taken_at {
        None if shot.frame >= shot.after => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(shot.path.clone()));
            shot.taken_at = Some(shot.frame);
        }
        // Quit once the file is written (or after two seconds at worst).
        Some(at)
            if shot.frame > at + 3
                && capturing.is_empty()
                && (shot.path.exists() || shot.frame > at + 120) =>
        {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}
