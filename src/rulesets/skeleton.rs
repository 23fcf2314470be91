//! The shape every ruleset shares, written once. A ruleset implements
//! [`Ruleset`] with its own data, settings and per-battle state and the
//! functions that are its rules; [`plugin`] registers its resources, fills
//! the core's hooks and puts its resolution and round advance into the
//! battle step. Adding a ruleset is a folder under `src/rulesets/`, a folder
//! under `assets/rulesets/`, and one line in `src/rulesets/mod.rs`.

use std::path::Path;

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::battle::RulesetId;
use crate::rules::command::{Command, Decision, Illegal, Verdict};
use crate::rules::components::Cid;
use crate::rules::error::{DataError, DefError};
use crate::rules::event::BattleEvent;
use crate::rules::fork::{self, ForkRegistry};
use crate::rules::hooks::{AuditFigure, Offers, Preview, RulesetHooks, RulesetRegistry};
use crate::rules::level::{CombatantDef, Level};
use crate::rules::resolve::resolve_with;
use crate::rules::scene::Scene;
use crate::rulesets::settings::{self, RulesetSettings};

/// What a ruleset's data makes of a combatant as the level defines it: the
/// components it carries into battle, built from the data alone (reads
/// only; [`Ruleset::equip`] puts them on the combatant's entity).
pub trait Equip: Resource {
    type Bundle: Equipped;
    fn equip(&self, def: &CombatantDef) -> Result<Self::Bundle, DefError>;
}

/// A combatant's components as a ruleset builds them, ready to insert.
pub trait Equipped {
    fn insert_into(self, entity: &mut EntityWorldMut);
}

/// A ruleset: its types and its rules.
pub trait Ruleset: 'static {
    const ID: RulesetId;
    /// Everything read from `assets/rulesets/<id>/`, which also makes a
    /// combatant's components ([`Equip`]).
    type Data: Equip;
    /// The calls the text leaves to the GM, and its optional rules.
    type Settings: RulesetSettings;
    /// The ruleset's own commands ([`Command::Ruleset`]), read back from
    /// JSON by [`RulesetHooks::parse_own`].
    type Command: crate::rules::command::OwnCommand + serde::de::DeserializeOwned;
    /// The round's bookkeeping, fresh for each battle.
    type Round: Resource<Mutability = bevy::ecs::component::Mutable>
        + Default
        + Clone
        + std::fmt::Debug;
    /// An action waiting on a reaction, fresh for each battle.
    type Pending: Resource<Mutability = bevy::ecs::component::Mutable>
        + Default
        + Clone
        + std::fmt::Debug;

    /// Read and check the ruleset's data folder.
    fn load(dir: &Path) -> Result<Self::Data, DataError>;
    /// The settings the data folder gives.
    fn settings(data: &Self::Data) -> &Self::Settings;
    /// Can the ruleset play this combatant as the level defines it: a known
    /// archetype, stats it has and in range, gear its equipment lists, a
    /// start it can fight from? (Reads only.)
    fn check_combatant(data: &Self::Data, def: &CombatantDef) -> Result<(), DefError>;
    /// How many riders this combatant carries as a mount or vehicle (0: it
    /// is none).
    fn carries(_data: &Self::Data, _def: &CombatantDef) -> u8 {
        0
    }
    /// What the ruleset needs of the level as a whole, beyond each
    /// combatant (zones: a map divided into zones).
    fn check_level(_data: &Self::Data, _level: &Level) -> Result<(), DataError> {
        Ok(())
    }
    /// Give a freshly spawned combatant the ruleset's components: the ones
    /// its data makes of the level's definition ([`Equip`]), written by
    /// the skeleton once for every ruleset.
    fn equip(world: &mut World, entity: Entity, def: &CombatantDef) -> Result<(), DefError> {
        let data = view::get_resource::<Self::Data>(world)
            .ok_or_else(|| DefError::entry(format!("{} data is not loaded", Self::ID.0)))?;
        let bundle = data.equip(def)?;
        bundle.insert_into(&mut world.entity_mut(entity));
        Ok(())
    }
    /// Register every component `equip` (or a rule) gives a combatant that
    /// the core does not define, so that a fork of the battle copies it
    /// (`rules::fork`; a test fails on one left out).
    fn fork(registry: &mut ForkRegistry);

    /// Is this command legal for this actor now? (Reads only.) The one
    /// check the core and the ruleset's AI both ask: the AI's answer on the
    /// command it settles on is the core's verdict ([`Decision`]).
    type Check: crate::rules::command::LegalityCheck;
    /// [`Ruleset::Check`], asked.
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
        <Self::Check as crate::rules::command::LegalityCheck>::check(world, actor, command)
    }
    /// Carry out a legal command: roll, emit events, apply them.
    fn execute(world: &mut Scene, actor: Cid, command: &Command);
    /// A representative list of the actor's legal commands.
    fn legal_commands(world: &World, actor: Cid) -> Vec<Command>;
    /// The ruleset's AI: the command it chooses for the actor now, with
    /// the check's answer on it when the AI asked (it asks of the command
    /// it settles on, and the core takes that answer).
    fn decide(world: &World, actor: Cid) -> Decision;
    /// What a command would do, in the rules' numbers, before it is sent.
    fn preview(world: &World, actor: Cid, command: &Command) -> Preview;
    /// The combatant's stat block as labelled lines.
    fn sheet(world: &World, cid: Cid) -> Vec<(String, String)>;
    /// Move the round on when nobody is to act (a battle step system).
    fn advance(world: &mut Scene);
    /// What the ruleset's own state takes from an event, after the core's
    /// shared apply (replays rebuild it from the log like the rest).
    fn apply(_world: &mut World, _event: &BattleEvent) {}
    /// What happens once the battle has ended.
    fn aftermath(_world: &mut Scene) {}
    /// What the results screen says of a combatant beyond its health and
    /// fate.
    fn after_note(_world: &World, _cid: Cid) -> Option<String> {
        None
    }
    /// How the game offers the ruleset's own commands among the actor's
    /// legal ones (reads only).
    fn offers(_world: &World, _actor: Cid, _legal: &[Command]) -> Offers {
        Offers::default()
    }
    /// The ruleset's own keys and prompts for the game's help overlay
    /// (keys, what they do), beside the keys every ruleset shares.
    const HELP: &'static [(&'static str, &'static str)] = &[];
    /// How a round goes, a line a step (the game's primer and help).
    const ROUND: &'static [&'static str] = &[];
    /// Whether the way a combatant faces matters under this ruleset (an
    /// attack from behind, say): the board shows it on every token.
    const FACING: bool = false;
    /// What a row of [`Ruleset::sheet`] means and where its numbers come
    /// from, by the row's label, for the sheet's tooltips (reads only).
    fn sheet_tip(_world: &World, _cid: Cid, _label: &str) -> Option<String> {
        None
    }
    /// What a kind of ground means under this ruleset (cover, cost to
    /// cross), for the board's hover (reads only).
    fn terrain_note(_world: &World, _t: crate::rules::map::Terrain) -> Option<String> {
        None
    }
    /// Where in its round the battle is, for the top bar (reads only).
    fn round_note(_world: &World) -> Option<String> {
        None
    }
    /// A word on a combatant for its row of the turn order, short and long
    /// (reads only).
    fn order_note(_world: &World, _cid: Cid) -> Option<(String, String)> {
        None
    }
    /// Whom a combatant has said it will attack this round (reads only).
    fn aims_at(_world: &World, _cid: Cid) -> Option<Cid> {
        None
    }
    /// What `fray audit` counts of the AI's play under this ruleset: each
    /// figure's name and what it counts.
    const AUDIT: &'static [AuditFigure] = &[];
    /// Count the AI's play in the events from `first` on (those of the step
    /// just run), with the world as that step left it, into `counts` (one
    /// per [`Ruleset::AUDIT`] figure). Reads only.
    fn audit(_world: &World, _first: usize, _counts: &mut [u64]) {}
}

/// Add a ruleset to the app.
pub fn plugin<R: Ruleset>(app: &mut App) {
    app.init_resource::<R::Round>()
        .init_resource::<R::Pending>()
        .init_resource::<R::Settings>();
    app.world_mut()
        .get_resource_or_init::<RulesetRegistry>()
        .0
        .push(&const { hooks::<R>() });
    {
        let mut registry = fork::register(app);
        registry
            .resource::<R::Round>()
            .resource::<R::Pending>()
            .resource::<R::Settings>()
            .fixed::<R::Data>();
        R::fork(&mut registry);
    }
}

/// The ruleset's hooks for the core, the AI and the game.
pub const fn hooks<R: Ruleset>() -> RulesetHooks {
    RulesetHooks {
        id: R::ID,
        check: check::<R>,
        legal_commands: legal_commands::<R>,
        decide: decide::<R>,
        decision: decision::<R>,
        parse_own: |json| {
            serde_json::from_value::<R::Command>(json)
                .map(Command::from)
                .map_err(|e| e.to_string())
        },
        resolve: resolve::<R>,
        advance: |world| R::advance(&mut Scene::new(world)),
        load: load::<R>,
        check_data: |dir| R::load(dir).map(|_| ()),
        validate: validate::<R>,
        equip: R::equip,
        plugin: plugin::<R>,
        reset: reset::<R>,
        configure: configure::<R>,
        preview: preview::<R>,
        sheet: sheet::<R>,
        apply: R::apply,
        aftermath: |world| R::aftermath(&mut Scene::new(world)),
        after_note: R::after_note,
        offers: R::offers,
        audit_figures: R::AUDIT,
        help: R::HELP,
        round: R::ROUND,
        facing: R::FACING,
        sheet_tip: |world, cid, label| {
            view::reading(world, |world| R::sheet_tip(world, cid, label))
        },
        terrain_note: |world, t| view::reading(world, |world| R::terrain_note(world, t)),
        audit: |world, first, counts| view::reading(world, |w| R::audit(w, first, counts)),
        round_note: |world| view::reading(world, R::round_note),
        order_note: |world, cid| view::reading(world, |w| R::order_note(w, cid)),
        aims_at: |world, cid| view::reading(world, |w| R::aims_at(w, cid)),
    }
}

fn load<R: Ruleset>(world: &mut World, dir: &Path) -> Result<(), DataError> {
    let data = R::load(&dir.join(R::ID.id()))?;
    world.insert_resource(R::settings(&data).clone());
    world.insert_resource(data);
    crate::rules::engine::forget_checked_level(world);
    Ok(())
}

/// Can `level` be played under the ruleset: each combatant, the riders'
/// mounts, the level as a whole. Errors point into the level's file.
fn validate<R: Ruleset>(world: &World, level: &Level) -> Result<(), DataError> {
    let Some(data) = view::get_resource::<R::Data>(world) else {
        return Err(level.error_at_field(
            "default_ruleset",
            format!("the {} data is not loaded", R::ID),
        ));
    };
    for (i, c) in level.combatants.iter().enumerate() {
        R::check_combatant(data, c).map_err(|e| level.error_at_combatant(i, &e))?;
    }
    for (i, c) in level.combatants.iter().enumerate() {
        let Some(mount) = &c.riding else { continue };
        // The loader has checked that the name is a combatant's.
        let Some(m) = level
            .combatants
            .iter()
            .find(|o| o.name.as_deref() == Some(mount.as_str()))
        else {
            continue;
        };
        let carries = R::carries(data, m);
        let aboard = level
            .combatants
            .iter()
            .filter(|o| o.riding.as_deref() == Some(mount.as_str()))
            .count();
        let problem = if carries == 0 {
            format!(
                "rides `{mount}`, which carries nobody under {}; expected a mount or vehicle (or no `riding`)",
                R::ID
            )
        } else if aboard > usize::from(carries) {
            format!("{aboard} ride `{mount}`, which carries {carries} at most")
        } else {
            continue;
        };
        return Err(level.error_at_combatant(i, &DefError::field("riding", problem)));
    }
    R::check_level(data, level)
}

fn reset<R: Ruleset>(world: &mut World) {
    crate::rules::engine::put(world, R::Pending::default());
    crate::rules::engine::put(world, R::Round::default());
}

fn configure<R: Ruleset>(world: &mut World, key: &str, value: &str) -> Result<(), String> {
    settings::set(
        &mut *view::write::resource_mut::<R::Settings>(world),
        key,
        value,
    )
}

// The hooks that only read run in one `view::reading` scope each: they
// ask for the same few resources thousands of times.

fn check<R: Ruleset>(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    view::reading(world, |world| R::check(world, actor, command))
}

fn legal_commands<R: Ruleset>(world: &World, actor: Cid) -> Vec<Command> {
    view::reading(world, |world| R::legal_commands(world, actor))
}

fn decide<R: Ruleset>(world: &World, actor: Cid) -> Command {
    decision::<R>(world, actor).command
}

fn decision<R: Ruleset>(world: &World, actor: Cid) -> Decision {
    view::reading(world, |world| R::decide(world, actor))
}

fn sheet<R: Ruleset>(world: &World, cid: Cid) -> Vec<(String, String)> {
    view::reading(world, |world| R::sheet(world, cid))
}

/// The ruleset's preview, with why the command is illegal now (from the
/// same check the command will meet).
fn preview<R: Ruleset>(world: &World, actor: Cid, command: &Command) -> Preview {
    view::reading(world, |world| Preview {
        illegal: R::check(world, actor, command)
            .err()
            .map(|e| e.0.into_owned()),
        ..R::preview(world, actor, command)
    })
}

/// Check and execute the commands sent since the last step.
fn resolve<R: Ruleset>(world: &mut World, verdict: Option<Verdict>) {
    resolve_with(world, verdict, check::<R>, R::execute);
}
