//! Is a command legal now? One check for the player, the AI and the
//! execution: what each phase of the round allows (§5.2–5.4), binding the
//! action to its statement of intent, and the reactions (§5.6–5.7).

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::command::{Command, Illegal, illegal};
use crate::rules::components::{Cid, Health, Loadout};
use crate::rules::map::{Cell, Map};
use crate::rules::view;

use super::command::{BrpCommand, Intent};
use super::matrix::Defense;
use super::numbers::{attack_numbers, defenses};
use super::query::{move_left, round, settings};
use super::state::PendingAttack;
use super::stats::{Wounds, gear};

/// [`check`] as a type: what the core asks (`Ruleset::Check`) and the AI
/// asks of the command it settles on, one answer for both
/// (`command::Decision`).
pub struct Legality;

impl crate::rules::command::LegalityCheck for Legality {
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
        check(world, actor, command)
    }
}

pub fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    let b = view::resource::<Battle>(world);
    if b.is_over() {
        return illegal("the battle is over");
    }
    match b.prompt {
        Prompt::React { actor: a, .. } if a == actor => check_reaction(world, actor, command),
        // Fray decides (docs/rulesets/brp.md, "Readying"): no draw of its
        // own; the player's Tab hears why.
        Prompt::Act { actor: a } if a == actor && matches!(command, Command::Draw { .. }) => {
            illegal(
                "under brp a weapon is readied as part of attacking with it: state an attack with it",
            )
        }
        Prompt::Act { actor: a } if a == actor => match b.phase {
            Phase::Intent => check_statement(world, actor, command),
            Phase::Movement => check_movement(world, actor, command),
            Phase::Actions => check_action(world, actor, command),
            _ => illegal("nothing to do in this phase"),
        },
        _ => illegal("not this combatant's turn"),
    }
}

/// §5.2: the statement of intent; nothing else is done in this phase.
fn check_statement(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    match command.own::<BrpCommand>() {
        Some(BrpCommand::Declare(intent)) => check_intent(world, actor, intent),
        _ => illegal("state your intent first (§5.2)"),
    }
}

/// §5.2: can `actor` state `intent` now: a standing enemy to attack with a
/// weapon it carries (and can use), a wounded ally to tend (§5.14), a
/// weapon to reload (§5.9)?
pub fn check_intent(world: &World, actor: Cid, intent: &Intent) -> Result<(), Illegal> {
    if view::steed(world, actor).is_some_and(|s| s.vehicle) && *intent != Intent::Defend {
        return illegal("a vehicle does nothing but move");
    }
    match *intent {
        Intent::Attack { target, weapon } => {
            enemy(world, actor, target)?;
            usable(world, actor, weapon)
        }
        // An ally who may fall before the medic's rank comes: the wound
        // is checked when First Aid is given (§5.14: "a character who has
        // been reduced to 0 hit points in a round of combat may be saved").
        Intent::FirstAid { patient } => ally_in_reach_of_help(world, actor, patient),
        Intent::Reload { weapon } => reloadable(world, actor, weapon),
        Intent::Defend => Ok(()),
    }
}

fn enemy(world: &World, actor: Cid, target: Cid) -> Result<(), Illegal> {
    if !view::is_enemy(world, actor, target) {
        return illegal("not a standing enemy");
    }
    Ok(())
}

/// §5.9: a carried weapon that can attack now: loaded, if it must be
/// (crossbows, firearms and lasers hold their shots).
fn usable(world: &World, actor: Cid, index: usize) -> Result<(), Illegal> {
    let Some(w) = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(index)) else {
        return illegal("no such weapon");
    };
    if gear(w).is_none() {
        return illegal("not a brp weapon");
    }
    if w.magazine > 0 && w.loaded == 0 {
        return illegal(format!("the {} must be reloaded first", w.name));
    }
    Ok(())
}

/// §5.9: a weapon that holds shots, not full, with shots to load.
fn reloadable(world: &World, actor: Cid, index: usize) -> Result<(), Illegal> {
    let Some(w) = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(index)) else {
        return illegal("no such weapon");
    };
    if w.magazine == 0 {
        return illegal(format!("the {} needs no reloading", w.name));
    }
    if w.loaded >= w.magazine {
        return illegal(format!("the {} is loaded", w.name));
    }
    if w.spare == Some(0) {
        return illegal("no ammunition left");
    }
    Ok(())
}

/// First Aid is a skill of characters, given to characters: not by nor to
/// a mount or a vehicle (docs/rulesets/brp.md, "Mounts and vehicles").
fn beasts_neither(world: &World, actor: Cid, patient: Cid) -> Result<(), Illegal> {
    if view::steed(world, actor).is_some() {
        return illegal("a mount or vehicle gives no First Aid");
    }
    if view::steed(world, patient).is_some() {
        return illegal("First Aid is for characters, not mounts or vehicles");
    }
    Ok(())
}

/// An ally (not oneself) still in the battle.
fn ally_in_reach_of_help(world: &World, actor: Cid, patient: Cid) -> Result<(), Illegal> {
    if patient == actor || view::faction(world, patient) != view::faction(world, actor) {
        return illegal("First Aid is for an ally");
    }
    beasts_neither(world, actor, patient)?;
    let c = view::conditions(world, patient);
    if c.has(crate::rules::components::Condition::Dead)
        || c.has(crate::rules::components::Condition::Fled)
    {
        return illegal("beyond help");
    }
    Ok(())
}

/// §5.14: a wounded ally (not oneself) with an injury First Aid has not
/// been applied to.
fn patient_ok(world: &World, actor: Cid, patient: Cid) -> Result<(), Illegal> {
    if patient == actor || view::faction(world, patient) != view::faction(world, actor) {
        return illegal("First Aid is for a wounded ally");
    }
    beasts_neither(world, actor, patient)?;
    let c = view::conditions(world, patient);
    if c.has(crate::rules::components::Condition::Dead)
        || c.has(crate::rules::components::Condition::Fled)
    {
        return illegal("beyond help");
    }
    if !treatable(world, patient) {
        return illegal("no injury left that First Aid can treat (once per injury)");
    }
    Ok(())
}

/// Has `patient` an injury First Aid can still treat (§5.14: "An injury
/// may have First Aid applied to it only once")?
pub fn treatable(world: &World, patient: Cid) -> bool {
    let hurt = view::get::<Health>(world, patient).is_some_and(|h| h.hp < h.hp_max);
    hurt && view::get::<Wounds>(world, patient).is_some_and(|w| w.untreated().next().is_some())
}

/// §5.3: movement, within what is left of the round's.
fn check_movement(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    match (command, command.own::<BrpCommand>()) {
        (Command::EndTurn, _) => Ok(()),
        (Command::Move { path }, _) => check_move(world, actor, path).map(|_| ()),
        (_, Some(BrpCommand::Kneel)) => check_kneel(world, actor),
        _ => illegal("only movement now (§5.3); actions come on DEX rank"),
    }
}

/// §5.11: kneeling helps behind a large (hoplite or riot) shield.
pub fn check_kneel(world: &World, actor: Cid) -> Result<(), Illegal> {
    use crate::rules::components::Condition;
    if view::conditions(world, actor).has(Condition::Crouching) {
        return illegal("already kneeling");
    }
    match view::get::<super::stats::BrpShield>(world, actor) {
        Some(s) if s.class == super::data::ShieldClass::Large => Ok(()),
        _ => illegal("kneeling helps only behind a large shield (§5.11)"),
    }
}

/// §5.3: a path of adjacent free cells within the movement left; its cost.
pub fn check_move(world: &World, actor: Cid, path: &[Cell]) -> Result<u32, Illegal> {
    let Some(start) = view::cell(world, actor) else {
        return illegal("not on the map");
    };
    // Fray decides (docs/rulesets/brp.md, "Mounts and vehicles"): a rider
    // goes where its mount goes; a vehicle goes only with someone aboard.
    if let Some(mount) = view::riding(world, actor) {
        return illegal(format!(
            "rides {}: it moves with its mount",
            view::name(world, mount)
        ));
    }
    if view::steed(world, actor).is_some_and(|s| s.vehicle)
        && !view::riders(world, actor)
            .iter()
            .any(|r| view::standing(world, *r))
    {
        return illegal("a vehicle moves only with someone aboard");
    }
    if path.is_empty() {
        return illegal("an empty path");
    }
    let Some(cost) = view::resource::<Map>(world).path_cost(start, path) else {
        return illegal("not a path of adjacent passable cells");
    };
    let occ = view::occupied(world, Some(actor));
    if let Some(c) = path.iter().find(|c| occ.binary_search(c).is_ok()) {
        return illegal(format!("{c} is occupied"));
    }
    let left = move_left(world, actor);
    if cost > left {
        return illegal(format!(
            "{:.1} m is more than the {:.1} m left this round",
            f64::from(cost) / 10.0,
            f64::from(left) / 10.0
        ));
    }
    Ok(cost)
}

/// §5.4: the action, on the actor's rank; bound by its statement of intent
/// (docs/rulesets/brp.md, "Binding statements").
fn check_action(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    let declared = round(world).declared(actor);
    let bound = settings(world).statement_of_intent;
    match (command, command.own::<BrpCommand>()) {
        (Command::EndTurn, _) => Ok(()),
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => {
            if *mode != 0 {
                return illegal("brp weapons have one mode");
            }
            if bound {
                match declared {
                    Some(Intent::Attack {
                        target: t,
                        weapon: w,
                    }) => {
                        if w != *weapon {
                            return illegal("the statement of intent named another weapon");
                        }
                        if t != *target && attackable(world, actor, t, w) {
                            return illegal("the stated target can still be attacked: it must be");
                        }
                    }
                    _ => return illegal("no attack was stated this round"),
                }
            }
            enemy(world, actor, *target)?;
            usable(world, actor, *weapon)?;
            let from = view::cell(world, actor).unwrap_or_default();
            attack_numbers(world, actor, from, *target, *weapon).map(|_| ())
        }
        (_, Some(BrpCommand::FirstAid { patient })) => {
            if bound && !matches!(declared, Some(Intent::FirstAid { .. })) {
                return illegal("no First Aid was stated this round");
            }
            patient_ok(world, actor, *patient)?;
            let (Some(a), Some(p)) = (view::cell(world, actor), view::cell(world, *patient)) else {
                return illegal("not on the map");
            };
            if Map::chebyshev(a, p) > 1 {
                return illegal("First Aid needs the patient beside the medic");
            }
            Ok(())
        }
        (_, Some(BrpCommand::Reload { weapon })) => {
            if bound && declared != Some(Intent::Reload { weapon: *weapon }) {
                return illegal("no reload of this weapon was stated this round");
            }
            reloadable(world, actor, *weapon)
        }
        _ => illegal("not an action of the Actions phase"),
    }
}

/// §5.5, §5.9: can `actor` attack `target` with weapon `index` from where
/// it stands (an enemy, in reach or range)?
pub fn attackable(world: &World, actor: Cid, target: Cid, index: usize) -> bool {
    view::cell(world, actor).is_some_and(|from| {
        enemy(world, actor, target).is_ok()
            && attack_numbers(world, actor, from, target, index).is_ok()
    })
}

fn check_reaction(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    let Some(p) = view::resource::<PendingAttack>(world).0.as_ref() else {
        return illegal("no attack to meet");
    };
    let options = defenses(world, actor, p);
    match (command, command.own::<BrpCommand>()) {
        (Command::NoReaction, _) => Ok(()),
        (Command::Dodge, _) => {
            if options.iter().any(|o| o.kind == Defense::Dodge) {
                Ok(())
            } else {
                illegal("this attack cannot be dodged (§5.7)")
            }
        }
        (_, Some(BrpCommand::Parry { shield })) => {
            if options
                .iter()
                .any(|o| o.kind == Defense::Parry && o.shield == *shield)
            {
                Ok(())
            } else if *shield {
                illegal("no shield to parry this with (§5.11)")
            } else {
                illegal("no weapon in hand can parry this (§5.6)")
            }
        }
        _ => illegal("answer the attack: parry, dodge or take it"),
    }
}
