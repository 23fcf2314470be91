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
pub mod level;
pub mod lookahead;
pub mod map;
pub mod narrate;
pub mod victory;
pub mod view;

use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;

use battle::{
    Battle, BattleLog, BattleRules, BattleSet, BattleStep, Factions, Ground, LastRejection, Roster,
    RulesetRegistry,
};

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
        .insert_resource(dice::Dice::seeded(0))
        .insert_resource(map::Map::new(1, 1, vec![map::Terrain::Open]))
        .add_message::<command::CommandMsg>();
    let mut step = Schedule::new(BattleStep);
    // A battle step is a handful of small systems: one thread is fastest, and
    // batch simulation runs one battle per core instead.
    step.set_executor(SingleThreadedExecutor::new());
    step.configure_sets(
        (
            BattleSet::Decide,
            BattleSet::Resolve,
            BattleSet::Advance,
            BattleSet::Victory,
        )
            .chain(),
    );
    step.add_systems(decide::decide.in_set(BattleSet::Decide));
    step.add_systems(victory::victory_step.in_set(BattleSet::Victory));
    app.add_schedule(step);
    fork::plugin(app);
}
