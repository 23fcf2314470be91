//! The action bar's tools: what a click on the map does (move or attack
//! with the weapon in hand, one of its other blows, one of the ruleset's
//! board tools), and on a mount, whether a click strikes rider or mount.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::{Tool, TurnUi, UiIntent};
use crate::game::widgets::{Tag, command_kind};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::hooks::Give;
use crate::rules::view;

use super::super::Asked;
use super::super::preview::preview_lines;
use super::names::spaced;

/// Every tool of `actor`'s, in the bar's order.
pub(super) fn tools(ui: &mut egui::Ui, world: &World, actor: Cid, st: &TurnUi, asked: &mut Asked) {
    move_tool(ui, st, asked);
    weapon_blows(ui, world, actor, st, asked);
    ruleset_tools(ui, world, st, asked);
    rider_or_mount(ui, world, actor, st, asked);
}

/// A tool's button. Its tooltip: what its first target would get (the
/// rules core's preview, with what it costs), or what the tool does.
fn tool_button(
    ui: &mut egui::Ui,
    world: &World,
    st: &TurnUi,
    t: Tool,
    label: &str,
    example: Option<&Command>,
    asked: &mut Asked,
) {
    let kind = match (&t, example) {
        (Tool::Offer(_), Some(c)) => format!("tool: {}", command_kind(c)),
        (Tool::Offer(name), None) => format!("tool: {name}"),
        (Tool::Attack { .. }, _) => "tool: blow".to_string(),
        (Tool::Move, _) => "tool: move".to_string(),
    };
    let r = ui.selectable_label(st.tool == t, label).tag(kind);
    let r = match example {
        Some(c) => r.on_hover_ui(|ui| {
            preview_lines(ui, world, c);
            ui.label(egui::RichText::new("Pick this tool, then click on the map.").weak());
        }),
        None => r,
    };
    if r.clicked() {
        asked.intents.push(UiIntent::Tool(t));
    }
}

/// Move, or attack with the weapon in hand.
fn move_tool(ui: &mut egui::Ui, st: &TurnUi, asked: &mut Asked) {
    let r = ui
        .selectable_label(st.tool == Tool::Move, "Move / attack")
        .tag("tool: move")
        .on_hover_text(
            "Click a highlighted cell to move there (blue cells keep your action, amber cells \
             are a full movement), or a ringed enemy to attack it with the weapon in hand.",
        );
    if r.clicked() {
        asked.intents.push(UiIntent::Tool(Tool::Move));
    }
}

/// The other blows of the weapon in hand: a tool each, or one menu when
/// there are several, so the bar stays one line.
fn weapon_blows(ui: &mut egui::Ui, world: &World, actor: Cid, st: &TurnUi, asked: &mut Asked) {
    let Some(l) = view::get::<Loadout>(world, actor) else {
        return;
    };
    let Some(ready) = l.ready else {
        return;
    };
    let Some(w) = l.weapons.get(ready) else {
        return;
    };
    // Only modes the rules allow on someone now (a vehicle has none).
    let example = |mode: usize| {
        st.options.legal.iter().find(|c| {
            matches!(c, Command::Attack { weapon, mode: m, .. } if *weapon == ready && *m == mode)
        })
    };
    let modes: Vec<usize> = (1..w.mode_count())
        .filter(|m| example(*m).is_some())
        .collect();
    if modes.len() <= 1 {
        for mode in modes {
            tool_button(
                ui,
                world,
                st,
                Tool::Attack {
                    weapon: ready,
                    mode,
                },
                &format!("{} ({})", w.name, w.mode_name(mode)),
                example(mode),
                asked,
            );
        }
        return;
    }
    // Several ways to strike: one menu, so the bar stays one line.
    let current = match st.tool {
        Tool::Attack { weapon, mode } if weapon == ready => Some(mode),
        _ => None,
    };
    let label = match current {
        Some(m) => format!("{} ({})…", w.name, w.mode_name(m)),
        None => format!("{}: other blows…", w.name),
    };
    let menu = ui.menu_button(label, |ui| {
        for &mode in &modes {
            let t = Tool::Attack {
                weapon: ready,
                mode,
            };
            let r = ui
                .selectable_label(st.tool == t, w.mode_name(mode))
                .tag("tool: blow");
            let r = match example(mode) {
                Some(c) => r.on_hover_ui(|ui| preview_lines(ui, world, c)),
                None => r,
            };
            if r.clicked() {
                asked.intents.push(UiIntent::Tool(t));
                ui.close();
            }
        }
    });
    menu.response.tag("tool: blows menu");
}

/// The ruleset's board tools (aim, retreat, shove, get off, ...): those of
/// one kind of command (shove, grab and disarm; the words) share one menu,
/// as a weapon's blows do, so the bar stays one line.
fn ruleset_tools(ui: &mut egui::Ui, world: &World, st: &TurnUi, asked: &mut Asked) {
    let mut tools: Vec<(&str, String, &Command)> = Vec::new();
    for o in &st.options.offers.list {
        if matches!(o.give, Give::On(_) | Give::At { .. })
            && !tools.iter().any(|(l, _, _)| *l == o.label.as_str())
        {
            tools.push((&o.label, command_kind(&o.command), &o.command));
        }
    }
    let mut kinds: Vec<&str> = Vec::new();
    for (_, k, _) in &tools {
        if !kinds.contains(&k.as_str()) {
            kinds.push(k);
        }
    }
    for kind in kinds {
        let members: Vec<&(&str, String, &Command)> =
            tools.iter().filter(|(_, k, _)| k == kind).collect();
        if let [(name, _, example)] = members.as_slice() {
            let t = Tool::Offer(name.to_string());
            tool_button(ui, world, st, t, name, Some(example), asked);
            continue;
        }
        let current = members
            .iter()
            .find(|(name, _, _)| st.tool == Tool::Offer(name.to_string()));
        let label = match current {
            Some((name, _, _)) => format!("{name}…"),
            None => format!("{}…", spaced(kind)),
        };
        let menu = ui.menu_button(label, |ui| {
            for (name, _, example) in &members {
                let t = Tool::Offer(name.to_string());
                let r = ui
                    .selectable_label(st.tool == t, *name)
                    .tag(format!("tool: {kind}"))
                    .on_hover_ui(|ui| preview_lines(ui, world, example));
                if r.clicked() {
                    asked.intents.push(UiIntent::Tool(t));
                    ui.close();
                }
            }
        });
        menu.response.tag(format!("tool: {kind} menu"));
    }
}

/// Riders on their mounts: which of the two a click strikes.
fn rider_or_mount(ui: &mut egui::Ui, world: &World, actor: Cid, st: &TurnUi, asked: &mut Asked) {
    let riders_about = view::enemies(world, actor)
        .into_iter()
        .any(|e| view::riding(world, e).is_some());
    if !riders_about {
        return;
    }
    ui.separator();
    ui.label("On a mount, strike:");
    if ui
        .selectable_label(!st.strike_mounts, "the rider")
        .tag("tool: strike the rider")
        .clicked()
    {
        asked.intents.push(UiIntent::StrikeMounts(false));
    }
    if ui
        .selectable_label(st.strike_mounts, "the mount")
        .tag("tool: strike the mount")
        .clicked()
    {
        asked.intents.push(UiIntent::StrikeMounts(true));
    }
}
