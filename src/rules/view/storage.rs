//! Reading a resource or a combatant's component straight from Bevy's
//! storage, with its id remembered, and within a scope once per scope
//! (`scope.rs`): what every view and check reads through.

use std::any::TypeId;
use std::cell::Cell as Shared;

use bevy::ecs::component::{ComponentId, StorageType};
use bevy::ecs::world::WorldId;
use bevy::prelude::*;

use crate::rules::components::Cid;
use crate::rules::roster::Roster;

use super::scope::*;

/// A type's component id in a world, remembered: Bevy finds it by hashing
/// the type into a map (about a hundred instructions), and the rules read
/// components and resources by type hundreds of thousands of times a
/// second. Ids never change in a world and worlds' ids are never reused,
/// so a remembered id stays right for as long as its world lives.
#[derive(Clone, Copy)]
pub(super) struct KnownId {
    kind: TypeId,
    world: WorldId,
    id: ComponentId,
}

/// Slots for remembered ids, one type each: a hundred-odd types are read,
/// and with 256 slots two hot ones often shared a slot and pushed each
/// other out (a tenth of brp's component reads looked their id up again).
pub(super) const KNOWN_IDS: usize = 1024;

thread_local! {
    pub(super) static KNOWN: [Shared<Option<KnownId>>; KNOWN_IDS] =
        const { [const { Shared::new(None) }; KNOWN_IDS] };
}

/// Where a type's id is remembered.
#[inline]
pub(super) fn known_slot(kind: TypeId) -> usize {
    type_bits(kind) as usize % KNOWN_IDS
}

/// `T`'s component (or resource) id in `world`, if registered.
#[inline]
pub(super) fn component_id<T: 'static>(world: &World) -> Option<ComponentId> {
    let kind = TypeId::of::<T>();
    let slot = known_slot(kind);
    let wid = world.id();
    let known = KNOWN.with(|k| k[slot].get());
    if let Some(k) = known
        && k.kind == kind
        && k.world == wid
    {
        return Some(k.id);
    }
    let id = world.components().get_valid_id(kind)?;
    KNOWN.with(|k| {
        k[slot].set(Some(KnownId {
            kind,
            world: wid,
            id,
        }))
    });
    Some(id)
}

/// `world.get_resource`, with the resource's id remembered, read straight
/// from its storage: Bevy's `get_resource_by_id` finds the resource's
/// entity, then where the entity lies and whether its archetype holds the
/// resource and how it is stored, before it reads the storage; a resource
/// (stored in a sparse set, as every resource is) is found by its entity
/// in its set alone. A step asks for its resources dozens of times
/// outside any [`reading`] scope (the round's order, the victory check,
/// apply).
///
/// The address comes straight from the storage (not from a reference to
/// the value), so a scope may keep it across writes made through others
/// ([`fixed`]).
#[inline(never)]
pub(super) fn resource_at<R: Resource>(world: &World) -> Option<*const R> {
    let id = component_id::<R>(world)?;
    let entity = world.resource_entities().get(id)?;
    let at = match R::STORAGE_TYPE {
        StorageType::SparseSet => world.storages().sparse_sets.get(id)?.get(entity)?,
        StorageType::Table => world.get_by_id(entity, id)?,
    };
    // `id` is `R`'s id in this world (looked up by `R`'s type).
    Some(at.as_ptr() as *const R)
}

/// [`resource_at`], read.
#[inline]
pub(super) fn find_resource<R: Resource>(world: &World) -> Option<&R> {
    // SAFETY: an `R` of `world`, borrowed as long as the answer.
    resource_at::<R>(world).map(|at| unsafe { &*at })
}

/// `world.get::<C>(entity)`, with the component's id remembered, read
/// straight from the entity's table: Bevy's `get_by_id` also asks whether
/// the entity's archetype holds the component and how it is stored; a
/// table-stored component is in the entity's table if its archetype holds
/// it (a table's columns are its archetypes' table components).
/// Its address comes straight from the storage, as [`resource_at`]'s.
#[inline]
pub(super) fn component_at<C: Component>(world: &World, entity: Entity) -> Option<*const C> {
    let id = component_id::<C>(world)?;
    let at = match C::STORAGE_TYPE {
        StorageType::Table => {
            let location = world.entities().get_spawned(entity).ok()?;
            let table = world.storages().tables.get(location.table_id)?;
            // SAFETY: `table_row` is the entity's row in its own table, so
            // within the table.
            unsafe { table.get_component(id, location.table_row)? }
        }
        StorageType::SparseSet => world.get_by_id(entity, id)?,
    };
    // `id` is `C`'s id in this world (looked up by `C`'s type).
    Some(at.as_ptr() as *const C)
}

/// [`component_at`], read.
#[cfg(test)]
pub(super) fn find_on<C: Component>(world: &World, entity: Entity) -> Option<&C> {
    // SAFETY: a `C` of `world`, borrowed as long as the answer.
    component_at::<C>(world, entity).map(|at| unsafe { &*at })
}

/// A resource of the world: `world.get_resource`, but the core's hot ones
/// ([`fast_slot`]) found once in a [`reading`] scope on this world.
#[inline]
pub fn get_resource<R: Resource>(world: &World) -> Option<&R> {
    let Some(i) = fast_slot::<R>() else {
        return scoped_resource::<R>(world);
    };
    SCOPE.with(|scope| {
        if !std::ptr::eq(scope.world.get(), world) {
            return find_resource::<R>(world);
        }
        let at = scope.at[i].get();
        if !at.is_null() {
            // SAFETY: the address was taken from `world` during this scope
            // (the scope's world is this one), as an `R` (each slot holds
            // one kind, and `R`'s slot is `i`), and the world has been
            // borrowed immutably ever since, or is in a fixed scope that
            // moves nothing: see [`reading`] and [`fixed`].
            return Some(unsafe { &*(at as *const R) });
        }
        let r = resource_at::<R>(world)?;
        scope.at[i].set(r as *const ());
        // SAFETY: an `R` of `world`, borrowed as long as the answer.
        Some(unsafe { &*r })
    })
}

/// A resource not among the core's hot ones: in a [`reading`] scope on this
/// world, found once for the scope and remembered with the components it
/// found (a ruleset's settings and state are read as often as the core's).
#[inline]
pub(super) fn scoped_resource<R: Resource>(world: &World) -> Option<&R> {
    let kind = TypeId::of::<R>();
    let Some(n) = scope_on(world) else {
        return find_resource::<R>(world);
    };
    if let Some(at) = found_in_scope(n, RESOURCE, kind) {
        // SAFETY: found in this world during this scope as an `R` (the
        // type is `R`), and the world has been borrowed immutably ever
        // since, or is in a fixed scope that moves nothing (see
        // [`reading`], [`fixed`]): the resource has not moved.
        return (!at.is_null()).then(|| unsafe { &*(at as *const R) });
    }
    remember_resource(world, n)
}

/// [`scoped_resource`] the first time a scope asks: looked up, and
/// remembered.
#[inline(never)]
pub(super) fn remember_resource<R: Resource>(world: &World, n: u64) -> Option<&R> {
    let kind = TypeId::of::<R>();
    let found = resource_at::<R>(world);
    remember(
        n,
        RESOURCE,
        kind,
        found.map_or(std::ptr::null(), |r| r as *const ()),
    );
    // SAFETY: an `R` of `world`, borrowed as long as the answer.
    found.map(|r| unsafe { &*r })
}

/// The combatant a resource is remembered under in [`FOUND`]: none has it.
pub(super) const RESOURCE: Cid = Cid(u16::MAX);

/// [`get_resource`] for a resource the battle always has; panics like
/// `World::resource` when it is missing (a programming error).
#[track_caller]
pub fn resource<R: Resource>(world: &World) -> &R {
    match get_resource::<R>(world) {
        Some(r) => r,
        None => panic!(
            "the resource {} is missing from the battle's world",
            std::any::type_name::<R>()
        ),
    }
}

pub(super) fn roster(world: &World) -> Option<&Roster> {
    get_resource::<Roster>(world)
}

pub fn entity(world: &World, cid: Cid) -> Option<Entity> {
    roster(world)?.entity(cid)
}

/// A combatant's entity, to read several of its components.
pub fn entity_ref(world: &World, cid: Cid) -> Option<EntityRef<'_>> {
    world.get_entity(entity(world, cid)?).ok()
}

/// A component of a combatant; in a [`reading`] scope on this world,
/// found once per combatant and kind.
#[inline]
pub fn get<C: Component>(world: &World, cid: Cid) -> Option<&C> {
    let kind = TypeId::of::<C>();
    let scope = scope_on(world);
    if let Some(at) = scope.and_then(|n| found_in_scope(n, cid, kind)) {
        // SAFETY: found in this world during this scope as a `C` (the type
        // is `C`), and the world has been borrowed immutably ever since, or
        // is in a fixed scope that moves nothing (see [`reading`],
        // [`fixed`]): the component has not moved.
        return (!at.is_null()).then(|| unsafe { &*(at as *const C) });
    }
    find_component(world, cid, scope)
}

/// [`get`] when the scope has not found the component yet (or no scope is
/// in force): looked up, and remembered for the scope. Apart, so that what
/// a scope remembers is read inline.
#[inline(never)]
pub(super) fn find_component<C: Component>(
    world: &World,
    cid: Cid,
    scope: Option<u64>,
) -> Option<&C> {
    let kind = TypeId::of::<C>();
    let found = entity(world, cid).and_then(|e| component_at::<C>(world, e));
    if let Some(n) = scope {
        remember(
            n,
            cid,
            kind,
            found.map_or(std::ptr::null(), |c| c as *const ()),
        );
    }
    // SAFETY: a `C` of `world`, borrowed as long as the answer.
    found.map(|c| unsafe { &*c })
}
