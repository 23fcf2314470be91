//! The one legality check of the zones ruleset: is this command legal for
//! this character now? The UI greys out and the AI filters by it.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Illegal, illegal};
use crate::rules::components::{Cid, Condition, Conditions, Loadout, Weapon};
use crate::rules::map::Cell;
use crate::rules::roster::Factions;
use crate::rules::view::{self, name};
use crate::rulesets::zones::command::ZonesCommand;
use crate::rulesets::zones::weapon::ZonesGear;

use super::data::{MODE_DEATH_BLOW, is_stunt};
use super::maneuvers::{check_break_free, check_free_ally, check_maneuver, holder};
use super::query::{melee_reach_from, nearby, range_against, stats, visible, zone_distance};
use super::reach::{check_flee, check_move};
use super::state::{Pending, Stage, ZonesRound};

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
            vehicle: super::riders::is_vehicle(world, who),
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
        let moved = !reaction && super::riders::moved_this_turn(world, who);
        if moved && 2 * dist > range {
            return no("beyond half range while moving");
        }
    } else if !reaches.unwrap_or_else(|| melee_reach_from(world, who, striker.zone, target)) {
        return no("melee attacks only reach nearby enemies (the same zone)");
    }
    None
}

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
    match (command, command.own::<ZonesCommand>()) {
        (Command::EndTurn, _) => Ok(()),
        (_, Some(ZonesCommand::BreakFree)) => illegal("nobody holds you"),
        (_, Some(ZonesCommand::Maneuver { target, kind })) => {
            main_action(world, actor)?;
            super::influence::check_taunt(world, actor, *target)?;
            check_maneuver(world, actor, *target, *kind)
        }
        (_, Some(ZonesCommand::Influence { target, kind })) => {
            main_action(world, actor)?;
            super::influence::check_influence(world, actor, *target, *kind)
        }
        (_, Some(ZonesCommand::UseItem { item, on })) => {
            main_action(world, actor)?;
            super::influence::check_item(world, actor, *item, *on)
        }
        (_, Some(ZonesCommand::Invoke { power, target })) => {
            main_action(world, actor)?;
            super::influence::check_invoke(world, actor, *power, *target)
        }
        (_, Some(ZonesCommand::FreeAlly { who })) => {
            main_action(world, actor)?;
            check_free_ally(world, actor, *who)
        }
        (_, Some(ZonesCommand::SplitAttack { weapon, shares })) => {
            main_action(world, actor)?;
            for (t, _) in shares {
                super::influence::check_taunt(world, actor, *t)?;
            }
            super::odds::check_split(world, actor, *weapon, shares)
        }
        (Command::Move { path }, _) => check_walk(world, actor, path),
        (_, Some(ZonesCommand::PickUp { item })) => check_pick_up(world, actor, *item),
        (_, Some(ZonesCommand::Mount { mount })) => {
            super::riders::check_mount(world, actor, *mount)
        }
        (_, Some(ZonesCommand::Dismount { to })) => {
            super::riders::check_dismount(world, actor, *to)
        }
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => {
            main_action(world, actor)?;
            super::influence::check_taunt(world, actor, *target)?;
            check_strike(world, actor, *target, *weapon, *mode, false)
        }
        (Command::Draw { weapon }, _) => check_draw(world, actor, *weapon),
        (_, Some(ZonesCommand::Surrender)) => check_surrender(world, actor),
        (_, Some(ZonesCommand::Hide)) => {
            main_action(world, actor)?;
            check_hide(world, actor)
        }
        (Command::Flee, _) => check_flee_afoot(world, actor),
        (_, Some(ZonesCommand::Activate { .. }))
        | (_, Some(ZonesCommand::Pass))
        | (_, Some(ZonesCommand::FirstTurnTo { .. })) => illegal("a character is taking its turn"),
        (c, _) if c.is_reaction() => illegal("there is no attack to react to"),
        _ => illegal("not part of a zones turn"),
    }
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
    if super::riders::carried_fast(world, actor) {
        return illegal("carried at full speed: no actions this turn (§Mounts and vehicles)");
    }
    if super::riders::is_vehicle(world, actor) {
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
    if super::riders::carried_fast(world, actor) {
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
    if super::riders::idle_vehicle(world, actor) {
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
    if super::riders::idle_vehicle(world, actor) {
        return illegal("a vehicle moves only with someone aboard");
    }
    check_flee(world, actor)
}
