//! `fray` with no command: the game window (or, built without it, a
//! simulation of the default level).

use std::path::PathBuf;

/// Open the game: on `screen` first, maybe saving a screenshot `(file,
/// after frames)` or walking the `tour` of every screen.
#[cfg(feature = "gui")]
pub(super) fn run(
    screen: Option<String>,
    shot: Option<(PathBuf, u32)>,
    tour: Option<PathBuf>,
) -> Result<(), String> {
    crate::game::run(crate::game::GameOptions {
        screen,
        screenshot: shot,
        tour,
        ..Default::default()
    })
}

/// Built without the game window: simulate the default level instead.
#[cfg(not(feature = "gui"))]
pub(super) fn run(
    _screen: Option<String>,
    _shot: Option<(PathBuf, u32)>,
    _tour: Option<PathBuf>,
) -> Result<(), String> {
    eprintln!("fray: built without the game window (feature `gui`); simulating the default level.");
    let batch = super::args::Batch {
        seed: 1,
        workers: super::args::Workers::default(),
    };
    super::simulate::simulate(&super::args::default_level(), None, 1000, &batch, &[])
}
