//! Moving between screens. Every button of the title screen, the battle
//! setup, the results and the pause menu sends a [`ScreenIntent`]; one system
//! carries it out, whatever screen the game is on. The screens only draw and
//! send, so a test (or `fray --tour`) walks the game by sending the same
//! intents a player's clicks send.

use std::path::PathBuf;

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::game::battle::logic::Pacing;
use crate::game::session::{Catalog, Screen, Session};
use crate::rules::battle::RulesetId;
use crate::rules::components::Controller;
use crate::rules::level::Control;

/// What a player asked of the screens.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ScreenIntent {
    /// Title: a skirmish on the chosen level; the player commands the first
    /// faction and any the level gives a human, the AI the rest.
    Skirmish,
    /// Title: every faction played by the AI (a GM preview).
    GmPreview,
    /// Setup: play this level of the catalog.
    PickLevel(PathBuf),
    /// Setup: play under this ruleset (ignored if the level cannot).
    PickRuleset(RulesetId),
    /// Setup: who plays the n-th faction.
    Control(usize, Controller),
    /// Setup: the battle's seed.
    Seed(u64),
    /// Setup: start the battle as set up.
    Start,
    /// Open (true) or close the pause menu.
    Menu(bool),
    /// The same battle again with the next seed (results' "Play again",
    /// the pause menu's "Restart").
    PlayAgain,
    /// The same battle again with the same seed (results' "Replay this
    /// seed"): the AI plays it as before unless a human chooses otherwise.
    Replay,
    /// Go to this screen.
    Open(Screen),
    /// Leave the game.
    Quit,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<NewSeeds>()
        .add_message::<ScreenIntent>()
        .add_systems(Update, carry_out.in_set(crate::game::AppSystems::Flow));
}

/// Carry out the screen intents of this frame.
fn carry_out(world: &mut World) {
    let intents: Vec<ScreenIntent> = world
        .resource_mut::<Messages<ScreenIntent>>()
        .drain()
        .collect();
    for intent in intents {
        apply(world, intent);
    }
}

fn go(world: &mut World, screen: Screen) {
    world.resource_mut::<NextState<Screen>>().set(screen);
}

fn apply(world: &mut World, intent: ScreenIntent) {
    match intent {
        ScreenIntent::Skirmish | ScreenIntent::GmPreview => {
            let all_ai = intent == ScreenIntent::GmPreview;
            let Some(mut s) = world.get_resource::<Session>().cloned() else {
                return;
            };
            s.controls = skirmish_controls(&s, all_ai);
            // A new battle each time, its seed shown (the top bar, the
            // pause menu, the results) so it can be played again.
            s.seed = world.resource_mut::<NewSeeds>().draw();
            world.insert_resource(s);
            world.resource_mut::<Pacing>().menu = false;
            go(world, Screen::Battle);
        }
        ScreenIntent::PickLevel(path) => {
            let Some(old) = world.get_resource::<Session>().cloned() else {
                return;
            };
            let level = world
                .get_resource::<Catalog>()
                .and_then(|c| c.levels.iter().find(|(p, _)| *p == path).cloned());
            match level {
                Some((path, Ok(level))) => {
                    match Session::new(world, level, path, None, old.seed, false) {
                        Ok(s) => world.insert_resource(s),
                        Err(e) => error!("{e}"),
                    }
                }
                Some((path, Err(e))) => error!("{}: {e}", path.display()),
                None => error!("{}: not a level of the catalog", path.display()),
            }
        }
        ScreenIntent::PickRuleset(r) => {
            if let Some(mut s) = world.get_resource_mut::<Session>()
                && s.supported.contains(&r)
            {
                s.ruleset = r;
            }
        }
        ScreenIntent::Control(i, c) => {
            if let Some(mut s) = world.get_resource_mut::<Session>()
                && let Some(slot) = s.controls.get_mut(i)
            {
                *slot = c;
            }
        }
        ScreenIntent::Seed(seed) => {
            if let Some(mut s) = world.get_resource_mut::<Session>() {
                s.seed = seed;
            }
        }
        ScreenIntent::Start => {
            world.resource_mut::<Pacing>().menu = false;
            go(world, Screen::Battle);
        }
        ScreenIntent::Menu(open) => world.resource_mut::<Pacing>().menu = open,
        ScreenIntent::PlayAgain => {
            if let Some(mut s) = world.get_resource_mut::<Session>() {
                s.seed = s.seed.wrapping_add(1);
            }
            world.resource_mut::<Pacing>().menu = false;
            // From the battle itself (the pause menu) this leaves and enters
            // the battle screen again: a fresh board for the new battle.
            go(world, Screen::Battle);
        }
        ScreenIntent::Replay => {
            world.resource_mut::<Pacing>().menu = false;
            go(world, Screen::Battle);
        }
        ScreenIntent::Open(screen) => {
            world.resource_mut::<Pacing>().menu = false;
            go(world, screen);
        }
        ScreenIntent::Quit => {
            world.write_message(AppExit::Success);
        }
    }
}

/// The seeds of the title screen's battles: a new one each time. The
/// first is drawn from the clock when the game starts (a choice of which
/// battle to play, not a roll in one: every battle is its seed's), the
/// next ones follow from it; the screen walk starts them from a fixed
/// number.
#[derive(Resource, Clone, Copy, Debug)]
pub struct NewSeeds(pub u64);

impl Default for NewSeeds {
    fn default() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        NewSeeds(nanos)
    }
}

impl NewSeeds {
    /// The next seed: six digits, easy to read out and type.
    pub fn draw(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % 1_000_000
    }
}

/// Who plays each faction of a title-screen battle: in a skirmish the
/// player takes the first faction, and any other the level gives a human;
/// in a GM preview the AI plays every side.
fn skirmish_controls(s: &Session, all_ai: bool) -> Vec<Controller> {
    s.level
        .factions
        .iter()
        .enumerate()
        .map(|(i, f)| match (all_ai, i, f.control) {
            (true, _, _) => Controller::Ai,
            (false, 0, _) | (false, _, Control::Human) => Controller::Human,
            (false, _, Control::Ai) => Controller::Ai,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::NewSeeds;

    /// Each title-screen battle gets a new six-digit seed; from the same
    /// start, the same seeds (the screen walk's are fixed).
    #[test]
    fn each_new_battle_draws_a_new_seed() {
        let mut a = NewSeeds(7);
        let seeds: Vec<u64> = (0..5).map(|_| a.draw()).collect();
        assert!(seeds.iter().all(|s| *s < 1_000_000));
        let mut unique = seeds.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 5, "{seeds:?}");
        let mut b = NewSeeds(7);
        assert_eq!(b.draw(), seeds[0]);
    }
}
