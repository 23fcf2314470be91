//! Forks: a fork is its parent's exact state and continues as the parent
//! does; taking one leaves the parent untouched; a playout depends only on
//! the snapshot and its seed; nothing of a battle's state escapes the
//! registry.

use std::any::TypeId;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;

use super::{ForkRegistry, Snapshot};
use crate::data::level::{load_level, load_levels};
use crate::rules::battle::{Battle, Prompt, RulesetId};
use crate::rules::command::CommandMsg;
use crate::rules::components::{Cid, Controller};
use crate::rules::engine::{Controls, Engine, StartOptions, Stop, supported_rulesets};
use crate::rules::level::Level;
use crate::testkit;

fn levels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels")
}

/// Every shipped level under every ruleset that plays it.
fn shipped(engine: &Engine) -> Vec<(Level, RulesetId)> {
    let mut out = Vec::new();
    for (path, level) in load_levels(&levels_dir()) {
        let level = level.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for r in supported_rulesets(engine.world(), &level) {
            out.push((level.clone(), r));
        }
    }
    assert!(out.len() >= 9, "the shipped levels are found");
    out
}

fn start(engine: &mut Engine, level: &Level, ruleset: RulesetId, seed: u64, control: Controls) {
    let opts = StartOptions {
        seed,
        script: Vec::new(),
        control,
    };
    if let Err(e) = engine.start(level, ruleset, &opts) {
        panic!("{} under {ruleset}: {e}", level.name);
    }
}

/// Step until `at` holds; false if the battle ended first.
fn run_until(engine: &mut Engine, at: impl Fn(&World) -> bool) -> bool {
    for _ in 0..100_000 {
        if engine.outcome().is_some() {
            return false;
        }
        if at(engine.world()) {
            return true;
        }
        engine.step();
    }
    false
}

/// The battle's whole state as text: every registered part, with the
/// roster by name (entity ids belong to one world), and the commands
/// waiting.
fn state(engine: &Engine) -> Vec<(&'static str, String)> {
    let snap = engine.snapshot();
    let registry = engine.world().resource::<ForkRegistry>();
    let roster = engine.world().resource::<crate::rules::roster::Roster>();
    let mut parts: Vec<(&'static str, String)> = registry
        .describe(&snap)
        .into_iter()
        .filter(|(name, _)| !name.ends_with("::Roster"))
        .collect();
    parts.push((
        "roster",
        format!("{:?} {:?}", roster.names, roster.factions),
    ));
    parts.push(("commands", format!("{:?}", snap.commands)));
    parts
}

fn assert_same_state(a: &Engine, b: &Engine, what: &str) {
    for ((name, x), (_, y)) in state(a).into_iter().zip(state(b)) {
        assert_eq!(x, y, "{what}: {name} differs");
    }
}

/// Start the first battle (from seed 1 on) that reaches round 3, and step
/// it there; its seed.
fn at_round_3(engine: &mut Engine, level: &Level, ruleset: RulesetId, control: &Controls) -> u64 {
    for seed in 1..50 {
        start(engine, level, ruleset, seed, control.clone());
        if run_until(engine, FORK_POINTS[0].1) {
            return seed;
        }
    }
    panic!("{} under {ruleset}: no battle reaches round 3", level.name);
}

fn finish(engine: &mut Engine) -> (String, Stop) {
    let stop = engine.run(crate::sim::MAX_STEPS);
    (engine.log_text(), stop)
}

/// The fork points of a battle: the first step of round 3, and the first
/// step with a reaction pending.
type ForkPoint = (&'static str, fn(&World) -> bool);

const FORK_POINTS: [ForkPoint; 2] = [
    ("round 3", |w| w.resource::<Battle>().round >= 3),
    ("a pending reaction", |w| {
        matches!(w.resource::<Battle>().prompt, Prompt::React { .. })
    }),
];

#[test]
fn a_fork_is_its_parents_state_and_continues_as_the_parent_does() {
    let mut parent = testkit::engine();
    let mut child = testkit::engine();
    let mirror = load_level(&levels_dir().join("mirror_duel.ron")).expect("mirror_duel loads");
    let mut reactions = 0;
    for (level, ruleset) in shipped(&parent) {
        for seed in [1, 2] {
            for (point, at) in FORK_POINTS {
                start(&mut parent, &level, ruleset, seed, Controls::AllAi);
                if !run_until(&mut parent, at) {
                    continue;
                }
                if point == "a pending reaction" {
                    reactions += 1;
                }
                let what = format!("{} under {ruleset}, seed {seed}, at {point}", level.name);
                // The child was busy with another battle: nothing of it
                // may leak into the fork.
                let other = if ruleset == crate::rulesets::ud10::ID {
                    crate::rulesets::zones::ID
                } else {
                    crate::rulesets::ud10::ID
                };
                start(&mut child, &mirror, other, seed + 100, Controls::AllAi);
                child.run(40);
                let snap = parent.snapshot();
                child.restore(&snap);
                assert_same_state(&parent, &child, &what);
                let (a, stop_a) = finish(&mut parent);
                let (b, stop_b) = finish(&mut child);
                assert_eq!(stop_a, stop_b, "{what}");
                assert!(a == b, "{what}: the fork's battle went another way");
                assert_eq!(parent.outcome(), child.outcome(), "{what}");
            }
        }
    }
    assert!(reactions >= 4, "forks were taken with a reaction pending");
}

#[test]
fn taking_a_fork_and_playing_it_out_leaves_the_parent_untouched() {
    let mut parent = testkit::engine();
    let mut other = testkit::engine();
    let mut witness = testkit::engine();
    let level = load_level(&levels_dir().join("mirror_duel.ron")).expect("mirror_duel loads");
    for ruleset in RULESETS {
        let seed = at_round_3(&mut parent, &level, ruleset, &Controls::AllAi);
        start(&mut witness, &level, ruleset, seed, Controls::AllAi);
        let (expected, _) = finish(&mut witness);
        let snap = parent.snapshot();
        for seed in 0..5 {
            assert_eq!(other.playout(&snap, seed, 100_000), Stop::Over);
        }
        // The parent plays on as if nothing had happened...
        let (a, _) = finish(&mut parent);
        assert!(a == expected, "{ruleset}: forking changed the parent");
        // ...and so does an engine that played out the fork itself, then
        // restored it.
        for seed in 0..3 {
            parent.playout(&snap, seed, 100_000);
        }
        parent.restore(&snap);
        let (b, _) = finish(&mut parent);
        assert!(b == expected, "{ruleset}: a restore after playouts");
    }
}

/// An all-AI battle of `mirror_duel` under `ruleset` at round 3, and its
/// snapshot there.
fn mirror_duel_at_round_3(ruleset: RulesetId) -> (Engine, Snapshot) {
    let level = load_level(&levels_dir().join("mirror_duel.ron")).expect("mirror_duel loads");
    let mut parent = testkit::engine();
    at_round_3(&mut parent, &level, ruleset, &Controls::AllAi);
    let snap = parent.snapshot();
    (parent, snap)
}

/// The rulesets the fork tests play `mirror_duel` under.
const RULESETS: [RulesetId; 3] = [
    crate::rulesets::ud10::ID,
    crate::rulesets::zones::ID,
    crate::rulesets::brp::ID,
];

/// Under each ruleset: the battle at round 3 ([`mirror_duel_at_round_3`]),
/// its snapshot, and a fresh engine to restore it into.
fn each_fork(mut f: impl FnMut(RulesetId, &Engine, &Snapshot, &mut Engine)) {
    for ruleset in RULESETS {
        let (parent, snap) = mirror_duel_at_round_3(ruleset);
        f(ruleset, &parent, &snap, &mut testkit::engine());
    }
}

/// A log restored from a snapshot and played on is cut back, not copied,
/// when the same snapshot is restored again: the state is the snapshot's
/// exactly, log included, whatever the playout wrote.
#[test]
fn restoring_the_same_snapshot_again_is_the_snapshot_exactly() {
    each_fork(|ruleset, parent, snap, other| {
        for seed in 0..3 {
            other.playout(snap, seed, 100_000);
            let played = other
                .world()
                .resource::<crate::rules::log::BattleLog>()
                .events
                .len();
            other.restore(snap);
            let log = other.world().resource::<crate::rules::log::BattleLog>();
            assert!(
                played > log.events.len(),
                "{ruleset}: the playout wrote to the log"
            );
            assert_eq!(log.restored_from, Some(snap.id));
            assert_same_state(parent, other, &format!("{ruleset}, after playout {seed}"));
        }
    });
}

/// A restore of the snapshot a world was last restored from puts back only
/// what changed since; whatever changed, by the rules or written straight
/// into the world (a component, a resource, a component taken away, one
/// added), it is the snapshot exactly again.
#[test]
fn a_second_restore_puts_back_whatever_changed_since_the_first() {
    use crate::rules::components::{Heading, Health};
    use crate::rules::level::Facing;
    each_fork(|ruleset, parent, snap, other| {
        other.restore(snap);
        assert_same_state(parent, other, &format!("{ruleset}, restored"));
        for round in 0..3 {
            let world = other.world_mut();
            let e = world.resource::<crate::rules::roster::Roster>().entities[round];
            world.get_mut::<Health>(e).unwrap().hp = -99;
            world.entity_mut(e).remove::<Heading>();
            let f = world.resource::<crate::rules::roster::Roster>().entities[round + 1];
            world.entity_mut(f).insert(Heading(Facing::N));
            world.resource_mut::<Battle>().round = 99;
            world.resource_mut::<Battle>().prompt = Prompt::None;
            other.restore(snap);
            assert_same_state(parent, other, &format!("{ruleset}, written {round}"));
            other.playout(snap, round as u64, 100_000);
            other.restore(snap);
            assert_same_state(parent, other, &format!("{ruleset}, played {round}"));
        }
    });
}

#[test]
fn a_playout_depends_only_on_the_snapshot_and_its_seed() {
    each_fork(|ruleset, _, snap, a| {
        let mut b = testkit::engine();
        let mut logs = BTreeSet::new();
        for seed in 0..12 {
            a.playout(snap, seed, 100_000);
            // `b` plays the seeds in another order.
            b.playout(snap, 1000 + seed, 100_000);
            b.playout(snap, seed, 100_000);
            assert!(
                a.log_text() == b.log_text(),
                "{ruleset}: playout {seed} differs between engines"
            );
            assert!(a.outcome().is_some());
            logs.insert(a.log_text());
        }
        assert!(
            logs.len() >= 6,
            "{ruleset}: playouts draw fresh dice ({} distinct of 12)",
            logs.len()
        );
    });
}

#[test]
fn a_fork_on_a_humans_turn_is_played_out_by_the_ai_and_keeps_the_command_sent() {
    let level = load_level(&levels_dir().join("mirror_duel.ron")).expect("mirror_duel loads");
    for ruleset in RULESETS {
        let mut parent = testkit::engine();
        let control = Controls::PerFaction(vec![Controller::Human, Controller::Ai]);
        start(&mut parent, &level, ruleset, 4, control);
        assert_eq!(parent.run(100_000), Stop::WaitingForHuman);
        let snap = parent.snapshot();
        let mut other = testkit::engine();
        for seed in 0..3 {
            assert_eq!(other.playout(&snap, seed, 100_000), Stop::Over, "{ruleset}");
        }
        assert!(crate::rules::engine::waiting_for_human(parent.world()));
        // A command sent and not yet resolved goes with the fork.
        let actor = parent
            .world()
            .resource::<Battle>()
            .prompt
            .actor()
            .expect("a prompt");
        let hooks = parent
            .world()
            .resource::<crate::rules::hooks::ActiveRuleset>()
            .0;
        let command = (hooks.legal_commands)(parent.world(), actor)
            .pop()
            .expect("a legal command");
        parent.send(actor, command.clone());
        let snap = parent.snapshot();
        other.restore(&snap);
        assert_same_state(&parent, &other, ruleset.id());
        parent.step();
        other.step();
        let sent = CommandMsg { actor, command };
        for e in [&parent, &other] {
            let log = e.world().resource::<crate::rules::log::BattleLog>();
            assert_eq!(log.commands.last(), Some(&sent), "{ruleset}");
        }
        assert!(parent.log_text() == other.log_text(), "{ruleset}");
    }
}

#[test]
fn the_pool_gives_the_same_odds_on_one_thread_and_on_two() {
    let level = load_level(&levels_dir().join("mirror_duel.ron")).expect("mirror_duel loads");
    let mut parent = testkit::engine();
    at_round_3(
        &mut parent,
        &level,
        crate::rulesets::zones::ID,
        &Controls::AllAi,
    );
    let snap: Arc<Snapshot> = Arc::new(parent.snapshot());
    let one = crate::playouts::Playouts::new(&testkit::assets(), 1).expect("pool");
    let two = crate::playouts::Playouts::new(&testkit::assets(), 2).expect("pool");
    let a = one.run(&snap, 30, 77).expect("playouts");
    let b = two.run(&snap, 30, 77).expect("playouts");
    assert_eq!(a.results, b.results);
    assert_eq!(a.playouts, 30);
    let total: u64 = a.sides.iter().map(|s| s.wins).sum::<u64>() + a.draws;
    assert_eq!(total, 30);
    // And the same again from the same pool.
    assert_eq!(two.run(&snap, 30, 77).expect("playouts").results, a.results);
}

/// Every component a combatant carries and every resource of the engine is
/// either copied by a fork or declared fixed (ruleset data), apart from
/// what Bevy itself keeps and the command queue (which a fork carries on
/// its own).
#[test]
fn every_component_and_resource_is_accounted() {
    let mut engine = testkit::engine();
    let registry = engine.world().resource::<ForkRegistry>().clone();
    let copied: BTreeSet<TypeId> = registry.copied().map(|(_, t)| t).collect();
    let fixed: BTreeSet<TypeId> = registry.fixed_types().collect();
    let bevy_own: BTreeSet<TypeId> = App::new()
        .world()
        .iter_resources()
        .filter_map(|(info, _)| info.type_id())
        .collect();
    let queue = TypeId::of::<bevy::ecs::message::Messages<CommandMsg>>();
    let registry_of_messages = TypeId::of::<bevy::ecs::message::MessageRegistry>();
    for (level, ruleset) in shipped(&engine) {
        start(&mut engine, &level, ruleset, 1, Controls::AllAi);
        for steps in [20, 100_000] {
            engine.run(steps);
            let world = engine.world_mut();
            let entities: Vec<Entity> = world
                .query_filtered::<Entity, With<Cid>>()
                .iter(world)
                .collect();
            for e in entities {
                for info in world.inspect_entity(e).expect("spawned") {
                    let t = info.type_id().expect("a Rust type");
                    assert!(
                        copied.contains(&t),
                        "{} under {ruleset}: component {} is not registered for forks",
                        level.name,
                        info.name()
                    );
                }
            }
            for (info, _) in world.iter_resources() {
                let t = info.type_id().expect("a Rust type");
                assert!(
                    copied.contains(&t)
                        || fixed.contains(&t)
                        || bevy_own.contains(&t)
                        || t == queue
                        || t == registry_of_messages,
                    "{} under {ruleset}: resource {} is not registered for forks",
                    level.name,
                    info.name()
                );
            }
        }
    }
}
