//! §Mounts and vehicles in combat.
//!
//! "Mounts and riders, as well as vehicles and passengers, take turn
//! together. Individual mounts, riders, and passengers can choose not to do
//! anything and reserve their turn to react. If the mount or vehicle moves at
//! full speed, riders and passengers can't take any action nor react.
//!
//! Mounts, vehicles, riders, and passengers are targeted individually by
//! enemy attacks. Attacks made by riders and passengers are impaired.
//!
//! Mounting or dismounting, or getting on or on off a vehicle, counts as
//! moving half a zone. If the mount or vehicle is moving, an AGI save is
//! required to avoid falling, suffering d4 direct damage."
//!
//! Fray decides (written in `docs/rulesets/zones.md`):
//! - a pair's turn passes from one member to the next as each ends its part
//!   (`end_turn`), and a member may hand it over and take it back
//!   (`Activate` during the turn); riders cannot move on their own, their
//!   mount carries them;
//! - a rider who acts keeps its mount to half speed, as a mount at full speed
//!   leaves its riders no action;
//! - a mount "is moving" once it has crossed a zone border in this turn;
//! - a vehicle moves only with someone aboard, and never attacks or reacts;
//! - a mount that goes down throws its riders (the AGI save against the
//!   fall); a grabbed rider is pulled down and a shoved one pushed off, with
//!   the same save; riders who are out of the fight slide off;
//! - mounts and vehicles count neither for victory nor for morale.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition};
use crate::rules::event::{BattleEvent, Dismounted, Mounted};
use crate::rules::map::Cell;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::zones::event::{
    CarriedFast, HalfZoneSpent, JoinsTurn, PairTurn, TurnHandedOver, ZonesEvent,
};

use super::modes::impaired;
use super::query::stats;
use super::riders::{RULE_MOUNTS, landing_near};
use super::save::save;
use super::state::{TurnBudget, ZonesRound};
use super::turns::{budget_of, carried_fast, moving, standing_riders};

/// After `mount` moved: beyond half speed, its riders lose their actions and
/// reactions for the round.
pub fn after_mount_moved(world: &mut Scene, mount: Cid) {
    let half = stats(world, mount).map_or(1, |s| s.half_speed());
    let fast = budget_of(world, mount).is_some_and(|b| b.beyond(half));
    if !fast {
        return;
    }
    let riders: Vec<Cid> = standing_riders(world, mount)
        .into_iter()
        .filter(|c| !carried_fast(world, *c))
        .collect();
    if !riders.is_empty() {
        emit(
            world,
            ZonesEvent::CarriedFast(CarriedFast {
                riders,
                rule: RULE_MOUNTS,
            }),
        );
    }
}

/// Get on: half a zone of movement; an AGI save if the mount is moving, a
/// fall (d4 direct damage) on a failure.
pub fn mount(world: &mut Scene, who: Cid, mount: Cid) {
    half_zone(world, who);
    if moving(world, mount) && !fall_save(world, who, "to get on a moving mount") {
        return;
    }
    emit(
        world,
        BattleEvent::Mounted(Mounted {
            who,
            mount,
            rule: RULE_MOUNTS,
        }),
    );
    // The two now take the turn together: a mount that has not had its turn
    // this round goes on with it.
    let joins = super::check::turn_left(world, mount)
        && budget_of(world, mount).is_none()
        && !view::resource::<ZonesRound>(world)
            .reserved
            .contains(&mount);
    if joins {
        emit(
            world,
            ZonesEvent::JoinsTurn(JoinsTurn {
                who: mount,
                rule: RULE_MOUNTS,
            }),
        );
    }
}

/// "Mounting or dismounting ... counts as moving half a zone."
fn half_zone(world: &mut Scene, who: Cid) {
    emit(
        world,
        ZonesEvent::HalfZoneSpent(HalfZoneSpent {
            who,
            rule: RULE_MOUNTS,
        }),
    );
}

/// Get off onto `to`: half a zone of movement; an AGI save if the mount is
/// moving, d4 direct damage on a failure (the rider lands all the same).
pub fn dismount(world: &mut Scene, who: Cid, to: Cell) {
    let Some(mount) = view::riding(world, who) else {
        return;
    };
    half_zone(world, who);
    get_off(world, who, mount, to, false);
    if moving(world, mount) {
        fall_save(world, who, "to get off a moving mount");
    }
}

fn get_off(world: &mut Scene, who: Cid, mount: Cid, to: Cell, thrown: bool) {
    emit(
        world,
        BattleEvent::Dismounted(Dismounted {
            who,
            mount,
            to,
            thrown,
            rule: RULE_MOUNTS,
        }),
    );
}

/// The AGI save against a fall; on a failure, d4 direct damage. True when
/// it passes.
fn fall_save(world: &mut Scene, who: Cid, purpose: &'static str) -> bool {
    let agi = stats(world, who).map_or(0, |s| s.agi);
    if save(world, who, "AGI", agi, purpose, RULE_MOUNTS) {
        return true;
    }
    super::blow::direct_damage(world, who, None, &impaired(), RULE_MOUNTS);
    false
}

/// `rider` comes off its mount against its will, onto `to`: the AGI save
/// against the fall, unless it is out of the fight already.
pub fn throw_off(world: &mut Scene, rider: Cid, to: Cell) {
    let Some(mount) = view::riding(world, rider) else {
        return;
    };
    get_off(world, rider, mount, to, true);
    if view::standing(world, rider) {
        fall_save(world, rider, "to land on their feet");
    }
}

/// Riders whose mount is out of the fight are thrown; riders who are out of
/// the fight slide off.
pub fn tidy_riders(world: &mut Scene) {
    // Only riders can be thrown: found in one look at the roster (this runs
    // every step; nobody becomes a rider on the way).
    for rider in view::all_riding(world) {
        let Some(mount) = view::riding(world, rider) else {
            continue;
        };
        let rider_down = !view::standing(world, rider);
        let mount_down = !view::standing(world, mount);
        if !rider_down && !mount_down {
            continue;
        }
        let gone = view::conditions(world, rider).has(Condition::Fled);
        if gone {
            continue;
        }
        let Some(at) = view::cell(world, mount) else {
            continue;
        };
        let to = landing_near(world, at, None);
        if view::conditions(world, rider).has(Condition::Surrendered) {
            // Giving up: it gets down, with no fall.
            get_off(world, rider, mount, to, false);
        } else {
            throw_off(world, rider, to);
        }
    }
}

/// `to` goes on with the pair's turn; `from` may take it back later.
pub fn hand_over(world: &mut Scene, from: Cid, to: Cid) {
    let (acting, others) = {
        let r = view::resource::<ZonesRound>(world);
        let Some(i) = r.team.iter().position(|b| b.who == Some(to)) else {
            return;
        };
        let mut others = r.team.clone();
        let acting = others.remove(i);
        others.insert(0, r.turn.clone());
        (acting, others)
    };
    take_turn(world, from, to, acting, others);
}

/// `to` acts now for the pair (`acting` its budget), the `others` after.
fn take_turn(world: &mut Scene, from: Cid, to: Cid, acting: TurnBudget, others: Vec<TurnBudget>) {
    emit(
        world,
        ZonesEvent::PairTurn(PairTurn {
            acting,
            others,
            rule: RULE_MOUNTS,
        }),
    );
    // Its apply gives `to` the prompt.
    emit(
        world,
        ZonesEvent::TurnHandedOver(TurnHandedOver {
            from,
            to,
            rule: RULE_MOUNTS,
        }),
    );
}

/// `who` has ended its part of the turn: give it to the next standing one
/// of its pair who has not yet. False when none is left (the turn's end
/// clears the pair).
pub fn next_of_pair(world: &mut Scene, who: Cid) -> bool {
    let mut others = view::resource::<ZonesRound>(world).team.clone();
    while !others.is_empty() {
        let next = others.remove(0);
        let Some(to) = next.who else { continue };
        let reserved = view::resource::<ZonesRound>(world).reserved.contains(&to);
        if !view::standing(world, to) || reserved || !super::check::turn_left(world, to) {
            continue;
        }
        take_turn(world, who, to, next, others);
        return true;
    }
    false
}
