//! A click as a hand makes it (the pointer onto a widget, the button
//! pressed, then released) and what the walk clicks next while it looks
//! around.

use bevy::prelude::*;
use bevy_egui::input::EguiInputEvent;
use bevy_egui::{PrimaryEguiContext, egui};

use crate::game::widgets::{Audit, Seen};

use super::Tour;

/// Kinds that leave the screen or the battle: only a step of the walk
/// clicks them, where it means to go.
pub(super) const LEAVES: &[&str] = &[
    "title: skirmish",
    "title: preview",
    "title: setup",
    "title: quit",
    "setup: start",
    "setup: back",
    "results: play again",
    "results: replay",
    "results: setup",
    "results: title",
    "confirm: yes",
];
/// Kinds that open something to click in (a menu, a dialog).
const OPENS: &[&str] = &[
    "battle: menu",
    "battle: help",
    "menu: restart",
    "menu: to setup",
    "menu: to title",
    "menu: quit",
    "tool: blows menu",
];
/// Kinds that close what an opener opened.
const CLOSES: &[&str] = &[
    "confirm: no",
    "give up: no",
    "help: close",
    "menu: resume",
    "primer: close",
];
/// Kinds that give up a character's part or turn: clicked after the rest.
const LATE: &[&str] = &[
    "action: end turn",
    "action: flee",
    "offer: Surrender",
    "offer: Pass",
    "give up: yes",
];
/// Kinds that ask first ("give up: yes" or "no"): clicked again, once the
/// question has been turned down, to be answered yes.
const ASKS_FIRST: &[&str] = &["action: flee", "offer: Surrender"];

/// A click in progress on one widget.
#[derive(Clone, Debug)]
pub(super) struct Press {
    id: egui::Id,
    kind: String,
    at: egui::Pos2,
    /// Frames since the pointer moved onto it.
    frame: u32,
}

/// Send one pointer event to the game's egui.
pub(super) fn pointer(world: &mut World, event: egui::Event) {
    let mut q = world.query_filtered::<Entity, With<PrimaryEguiContext>>();
    if let Ok(context) = q.single(world) {
        world.write_message(EguiInputEvent { context, event });
    }
}

/// Carry a click on one frame further: the pointer onto the widget, then
/// the button pressed, then released; then see whether egui counted a
/// click on that widget. True once done (landed or not).
pub(super) fn press_on(world: &mut World, tour: &mut Tour, ctx: &egui::Context) -> bool {
    let Some(p) = tour.press.as_mut() else {
        return true;
    };
    p.frame += 1;
    let button = |pressed| egui::Event::PointerButton {
        pos: p.at,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::default(),
    };
    match p.frame {
        1 => {
            let e = button(true);
            pointer(world, e);
            false
        }
        2 => {
            let e = button(false);
            pointer(world, e);
            false
        }
        3 | 4 => {
            let landed = ctx.viewport(|v| v.interact_widgets.clicked) == Some(p.id);
            if landed {
                world.resource_mut::<Audit>().clicked.insert(p.kind.clone());
                if OPENS.contains(&p.kind.as_str()) || p.kind.ends_with(" menu") {
                    tour.detour += 1;
                } else if CLOSES.contains(&p.kind.as_str()) {
                    tour.detour = tour.detour.saturating_sub(1);
                }
                // The pointer leaves, as a hand does: no tooltip of this
                // widget lies over the next one.
                pointer(world, egui::Event::PointerGone);
                tour.clicked = true;
                // The walk's last click ends the game within this frame.
                if tour.at + 1 == tour.steps.len() {
                    tour.press = None;
                    return true;
                }
                // What the click changed is drawn in the passes after it:
                // the next choice waits for them.
                if let Some(p) = tour.press.as_mut() {
                    p.frame = 10;
                }
                return false;
            }
            if p.frame == 4 {
                let (clicked, hovered) = ctx.viewport(|v| {
                    (
                        v.interact_widgets.clicked,
                        v.interact_widgets.hovered.contains(&p.id),
                    )
                });
                debug!(
                    "the click on {:?} did not land: egui clicked {clicked:?}, hovered it: {hovered}, layer there {:?}",
                    p.kind,
                    ctx.layer_id_at(p.at)
                );
                *tour.missed.entry(p.kind.clone()).or_default() += 1;
                tour.press = None;
                return true;
            }
            false
        }
        // Landed: two passes more, then the walk goes on.
        11 | 12 => false,
        _ => {
            tour.press = None;
            true
        }
    }
}

/// Start a click on `w`.
pub(super) fn start_press(world: &mut World, tour: &mut Tour, w: &Seen) {
    let (Some(kind), Some(at)) = (w.kind.clone(), w.at) else {
        return;
    };
    debug!("the walk clicks {kind:?} at {at:?}");
    pointer(world, egui::Event::PointerMoved(at));
    tour.press = Some(Press {
        id: w.id,
        kind,
        at,
        frame: 0,
    });
}

/// What to click next while looking around: a kind in view never clicked
/// (the leaving kinds excepted; the turn's end and giving up a character
/// after the rest; what closes a dialog last), else, after an opener, what
/// closes it again.
pub(super) fn pick_around<'a>(seen: &'a [Seen], audit: &Audit, tour: &Tour) -> Option<&'a Seen> {
    let clickable = |w: &&Seen| {
        w.enabled
            && w.at.is_some()
            && w.kind.as_deref().is_some_and(|k| {
                !LEAVES.contains(&k) && tour.missed.get(k).copied().unwrap_or(0) < 3
            })
    };
    let fresh = |w: &&Seen| !audit.clicked.contains(w.kind.as_deref().unwrap_or(""));
    let kind_in = |list: &'static [&'static str]| {
        move |w: &&Seen| list.contains(&w.kind.as_deref().unwrap_or(""))
    };
    let visible: Vec<&Seen> = seen.iter().filter(clickable).collect();
    let first = |f: &dyn Fn(&&Seen) -> bool| visible.iter().copied().find(|w| f(w));
    // A question is turned down first (its closer), then asked again and
    // answered yes (the asker, no longer fresh, clicked again).
    let yes_untried = !audit.clicked.contains("give up: yes")
        && !visible
            .iter()
            .any(|w| w.kind.as_deref() == Some("give up: yes"));
    // What an opened menu shows comes before another opener (which would
    // close it).
    let opener = |w: &&Seen| {
        w.kind
            .as_deref()
            .is_some_and(|k| OPENS.contains(&k) || k.ends_with(" menu"))
    };
    let plain = |w: &&Seen| fresh(w) && !kind_in(CLOSES)(w) && !kind_in(LATE)(w);
    first(&|w| plain(w) && !opener(w))
        .or_else(|| first(&|w| plain(w) && opener(w)))
        .or_else(|| first(&|w| fresh(w) && kind_in(CLOSES)(w)))
        .or_else(|| {
            yes_untried
                .then(|| first(&|w| !fresh(w) && kind_in(ASKS_FIRST)(w)))
                .flatten()
        })
        .or_else(|| first(&|w| fresh(w) && kind_in(LATE)(w)))
        .or_else(|| {
            (tour.detour > 0)
                .then(|| first(&|w| kind_in(CLOSES)(w)))
                .flatten()
        })
}
