//! The level's victory condition, checked after every battle step.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{ActiveRuleset, Battle, BattleRules, Factions, VictoryRule};
use crate::rules::event::{BattleEvent, EndReason};
use crate::rules::map::Map;
use crate::rules::view;

/// Factions with at least one combatant still in the fight. Mounts and
/// vehicles do not count: a riderless horse does not carry on the fight.
pub fn standing_factions(world: &World) -> smallvec::SmallVec<[u8; 8]> {
    // One look at the roster, and no allocation: this is asked after every
    // step.
    let Some(roster) = view::get_resource::<crate::rules::battle::Roster>(world) else {
        return smallvec::SmallVec::new();
    };
    let mut f: smallvec::SmallVec<[u8; 8]> = roster
        .places()
        .iter()
        .zip(&roster.factions)
        .filter(|(p, _)| !p.conditions.out_of_fight() && p.steed.is_none())
        .map(|(_, f)| *f)
        .collect();
    f.sort_unstable();
    f.dedup();
    f
}

/// The victory check; when it ends the battle, the ruleset's aftermath
/// (what happens after a fight, such as zones' gear degradation).
pub fn victory_step(world: &mut World) {
    if check_victory(world)
        && let Some(hooks) = view::get_resource::<ActiveRuleset>(world).map(|h| h.0)
    {
        (hooks.aftermath)(world);
    }
}

/// Judge the level's victory condition; whether it ended the battle now.
pub fn check_victory(world: &mut World) -> bool {
    let b = view::resource::<Battle>(world);
    if b.is_over() || b.ruleset.is_none() {
        return false;
    }
    let completed = b.rounds_completed;
    let standing = standing_factions(world);
    let nfactions = view::resource::<Factions>(world).0.len();
    if standing.len() <= 1 && nfactions > 1 {
        let (winner, reason) = match standing.first() {
            Some(&f) => (Some(f), EndReason::LastStanding),
            None => (None, EndReason::NoneStanding),
        };
        emit(world, BattleEvent::BattleEnded { winner, reason });
        return true;
    }
    // Round-based conditions are judged once per completed round.
    let held_checked = view::resource::<BattleRules>(world).held_checked;
    if completed == 0 || completed == held_checked {
        return false;
    }
    let rules = view::resource::<BattleRules>(world).clone();
    view::resource_mut::<BattleRules>(world).held_checked = completed;
    match rules.victory {
        VictoryRule::LastStanding => {}
        VictoryRule::Survive { faction, rounds } => {
            if completed >= rounds && standing.contains(&faction) {
                emit(
                    world,
                    BattleEvent::BattleEnded {
                        winner: Some(faction),
                        reason: EndReason::Survived { rounds },
                    },
                );
                return true;
            }
        }
        VictoryRule::HoldZone {
            faction,
            zone,
            rounds,
        } => {
            let map = view::resource::<Map>(world).clone();
            let mut ours = false;
            let mut theirs = false;
            for c in view::standing_all(world) {
                if view::cell(world, c).and_then(|p| map.zone_of(p)) == Some(zone) {
                    if view::faction(world, c) == Some(faction) {
                        ours = true;
                    } else {
                        theirs = true;
                    }
                }
            }
            let held = if ours && !theirs {
                rules.held_rounds + 1
            } else {
                0
            };
            view::resource_mut::<BattleRules>(world).held_rounds = held;
            if held >= rounds {
                let name = map
                    .zones()
                    .get(zone)
                    .map_or(String::new(), |z| z.name.clone());
                emit(
                    world,
                    BattleEvent::BattleEnded {
                        winner: Some(faction),
                        reason: EndReason::HeldZone { zone: name, rounds },
                    },
                );
                return true;
            }
        }
    }
    if completed >= rules.max_rounds {
        emit(
            world,
            BattleEvent::BattleEnded {
                winner: None,
                reason: EndReason::RoundLimit { rounds: completed },
            },
        );
        return true;
    }
    false
}
