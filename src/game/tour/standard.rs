//! The walk a new player takes, act by act.

use std::path::PathBuf;

use crate::game::flow::ScreenIntent as I;
use crate::game::session::{Screen, levels_dir};
use crate::rules::battle::RulesetId;
use crate::rules::components::Controller;

use super::Step::{self, *};
use super::Tour;

impl Tour {
    /// The walk a new player takes: a ud10 skirmish on the courtyard (a
    /// level the AI plays on both sides until the setup gives the player
    /// the garrison), its pause menu and results, play again, the title, a
    /// GM preview, then a zones skirmish in the shrine of the pale god (its
    /// cultists' powers, the captain's medicine box).
    pub fn standard(shots: Option<PathBuf>) -> Tour {
        let mut steps = ud10_skirmish();
        steps.extend(gm_preview());
        steps.extend(zones_skirmish());
        steps.extend(ways_out());
        steps.extend(brp_duel());
        Tour::new(steps, shots)
    }
}

/// From the setup screen: `file` under `ruleset`, the first faction the
/// player's and the second the AI's, started and waiting for the player.
fn human_against_ai(file: &str, ruleset: RulesetId) -> Vec<Step> {
    vec![
        Send(I::PickLevel(level(file))),
        Send(I::PickRuleset(ruleset)),
        Send(I::Control(0, Controller::Human)),
        Send(I::Control(1, Controller::Ai)),
        Frames(5),
        Click("setup: start"),
        Reach(Screen::Battle, 5),
        AwaitHuman,
    ]
}

/// A shipped level's file.
fn level(name: &str) -> PathBuf {
    levels_dir().join(name)
}

/// The title, the setup, a ud10 skirmish on the courtyard by hand, its
/// pause menu and results, a replay left for the title.
fn ud10_skirmish() -> Vec<Step> {
    vec![
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
    ]
}

/// A GM preview from the title, played out to its results.
fn gm_preview() -> Vec<Step> {
    vec![
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
    ]
}

/// A zones skirmish in the shrine of the pale god, by hand then played
/// out, and played again.
fn zones_skirmish() -> Vec<Step> {
    let mut steps = human_against_ai("pale_shrine.ron", crate::rulesets::zones::ID);
    steps.extend([
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
    ]);
    steps
}

/// The other ways out of a battle: to the setup, back to the title, a
/// skirmish from the title restarted with a new seed and played out.
fn ways_out() -> Vec<Step> {
    vec![
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
    ]
}

/// A brp duel on the mirror duel level (statements, movement, DEX ranks,
/// parries and dodges), then Quit.
fn brp_duel() -> Vec<Step> {
    let mut steps = vec![Click("title: setup"), Reach(Screen::Setup, 5)];
    steps.extend(human_against_ai(
        "mirror_duel.ron",
        crate::rulesets::brp::ID,
    ));
    steps.extend([
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
    ]);
    steps
}
