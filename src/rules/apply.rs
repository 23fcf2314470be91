//! The one place battle state changes: each event is applied to the world as
//! it is emitted, then appended to the battle log.
//!
//! Rulesets execute commands by emitting events through [`emit`]; they never
//! write components directly. This keeps the log a complete account of the
//! battle: replaying the events rebuilds the state.

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::battle::{Battle, Outcome, Phase, Prompt};
use crate::rules::components::{Cid, Condition, Heading, Health, Loadout, MoveMode, TurnState};
use crate::rules::event::{
    BattleEnded, BattleEvent, BattleStarted, ConditionAdded, ConditionRemoved, Count, Damaged,
    Disarmed, Dismounted, Displaced, Drew, FallDeferred, Fled, GearBroken, Grabbed, Mounted, Moved,
    PickedUp, Released, RoundEnded, RoundStarted, TargetChanged, TurnEnded, TurnStarted,
};
use crate::rules::hooks::ActiveRuleset;
use crate::rules::level::Facing;
use crate::rules::log::BattleLog;
use crate::rules::map::Cell;
use crate::rules::roster::{Place, Roster};
use crate::rules::scene::Scene;
use crate::rules::schedule::Schedule;

impl Scene<'_> {
    /// Apply an event to the battle and record it in the log: the one way
    /// a ruleset's writer changes the battle.
    pub fn emit(&mut self, event: impl Into<BattleEvent>) {
        emit(self.world, event);
    }
}

/// Apply an event to the world and record it in the log.
pub fn emit(world: &mut World, event: impl Into<BattleEvent>) {
    let event = event.into();
    apply(world, &event);
    view::write::resource_mut::<BattleLog>(world)
        .events
        .push(event);
}

fn entity(world: &World, cid: Cid) -> Option<Entity> {
    view::resource::<Roster>(world).entity(cid)
}

fn facing_towards(from: Cell, to: Cell) -> Option<Facing> {
    Facing::from_delta(to.x - from.x, to.y - from.y)
}

/// Apply one event's effect on the world.
pub fn apply(world: &mut World, event: &BattleEvent) {
    match event {
        BattleEvent::BattleStarted(e) => apply_battle_started(world, e),
        BattleEvent::RoundStarted(e) => apply_round_started(world, e),
        BattleEvent::TurnStarted(e) => apply_turn_started(world, e),
        BattleEvent::Moved(e) => apply_moved(world, e),
        BattleEvent::ConditionAdded(e) => apply_condition_added(world, e),
        BattleEvent::ConditionRemoved(e) => apply_condition_removed(world, e),
        BattleEvent::Drew(e) => apply_drew(world, e),
        BattleEvent::Count(e) => apply_count(world, e),
        BattleEvent::FallDeferred(e) => apply_fall_deferred(world, e),
        BattleEvent::GroupActed(_) => apply_group_acted(world),
        BattleEvent::Damaged(e) => apply_damaged(world, e),
        BattleEvent::Healed(e) => with::<Health>(world, e.target, |h| h.hp = e.hp_after),
        BattleEvent::Fled(e) => apply_fled(world, e),
        BattleEvent::TurnEnded(e) => apply_turn_ended(world, e),
        BattleEvent::RoundEnded(e) => apply_round_ended(world, e),
        BattleEvent::TargetChanged(e) => apply_target_changed(world, e),
        BattleEvent::Grabbed(e) => apply_grabbed(world, e),
        BattleEvent::Released(e) => apply_released(world, e),
        BattleEvent::Disarmed(e) => apply_disarmed(world, e),
        BattleEvent::Displaced(e) => apply_displaced(world, e),
        BattleEvent::Mounted(e) => apply_mounted(world, e),
        BattleEvent::Dismounted(e) => apply_dismounted(world, e),
        BattleEvent::PickedUp(e) => apply_picked_up(world, e),
        BattleEvent::GearBroken(e) => apply_gear_broken(world, e),
        BattleEvent::BattleEnded(e) => apply_battle_ended(world, e),
        // Told, not changed: the state these report was changed by others.
        BattleEvent::TurnOrder(_)
        | BattleEvent::MoveInterrupted(_)
        | BattleEvent::ReactionDeclined(_)
        | BattleEvent::DamageRolled(_) => {}
        // The ruleset's own events: its `apply` hook, below.
        BattleEvent::Ruleset(_) => {}
    }
    // What the ruleset in force does with the event beyond the shared state.
    if let Some(ruleset_apply) = ruleset_apply(world) {
        ruleset_apply(world, event);
    }
}

/// A ruleset's `apply` hook.
type ApplyHook = fn(&mut World, &BattleEvent);

thread_local! {
    /// The world a battle step runs on on this thread, and the `apply` hook
    /// of the ruleset in force there ([`in_step`]).
    static STEP: std::cell::Cell<(*const World, Option<ApplyHook>)> =
        const { std::cell::Cell::new((std::ptr::null(), None)) };
}

/// Runs a battle step `f` on `world`, whose ruleset in force has the
/// `apply` hook `hook`: the events of the step find the hook here rather
/// than looking the ruleset up in the world, three or four times a step.
/// The ruleset in force does not change within a step (only starting a
/// battle puts it in, outside any step). A step on another world inside
/// this one (a look-ahead's playout) keeps its own, and this one's comes
/// back after it, or after a panic.
pub fn in_step<T>(
    world: &mut World,
    hook: Option<ApplyHook>,
    f: impl FnOnce(&mut World) -> T,
) -> T {
    struct Restore((*const World, Option<ApplyHook>));
    impl Drop for Restore {
        fn drop(&mut self) {
            STEP.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(STEP.with(|s| s.replace((world as *const World, hook))));
    f(world)
}

/// The `apply` hook of the ruleset in force on `world`.
fn ruleset_apply(world: &World) -> Option<ApplyHook> {
    let (w, hook) = STEP.with(|s| s.get());
    if std::ptr::eq(w, world) {
        return hook;
    }
    view::get_resource::<ActiveRuleset>(world).map(|h| h.0.apply)
}

/// The battle waits for the combatant whose turn it is; a count, if the
/// round runs one, moves past it.
fn apply_turn_started(world: &mut World, e: &TurnStarted) {
    view::write::resource_mut::<Battle>(world).prompt = Prompt::Act { actor: e.who };
    if !view::resource::<Schedule>(world).ranks.is_empty() {
        view::write::resource_mut::<Schedule>(world).past(e.who);
    }
}

/// The round's count: its lists kept from the last round are written
/// over, not dropped and allocated again.
fn apply_count(world: &mut World, e: &Count) {
    let mut s = view::write::resource_mut::<Schedule>(world);
    s.ranks.clone_from(&e.ranks);
    s.at = Default::default();
    s.falls.clear();
}

fn apply_fall_deferred(world: &mut World, e: &FallDeferred) {
    let mut s = view::write::resource_mut::<Schedule>(world);
    if !s.falls.contains(&e.who) {
        s.falls.push(e.who);
    }
}

fn apply_group_acted(world: &mut World) {
    view::write::resource_mut::<Schedule>(world).falls.clear()
}

/// A broken weapon leaves the loadout (the hand that held it is empty); a
/// broken shield or armour is the ruleset's.
fn apply_gear_broken(world: &mut World, e: &GearBroken) {
    let Some(index) = e.weapon_index else {
        return;
    };
    with::<Loadout>(world, e.who, |l| {
        if index < l.weapons.len() {
            l.weapons.remove(index);
            l.ready = match l.ready {
                Some(r) if r == index => None,
                Some(r) if r > index => Some(r - 1),
                r => r,
            };
        }
    });
}

fn apply_battle_started(world: &mut World, e: &BattleStarted) {
    let BattleStarted { seed, .. } = e;
    view::write::resource_mut::<Battle>(world).seed = *seed;
}

fn apply_round_started(world: &mut World, e: &RoundStarted) {
    let RoundStarted { round } = e;
    view::write::resource_mut::<Battle>(world).round = *round;
    // A round's count is set when its actions begin.
    if *view::resource::<Schedule>(world) != Schedule::default() {
        *view::write::resource_mut::<Schedule>(world) = Schedule::default();
    }
    each::<TurnState>(world, |t| {
        t.done = false;
        t.action_used = false;
        t.reaction_used = false;
    });
}

fn apply_moved(world: &mut World, e: &Moved) {
    let Moved {
        who,
        from,
        path,
        mode,
        ..
    } = e;
    let Some(&last) = path.last() else { return };
    let before_last = if path.len() >= 2 {
        path[path.len() - 2]
    } else {
        *from
    };
    place(world, *who, |p| p.cell = last);
    carry_riders(world, *who, last);
    // A retreat backs away from the fight: the retreater keeps facing it.
    if *mode == MoveMode::Retreat {
        return;
    }
    if let Some(f) = facing_towards(before_last, last) {
        with::<Heading>(world, *who, |h| h.0 = f);
        for r in riders(world, *who) {
            with::<Heading>(world, r, |h| h.0 = f);
        }
    }
}

fn apply_condition_added(world: &mut World, e: &ConditionAdded) {
    let ConditionAdded { who, condition, .. } = e;
    place(world, *who, |p| p.conditions.insert(*condition));
}

fn apply_condition_removed(world: &mut World, e: &ConditionRemoved) {
    let ConditionRemoved { who, condition, .. } = e;
    place(world, *who, |p| p.conditions.remove(*condition));
}

fn apply_drew(world: &mut World, e: &Drew) {
    let Drew {
        who,
        index,
        as_movement,
        ..
    } = e;
    with::<Loadout>(world, *who, |l| l.ready = Some(*index));
    if !*as_movement {
        with::<TurnState>(world, *who, |t| t.action_used = true);
    }
}

fn apply_damaged(world: &mut World, e: &Damaged) {
    let Damaged {
        target,
        hp_after,
        ep_after,
        ..
    } = e;
    with::<Health>(world, *target, |h| {
        h.hp = *hp_after;
        h.ep = *ep_after;
    });
}

fn apply_fled(world: &mut World, e: &Fled) {
    let Fled { who, .. } = e;
    place(world, *who, |p| p.conditions.insert(Condition::Fled));
}

fn apply_turn_ended(world: &mut World, e: &TurnEnded) {
    let TurnEnded { who } = e;
    with::<TurnState>(world, *who, |t| t.done = true);
    // Nobody is prompted until the round moves on.
    view::write::resource_mut::<Battle>(world).prompt = Prompt::None;
}

fn apply_round_ended(world: &mut World, e: &RoundEnded) {
    let RoundEnded { round } = e;
    let mut battle = view::write::resource_mut::<Battle>(world);
    battle.rounds_completed = *round;
    battle.phase = Phase::RoundEnd;
}

fn apply_target_changed(world: &mut World, e: &TargetChanged) {
    let TargetChanged {
        from, to, swapped, ..
    } = e;
    if *swapped && let (Some(a), Some(b)) = (pos(world, *from), pos(world, *to)) {
        place(world, *from, |p| p.cell = b);
        place(world, *to, |p| p.cell = a);
    }
}

fn apply_grabbed(world: &mut World, e: &Grabbed) {
    let Grabbed { by, who, .. } = e;
    place(world, *who, |p| {
        p.held_by = Some(*by);
        p.conditions.insert(Condition::Grabbed);
    });
}

fn apply_released(world: &mut World, e: &Released) {
    let Released { who, .. } = e;
    place(world, *who, |p| {
        p.held_by = None;
        p.conditions.remove(Condition::Grabbed);
    });
}

fn apply_disarmed(world: &mut World, e: &Disarmed) {
    let Disarmed {
        who,
        index,
        taken_by,
        ..
    } = e;
    let mut dropped = None;
    with::<Loadout>(world, *who, |l| {
        if *index < l.weapons.len() {
            dropped = Some(l.weapons.remove(*index));
            l.ready = match l.ready {
                Some(r) if r == *index => None,
                Some(r) if r > *index => Some(r - 1),
                r => r,
            };
        }
    });
    match (dropped, taken_by) {
        (Some(w), Some((taker, at))) => {
            with::<Loadout>(world, *taker, |l| {
                let at = (*at).min(l.weapons.len());
                l.weapons.insert(at, w);
                if let Some(r) = l.ready.as_mut()
                    && *r >= at
                {
                    *r += 1;
                }
            });
        }
        // Nobody catches it: it lies where its owner stands.
        (Some(w), None) => {
            if let Some(at) = pos(world, *who) {
                view::write::resource_mut::<crate::rules::battle::Ground>(world)
                    .0
                    .push((at, w));
            }
        }
        _ => {}
    }
}

fn apply_displaced(world: &mut World, e: &Displaced) {
    let Displaced { who, to, .. } = e;
    place(world, *who, |p| p.cell = *to);
    carry_riders(world, *who, *to);
}

fn apply_mounted(world: &mut World, e: &Mounted) {
    let Mounted { who, mount, .. } = e;
    if let Some(at) = pos(world, *mount) {
        place(world, *who, |p| p.cell = at);
    }
    place(world, *who, |p| p.riding = Some(*mount));
}

fn apply_dismounted(world: &mut World, e: &Dismounted) {
    let Dismounted { who, to, .. } = e;
    place(world, *who, |p| {
        p.riding = None;
        p.cell = *to;
    });
}

fn apply_picked_up(world: &mut World, e: &PickedUp) {
    let PickedUp { who, item, .. } = e;
    let mut ground = view::write::resource_mut::<crate::rules::battle::Ground>(world);
    if *item < ground.0.len() {
        let (_, w) = ground.0.remove(*item);
        // Into the hands, before the bare hands that stay last.
        with::<Loadout>(world, *who, |l| {
            let at = l.weapons.len().saturating_sub(1);
            l.weapons.insert(at, w);
            l.ready = Some(at);
        });
    }
}

fn apply_battle_ended(world: &mut World, e: &BattleEnded) {
    let BattleEnded { winner, reason } = e;
    let mut b = view::write::resource_mut::<Battle>(world);
    let rounds = b.round;
    b.outcome = Some(Outcome {
        winner: *winner,
        reason: reason.clone(),
        rounds,
    });
    b.phase = crate::rules::battle::Phase::Over;
    b.prompt = crate::rules::battle::Prompt::None;
}

/// Those who ride `mount` (every move asks: the roster, not a new query).
fn riders(world: &World, mount: Cid) -> Vec<Cid> {
    crate::rules::view::riders(world, mount)
}

/// Riders move with their mount.
fn carry_riders(world: &mut World, mount: Cid, to: Cell) {
    for r in riders(world, mount) {
        place(world, r, |p| p.cell = to);
    }
}

/// What every attack does to the attacker: it turns towards its target and
/// spends `shots` from the weapon's magazine, or, for a ranged weapon with
/// no magazine (a bow's arrows, a sling's stones), from its spare
/// ammunition.
pub fn strike(world: &mut World, attacker: Cid, target: Cid, weapon_index: usize, shots: u32) {
    face(world, attacker, target);
    with::<Loadout>(world, attacker, |l| {
        let Some(w) = l.weapons.get_mut(weapon_index) else {
            return;
        };
        if w.magazine > 0 {
            w.loaded = w.loaded.saturating_sub(shots);
        } else if w.is_ranged()
            && let Some(s) = w.spare.as_mut()
        {
            *s = s.saturating_sub(shots);
        }
    });
}

/// Turn `who` towards `target`.
pub fn face(world: &mut World, who: Cid, target: Cid) {
    if let (Some(a), Some(t)) = (pos(world, who), pos(world, target))
        && let Some(f) = facing_towards(a, t)
    {
        with::<Heading>(world, who, |h| h.0 = f);
    }
}

fn pos(world: &World, cid: Cid) -> Option<Cell> {
    crate::rules::view::cell(world, cid)
}

/// Change a combatant's [`Place`] (the core's apply only).
fn place(world: &mut World, cid: Cid, f: impl FnOnce(&mut Place)) {
    view::write::resource_mut::<Roster>(world).update_place(cid, f);
}

/// Change one component of a combatant, if it has it (for the core's and
/// the rulesets' apply only).
pub fn with<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    cid: Cid,
    f: impl FnOnce(&mut C),
) {
    if let Some(e) = entity(world, cid)
        && let Some(mut c) = view::write::get_mut::<C>(world, e)
    {
        f(&mut c);
    }
}

/// `f` on every combatant's `C` (each that has one), through the roster:
/// building a Bevy query each round costs more than the round's look-ups
/// (about 4,000 instructions, 1 % of a ud10 battle).
pub fn each<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    mut f: impl FnMut(&mut C),
) {
    // By index: the roster's list is not copied for the walk.
    let n = view::get_resource::<Roster>(world).map_or(0, |r| r.entities.len());
    for i in 0..n {
        let e = view::resource::<Roster>(world).entities[i];
        if let Some(mut c) = view::write::get_mut::<C>(world, e) {
            f(&mut c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Two hooks with different bodies: never folded into one function.
    fn hook_a(_: &mut World, _: &BattleEvent) {
        std::hint::black_box(1);
    }
    fn hook_b(_: &mut World, _: &BattleEvent) {
        std::hint::black_box(2);
    }

    /// Within a step the events find the hook it was given; a step on
    /// another world inside it has its own, and the first one's comes back
    /// after it; outside any step the hook is looked up in the world
    /// (none here: no ruleset in force).
    #[test]
    fn a_step_hands_its_events_the_hook_of_its_own_world() {
        let (mut a, mut b) = (World::new(), World::new());
        let is = |w: &World, h: Option<ApplyHook>| {
            ruleset_apply(w).map(|f| f as usize) == h.map(|f| f as usize)
        };
        assert!(is(&a, None));
        in_step(&mut a, Some(hook_a), |a| {
            assert!(is(a, Some(hook_a)));
            in_step(&mut b, Some(hook_b), |b| {
                assert!(is(b, Some(hook_b)));
            });
            assert!(is(&b, None));
            assert!(is(a, Some(hook_a)));
        });
        assert!(is(&a, None));
    }
}
