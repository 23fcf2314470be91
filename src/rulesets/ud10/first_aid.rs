//! §Performing Actions: "performing a skill action that can be completed
//! within the combat round". Fray's one such action in a fight is first aid
//! on an unconscious ally (docs/rulesets/ud10.md, "First aid"): who may be
//! treated, and the numbers of the check, shared by the check, the preview,
//! the AI and the execution. Reads only.

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition};
use crate::rules::event::Modifier;
use crate::rules::map::Map;
use crate::rules::roster::Roster;
use crate::rules::view;

use super::numbers::reaction_chance;
use super::query::stats;
use super::settings::Ud10Settings;
use super::state::Ud10Turn;

pub const RULE_FIRST_AID: &str =
    "ud10 §Performing Actions: a skill action (Fray decides: first aid)";

/// The numbers of `medic`'s First Aid check.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstAidNumbers {
    /// The First Aid skill, or DEX untrained.
    pub modifiers: Vec<Modifier>,
    /// d10 + the modifiers must reach this.
    pub difficulty: i32,
}

impl FirstAidNumbers {
    pub fn bonus(&self) -> i32 {
        self.modifiers.iter().map(|m| m.value).sum()
    }

    /// The chance that d10 + bonus reaches the difficulty.
    pub fn chance(&self) -> f64 {
        // reaction_chance is "d10 + bonus above `against`": reaching the
        // difficulty is beating one less.
        reaction_chance(self.bonus(), self.difficulty - 1)
    }
}

pub fn numbers(world: &World, medic: Cid) -> FirstAidNumbers {
    let s = stats(world, medic);
    let modifiers = match s.and_then(|s| s.first_aid) {
        Some(skill) => vec![Modifier::new("First Aid skill", skill, RULE_FIRST_AID)],
        None => vec![Modifier::new(
            "untrained (DEX)",
            s.map_or(0, |s| s.dex),
            RULE_FIRST_AID,
        )],
    };
    FirstAidNumbers {
        modifiers,
        difficulty: view::resource::<Ud10Settings>(world).first_aid_difficulty,
    }
}

/// May `patient` still be brought round: an unconscious ally of `medic`,
/// not dead, not brought round before in this battle.
pub fn treatable(world: &World, medic: Cid, patient: Cid) -> Result<(), Illegal> {
    if patient == medic {
        return illegal("first aid is for someone else");
    }
    if view::faction(world, patient) != view::faction(world, medic) {
        return illegal("first aid is for allies");
    }
    let c = view::conditions(world, patient);
    if c.has(Condition::Dead) {
        return illegal("beyond any help: dead");
    }
    if c.has(Condition::Fled) || !c.has(Condition::Unconscious) {
        return illegal("only an unconscious ally needs bringing round");
    }
    if view::get::<Ud10Turn>(world, patient).is_some_and(|t| t.brought_round) {
        return illegal("already brought round once this battle: beyond first aid");
    }
    Ok(())
}

/// [`treatable`], and lying next to the medic.
pub fn check(world: &World, medic: Cid, patient: Cid) -> Result<(), Illegal> {
    treatable(world, medic, patient)?;
    match (view::cell(world, medic), view::cell(world, patient)) {
        (Some(a), Some(b)) if Map::chebyshev(a, b) <= 1 => Ok(()),
        _ => illegal("the patient must lie next to you"),
    }
}

/// The allies `medic` could bring round, wherever they lie.
pub fn patients(world: &World, medic: Cid) -> Vec<Cid> {
    // Only the unconscious can be (asked first, of the roster's places in
    // one look: the AI asks every decision, and most combatants are not).
    let Some(roster) = view::get_resource::<Roster>(world) else {
        return Vec::new();
    };
    roster
        .places()
        .iter()
        .enumerate()
        .filter(|(_, place)| place.conditions.has(Condition::Unconscious))
        .map(|(i, _)| Cid(i as u16))
        .filter(|p| treatable(world, medic, *p).is_ok())
        .collect()
}
