//! The help overlay (every key, and the ruleset's own) and the primer on
//! how a round goes, shown on each battle's first round until dismissed.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::view::input::HELP;
use crate::game::widgets::Tag;
use crate::rules::battle::Battle;
use crate::rules::hooks::ActiveRuleset;

use super::{Asked, PrimerOpen};

/// The Controls window: the keys, then the ruleset's round and its own
/// keys and prompts.
pub(super) fn help_window(ctx: &egui::Context, world: &World, asked: &mut Asked) {
    let help = egui::Window::new("Controls")
        .order(egui::Order::Foreground)
        .collapsible(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Grid::new("help").striped(true).show(ui, |ui| {
                for (keys, what) in HELP {
                    ui.label(egui::RichText::new(*keys).strong());
                    ui.label(*what);
                    ui.end_row();
                }
            });
            // The ruleset's own keys and prompts, and its round.
            if let Some(hooks) = world.get_resource::<ActiveRuleset>().map(|h| h.0) {
                if !hooks.round.is_empty() {
                    ui.separator();
                    ui.label(egui::RichText::new(format!("A round under {}", hooks.id)).strong());
                    for line in hooks.round {
                        ui.add(egui::Label::new(*line).wrap());
                    }
                }
                ui.separator();
                ui.label(egui::RichText::new(format!("Under {}", hooks.id)).strong());
                egui::Grid::new("help_ruleset")
                    .striped(true)
                    .show(ui, |ui| {
                        for (keys, what) in hooks.help {
                            ui.label(egui::RichText::new(*keys).strong());
                            ui.label(*what);
                            ui.end_row();
                        }
                    });
            }
            if ui.button("Close").tag("help: close").clicked() {
                asked.help = Some(false);
            }
        });
    asked.covered.extend(help.map(|r| r.response.rect));
}

/// How a round goes, on the battle's first round, until dismissed.
pub(super) fn primer(ctx: &egui::Context, world: &World, battle: &Battle, asked: &mut Asked) {
    if world.resource::<PrimerOpen>().0
        && battle.round <= 1
        && battle.outcome.is_none()
        && let Some(hooks) = world.get_resource::<ActiveRuleset>().map(|h| h.0)
        && !hooks.round.is_empty()
    {
        let primer = egui::Window::new(format!("How a round goes under {}", hooks.id))
            .collapsible(false)
            .resizable(false)
            .default_width(400.0)
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(275.0, 50.0))
            .show(ctx, |ui| {
                ui.set_max_width(400.0);
                for line in hooks.round {
                    ui.add(egui::Label::new(format!("• {line}")).wrap());
                }
                ui.label(egui::RichText::new("F1 shows this again, with every key.").weak());
                if ui.button("Got it").tag("primer: close").clicked() {
                    asked.primer_closed = true;
                }
            });
        asked.covered.extend(primer.map(|r| r.response.rect));
    }
}
