//! `fray play LEVEL --bench-frames N`: time the game's own work per frame —
//! the whole `Update` schedule (input, battle logic and AI steps, playback,
//! tokens, highlights, camera) plus the egui panels — for N frames, print the
//! figures and quit. Bevy's diagnostics store the measurements.

use std::time::Instant;

use bevy::diagnostic::{
    Diagnostic, DiagnosticPath, Diagnostics, DiagnosticsStore, RegisterDiagnostic,
};
use bevy::prelude::*;

/// Milliseconds of the game's own systems in a frame.
pub const GAME_SYSTEMS: DiagnosticPath = DiagnosticPath::const_new("fray/game_systems_ms");

#[derive(Resource)]
struct Bench {
    frames: u32,
    seen: u32,
    start: Option<Instant>,
    /// Time spent in the panels this frame (added by the panels system).
    samples: Vec<f64>,
    frame_ms: Vec<f64>,
}

/// Time spent in the egui panels this frame, in milliseconds.
#[derive(Resource, Default)]
pub struct PanelTime(pub f64);

pub fn plugin(app: &mut App, frames: u32) {
    app.insert_resource(Bench {
        frames,
        seen: 0,
        start: None,
        samples: Vec::new(),
        frame_ms: Vec::new(),
    })
    .init_resource::<PanelTime>()
    .register_diagnostic(Diagnostic::new(GAME_SYSTEMS).with_max_history_length(10_000))
    .add_systems(PreUpdate, start.after(bevy::input::InputSystems))
    .add_systems(PostUpdate, end)
    .add_systems(Last, report);
}

fn start(mut b: ResMut<Bench>) {
    b.start = Some(Instant::now());
}

fn end(mut b: ResMut<Bench>, mut panel: ResMut<PanelTime>, mut diagnostics: Diagnostics) {
    if let Some(t) = b.start.take() {
        let ms = t.elapsed().as_secs_f64() * 1000.0 + panel.0;
        panel.0 = 0.0;
        b.samples.push(ms);
        diagnostics.add_measurement(&GAME_SYSTEMS, || ms);
    }
}

fn report(
    mut b: ResMut<Bench>,
    time: Res<Time>,
    store: Res<DiagnosticsStore>,
    mut exit: MessageWriter<AppExit>,
) {
    b.seen += 1;
    // Skip the first frames (loading, first layout).
    if b.seen > 30 {
        let dt = time.delta_secs_f64() * 1000.0;
        b.frame_ms.push(dt);
    }
    if b.seen < b.frames + 30 {
        return;
    }
    let mut s: Vec<f64> = b.samples.iter().skip(30).copied().collect();
    s.sort_by(f64::total_cmp);
    let n = s.len().max(1) as f64;
    let mean = s.iter().sum::<f64>() / n;
    let p95 = s
        .get(((s.len() as f64) * 0.95) as usize)
        .copied()
        .unwrap_or(0.0);
    let max = s.last().copied().unwrap_or(0.0);
    let frame = b.frame_ms.iter().sum::<f64>() / b.frame_ms.len().max(1) as f64;
    let avg = store
        .get(&GAME_SYSTEMS)
        .and_then(|d| d.average())
        .unwrap_or(mean);
    println!(
        "game systems per frame over {} frames: mean {mean:.2} ms (diagnostic average {avg:.2} ms), 95th percentile {p95:.2} ms, max {max:.2} ms; whole frame {frame:.1} ms",
        s.len()
    );
    exit.write(AppExit::Success);
}
