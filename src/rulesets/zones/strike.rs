//! Can this attacker strike that target now (§Attacking, §Ranged
//! attacks, §Sneaking in combat, §Mounts and vehicles)? The check of an
//! attack, a counter, an opportunity attack and a shared-out attack, and
//! the AI's cheap "may strike" asked for many targets. Read only; below
//! `check.rs`, which asks it for every attack command.

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition, Conditions, Loadout, Weapon};
use crate::rules::view;
use crate::rulesets::zones::weapon::ZonesGear;

use super::modes::{MODE_DEATH_BLOW, is_stunt};
use super::query::{melee_reach_from, nearby, range_against, visible, zone_distance};

/// Is `target` still there to be attacked, and known to its enemies?
pub fn check_target(world: &World, target: Cid) -> Result<(), Illegal> {
    target_conditions(view::conditions(world, target))
}

/// [`check_target`] on the target's conditions, already read.
fn target_conditions(tc: Conditions) -> Result<(), Illegal> {
    if tc.has(Condition::Dead) || tc.has(Condition::Fled) {
        return illegal("no longer in the fight");
    }
    if tc.has(Condition::Concealed) {
        return illegal("concealed: its enemies don't know where it is");
    }
    Ok(())
}

/// Can `who` strike `target` with weapon `index` in `mode` now?
/// `reaction`: a counter or opportunity attack (no action spent).
pub fn check_strike(
    world: &World,
    who: Cid,
    target: Cid,
    index: usize,
    mode: usize,
    reaction: bool,
) -> Result<(), Illegal> {
    let Some(striker) = Striker::of(world, who) else {
        return illegal("no such weapon");
    };
    let strike = Strike {
        target,
        index,
        mode,
        reaction,
        drawn: false,
    };
    match striker.refusal(world, strike) {
        None => Ok(()),
        Some(r) => Err(r.words(striker.loadout.weapons.get(index))),
    }
}

/// Does [`check_strike`] let `strike` by `who` through? Its reasons are
/// not written out: the AI asks this of weapon after weapon.
pub fn may_strike(world: &World, who: Cid, strike: Strike) -> bool {
    Striker::of(world, who).is_some_and(|s| s.may(world, strike))
}

/// A strike the check is asked about: on `target` with weapon `index` in
/// `mode`; `reaction`: a counter or opportunity attack (no action spent);
/// `drawn`: judged as if the weapon were in hand (the AI weighing a draw
/// first).
#[derive(Clone, Copy, Debug)]
pub struct Strike {
    pub target: Cid,
    pub index: usize,
    pub mode: usize,
    pub reaction: bool,
    pub drawn: bool,
}

/// What the strike check reads of the striker, looked up once: the AI
/// weighs every weapon against every enemy.
pub struct Striker<'w> {
    who: Cid,
    loadout: &'w Loadout,
    vehicle: bool,
    faction: Option<u8>,
    mount: bool,
    /// Its zone: a melee blow reaches the enemies in it.
    zone: Option<usize>,
}

impl<'w> Striker<'w> {
    /// `None` when `who` carries nothing (no such weapon).
    pub fn of(world: &'w World, who: Cid) -> Option<Striker<'w>> {
        Some(Striker {
            who,
            loadout: view::get::<Loadout>(world, who)?,
            vehicle: super::turns::is_vehicle(world, who),
            faction: view::faction(world, who),
            mount: view::steed(world, who).is_some(),
            zone: super::query::zone(world, who),
        })
    }

    /// What it carries.
    pub fn loadout(&self) -> &'w Loadout {
        self.loadout
    }
}

/// Why [`check_strike`] refuses a strike; the words naming the weapon
/// or the distance written only when asked for.
enum Refusal {
    Said(Illegal),
    NotInHand,
    NoAmmunition,
    OutOfRange { dist: u32, range: u32 },
}

impl Refusal {
    fn words(self, w: Option<&Weapon>) -> Illegal {
        let name = w.map_or("weapon", |w| &*w.name);
        match self {
            Refusal::Said(i) => i,
            Refusal::NotInHand => Illegal(format!("the {name} is not in hand").into()),
            Refusal::NoAmmunition => Illegal(format!("no ammunition left for the {name}").into()),
            Refusal::OutOfRange { dist, range } => {
                Illegal(format!("out of range: {dist} zones, range {range}").into())
            }
        }
    }
}

impl Striker<'_> {
    /// Does the strike check let `strike` through? (Its reasons not
    /// written out: the AI weighs every weapon against every enemy.)
    pub fn may(&self, world: &World, strike: Strike) -> bool {
        self.may_reaching(world, strike, None)
    }

    /// Does a blow that shoots nothing, struck now, reach `target`: nearby,
    /// or one zone off for a massive striker (the strike check's question
    /// for such a weapon)?
    pub fn reaches(&self, world: &World, target: Cid) -> bool {
        melee_reach_from(world, self.who, self.zone, target)
    }

    /// [`Striker::may`], with what [`Striker::reaches`] answers for the
    /// target when it is known already (the AI weighs weapon after weapon
    /// against each enemy): the same answer.
    pub fn may_reaching(&self, world: &World, strike: Strike, reaches: Option<bool>) -> bool {
        // A blow with a weapon that shoots nothing reaches only the enemies
        // in melee reach: the check's last question, and the one that turns
        // away most of the AI's weighing. Asked first, the answer is the
        // same, for less.
        let melee = self
            .loadout
            .weapons
            .get(strike.index)
            .is_some_and(|w| !w.is_ranged());
        debug_assert!(
            !melee || reaches.is_none_or(|r| r == self.reaches(world, strike.target)),
            "a reach handed to the strike check is not its own answer"
        );
        let reaches = match reaches {
            Some(r) => Some(r),
            None if melee => Some(self.reaches(world, strike.target)),
            None => None,
        };
        if melee && reaches == Some(false) {
            return false;
        }
        strike_refusal(world, self, strike, reaches).is_none()
    }

    /// The first reason the strike check refuses `strike`, if any.
    fn refusal(&self, world: &World, strike: Strike) -> Option<Refusal> {
        strike_refusal(world, self, strike, None)
    }
}

/// The strike check's refusal of `strike` by `striker`; `reaches`: what
/// [`Striker::reaches`] answers for its target, when known.
fn strike_refusal(
    world: &World,
    striker: &Striker,
    strike: Strike,
    reaches: Option<bool>,
) -> Option<Refusal> {
    let Strike {
        target,
        index,
        mode,
        reaction,
        drawn,
    } = strike;
    let no = |why: &'static str| Some(Refusal::Said(Illegal(why.into())));
    let (who, l) = (striker.who, striker.loadout);
    let Some(w) = l.weapons.get(index) else {
        return no("no such weapon");
    };
    if striker.vehicle {
        return no("a vehicle does not attack");
    }
    let unarmed = index + 1 == l.weapons.len();
    if !unarmed && !drawn && l.ready != Some(index) {
        return Some(Refusal::NotInHand);
    }
    if striker.faction == view::faction(world, target) {
        return no("not an enemy");
    }
    let tc = view::conditions(world, target);
    if let Err(e) = target_conditions(tc) {
        return Some(Refusal::Said(e));
    }
    if mode >= w.mode_count() {
        return no("no such attack");
    }
    if is_stunt(mode) {
        if striker.mount {
            return no("a mount offers no terms");
        }
        if reaction {
            return no("a stunt is proposed with an attack of your own");
        }
        if w.zones().blast {
            return no("a stunt is proposed to a single target, not a blast");
        }
        if tc.out_of_fight() {
            return no("they are out of the fight already");
        }
    }
    if mode == MODE_DEATH_BLOW {
        if reaction {
            return no("a death blow is not a reaction");
        }
        if !tc.has(Condition::Incapacitated) || !nearby(world, who, target) {
            return no("a death blow needs a nearby incapacitated target");
        }
    }
    if w.is_ranged() {
        if w.spare == Some(0) {
            return Some(Refusal::NoAmmunition);
        }
        if !visible(world, who, target) {
            return no("a ranged attack needs a visible target");
        }
        let dist = zone_distance(world, who, target).unwrap_or(u32::MAX);
        let range = range_against(world, who, target, w);
        if dist > range {
            return Some(Refusal::OutOfRange { dist, range });
        }
        let moved = !reaction && super::turns::moved_this_turn(world, who);
        if moved && 2 * dist > range {
            return no("beyond half range while moving");
        }
    } else if !reaches.unwrap_or_else(|| melee_reach_from(world, who, striker.zone, target)) {
        return no("melee attacks only reach nearby enemies (the same zone)");
    }
    None
}
