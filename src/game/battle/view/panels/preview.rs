//! The rules core's preview of a command, as the panels show it: a title
//! with the odds and the damage, why it is not allowed now, and the
//! detail lines.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::preview;
use crate::rules::command::Command;

use super::combat_log::for_players;

/// A preview's detail line, readable: the size of the text around it, in
/// a light grey; what turns a fight (a blow from behind) in amber.
pub(super) fn detail(line: &str) -> egui::RichText {
    let shouting = line
        .split_whitespace()
        .next()
        .is_some_and(|w| w.len() > 2 && w.chars().all(|c| c.is_ascii_uppercase()));
    let colour = if shouting {
        egui::Color32::from_rgb(250, 200, 110)
    } else {
        egui::Color32::from_gray(205)
    };
    egui::RichText::new(for_players(line))
        .size(13.0)
        .color(colour)
}

/// The preview of `command` (nothing if the rules core has none).
pub(super) fn preview_lines(ui: &mut egui::Ui, world: &World, command: &Command) {
    let Some(p) = preview(world, command) else {
        return;
    };
    let mut title = p.title.clone();
    if let Some(ch) = p.chance {
        title.push_str(&format!("  —  {:.0}%", ch * 100.0));
    }
    if let Some((lo, hi)) = p.damage {
        title.push_str(&format!("  —  {lo}-{hi} HP"));
    }
    ui.label(egui::RichText::new(title).strong());
    if let Some(why) = &p.illegal {
        ui.label(egui::RichText::new(format!("not now: {why}")).color(egui::Color32::LIGHT_RED));
    }
    for l in &p.lines {
        ui.label(detail(l));
    }
}
