//! The one legality check of the zones ruleset: is this command legal for
//! this character now? The UI greys out and the AI filters by it.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Illegal, illegal};
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::map::Cell;
use crate::rules::roster::Factions;
use crate::rules::view::{self, name};
use crate::rulesets::zones::command::ZonesCommand;

use super::maneuvers::{check_break_free, check_free_ally, check_maneuver, holder};
use super::query::{nearby, stats};
use super::reach::{check_flee, check_move};
use super::state::{Pending, Stage, ZonesRound};
use super::strike::check_strike;

pub use super::turns::{eligible, first_eligible, is_eligible, turn_left};

/// [`check`] as a type: what the core asks (`Ruleset::Check`) and the AI
/// asks of the command it settles on, one answer for both
/// (`command::Decision`).
pub struct Legality;

impl crate::rules::command::LegalityCheck for Legality {
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
        check(world, actor, command)
    }
}

/// Is the command legal for `actor` now?
pub fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    let battle = view::resource::<Battle>(world);
    if battle.is_over() {
        return illegal("the battle is over");
    }
    match battle.prompt {
        Prompt::None => illegal("the battle is between turns"),
        Prompt::Activate { faction, speaker } => {
            if actor != speaker {
                return illegal(format!("waiting for {} to choose", name(world, speaker)));
            }
            check_activation(world, faction, command)
        }
        Prompt::React {
            actor: reactor,
            attacker,
        } => {
            if actor != reactor {
                return illegal(format!("waiting for {} to react", name(world, reactor)));
            }
            check_reaction(world, actor, attacker, command)
        }
        Prompt::Act { actor: acting } => {
            if actor != acting {
                return illegal(format!("it is {}'s turn", name(world, acting)));
            }
            check_turn(world, actor, command)
        }
    }
}

fn check_activation(world: &World, faction: u8, command: &Command) -> Result<(), Illegal> {
    match (command, command.own::<ZonesCommand>()) {
        (_, Some(ZonesCommand::Pass)) => Ok(()),
        (_, Some(ZonesCommand::Activate { who })) => {
            if view::faction(world, *who) != Some(faction) {
                return illegal(format!("{} is not of this faction", name(world, *who)));
            }
            if view::resource::<ZonesRound>(world).bonus
                && !view::conditions(world, *who).has(Condition::Concealed)
            {
                return illegal("only those lying in ambush act in the bonus round");
            }
            if !is_eligible(world, faction, *who) {
                return illegal(format!(
                    "{} has taken a turn this round or is out of the fight",
                    name(world, *who)
                ));
            }
            Ok(())
        }
        (_, Some(ZonesCommand::FirstTurnTo { faction: to })) => {
            let r = view::resource::<ZonesRound>(world);
            if !r.opening || r.holder != Some(faction) {
                return illegal("only the faction holding the initiative, at the start of a round");
            }
            if *to == faction || usize::from(*to) >= view::resource::<Factions>(world).0.len() {
                return illegal("give the first turn to another faction");
            }
            Ok(())
        }
        _ => illegal("choose who takes the turn, or pass"),
    }
}

fn check_reaction(
    world: &World,
    actor: Cid,
    attacker: Cid,
    command: &Command,
) -> Result<(), Illegal> {
    let pending = view::resource::<Pending>(world);
    if let Some(b) = &pending.blast {
        return match (command, command.own::<ZonesCommand>()) {
            (Command::NoReaction, _) | (Command::Dodge, _) => Ok(()),
            (_, Some(ZonesCommand::Counter { weapon })) => {
                if b.counter.is_some() {
                    return illegal("only a single target can counter a blast");
                }
                check_strike(world, actor, attacker, *weapon, 0, true)
            }
            _ => illegal("dodge the blast, counter it, or take it"),
        };
    }
    if let Some(state) = &pending.attack {
        return match (state.stage, command, command.own::<ZonesCommand>()) {
            (_, Command::NoReaction, _) => Ok(()),
            (Stage::Stunt, _, Some(ZonesCommand::Accept)) => Ok(()),
            (Stage::Stunt, _, _) => illegal("accept the offer, or refuse it and face the attack"),
            (Stage::Target, Command::Dodge, _) => Ok(()),
            (Stage::Target, _, Some(ZonesCommand::Counter { weapon })) => {
                check_strike(world, actor, attacker, *weapon, 0, true)
            }
            (Stage::Target, _, Some(ZonesCommand::CounterManeuver { kind })) => {
                check_maneuver(world, actor, attacker, *kind)
            }
            (Stage::Target, _, Some(ZonesCommand::HideBehind { who })) => {
                if state.hidden {
                    return illegal("the attack already passed to this character by hiding");
                }
                if *who == actor || *who == attacker {
                    return illegal("hide behind someone else");
                }
                // "It is only possible to hide behind a willing ally or a
                // currently grabbed enemy."
                let ally = view::faction(world, *who) == view::faction(world, actor);
                let grabbed = holder(world, *who) == Some(actor);
                if !(ally && view::standing(world, *who) || grabbed) {
                    return illegal("only behind a willing ally or an enemy you hold");
                }
                if !nearby(world, actor, *who) {
                    return illegal(format!("{} is not nearby", name(world, *who)));
                }
                if !super::riders::swap_allowed(world, actor, *who) {
                    return illegal("a rider or a carrying mount cannot swap places");
                }
                Ok(())
            }
            (Stage::Guard, _, Some(ZonesCommand::Guard)) => Ok(()),
            (Stage::Target, _, _) => illegal("dodge, counter, hide behind an ally, or take it"),
            (Stage::Guard, _, _) => illegal("guard, or not"),
        };
    }
    if pending.moving.is_some() {
        return match (command, command.own::<ZonesCommand>()) {
            (Command::NoReaction, _) => Ok(()),
            (_, Some(ZonesCommand::Opportunity { weapon })) => {
                check_strike(world, actor, attacker, *weapon, 0, true)
            }
            _ => illegal("make an opportunity attack, or let them go"),
        };
    }
    illegal("there is nothing to react to")
}

/// A command on `actor`'s own turn: the pair's hand-over and reserve, a
/// grabbed one's only way out, the turn's main actions
/// ([`check_main_action`]), then the rest of a turn.
fn check_turn(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    if !view::standing(world, actor) {
        return illegal("out of the fight");
    }
    // A pair's turn passes between its members.
    if let Some(ZonesCommand::Activate { who }) = command.own::<ZonesCommand>() {
        return super::riders::check_handover(world, actor, *who);
    }
    if let Some(ZonesCommand::Reserve) = command.own::<ZonesCommand>() {
        return super::riders::check_reserve(world, actor);
    }
    // "Grabbed characters can't act, and can only spend their turn to
    // attempt to break free".
    if view::conditions(world, actor).has(Condition::Grabbed) {
        return match (command, command.own::<ZonesCommand>()) {
            (Command::EndTurn, _) => Ok(()),
            (_, Some(ZonesCommand::BreakFree)) => check_break_free(world, actor),
            _ => illegal("grabbed: only an attempt to break free"),
        };
    }
    if let Some(checked) = check_main_action(world, actor, command) {
        return checked;
    }
    match (command, command.own::<ZonesCommand>()) {
        (Command::EndTurn, _) => Ok(()),
        (_, Some(ZonesCommand::BreakFree)) => illegal("nobody holds you"),
        (Command::Move { path }, _) => check_walk(world, actor, path),
        (_, Some(ZonesCommand::PickUp { item })) => check_pick_up(world, actor, *item),
        (_, Some(ZonesCommand::Mount { mount })) => {
            super::riders::check_mount(world, actor, *mount)
        }
        (_, Some(ZonesCommand::Dismount { to })) => {
            super::riders::check_dismount(world, actor, *to)
        }
        (Command::Draw { weapon }, _) => check_draw(world, actor, *weapon),
        (_, Some(ZonesCommand::Surrender)) => check_surrender(world, actor),
        (Command::Flee, _) => check_flee_afoot(world, actor),
        (_, Some(ZonesCommand::Activate { .. }))
        | (_, Some(ZonesCommand::Pass))
        | (_, Some(ZonesCommand::FirstTurnTo { .. })) => illegal("a character is taking its turn"),
        (c, _) if c.is_reaction() => illegal("there is no attack to react to"),
        _ => illegal("not part of a zones turn"),
    }
}

/// §Taking a turn: the commands that are the turn's main action (an
/// attack, split or not, a maneuver, words, an item, a power, freeing an
/// ally, hiding): the main action must still be to take, then each its own
/// check (a taunted one attacks only its taunter). None: `command` is not
/// a main action.
fn check_main_action(world: &World, actor: Cid, command: &Command) -> Option<Result<(), Illegal>> {
    let taken = || main_action(world, actor);
    let taunt = |t: Cid| super::influence::check_taunt(world, actor, t);
    Some(match (command, command.own::<ZonesCommand>()) {
        (_, Some(ZonesCommand::Maneuver { target, kind })) => taken()
            .and_then(|()| taunt(*target))
            .and_then(|()| check_maneuver(world, actor, *target, *kind)),
        (_, Some(ZonesCommand::Influence { target, kind })) => {
            taken().and_then(|()| super::influence::check_influence(world, actor, *target, *kind))
        }
        (_, Some(ZonesCommand::UseItem { item, on })) => {
            taken().and_then(|()| super::influence::check_item(world, actor, *item, *on))
        }
        (_, Some(ZonesCommand::Invoke { power, target })) => {
            taken().and_then(|()| super::influence::check_invoke(world, actor, *power, *target))
        }
        (_, Some(ZonesCommand::FreeAlly { who })) => {
            taken().and_then(|()| check_free_ally(world, actor, *who))
        }
        (_, Some(ZonesCommand::SplitAttack { weapon, shares })) => taken()
            .and_then(|()| shares.iter().try_for_each(|(t, _)| taunt(*t)))
            .and_then(|()| super::numbers::check_split(world, actor, *weapon, shares)),
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => taken()
            .and_then(|()| taunt(*target))
            .and_then(|()| check_strike(world, actor, *target, *weapon, *mode, false)),
        (_, Some(ZonesCommand::Hide)) => taken().and_then(|()| check_hide(world, actor)),
        _ => return None,
    })
}

/// §Taking a turn: is the main action of `actor`'s turn still to take?
fn main_action(world: &World, actor: Cid) -> Result<(), Illegal> {
    let t = &view::resource::<ZonesRound>(world).turn;
    let half = stats(world, actor).map_or(1, |s| s.half_speed());
    if view::conditions(world, actor).has(Condition::Broken) {
        return illegal("broken by fear: surrender or get away");
    }
    if t.main {
        return illegal("the main action of this turn is spent");
    }
    if t.bonus >= 2 {
        return illegal("two bonus actions took the place of the main action");
    }
    if t.beyond(half) {
        return illegal("moved at full speed: no actions this turn");
    }
    if super::turns::carried_fast(world, actor) {
        return illegal("carried at full speed: no actions this turn (§Mounts and vehicles)");
    }
    if super::turns::is_vehicle(world, actor) {
        return illegal("a vehicle only moves");
    }
    Ok(())
}

/// §Taking a turn: bonus actions: is one left to `actor`?
fn bonus_action(world: &World, actor: Cid) -> Result<(), Illegal> {
    let t = &view::resource::<ZonesRound>(world).turn;
    let half = stats(world, actor).map_or(1, |s| s.half_speed());
    if t.bonus_left() == 0 {
        return illegal("no bonus action left");
    }
    if t.beyond(half) {
        return illegal("moved at full speed: no actions this turn");
    }
    if super::turns::carried_fast(world, actor) {
        return illegal("carried at full speed: no actions this turn (§Mounts and vehicles)");
    }
    Ok(())
}

/// §Taking a turn, moving on its own feet (§Mounts and vehicles in combat:
/// a rider is carried, an empty vehicle stays).
fn check_walk(world: &World, actor: Cid, path: &[Cell]) -> Result<(), Illegal> {
    if let Some(m) = view::riding(world, actor) {
        return illegal(format!(
            "riding {}: it carries you; get off to walk",
            name(world, m)
        ));
    }
    if super::turns::idle_vehicle(world, actor) {
        return illegal("a vehicle moves only with someone aboard");
    }
    check_move(world, actor, path).map(|_| ())
}

/// "Bonus actions: picking up or putting down something".
fn check_pick_up(world: &World, actor: Cid, item: usize) -> Result<(), Illegal> {
    let ground = view::resource::<crate::rules::battle::Ground>(world);
    let Some((cell, _)) = ground.0.get(item) else {
        return illegal("nothing lies there");
    };
    if view::riding(world, actor).is_some() || view::steed(world, actor).is_some() {
        return illegal("out of reach from the saddle");
    }
    let map = view::resource::<crate::rules::map::Map>(world);
    let here = view::cell(world, actor).and_then(|c| map.zone_of(c));
    if here.is_none() || map.zone_of(*cell) != here {
        return illegal("only what lies nearby (the same zone)");
    }
    bonus_action(world, actor)
}

/// Drawing a weapon is a bonus action (unarmed, the last in the loadout,
/// is not drawn).
fn check_draw(world: &World, actor: Cid, weapon: usize) -> Result<(), Illegal> {
    let Some(l) = view::get::<Loadout>(world, actor) else {
        return illegal("no weapons");
    };
    if weapon + 1 >= l.weapons.len() {
        return illegal("no such weapon to draw");
    }
    if l.ready == Some(weapon) {
        return illegal("already in hand");
    }
    bonus_action(world, actor)
}

/// §Sneaking in combat: "Hiding later during the fight requires being out
/// of sight for a while or a major distraction." Fray decides: a character
/// whom no standing enemy can see may spend its main action hiding (the
/// while it takes). Not a mount, a vehicle or a rider: a pair is too big
/// to slip out of sight.
pub fn check_hide(world: &World, actor: Cid) -> Result<(), Illegal> {
    if view::conditions(world, actor).has(Condition::Concealed) {
        return illegal("already concealed");
    }
    if view::riding(world, actor).is_some() || view::steed(world, actor).is_some() {
        return illegal("a mount and its riders cannot hide");
    }
    if view::each_enemy(world, actor).any(|e| super::query::visible(world, e, actor)) {
        return illegal("an enemy can see you: get out of sight first");
    }
    Ok(())
}

/// §Morale: surrender. Fray decides: mounts and vehicles follow their
/// riders.
fn check_surrender(world: &World, actor: Cid) -> Result<(), Illegal> {
    if view::steed(world, actor).is_some() {
        return illegal("a mount or vehicle does not surrender");
    }
    if view::conditions(world, actor).has(Condition::Surrendered) {
        return illegal("already surrendered");
    }
    Ok(())
}

/// Fleeing the field on its own feet (a rider's mount carries it off).
fn check_flee_afoot(world: &World, actor: Cid) -> Result<(), Illegal> {
    if view::riding(world, actor).is_some() {
        return illegal("riding: the mount carries you off the field");
    }
    if super::turns::idle_vehicle(world, actor) {
        return illegal("a vehicle moves only with someone aboard");
    }
    check_flee(world, actor)
}
