//! The battle screen: `logic` (runs without a window: starting the battle,
//! turning the player's clicks into commands, stepping AI turns, ending in
//! the results) and `view` (the map, tokens, animations, camera, input and
//! panels).

pub mod logic;
pub mod view;
