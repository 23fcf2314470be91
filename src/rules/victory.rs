//! The level's victory condition, checked after every battle step.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, BattleRules, VictoryRule};
use crate::rules::event::{BattleEvent, EndReason};
use crate::rules::hooks::ActiveRuleset;
use crate::rules::map::Map;
use crate::rules::roster::Factions;
use crate::rules::view;

/// Factions with at least one combatant still in the fight, as a set of
/// faction ids. Mounts and vehicles do not count: a riderless horse does
/// not carry on the fight.
pub fn standing_factions(world: &World) -> FactionSet {
    // One look at the roster, and no allocation or sorting: this is asked
    // after every step.
    let mut set = FactionSet::default();
    for f in view::fighters(world) {
        set.insert(f);
    }
    set
}

/// A set of faction ids (a bit each).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct FactionSet([u64; 4]);

impl FactionSet {
    pub fn insert(&mut self, f: u8) {
        self.0[usize::from(f >> 6)] |= 1 << (f & 63);
    }

    pub fn contains(&self, f: u8) -> bool {
        self.0[usize::from(f >> 6)] & (1 << (f & 63)) != 0
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// The lowest id in the set.
    pub fn first(&self) -> Option<u8> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| (i * 64) as u8 + w.trailing_zeros() as u8)
    }
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
    let judged = b.judged;
    // Round-based conditions are judged once per completed round.
    let round_due = completed != 0 && completed != judged;
    // Between rounds only whether fewer than two factions stand is asked:
    // the roster is read up to the second faction seen.
    if !round_due {
        let mut fighting = view::fighters(world);
        let first = fighting.next();
        if first.is_some_and(|f| fighting.any(|g| g != f)) {
            return false;
        }
    }
    let standing = standing_factions(world);
    // (The factions counted only then: this is asked after every step.)
    if standing.len() <= 1 && view::resource::<Factions>(world).0.len() > 1 {
        let (winner, reason) = match standing.first() {
            Some(f) => (Some(f), EndReason::LastStanding),
            None => (None, EndReason::NoneStanding),
        };
        emit(world, BattleEvent::BattleEnded { winner, reason });
        return true;
    }
    if !round_due {
        return false;
    }
    let rules = view::resource::<BattleRules>(world).clone();
    view::resource_mut::<Battle>(world).judged = completed;
    match rules.victory {
        VictoryRule::LastStanding => {}
        VictoryRule::Survive { faction, rounds } => {
            if completed >= rounds && standing.contains(faction) {
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

#[cfg(test)]
mod tests {
    use super::FactionSet;

    /// The set answers as a list of the ids put in would, across the
    /// words it keeps them in (ids 0-255).
    #[test]
    fn a_faction_set_holds_what_was_put_in() {
        let mut s = FactionSet::default();
        assert!(s.is_empty());
        assert_eq!((s.len(), s.first()), (0, None));
        for f in [200u8, 3, 64, 3, 255] {
            s.insert(f);
        }
        assert_eq!((s.len(), s.first()), (4, Some(3)));
        for f in 0..=255u8 {
            assert_eq!(s.contains(f), [3, 64, 200, 255].contains(&f), "{f}");
        }
        let mut t = FactionSet::default();
        t.insert(130);
        assert_eq!((t.len(), t.first()), (1, Some(130)));
    }
}
