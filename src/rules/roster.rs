//! Who is in the battle: the factions, and the roster of combatants (ids,
//! entities, names, and each one's [`Place`]: where it stands and what has
//! befallen it), and the names narration gives them.

use bevy::prelude::*;

use crate::rules::components::{Cid, Conditions, Controller, Size, Steed};
use crate::rules::map::Cell;

/// One faction of the battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Faction {
    pub id: String,
    pub name: String,
    pub colour: [u8; 3],
    pub control: Controller,
    pub starts_fight: bool,
}

/// All factions, indexed by [`crate::rules::components::FactionId`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Factions(pub Vec<Faction>);

/// Combatant ids to entities and names, in spawn order, and each one's
/// [`Place`].
#[derive(Resource, Clone, Debug, Default)]
pub struct Roster {
    pub entities: Vec<Entity>,
    pub names: Vec<String>,
    /// Each combatant's faction: set when it joins the roster, never
    /// changed.
    pub factions: Vec<u8>,
    places: Vec<Place>,
    /// Who stands ([`Roster::standing`]) and who belongs to each faction
    /// ([`Roster::members`]), a bit per combatant: the AI asks a
    /// combatant's standing enemies or allies thousands of times a battle,
    /// and a row of bits answers without walking every place. Row 0 is
    /// the standing, row `1 + f` faction `f`'s members, each
    /// [`Roster::words`] long; kept with the places by
    /// [`Roster::update_place`] and [`Roster::push`], the only ways to
    /// change them.
    bits: smallvec::SmallVec<[u64; 8]>,
}

/// Where a combatant stands, what has befallen it, what it rides and
/// whether it can be ridden: what nearly every rule, check and AI weighing
/// asks of every combatant, kept in the roster by [`Cid`] rather than on
/// the entities, so that one look-up reads it. The battle's only copy:
/// only [`apply`](crate::rules::apply) changes it, after the spawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub cell: Cell,
    pub conditions: Conditions,
    /// The mount or vehicle it rides (zones §Mounts and vehicles in
    /// combat): a rider shares its mount's cell and moves with it.
    pub riding: Option<Cid>,
    /// A mount or vehicle: others can ride it. Never changes.
    pub steed: Option<Steed>,
    /// Its size, as the ruleset's data gives it. Never changes.
    pub size: Size,
    /// Who holds it in a grab, if anyone.
    pub held_by: Option<Cid>,
}

impl Roster {
    /// A combatant's place.
    pub fn place(&self, cid: Cid) -> Option<&Place> {
        self.places.get(cid.0 as usize)
    }
    /// Every combatant's place, in roster order.
    pub fn places(&self) -> &[Place] {
        &self.places
    }
    /// Change a combatant's place: for [`apply`](crate::rules::apply)
    /// and the spawn (and tests setting a scene up), nothing else. `None`
    /// when there is no such combatant.
    pub(crate) fn update_place<T>(
        &mut self,
        cid: Cid,
        f: impl FnOnce(&mut Place) -> T,
    ) -> Option<T> {
        let i = cid.0 as usize;
        let answer = f(self.places.get_mut(i)?);
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if self.places[i].conditions.out_of_fight() {
            self.bits[word] &= !bit;
        } else {
            self.bits[word] |= bit;
        }
        Some(answer)
    }
    /// Adds the next combatant: its entity, name, faction and place.
    pub(crate) fn push(&mut self, entity: Entity, name: String, faction: u8, place: Place) {
        self.entities.push(entity);
        self.names.push(name);
        self.factions.push(faction);
        self.places.push(place);
        // Made again whole: the rows grow a word every 64 combatants, and
        // a roster is made once a battle (a batch restores it).
        let words = self.words();
        let rows = 1 + self
            .factions
            .iter()
            .map(|&f| usize::from(f) + 1)
            .max()
            .unwrap_or(0);
        self.bits = smallvec::smallvec![0; rows * words];
        for (i, (p, &f)) in self.places.iter().zip(&self.factions).enumerate() {
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            if !p.conditions.out_of_fight() {
                self.bits[word] |= bit;
            }
            self.bits[(1 + usize::from(f)) * words + word] |= bit;
        }
    }
    /// How many `u64` words a row of [`Roster::standing`] or
    /// [`Roster::members`] holds: a bit per combatant.
    pub fn words(&self) -> usize {
        self.places.len().div_ceil(64)
    }
    /// Who stands (is not [out of the fight](Conditions::out_of_fight)):
    /// bit `i % 64` of word `i / 64` for combatant `i`.
    pub fn standing(&self) -> &[u64] {
        &self.bits[..self.words()]
    }
    /// Faction `f`'s combatants, standing or not, as [`Roster::standing`]
    /// gives them; none for a faction no combatant is of.
    pub fn members(&self, f: u8) -> &[u64] {
        let words = self.words();
        let start = (1 + usize::from(f)) * words;
        self.bits.get(start..start + words).unwrap_or(&[])
    }
    pub fn entity(&self, cid: Cid) -> Option<Entity> {
        self.entities.get(cid.0 as usize).copied()
    }
    pub fn name(&self, cid: Cid) -> &str {
        self.names.get(cid.0 as usize).map_or("?", |s| s.as_str())
    }
    pub fn cids(&self) -> impl Iterator<Item = Cid> + '_ {
        (0..self.entities.len()).map(|i| Cid(i as u16))
    }
    pub fn len(&self) -> usize {
        self.entities.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }
}

/// What narration needs to name things.
pub struct Names<'a> {
    pub roster: &'a Roster,
    pub factions: &'a Factions,
}

impl Names<'_> {
    pub fn who(&self, c: Cid) -> &str {
        self.roster.name(c)
    }
    pub fn faction(&self, f: u8) -> &str {
        self.factions
            .0
            .get(f as usize)
            .map_or("?", |f| f.name.as_str())
    }
}

/// Despawn every combatant of the battle in `world`.
pub fn despawn_combatants(world: &mut World) {
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<Cid>>()
        .iter(world)
        .collect();
    for e in old {
        world.despawn(e);
    }
}
