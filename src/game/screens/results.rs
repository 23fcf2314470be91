//! The results: who won and why, each faction's casualties and every
//! combatant's fate, the final board, the whole log, and the ways on.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::view::panels::{colour32, egui_ctx, root_ui};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Session};
use crate::game::widgets::Tag;
use crate::rules::battle::Battle;
use crate::rules::components::{Cid, Health};
use crate::rules::hooks::ActiveRuleset;
use crate::rules::log::BattleLog;
use crate::rules::roster::{Factions, Roster};

use super::minimap::{Piece, minimap};
use super::tally::{Tally, fate};
use super::{big_button, send};

/// The results screen's system, one section under the other. A small
/// window scrolls to the buttons and across the columns rather than
/// cutting them off.
pub(super) fn results(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let battle = world.resource::<Battle>().clone();
    let roster = world.resource::<Roster>().clone();
    let factions = world.resource::<Factions>().clone();
    let log = world.resource::<BattleLog>().clone();
    let map = world.resource::<crate::rules::map::Map>().clone();
    let seed = world.get_resource::<Session>().map_or(0, |s| s.seed);
    let mut asked = Vec::new();
    let mut root = root_ui(&ctx, "results");
    let w: &World = world;
    egui::CentralPanel::default().show(&mut root, |ui| {
        egui::ScrollArea::both()
            .id_salt("results_page")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                headline(ui, &battle, &factions);
                fates(ui, w, &roster, &factions, &log);
                ui.add_space(12.0);
                final_board(ui, &roster, &factions, &map);
                ui.add_space(12.0);
                whole_log(ui, &roster, &factions, &log);
                ui.add_space(12.0);
                ways_on(ui, seed, &mut asked);
            });
    });
    send(world, asked);
}

/// Who won (or a draw), and why, after how many rounds.
fn headline(ui: &mut egui::Ui, battle: &Battle, factions: &Factions) {
    ui.vertical_centered(|ui| {
        ui.add_space(30.0);
        let (headline, colour) = match battle.outcome.as_ref().and_then(|o| o.winner) {
            Some(f) => {
                let fac = &factions.0[f as usize];
                // "Victory: Bandits" reads right for any name.
                (format!("Victory: {}", fac.name), colour32(fac.colour))
            }
            None => ("A draw".to_string(), egui::Color32::WHITE),
        };
        ui.label(
            egui::RichText::new(headline)
                .size(48.0)
                .strong()
                .color(colour),
        );
        if let Some(o) = &battle.outcome {
            let why = crate::rules::narrate::end_reason(&o.reason);
            ui.label(egui::RichText::new(format!("{why}, after {} rounds", o.rounds)).size(20.0));
        }
        ui.add_space(20.0);
    });
}

/// Casualties per faction and every combatant's fate: what it dealt and
/// took, and whom it took out of the fight. A column per faction.
fn fates(ui: &mut egui::Ui, world: &World, roster: &Roster, factions: &Factions, log: &BattleLog) {
    let tally = Tally::of(log, roster.len());
    ui.columns(factions.0.len().max(1), |cols| {
        for (fi, f) in factions.0.iter().enumerate() {
            let ui = &mut cols[fi];
            let members: Vec<_> = roster
                .cids()
                .filter(|c| roster.factions.get(c.0 as usize) == Some(&(fi as u8)))
                .collect();
            let fallen = members
                .iter()
                .filter(|c| {
                    roster
                        .place(**c)
                        .is_some_and(|p| p.conditions.out_of_fight())
                })
                .count();
            ui.label(
                egui::RichText::new(&f.name)
                    .size(22.0)
                    .strong()
                    .color(colour32(f.colour)),
            );
            ui.label(format!("casualties: {fallen} of {}", members.len()));
            // Six columns, the last (whom it took out, what the
            // ruleset adds) wrapped at the faction's column: a
            // list of names ran over the next faction's table.
            egui::Grid::new(format!("fates{fi}"))
                .striped(true)
                .num_columns(6)
                .show(ui, |ui| {
                    for c in members {
                        fate_row(ui, world, roster, &tally, c);
                        ui.end_row();
                    }
                });
        }
    });
}

/// One combatant's row: name, HP, fate, damage dealt and taken, whom it
/// took out and what the ruleset adds.
fn fate_row(ui: &mut egui::Ui, world: &World, roster: &Roster, tally: &Tally, c: Cid) {
    let e = roster.entity(c);
    let h = e.and_then(|e| world.get::<Health>(e)).copied();
    let conds = roster.place(c).map(|p| p.conditions).unwrap_or_default();
    ui.label(roster.name(c));
    ui.label(h.map_or(String::new(), |h| format!("HP {}/{}", h.hp, h.hp_max)));
    ui.label(fate(conds));
    let i = c.0 as usize;
    let dealt = tally.dealt.get(i).copied().unwrap_or(0);
    ui.label(format!("dealt {dealt}"));
    let t = tally.taken.get(i).copied().unwrap_or(0);
    ui.label(if t > 0 {
        format!("took {t}")
    } else {
        "unhurt".to_string()
    });
    let out: Vec<&str> = tally
        .took_out
        .get(i)
        .map(|l| l.iter().map(|o| roster.name(*o)).collect())
        .unwrap_or_default();
    let mut last = Vec::new();
    if !out.is_empty() {
        last.push(format!("took out {}", out.join(", ")));
    }
    // What the ruleset adds (zones: the gear the durability rolls wore out).
    let note = world
        .get_resource::<ActiveRuleset>()
        .and_then(|h| (h.0.after_note)(world, c));
    last.extend(note.filter(|n| !n.is_empty()));
    ui.add(egui::Label::new(last.join("; ")).wrap());
}

/// The board as the battle left it (folded away on a click).
fn final_board(
    ui: &mut egui::Ui,
    roster: &Roster,
    factions: &Factions,
    map: &crate::rules::map::Map,
) {
    let board = egui::CollapsingHeader::new("The final board")
        .default_open(true)
        .show(ui, |ui| {
            let pieces: Vec<Piece> = roster
                .cids()
                .filter_map(|c| {
                    let p = roster.place(c)?;
                    // Who left the field is not on it; riders sit on
                    // their mounts.
                    if p.conditions.has(crate::rules::components::Condition::Fled)
                        || p.riding.is_some()
                    {
                        return None;
                    }
                    let f = roster.factions.get(c.0 as usize).copied().unwrap_or(0);
                    Some(Piece {
                        at: p.cell,
                        colour: factions
                            .0
                            .get(f as usize)
                            .map_or(egui::Color32::WHITE, |f| colour32(f.colour)),
                        fallen: p.conditions.out_of_fight(),
                    })
                })
                .collect();
            minimap(ui, map, &pieces);
        });
    board.header_response.tag("results: final board");
}

/// The whole battle, line by line (as the battle screen's log: silent
/// events have no line), folded until opened.
fn whole_log(ui: &mut egui::Ui, roster: &Roster, factions: &Factions, log: &BattleLog) {
    let lines: Vec<&crate::rules::event::BattleEvent> =
        log.events.iter().filter(|e| !e.silent()).collect();
    let whole = egui::CollapsingHeader::new(format!("The whole log ({} lines)", lines.len()))
        .default_open(false)
        .show(ui, |ui| {
            let names = crate::rules::roster::Names { roster, factions };
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .auto_shrink([false, true])
                .show_rows(ui, 16.0, lines.len(), |ui, range| {
                    for e in &lines[range] {
                        ui.label(
                            egui::RichText::new(crate::rules::narrate::describe(&names, e))
                                .monospace()
                                .size(12.0),
                        );
                    }
                });
        });
    whole.header_response.tag("results: whole log");
}

/// Play again, replay this seed, the setup, the title.
fn ways_on(ui: &mut egui::Ui, seed: u64, asked: &mut Vec<ScreenIntent>) {
    ui.vertical_centered(|ui| {
        if big_button(ui, "Play again (new seed)", "results: play again") {
            asked.push(ScreenIntent::PlayAgain);
        }
        if big_button(ui, &format!("Replay this seed ({seed})"), "results: replay") {
            asked.push(ScreenIntent::Replay);
        }
        if big_button(ui, "Battle setup", "results: setup") {
            asked.push(ScreenIntent::Open(Screen::Setup));
        }
        if big_button(ui, "Title screen", "results: title") {
            asked.push(ScreenIntent::Open(Screen::Title));
        }
    });
}
