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
//!
//! Its parts: `standard.rs` the walk a new player takes, `walk.rs` one
//! frame of it, `clicks.rs` a click as a hand makes it and what to click
//! next, `player.rs` what a player would answer at the human's prompt.

mod clicks;
pub(super) mod player;
mod standard;
mod walk;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::AppSystems;
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Speed};
use crate::game::widgets::{self, Audit};
use crate::rules::battle::Prompt;
use crate::rules::components::Cid;

use clicks::Press;

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

    /// Whether the walk reached its end.
    pub fn done(&self) -> bool {
        self.at >= self.steps.len()
    }
}

pub fn plugin(app: &mut App, tour: Tour) {
    app.insert_resource(tour)
        .insert_resource(crate::game::flow::NewSeeds(7))
        .init_resource::<Audit>()
        .add_systems(Update, walk::walk.in_set(AppSystems::Input));
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

#[cfg(test)]
mod tests;
