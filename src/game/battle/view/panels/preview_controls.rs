//! The GM preview's controls (a battle of AIs only): play or pause, step
//! one action, and the speed.

use bevy_egui::egui;

use crate::game::battle::logic::Pacing;
use crate::game::session::Speed;
use crate::game::widgets::Tag;

use super::Asked;

/// The preview's play, pause, step and speed buttons.
pub(super) fn preview_controls(ui: &mut egui::Ui, pacing: &Pacing, asked: &mut Asked) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("GM preview").strong());
        let label = if pacing.paused {
            "▶ Play (P)"
        } else {
            "⏸ Pause (P)"
        };
        let kind = if pacing.paused {
            "preview: play"
        } else {
            "preview: pause"
        };
        if ui.button(label).tag(kind).clicked() {
            let mut p = pacing.clone();
            p.paused = !p.paused;
            asked.pacing = Some(p);
        }
        if ui
            .button("Step one action (Space)")
            .tag("preview: step")
            .clicked()
        {
            let mut p = pacing.clone();
            p.paused = true;
            p.step_once = true;
            asked.pacing = Some(p);
        }
        ui.separator();
        ui.label("Speed:");
        for s in Speed::ALL {
            if ui
                .selectable_label(pacing.speed == s, s.label())
                .tag("preview: speed")
                .clicked()
            {
                let mut p = pacing.clone();
                p.speed = s;
                asked.pacing = Some(p);
            }
        }
    });
}
