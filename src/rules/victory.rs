//! The level's victory condition, checked after every battle step.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, BattleRules, VictoryRule};
use crate::rules::event::{BattleEnded, BattleEvent, EndReason};
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
    // Between rounds only whether fewer than two factions stand is asked.
    if !round_due && two_factions_fight(world) {
        return false;
    }
    let standing = standing_factions(world);
    if end_if_one_stands(world, standing) {
        return true;
    }
    if !round_due {
        return false;
    }
    let rules = view::resource::<BattleRules>(world).clone();
    view::write::resource_mut::<Battle>(world).judged = completed;
    let ended = match rules.victory {
        VictoryRule::LastStanding => false,
        VictoryRule::Survive { faction, rounds } => {
            end_if_survived(world, standing, completed, faction, rounds)
        }
        VictoryRule::HoldZone {
            faction,
            zone,
            rounds,
        } => end_if_zone_held(world, &rules, faction, zone, rounds),
    };
    ended || end_at_round_limit(world, completed, rules.max_rounds)
}

/// Do two factions still fight? The roster is read up to the second
/// faction seen.
fn two_factions_fight(world: &World) -> bool {
    let mut fighting = view::fighters(world);
    let first = fighting.next();
    first.is_some_and(|f| fighting.any(|g| g != f))
}

/// The battle ends when one faction stands, or none, of several.
fn end_if_one_stands(world: &mut World, standing: FactionSet) -> bool {
    // (The factions counted only then: this is asked after every step.)
    if standing.len() <= 1 && view::resource::<Factions>(world).0.len() > 1 {
        let (winner, reason) = match standing.first() {
            Some(f) => (Some(f), EndReason::LastStanding),
            None => (None, EndReason::NoneStanding),
        };
        emit(
            world,
            BattleEvent::BattleEnded(BattleEnded { winner, reason }),
        );
        return true;
    }
    false
}

/// `Survive`: the faction wins when it still stands after its rounds.
fn end_if_survived(
    world: &mut World,
    standing: FactionSet,
    completed: u32,
    faction: u8,
    rounds: u32,
) -> bool {
    if completed >= rounds && standing.contains(faction) {
        emit(
            world,
            BattleEvent::BattleEnded(BattleEnded {
                winner: Some(faction),
                reason: EndReason::Survived { rounds },
            }),
        );
        return true;
    }
    false
}

/// `HoldZone`: a round counts as held when the faction stands in the zone
/// and no other does; the faction wins after its rounds held in a row.
fn end_if_zone_held(
    world: &mut World,
    rules: &BattleRules,
    faction: u8,
    zone: usize,
    rounds: u32,
) -> bool {
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
    view::write::resource_mut::<BattleRules>(world).held_rounds = held;
    if held >= rounds {
        let name = map
            .zones()
            .get(zone)
            .map_or(String::new(), |z| z.name.clone());
        emit(
            world,
            BattleEvent::BattleEnded(BattleEnded {
                winner: Some(faction),
                reason: EndReason::HeldZone { zone: name, rounds },
            }),
        );
        return true;
    }
    false
}

/// A draw once the level's last round is over.
fn end_at_round_limit(world: &mut World, completed: u32, max_rounds: u32) -> bool {
    if completed >= max_rounds {
        emit(
            world,
            BattleEvent::BattleEnded(BattleEnded {
                winner: None,
                reason: EndReason::RoundLimit { rounds: completed },
            }),
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
