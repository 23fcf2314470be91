//! The top bar: where the battle is (level, ruleset, seed), the round, whose
//! turn it is, and the Menu and Help buttons.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::view::input::HelpOpen;
use crate::game::flow::ScreenIntent;
use crate::game::session::Session;
use crate::game::widgets::Tag;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::components::Cid;
use crate::rules::roster::{Factions, Roster};

use super::{Asked, faction_colour};

/// The top panel; returns where it was drawn.
pub(super) fn top_bar(
    root: &mut egui::Ui,
    world: &World,
    battle: &Battle,
    roster: &Roster,
    human: Option<Cid>,
    session: Option<&Session>,
    asked: &mut Asked,
) -> egui::Rect {
    let top = egui::Panel::top("top").show(root, |ui| {
        ui.horizontal(|ui| {
            ui.heading("Fray");
            ui.separator();
            if let Some(s) = session {
                ui.label(format!("{}  ·  {}", s.level.name, s.ruleset));
                ui.label(egui::RichText::new(format!("seed {}", s.seed)).weak());
            }
            ui.separator();
            ui.label(egui::RichText::new(round_label(battle)).strong());
            // The ruleset's word on where the round is (brp: its phase, the
            // DEX rank the count has reached).
            if let Some(note) = world
                .get_resource::<crate::rules::hooks::ActiveRuleset>()
                .and_then(|h| (h.0.round_note)(world))
            {
                ui.label(egui::RichText::new(note).strong());
            }
            ui.separator();
            let col = battle
                .prompt
                .actor()
                .map_or(egui::Color32::WHITE, |a| faction_colour(world, a));
            ui.label(
                egui::RichText::new(whose_turn(world, battle, roster))
                    .color(col)
                    .strong(),
            );
            if let Some(a) = battle.prompt.actor() {
                let by = if human == Some(a) { "you" } else { "AI" };
                ui.label(format!("({by})"));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Menu (Esc)").tag("battle: menu").clicked() {
                    asked.screens.push(ScreenIntent::Menu(true));
                }
                if ui.button("Help (F1)").tag("battle: help").clicked() {
                    asked.help = Some(!world.resource::<HelpOpen>().0);
                }
            });
        });
    });
    top.response.rect
}

/// Which round it is, or the ambush's bonus round, or none yet.
fn round_label(battle: &Battle) -> String {
    if battle.round == 0 && battle.phase == crate::rules::battle::Phase::Activation {
        "Bonus round (ambush)".to_string()
    } else if battle.round == 0 {
        "Before the first round".to_string()
    } else {
        format!("Round {}", battle.round)
    }
}

/// Whose turn it is, who reacts to whom, or which side chooses who acts.
fn whose_turn(world: &World, battle: &Battle, roster: &Roster) -> String {
    match battle.prompt {
        Prompt::Act { actor } => format!("{}'s turn", roster.name(actor)),
        Prompt::React { actor, attacker } => format!(
            "{} reacts to {}'s attack",
            roster.name(actor),
            roster.name(attacker)
        ),
        Prompt::Activate { faction, .. } => format!(
            "{}: choose who acts, or pass",
            world
                .resource::<Factions>()
                .0
                .get(faction as usize)
                .map_or("?", |f| f.name.as_str())
        ),
        Prompt::None => "…".to_string(),
    }
}
