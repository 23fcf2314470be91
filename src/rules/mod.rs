//! The rules core: the battle as Bevy ECS with no rendering, windowing or
//! input. Commands go in as [`command::CommandMsg`] messages, pass the
//! ruleset's legality check, execute with the one seeded [`dice::Dice`], and
//! come out as [`event::BattleEvent`]s in the [`battle::BattleLog`].

pub mod apply;
pub mod battle;
pub mod command;
pub mod components;
pub mod decide;
pub mod dice;
pub mod engine;
pub mod error;
pub mod event;
pub mod fork;
pub mod hooks;
pub mod kept;
pub mod level;
pub mod log;
pub mod lookahead;
pub mod map;
pub mod narrate;
pub mod playout;
pub mod resolve;
pub mod roster;
pub mod scene;
pub mod schedule;
pub mod victory;
pub mod view;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

use battle::{Battle, BattleRules, BattleStep, Ground};
use hooks::{ActiveRuleset, RulesetRegistry};
use log::{BattleLog, LastRejection};
use roster::{Factions, Roster};

/// The core: resources, the command message, the battle step schedule and
/// the ruleset-independent systems (AI decisions, victory). Every resource a
/// battle uses exists from the start, empty, so that a system or a run
/// condition that reads one never fails before the first battle.
pub fn plugin(app: &mut App) {
    app.init_resource::<Battle>()
        .init_resource::<BattleLog>()
        .init_resource::<Ground>()
        .init_resource::<BattleRules>()
        .init_resource::<Factions>()
        .init_resource::<Roster>()
        .init_resource::<LastRejection>()
        .init_resource::<RulesetRegistry>()
        .init_resource::<schedule::Schedule>()
        .insert_resource(dice::Dice::seeded(0))
        .insert_resource(map::Map::new(1, 1, vec![map::Terrain::Open]))
        .add_message::<command::CommandMsg>();
    let mut step = Schedule::new(BattleStep);
    // A battle step is one system on one thread: batch simulation runs one
    // battle per core instead.
    step.set_executor(SingleThreadedExecutor::new());
    step.add_systems(battle_step);
    app.add_schedule(step);
    fork::plugin(app);
    app.insert_resource(decide::HardAi(lookahead::decide));
    // What does not change in a battle, which a fork leaves as it is.
    fork::register(app)
        .fixed::<decide::HardAi>()
        .fixed::<engine::LevelChecked>()
        .fixed::<engine::StartKept>()
        .fixed::<lookahead::LookAhead>();
}

/// One battle step, its parts in their order ([`battle::BattleSet`]): the
/// AI answers the prompt, the ruleset the battle is played under checks
/// and executes the commands sent and moves the round on (through its
/// hooks, while the battle is not over), the core checks victory. One
/// system rather than one a part and one a ruleset behind run conditions:
/// a battle runs hundreds of steps and a simulation thousands of battles,
/// and the schedule's own work on each system and condition was a tenth
/// of brp's.
/// The step changes values only, never where they lie ([`view::fixed`]):
/// what it finds it finds once.
pub fn battle_step(world: &mut World) {
    view::fixed(world, step);
}

fn step(world: &mut World) {
    // The ruleset in force does not change within a step.
    let hooks = view::get_resource::<ActiveRuleset>(world).map(|h| h.0);
    apply::in_step(world, hooks.map(|h| h.apply), |world| {
        let decided = decide::decide(world, hooks);
        if let Some(hooks) = hooks {
            if decided.in_force {
                (hooks.resolve)(world, decided.verdict);
            }
            if in_force(world, hooks) {
                (hooks.advance)(world);
            }
        }
        victory::victory_step(world);
    });
}

/// Is the battle played under the ruleset of `hooks`, and not over?
fn in_force(world: &World, hooks: &hooks::RulesetHooks) -> bool {
    let battle = view::resource::<Battle>(world);
    battle.ruleset == Some(hooks.id) && !battle.is_over()
}
