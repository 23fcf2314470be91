//! The reaction dialog: a human's character is attacked (or caught by a
//! blast, a move at a border, ...) and chooses how to react, keys 1, 2,
//! 3, ... or a click.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::{UiIntent, preview, reaction_choices};
use crate::game::battle::view::MainCamera;
use crate::game::battle::view::playback::Shown;
use crate::game::widgets::{Tag, command_kind};
use crate::rules::battle::Battle;
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::hooks::ActiveRuleset;
use crate::rules::roster::Roster;

use super::Asked;
use super::preview::detail;

/// Is `who`'s token in the upper half of the window?
fn reactor_in_upper_half(world: &World, who: Cid) -> bool {
    let Some(pos) = world
        .get_resource::<Shown>()
        .and_then(|s| s.get(who))
        .map(|s| s.pos)
    else {
        return false;
    };
    let Some(mut q) = world.try_query_filtered::<(&Transform, &Projection), With<MainCamera>>()
    else {
        return false;
    };
    let Some((t, p)) = q.iter(world).next() else {
        return false;
    };
    let scale = match p {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // World y above the camera centre is the upper half of the window.
    (pos.y - t.translation.y) / scale > 0.0
}

/// The dialog asking `actor` how it reacts to `attacker`: the question,
/// what is at stake, then one button per answer.
pub(super) fn reaction_dialog(
    ctx: &egui::Context,
    world: &World,
    actor: Cid,
    attacker: Cid,
    asked: &mut Asked,
) {
    let choices = reaction_choices(world);
    let (title, question) = title_and_question(world, actor, attacker, &choices);
    let (pivot, start) = placement(ctx, world, actor);
    let round = world.resource::<Battle>().round;
    let dialog = egui::Window::new(title)
        .id(egui::Id::new(("reaction", actor, attacker, round)))
        .collapsible(false)
        .resizable(false)
        .pivot(pivot)
        .default_pos(start)
        .show(ctx, |ui| {
            ui.label(question);
            // What is at stake for the one hit, said once above the answers.
            if let Some(stakes) = choices
                .iter()
                .find_map(|c| preview(world, c).and_then(|p| p.stakes))
            {
                ui.label(
                    egui::RichText::new(stakes)
                        .strong()
                        .color(egui::Color32::from_rgb(255, 170, 150)),
                );
            }
            answers(ui, world, choices, asked);
        });
    asked.covered.extend(dialog.map(|r| r.response.rect));
}

/// The dialog's title and question: the ruleset's, when the prompt is not
/// about an ordinary attack, else "Attacked!".
fn title_and_question(
    world: &World,
    actor: Cid,
    attacker: Cid,
    choices: &[Command],
) -> (String, String) {
    let roster = world.resource::<Roster>();
    world
        .get_resource::<ActiveRuleset>()
        .and_then(|h| (h.0.offers)(world, actor, choices).reaction)
        .unwrap_or_else(|| {
            (
                "Attacked!".to_string(),
                format!(
                    "{} attacks. How does {} react?",
                    roster.name(attacker),
                    roster.name(actor)
                ),
            )
        })
}

/// Where the dialog starts (its pivot and position): off the character it
/// asks about, at the top of the map, unless the character stands in the
/// upper half of the window. It can be dragged aside; each new prompt
/// starts afresh.
fn placement(ctx: &egui::Context, world: &World, actor: Cid) -> (egui::Align2, egui::Pos2) {
    let anchor = if reactor_in_upper_half(world, actor) {
        (egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -290.0))
    } else {
        (egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
    };
    let screen = ctx.viewport_rect();
    let start = match anchor.0 {
        egui::Align2::CENTER_BOTTOM => egui::pos2(screen.center().x, screen.max.y + anchor.1.y),
        _ => egui::pos2(screen.center().x, screen.min.y + anchor.1.y),
    };
    (anchor.0, start)
}

/// One button per answer, numbered for its key, with its odds; a rule
/// between kinds of answer; the preview's lines on hover.
fn answers(ui: &mut egui::Ui, world: &World, choices: Vec<Command>, asked: &mut Asked) {
    let mut kind = None;
    for (i, c) in choices.into_iter().enumerate() {
        let p = preview(world, &c).unwrap_or_default();
        // A rule between kinds of answer (dodges, counters, guards).
        let k = crate::game::battle::logic::reaction_kind(&p.title);
        if kind.as_ref().is_some_and(|prev| *prev != k) {
            ui.separator();
        }
        kind = Some(k);
        let odds = p
            .chance
            .map_or(String::new(), |ch| format!(" — {:.0}%", ch * 100.0));
        let b = ui
            .button(format!("{}: {}{odds}", i + 1, p.title))
            .tag(format!("reaction: {}", command_kind(&c)));
        if b.hovered() {
            for l in &p.lines {
                ui.label(detail(l));
            }
        }
        if b.clicked() {
            asked.intents.push(UiIntent::React(i));
        }
    }
}
