//! A walk through every screen in the order a player meets them, driven by
//! the same intents a player's clicks send: the title, the battle setup
//! (a level, a ruleset, who plays each side), a skirmish played by hand for
//! a few commands and then to its end, the pause menu, the results, "play
//! again", back to the title, a GM preview to its results, a second
//! skirmish under the other ruleset, and Quit.
//!
//! Every button, checkbox and field it meets it clicks at least once, with
//! a real pointer press and release on it: the navigation its steps name
//! ([`Step::Click`]), and everything else in view at the points the walk
//! looks around ([`Step::ClickAround`]) and at every prompt of the
//! human's. At its end it counts the kinds of widget drawn and clicked
//! ([`super::widgets::Audit`]) and fails if one was drawn and never
//! clicked.
//!
//! `fray --tour DIR` walks it in the real window and saves a screenshot of
//! each screen into DIR; the screen-walk test walks it headless. A step that
//! does not finish in its frame budget ends the game with an error.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_egui::input::EguiInputEvent;
use bevy_egui::{PrimaryEguiContext, egui};

use crate::game::AppSystems;
use crate::game::battle::logic::{Pacing, TurnUi, UiIntent, human_actor};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Speed, levels_dir};
use crate::game::widgets::{self, Audit, Seen};
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Controller, Loadout};
use crate::rules::hooks::{ActiveRuleset, Give};
use crate::rules::map::Cell;
use crate::rules::view;

/// One step of the walk.
#[derive(Clone, Debug)]
pub enum Step {
    /// Wait until the game shows this screen, then this many frames more
    /// (so that every system of the screen has run).
    Reach(Screen, u32),
    /// Send what a button sends.
    Send(ScreenIntent),
    /// Wait until a human must answer a prompt.
    AwaitHuman,
    /// Play the human's side by clicks for this many commands: give the
    /// turn to a character, walk towards the enemy, strike, react, end the
    /// turn.
    ByHand(u32),
    /// From here the human's prompts are answered with what the AI would
    /// choose, sent as the player's own commands, until the battle ends.
    PlayOut,
    /// How fast the AI's turns play out.
    Speed(Speed),
    /// Wait this many frames.
    Frames(u32),
    /// Save a screenshot named `NAME.png` (when the walk has a folder).
    Shot(&'static str),
    /// Click a widget of this kind (waiting until one is in view), as a
    /// player does: the pointer onto it, the button pressed and released.
    Click(&'static str),
    /// Click every kind of widget in view not clicked yet (but those that
    /// leave the screen, which the walk's own steps click), opening and
    /// closing what they open, until none is left.
    ClickAround,
    /// Scroll the combat log up, as a player reading back does.
    ScrollLogUp,
    /// Let a paused GM preview play on.
    Unpause,
    /// Save a screenshot named `NAME.png` of the next reaction dialog the
    /// human is shown in this battle (if one comes).
    ShotNextReaction(&'static str),
}

/// Kinds that leave the screen or the battle: only a step of the walk
/// clicks them, where it means to go.
const LEAVES: &[&str] = &[
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
struct Press {
    id: egui::Id,
    kind: String,
    at: egui::Pos2,
    /// Frames since the pointer moved onto it.
    frame: u32,
}

/// The walk and how far it has got.
#[derive(Resource, Clone, Debug)]
pub struct Tour {
    pub steps: Vec<Step>,
    /// The step being walked.
    pub at: usize,
    /// Frames spent on this step.
    frames: u32,
    /// Frames spent on this step since its condition held.
    settled: u32,
    /// Where screenshots go (none: no screenshots).
    shots: Option<PathBuf>,
    /// The screenshot being written.
    writing: Option<PathBuf>,
    /// Commands sent by hand in the current `ByHand` step.
    sent: u32,
    /// The human character that has walked in its current turn.
    walked: Option<(Cid, u32)>,
    /// Every screen the walk has shown, in order (repeats folded).
    pub seen: Vec<Screen>,
    /// Commands sent for the human, by clicks and buttons.
    pub human_commands: u32,
    /// Screenshots written.
    pub saved: Vec<PathBuf>,
    /// Why the walk stopped short, if it did.
    pub failed: Option<String>,
    /// The click in progress.
    press: Option<Press>,
    /// A click of this step's landed (`Step::Click`).
    clicked: bool,
    /// Openers clicked and not yet closed in this step.
    detour: u32,
    /// Frames in a row with nothing left to click around.
    idle: u32,
    /// Clicks on a kind that egui did not see land (covered by something).
    missed: std::collections::BTreeMap<String, u32>,
    /// The human's prompt in view (the prompt and the log's length then)
    /// and for how many frames: a player looks at what is offered before
    /// answering.
    looked: Option<(Prompt, usize, u32)>,
    /// The screen of the frame before (whose pass the walk reads).
    drawn_on: Option<Screen>,
    /// A screenshot to take of the next reaction dialog.
    react_shot: Option<&'static str>,
    /// Where each widget was in the pass before: only one that stays put
    /// (a window that opens settles in its second pass) is clicked.
    was_at: std::collections::HashMap<egui::Id, egui::Pos2>,
}

/// A step that takes longer than this many frames fails the walk.
const STEP_BUDGET: u32 = 20_000;

impl Tour {
    pub fn new(steps: Vec<Step>, shots: Option<PathBuf>) -> Tour {
        Tour {
            steps,
            at: 0,
            frames: 0,
            settled: 0,
            shots,
            writing: None,
            sent: 0,
            walked: None,
            seen: Vec::new(),
            human_commands: 0,
            saved: Vec::new(),
            failed: None,
            press: None,
            clicked: false,
            detour: 0,
            idle: 0,
            missed: Default::default(),
            was_at: Default::default(),
            drawn_on: None,
            looked: None,
            react_shot: None,
        }
    }

    /// The walk a new player takes: a ud10 skirmish on the courtyard (a
    /// level the AI plays on both sides until the setup gives the player
    /// the garrison), its pause menu and results, play again, the title, a
    /// GM preview, then a zones skirmish in the shrine of the pale god (its
    /// cultists' powers, the captain's medicine box).
    pub fn standard(shots: Option<PathBuf>) -> Tour {
        use ScreenIntent as I;
        use Step::*;
        let level = |name: &str| levels_dir().join(name);
        let steps = vec![
            Reach(Screen::Title, 30),
            Shot("title"),
            Click("title: setup"),
            Reach(Screen::Setup, 10),
            ClickAround,
            Send(I::PickLevel(level("courtyard.ron"))),
            Send(I::PickRuleset(crate::rulesets::ud10::ID)),
            Send(I::Control(0, Controller::Human)),
            Send(I::Control(1, Controller::Ai)),
            Send(I::Seed(7)),
            Frames(10),
            Shot("setup"),
            Click("setup: start"),
            Reach(Screen::Battle, 10),
            AwaitHuman,
            Frames(30),
            Shot("battle"),
            ClickAround,
            ScrollLogUp,
            ShotNextReaction("reaction_ud10"),
            ByHand(6),
            Send(I::Menu(true)),
            Frames(10),
            Shot("menu"),
            Click("menu: resume"),
            Speed(crate::game::session::Speed::Instant),
            PlayOut,
            Reach(Screen::Results, 20),
            Shot("results"),
            ClickAround,
            Click("results: replay"),
            Reach(Screen::Battle, 10),
            AwaitHuman,
            ByHand(2),
            Click("battle: menu"),
            Click("menu: to title"),
            Click("confirm: yes"),
            Reach(Screen::Title, 10),
            Speed(crate::game::session::Speed::X4),
            Click("title: preview"),
            Reach(Screen::Battle, 60),
            Shot("preview"),
            ClickAround,
            Unpause,
            Speed(crate::game::session::Speed::Instant),
            Reach(Screen::Results, 10),
            Click("results: setup"),
            Reach(Screen::Setup, 5),
            Send(I::PickLevel(level("pale_shrine.ron"))),
            Send(I::PickRuleset(crate::rulesets::zones::ID)),
            Send(I::Control(0, Controller::Human)),
            Send(I::Control(1, Controller::Ai)),
            Frames(5),
            Click("setup: start"),
            Reach(Screen::Battle, 5),
            AwaitHuman,
            Frames(10),
            Shot("zones"),
            ByHand(1),
            Frames(10),
            Shot("zones_turn"),
            ShotNextReaction("reaction_zones"),
            ByHand(5),
            PlayOut,
            Reach(Screen::Results, 10),
            Click("results: play again"),
            Reach(Screen::Battle, 5),
            AwaitHuman,
            ClickAround,
            AwaitHuman,
            Click("battle: menu"),
            Click("menu: to setup"),
            Click("confirm: yes"),
            Reach(Screen::Setup, 5),
            Click("setup: back"),
            Reach(Screen::Title, 5),
            Click("title: skirmish"),
            Reach(Screen::Battle, 5),
            AwaitHuman,
            ClickAround,
            AwaitHuman,
            Click("battle: menu"),
            Click("menu: restart"),
            Click("confirm: yes"),
            Reach(Screen::Battle, 5),
            AwaitHuman,
            Speed(crate::game::session::Speed::Instant),
            PlayOut,
            Reach(Screen::Results, 10),
            Click("results: title"),
            Reach(Screen::Title, 10),
            Click("title: setup"),
            Reach(Screen::Setup, 5),
            // brp: statements, movement, DEX ranks, parries and dodges.
            Send(I::PickLevel(level("mirror_duel.ron"))),
            Send(I::PickRuleset(crate::rulesets::brp::ID)),
            Send(I::Control(0, Controller::Human)),
            Send(I::Control(1, Controller::Ai)),
            Frames(5),
            Click("setup: start"),
            Reach(Screen::Battle, 5),
            AwaitHuman,
            Frames(10),
            Shot("brp"),
            ClickAround,
            ShotNextReaction("reaction_brp"),
            ByHand(8),
            AwaitHuman,
            ClickAround,
            Speed(crate::game::session::Speed::Instant),
            PlayOut,
            Reach(Screen::Results, 10),
            Click("results: title"),
            Reach(Screen::Title, 10),
            Click("title: quit"),
        ];
        Tour::new(steps, shots)
    }

    /// Whether the walk reached its end.
    pub fn done(&self) -> bool {
        self.at >= self.steps.len()
    }
}

pub fn plugin(app: &mut App, tour: Tour) {
    app.insert_resource(tour)
        .insert_resource(crate::game::flow::NewSeeds(7))
        .init_resource::<Audit>()
        .add_systems(Update, walk.in_set(AppSystems::Input));
}

fn screen_name(s: Screen) -> &'static str {
    match s {
        Screen::Title => "title",
        Screen::Setup => "setup",
        Screen::Battle => "battle",
        Screen::Results => "results",
    }
}

/// Send one pointer event to the game's egui.
fn pointer(world: &mut World, event: egui::Event) {
    let mut q = world.query_filtered::<Entity, With<PrimaryEguiContext>>();
    if let Ok(context) = q.single(world) {
        world.write_message(EguiInputEvent { context, event });
    }
}

/// Carry a click on one frame further: the pointer onto the widget, then
/// the button pressed, then released; then see whether egui counted a
/// click on that widget. True once done (landed or not).
fn press_on(world: &mut World, tour: &mut Tour, ctx: &egui::Context) -> bool {
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
fn start_press(world: &mut World, tour: &mut Tour, w: &Seen) {
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
fn pick_around<'a>(seen: &'a [Seen], audit: &Audit, tour: &Tour) -> Option<&'a Seen> {
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

/// The walk's count at its end: printed, and an error if a kind drawn was
/// never clicked.
fn final_count(world: &mut World, tour: &mut Tour) {
    let audit = world.resource::<Audit>().clone();
    let (report, mut fails) = audit.report();
    for (kind, n) in &tour.missed {
        if !audit.clicked.contains(kind) {
            fails.push(format!("{kind}: {n} clicks on it never landed (covered?)"));
        }
    }
    // The action bar keeps to one row at the window's size.
    if let Some(ctx) = crate::game::battle::view::panels::egui_ctx(world) {
        for (name, n) in widgets::rows(&ctx) {
            info!("{name}: at most {n} row(s)");
            if n > 1 {
                fails.push(format!("the {name} wrapped onto {n} rows"));
            }
        }
    }
    info!("{report}");
    if !fails.is_empty() {
        let why = format!(
            "the screen walk left widgets unclicked: {}",
            fails.join("; ")
        );
        error!("{why}");
        tour.failed = Some(why);
        world.write_message(AppExit::error());
    }
}

/// One frame of the walk.
fn walk(world: &mut World) {
    let screen = *world.resource::<State<Screen>>().get();
    let mut tour = world.resource::<Tour>().clone();
    if tour.seen.last() != Some(&screen) {
        tour.seen.push(screen);
    }
    if tour.done() || tour.failed.is_some() {
        world.insert_resource(tour);
        return;
    }
    tour.frames += 1;
    // What the last pass drew, counted; a click in progress holds the walk.
    let Some(ctx) = crate::game::battle::view::panels::egui_ctx(world) else {
        world.insert_resource(tour);
        return;
    };
    ctx.enable_accesskit();
    let seen = widgets::last_pass(world);
    let texts = widgets::texts(world);
    let mut audit = world.resource_mut::<Audit>();
    let drawn_on = tour.drawn_on.replace(screen).unwrap_or(screen);
    audit.observe(screen_name(drawn_on), &seen);
    audit.read(texts);
    // Only a widget where it was a pass ago is clicked.
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
    if tour.press.is_some() && !press_on(world, &mut tour, &ctx) {
        world.insert_resource(tour);
        return;
    }
    let step = tour.steps[tour.at].clone();
    // How long the human's prompt has been in view.
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
    let looked = tour.looked.is_some_and(|l| l.2 >= 3);
    if screen != Screen::Battle {
        tour.react_shot = None;
    }
    // The reaction dialog asked for, once it has been in view a while.
    if let Some(name) = tour.react_shot
        && looked
        && matches!(world.resource::<Battle>().prompt, Prompt::React { .. })
    {
        if shoot(world, &mut tour, name) {
            tour.react_shot = None;
        }
        world.insert_resource(tour);
        return;
    }
    // At the human's prompt, whatever is new in view is clicked first.
    let around = match step {
        // (Not while a reaction dialog waits for its screenshot.)
        Step::ByHand(_) | Step::PlayOut => {
            human_actor(world).is_some()
                && screen == Screen::Battle
                && !(tour.react_shot.is_some()
                    && matches!(world.resource::<Battle>().prompt, Prompt::React { .. }))
        }
        Step::ClickAround => true,
        _ => false,
    };
    if around && tour.press.is_none() {
        let audit = world.resource::<Audit>();
        if let Some(w) = pick_around(&seen, audit, &tour).cloned() {
            start_press(world, &mut tour, &w);
            tour.idle = 0;
            world.insert_resource(tour);
            return;
        }
        // A kind never clicked, scrolled out of view: scroll to it.
        if let Some(w) = seen
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
    }
    let finished = match step {
        Step::Click(kind) => {
            if tour.clicked {
                true
            } else {
                if let Some(w) = seen
                    .iter()
                    .find(|w| w.kind.as_deref() == Some(kind) && w.enabled && w.at.is_some())
                    .cloned()
                {
                    start_press(world, &mut tour, &w);
                }
                false
            }
        }
        // Done once nothing is left to click and nothing moves (a header
        // that folds slides what is under it for a while).
        Step::ClickAround => {
            tour.idle = if moving { 0 } else { tour.idle + 1 };
            tour.idle > 3
        }
        Step::ScrollLogUp => {
            // The log fills the bottom panel's lower part.
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
        Step::Shot(name) => shoot(world, &mut tour, name),
        Step::ByHand(n) => {
            if tour.sent < n
                && looked
                && let Some(intent) = human_click(world, &mut tour.walked)
            {
                world.write_message(intent);
                tour.sent += 1;
                tour.human_commands += 1;
            }
            tour.sent >= n || screen != Screen::Battle
        }
        Step::PlayOut => {
            if looked && let Some(command) = ai_choice(world) {
                world.write_message(UiIntent::Command(command));
                tour.human_commands += 1;
            }
            screen != Screen::Battle || world.resource::<Battle>().is_over()
        }
    };
    if finished {
        tour.at += 1;
        tour.frames = 0;
        tour.settled = 0;
        tour.sent = 0;
        tour.clicked = false;
        tour.detour = 0;
        tour.idle = 0;
        if tour.done() {
            final_count(world, &mut tour);
        }
    } else if tour.frames > STEP_BUDGET {
        let why = format!(
            "the screen walk is stuck at step {} ({:?}) on the {:?} screen",
            tour.at, tour.steps[tour.at], screen
        );
        error!("{why}");
        for w in &seen {
            debug!(
                "in view then: {:?} at {:?} (enabled {})",
                w.kind, w.at, w.enabled
            );
        }
        tour.failed = Some(why);
        world.write_message(AppExit::error());
    }
    world.insert_resource(tour);
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

/// The click or button a new player would use at the human's prompt: give
/// the turn to the first character offered, answer an attack with the first
/// reaction offered, strike an enemy in reach with the weapon in hand, walk
/// once a turn towards the nearest enemy (`walked` remembers whose turn
/// walked), or end the turn.
pub fn human_click(world: &World, walked: &mut Option<(Cid, u32)>) -> Option<UiIntent> {
    let actor = human_actor(world)?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    let legal = (hooks.legal_commands)(world, actor);
    let battle = world.resource::<Battle>();
    match battle.prompt {
        Prompt::Activate { .. } => (hooks.offers)(world, actor, &legal)
            .list
            .iter()
            .find_map(|o| match o.give {
                Give::Click(who) => view::cell(world, who).map(UiIntent::Click),
                _ => None,
            }),
        Prompt::React { .. } => Some(UiIntent::React(0)),
        Prompt::Act { .. } => {
            // The screen has not laid out this turn's options yet: a
            // player would wait for it.
            let ui = world.resource::<TurnUi>();
            if ui.options.actor != Some(actor) || !ui.is_current(world) {
                return None;
            }
            let ready = view::get::<Loadout>(world, actor).and_then(|l| l.ready);
            let strike = legal.iter().find_map(|c| match c {
                Command::Attack {
                    target,
                    weapon,
                    mode: 0,
                } if Some(*weapon) == ready && view::standing(world, *target) => {
                    view::cell(world, *target)
                }
                _ => None,
            });
            if let Some(cell) = strike {
                return Some(UiIntent::Click(cell));
            }
            let turn = (actor, battle.round);
            if *walked != Some(turn)
                && let Some(cell) = towards_enemy(world, actor)
            {
                *walked = Some(turn);
                return Some(UiIntent::Click(cell));
            }
            if legal.contains(&Command::EndTurn) {
                return Some(UiIntent::Command(Command::EndTurn));
            }
            // A prompt the turn cannot simply end (brp's statement of
            // intent): what the ruleset offers to a click on a combatant,
            // else its first button.
            let offers = (hooks.offers)(world, actor, &legal);
            offers
                .list
                .iter()
                .find_map(|o| match o.give {
                    Give::Click(who) => view::cell(world, who).map(UiIntent::Click),
                    _ => None,
                })
                .or_else(|| {
                    offers
                        .list
                        .iter()
                        .find(|o| o.give == Give::Button)
                        .map(|o| UiIntent::Command(o.command.clone()))
                })
                .or(Some(UiIntent::Command(Command::EndTurn)))
        }
        Prompt::None => None,
    }
}

/// Of the cells the move tool offers, the one nearest an enemy.
fn towards_enemy(world: &World, actor: Cid) -> Option<Cell> {
    let ui = world.resource::<TurnUi>();
    if ui.options.actor != Some(actor) {
        return None;
    }
    let enemies: Vec<Cell> = view::enemies(world, actor)
        .into_iter()
        .filter_map(|e| view::cell(world, e))
        .collect();
    let distance = |c: &Cell| {
        enemies
            .iter()
            .map(|e| (e.x - c.x).abs().max((e.y - c.y).abs()))
            .min()
            .unwrap_or(0)
    };
    ui.options.moves.keys().copied().min_by_key(distance)
}

/// What the ruleset's AI would do at the human's prompt.
fn ai_choice(world: &mut World) -> Option<Command> {
    let actor = human_actor(world)?;
    let hooks = world.get_resource::<ActiveRuleset>()?.0;
    Some((hooks.decide)(world, actor))
}

#[cfg(test)]
mod tests {
    //! The screen walk in the real game app: the plugins `fray` builds,
    //! rendering included, stepped frame by frame without a desktop window.
    //! A panic, a system whose parameters fail validation (Bevy's default
    //! error handler panics), or a step that never finishes fails it.

    use super::*;
    use crate::game::{Display, GameOptions, build_app};

    /// Step the app until it asks to exit.
    fn run_to_exit(app: &mut App, max_frames: u32) -> (AppExit, u32) {
        let mut frames = 0u32;
        loop {
            app.update();
            frames += 1;
            if let Some(exit) = app.should_exit() {
                return (exit, frames);
            }
            assert!(frames < max_frames, "no exit after {frames} frames");
        }
    }

    #[test]
    fn a_player_walks_every_screen_from_the_title_to_quit() {
        let mut app = build_app(&GameOptions::default(), Display::Headless).expect("the game app");
        plugin(&mut app, Tour::standard(None));
        app.finish();
        app.cleanup();
        let (exit, frames) = run_to_exit(&mut app, 200_000);
        let tour = app.world().resource::<Tour>().clone();
        eprintln!("{}", app.world().resource::<Audit>().report().0);
        assert_eq!(tour.failed, None, "missed: {:?}", tour.missed);
        assert!(
            tour.done(),
            "stopped at step {} of {}",
            tour.at,
            tour.steps.len()
        );
        assert_eq!(exit, AppExit::Success);
        use Screen::*;
        assert_eq!(
            tour.seen,
            [
                Title, Setup, Battle, Results, Battle, Title, Battle, Results, Setup, Battle,
                Results, Battle, Setup, Title, Battle, Results, Title, Setup, Battle, Results,
                Title
            ]
        );
        // Every kind of widget drawn was clicked (the walk fails otherwise:
        // `tour.failed` above), and the count is not empty.
        let audit = app.world().resource::<Audit>();
        let (report, fails) = audit.report();
        eprintln!("{report}");
        assert_eq!(fails, Vec::<String>::new());
        assert!(audit.clicked.len() >= 30, "{report}");
        for kind in [
            "log: back to the latest",
            "menu: quit",
            "confirm: no",
            "help: close",
            "preview: step",
            "setup: seed",
            // brp's statements, ud10's facing, a surrender confirmed.
            "tool: Declare",
            "offer: Declare",
            "tool: Face",
            "give up: no",
            "give up: yes",
        ] {
            assert!(audit.clicked.contains(kind), "{kind} was never clicked");
        }
        assert!(tour.human_commands >= 14, "{}", tour.human_commands);
        // The screens were drawn: egui ran a pass in (nearly) every frame.
        let ctx = crate::game::battle::view::panels::egui_ctx(app.world_mut()).expect("egui");
        assert!(
            ctx.cumulative_pass_nr() + 5 >= u64::from(frames),
            "{} egui passes in {frames} frames",
            ctx.cumulative_pass_nr()
        );
        eprintln!(
            "walked {} steps in {frames} frames; {} commands for the human",
            tour.steps.len(),
            tour.human_commands
        );
    }

    /// The window's close button on the title screen ends the game with
    /// success.
    #[test]
    fn closing_the_window_quits_cleanly() {
        use bevy::window::{PrimaryWindow, WindowCloseRequested};
        let mut app = build_app(&GameOptions::default(), Display::Headless).expect("the game app");
        app.finish();
        app.cleanup();
        for _ in 0..10 {
            app.update();
        }
        assert_eq!(app.should_exit(), None);
        let window = app
            .world_mut()
            .query_filtered::<Entity, With<PrimaryWindow>>()
            .single(app.world())
            .expect("a primary window");
        app.world_mut()
            .write_message(WindowCloseRequested { window });
        let (exit, _) = run_to_exit(&mut app, 100);
        assert_eq!(exit, AppExit::Success);
    }
}
