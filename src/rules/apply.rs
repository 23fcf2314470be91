//! The one place battle state changes: each event is applied to the world as
//! it is emitted, then appended to the battle log.
//!
//! Rulesets execute commands by emitting events through [`emit`]; they never
//! write components directly. This keeps the log a complete account of the
//! battle: replaying the events rebuilds the state.

use bevy::prelude::*;

use crate::rules::battle::{Battle, BattleLog, Outcome, Roster};
use crate::rules::components::{
    Cid, Condition, Conditions, Heading, Health, HeldBy, Loadout, MoveMode, Position, Riding,
    TurnState,
};
use crate::rules::event::BattleEvent;
use crate::rules::level::Facing;
use crate::rules::map::Cell;

/// Apply an event to the world and record it in the log.
pub fn emit(world: &mut World, event: BattleEvent) {
    apply(world, &event);
    world.resource_mut::<BattleLog>().events.push(event);
}

fn entity(world: &World, cid: Cid) -> Option<Entity> {
    world.resource::<Roster>().entity(cid)
}

fn facing_towards(from: Cell, to: Cell) -> Option<Facing> {
    Facing::from_delta(to.x - from.x, to.y - from.y)
}

/// Apply one event's effect on the world.
pub fn apply(world: &mut World, event: &BattleEvent) {
    match event {
        BattleEvent::BattleStarted { seed, .. } => {
            world.resource_mut::<Battle>().seed = *seed;
        }
        BattleEvent::RoundStarted { round } => {
            world.resource_mut::<Battle>().round = *round;
            let mut q = world.query::<&mut TurnState>();
            for mut t in q.iter_mut(world) {
                t.done = false;
                t.action_used = false;
                t.reaction_used = false;
                t.moved_dm = 0;
                t.movement = MoveMode::None;
                t.moved_before_action = false;
            }
        }
        BattleEvent::InitiativeRolled { who, total, .. } => {
            with::<TurnState>(world, *who, |t| t.initiative = Some(*total));
        }
        BattleEvent::TieBroken { .. } | BattleEvent::TurnOrder { .. } => {}
        BattleEvent::TurnStarted { who } => {
            with::<TurnState>(world, *who, |t| {
                t.aimed_this_turn = false;
                t.moved_dm = 0;
                t.movement = MoveMode::None;
                t.moved_before_action = false;
            });
        }
        BattleEvent::Moved {
            who,
            from,
            path,
            cost_dm,
            mode,
            ..
        } => {
            let Some(&last) = path.last() else { return };
            let before_last = if path.len() >= 2 {
                path[path.len() - 2]
            } else {
                *from
            };
            with::<Position>(world, *who, |p| p.0 = last);
            carry_riders(world, *who, last);
            if let Some(f) = facing_towards(before_last, last) {
                with::<Heading>(world, *who, |h| h.0 = f);
                for r in riders(world, *who) {
                    with::<Heading>(world, r, |h| h.0 = f);
                }
            }
            with::<TurnState>(world, *who, |t| {
                t.moved_dm += *cost_dm;
                // The mode of the whole turn's movement: the widest so far.
                t.movement = widest(t.movement, *mode);
                // A single step is instantaneous and leaves the action free
                // to come before or after further movement.
                if !t.action_used && *mode != MoveMode::Step {
                    t.moved_before_action = true;
                }
                if !matches!(mode, MoveMode::Step) {
                    t.aim = None;
                }
            });
        }
        BattleEvent::MoveInterrupted { .. } => {}
        BattleEvent::ConditionAdded { who, condition, .. } => {
            with::<Conditions>(world, *who, |c| c.insert(*condition));
            if matches!(condition, Condition::Retreating) {
                with::<TurnState>(world, *who, |t| t.action_used = true);
            }
        }
        BattleEvent::ConditionRemoved { who, condition, .. } => {
            with::<Conditions>(world, *who, |c| c.remove(*condition));
        }
        BattleEvent::Drew {
            who,
            index,
            as_movement,
            ..
        } => {
            with::<Loadout>(world, *who, |l| l.ready = Some(*index));
            with::<TurnState>(world, *who, |t| {
                if *as_movement {
                    t.movement = widest(t.movement, MoveMode::Standard);
                    if !t.action_used {
                        t.moved_before_action = true;
                    }
                } else {
                    t.action_used = true;
                }
            });
        }
        BattleEvent::Reloaded {
            who, index, loaded, ..
        } => {
            with::<Loadout>(world, *who, |l| {
                if let Some(w) = l.weapons.get_mut(*index) {
                    let added = loaded.saturating_sub(w.loaded);
                    w.loaded = *loaded;
                    if let Some(s) = w.spare.as_mut() {
                        *s = s.saturating_sub(added);
                    }
                }
            });
            with::<TurnState>(world, *who, |t| t.action_used = true);
        }
        BattleEvent::Aimed {
            who,
            target,
            rounds,
            ..
        } => {
            with::<TurnState>(world, *who, |t| {
                t.aim = Some((*target, *rounds));
                t.aimed_this_turn = true;
                t.action_used = true;
            });
        }
        BattleEvent::AttackRolled {
            attacker,
            target,
            weapon_index,
            shots,
            free,
            ..
        } => {
            face(world, *attacker, *target);
            with::<Loadout>(world, *attacker, |l| {
                if let Some(w) = l.weapons.get_mut(*weapon_index)
                    && w.magazine > 0
                {
                    w.loaded = w.loaded.saturating_sub(*shots);
                } else if let Some(w) = l.weapons.get_mut(*weapon_index)
                    && w.is_ranged()
                    && let Some(s) = w.spare.as_mut()
                {
                    *s = s.saturating_sub(*shots);
                }
            });
            if !*free {
                with::<TurnState>(world, *attacker, |t| {
                    t.action_used = true;
                    t.aim = None;
                });
            }
        }
        BattleEvent::ReactionRolled { who, .. } => {
            with::<TurnState>(world, *who, |t| t.reaction_used = true);
        }
        BattleEvent::ReactionDeclined { .. } => {}
        BattleEvent::HitLocation { .. } | BattleEvent::DamageRolled { .. } => {}
        BattleEvent::Damaged {
            target,
            hp_after,
            ep_after,
            ..
        } => {
            with::<Health>(world, *target, |h| {
                h.hp = *hp_after;
                h.ep = *ep_after;
            });
        }
        BattleEvent::Fled { who, .. } => {
            with::<Conditions>(world, *who, |c| c.insert(Condition::Fled));
        }
        BattleEvent::TurnEnded { who } => {
            with::<TurnState>(world, *who, |t| {
                t.done = true;
                if !t.aimed_this_turn {
                    t.aim = None;
                }
            });
        }
        BattleEvent::RoundEnded { round } => {
            world.resource_mut::<Battle>().rounds_completed = *round;
        }
        BattleEvent::InitiativeHeld { .. }
        | BattleEvent::FirstTurnGiven { .. }
        | BattleEvent::Activated { .. }
        | BattleEvent::Passed { .. }
        | BattleEvent::SaveRolled { .. }
        | BattleEvent::AttackMissed { .. } => {}
        BattleEvent::AttackMade {
            attacker,
            target,
            weapon_index,
            reaction,
            ..
        } => {
            face(world, *attacker, *target);
            with::<Loadout>(world, *attacker, |l| {
                if let Some(w) = l.weapons.get_mut(*weapon_index)
                    && w.is_ranged()
                    && let Some(s) = w.spare.as_mut()
                {
                    *s = s.saturating_sub(1);
                }
            });
            if !*reaction {
                with::<TurnState>(world, *attacker, |t| t.action_used = true);
            }
        }
        BattleEvent::ReactionTaken { who, .. } => {
            // A reaction takes the character's whole turn for the round.
            with::<TurnState>(world, *who, |t| {
                t.reaction_used = true;
                t.done = true;
            });
        }
        BattleEvent::TargetChanged {
            from, to, swapped, ..
        } => {
            if *swapped && let (Some(a), Some(b)) = (pos(world, *from), pos(world, *to)) {
                with::<Position>(world, *from, |p| p.0 = b);
                with::<Position>(world, *to, |p| p.0 = a);
            }
        }
        BattleEvent::ManeuverMade {
            attacker,
            target,
            reaction,
            ..
        } => {
            face(world, *attacker, *target);
            if !*reaction {
                with::<TurnState>(world, *attacker, |t| t.action_used = true);
            }
        }
        BattleEvent::Grabbed { by, who, .. } => {
            with::<HeldBy>(world, *who, |h| h.0 = Some(*by));
            with::<Conditions>(world, *who, |c| c.insert(Condition::Grabbed));
        }
        BattleEvent::Released { who, .. } => {
            with::<HeldBy>(world, *who, |h| h.0 = None);
            with::<Conditions>(world, *who, |c| c.remove(Condition::Grabbed));
        }
        BattleEvent::Disarmed {
            who,
            index,
            taken_by,
            ..
        } => {
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
                        world
                            .resource_mut::<crate::rules::battle::Ground>()
                            .0
                            .push((at, w));
                    }
                }
                _ => {}
            }
        }
        BattleEvent::Displaced { who, to, .. } => {
            with::<Position>(world, *who, |p| p.0 = *to);
            carry_riders(world, *who, *to);
        }
        BattleEvent::Mounted { who, mount, .. } => {
            if let Some(at) = pos(world, *mount) {
                with::<Position>(world, *who, |p| p.0 = at);
            }
            with::<Riding>(world, *who, |r| r.0 = Some(*mount));
        }
        BattleEvent::Dismounted { who, to, .. } => {
            with::<Riding>(world, *who, |r| r.0 = None);
            with::<Position>(world, *who, |p| p.0 = *to);
        }
        BattleEvent::TurnHandedOver { .. } | BattleEvent::TurnReserved { .. } => {}
        BattleEvent::PickedUp { who, item, .. } => {
            let mut ground = world.resource_mut::<crate::rules::battle::Ground>();
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
        BattleEvent::StuntProposed { .. }
        | BattleEvent::StuntAccepted { .. }
        | BattleEvent::BlastHits { .. }
        | BattleEvent::GearRolled { .. } => {}
        BattleEvent::GearBroken {
            who,
            weapon_index: Some(index),
            ..
        } => {
            with::<Loadout>(world, *who, |l| {
                if *index < l.weapons.len() {
                    l.weapons.remove(*index);
                    l.ready = match l.ready {
                        Some(r) if r == *index => None,
                        Some(r) if r > *index => Some(r - 1),
                        r => r,
                    };
                }
            });
        }
        BattleEvent::GearBroken { .. } => {}
        BattleEvent::BattleEnded { winner, reason } => {
            let mut b = world.resource_mut::<Battle>();
            let rounds = b.round;
            b.outcome = Some(Outcome {
                winner: *winner,
                reason: reason.clone(),
                rounds,
            });
            b.phase = crate::rules::battle::Phase::Over;
            b.prompt = crate::rules::battle::Prompt::None;
        }
    }
}

/// Those who ride `mount`.
fn riders(world: &mut World, mount: Cid) -> Vec<Cid> {
    let mut q = world.query::<(&Cid, &Riding)>();
    q.iter(world)
        .filter(|(_, r)| r.0 == Some(mount))
        .map(|(c, _)| *c)
        .collect()
}

/// Riders move with their mount.
fn carry_riders(world: &mut World, mount: Cid, to: Cell) {
    for r in riders(world, mount) {
        with::<Position>(world, r, |p| p.0 = to);
    }
}

fn widest(a: MoveMode, b: MoveMode) -> MoveMode {
    fn rank(m: MoveMode) -> u8 {
        match m {
            MoveMode::None => 0,
            MoveMode::Step => 1,
            MoveMode::Standard => 2,
            MoveMode::Full => 3,
            MoveMode::Retreat => 4,
        }
    }
    if rank(b) > rank(a) { b } else { a }
}

/// Turn `who` towards `target`.
fn face(world: &mut World, who: Cid, target: Cid) {
    if let (Some(a), Some(t)) = (pos(world, who), pos(world, target))
        && let Some(f) = facing_towards(a, t)
    {
        with::<Heading>(world, who, |h| h.0 = f);
    }
}

fn pos(world: &World, cid: Cid) -> Option<Cell> {
    let e = entity(world, cid)?;
    world.get::<Position>(e).map(|p| p.0)
}

fn with<C: Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    cid: Cid,
    f: impl FnOnce(&mut C),
) {
    if let Some(e) = entity(world, cid)
        && let Some(mut c) = world.get_mut::<C>(e)
    {
        f(&mut c);
    }
}
