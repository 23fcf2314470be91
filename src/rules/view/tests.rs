//! The view's scopes and storage reads against Bevy's own look-ups.

use super::scope::*;
use super::storage::*;
use super::write::*;
use super::*;
use crate::rules::battle::Battle;
use crate::rules::log::BattleLog;
use crate::rules::map::Terrain;
use bevy::ecs::change_detection::Tick;
use std::any::TypeId;

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
