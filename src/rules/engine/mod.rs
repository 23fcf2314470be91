//! A battle you can drive: one App with the rules core and every ruleset,
//! reused from battle to battle (batch simulation starts thousands of battles
//! on one engine). No window, no rendering: it runs headless in tests, in the
//! command line and inside the game.

mod setup;

use std::path::{Path, PathBuf};

use bevy::ecs::change_detection::Tick;
use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::view;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, BattleStep, Outcome, RulesetId};
use crate::rules::command::{Command, CommandMsg};
use crate::rules::components::{Cid, Controller};
use crate::rules::dice::Dice;
use crate::rules::error::DataError;
use crate::rules::event::{BattleEvent, BattleStarted};
use crate::rules::hooks::RulesetRegistry;
use crate::rules::level::Level;
use crate::rules::log::{BattleLog, LastRejection};
use crate::rules::roster::{Factions, Roster};

/// The folder holding `rulesets/<id>/`: `FRAY_ASSETS`, else `assets/` in the
/// working directory, else the one in the source tree.
pub fn assets_dir() -> PathBuf {
    if let Ok(p) = std::env::var("FRAY_ASSETS") {
        return PathBuf::from(p);
    }
    let local = PathBuf::from("assets");
    if local.join("rulesets").is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// Who controls each faction in a battle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Controls {
    /// As the level says.
    #[default]
    AsLevel,
    /// Every faction by the tactical AI (GM preview, simulation).
    AllAi,
    /// One controller per faction, in the level's faction order.
    PerFaction(Vec<Controller>),
}

/// How to start a battle.
#[derive(Clone, Debug, Default)]
pub struct StartOptions {
    pub seed: u64,
    /// Die results used before the RNG (tests; a GM's physical dice).
    pub script: Vec<u32>,
    pub control: Controls,
}

/// Why a run of steps stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Over,
    /// The prompt is a human's: the battle waits for their command.
    WaitingForHuman,
    /// The step limit was reached.
    StepLimit,
}

/// A battle engine: the core plus every ruleset plugin, with their data.
pub struct Engine {
    pub app: App,
}

impl Engine {
    /// An engine with the rules core and the rulesets `rulesets` adds
    /// (the composition root, `crate::rulesets::engine`, adds every one),
    /// their data read from `dir`.
    pub fn build(dir: &Path, rulesets: impl FnOnce(&mut App)) -> Result<Engine, DataError> {
        let mut app = App::new();
        crate::rules::plugin(&mut app);
        rulesets(&mut app);
        load_rulesets(app.world_mut(), dir)?;
        Ok(Engine { app })
    }

    /// An engine with the rulesets `world`'s has (a look-ahead plays its
    /// candidates out on one), their data read from [`assets_dir`].
    pub fn like(world: &World) -> Result<Engine, DataError> {
        let plugins: Vec<fn(&mut App)> = view::get_resource::<RulesetRegistry>(world)
            .map(|r| r.0.iter().map(|h| h.plugin).collect())
            .unwrap_or_default();
        Engine::build(&assets_dir(), |app| {
            for p in plugins {
                p(app);
            }
        })
    }

    pub fn world(&self) -> &World {
        self.app.world()
    }

    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// Set up a battle on `level` under `ruleset`, replacing any battle before.
    pub fn start(
        &mut self,
        level: &Level,
        ruleset: RulesetId,
        opts: &StartOptions,
    ) -> Result<(), String> {
        start_battle(self.app.world_mut(), level, ruleset, opts)
    }

    /// [`Engine::start`] for a batch: `level` is the level every battle
    /// this engine has started was set up on, unchanged (a batch's worker
    /// starts its one level again and again). A battle kept from the last
    /// start on it is set up again without comparing the level with the
    /// one that passed (some 10,000 instructions, about 1 % of a battle on
    /// `mirror_duel`); otherwise as `start`. Debug builds check the promise.
    pub fn start_same(
        &mut self,
        level: &Level,
        ruleset: RulesetId,
        opts: &StartOptions,
    ) -> Result<(), String> {
        let world = self.app.world_mut();
        debug_assert!(
            view::get_resource::<LevelChecked>(world)
                .is_none_or(|c| c.0.as_ref().is_none_or(|(_, l)| l == level)),
            "start_same on another level than the engine's last"
        );
        if view::get_resource::<LevelChecked>(world).is_some_and(|c| c.0.is_some())
            && start_again(world, ruleset, opts)
        {
            return Ok(());
        }
        start_battle(world, level, ruleset, opts)
    }

    /// Run one battle step.
    pub fn step(&mut self) {
        step(self.app.world_mut());
    }

    /// Send a command, as a player or a test would.
    pub fn send(&mut self, actor: Cid, command: Command) {
        self.app
            .world_mut()
            .write_message(CommandMsg { actor, command });
    }

    /// Step until the battle ends, a human must answer, or `max_steps` pass.
    pub fn run(&mut self, max_steps: u64) -> Stop {
        run(self.app.world_mut(), max_steps)
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.world().resource::<Battle>().outcome.as_ref()
    }

    pub fn events(&self) -> &[BattleEvent] {
        &self.world().resource::<BattleLog>().events
    }

    /// The readable log of the battle so far, one line per event.
    pub fn log_text(&self) -> String {
        let w = self.world();
        let names = crate::rules::roster::Names {
            roster: w.resource::<Roster>(),
            factions: w.resource::<Factions>(),
        };
        let mut s = String::new();
        for e in w
            .resource::<BattleLog>()
            .events
            .iter()
            .filter(|e| !e.silent())
        {
            s.push_str(&crate::rules::narrate::describe(&names, e));
            s.push('\n');
        }
        s
    }

    /// Why the last command was refused, if it was.
    pub fn rejection(&self) -> Option<String> {
        self.world()
            .resource::<LastRejection>()
            .0
            .as_ref()
            .map(|(_, e)| e.0.to_string())
    }

    /// Change a ruleset setting (`body_zones`, `false`).
    pub fn configure(&mut self, ruleset: RulesetId, key: &str, value: &str) -> Result<(), String> {
        let hooks = self
            .world()
            .resource::<RulesetRegistry>()
            .get(ruleset)
            .ok_or_else(|| format!("the {ruleset} ruleset is not implemented yet"))?;
        // The battle kept for starting again was set up under the old value.
        self.world_mut().remove_resource::<StartKept>();
        // Nor is an answer kept at a moment of the battle before it right
        // after it.
        if let Some(mut log) = self.world_mut().get_resource_mut::<BattleLog>() {
            log.renew();
        }
        (hooks.configure)(self.world_mut(), key, value)
    }

    /// Find a combatant by name.
    pub fn cid(&self, name: &str) -> Option<Cid> {
        let r = self.world().resource::<Roster>();
        r.names
            .iter()
            .position(|n| n == name)
            .map(|i| Cid(i as u16))
    }
}

/// Read every registered ruleset's data.
pub fn load_rulesets(world: &mut World, dir: &Path) -> Result<(), DataError> {
    let hooks = view::resource::<RulesetRegistry>(world).0.clone();
    for h in hooks {
        (h.load)(world, &dir.join("rulesets"))?;
    }
    Ok(())
}

/// Run one battle step.
pub fn step(world: &mut World) {
    view::write::resource_mut::<Battle>(world).steps += 1;
    world.run_schedule(BattleStep);
}

/// Step until over, waiting for a human, or `max_steps`. The steps change
/// values only, never where they lie ([`view::fixed`]): what the first
/// finds, the others need not find again.
pub fn run(world: &mut World, max_steps: u64) -> Stop {
    view::fixed(world, |world| run_fixed(world, max_steps))
}

/// [`run`], in its fixed scope.
fn run_fixed(world: &mut World, max_steps: u64) -> Stop {
    // Controllers change only between runs (a battle's start, a playout's),
    // never within one: with no human among them, none can be waited for,
    // and the question is not asked every step.
    let humans = view::resource::<crate::rules::roster::Roster>(world)
        .cids()
        .any(|c| view::get::<Controller>(world, c).is_some_and(|c| c.waits()));
    // Change ticks are kept from growing too old once a run, as a schedule
    // does each time it runs.
    world.check_change_ticks();
    let mut last_run = world.last_change_tick();
    for _ in 0..max_steps {
        if humans {
            if view::resource::<Battle>(world).is_over() {
                return Stop::Over;
            }
            if waiting_for_human(world) {
                return Stop::WaitingForHuman;
            }
        }
        // One look at the battle a step: over, or one step more.
        let mut battle = view::write::resource_mut::<Battle>(world);
        if battle.is_over() {
            return Stop::Over;
        }
        battle.steps += 1;
        last_run = run_step(world, last_run);
    }
    if view::resource::<Battle>(world).is_over() {
        Stop::Over
    } else {
        Stop::StepLimit
    }
}

/// One step as the [`BattleStep`] schedule runs it, without the schedule:
/// its one system, [`crate::rules::battle_step`] (an exclusive system),
/// called as Bevy's executor calls it — with the world's last change tick
/// set to the system's last run (`last_run`, the tick of the run's step
/// before; for a run's first step, the world's own, where the schedule
/// would give the system's last run: nothing in the rules asks what
/// changed since, forks compare the ticks written, which are the same),
/// then the world's queued commands applied, and its change tick moved on,
/// so that what the next step writes is marked later — less the
/// executor's bookkeeping (its system sets, run conditions and which
/// systems have run: about 500 instructions a step, 2 to 5 % of a battle).
/// Returns this step's tick, the next step's `last_run`. The schedule stays
/// what [`step`] runs, and holds that one system only (a test says so).
fn run_step(world: &mut World, last_run: Tick) -> Tick {
    world.last_change_tick_scope(last_run, |world| {
        crate::rules::battle_step(world);
        world.flush();
    });
    world.increment_change_tick()
}

/// Is the battle waiting for a command from outside it, a human's or a
/// remote AI's ([`Controller::waits`]), none queued?
pub fn waiting_for_human(world: &World) -> bool {
    crate::rules::decide::prompted_controller(world).is_some_and(Controller::waits)
        && view::resource::<Messages<CommandMsg>>(world).is_empty()
}

/// Can `level` be played under `ruleset`? The one answer `fray check`,
/// `simulate`, `log`, `play` and the game's setup screen all give: the
/// ruleset is implemented, the level is meant for it (its `rulesets`), and
/// the ruleset can play every combatant and the level as a whole. Errors
/// point into the level's file.
pub fn validate(world: &World, level: &Level, ruleset: RulesetId) -> Result<(), DataError> {
    let field = if level.rulesets.is_empty() {
        "default_ruleset"
    } else {
        "rulesets"
    };
    let hooks = view::resource::<RulesetRegistry>(world)
        .get(ruleset)
        .ok_or_else(|| {
            level.error_at_field(
                field,
                format!("the {ruleset} ruleset is not implemented yet"),
            )
        })?;
    if !level.rulesets.is_empty() && !level.rulesets.iter().any(|r| r == ruleset.id()) {
        return Err(level.error_at_field(
            "rulesets",
            format!(
                "the level is made for {} only, not {ruleset}",
                level.rulesets.join(" and ")
            ),
        ));
    }
    (hooks.validate)(world, level)
}

/// The implemented rulesets the level can be played under ([`validate`]).
pub fn supported_rulesets(world: &World, level: &Level) -> Vec<RulesetId> {
    view::resource::<RulesetRegistry>(world)
        .0
        .iter()
        .map(|h| h.id)
        .filter(|id| validate(world, level, *id).is_ok())
        .collect()
}

/// The last level [`start_battle`] validated in this engine, and under
/// which ruleset. Derived from fixed data (the level and the ruleset's
/// data), not battle state: forks do not carry it.
#[derive(Resource, Default)]
pub(crate) struct LevelChecked(Option<(RulesetId, Level)>);

/// Forget which level passed: a ruleset's data has been (re)loaded.
pub(crate) fn forget_checked_level(world: &mut World) {
    world.remove_resource::<LevelChecked>();
    world.remove_resource::<StartKept>();
}

/// The battle [`start_battle`] last set up from scratch in this engine, as
/// a fork keeps it: the same battle (the level that passed last, the same
/// ruleset and controllers, no scripted dice) is set up again by restoring
/// it and reseeding the dice, whatever the seed. A batch starts one battle
/// thousands of times, and building its combatants from the ruleset's data
/// is most of a start. Made from the level, the ruleset's data and its
/// settings: forgotten when any of them changes ([`forget_checked_level`],
/// [`Engine::configure`]). Kept only when setting the battle up drew no
/// dice, so that the seed is all that differs.
#[derive(Resource)]
pub(crate) struct StartKept {
    ruleset: RulesetId,
    control: Controls,
    start: crate::rules::fork::Snapshot,
}

/// Set the battle up again from [`StartKept`], if it keeps this one.
fn start_again(world: &mut World, ruleset: RulesetId, opts: &StartOptions) -> bool {
    let Some(kept) = world.remove_resource::<StartKept>() else {
        return false;
    };
    if kept.ruleset != ruleset || kept.control != opts.control || !opts.script.is_empty() {
        world.insert_resource(kept);
        return false;
    }
    crate::rules::fork::restore(world, &kept.start);
    world.insert_resource(kept);
    view::write::resource_mut::<Battle>(world).seed = opts.seed;
    view::write::resource_mut::<Dice>(world).reseed(opts.seed);
    if let Some(BattleEvent::BattleStarted(BattleStarted { seed, .. })) =
        view::write::resource_mut::<BattleLog>(world)
            .events
            .first_mut()
    {
        *seed = opts.seed;
    }
    true
}

/// Set up a battle in `world`: clear the last one, reset every resource,
/// spawn the level's combatants with the ruleset's components.
pub fn start_battle(
    world: &mut World,
    level: &Level,
    ruleset: RulesetId,
    opts: &StartOptions,
) -> Result<(), String> {
    // The ruleset data a level is checked against never changes in an
    // engine: a level that passed once passes again (batches start the same
    // level thousands of times).
    let checked = view::get_resource::<LevelChecked>(world).is_some_and(|c| {
        c.0.as_ref()
            .is_some_and(|(r, l)| *r == ruleset && l == level)
    });
    if !checked {
        validate(world, level, ruleset).map_err(|e| e.to_string())?;
        world.insert_resource(LevelChecked(Some((ruleset, level.clone()))));
        world.remove_resource::<StartKept>();
    } else if start_again(world, ruleset, opts) {
        return Ok(());
    }
    let hooks = view::resource::<RulesetRegistry>(world)
        .get(ruleset)
        .ok_or_else(|| format!("the {ruleset} ruleset is not implemented yet"))?;
    setup::clear_previous(world, hooks, ruleset, level, opts);
    let factions = setup::factions_of(level, opts);
    put(world, setup::battle_rules(level, &factions)?);
    let mut roster = setup::spawn_combatants(world, level, &factions, hooks, opts)?;
    setup::seat_riders(level, &mut roster, ruleset)?;
    put(world, roster);
    put(world, Factions(factions));
    emit(
        world,
        BattleEvent::BattleStarted(BattleStarted {
            level: level.name.clone(),
            ruleset: ruleset.id(),
            seed: opts.seed,
        }),
    );
    if opts.script.is_empty() && view::resource::<Dice>(world).untouched() {
        let start = crate::rules::fork::snapshot(world);
        world.insert_resource(StartKept {
            ruleset,
            control: opts.control.clone(),
            start,
        });
    }
    Ok(())
}

/// Put a resource into the world: in place when it has one, as a batch
/// starting thousands of battles on one engine does (an insert moves the
/// resource through Bevy's insertion machinery each time).
pub(crate) fn put<R: Resource<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    value: R,
) {
    match view::write::get_resource_mut::<R>(world) {
        Some(mut have) => *have = value,
        None => world.insert_resource(value),
    }
}

#[cfg(test)]
mod tests;
