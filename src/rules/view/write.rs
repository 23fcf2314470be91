//! Writing a resource or a component in place, with the change ticks
//! Bevy's own `resource_mut` and `get_mut` give: the path of the core's and
//! the rulesets' `apply`, the battle's own bookkeeping (its log, dice,
//! step count) and the game's. A ruleset's writers never reach it: they
//! hold a `Scene` (the sources test checks it).

use bevy::ecs::component::{ComponentId, StorageType};
use bevy::prelude::*;

use super::scope::*;
use super::storage::*;

/// `world.get_resource_mut`, with the resource's id remembered (Bevy's
/// typed call hashes the type into its map of ids first: a battle writes
/// its log, its dice and its round thousands of times).
#[inline]
pub fn get_resource_mut<R: Resource<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
) -> Option<Mut<'_, R>> {
    if R::STORAGE_TYPE == StorageType::SparseSet
        && let Some(i) = fast_mut_slot::<R>()
        && let Some(found) =
            SCOPE.with(|s| std::ptr::eq(s.world.get(), world).then(|| s.places[i].get()))
    {
        let places = match found {
            Some(p) => p,
            None => {
                let p = resource_places(world, component_id::<R>(world)?)?;
                SCOPE.with(|s| s.places[i].set(Some(p)));
                p
            }
        };
        // SAFETY: the places of `R` (`R`'s slot is `i`) in this world,
        // found since its structure last changed (a fixed scope is in
        // force on it, and `moved` forgets them): see [`fixed`].
        return Some(unsafe { places.written::<R>(world) });
    }
    let id = component_id::<R>(world)?;
    if R::STORAGE_TYPE == StorageType::SparseSet {
        return resource_mut_in_set(world, id);
    }
    // SAFETY: `id` is `R`'s id in this world (looked up by `R`'s type).
    world
        .get_resource_mut_by_id(id)
        .map(|p| unsafe { p.with_type::<R>() })
}

/// Where a resource stored in a sparse set lies, and its change ticks,
/// read from its set by its entity (as [`resource_mut_in_set`] reads it).
#[inline]
pub(super) fn resource_places(world: &World, id: ComponentId) -> Option<Places> {
    let entity = world.resource_entities().get(id)?;
    let (at, ticks) = world
        .storages()
        .sparse_sets
        .get(id)?
        .get_with_ticks(entity)?;
    Some(Places {
        at: at.as_ptr(),
        added: ticks.added.get(),
        changed: ticks.changed.get(),
        by: ticks.changed_by.map(|c| c.get()),
    })
}

/// [`get_resource_mut`] for a resource stored in a sparse set (every
/// resource is), read from its set by its entity, with the change ticks
/// Bevy's `get_resource_mut` gives it (the world's last change tick and its
/// change tick now): Bevy's own path also finds where the entity lies,
/// whether its archetype holds the resource, how it is stored and whether
/// it is mutable (`R` is, by its bound), as [`find_resource`] says. A
/// battle writes its log, its dice and its round thousands of times.
#[inline(never)]
pub(super) fn resource_mut_in_set<R: Resource<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    id: ComponentId,
) -> Option<Mut<'_, R>> {
    let places = resource_places(world, id)?;
    // SAFETY: `id` is `R`'s id in this world (looked up by `R`'s type), so
    // the places are an `R`'s, found just now; `world` is borrowed
    // mutably for as long as the `Mut` lives.
    Some(unsafe { places.written::<R>(world) })
}

/// [`get_resource_mut`] for a resource the battle always has; panics like
/// `World::resource_mut` when it is missing (a programming error).
#[track_caller]
#[inline]
pub fn resource_mut<R: Resource<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
) -> Mut<'_, R> {
    match get_resource_mut::<R>(world) {
        Some(r) => r,
        None => panic!(
            "the resource {} is missing from the battle's world",
            std::any::type_name::<R>()
        ),
    }
}

/// A component of an entity to change: `world.get_mut`, with the
/// component's id remembered (for the core's and the rulesets' apply).
#[inline]
pub fn get_mut<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    entity: Entity,
) -> Option<Mut<'_, C>> {
    let id = component_id::<C>(world)?;
    if C::STORAGE_TYPE == StorageType::Table {
        return component_mut_in_table(world, entity, id);
    }
    // SAFETY: `id` is `C`'s id in this world (looked up by `C`'s type).
    world
        .get_mut_by_id(entity, id)
        .map(|p| unsafe { p.with_type::<C>() })
}

/// [`get_mut`] for a table-stored component: its column in the entity's
/// table found once for the value and its ticks (Bevy's path finds it
/// four times, after the archetype, storage type and mutability checks
/// [`find_on`] and [`resource_mut_in_set`] explain), with the change ticks
/// Bevy's `get_mut` gives.
#[inline(never)]
pub(super) fn component_mut_in_table<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    entity: Entity,
    id: ComponentId,
) -> Option<Mut<'_, C>> {
    let cell = world.as_unsafe_world_cell();
    let (last_run, this_run) = (cell.last_change_tick(), cell.change_tick());
    let location = cell.entities().get_spawned(entity).ok()?;
    // SAFETY: `cell` comes from `&mut World`, borrowed for as long as the
    // `Mut` lives: nothing else reads or writes the world meanwhile. The
    // row is the entity's own in its own table, so within the column; `id`
    // is `C`'s id in this world (looked up by `C`'s type), so the column
    // holds `C`s.
    unsafe {
        let column = cell
            .storages()
            .tables
            .get(location.table_id)?
            .get_column(id)?;
        let row = location.table_row;
        Some(Mut::new(
            column
                .get_data_unchecked(row)
                .assert_unique()
                .deref_mut::<C>(),
            &mut *column.get_added_tick_unchecked(row).get(),
            &mut *column.get_changed_tick_unchecked(row).get(),
            last_run,
            this_run,
            column.get_changed_by_unchecked(row).map(|c| &mut *c.get()),
        ))
    }
}
