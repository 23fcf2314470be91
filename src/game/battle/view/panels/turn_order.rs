//! The left panel: the turn order of this round, one row per combatant
//! (who acts, who has had a turn, who is out; initiative and HP).

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::UiIntent;
use crate::game::battle::view::playback::Shown;
use crate::game::widgets::Tag;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::components::Cid;
use crate::rules::event::{BattleEvent, TurnOrder};
use crate::rules::log::BattleLog;
use crate::rules::roster::{Factions, Roster};
use crate::rules::view;

use super::{Asked, faction_colour};

/// The left panel; returns where it was drawn.
pub(super) fn order_panel(
    root: &mut egui::Ui,
    world: &World,
    roster: &Roster,
    asked: &mut Asked,
) -> egui::Rect {
    let left = egui::Panel::left("order")
        .exact_size(260.0)
        .show(root, |ui| {
            ui.heading("Turn order");
            turn_order(ui, world, roster, asked);
        });
    left.response.rect
}

/// The latest turn order announced, with everyone else after it (clicking a
/// row selects the combatant).
fn turn_order(ui: &mut egui::Ui, world: &World, roster: &Roster, asked: &mut Asked) {
    let order = latest_order(world);
    if let Prompt::Activate { faction, .. } = world.resource::<Battle>().prompt
        && let Some(f) = world.resource::<Factions>().0.get(faction as usize)
    {
        ui.label(egui::RichText::new(format!("{} to choose who acts", f.name)).strong());
    }
    ui.label(egui::RichText::new("▶ acting   + turn taken   x out").weak());
    // While a side chooses who acts, nobody acts yet.
    let acting = match world.resource::<Battle>().prompt {
        Prompt::Act { actor } | Prompt::React { actor, .. } => Some(actor),
        Prompt::Activate { .. } | Prompt::None => None,
    };
    let rows: Vec<Cid> = if order.is_empty() {
        roster.cids().collect()
    } else {
        let mut r = order.clone();
        r.extend(roster.cids().filter(|c| !order.contains(c)));
        r
    };
    // Only the rows in view are laid out: a big battle has a hundred.
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical().show_rows(ui, row_height, rows.len(), |ui, range| {
        for &c in &rows[range] {
            order_row(ui, world, roster, c, acting, asked);
        }
    });
}

/// The latest order announced in the log (who has had a turn since is on
/// each combatant's `TurnState`).
fn latest_order(world: &World) -> Vec<Cid> {
    let log = world.resource::<BattleLog>();
    for e in log.events.iter().rev() {
        if let BattleEvent::TurnOrder(TurnOrder { order }) = e {
            return order.clone();
        }
    }
    Vec::new()
}

/// One combatant's row: its mark (acting, turn taken, out), initiative and
/// name in its faction's colour, the ruleset's note, and its HP.
fn order_row(
    ui: &mut egui::Ui,
    world: &World,
    roster: &Roster,
    c: Cid,
    acting: Option<Cid>,
    asked: &mut Asked,
) {
    let s = world.resource::<Shown>().get(c);
    let out = s.is_some_and(|s| s.conds.out_of_fight());
    let mark = if Some(c) == acting {
        "▶"
    } else if out {
        "x"
    } else if view::get::<crate::rules::components::TurnState>(world, c).is_some_and(|t| t.done) {
        "+"
    } else {
        " "
    };
    let init = view::get::<crate::rules::components::TurnState>(world, c)
        .and_then(|t| t.initiative)
        .map_or(String::new(), |i| format!("{i:>3}"));
    let hp = s.map_or(String::new(), |s| format!("{}/{}", s.hp, s.hp_max));
    // The ruleset's word on the row (brp: DEX or rank, what it stated).
    let note = if out {
        None
    } else {
        world
            .get_resource::<crate::rules::hooks::ActiveRuleset>()
            .and_then(|h| (h.0.order_note)(world, c))
    };
    let mut text = egui::RichText::new(format!("{mark} {init}  {}", roster.name(c)))
        .color(faction_colour(world, c));
    if out {
        text = text.strikethrough().weak();
    }
    ui.horizontal(|ui| {
        let row = ui
            .selectable_label(Some(c) == acting, text)
            .tag("order: row");
        let row = match &note {
            Some((_, long)) => row.on_hover_text(long),
            None => row,
        };
        if row.clicked() {
            asked.intents.push(UiIntent::Select(Some(c)));
        }
        if let Some((short, _)) = &note {
            ui.label(egui::RichText::new(short).weak().small());
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(egui::RichText::new(hp).monospace());
        });
    });
}
