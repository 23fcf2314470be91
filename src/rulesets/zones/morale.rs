//! §Morale and §Surrendering.
//!
//! "Groups must make a morale check if they were reduced to half or less
//! their original numbers in the past round. Characters fighting alone must
//! make a morale check if they were reduced to half or less their maximum
//! health in the past round. Make a group WIT save: those who fail must
//! surrender or retreat, but those who pass aren't subject to morale for the
//! remainder of the stretch. Characters who are immune to fear are also
//! immune to morale."

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Health};
use crate::rules::event::{BattleEvent, ConditionAdded, ConditionRemoved};
use crate::rules::roster::Factions;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;

use super::query::{standing_per_faction, stats};
use super::save::save;
use super::settings::ZonesSettings;
use super::state::ZonesRound;

pub const RULE_MORALE: &str = "zones §Morale";
pub const RULE_SURRENDER: &str = "zones §Surrendering";

/// Which characters must make a morale check this round end, and why.
pub fn who_checks(world: &World) -> Vec<Cid> {
    let r = view::resource::<ZonesRound>(world);
    let now = standing_per_faction(world);
    let nfactions = view::resource::<Factions>(world).0.len();
    let mut out = Vec::new();
    for f in 0..nfactions {
        let original = r.original.get(f).copied().unwrap_or(0);
        let at_start = r.start_standing.get(f).copied().unwrap_or(0);
        let standing = now.get(f).copied().unwrap_or(0);
        // Mounts and vehicles follow their riders (Fray decides).
        let members: Vec<Cid> = view::standing_all(world)
            .into_iter()
            .filter(|c| view::faction(world, *c) == Some(f as u8))
            .filter(|c| view::steed(world, *c).is_none())
            .collect();
        let triggered = if original > 1 {
            // A group: reduced to half or less of its original numbers,
            // this round.
            2 * standing <= original && 2 * at_start > original
        } else {
            // Fighting alone: reduced to half or less of maximum health,
            // this round.
            members.iter().any(|c| {
                let h = view::get::<Health>(world, *c).copied();
                let before = r.start_health.get(c.0 as usize).copied().unwrap_or(0);
                h.is_some_and(|h| 2 * h.hp <= h.hp_max && 2 * before > h.hp_max)
            })
        };
        if !triggered {
            continue;
        }
        out.extend(members.into_iter().filter(|c| {
            let conds = view::conditions(world, *c);
            !conds.has(Condition::Steadfast)
                && !conds.has(Condition::Broken)
                && !stats(world, *c).is_some_and(|s| s.fearless)
        }));
    }
    out
}

/// The end-of-round morale checks.
pub fn check(world: &mut Scene) {
    if !view::resource::<ZonesSettings>(world).morale {
        return;
    }
    for c in who_checks(world) {
        let wit = stats(world, c).map_or(0, |s| s.wit);
        let pass = save(world, c, "WIT", wit, "for morale", RULE_MORALE);
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who: c,
                condition: if pass {
                    Condition::Steadfast
                } else {
                    Condition::Broken
                },
                rule: RULE_MORALE,
            }),
        );
    }
}

/// "Surrendering characters who are harmed by the enemy can resume fighting
/// normally, even if they previously failed a morale check."
pub fn harmed(world: &mut Scene, who: Cid) {
    let conds = view::conditions(world, who);
    for c in [Condition::Surrendered, Condition::Broken] {
        if conds.has(Condition::Surrendered) && conds.has(c) {
            emit(
                world,
                BattleEvent::ConditionRemoved(ConditionRemoved {
                    who,
                    condition: c,
                    rule: RULE_SURRENDER,
                }),
            );
        }
    }
}
