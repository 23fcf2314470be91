//! The battle setup: a level, a ruleset, who plays each faction, the seed,
//! the level in miniature, then Start or Back.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::view::panels::{colour32, egui_ctx, root_ui};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Catalog, Screen, Session};
use crate::game::widgets::Tag;
use crate::rules::components::Controller;

use super::minimap::{Piece, minimap};
use super::{big_button, send};

/// Who may play a faction: the controller, its button and its tooltip.
const CONTROLLERS: [(Controller, &str, &str); 4] = [
    (
        Controller::Human,
        "Human at this desk",
        "You give this faction's commands",
    ),
    (
        Controller::EasyAi,
        "AI: easy",
        "The AI with a worse eye: one choice in two (where to move, whom to attack, who acts, how to meet an attack) goes elsewhere at random",
    ),
    (Controller::Ai, "AI: normal", "The tactical AI"),
    (
        Controller::HardAi,
        "AI: hard",
        "The tactical AI looking ahead: before each choice it plays the battle on from here for its own choice and a few others, and keeps the one that fared best (up to 0.2 s a decision)",
    ),
];

/// The setup screen's system: the levels on the left; on the right the
/// ruleset, the factions' players, what Start will begin, the seed, the
/// level in miniature and the buttons.
pub(super) fn setup(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let catalog = world.resource::<Catalog>().clone();
    let Some(session) = world.get_resource::<Session>().cloned() else {
        return;
    };
    let mut asked = Vec::new();
    let mut root = root_ui(&ctx, "setup");
    let w: &World = world;
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.heading(egui::RichText::new("Battle setup").size(30.0));
        ui.add_space(10.0);
        ui.columns(2, |cols| {
            levels(&mut cols[0], &catalog, &session, &mut asked);
            let ui = &mut cols[1];
            rulesets(ui, w, &session, &mut asked);
            players(ui, &session, &mut asked);
            ui.add_space(12.0);
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new("Seed").strong());
                let mut seed = session.seed;
                if ui
                    .add(egui::DragValue::new(&mut seed))
                    .tag("setup: seed")
                    .changed()
                {
                    asked.push(ScreenIntent::Seed(seed));
                }
            });
            ui.add_space(12.0);
            minimap(ui, &session.level.map, &level_pieces(&session));
            ui.add_space(20.0);
            ui.horizontal(|ui| {
                if big_button(ui, "Start battle", "setup: start") {
                    asked.push(ScreenIntent::Start);
                }
                if ui.button("Back").tag("setup: back").clicked() {
                    asked.push(ScreenIntent::Open(Screen::Title));
                }
            });
        });
    });
    send(world, asked);
}

/// The levels to choose from, each with its size, its combatants and its
/// description (or why it did not load).
fn levels(ui: &mut egui::Ui, catalog: &Catalog, session: &Session, asked: &mut Vec<ScreenIntent>) {
    ui.label(egui::RichText::new("Level").strong().size(18.0));
    egui::ScrollArea::vertical()
        .id_salt("levels")
        .show(ui, |ui| {
            for (path, level) in &catalog.levels {
                match level {
                    Ok(l) => {
                        let chosen = *path == session.path;
                        let r = ui.selectable_label(
                            chosen,
                            egui::RichText::new(format!(
                                "{}  ({}×{}, {} combatants)",
                                l.name,
                                l.map.width(),
                                l.map.height(),
                                l.combatants.len()
                            ))
                            .size(16.0),
                        );
                        let r = r.tag("setup: level");
                        if r.clicked() && !chosen {
                            asked.push(ScreenIntent::PickLevel(path.clone()));
                        }
                        ui.label(egui::RichText::new(&l.description).weak());
                        ui.add_space(6.0);
                    }
                    Err(e) => {
                        ui.label(egui::RichText::new(e).color(egui::Color32::LIGHT_RED));
                    }
                }
            }
        });
}

/// The rulesets: those this level supports to pick, the others greyed out
/// with why on hover.
fn rulesets(ui: &mut egui::Ui, world: &World, session: &Session, asked: &mut Vec<ScreenIntent>) {
    ui.label(egui::RichText::new("Ruleset").strong().size(18.0));
    ui.horizontal(|ui| {
        for r in crate::rulesets::KNOWN {
            let supported = session.supported.contains(&r);
            // Why a ruleset is greyed out: not built yet, or not
            // for this level (the level's own words).
            let why = if supported {
                String::new()
            } else {
                match crate::rules::engine::validate(world, &session.level, r) {
                    Err(e) if e.message.contains("not implemented") => format!(
                        "{r} is not playable yet: its rules are still being built \
                         into Fray (rule text: shared/rules/{r}.txt)"
                    ),
                    Err(e) => format!("Not for this level: {}", e.message),
                    Ok(()) => String::new(),
                }
            };
            let resp = ui
                .add_enabled(
                    supported,
                    egui::Button::selectable(session.ruleset == r, r.id()),
                )
                .tag("setup: ruleset")
                .on_disabled_hover_text(why);
            if resp.clicked() {
                asked.push(ScreenIntent::PickRuleset(r));
            }
        }
    });
    ui.label(
        egui::RichText::new(
            "Greyed out: not playable yet, or not for this level (hover one to see why).",
        )
        .weak(),
    );
}

/// Who plays each faction (a human or the AI at a level), then what Start
/// will begin, said before it is pressed.
fn players(ui: &mut egui::Ui, session: &Session, asked: &mut Vec<ScreenIntent>) {
    ui.add_space(12.0);
    ui.label(
        egui::RichText::new("Who plays each faction")
            .strong()
            .size(18.0),
    );
    for (i, f) in session.level.factions.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(&f.name)
                    .color(colour32(f.colour))
                    .strong(),
            );
            let now = session.controls.get(i).copied();
            for (c, label, tip) in CONTROLLERS {
                if ui
                    .selectable_label(now == Some(c), label)
                    .on_hover_text(tip)
                    .tag("setup: control")
                    .clicked()
                {
                    asked.push(ScreenIntent::Control(i, c));
                }
            }
        });
    }
    let humans = session
        .controls
        .iter()
        .filter(|c| **c == Controller::Human)
        .count();
    let start = match humans {
        0 => "Every side is played by the AI: Start opens a GM preview \
              (you watch, pause and step)."
            .to_string(),
        1 => "You play one side against the AI.".to_string(),
        n => format!("{n} humans at this desk: hotseat, each side in turn."),
    };
    ui.label(egui::RichText::new(start).strong());
}

/// The level's combatants where they start, in their factions' colours.
fn level_pieces(session: &Session) -> Vec<Piece> {
    session
        .level
        .combatants
        .iter()
        .map(|c| Piece {
            at: c.at,
            colour: session
                .level
                .factions
                .iter()
                .find(|f| f.id == c.faction)
                .map_or(egui::Color32::WHITE, |f| colour32(f.colour)),
            fallen: false,
        })
        .collect()
}
