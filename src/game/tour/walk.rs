//! One frame of the walk: see what the last pass drew, carry a click
//! further, look around at the human's prompt, then walk the step.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_egui::egui;

use crate::game::battle::logic::{Pacing, UiIntent, human_actor};
use crate::game::session::Screen;
use crate::game::widgets::{self, Audit, Seen};
use crate::rules::battle::{Battle, Prompt};

use super::clicks::{LEAVES, pick_around, pointer, press_on, start_press};
use super::player::{ai_choice, human_click};
use super::{STEP_BUDGET, Step, Tour, final_count};

/// What the walk sees this frame.
struct Frame {
    screen: Screen,
    /// The widgets of the last pass (those that moved since the pass
    /// before without a place to click).
    seen: Vec<Seen>,
    /// A kind not clicked yet is on the move: wait for it.
    moving: bool,
    /// The human's prompt has been in view a while.
    looked: bool,
    ctx: egui::Context,
}

/// A screen's name in the widget count.
fn screen_name(s: Screen) -> &'static str {
    match s {
        Screen::Title => "title",
        Screen::Setup => "setup",
        Screen::Battle => "battle",
        Screen::Results => "results",
    }
}

/// One frame of the walk.
pub(super) fn walk(world: &mut World) {
    let screen = *world.resource::<State<Screen>>().get();
    let mut tour = world.resource::<Tour>().clone();
    if tour.seen.last() != Some(&screen) {
        tour.seen.push(screen);
    }
    if !tour.done() && tour.failed.is_none() {
        tour.frames += 1;
        walk_frame(world, &mut tour, screen);
    }
    world.insert_resource(tour);
}

/// The frame's work, once the walk is under way: each step below may end
/// the frame.
fn walk_frame(world: &mut World, tour: &mut Tour, screen: Screen) {
    // What the last pass drew, counted; a click in progress holds the walk.
    let Some(ctx) = crate::game::battle::view::panels::egui_ctx(world) else {
        return;
    };
    ctx.enable_accesskit();
    let (seen, moving) = observe(world, tour, screen);
    if tour.press.is_some() && !press_on(world, tour, &ctx) {
        return;
    }
    let step = tour.steps[tour.at].clone();
    let looked = look_at_prompt(world, tour, screen);
    if screen != Screen::Battle {
        tour.react_shot = None;
    }
    // The reaction dialog asked for, once it has been in view a while.
    if let Some(name) = tour.react_shot
        && looked
        && matches!(world.resource::<Battle>().prompt, Prompt::React { .. })
    {
        if shoot(world, tour, name) {
            tour.react_shot = None;
        }
        return;
    }
    let frame = Frame {
        screen,
        seen,
        moving,
        looked,
        ctx,
    };
    if look_around(world, tour, &step, &frame) {
        return;
    }
    if walk_step(world, tour, step, &frame) {
        next_step(world, tour);
    } else if tour.frames > STEP_BUDGET {
        stuck(world, tour, &frame);
    }
}

/// Count what the last pass drew (on the screen it was drawn on) and the
/// texts it showed; the widgets as seen, those that moved since the pass
/// before without a place to click (only a widget where it was a pass ago
/// is clicked), and whether a kind not clicked yet is on the move.
fn observe(world: &mut World, tour: &mut Tour, screen: Screen) -> (Vec<Seen>, bool) {
    let seen = widgets::last_pass(world);
    let texts = widgets::texts(world);
    let mut audit = world.resource_mut::<Audit>();
    let drawn_on = tour.drawn_on.replace(screen).unwrap_or(screen);
    audit.observe(screen_name(drawn_on), &seen);
    audit.read(texts);
    let was_at = std::mem::take(&mut tour.was_at);
    let mut moving = false;
    let seen: Vec<Seen> = seen
        .into_iter()
        .map(|mut w| {
            if let Some(at) = w.at {
                tour.was_at.insert(w.id, at);
            }
            if w.at.is_some() && was_at.get(&w.id) != w.at.as_ref() {
                w.at = None;
                // A kind not clicked yet on the move: wait for it.
                moving |= w
                    .kind
                    .as_deref()
                    .is_some_and(|k| !audit.clicked.contains(k) && !LEAVES.contains(&k));
            }
            w
        })
        .collect();
    (seen, moving)
}

/// How long the human's prompt has been in view: true once a player
/// would have looked at what is offered before answering.
fn look_at_prompt(world: &World, tour: &mut Tour, screen: Screen) -> bool {
    let prompt = (screen == Screen::Battle && human_actor(world).is_some()).then(|| {
        (
            world.resource::<Battle>().prompt,
            world
                .resource::<crate::rules::log::BattleLog>()
                .events
                .len(),
        )
    });
    tour.looked = match (prompt, tour.looked) {
        (Some((p, n)), Some((q, m, f))) if p == q && n == m => Some((p, n, f + 1)),
        (Some((p, n)), _) => Some((p, n, 0)),
        (None, _) => None,
    };
    tour.looked.is_some_and(|l| l.2 >= 3)
}

/// At the human's prompt (and in a `ClickAround`), whatever is new in
/// view is clicked first, and a kind never clicked that is scrolled out of
/// view is scrolled to. True when a click started (the frame ends).
fn look_around(world: &mut World, tour: &mut Tour, step: &Step, frame: &Frame) -> bool {
    let around = match step {
        // (Not while a reaction dialog waits for its screenshot.)
        Step::ByHand(_) | Step::PlayOut => {
            human_actor(world).is_some()
                && frame.screen == Screen::Battle
                && !(tour.react_shot.is_some()
                    && matches!(world.resource::<Battle>().prompt, Prompt::React { .. }))
        }
        Step::ClickAround => true,
        _ => false,
    };
    if !around || tour.press.is_some() {
        return false;
    }
    let audit = world.resource::<Audit>();
    if let Some(w) = pick_around(&frame.seen, audit, tour).cloned() {
        start_press(world, tour, &w);
        tour.idle = 0;
        return true;
    }
    // A kind never clicked, scrolled out of view: scroll to it.
    if let Some(w) = frame
        .seen
        .iter()
        .find(|w| {
            w.clipped
                && w.enabled
                && w.kind.as_deref().is_some_and(|k| {
                    !LEAVES.contains(&k)
                        && !audit.clicked.contains(k)
                        && tour.missed.get(k).copied().unwrap_or(0) < 3
                })
        })
        .cloned()
    {
        let kind = w.kind.clone().unwrap_or_default();
        debug!("the walk scrolls {kind:?} into view");
        *tour.missed.entry(kind).or_default() += 1;
        pointer(
            world,
            egui::Event::AccessKitActionRequest(egui::accesskit::ActionRequest {
                action: egui::accesskit::Action::ScrollIntoView,
                target_tree: egui::accesskit::TreeId::ROOT,
                target_node: w.id.accesskit_id(),
                data: None,
            }),
        );
        tour.idle = 0;
    }
    false
}

/// Walk the step one frame further; true once it is finished.
fn walk_step(world: &mut World, tour: &mut Tour, step: Step, frame: &Frame) -> bool {
    let screen = frame.screen;
    match step {
        Step::Click(kind) => click(world, tour, kind, frame),
        // Done once nothing is left to click and nothing moves (a header
        // that folds slides what is under it for a while).
        Step::ClickAround => {
            tour.idle = if frame.moving { 0 } else { tour.idle + 1 };
            tour.idle > 3
        }
        Step::ScrollLogUp => {
            scroll_log_up(world, &frame.ctx);
            true
        }
        Step::ShotNextReaction(name) => {
            tour.react_shot = Some(name);
            true
        }
        Step::Unpause => {
            let mut p = world.resource_mut::<Pacing>();
            p.paused = false;
            p.step_once = false;
            true
        }
        Step::Reach(want, frames) => {
            if screen == want {
                tour.settled += 1;
            }
            tour.settled > frames
        }
        Step::Send(intent) => {
            world.write_message(intent);
            true
        }
        Step::AwaitHuman => human_actor(world).is_some(),
        Step::Frames(n) => tour.frames > n,
        Step::Speed(s) => {
            world.resource_mut::<Pacing>().speed = s;
            true
        }
        Step::Shot(name) => shoot(world, tour, name),
        Step::ByHand(n) => {
            if tour.sent < n
                && frame.looked
                && let Some(intent) = human_click(world, &mut tour.walked)
            {
                world.write_message(intent);
                tour.sent += 1;
                tour.human_commands += 1;
            }
            tour.sent >= n || screen != Screen::Battle
        }
        Step::PlayOut => {
            if frame.looked
                && let Some(command) = ai_choice(world)
            {
                world.write_message(UiIntent::Command(command));
                tour.human_commands += 1;
            }
            screen != Screen::Battle || world.resource::<Battle>().is_over()
        }
    }
}

/// `Step::Click`: done once its click landed; until then, a click on the
/// first widget of `kind` in view.
fn click(world: &mut World, tour: &mut Tour, kind: &str, frame: &Frame) -> bool {
    if tour.clicked {
        return true;
    }
    if let Some(w) = frame
        .seen
        .iter()
        .find(|w| w.kind.as_deref() == Some(kind) && w.enabled && w.at.is_some())
        .cloned()
    {
        start_press(world, tour, &w);
    }
    false
}

/// `Step::ScrollLogUp`: the wheel turned over the combat log, which fills
/// the bottom panel's lower part.
fn scroll_log_up(world: &mut World, ctx: &egui::Context) {
    let (w, h) = ctx.viewport_rect().size().into();
    let at = egui::pos2(w * 0.5, h - 60.0);
    pointer(world, egui::Event::PointerMoved(at));
    pointer(
        world,
        egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 400.0),
            phase: egui::TouchPhase::Move,
            modifiers: egui::Modifiers::default(),
        },
    );
}

/// On to the next step (the count at the walk's end).
fn next_step(world: &mut World, tour: &mut Tour) {
    tour.at += 1;
    tour.frames = 0;
    tour.settled = 0;
    tour.sent = 0;
    tour.clicked = false;
    tour.detour = 0;
    tour.idle = 0;
    if tour.done() {
        final_count(world, tour);
    }
}

/// A step over its frame budget fails the walk, saying what was in view.
fn stuck(world: &mut World, tour: &mut Tour, frame: &Frame) {
    let why = format!(
        "the screen walk is stuck at step {} ({:?}) on the {:?} screen",
        tour.at, tour.steps[tour.at], frame.screen
    );
    error!("{why}");
    for w in &frame.seen {
        debug!(
            "in view then: {:?} at {:?} (enabled {})",
            w.kind, w.at, w.enabled
        );
    }
    tour.failed = Some(why);
    world.write_message(AppExit::error());
}

/// Save a screenshot; true once the file is written (or at once without a
/// folder).
fn shoot(world: &mut World, tour: &mut Tour, name: &str) -> bool {
    let Some(dir) = &tour.shots else {
        return true;
    };
    match &tour.writing {
        None => {
            let path = dir.join(format!("{name}.png"));
            if let Err(e) = std::fs::create_dir_all(dir) {
                tour.failed = Some(format!("cannot create {}: {e}", dir.display()));
                world.write_message(AppExit::error());
                return false;
            }
            let _ = std::fs::remove_file(&path);
            world
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(path.clone()));
            tour.writing = Some(path);
            false
        }
        Some(path) if path.exists() && tour.frames > 3 => {
            tour.saved.push(path.clone());
            tour.writing = None;
            true
        }
        Some(_) => false,
    }
}
