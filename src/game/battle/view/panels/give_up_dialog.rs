//! The dialog before a command that gives up a character's part in the
//! battle (a surrender, a flight over the edge).

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::{TurnUi, UiIntent};
use crate::game::widgets::Tag;
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::roster::Roster;

use super::Asked;
use super::preview::preview_lines;

/// Before a command that gives up a character's part in the battle (a
/// surrender, a flight over the edge): what it does, then yes or no.
pub(super) fn give_up_dialog(
    ctx: &egui::Context,
    world: &World,
    actor: Cid,
    st: &TurnUi,
    asked: &mut Asked,
) {
    let Some(c) = st.confirm.as_ref() else {
        return;
    };
    if !st.options.legal.contains(c) {
        return;
    }
    let name = world.resource::<Roster>().name(actor).to_string();
    let (title, says, yes) = match c {
        Command::Flee => (
            format!("{name} flees?"),
            format!(
                "{name} leaves the battle over the map's edge and takes no further part in it."
            ),
            "Yes, flee",
        ),
        _ => (
            format!("{name} gives up?"),
            format!("{name} takes no further part in the battle."),
            "Yes, give up",
        ),
    };
    let dialog = egui::Window::new(title)
        .id(egui::Id::new("give_up"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -80.0])
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(says).strong());
            preview_lines(ui, world, c);
            ui.horizontal(|ui| {
                if ui.button(yes).tag("give up: yes").clicked() {
                    asked.intents.push(UiIntent::Command(c.clone()));
                }
                if ui.button("No, fight on").tag("give up: no").clicked() {
                    asked.intents.push(UiIntent::AskFirst(None));
                }
            });
        });
    if let Some(d) = dialog {
        asked.covered.push(d.response.rect);
    }
}
