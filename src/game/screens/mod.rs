//! The title screen, battle setup and the results (egui): one file each,
//! with the board in miniature they share (`minimap.rs`) and the results'
//! count of who did what (`tally.rs`).

mod minimap;
mod results;
mod setup;
mod tally;
mod title;

use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};

use crate::game::flow::ScreenIntent;
use crate::game::session::Screen;
use crate::game::widgets::Tag;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            title::title.run_if(in_state(Screen::Title)),
            setup::setup.run_if(in_state(Screen::Setup)),
            results::results.run_if(in_state(Screen::Results)),
        ),
    );
}

/// Send what the buttons asked for this frame.
fn send(world: &mut World, asked: Vec<ScreenIntent>) {
    for intent in asked {
        world.write_message(intent);
    }
}

/// A big button of the screens' (the title's, Start, the results' ways on);
/// true when clicked.
fn big_button(ui: &mut egui::Ui, text: &str, kind: &str) -> bool {
    ui.add_sized(
        [300.0, 44.0],
        egui::Button::new(egui::RichText::new(text).size(20.0)),
    )
    .tag(kind)
    .clicked()
}

#[cfg(test)]
mod tests;
