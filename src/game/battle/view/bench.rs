//! `fray play LEVEL --bench-frames N`: time the game's own work per frame —
//! its whole part of the `Update` schedule (input, battle logic and AI
//! steps, playback, tokens, highlights, camera: every `AppSystems` set) plus
//! the egui panels — for N frames, print the figures and quit. Bevy's
//! diagnostics store the measurements.
//!
//! Two clocks: the CPU time the main thread spends in those systems (what
//! the game's work costs), and the wall clock between their start and end
//! (which also counts the time the system takes the core away: under Xvfb
//! Mesa's software renderer keeps both cores of a small machine busy). To
//! count every system's CPU time on one thread, the benchmark runs `Update`
//! on one thread; a normal game spreads it over the task pool.

use std::time::Instant;

use bevy::diagnostic::{
    Diagnostic, DiagnosticPath, Diagnostics, DiagnosticsStore, RegisterDiagnostic,
};
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

use crate::game::AppSystems;

/// CPU milliseconds of the game's own systems in a frame.
pub const GAME_SYSTEMS: DiagnosticPath = DiagnosticPath::const_new("fray/game_systems_ms");

/// Wall-clock milliseconds of the same.
pub const GAME_SYSTEMS_WALL: DiagnosticPath =
    DiagnosticPath::const_new("fray/game_systems_wall_ms");

/// A point in time on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

impl Clock {
    pub fn now() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_ms(),
        }
    }

    /// Milliseconds since `self`: (wall clock, this thread's CPU time —
    /// the wall clock where the platform gives no thread CPU clock).
    pub fn elapsed(&self) -> Spent {
        let wall = self.wall.elapsed().as_secs_f64() * 1000.0;
        let cpu = match (self.cpu, thread_cpu_ms()) {
            (Some(a), Some(b)) => (b - a).max(0.0),
            _ => wall,
        };
        Spent { wall, cpu }
    }
}

/// Milliseconds spent, on both clocks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spent {
    pub wall: f64,
    pub cpu: f64,
}

impl std::ops::AddAssign for Spent {
    fn add_assign(&mut self, o: Spent) {
        self.wall += o.wall;
        self.cpu += o.cpu;
    }
}

/// This thread's CPU time in milliseconds, where the platform has the clock.
#[cfg(unix)]
fn thread_cpu_ms() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for clock_gettime to write.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (r == 0).then(|| t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6)
}

#[cfg(not(unix))]
fn thread_cpu_ms() -> Option<f64> {
    None
}

#[derive(Resource)]
struct Bench {
    frames: u32,
    seen: u32,
    start: Option<Clock>,
    samples: Vec<Spent>,
    /// The main app's whole frame after input: Bevy's own systems too.
    frame_start: Option<Clock>,
    whole: Vec<Spent>,
    frame_ms: Vec<f64>,
}

/// Time spent in the egui panels this frame (added by the panels system).
#[derive(Resource, Default)]
pub struct PanelTime(pub Spent);

pub fn plugin(app: &mut App, frames: u32) {
    app.insert_resource(Bench {
        frames,
        seen: 0,
        start: None,
        samples: Vec::new(),
        frame_start: None,
        whole: Vec::new(),
        frame_ms: Vec::new(),
    })
    .init_resource::<PanelTime>()
    .register_diagnostic(Diagnostic::new(GAME_SYSTEMS).with_max_history_length(10_000))
    .register_diagnostic(Diagnostic::new(GAME_SYSTEMS_WALL).with_max_history_length(10_000))
    .edit_schedule(Update, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    })
    .add_systems(PreUpdate, frame_start.after(bevy::input::InputSystems))
    .add_systems(Update, start.before(AppSystems::Input))
    .add_systems(Update, end.after(AppSystems::View))
    .add_systems(Last, report);
}

fn frame_start(mut b: ResMut<Bench>) {
    b.frame_start = Some(Clock::now());
}

fn start(mut b: ResMut<Bench>) {
    b.start = Some(Clock::now());
}

/// The `Update` part now; the panels (drawn later, in `PostUpdate`) are
/// added to the frame's figure when the frame is reported.
fn end(mut b: ResMut<Bench>) {
    if let Some(t) = b.start.take() {
        b.samples.push(t.elapsed());
    }
}

fn report(
    mut b: ResMut<Bench>,
    mut panel: ResMut<PanelTime>,
    time: Res<Time>,
    store: Res<DiagnosticsStore>,
    mut diagnostics: Diagnostics,
    mut exit: MessageWriter<AppExit>,
) {
    let drawn = std::mem::take(&mut panel.0);
    if let Some(last) = b.samples.last_mut() {
        *last += drawn;
        let Spent { wall, cpu } = *last;
        diagnostics.add_measurement(&GAME_SYSTEMS, || cpu);
        diagnostics.add_measurement(&GAME_SYSTEMS_WALL, || wall);
    }
    if let Some(t) = b.frame_start.take() {
        let spent = t.elapsed();
        b.whole.push(spent);
    }
    b.seen += 1;
    // Skip the first frames (loading, first layout).
    if b.seen > 30 {
        let dt = time.delta_secs_f64() * 1000.0;
        b.frame_ms.push(dt);
    }
    if b.seen < b.frames + 30 {
        return;
    }
    let kept: Vec<Spent> = b.samples.iter().skip(30).copied().collect();
    let cpu = Figures::of(kept.iter().map(|s| s.cpu).collect());
    let wall = Figures::of(kept.iter().map(|s| s.wall).collect());
    let whole = Figures::of(b.whole.iter().skip(30).map(|s| s.wall).collect());
    let frame = b.frame_ms.iter().sum::<f64>() / b.frame_ms.len().max(1) as f64;
    let avg = store
        .get(&GAME_SYSTEMS)
        .and_then(|d| d.average())
        .unwrap_or(cpu.mean);
    let clock = if thread_cpu_ms().is_some() {
        "CPU time"
    } else {
        "CPU time (this platform: wall clock)"
    };
    println!(
        r#"game systems per frame over {} frames: {clock} mean {:.2} ms (diagnostic average {avg:.2} ms), 95th percentile {:.2} ms, max {:.2} ms; wall clock mean {:.2} ms, 95th percentile {:.2} ms"#,
        kept.len(),
        cpu.mean,
        cpu.p95,
        cpu.max,
        wall.mean,
        wall.p95,
    );
    println!(
        "the main app's frame after input, Bevy's own systems included (wall clock): mean {:.2} ms, 95th percentile {:.2} ms; whole frame {frame:.1} ms",
        whole.mean, whole.p95,
    );
    exit.write(AppExit::Success);
}

/// Mean, 95th percentile and maximum of a series.
struct Figures {
    mean: f64,
    p95: f64,
    max: f64,
}

impl Figures {
    fn of(mut s: Vec<f64>) -> Figures {
        s.sort_by(f64::total_cmp);
        let n = s.len().max(1) as f64;
        Figures {
            mean: s.iter().sum::<f64>() / n,
            p95: s
                .get(((s.len() as f64) * 0.95) as usize)
                .copied()
                .unwrap_or(0.0),
            max: s.last().copied().unwrap_or(0.0),
        }
    }
}
