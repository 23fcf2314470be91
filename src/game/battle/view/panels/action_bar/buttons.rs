//! The action bar's buttons: a command each, allowed now (End turn always
//! shows); every button's tooltip is the rules core's preview of its
//! command, what it does and what it costs.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::{TurnUi, UiIntent};
use crate::game::widgets::{Tag, command_kind};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::hooks::{Give, Offer};
use crate::rules::view;

use super::super::Asked;
use super::super::preview::preview_lines;
use super::names::group_name;

/// Every button of `actor`'s, in the bar's order: draw a weapon, the
/// ruleset's own, what gives up more than a turn, End turn.
pub(super) fn buttons(
    ui: &mut egui::Ui,
    world: &World,
    actor: Cid,
    st: &TurnUi,
    asked: &mut Asked,
) {
    draw_buttons(ui, world, actor, st, asked);
    // A button picked from a menu of the ruleset's, and one that gives up
    // a character's part (to ask about first): sent once the bar is laid.
    let picked = ruleset_buttons(ui, world, st, asked);
    let picked_ask = set_apart(ui, world, st);
    command_button(
        ui,
        world,
        st,
        "End turn (Enter)",
        "action: end turn".into(),
        Command::EndTurn,
        asked,
    );
    if let Some(c) = picked {
        asked.intents.push(UiIntent::Command(c));
    }
    if let Some(c) = picked_ask {
        asked.intents.push(UiIntent::AskFirst(Some(c)));
    }
}

/// A command's button, greyed out when the rules do not allow it now.
fn command_button(
    ui: &mut egui::Ui,
    world: &World,
    st: &TurnUi,
    label: &str,
    kind: String,
    c: Command,
    asked: &mut Asked,
) {
    let r = ui
        .add_enabled(st.options.legal.contains(&c), egui::Button::new(label))
        .tag(kind)
        .on_hover_ui(|ui| preview_lines(ui, world, &c))
        .on_disabled_hover_ui(|ui| preview_lines(ui, world, &c));
    if r.clicked() {
        asked.intents.push(UiIntent::Command(c));
    }
}

/// A command's button, only if the ruleset allows it now.
fn offer(
    ui: &mut egui::Ui,
    world: &World,
    st: &TurnUi,
    label: &str,
    kind: String,
    c: Command,
    asked: &mut Asked,
) {
    if st.options.legal.contains(&c) {
        command_button(ui, world, st, label, kind, c, asked);
    }
}

/// Draw each weapon not in hand.
fn draw_buttons(ui: &mut egui::Ui, world: &World, actor: Cid, st: &TurnUi, asked: &mut Asked) {
    let Some(l) = view::get::<Loadout>(world, actor) else {
        return;
    };
    for (i, w) in l.weapons.iter().enumerate() {
        if Some(i) != l.ready {
            offer(
                ui,
                world,
                st,
                &format!("Draw {}", w.name),
                "action: draw".into(),
                Command::Draw { weapon: i },
                asked,
            );
        }
    }
}

/// The ruleset's own buttons (take cover, reload, break free, ...); three
/// or more of one kind of command (brp's statements, one a target) share a
/// menu, so the bar stays one line. Returns the command picked from a menu.
fn ruleset_buttons(
    ui: &mut egui::Ui,
    world: &World,
    st: &TurnUi,
    asked: &mut Asked,
) -> Option<Command> {
    let legal = |c: &Command| st.options.legal.contains(c);
    let buttons: Vec<&Offer> = st
        .options
        .offers
        .list
        .iter()
        .filter(|o| matches!(o.give, Give::Button | Give::Click(_)) && legal(&o.command))
        .collect();
    let mut kinds: Vec<String> = Vec::new();
    for o in &buttons {
        let k = command_kind(&o.command);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    let mut picked = None;
    for kind in &kinds {
        let members: Vec<&&Offer> = buttons
            .iter()
            .filter(|o| command_kind(&o.command) == *kind)
            .collect();
        if members.len() < 3 {
            for o in members {
                let kind = format!("offer: {kind}");
                offer(ui, world, st, &o.label, kind, o.command.clone(), asked);
            }
            continue;
        }
        let labels: Vec<&str> = members.iter().map(|o| o.label.as_str()).collect();
        let menu = ui.menu_button(format!("{}…", group_name(&labels, kind)), |ui| {
            for o in &members {
                let r = ui
                    .button(&o.label)
                    .tag(format!("offer: {kind}"))
                    .on_hover_ui(|ui| preview_lines(ui, world, &o.command));
                if r.clicked() {
                    picked = Some(o.command.clone());
                    ui.close();
                }
            }
        });
        menu.response.tag(format!("offer: {kind} menu"));
    }
    picked
}

/// Set apart: what gives up more than a turn (flight, the ruleset's
/// surrender, ...). Returns the one clicked, to ask about first.
fn set_apart(ui: &mut egui::Ui, world: &World, st: &TurnUi) -> Option<Command> {
    ui.separator();
    let mut apart: Vec<(String, String, Command)> =
        vec![("Flee (F)".into(), "action: flee".into(), Command::Flee)];
    for o in &st.options.offers.list {
        if o.give == Give::Apart {
            apart.push((
                o.label.clone(),
                format!("offer: {}", command_kind(&o.command)),
                o.command.clone(),
            ));
        }
    }
    let mut picked_ask = None;
    for (label, kind, c) in apart {
        if st.options.legal.contains(&c)
            && ui
                .button(label)
                .tag(kind)
                .on_hover_ui(|ui| preview_lines(ui, world, &c))
                .clicked()
        {
            picked_ask = Some(c);
        }
    }
    picked_ask
}
