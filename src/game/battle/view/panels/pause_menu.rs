//! The pause menu: the battle dimmed behind it, which battle this is (level,
//! ruleset, seed), the settings a player changes mid-battle, and the ways
//! out. Leaving a battle in progress asks first.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::logic::Pacing;
use crate::game::battle::view::{board::ShowZones, camera::Follow};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Session, Speed};
use crate::game::widgets::Tag;
use crate::rules::battle::Battle;

use super::Asked;

/// Where egui keeps which way out waits for its yes or no.
const CONFIRM: &str = "pause_confirm";

/// What leaving would throw away, asked before it is thrown: each way out's
/// button, its question, and its tag.
const EXITS: [(&str, &str, &str); 4] = [
    (
        "Restart with a new seed",
        "Restart this battle with a new seed?",
        "menu: restart",
    ),
    (
        "Back to battle setup",
        "Leave this battle for the setup screen?",
        "menu: to setup",
    ),
    (
        "Title screen",
        "Leave this battle for the title screen?",
        "menu: to title",
    ),
    ("Quit", "Quit Fray?", "menu: quit"),
];

/// Where the way out `i` of `EXITS` leads.
fn exit_intent(i: u8) -> ScreenIntent {
    match i {
        0 => ScreenIntent::PlayAgain,
        1 => ScreenIntent::Open(Screen::Setup),
        2 => ScreenIntent::Open(Screen::Title),
        _ => ScreenIntent::Quit,
    }
}

/// The menu closed: no way out waits for its answer any more.
pub(super) fn forget_confirm(ctx: &egui::Context) {
    ctx.data_mut(|d| d.remove::<u8>(egui::Id::new(CONFIRM)));
}

/// The dimmed battle and the Paused window over it.
pub(super) fn pause_menu(
    ctx: &egui::Context,
    world: &World,
    pacing: &Pacing,
    session: Option<&Session>,
    asked: &mut Asked,
) {
    dim(ctx);
    let confirm_id = egui::Id::new(CONFIRM);
    let confirming: Option<u8> = ctx.data(|d| d.get_temp(confirm_id));
    let menu = egui::Window::new("Paused")
        .order(egui::Order::Foreground)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.set_min_width(280.0);
            if let Some(s) = session {
                ui.label(format!("{}  ·  {}", s.level.name, s.ruleset));
                ui.label(egui::RichText::new(format!("Seed {}", s.seed)).weak());
            }
            ui.separator();
            if let Some(i) = confirming {
                confirm_exit(ui, i, asked);
                return;
            }
            let over = world.resource::<Battle>().outcome.is_some();
            ways_out(ui, over, asked);
            ui.separator();
            settings(ui, world, pacing, asked);
        });
    asked.covered.extend(menu.map(|r| r.response.rect));
}

/// Dim the battle: an area above the panels and the other windows, below
/// the menu (in front of everything), that also takes the clicks meant
/// for the panels under it.
fn dim(ctx: &egui::Context) {
    let screen = ctx.viewport_rect();
    egui::Area::new(egui::Id::new("pause_dim"))
        .order(egui::Order::Middle)
        .fixed_pos(screen.min)
        .show(ctx, |ui| {
            ui.painter()
                .rect_filled(screen, 0.0, egui::Color32::from_black_alpha(200));
            ui.allocate_rect(screen, egui::Sense::click());
        });
}

/// The question before way out `i`: yes leaves, no goes back to the menu.
fn confirm_exit(ui: &mut egui::Ui, i: u8, asked: &mut Asked) {
    let confirm_id = egui::Id::new(CONFIRM);
    ui.label(egui::RichText::new(EXITS[i as usize].1).strong());
    ui.label("The battle in progress will be lost.");
    ui.horizontal(|ui| {
        if ui.button("Yes").tag("confirm: yes").clicked() {
            ui.ctx().data_mut(|d| d.remove::<u8>(confirm_id));
            asked.screens.push(exit_intent(i));
        }
        if ui.button("No, go back").tag("confirm: no").clicked() {
            ui.ctx().data_mut(|d| d.remove::<u8>(confirm_id));
        }
    });
}

/// Resume, then the ways out: straight out once the battle is `over`,
/// else asked first.
fn ways_out(ui: &mut egui::Ui, over: bool, asked: &mut Asked) {
    let confirm_id = egui::Id::new(CONFIRM);
    ui.vertical_centered_justified(|ui| {
        if ui.button("Resume (Esc)").tag("menu: resume").clicked() {
            asked.screens.push(ScreenIntent::Menu(false));
        }
        for (i, (label, _, kind)) in EXITS.iter().enumerate() {
            if ui.button(*label).tag(*kind).clicked() {
                if over {
                    asked.screens.push(exit_intent(i as u8));
                } else {
                    ui.ctx().data_mut(|d| d.insert_temp(confirm_id, i as u8));
                }
            }
        }
    });
}

/// The settings a player changes mid-battle: the camera's following, the
/// zone borders, the speed.
fn settings(ui: &mut egui::Ui, world: &World, pacing: &Pacing, asked: &mut Asked) {
    ui.label(egui::RichText::new("Settings").strong());
    let mut follow = world.resource::<Follow>().0;
    if ui
        .checkbox(&mut follow, "Camera follows the acting combatant")
        .tag("menu: follow")
        .changed()
    {
        asked.follow = Some(follow);
    }
    let mut zones = world.resource::<ShowZones>().0;
    if ui
        .checkbox(&mut zones, "Show zone borders (Z)")
        .tag("menu: zones")
        .changed()
    {
        asked.zones = Some(zones);
    }
    ui.horizontal(|ui| {
        ui.label("AI and playback speed:");
        for sp in Speed::ALL {
            if ui
                .selectable_label(pacing.speed == sp, sp.label())
                .tag("menu: speed")
                .clicked()
            {
                let mut p = pacing.clone();
                p.speed = sp;
                asked.pacing = Some(p);
            }
        }
    });
}
