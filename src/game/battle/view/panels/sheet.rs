//! The right panel: the sheet of the selected (or acting) combatant.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::TurnUi;
use crate::game::battle::view::playback::Shown;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::components::{Cid, Controller};
use crate::rules::hooks::ActiveRuleset;
use crate::rules::roster::{Factions, Roster};
use crate::rules::view;

use super::faction_colour;

/// The right panel; returns where it was drawn.
pub(super) fn sheet_panel(
    root: &mut egui::Ui,
    world: &World,
    battle: &Battle,
    ui_state: &TurnUi,
) -> egui::Rect {
    let right = egui::Panel::right("sheet")
        .exact_size(330.0)
        .show(root, |ui| {
            // The selected combatant, else whoever acts; while a side
            // chooses who acts, the character under the pointer.
            let who = ui_state.selected.or(match battle.prompt {
                Prompt::Activate { .. } => ui_state.hover.and_then(|h| view::standing_at(world, h)),
                p => p.actor(),
            });
            match who {
                Some(c) => sheet(ui, world, c),
                None => {
                    ui.label("Click a combatant to see its sheet.");
                }
            }
        });
    right.response.rect
}

/// One combatant's sheet: name, side, kind and controller; HP, EP and
/// conditions as shown; grabs and facing; then the ruleset's rows.
fn sheet(ui: &mut egui::Ui, world: &World, c: Cid) {
    let roster = world.resource::<Roster>();
    ui.heading(egui::RichText::new(roster.name(c)).color(faction_colour(world, c)));
    let f = view::faction(world, c).unwrap_or(0);
    if let Some(faction) = world.resource::<Factions>().0.get(f as usize) {
        let arch = view::get::<crate::rules::components::Archetype>(world, c)
            .map_or(String::new(), |a| a.0.clone());
        let ctl = match view::get::<Controller>(world, c) {
            Some(Controller::Human) => "human",
            Some(Controller::EasyAi) => "AI (easy)",
            Some(Controller::HardAi) => "AI (hard)",
            _ => "AI",
        };
        ui.label(format!("{} · {arch} · {ctl}", faction.name));
    }
    if let Some(s) = world.resource::<Shown>().get(c) {
        let hp = (s.hp.max(0) as f32 / s.hp_max.max(1) as f32).clamp(0.0, 1.0);
        ui.add(egui::ProgressBar::new(hp).text(format!("HP {}/{}", s.hp, s.hp_max)));
        if s.ep_max > 0 {
            let ep = (s.ep.max(0) as f32 / s.ep_max as f32).clamp(0.0, 1.0);
            ui.add(egui::ProgressBar::new(ep).text(format!("EP {}/{}", s.ep, s.ep_max)));
        }
        let conds: Vec<&str> = s.conds.iter().map(|c| c.name()).collect();
        if !conds.is_empty() {
            ui.label(egui::RichText::new(conds.join(", ")).italics());
        }
    }
    // Who holds whom in a grab, and (where the ruleset reads it) which way
    // it faces: on the board as a rope and a nose on the token.
    if let Some(by) = view::held_by(world, c) {
        ui.label(format!("held in a grab by {}", roster.name(by)));
    }
    if let Some(whom) = view::holding(world, c) {
        ui.label(format!("holding {} in a grab", roster.name(whom)));
    }
    let facing = world
        .get_resource::<ActiveRuleset>()
        .is_some_and(|a| a.0.facing);
    if facing
        && view::standing(world, c)
        && let Some(h) = view::get::<crate::rules::components::Heading>(world, c)
    {
        ui.label(format!("faces {}", h.0.name()));
    }
    ui.separator();
    if let Some(hooks) = world.get_resource::<ActiveRuleset>() {
        egui::Grid::new("sheet")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (k, v) in (hooks.0.sheet)(world, c) {
                    // Each row says what it means on hover.
                    let tip = (hooks.0.sheet_tip)(world, c, &k);
                    let key = ui.label(egui::RichText::new(&k).strong());
                    let value = ui.add(egui::Label::new(v).wrap());
                    if let Some(tip) = tip {
                        key.on_hover_text(&tip);
                        value.on_hover_text(&tip);
                    }
                    ui.end_row();
                }
            });
    }
}
