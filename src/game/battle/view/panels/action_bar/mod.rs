//! The action bar at the bottom of the screen: the tools a click on the
//! map uses and the buttons of the commands the rules allow now, then the
//! rules core's preview of what a click would do. While a side chooses who
//! acts, the activation bar instead.

mod activation;
mod buttons;
mod names;
mod tools;

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::TurnUi;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::components::Cid;
use crate::rules::hooks::ActiveRuleset;
use crate::rules::log::LastRejection;

use super::Asked;
use super::combat_log::for_players;
use super::preview::preview_lines;

/// The height of the bottom panel's action bar and preview.
pub(super) const BAR_HEIGHT: f32 = 136.0;

/// `actor`'s bar: nothing to click while it reacts (the dialog asks) or
/// before the options of this prompt are laid out; else the tools and
/// buttons on one line, then what a click would do.
pub(super) fn action_bar(
    ui: &mut egui::Ui,
    world: &World,
    actor: Cid,
    st: &TurnUi,
    asked: &mut Asked,
) {
    let battle = world.resource::<Battle>();
    if matches!(battle.prompt, Prompt::React { .. }) {
        ui.label("Choose a reaction in the dialog (keys 1, 2, 3, ...).");
        return;
    }
    // Options laid out for another prompt (the frame before the screen
    // catches up) are not shown: their buttons would flash and vanish.
    if !st.is_current(world) || st.options.actor != Some(actor) {
        ui.label(egui::RichText::new("…").weak());
        return;
    }
    if matches!(battle.prompt, Prompt::Activate { .. }) {
        activation::activation_bar(ui, world, st, asked);
        return;
    }
    let bar = ui.horizontal_wrapped(|ui| {
        tools::tools(ui, world, actor, st, asked);
        ui.separator();
        buttons::buttons(ui, world, actor, st, asked);
    });
    // How many rows the bar took: the screen walk holds it to one.
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    crate::game::widgets::note_rows(
        ui.ctx(),
        "action bar",
        (bar.response.rect.height() / row).round() as u32,
    );
    below_the_bar(ui, world, st);
}

/// Under the bar: why the last command was refused, what a click would do
/// (or the ruleset's hint, or how the cells read), and the ground under
/// the cursor.
fn below_the_bar(ui: &mut egui::Ui, world: &World, st: &TurnUi) {
    if let Some((_, why)) = world.resource::<LastRejection>().0.as_ref() {
        ui.label(egui::RichText::new(format!("Refused: {why}")).color(egui::Color32::LIGHT_RED));
    }
    // What a click would do.
    if let Some(h) = st.hover
        && let Some(c) = st.command_at(world, h)
    {
        preview_lines(ui, world, &c);
    } else if let Some(hint) = &st.options.offers.hint {
        // The ruleset's word on this prompt (brp: which phase of the round).
        ui.label(egui::RichText::new(hint).weak());
    } else {
        ui.label(egui::RichText::new(
            "Blue cells keep the action; amber cells are a full movement. Red rings: targets. Click an enemy to attack it.",
        ).weak());
    }
    terrain_line(ui, world, st.hover);
}

/// What the ground under the cursor means under the ruleset in force
/// (cover, cost to cross).
fn terrain_line(ui: &mut egui::Ui, world: &World, hover: Option<crate::rules::map::Cell>) {
    let (Some(h), Some(hooks)) = (hover, world.get_resource::<ActiveRuleset>()) else {
        return;
    };
    let t = world.resource::<crate::rules::map::Map>().terrain(h);
    if let Some(note) = (hooks.0.terrain_note)(world, t) {
        ui.label(egui::RichText::new(for_players(&note)).italics());
    }
}
