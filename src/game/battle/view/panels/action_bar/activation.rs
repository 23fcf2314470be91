//! The activation bar: under alternating activation, which of the
//! faction's characters takes the turn, or pass.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::{TurnUi, UiIntent};
use crate::game::widgets::{Tag, command_kind};
use crate::rules::hooks::Give;

use super::super::Asked;
use super::super::preview::preview_lines;

/// Alternating activation: which of the faction's characters takes the
/// turn, or pass.
pub(super) fn activation_bar(ui: &mut egui::Ui, world: &World, st: &TurnUi, asked: &mut Asked) {
    ui.label(
        egui::RichText::new(
            "Your faction's turn: click one of your highlighted characters to act with, or pass.",
        )
        .strong(),
    );
    ui.horizontal_wrapped(|ui| {
        for o in &st.options.offers.list {
            let (c, label) = (&o.command, o.label.clone());
            let b = ui.button(label).tag(format!("offer: {}", command_kind(c)));
            if b.hovered() {
                asked.hover_preview = Some(c.clone());
            }
            if b.clicked() {
                asked.intents.push(UiIntent::Command(c.clone()));
            }
        }
    });
    let shown = asked.hover_preview.clone().or_else(|| {
        st.hover.and_then(|h| st.command_at(world, h)).filter(|c| {
            st.options
                .offers
                .list
                .iter()
                .any(|o| o.command == *c && matches!(o.give, Give::Click(_)))
        })
    });
    match (shown, &st.options.offers.hint) {
        (Some(c), _) => preview_lines(ui, world, &c),
        (None, Some(hint)) => {
            ui.label(egui::RichText::new(hint).weak());
        }
        (None, None) => {}
    }
}
