//! Where the battle's world is read from, remembered: the scopes
//! ([`reading`], [`fixed`]) in which the resources and components found
//! stay where they were found, and the thread's tables of what each scope
//! found. Every raw pointer kept here is sound only inside its scope; the
//! SAFETY comments at each use say why, and `tests.rs` checks each
//! invariant (another world, a later state, a nested scope, a panic, a
//! structural change without [`moved`]).

use std::any::TypeId;
use std::cell::Cell as Shared;
use std::hash::{Hash, Hasher};

use bevy::ecs::change_detection::{MaybeLocation, Tick};
use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::battle::{Battle, BattleRules};
use crate::rules::command::CommandMsg;
use crate::rules::components::Cid;
use crate::rules::dice::Dice;
use crate::rules::hooks::ActiveRuleset;
use crate::rules::log::BattleLog;
use crate::rules::map::Map;
use crate::rules::roster::{Factions, Roster};

/// The world a [`reading`] scope reads, and where the resources every
/// check and weighing asks for ([`fast_slot`]) lie in it, once looked up (null
/// until then).
#[derive(Clone, Copy)]
pub(super) struct Scope {
    pub(super) world: *const World,
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

pub(super) const FAST_SLOTS: usize = 6;
pub(super) const FAST_MUT_SLOTS: usize = 4;

/// The [`Scope`] in force on this thread, a cell per field: a look-up
/// reads the world and one slot, not the whole scope. `scope` numbers the
/// stretch in which what was found stays where it was found (a [`reading`]
/// scope, or a [`fixed`] one and every reading scope inside it): the
/// components found ([`FOUND`]) are marked with it. `reading` numbers the
/// reading scope in force, in which nothing changes at all (0: none): a
/// reading scope opened inside it is that one.
pub(super) struct ScopeCells {
    pub(super) world: Shared<*const World>,
    pub(super) at: [Shared<*const ()>; FAST_SLOTS],
    pub(super) places: [Shared<Option<Places>>; FAST_MUT_SLOTS],
    pub(super) scope: Shared<u64>,
    pub(super) reading: Shared<u64>,
    pub(super) opened: Shared<u64>,
}

/// A [`ScopeCells`]' contents: the scope, its number and its reading
/// scope's.
pub(super) type Saved = (Scope, u64, u64);

impl ScopeCells {
    pub(super) fn get(&self) -> Saved {
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
pub(super) struct Found {
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
pub(super) const FOUND_BITS: u32 = 12;
pub(super) const FOUND_SLOTS: usize = 1 << FOUND_BITS;

thread_local! {
    /// Components found in the scope in force, by combatant and kind: the
    /// AI reads each enemy's weapon, health and stats many times a decision.
    pub(super) static FOUND: [Shared<Found>; FOUND_SLOTS] = const {
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
pub(super) fn found_slot(cid: Cid, kind: TypeId) -> usize {
    // A multiplicative hash of both: two kinds of component read on the
    // same combatants rarely share a slot.
    let key = (u64::from(cid.0) << 32) ^ type_bits(kind);
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FOUND_BITS)) as usize
}

/// The resources a [`reading`] scope remembers, by slot.
pub(super) fn fast_slot<R: Resource>() -> Option<usize> {
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
pub(super) fn fast_mut_slot<R: Resource>() -> Option<usize> {
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
pub(super) fn slot_among<R: 'static>(kinds: &[TypeId]) -> Option<usize> {
    let kind = TypeId::of::<R>();
    kinds.iter().position(|k| *k == kind)
}

thread_local! {
    pub(super) static SCOPE: ScopeCells = const {
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
pub(super) fn open_scope<T>(world: &World, reading: bool, f: impl FnOnce() -> T) -> T {
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
    pub(super) static BASELINES: std::cell::RefCell<Vec<(*const World, Structure)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// How many archetypes and entities a world has, and where each lies.
#[cfg(debug_assertions)]
pub(super) type Structure = (usize, u32, Vec<(Entity, u32, u32)>);

/// Where every entity of `world` lies, and how many archetypes and
/// entities it has: what a [`fixed`] scope must leave as it was.
#[cfg(debug_assertions)]
pub(super) fn structure(world: &World) -> Structure {
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

/// The 64 bits of a `TypeId` that its `Hash` writes (itself a hash of
/// the type), mixed: where a type's answers are remembered.
#[inline]
pub(super) fn type_bits(kind: TypeId) -> u64 {
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

/// Where a value and its change ticks lie in a world's storage: what
/// Bevy's `Mut` is made of, found once.
#[derive(Clone, Copy)]
pub(super) struct Places {
    pub(super) at: *mut u8,
    pub(super) added: *mut Tick,
    pub(super) changed: *mut Tick,
    pub(super) by: MaybeLocation<*mut &'static std::panic::Location<'static>>,
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
    pub(super) unsafe fn written<T>(self, world: &mut World) -> Mut<'_, T> {
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

/// The number of the scope in force on `world` ([`reading`] or
/// [`fixed`]), if one is: what it found is marked with it.
#[inline]
pub(super) fn scope_on(world: &World) -> Option<u64> {
    SCOPE.with(|s| {
        std::ptr::eq(s.world.get(), world)
            .then(|| s.scope.get())
            .filter(|&n| n != 0)
    })
}

/// What the scope `n` found of `cid`'s component (or resource) of type `kind`: where
/// it lies, null where it found none; `None` if it has not looked.
#[inline]
pub(super) fn found_in_scope(n: u64, cid: Cid, kind: TypeId) -> Option<*const ()> {
    debug_assert_ne!(n, 0, "scopes are numbered from 1");
    FOUND
        .with(|f| f[found_slot(cid, kind)].get())
        .answer(n, cid, kind)
}

/// Remember for the scope `n` where `cid`'s component (or resource) of type
/// `kind` lies (null: it has none).
pub(super) fn remember(n: u64, cid: Cid, kind: TypeId, at: *const ()) {
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
