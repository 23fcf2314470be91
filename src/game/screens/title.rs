//! The title screen: the game's name and the ways in (a skirmish against
//! the AI, a GM preview, the battle setup) and out.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::view::panels::{egui_ctx, root_ui};
use crate::game::flow::ScreenIntent;
use crate::game::session::Screen;

use super::{big_button, send};

/// The title screen's system.
pub(super) fn title(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let mut root = root_ui(&ctx, "title");
    let mut asked = Vec::new();
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.18);
            ui.label(
                egui::RichText::new("FRAY")
                    .size(96.0)
                    .strong()
                    .color(egui::Color32::from_rgb(230, 200, 120)),
            );
            ui.label(
                egui::RichText::new("tabletop combat rules, played out on a map")
                    .size(20.0)
                    .italics(),
            );
            ui.add_space(40.0);
            if big_button(ui, "Skirmish against the AI", "title: skirmish") {
                asked.push(ScreenIntent::Skirmish);
            }
            ui.add_space(8.0);
            if big_button(ui, "GM preview (AI against AI)", "title: preview") {
                asked.push(ScreenIntent::GmPreview);
            }
            ui.add_space(8.0);
            if big_button(ui, "Set up a battle…", "title: setup") {
                asked.push(ScreenIntent::Open(Screen::Setup));
            }
            ui.add_space(8.0);
            if big_button(ui, "Quit", "title: quit") {
                asked.push(ScreenIntent::Quit);
            }
            ui.add_space(30.0);
            ui.label(egui::RichText::new("F1 in battle lists every control").weak());
        });
    });
    send(world, asked);
}
