//! Read-only questions about the battle that rulesets, the AI and the UI share.

use std::any::TypeId;
use std::cell::Cell as Shared;
use std::hash::{Hash, Hasher};

use bevy::ecs::component::{ComponentId, StorageType};
use bevy::ecs::world::WorldId;
use bevy::prelude::*;

use bevy::ecs::change_detection::{MaybeLocation, Tick};
use bevy::ecs::message::Messages;

use crate::rules::battle::{Battle, BattleRules};
use crate::rules::command::CommandMsg;
use crate::rules::components::{Cid, Conditions, Size, Steed};
use crate::rules::dice::Dice;
use crate::rules::hooks::ActiveRuleset;
use crate::rules::log::BattleLog;
use crate::rules::map::Cell;
use crate::rules::map::Map;
use crate::rules::roster::{Factions, Place, Roster};

/// The world a [`reading`] scope reads, and where the resources every
/// check and weighing asks for ([`fast_slot`]) lie in it, once looked up (null
/// until then).
#[derive(Clone, Copy)]
struct Scope {
    world: *const World,
    at: [*const (); FAST_SLOTS],
    /// Where the resources a step writes most ([`fast_mut_slot`]) and
    /// their change ticks lie, in a [`fixed`] scope, once found.
    places: [Option<Places>; FAST_MUT_SLOTS],
}

impl Scope {
    const NONE: Scope = Scope {
        world: std::ptr::null(),
        at: [std::ptr::null(); FAST_SLOTS],
        places: [None; FAST_MUT_SLOTS],
    };
}

const FAST_SLOTS: usize = 6;
const FAST_MUT_SLOTS: usize = 4;

/// The [`Scope`] in force on this thread, a cell per field: a look-up
/// reads the world and one slot, not the whole scope. `scope` numbers the
/// stretch in which what was found stays where it was found (a [`reading`]
/// scope, or a [`fixed`] one and every reading scope inside it): the
/// components found ([`FOUND`]) are marked with it. `reading` numbers the
/// reading scope in force, in which nothing changes at all (0: none): a
/// reading scope opened inside it is that one.
struct ScopeCells {
    world: Shared<*const World>,
    at: [Shared<*const ()>; FAST_SLOTS],
    places: [Shared<Option<Places>>; FAST_MUT_SLOTS],
    scope: Shared<u64>,
    reading: Shared<u64>,
    opened: Shared<u64>,
}

/// A [`ScopeCells`]' contents: the scope, its number and its reading
/// scope's.
type Saved = (Scope, u64, u64);

impl ScopeCells {
    fn get(&self) -> Saved {
        let scope = Scope {
            world: self.world.get(),
            at: std::array::from_fn(|i| self.at[i].get()),
            places: std::array::from_fn(|i| self.places[i].get()),
        };
        (scope, self.scope.get(), self.reading.get())
    }

    fn set(&self, (s, n, r): Saved) {
        self.world.set(s.world);
        for (cell, p) in self.at.iter().zip(s.at) {
            cell.set(p);
        }
        for (cell, p) in self.places.iter().zip(s.places) {
            cell.set(p);
        }
        self.scope.set(n);
        self.reading.set(r);
    }

    /// A number no scope opened on this thread has had (a `u64`: counting
    /// a billion scopes a second it would take centuries to come round, so
    /// an old scope's answer can never pass for a new one's).
    fn open(&self) -> u64 {
        let n = self.opened.get() + 1;
        self.opened.set(n);
        n
    }
}

/// A component a [`reading`] scope found on a combatant (or found it
/// lacks): where it lies, kept until another answer takes its place.
#[derive(Clone, Copy)]
struct Found {
    /// The scope that found it (0: none, and nothing else is set).
    scope: u64,
    cid: u16,
    /// The component's type: a remembered answer is found by it, without
    /// looking the type's id up in the world first. Set whenever `scope`
    /// is not 0 (the table starts all zeros, so that it costs a thread
    /// nothing to make).
    kind: std::mem::MaybeUninit<TypeId>,
    at: *const (),
}

impl Found {
    /// What it remembers of `cid`'s `kind` for the scope `n` (not 0), if
    /// it is that.
    #[inline(always)]
    fn answer(self, n: u64, cid: Cid, kind: TypeId) -> Option<*const ()> {
        // SAFETY: `kind` is set when `scope` is not 0, and `n` is not.
        (self.scope == n && self.cid == cid.0 && unsafe { self.kind.assume_init() } == kind)
            .then_some(self.at)
    }
}

/// 4,096 slots: a battle's hot answers (a few kinds of component on each
/// of a dozen or so combatants) seldom share one. With 1,024, which hot
/// answers shared a slot and pushed each other out was the build's luck
/// (the type ids decide it): one build of the same code looked up three
/// times as many components as another, nearly 2 % of a ud10 battle.
const FOUND_BITS: u32 = 12;
const FOUND_SLOTS: usize = 1 << FOUND_BITS;

thread_local! {
    /// Components found in the scope in force, by combatant and kind: the
    /// AI reads each enemy's weapon, health and stats many times a decision.
    static FOUND: [Shared<Found>; FOUND_SLOTS] = const {
        [const {
            Shared::new(Found {
                scope: 0,
                cid: 0,
                kind: std::mem::MaybeUninit::zeroed(),
                at: std::ptr::null(),
            })
        }; FOUND_SLOTS]
    };
}

/// Where a combatant's component is remembered.
#[inline]
fn found_slot(cid: Cid, kind: TypeId) -> usize {
    // A multiplicative hash of both: two kinds of component read on the
    // same combatants rarely share a slot.
    let key = (u64::from(cid.0) << 32) ^ type_bits(kind);
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FOUND_BITS)) as usize
}

/// The resources a [`reading`] scope remembers, by slot.
fn fast_slot<R: Resource>() -> Option<usize> {
    slot_among::<R>(&[
        TypeId::of::<Roster>(),
        TypeId::of::<Map>(),
        TypeId::of::<Battle>(),
        TypeId::of::<BattleRules>(),
        TypeId::of::<ActiveRuleset>(),
        TypeId::of::<Factions>(),
    ])
}

/// The resources a [`fixed`] scope remembers to write, by slot: the
/// battle (its step count, its prompt), its log (every event), the dice
/// and the command messages, written several times a step.
fn fast_mut_slot<R: Resource>() -> Option<usize> {
    slot_among::<R>(&[
        TypeId::of::<Battle>(),
        TypeId::of::<BattleLog>(),
        TypeId::of::<Dice>(),
        TypeId::of::<Messages<CommandMsg>>(),
    ])
}

/// `R`'s place among `kinds`, if there: its slot (the types are known when
/// compiling, and so is the answer).
#[inline(always)]
fn slot_among<R: 'static>(kinds: &[TypeId]) -> Option<usize> {
    let kind = TypeId::of::<R>();
    kinds.iter().position(|k| *k == kind)
}

thread_local! {
    static SCOPE: ScopeCells = const {
        ScopeCells {
            world: Shared::new(std::ptr::null()),
            at: [const { Shared::new(std::ptr::null()) }; FAST_SLOTS],
            places: [const { Shared::new(None) }; FAST_MUT_SLOTS],
            scope: Shared::new(0),
            reading: Shared::new(0),
            opened: Shared::new(0),
        }
    };
}

/// Runs `f` on `world` remembering, until it returns, where the core's
/// resources every check asks for ([`fast_slot`]: the roster, the map, the
/// battle, its rules, the ruleset in force, the factions) lie once
/// [`get_resource`] or [`resource`] (and so every view) has found them:
/// Bevy finds a resource by its type, then its entity, then the component
/// (about a hundred instructions), and a check or an AI decision asks for
/// these thousands of times a battle.
/// The hooks the core calls with a `&World` (check, legal commands, the
/// AI, the preview, the sheet) each run in one.
///
/// Sound because the world is borrowed immutably for the whole scope: no
/// resource can be inserted, removed or moved while a `&World` exists, so
/// an address found in it stays good for the scope, and for any shared
/// borrow of the same world that outlives it (which also forbids changes).
/// A scope opened inside another on the same world (the step reading who
/// answers the prompt, then the AI's hook) is that scope: the world has
/// been borrowed immutably since the outer one began, so what it found
/// still holds. One opened inside a [`fixed`] scope on the same world
/// shares what that one found (nothing has moved since), as a reading
/// scope of its own (values may have changed since, and nothing may
/// change inside it). One on another world starts afresh and restores the
/// outer one when it ends; a panic restores it too.
///
/// The components [`get`] finds on combatants are remembered the same way
/// for the scope, by combatant and kind.
pub fn reading<T>(world: &World, f: impl FnOnce(&World) -> T) -> T {
    match SCOPE.with(|s| std::ptr::eq(s.world.get(), world).then(|| s.reading.get())) {
        // A reading scope on this world: this one is it.
        Some(r) if r != 0 => return f(world),
        // A fixed scope on this world: what it found stays; the reading
        // scope is marked in force until it ends.
        Some(_) => {
            struct Unread;
            impl Drop for Unread {
                fn drop(&mut self) {
                    SCOPE.with(|s| s.reading.set(0));
                }
            }
            SCOPE.with(|s| s.reading.set(s.open()));
            let _unread = Unread;
            return f(world);
        }
        None => {}
    }
    open_scope(world, true, || f(world))
}

/// Runs `f` with a fresh scope on `world` in force (a reading scope too if
/// `reading`), the outer one restored when it returns or panics.
fn open_scope<T>(world: &World, reading: bool, f: impl FnOnce() -> T) -> T {
    struct Restore(Saved);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCOPE.with(|s| s.set(self.0));
        }
    }
    let fresh = Scope {
        world: world as *const World,
        ..Scope::NONE
    };
    let _restore = Restore(SCOPE.with(|s| {
        let outer = s.get();
        let n = s.open();
        s.set((fresh, n, if reading { n } else { 0 }));
        outer
    }));
    f()
}

/// Runs `f` on `world` remembering, until it returns, where the
/// resources and components [`get_resource`], [`resource`] and [`get`]
/// find lie, as a [`reading`] scope does, across the changes `f` makes:
/// a battle step reads the same resources and components again and again
/// between its writes (the round's order, the victory check, apply, each
/// decision's first reads), and a look-up in Bevy's storage is dozens of
/// instructions where a remembered one is a few.
///
/// Sound because `f` changes only values, never where they lie: a step
/// spawns and despawns nothing and inserts and removes no component or
/// resource (only starting a battle, restoring a fork and the game's own
/// systems do, outside steps), so no table row or set entry moves and
/// every address found stays good until `f` returns; a value written in
/// place is read where it lies, changed. A step that must change where
/// something lies says so at once with [`moved`], and what was found is
/// forgotten. Debug builds check it: the world's entities, where each
/// lies, and its archetypes are the same when `f` returns as when it began
/// (or as `moved` last found them), or this panics. Reading scopes opened
/// inside share what this one found; one on another world (a look-ahead's
/// playout) starts afresh and restores this one when it ends.
pub fn fixed<T>(world: &mut World, f: impl FnOnce(&mut World) -> T) -> T {
    if SCOPE.with(|s| std::ptr::eq(s.world.get(), world)) {
        return f(world);
    }
    // The structure to leave as found, noted until the scope ends (a
    // panic too).
    #[cfg(debug_assertions)]
    let _noted = {
        struct Noted;
        impl Drop for Noted {
            fn drop(&mut self) {
                BASELINES.with(|b| b.borrow_mut().pop());
            }
        }
        BASELINES.with(|b| {
            b.borrow_mut()
                .push((world as *const World, structure(world)))
        });
        Noted
    };
    let at: *mut World = world;
    // SAFETY: `open_scope` only notes the world's address; `f` has the
    // only borrow of it meanwhile.
    let out = open_scope(unsafe { &*at }, false, || f(unsafe { &mut *at }));
    #[cfg(debug_assertions)]
    assert!(
        BASELINES.with(|b| b
            .borrow()
            .last()
            .is_some_and(|(_, s)| *s == structure(world))),
        "a fixed scope changed the world's structure (spawned, despawned, \
         inserted or removed something) without saying so (view::moved)"
    );
    out
}

/// Says that `world`'s structure has just changed inside a [`fixed`] scope
/// (a component inserted or removed: the entity moves to another table,
/// and another entity may move into its row): what the scope found is
/// forgotten, and found afresh when asked again. brp's broken shield
/// (`BrpShield` removed) is the one such change a step makes.
pub fn moved(world: &mut World) {
    SCOPE.with(|s| {
        if std::ptr::eq(s.world.get(), world) {
            s.scope.set(s.open());
            for slot in &s.at {
                slot.set(std::ptr::null());
            }
            for slot in &s.places {
                slot.set(None);
            }
        }
    });
    #[cfg(debug_assertions)]
    BASELINES.with(|b| {
        if let Some((_, before)) = b
            .borrow_mut()
            .iter_mut()
            .rev()
            .find(|(w, _)| std::ptr::eq(*w, world))
        {
            *before = structure(world);
        }
    });
}

#[cfg(debug_assertions)]
thread_local! {
    /// The structure each [`fixed`] scope in force must leave as it found
    /// it (or as [`moved`] last said it is), innermost last.
    static BASELINES: std::cell::RefCell<Vec<(*const World, Structure)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// How many archetypes and entities a world has, and where each lies.
#[cfg(debug_assertions)]
type Structure = (usize, u32, Vec<(Entity, u32, u32)>);

/// Where every entity of `world` lies, and how many archetypes and
/// entities it has: what a [`fixed`] scope must leave as it was.
#[cfg(debug_assertions)]
fn structure(world: &World) -> Structure {
    let mut at = Vec::new();
    for a in world.archetypes().iter() {
        for e in a.entities() {
            at.push((e.id(), a.id().index() as u32, e.table_row().index() as u32));
        }
    }
    (
        world.archetypes().len(),
        world.entities().count_spawned(),
        at,
    )
}

/// A type's component id in a world, remembered: Bevy finds it by hashing
/// the type into a map (about a hundred instructions), and the rules read
/// components and resources by type hundreds of thousands of times a
/// second. Ids never change in a world and worlds' ids are never reused,
/// so a remembered id stays right for as long as its world lives.
#[derive(Clone, Copy)]
struct KnownId {
    kind: TypeId,
    world: WorldId,
    id: ComponentId,
}

/// Slots for remembered ids, one type each: a hundred-odd types are read,
/// and with 256 slots two hot ones often shared a slot and pushed each
/// other out (a tenth of brp's component reads looked their id up again).
const KNOWN_IDS: usize = 1024;

thread_local! {
    static KNOWN: [Shared<Option<KnownId>>; KNOWN_IDS] =
        const { [const { Shared::new(None) }; KNOWN_IDS] };
}

/// The 64 bits of a `TypeId` that its `Hash` writes (itself a hash of
/// the type), mixed: where a type's answers are remembered.
#[inline]
fn type_bits(kind: TypeId) -> u64 {
    /// Keeps the 64 bits `TypeId` hashes.
    struct Bits(u64);
    impl Hasher for Bits {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for b in bytes {
                self.0 = self.0.rotate_left(8) ^ u64::from(*b);
            }
        }
        fn write_u64(&mut self, n: u64) {
            self.0 = n;
        }
    }
    let mut h = Bits(0);
    kind.hash(&mut h);
    h.0 ^ (h.0 >> 29)
}

/// Where a type's id is remembered.
#[inline]
fn known_slot(kind: TypeId) -> usize {
    type_bits(kind) as usize % KNOWN_IDS
}

/// `T`'s component (or resource) id in `world`, if registered.
#[inline]
fn component_id<T: 'static>(world: &World) -> Option<ComponentId> {
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
fn resource_at<R: Resource>(world: &World) -> Option<*const R> {
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
fn find_resource<R: Resource>(world: &World) -> Option<&R> {
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
fn component_at<C: Component>(world: &World, entity: Entity) -> Option<*const C> {
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
fn find_on<C: Component>(world: &World, entity: Entity) -> Option<&C> {
    // SAFETY: a `C` of `world`, borrowed as long as the answer.
    component_at::<C>(world, entity).map(|at| unsafe { &*at })
}

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

/// Where a value and its change ticks lie in a world's storage: what
/// Bevy's `Mut` is made of, found once.
#[derive(Clone, Copy)]
struct Places {
    at: *mut u8,
    added: *mut Tick,
    changed: *mut Tick,
    by: MaybeLocation<*mut &'static std::panic::Location<'static>>,
}

impl Places {
    /// The value as Bevy's `get_resource_mut` gives it, with the change
    /// ticks of `world` now (its last change tick and its change tick).
    ///
    /// # Safety
    /// The places are a `T`'s and its ticks' in `world`, found since its
    /// structure last changed; `world` is borrowed mutably for as long as
    /// the `Mut` lives, so nothing else reads or writes them meanwhile.
    #[inline]
    unsafe fn written<T>(self, world: &mut World) -> Mut<'_, T> {
        let (last_run, this_run) = (world.last_change_tick(), world.read_change_tick());
        unsafe {
            Mut::new(
                &mut *(self.at as *mut T),
                &mut *self.added,
                &mut *self.changed,
                last_run,
                this_run,
                self.by.map(|b| &mut *b),
            )
        }
    }
}

/// Where a resource stored in a sparse set lies, and its change ticks,
/// read from its set by its entity (as [`resource_mut_in_set`] reads it).
#[inline]
fn resource_places(world: &World, id: ComponentId) -> Option<Places> {
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
fn resource_mut_in_set<R: Resource<Mutability = bevy::ecs::component::Mutable>>(
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
fn scoped_resource<R: Resource>(world: &World) -> Option<&R> {
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
fn remember_resource<R: Resource>(world: &World, n: u64) -> Option<&R> {
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

/// The number of the scope in force on `world` ([`reading`] or
/// [`fixed`]), if one is: what it found is marked with it.
#[inline]
fn scope_on(world: &World) -> Option<u64> {
    SCOPE.with(|s| {
        std::ptr::eq(s.world.get(), world)
            .then(|| s.scope.get())
            .filter(|&n| n != 0)
    })
}

/// What the scope `n` found of `cid`'s component (or resource) of type `kind`: where
/// it lies, null where it found none; `None` if it has not looked.
#[inline]
fn found_in_scope(n: u64, cid: Cid, kind: TypeId) -> Option<*const ()> {
    debug_assert_ne!(n, 0, "scopes are numbered from 1");
    FOUND
        .with(|f| f[found_slot(cid, kind)].get())
        .answer(n, cid, kind)
}

/// Remember for the scope `n` where `cid`'s component (or resource) of type
/// `kind` lies (null: it has none).
fn remember(n: u64, cid: Cid, kind: TypeId, at: *const ()) {
    debug_assert_ne!(n, 0, "scopes are numbered from 1");
    FOUND.with(|f| {
        f[found_slot(cid, kind)].set(Found {
            scope: n,
            cid: cid.0,
            kind: std::mem::MaybeUninit::new(kind),
            at,
        })
    });
}

/// The combatant a resource is remembered under in [`FOUND`]: none has it.
const RESOURCE: Cid = Cid(u16::MAX);

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

fn roster(world: &World) -> Option<&Roster> {
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
fn find_component<C: Component>(world: &World, cid: Cid, scope: Option<u64>) -> Option<&C> {
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
fn component_mut_in_table<C: Component<Mutability = bevy::ecs::component::Mutable>>(
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

/// A combatant's name, as the level gives it.
pub fn name(world: &World, cid: Cid) -> String {
    resource::<Roster>(world).name(cid).to_string()
}

/// A combatant's [`Place`]: its cell, conditions, mount, and whether it
/// is one.
pub fn place(world: &World, cid: Cid) -> Option<&Place> {
    roster(world)?.place(cid)
}

pub fn cell(world: &World, cid: Cid) -> Option<Cell> {
    place(world, cid).map(|p| p.cell)
}

/// A combatant's faction: the roster's copy of its
/// [`FactionId`](crate::rules::components::FactionId), which no rule
/// changes, read without looking the combatant up.
pub fn faction(world: &World, cid: Cid) -> Option<u8> {
    roster(world)?.factions.get(cid.0 as usize).copied()
}

pub fn conditions(world: &World, cid: Cid) -> Conditions {
    place(world, cid).map(|p| p.conditions).unwrap_or_default()
}

/// Still in the fight: not dead, unconscious, fled or surrendered.
pub fn standing(world: &World, cid: Cid) -> bool {
    place(world, cid).is_some_and(|p| !p.conditions.out_of_fight())
}

/// Every combatant id, in roster order.
pub fn all(world: &World) -> Vec<Cid> {
    roster(world)
        .map(|r| r.cids().collect())
        .unwrap_or_default()
}

/// Combatants still in the fight who are not mounts or vehicles (a
/// riderless horse does not carry on the fight), with their factions, in
/// roster order: one look at the roster.
pub fn fighters(world: &World) -> impl Iterator<Item = u8> + '_ {
    roster(world).into_iter().flat_map(|r| {
        r.places()
            .iter()
            .zip(&r.factions)
            .filter(|(p, _)| !p.conditions.out_of_fight() && p.steed.is_none())
            .map(|(_, f)| *f)
    })
}

/// How many of faction `f`'s combatants still fight (mounts and vehicles
/// not counted).
pub fn fighters_in(world: &World, f: u8) -> usize {
    fighters(world).filter(|g| *g == f).count()
}

/// How many of each faction's combatants still fight (mounts and vehicles
/// not counted), by faction id, for `n` factions.
pub fn fighters_per_faction(world: &World, n: usize) -> Vec<usize> {
    let mut v = vec![0; n];
    for f in fighters(world) {
        if let Some(slot) = v.get_mut(usize::from(f)) {
            *slot += 1;
        }
    }
    v
}

/// Every hold in a grab: (held, holder), in roster order of the held.
pub fn holds(world: &World) -> smallvec::SmallVec<[(Cid, Cid); 4]> {
    roster(world)
        .map(|r| {
            r.places()
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.held_by.map(|by| (Cid(i as u16), by)))
                .collect()
        })
        .unwrap_or_default()
}

/// A list of combatants, kept inline (no heap allocation) for up to
/// sixteen: the AI asks for enemies and allies thousands of times a battle.
pub type Cids = smallvec::SmallVec<[Cid; 16]>;

/// A list of cells, kept inline for up to sixteen (those combatants hold).
pub type Cells = smallvec::SmallVec<[Cell; 16]>;

/// Combatants still in the fight, in roster order.
pub fn standing_all(world: &World) -> Cids {
    let Some(r) = roster(world) else {
        return Cids::new();
    };
    let all = ones(r.standing().iter().copied());
    debug_assert_eq!(all, standing_scan(r, |_| true));
    all
}

/// The combatants of a row of the roster's bits ([`Roster::standing`]),
/// word by word, in roster order.
#[inline]
fn ones(words: impl Iterator<Item = u64>) -> Cids {
    let mut cids = Cids::new();
    for (k, mut word) in words.enumerate() {
        while word != 0 {
            cids.push(Cid((k * 64 + word.trailing_zeros() as usize) as u16));
            word &= word - 1;
        }
    }
    cids
}

/// Standing combatants whose faction passes `keep`, in roster order, the
/// places walked one by one: what the roster's bits must say (debug
/// builds check them against it).
fn standing_scan(r: &Roster, keep: impl Fn(u8) -> bool) -> Cids {
    r.places()
        .iter()
        .zip(&r.factions)
        .enumerate()
        .filter(|(_, (p, f))| keep(**f) && !p.conditions.out_of_fight())
        .map(|(i, _)| Cid(i as u16))
        .collect()
}

/// Standing combatants of faction `f` (`mine`: true) or of any other
/// (`mine`: false), in roster order: one row of bits each.
#[inline]
fn standing_of(r: &Roster, f: u8, mine: bool) -> Cids {
    let members = r.members(f);
    let flip = if mine { 0 } else { u64::MAX };
    let found = ones(
        r.standing()
            .iter()
            .enumerate()
            .map(|(k, s)| s & (members.get(k).copied().unwrap_or(0) ^ flip)),
    );
    debug_assert_eq!(found, standing_scan(r, |g| (g == f) == mine));
    found
}

/// Standing enemies of `cid`, in roster order.
pub fn enemies(world: &World, cid: Cid) -> Cids {
    let Some(r) = roster(world) else {
        return Cids::new();
    };
    let Some(&f) = r.factions.get(cid.0 as usize) else {
        return Cids::new();
    };
    standing_of(r, f, false)
}

/// [`enemies`] one at a time, in the same order, without building the
/// list: for a question that may stop at the first (is any of them next
/// to this cell, can any of them see that one).
pub fn each_enemy(world: &World, cid: Cid) -> impl Iterator<Item = Cid> + '_ {
    let mine = faction(world, cid);
    roster(world)
        .filter(|_| mine.is_some())
        .into_iter()
        .flat_map(move |r| {
            r.places()
                .iter()
                .zip(&r.factions)
                .enumerate()
                .filter(move |(_, (p, f))| Some(**f) != mine && !p.conditions.out_of_fight())
                .map(|(i, _)| Cid(i as u16))
        })
}

/// Is `target` one of `who`'s [`enemies`] (standing, of another
/// faction)? Asked without building the list: every check of a command
/// aimed at an enemy asks it.
pub fn is_enemy(world: &World, who: Cid, target: Cid) -> bool {
    let Some(r) = roster(world) else {
        return false;
    };
    let (Some(mine), Some(theirs), Some(p)) = (
        r.factions.get(who.0 as usize),
        r.factions.get(target.0 as usize),
        r.places().get(target.0 as usize),
    ) else {
        return false;
    };
    mine != theirs && !p.conditions.out_of_fight()
}

/// Standing combatants of faction `f`, in roster order: one look at the
/// roster.
pub fn standing_in(world: &World, f: u8) -> Cids {
    roster(world).map_or_else(Cids::new, |r| standing_of(r, f, true))
}

/// Standing allies of `cid` (not counting itself), in roster order.
pub fn allies(world: &World, cid: Cid) -> Cids {
    let Some(r) = roster(world) else {
        return Cids::new();
    };
    let Some(&f) = r.factions.get(cid.0 as usize) else {
        return Cids::new();
    };
    let mut allies = standing_of(r, f, true);
    allies.retain(|c| *c != cid);
    allies
}

/// The standing combatant on a cell (the fallen do not hold their cell);
/// where a rider sits on its mount, the mount.
pub fn standing_at(world: &World, at: Cell) -> Option<Cid> {
    let r = roster(world)?;
    r.places()
        .iter()
        .position(|p| p.cell == at && p.riding.is_none() && !p.conditions.out_of_fight())
        .map(|i| Cid(i as u16))
}

/// The mount or vehicle `who` rides, if any.
pub fn riding(world: &World, who: Cid) -> Option<Cid> {
    place(world, who).and_then(|p| p.riding)
}

/// Every rider, in roster order: one look at the roster.
pub fn all_riding(world: &World) -> Cids {
    roster(world)
        .map(|r| {
            r.places()
                .iter()
                .enumerate()
                .filter(|(_, p)| p.riding.is_some())
                .map(|(i, _)| Cid(i as u16))
                .collect()
        })
        .unwrap_or_default()
}

/// Who rides `mount`, in roster order.
pub fn riders(world: &World, mount: Cid) -> Vec<Cid> {
    let Some(r) = roster(world) else {
        return Vec::new();
    };
    r.places()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.riding == Some(mount))
        .map(|(i, _)| Cid(i as u16))
        .collect()
}

/// A combatant's size (medium when it has no place).
pub fn size(world: &World, who: Cid) -> Size {
    place(world, who).map(|p| p.size).unwrap_or_default()
}

/// Who holds `who` in a grab, if anyone.
pub fn held_by(world: &World, who: Cid) -> Option<Cid> {
    place(world, who).and_then(|p| p.held_by)
}

/// Whom `grabber` holds in a grab, if anyone (the first in roster order).
pub fn holding(world: &World, grabber: Cid) -> Option<Cid> {
    roster(world)?
        .places()
        .iter()
        .position(|p| p.held_by == Some(grabber))
        .map(|i| Cid(i as u16))
}

/// Is `who` a mount or a vehicle?
pub fn steed(world: &World, who: Cid) -> Option<Steed> {
    place(world, who).and_then(|p| p.steed)
}

/// Cells held by standing combatants, except `except` (riders share their
/// mount's cell and do not hold one of their own).
pub fn occupied(world: &World, except: Option<Cid>) -> Cells {
    // One look at the roster, and no allocation for up to sixteen: every
    // move the AI weighs and every move checked asks this.
    let Some(r) = roster(world) else {
        return Cells::new();
    };
    let mut v: Cells = r
        .places()
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            except != Some(Cid(*i as u16)) && !p.conditions.out_of_fight() && p.riding.is_none()
        })
        .map(|(_, p)| p.cell)
        .collect();
    v.sort_unstable();
    v
}

/// Is `who` on a cell of the map's edge (from where it can leave the fight)?
pub fn on_map_edge(world: &World, who: Cid) -> bool {
    let Some(c) = cell(world, who) else {
        return false;
    };
    let map = resource::<Map>(world);
    c.x == 0 || c.y == 0 || c.x == map.width() - 1 || c.y == map.height() - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::map::Terrain;
    use bevy::ecs::change_detection::Tick;

    fn world_with_map(width: i32) -> World {
        let mut w = World::new();
        w.insert_resource(Map::new(width, 1, vec![Terrain::Open; width as usize]));
        w
    }

    /// A scope remembers its own world's resources only; another world
    /// read inside it, a nested scope, and the world changed after the
    /// scope all read what is there.
    #[test]
    fn a_reading_scope_never_answers_for_another_world_or_a_later_state() {
        let mut a = world_with_map(3);
        let b = world_with_map(5);
        reading(&a, |a| {
            assert_eq!(resource::<Map>(a).width(), 3);
            // Remembered now: still `a`'s, and `b` reads its own.
            assert_eq!(resource::<Map>(a).width(), 3);
            assert_eq!(resource::<Map>(&b).width(), 5);
            reading(&b, |b| assert_eq!(resource::<Map>(b).width(), 5));
            // The outer scope is back, still on `a`.
            assert_eq!(resource::<Map>(a).width(), 3);
            assert!(get_resource::<Roster>(a).is_none());
        });
        a.insert_resource(Map::new(7, 1, vec![Terrain::Open; 7]));
        assert_eq!(resource::<Map>(&a).width(), 7);
        reading(&a, |a| assert_eq!(resource::<Map>(a).width(), 7));
    }

    #[derive(Resource)]
    struct First(u32);
    #[derive(Resource)]
    struct Second(u32);

    /// Ids remembered for one world never answer for another: two worlds
    /// that registered the same types in opposite orders (so each type has
    /// a different id in each) read their own values, alternately, many
    /// times, in and out of scopes.
    #[test]
    fn remembered_ids_belong_to_their_world() {
        let mut a = World::new();
        a.insert_resource(First(1));
        a.insert_resource(Second(2));
        let mut b = World::new();
        b.insert_resource(Second(20));
        b.insert_resource(First(10));
        assert_ne!(
            a.components().get_valid_id(TypeId::of::<First>()),
            b.components().get_valid_id(TypeId::of::<First>())
        );
        for _ in 0..3 {
            assert_eq!(resource::<First>(&a).0, 1);
            assert_eq!(resource::<First>(&b).0, 10);
            assert_eq!(resource::<Second>(&a).0, 2);
            assert_eq!(resource::<Second>(&b).0, 20);
            reading(&b, |b| {
                assert_eq!(resource::<Second>(b).0, 20);
                assert_eq!(resource::<First>(&a).0, 1);
            });
        }
        // A type not in a world is not found through another world's id.
        let c = World::new();
        assert!(get_resource::<First>(&c).is_none());
    }

    #[derive(Component)]
    struct Mark(u32);

    /// A world with one combatant carrying `Mark(v)`, and a resource `First(v)`.
    fn world_with_mark(v: u32) -> World {
        let mut w = World::new();
        let e = w.spawn(Mark(v)).id();
        let mut roster = Roster::default();
        roster.push(e, "one".into(), 0, Place::default());
        w.insert_resource(roster);
        w.insert_resource(First(v));
        w
    }

    /// A scope opened inside one on the same world shares it (its number,
    /// so its answers); one on another world is its own, and the outer one
    /// comes back after it.
    #[test]
    fn a_scope_opened_inside_one_on_the_same_world_is_that_scope() {
        let a = world_with_mark(1);
        let b = world_with_mark(2);
        assert_eq!(scope_on(&a), None);
        reading(&a, |a| {
            let outer = scope_on(a);
            assert!(outer.is_some());
            reading(a, |a| assert_eq!(scope_on(a), outer));
            // One on another world is its own, and the outer one comes
            // back after it; inside it, a scope on the first world again
            // starts afresh (the other one is in force).
            reading(&b, |b| {
                assert!(scope_on(b).is_some() && scope_on(b) != outer);
                assert_eq!(scope_on(a), None);
                reading(a, |a| {
                    assert!(scope_on(a).is_some() && scope_on(a) != outer)
                });
            });
            assert_eq!(scope_on(a), outer);
        });
        assert_eq!(scope_on(&a), None);
    }

    /// What a scope remembers of components and of a ruleset's resources
    /// answers only in that scope: not for another world read inside it,
    /// not after the world changed, not in a later scope on the same world.
    #[test]
    fn remembered_components_belong_to_their_scope() {
        let mut a = world_with_mark(1);
        let b = world_with_mark(2);
        let read = |w: &World| (get::<Mark>(w, Cid(0)).map(|m| m.0), resource::<First>(w).0);
        reading(&a, |a| {
            assert_eq!(read(a), (Some(1), 1));
            assert_eq!(read(a), (Some(1), 1));
            assert_eq!(read(&b), (Some(2), 2));
            reading(&b, |b| assert_eq!(read(b), (Some(2), 2)));
            assert_eq!(read(a), (Some(1), 1));
            assert!(get::<Mark>(a, Cid(1)).is_none());
        });
        let e = a.resource::<Roster>().entity(Cid(0)).unwrap();
        a.get_mut::<Mark>(e).unwrap().0 = 5;
        a.resource_mut::<First>().0 = 6;
        assert_eq!(read(&a), (Some(5), 6));
        reading(&a, |a| assert_eq!(read(a), (Some(5), 6)));
        a.entity_mut(e).remove::<Mark>();
        reading(&a, |a| {
            assert_eq!(get::<Mark>(a, Cid(0)).map(|m| m.0), None)
        });
    }

    #[derive(Component)]
    #[component(storage = "SparseSet")]
    struct Sparse(u32);
    #[derive(Component)]
    struct Other;

    /// Reading a component or resource straight from its storage
    /// ([`find_on`], [`find_resource`]) answers as Bevy's own look-ups do,
    /// for every entity, as entities change archetype (a component added or
    /// taken: another table, rows swapped), are despawned and spawned, and
    /// as a resource is removed, put back and replaced; sparse-set
    /// components too.
    #[test]
    fn reading_straight_from_storage_answers_as_bevy_does() {
        let mut w = World::new();
        let mut es: Vec<Entity> = (0..6).map(|i| w.spawn(Mark(i)).id()).collect();
        w.insert_resource(First(1));
        let agree = |w: &World, es: &[Entity]| {
            for &e in es {
                assert_eq!(
                    find_on::<Mark>(w, e).map(|m| m.0),
                    w.get::<Mark>(e).map(|m| m.0)
                );
                assert_eq!(
                    find_on::<Sparse>(w, e).map(|m| m.0),
                    w.get::<Sparse>(e).map(|m| m.0)
                );
            }
            assert_eq!(
                find_resource::<First>(w).map(|r| r.0),
                w.get_resource::<First>().map(|r| r.0)
            );
            assert_eq!(
                find_resource::<Second>(w).map(|r| r.0),
                w.get_resource::<Second>().map(|r| r.0)
            );
        };
        agree(&w, &es);
        w.entity_mut(es[1]).insert(Other);
        w.entity_mut(es[2]).insert(Sparse(20));
        agree(&w, &es);
        w.despawn(es[0]);
        es.push(w.spawn((Mark(7), Sparse(70))).id());
        agree(&w, &es);
        w.entity_mut(es[3]).remove::<Mark>();
        w.entity_mut(es[2]).remove::<Sparse>();
        w.get_mut::<Mark>(es[4]).unwrap().0 = 40;
        agree(&w, &es);
        let first = w.remove_resource::<First>().unwrap();
        agree(&w, &es);
        w.insert_resource(Second(2));
        w.insert_resource(First(first.0 + 10));
        agree(&w, &es);
        w.insert_resource(First(12));
        w.resource_scope(|w, _: Mut<First>| agree(w, &es));
        agree(&w, &es);
        assert_eq!(find_resource::<First>(&w).map(|r| r.0), Some(12));
        assert_eq!(find_on::<Mark>(&w, es[4]).map(|m| m.0), Some(40));
    }

    /// A resource changed through [`resource_mut`], or a component through
    /// [`get_mut`], is marked changed as Bevy marks it (the world's change
    /// tick now), and read back; one only looked at through it is not
    /// marked; and what a write says changed since the reader's last run
    /// is what Bevy's says.
    #[test]
    fn a_resource_or_component_written_in_place_is_marked_changed_as_bevy_marks_it() {
        let mut w = World::new();
        w.insert_resource(First(1));
        w.insert_resource(Second(2));
        w.increment_change_tick();
        let before = w.get_resource_change_ticks::<First>().unwrap();
        // Looked at, not written: not marked.
        assert_eq!(resource_mut::<First>(&mut w).0, 1);
        assert_eq!(
            w.get_resource_change_ticks::<First>().unwrap().changed,
            before.changed
        );
        w.increment_change_tick();
        resource_mut::<First>(&mut w).0 = 5;
        w.increment_change_tick();
        w.resource_mut::<Second>().0 = 6;
        let (mine, bevys) = (
            w.get_resource_change_ticks::<First>().unwrap(),
            w.get_resource_change_ticks::<Second>().unwrap(),
        );
        assert_eq!((resource::<First>(&w).0, resource::<Second>(&w).0), (5, 6));
        assert!(mine.changed.get() > before.changed.get());
        // Each marked with the tick of the moment it was written: one apart.
        assert_eq!(bevys.changed.get(), mine.changed.get() + 1);
        assert_eq!(mine.added, before.added);
        assert!(get_resource_mut::<Map>(&mut w).is_none());
        // A combatant's component likewise, beside a second in its table.
        let (a, b) = (w.spawn(Mark(1)).id(), w.spawn(Mark(2)).id());
        w.increment_change_tick();
        let before = w.entity(b).get_change_ticks::<Mark>().unwrap();
        assert_eq!(get_mut::<Mark>(&mut w, b).map(|m| m.0), Some(2));
        assert_eq!(
            w.entity(b).get_change_ticks::<Mark>().unwrap().changed,
            before.changed
        );
        w.increment_change_tick();
        get_mut::<Mark>(&mut w, b).unwrap().0 = 20;
        w.increment_change_tick();
        w.get_mut::<Mark>(a).unwrap().0 = 10;
        let (mine, bevys) = (
            w.entity(b).get_change_ticks::<Mark>().unwrap(),
            w.entity(a).get_change_ticks::<Mark>().unwrap(),
        );
        assert_eq!(
            (w.get::<Mark>(a).unwrap().0, w.get::<Mark>(b).unwrap().0),
            (10, 20)
        );
        assert_eq!(bevys.changed.get(), mine.changed.get() + 1);
        assert_eq!(mine.added, before.added);
        w.entity_mut(a).remove::<Mark>();
        assert!(get_mut::<Mark>(&mut w, a).is_none());
        assert!(get_mut::<Mark>(&mut w, b).is_some_and(|m| m.0 == 20));
        // What a write sees as changed since the reader's last run: as Bevy
        // sees it, before the last write and after it.
        let written = mine.changed;
        for (since, changed) in [(Tick::new(written.get() - 1), true), (written, false)] {
            w.last_change_tick_scope(since, |w| {
                let (m, bevy) = (
                    get_mut::<Mark>(w, b).unwrap().is_changed(),
                    w.get_mut::<Mark>(b).unwrap().is_changed(),
                );
                assert_eq!((m, bevy), (changed, changed), "since {since:?}");
                let (m, bevy) = (
                    resource_mut::<First>(w).is_added(),
                    w.resource_mut::<First>().is_added(),
                );
                assert_eq!(m, bevy, "since {since:?}");
            });
        }
        // A resource the world has had and no longer has: none, as Bevy says.
        w.remove_resource::<Second>();
        assert!(get_resource_mut::<Second>(&mut w).is_none());
        assert!(get_resource::<Second>(&w).is_none());
    }

    /// `is_enemy` answers as `enemies(..).contains(..)` does, for every
    /// pair, whoever stands or has fallen, throughout a battle; and
    /// `each_enemy` gives exactly those, in roster order.
    #[test]
    fn is_enemy_is_membership_of_enemies() {
        use crate::rules::engine::Controls;
        let mut e = crate::testkit::engine();
        crate::testkit::start_shipped(
            &mut e,
            "mirror_duel",
            crate::rulesets::zones::ID,
            7,
            Controls::AllAi,
        );
        let mut fallen = false;
        for _ in 0..400 {
            let w = e.world();
            let n = resource::<Roster>(w).places().len() as u16;
            for a in (0..=n).map(Cid) {
                let enemies = enemies(w, a);
                for b in (0..=n).map(Cid) {
                    assert_eq!(is_enemy(w, a, b), enemies.contains(&b), "{a:?} {b:?}");
                }
                // One at a time: the same enemies, in roster order.
                let each: Vec<Cid> = each_enemy(w, a).collect();
                let expected: Vec<Cid> = (0..=n).map(Cid).filter(|b| is_enemy(w, a, *b)).collect();
                assert_eq!(each, expected, "{a:?}");
                assert_eq!(each, enemies.to_vec(), "{a:?}");
            }
            fallen |= (0..n).any(|c| !standing(w, Cid(c)));
            if e.run(1) != crate::rules::engine::Stop::StepLimit {
                break;
            }
        }
        assert!(fallen, "someone fell, and was asked about");
    }

    /// A panic inside a scope puts the outer scope back.
    #[test]
    fn a_panic_inside_a_scope_restores_the_outer_one() {
        let a = world_with_map(3);
        let b = world_with_map(5);
        reading(&a, |a| {
            let _ = resource::<Map>(a);
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                reading(&b, |b| {
                    let _ = resource::<Map>(b);
                    panic!("inside");
                })
            }));
            assert!(caught.is_err());
            let outer = SCOPE.with(|s| s.get()).0;
            assert!(std::ptr::eq(outer.world, a));
            assert_eq!(resource::<Map>(a).width(), 3);
        });
        assert!(SCOPE.with(|s| s.get()).0.world.is_null());
    }

    /// A fixed scope remembers where things lie across its writes: a value
    /// written in place is read back changed, in the scope and in the
    /// reading scopes inside it, which share what it found; a scope on
    /// another world inside it (fixed or reading) is its own, and the fixed
    /// one comes back after it; after it, nothing is remembered.
    #[test]
    fn a_fixed_scope_reads_back_what_it_wrote() {
        let mut a = world_with_mark(1);
        let mut b = world_with_mark(2);
        let read = |w: &World| (get::<Mark>(w, Cid(0)).map(|m| m.0), resource::<First>(w).0);
        fixed(&mut a, |a| {
            let n = scope_on(a);
            assert!(n.is_some());
            assert_eq!(read(a), (Some(1), 1));
            let e = entity(a, Cid(0)).unwrap();
            get_mut::<Mark>(a, e).unwrap().0 = 5;
            resource_mut::<First>(a).0 = 6;
            assert_eq!(read(a), (Some(5), 6));
            reading(a, |a| {
                assert_eq!(scope_on(a), n, "what the fixed scope found is shared");
                assert_eq!(read(a), (Some(5), 6));
            });
            fixed(a, |a| {
                assert_eq!(scope_on(a), n, "the same world: the same scope")
            });
            fixed(&mut b, |b| {
                assert!(scope_on(b).is_some() && scope_on(b) != n);
                assert_eq!(read(b), (Some(2), 2));
                resource_mut::<First>(b).0 = 20;
                assert_eq!(read(b), (Some(2), 20));
            });
            reading(&b, |b| assert_eq!(read(b), (Some(2), 20)));
            assert_eq!(scope_on(a), n);
            get_mut::<Mark>(a, e).unwrap().0 = 7;
            assert_eq!(read(a), (Some(7), 6));
        });
        assert_eq!(scope_on(&a), None);
        assert_eq!(read(&a), (Some(7), 6));
        // Outside the scope the world may change shape; a later scope
        // finds things afresh.
        let e = a.resource::<Roster>().entity(Cid(0)).unwrap();
        a.entity_mut(e).insert(Other);
        a.get_mut::<Mark>(e).unwrap().0 = 8;
        fixed(&mut a, |a| assert_eq!(read(a), (Some(8), 6)));
    }

    /// In a fixed scope the resources a step writes most keep where they
    /// and their change ticks lie ([`fast_mut_slot`]), and are marked as
    /// Bevy marks them: looked at, not marked; written, marked with the
    /// world's tick of the moment, each write its own; changed since a
    /// reader's last run as Bevy says.
    #[test]
    fn a_fixed_scope_writes_the_resources_it_keeps_as_bevy_does() {
        let mut w = World::new();
        w.insert_resource(Battle::default());
        w.insert_resource(BattleLog::default());
        w.increment_change_tick();
        let before = w.get_resource_change_ticks::<Battle>().unwrap();
        fixed(&mut w, |w| {
            assert_eq!(resource_mut::<Battle>(w).steps, 0);
            let ticks = w.get_resource_change_ticks::<Battle>().unwrap();
            assert_eq!(ticks.changed, before.changed, "looked at, not written");
            w.increment_change_tick();
            resource_mut::<Battle>(w).steps = 5;
            w.increment_change_tick();
            w.resource_mut::<BattleLog>().set_changed();
            let (mine, bevys) = (
                w.get_resource_change_ticks::<Battle>().unwrap(),
                w.get_resource_change_ticks::<BattleLog>().unwrap(),
            );
            assert_eq!(
                (resource::<Battle>(w).steps, w.resource::<Battle>().steps),
                (5, 5)
            );
            assert!(mine.changed.get() > before.changed.get());
            assert_eq!(bevys.changed.get(), mine.changed.get() + 1);
            assert_eq!(mine.added, before.added);
            for (since, changed) in [
                (Tick::new(mine.changed.get() - 1), true),
                (mine.changed, false),
            ] {
                w.last_change_tick_scope(since, |w| {
                    let (m, bevy) = (
                        resource_mut::<Battle>(w).is_changed(),
                        w.resource_mut::<Battle>().is_changed(),
                    );
                    assert_eq!((m, bevy), (changed, changed), "since {since:?}");
                });
            }
        });
        assert_eq!(w.resource::<Battle>().steps, 5);
    }

    /// A fixed scope told that where things lie has changed ([`moved`])
    /// finds them afresh: one of two combatants in one table gets another
    /// component (it moves to another table, the other into its row), and
    /// both read their own values, as Bevy finds them.
    #[test]
    fn a_fixed_scope_told_of_a_move_finds_things_afresh() {
        let mut w = world_with_mark(1);
        let e1 = w.spawn(Mark(2)).id();
        w.resource_mut::<Roster>()
            .push(e1, "two".into(), 0, Place::default());
        fixed(&mut w, |w| {
            let marks = |w: &World| [0, 1].map(|i| get::<Mark>(w, Cid(i)).map(|m| m.0));
            assert_eq!(marks(w), [Some(1), Some(2)]);
            let e0 = entity(w, Cid(0)).unwrap();
            w.entity_mut(e0).insert(Other);
            moved(w);
            assert_eq!(marks(w), [Some(1), Some(2)]);
            get_mut::<Mark>(w, e1).unwrap().0 = 3;
            assert_eq!(marks(w), [Some(1), Some(3)]);
            assert_eq!(w.get::<Mark>(e1).map(|m| m.0), Some(3));
        });
    }

    /// A panic inside a fixed scope, caught, leaves no scope and no noted
    /// structure behind: the next fixed scope on the world starts afresh.
    #[test]
    fn a_panic_inside_a_fixed_scope_leaves_nothing_behind() {
        let mut w = world_with_mark(1);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            fixed(&mut w, |w| {
                let _ = get::<Mark>(w, Cid(0));
                panic!("inside");
            })
        }));
        assert!(caught.is_err());
        assert!(SCOPE.with(|s| s.get()).0.world.is_null());
        #[cfg(debug_assertions)]
        assert!(BASELINES.with(|b| b.borrow().is_empty()));
        fixed(&mut w, |w| {
            assert_eq!(get::<Mark>(w, Cid(0)).map(|m| m.0), Some(1))
        });
    }

    /// A fixed scope that changes where things lie (here a component
    /// inserted, which moves the entity to another table) is caught, in
    /// the debug builds the tests run in.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "a fixed scope changed the world's structure")]
    fn a_fixed_scope_that_moves_something_is_caught() {
        let mut w = world_with_mark(1);
        fixed(&mut w, |w| {
            let e = entity(w, Cid(0)).unwrap();
            w.entity_mut(e).insert(Other);
        });
    }

    /// The roster's rows of bits answer who stands, a combatant's enemies
    /// and allies and a faction's standing as the places say, past the
    /// first word's 64 combatants, and follow every change a place goes
    /// through `Roster::update_place`, out of the fight and back.
    #[test]
    fn standing_enemies_and_allies_follow_the_places_past_64() {
        use crate::rules::components::Condition;
        let mut w = World::new();
        let mut roster = Roster::default();
        // 70 combatants: faction i % 3, one of them (68) down from the start.
        for i in 0..70u16 {
            let mut place = Place::default();
            if i == 68 {
                place.conditions.insert(Condition::Dead);
            }
            roster.push(w.spawn_empty().id(), format!("c{i}"), (i % 3) as u8, place);
        }
        w.insert_resource(roster);
        let ids = |v: Cids| v.iter().map(|c| c.0).collect::<Vec<_>>();
        let of = |f: u16, skip: &[u16]| {
            (0..70u16)
                .filter(|i| i % 3 == f && !skip.contains(i))
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(standing_all(&w)).len(), 69);
        assert!(!ids(standing_all(&w)).contains(&68));
        // 67 is of faction 1: its enemies are factions 0 and 2 standing.
        let mut others = [of(0, &[]), of(2, &[68])].concat();
        others.sort();
        assert_eq!(ids(enemies(&w, Cid(67))), others);
        assert_eq!(ids(allies(&w, Cid(67))), of(1, &[67]));
        assert_eq!(ids(standing_in(&w, 2)), of(2, &[68]));
        // 65 (faction 2, in the second word) and 3 (faction 0) fall; 68
        // is brought round.
        let mut r = w.resource_mut::<Roster>();
        r.update_place(Cid(65), |p| p.conditions.insert(Condition::Unconscious));
        r.update_place(Cid(3), |p| p.conditions.insert(Condition::Fled));
        r.update_place(Cid(68), |p| p.conditions.remove(Condition::Dead));
        assert_eq!(ids(standing_in(&w, 2)), of(2, &[65]));
        assert_eq!(ids(standing_in(&w, 0)), of(0, &[3]));
        let mut others = [of(0, &[3]), of(2, &[65])].concat();
        others.sort();
        assert_eq!(ids(enemies(&w, Cid(67))), others);
        assert_eq!(ids(standing_all(&w)).len(), 68);
        // One who is down still has its enemies and allies (the standing).
        assert_eq!(ids(allies(&w, Cid(65))), of(2, &[65]));
    }
}
