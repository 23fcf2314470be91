//! Forking a running battle: its whole state taken out of the world as a
//! [`Snapshot`], and put back into any engine (the same one or another, on
//! another thread) as an exact copy, without replaying the battle from its
//! start. A fork can be taken between any two steps: mid-round, on a human's
//! turn, with a reaction pending, with commands sent but not yet resolved.
//!
//! What a battle's state is, is registered where it is defined: the core
//! registers its components and resources here ([`plugin`]), each ruleset
//! the components it gives a combatant and its per-battle resources (the
//! skeleton registers the round, the pending action and the settings). Data
//! read from `assets/` is the same in every engine and is declared static,
//! not copied. A test ([`tests::every_component_and_resource_is_accounted`])
//! fails when a new component or resource is neither.
//!
//! A *playout* (`playout.rs`) continues a restored fork with a fresh
//! random stream and the AI playing every side: the primitive of live odds
//! and of a look-ahead AI. `crate::playouts::Playouts` runs many in parallel.

use std::any::{Any, TypeId};

use bevy::ecs::change_detection::Tick;
use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::view;

use crate::rules::battle::{Battle, BattleRules, Ground, RulesetId};
use crate::rules::command::CommandMsg;
use crate::rules::components::{
    Archetype, Cid, CombatantName, Controller, FactionId, Heading, Health, Loadout, Size, Steed,
    TurnState,
};
use crate::rules::dice::Dice;
use crate::rules::hooks::{ActiveRuleset, RulesetRegistry};
use crate::rules::log::{BattleLog, LastRejection};
use crate::rules::map::Map;
use crate::rules::roster::{Factions, Roster};

/// One registered type's part of a snapshot.
type Part = Box<dyn Any + Send + Sync>;

/// How to copy one registered type out of a world and back in.
#[derive(Clone, Copy)]
struct Kind {
    /// The type's name, for messages.
    name: &'static str,
    take: fn(&World, &[Entity]) -> Part,
    /// Put the part back; with a tick, only where the world's value has
    /// changed since then (it equalled the part's at that tick).
    put: fn(&mut World, &[Entity], &(dyn Any + Send + Sync), Option<Tick>),
    /// The part as text (tests compare a fork with its parent).
    show: fn(&(dyn Any + Send + Sync)) -> String,
    type_id: fn() -> TypeId,
}

/// Every type that makes up a battle's state, and every resource that does
/// not change during a battle.
#[derive(Resource, Clone, Default)]
pub struct ForkRegistry {
    components: Vec<Kind>,
    resources: Vec<Kind>,
    statics: Vec<fn() -> TypeId>,
}

impl ForkRegistry {
    /// A component a combatant can carry: a fork copies it.
    pub fn component<
        T: Component<Mutability = bevy::ecs::component::Mutable> + Clone + std::fmt::Debug,
    >(
        &mut self,
    ) -> &mut Self {
        self.components.push(Kind {
            name: std::any::type_name::<T>(),
            take: |world, entities| {
                let part: Vec<Option<T>> = entities
                    .iter()
                    .map(|e| world.get::<T>(*e).cloned())
                    .collect();
                Box::new(part)
            },
            put: |world, entities, part, since| {
                let Some(part) = part.downcast_ref::<Vec<Option<T>>>() else {
                    return;
                };
                let now = world.change_tick();
                for (e, value) in entities.iter().zip(part) {
                    // Found by the component's remembered id (`view`), not
                    // by hashing its type each time.
                    match (value, view::write::get_mut::<T>(world, *e)) {
                        // Unchanged since it was last put back: still the
                        // snapshot's (reading the tick marks no change).
                        (Some(_), Some(have)) if unchanged(&have, since, now) => {}
                        // In place: no archetype move when an engine plays
                        // out the same fork again and again.
                        (Some(v), Some(mut have)) => *have = v.clone(),
                        (Some(v), None) => {
                            world.entity_mut(*e).insert(v.clone());
                        }
                        (None, Some(_)) => {
                            world.entity_mut(*e).remove::<T>();
                        }
                        (None, None) => {}
                    }
                }
            },
            show: |part| format!("{:?}", part.downcast_ref::<Vec<Option<T>>>()),
            type_id: TypeId::of::<T>,
        });
        self
    }

    /// A resource that is part of the battle's state: a fork copies it.
    pub fn resource<
        R: Resource<Mutability = bevy::ecs::component::Mutable> + Clone + std::fmt::Debug,
    >(
        &mut self,
    ) -> &mut Self {
        self.resources.push(Kind {
            name: std::any::type_name::<R>(),
            take: |world, _| Box::new(view::get_resource::<R>(world).cloned()),
            put: |world, _, part, since| match part.downcast_ref::<Option<R>>() {
                // In place when the world has one: an insert moves the
                // resource's entity through Bevy's insertion machinery.
                Some(Some(r)) => {
                    let now = world.change_tick();
                    match view::write::get_resource_mut::<R>(world) {
                        Some(have) if unchanged(&have, since, now) => {}
                        Some(mut have) => *have = r.clone(),
                        None => world.insert_resource(r.clone()),
                    }
                }
                Some(None) => {
                    world.remove_resource::<R>();
                }
                None => {}
            },
            show: |part| format!("{:?}", part.downcast_ref::<Option<R>>()),
            type_id: TypeId::of::<R>,
        });
        self
    }

    /// A resource a battle never changes (data read from `assets/`): the
    /// engine a fork goes into has its own.
    pub fn fixed<R: Resource>(&mut self) -> &mut Self {
        self.statics.push(TypeId::of::<R>);
        self
    }
}

/// Has the value not changed since `since` (the tick at which it was put
/// back from the snapshot being restored again)? Bevy marks a component or
/// resource changed whenever it is written through `Mut` (the only way the
/// rules write: see `apply`), so one not marked since still holds what was
/// put back then.
fn unchanged<T: ?Sized>(have: &Mut<'_, T>, since: Option<Tick>, now: Tick) -> bool {
    since.is_some_and(|s| !have.last_changed().is_newer_than(s, now))
}

/// Register types with the app's [`ForkRegistry`].
pub fn register(app: &mut App) -> Mut<'_, ForkRegistry> {
    app.world_mut().get_resource_or_init::<ForkRegistry>()
}

/// The core's share of a battle's state.
pub fn plugin(app: &mut App) {
    register(app)
        .component::<Cid>()
        .component::<CombatantName>()
        .component::<Archetype>()
        .component::<FactionId>()
        .component::<Heading>()
        .component::<Size>()
        .component::<Health>()
        .component::<Controller>()
        .component::<Steed>()
        .component::<Loadout>()
        .component::<TurnState>()
        .resource::<Battle>()
        .resource::<BattleLog>()
        .resource::<Ground>()
        .resource::<BattleRules>()
        .resource::<Factions>()
        .resource::<Roster>()
        .resource::<crate::rules::schedule::Schedule>()
        .resource::<LastRejection>()
        .resource::<ActiveRuleset>()
        .resource::<Dice>()
        .resource::<Map>()
        .fixed::<RulesetRegistry>()
        .fixed::<ForkRegistry>();
}

/// A running battle's whole state, out of its world. Send it to other
/// threads behind an `Arc`; restore it into any engine of the same build
/// and assets.
pub struct Snapshot {
    /// Unique in the process: tells a world whose log was restored from
    /// this very snapshot (see `BattleLog::restored_from`).
    id: u64,
    /// The length of the battle log's events and commands.
    log_len: (usize, usize),
    ruleset: Option<RulesetId>,
    combatants: usize,
    components: Vec<Part>,
    resources: Vec<Part>,
    /// Commands sent and not yet resolved.
    commands: Vec<CommandMsg>,
}

impl std::fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Snapshot")
            .field("ruleset", &self.ruleset)
            .field("combatants", &self.combatants)
            .field("commands", &self.commands.len())
            .finish_non_exhaustive()
    }
}

impl Snapshot {
    /// The ruleset the battle is played under.
    pub fn ruleset(&self) -> Option<RulesetId> {
        self.ruleset
    }
}

/// Take the battle's state out of `world`. The world is not changed.
pub fn snapshot(world: &World) -> Snapshot {
    let registry = view::resource::<ForkRegistry>(world);
    let entities = &view::resource::<Roster>(world).entities;
    let messages = view::resource::<Messages<CommandMsg>>(world);
    static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let log = view::resource::<BattleLog>(world);
    Snapshot {
        id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        log_len: (log.events.len(), log.commands.len()),
        ruleset: view::resource::<Battle>(world).ruleset,
        combatants: entities.len(),
        components: registry
            .components
            .iter()
            .map(|k| (k.take)(world, entities))
            .collect(),
        resources: registry
            .resources
            .iter()
            .map(|k| (k.take)(world, entities))
            .collect(),
        commands: messages.get_cursor().read(messages).cloned().collect(),
    }
}

/// Make `world`'s battle an exact copy of the snapshot's, replacing the
/// battle it holds. The world's combatants are reused when the battle has
/// as many under the same ruleset (playing out one fork again and again
/// moves no entity), else despawned and spawned afresh.
pub fn restore(world: &mut World, snap: &Snapshot) {
    let registry = view::resource::<ForkRegistry>(world).clone();
    let reuse = {
        let roster = view::resource::<Roster>(world);
        view::resource::<Battle>(world).ruleset == snap.ruleset
            && roster.entities.len() == snap.combatants
            && roster
                .entities
                .iter()
                .all(|e| world.get_entity(*e).is_ok_and(|e| e.contains::<Cid>()))
    };
    let entities: Vec<Entity> = if reuse {
        view::resource::<Roster>(world).entities.clone()
    } else {
        crate::rules::roster::despawn_combatants(world);
        (0..snap.combatants)
            .map(|_| world.spawn_empty().id())
            .collect()
    };
    // A log restored from this snapshot and only appended to since starts
    // with the snapshot's: cut back to it instead of copied.
    let (events, commands) = snap.log_len;
    let (cut_back, since) = view::get_resource::<BattleLog>(world)
        .filter(|log| log.restored_from == Some(snap.id))
        .map_or((false, None), |log| {
            (
                log.events.len() >= events && log.commands.len() >= commands,
                log.restored_at,
            )
        });
    // The world equalled the snapshot when it was last restored from it
    // (its tick kept with the log): only what changed since is put back,
    // in the same entities. (A tick long past is not trusted: Bevy clamps
    // very old ticks.)
    let now = world.change_tick();
    let since = since.filter(|t| reuse && now.get().wrapping_sub(t.get()) < 1 << 30);
    for (kind, part) in registry.components.iter().zip(&snap.components) {
        (kind.put)(world, &entities, part.as_ref(), since);
    }
    for (kind, part) in registry.resources.iter().zip(&snap.resources) {
        if cut_back && (kind.type_id)() == TypeId::of::<BattleLog>() {
            let mut log = view::write::resource_mut::<BattleLog>(world);
            log.events.truncate(events);
            log.commands.truncate(commands);
            continue;
        }
        (kind.put)(world, &entities, part.as_ref(), since);
    }
    // The roster names this world's entities.
    view::write::resource_mut::<Roster>(world).entities = entities;
    let mut messages = view::write::resource_mut::<Messages<CommandMsg>>(world);
    messages.clear();
    messages.write_batch(snap.commands.iter().cloned());
    // The world is the snapshot now, at this tick; whatever is written
    // from here on is marked at a later one.
    let at = world.change_tick();
    if let Some(mut log) = view::write::get_resource_mut::<BattleLog>(world) {
        log.restored_from = Some(snap.id);
        log.restored_at = Some(at);
        // The same events may now follow from another state: no moment
        // before this restore is one after it.
        log.renew();
    }
    world.increment_change_tick();
}

impl ForkRegistry {
    /// The types a fork copies, components then resources.
    pub fn copied(&self) -> impl Iterator<Item = (&'static str, TypeId)> + '_ {
        self.components
            .iter()
            .chain(&self.resources)
            .map(|k| (k.name, (k.type_id)()))
    }

    /// The resources declared fixed for a battle.
    pub fn fixed_types(&self) -> impl Iterator<Item = TypeId> + '_ {
        self.statics.iter().map(|t| t())
    }

    /// Each registered type's part of `snap` as text, by type name.
    pub fn describe(&self, snap: &Snapshot) -> Vec<(&'static str, String)> {
        let kinds = self.components.iter().zip(&snap.components);
        let res = self.resources.iter().zip(&snap.resources);
        kinds
            .chain(res)
            .map(|(k, part)| (k.name, (k.show)(part.as_ref())))
            .collect()
    }
}

#[cfg(test)]
mod tests;
