//! Zones (`../shared/rules/zones.txt`): factions alternate activating one
//! character or passing; movement counted in zones; attacks hit unless a
//! WIT save is asked for; reactions take the character's whole turn; group
//! morale. Fray's decisions where the text is silent are in
//! `docs/rulesets/zones.md`.

pub mod ai;
pub mod apply;
pub mod attack;
pub mod blast;
pub mod check;
pub mod command;
pub mod data;
pub mod event;
pub mod gear;
pub mod maneuvers;
pub mod morale;
pub mod mounts;
pub mod movement;
pub mod narrate;
pub mod nonlethal;
pub mod odds;
pub mod offers;
pub mod opportunity;
pub mod preview;
pub mod queries;
pub mod reach;
pub mod reaction;
pub mod riders;
pub mod round;
pub mod settings;
pub mod state;
pub mod stunt;
pub mod weapon;

use std::path::Path;

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, Offers, Preview, Prompt, RulesetId};
use crate::rules::command::{Command, Illegal};
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::error::DataError;
use crate::rules::event::BattleEvent;
use crate::rules::level::CombatantDef;
use crate::rules::view;
use crate::rulesets::skeleton::{self, Ruleset};
use crate::rulesets::zones::command::{Maneuver, ZonesCommand};
use crate::rulesets::zones::event::ZonesEvent;

use data::ZonesData;
use round::ZonesRound;
use settings::ZonesSettings;
use state::Pending;

pub const RULE_BONUS: &str = "zones §Taking a turn: bonus actions";

/// The id levels and the command line use.
pub const ID: RulesetId = RulesetId("zones");

/// The zones ruleset.
pub struct Zones;

impl Ruleset for Zones {
    const ID: RulesetId = ID;
    type Data = ZonesData;
    type Settings = ZonesSettings;
    type Round = ZonesRound;
    type Pending = Pending;

    fn load(dir: &Path) -> Result<ZonesData, DataError> {
        ZonesData::load(dir)
    }
    fn settings(data: &ZonesData) -> &ZonesSettings {
        &data.settings
    }
    fn defines(data: &ZonesData, archetype: &str) -> bool {
        data.bestiary.archetypes.contains_key(archetype)
    }
    fn equip(world: &mut World, entity: Entity, def: &CombatantDef) -> Result<(), String> {
        equip(world, entity, def)
    }
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
        check::check(world, actor, command)
    }
    fn execute(world: &mut World, actor: Cid, command: &Command) {
        execute(world, actor, command)
    }
    fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
        legal_commands(world, actor)
    }
    fn decide(world: &mut World, actor: Cid) -> Command {
        ai::decide(world, actor)
    }
    fn preview(world: &World, actor: Cid, command: &Command) -> Preview {
        preview::preview(world, actor, command)
    }
    fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
        offers::offers(world, actor, legal)
    }
    fn sheet(world: &World, cid: Cid) -> Vec<(String, String)> {
        preview::sheet(world, cid)
    }
    fn advance(world: &mut World) {
        round::advance(world)
    }
    fn apply(world: &mut World, event: &BattleEvent) {
        apply::apply(world, event)
    }
    fn aftermath(world: &mut World) {
        gear::aftermath(world)
    }
    fn after_note(world: &World, cid: Cid) -> Option<String> {
        gear::after_note(world, cid)
    }
}

/// The zones ruleset plugin.
pub fn plugin(app: &mut App) {
    skeleton::plugin::<Zones>(app);
}

fn equip(world: &mut World, entity: Entity, def: &CombatantDef) -> Result<(), String> {
    let data = world
        .get_resource::<ZonesData>()
        .ok_or("zones data is not loaded")?;
    let b = data.equip(def)?;
    let mut e = world.entity_mut(entity);
    e.insert((b.stats, b.size, b.health, b.loadout));
    if let Some(s) = b.steed {
        e.insert(s);
    }
    Ok(())
}

fn execute(world: &mut World, actor: Cid, command: &Command) {
    if !matches!(
        command.own::<ZonesCommand>(),
        Some(
            ZonesCommand::Activate { .. }
                | ZonesCommand::Pass
                | ZonesCommand::FirstTurnTo { .. }
                | ZonesCommand::Reserve
        )
    ) {
        nonlethal::let_go_unless_kept(world, actor, command);
    }
    execute_command(world, actor, command);
    mounts::tidy_riders(world);
    // Whoever holds the turn and is now out of the fight (thrown from a
    // falling mount as the turn came to it) ends it.
    if let Prompt::Act { actor: a } = world.resource::<Battle>().prompt
        && !view::standing(world, a)
    {
        round::end_turn(world, a);
    }
}

fn execute_command(world: &mut World, actor: Cid, command: &Command) {
    match (command, command.own::<ZonesCommand>()) {
        (_, Some(ZonesCommand::Activate { who })) => {
            if let Prompt::Act { actor: from } = world.resource::<Battle>().prompt {
                mounts::hand_over(world, from, *who);
                return;
            }
            let f = view::faction(world, *who).unwrap_or(0);
            round::activate(world, f, *who);
        }
        (_, Some(ZonesCommand::Mount { mount })) => mounts::mount(world, actor, *mount),
        (_, Some(ZonesCommand::Dismount { to })) => mounts::dismount(world, actor, *to),
        (_, Some(ZonesCommand::Reserve)) => mounts::reserve(world, actor),
        (_, Some(ZonesCommand::PickUp { item })) => {
            let weapon = world
                .resource::<crate::rules::battle::Ground>()
                .0
                .get(*item)
                .map_or(String::new(), |(_, w)| w.name.clone());
            emit(
                world,
                BattleEvent::PickedUp {
                    who: actor,
                    item: *item,
                    weapon,
                    rule: RULE_BONUS,
                },
            );
            world.resource_mut::<ZonesRound>().turn.bonus += 1;
        }
        (_, Some(ZonesCommand::Pass)) => {
            if let Prompt::Activate { faction, .. } = world.resource::<Battle>().prompt {
                emit(
                    world,
                    ZonesEvent::Passed {
                        faction,
                        forced: false,
                        rule: round::RULE_PROCEDURE,
                    },
                );
                round::pass_on(world, faction);
                world.resource_mut::<Battle>().prompt = Prompt::None;
            }
        }
        (_, Some(ZonesCommand::FirstTurnTo { faction: to })) => {
            if let Prompt::Activate { faction, .. } = world.resource::<Battle>().prompt {
                emit(
                    world,
                    ZonesEvent::FirstTurnGiven {
                        by: faction,
                        to: *to,
                        rule: round::RULE_PROCEDURE,
                    },
                );
                let mut r = world.resource_mut::<ZonesRound>();
                r.opening = false;
                r.next = *to;
                world.resource_mut::<Battle>().prompt = Prompt::None;
            }
        }
        (Command::Move { path }, _) => movement::execute_move(world, actor, path, false),
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => attack::execute_attack(world, actor, *target, *weapon, *mode),
        (_, Some(ZonesCommand::Maneuver { target, kind })) => {
            attack::execute_maneuver(world, actor, *target, *kind);
        }
        (_, Some(ZonesCommand::SplitAttack { weapon, shares })) => {
            attack::execute_split(world, actor, *weapon, shares);
        }
        (_, Some(ZonesCommand::BreakFree)) => {
            nonlethal::break_free(world, actor);
            round::end_turn(world, actor);
        }
        (_, Some(ZonesCommand::FreeAlly { who })) => {
            world.resource_mut::<ZonesRound>().turn.main = true;
            nonlethal::free_ally(world, actor, *who);
        }
        (Command::Draw { weapon }, _) => {
            let name = queries::weapon(world, actor, *weapon).map_or(String::new(), |w| w.name);
            emit(
                world,
                BattleEvent::Drew {
                    who: actor,
                    weapon: name,
                    index: *weapon,
                    as_movement: false,
                    rule: RULE_BONUS,
                },
            );
            world.resource_mut::<ZonesRound>().turn.bonus += 1;
        }
        (_, Some(ZonesCommand::Surrender)) => {
            emit(
                world,
                BattleEvent::ConditionAdded {
                    who: actor,
                    condition: Condition::Surrendered,
                    rule: morale::RULE_SURRENDER,
                },
            );
            round::end_turn(world, actor);
        }
        (Command::Flee, _) => {
            movement::flee(world, actor);
            round::end_turn(world, actor);
        }
        (Command::EndTurn, _) => round::end_turn(world, actor),
        (c, _) if c.is_reaction() => reaction::resolve_reaction(world, actor, c),
        // Refused by the check.
        _ => {}
    }
}

/// The non-lethal attacks one could try on `target`: a shove, a grapple,
/// and a disarm of each weapon it can drop.
pub fn maneuvers(world: &World, target: Cid) -> Vec<Maneuver> {
    let mut v = vec![Maneuver::Shove, Maneuver::Grapple];
    if let Some(l) = view::get::<Loadout>(world, target) {
        for (weapon, w) in l.weapons.iter().enumerate() {
            if w.hands > 0 {
                v.push(Maneuver::Disarm { weapon });
            }
        }
    }
    v
}

/// Split attacks worth offering: the weapon in hand shared evenly between
/// two nearby smaller enemies, or half to one and a quarter to each of two
/// others (shares that come out in whole dice).
pub fn split_candidates(world: &World, actor: Cid) -> Vec<Command> {
    let Some(weapon) = view::get::<Loadout>(world, actor).and_then(|l| l.ready) else {
        return Vec::new();
    };
    let me = queries::size_rank(world, actor);
    let smaller: Vec<(Cid, u32)> = view::enemies(world, actor)
        .into_iter()
        .filter(|t| queries::melee_reach(world, actor, *t))
        .filter_map(|t| {
            let diff = me - queries::size_rank(world, t);
            (diff >= 1).then(|| (t, 1u32 << diff))
        })
        .collect();
    let mut out = Vec::new();
    for (i, &(a, fa)) in smaller.iter().enumerate() {
        for (j, &(b, fb)) in smaller.iter().enumerate().skip(i + 1) {
            out.push(Command::from(ZonesCommand::SplitAttack {
                weapon,
                shares: vec![(a, fa / 2), (b, fb / 2)],
            }));
            for &(c, _) in smaller.iter().skip(j + 1) {
                for (half, q1, q2) in [(a, b, c), (b, a, c), (c, a, b)] {
                    let full = |x: Cid| smaller.iter().find(|s| s.0 == x).map_or(0, |s| s.1);
                    if full(q1) >= 4 && full(q2) >= 4 {
                        out.push(Command::from(ZonesCommand::SplitAttack {
                            weapon,
                            shares: vec![
                                (half, full(half) / 2),
                                (q1, full(q1) / 4),
                                (q2, full(q2) / 4),
                            ],
                        }));
                    }
                }
            }
        }
    }
    out
}

/// A representative list of legal commands for the actor now.
pub fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
    let mut out = Vec::new();
    let mut push = |c: Command| {
        if check::check(world, actor, &c).is_ok() {
            out.push(c);
        }
    };
    match world.resource::<Battle>().prompt {
        Prompt::None => {}
        Prompt::Activate { faction, .. } => {
            for who in round::eligible(world, faction) {
                push(Command::from(ZonesCommand::Activate { who }));
            }
            push(Command::from(ZonesCommand::Pass));
            for f in 0..world.resource::<crate::rules::battle::Factions>().0.len() {
                push(Command::from(ZonesCommand::FirstTurnTo {
                    faction: f as u8,
                }));
            }
        }
        Prompt::React { attacker, .. } => {
            push(Command::from(ZonesCommand::Accept));
            push(Command::NoReaction);
            push(Command::Dodge);
            push(Command::from(ZonesCommand::Guard));
            let n = view::get::<Loadout>(world, actor).map_or(0, |l| l.weapons.len());
            for weapon in 0..n {
                push(Command::from(ZonesCommand::Counter { weapon }));
                push(Command::from(ZonesCommand::Opportunity { weapon }));
            }
            for kind in maneuvers(world, attacker) {
                push(Command::from(ZonesCommand::CounterManeuver { kind }));
            }
            for who in view::all(world) {
                if who != attacker && who != actor {
                    push(Command::from(ZonesCommand::HideBehind { who }));
                }
            }
        }
        Prompt::Act { .. } => {
            push(Command::EndTurn);
            push(Command::from(ZonesCommand::Reserve));
            for item in 0..world.resource::<crate::rules::battle::Ground>().0.len() {
                push(Command::from(ZonesCommand::PickUp { item }));
            }
            for b in world.resource::<ZonesRound>().team.clone() {
                if let Some(who) = b.who {
                    push(Command::from(ZonesCommand::Activate { who }));
                }
            }
            for mount in view::allies(world, actor) {
                push(Command::from(ZonesCommand::Mount { mount }));
            }
            if let Some(at) = view::riding(world, actor).and_then(|m| view::cell(world, m)) {
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        push(Command::from(ZonesCommand::Dismount {
                            to: crate::rules::map::Cell::new(at.x + dx, at.y + dy),
                        }));
                    }
                }
            }
            push(Command::from(ZonesCommand::BreakFree));
            for who in view::allies(world, actor) {
                push(Command::from(ZonesCommand::FreeAlly { who }));
            }
            for target in view::enemies(world, actor) {
                for kind in maneuvers(world, target) {
                    push(Command::from(ZonesCommand::Maneuver { target, kind }));
                }
            }
            for (_, _, path) in reach::reach(world, actor, reach::remaining(world, actor)) {
                push(Command::Move { path });
            }
            if let Some(l) = view::get::<Loadout>(world, actor) {
                for (i, w) in l.weapons.iter().enumerate() {
                    for target in view::all(world) {
                        for mode in 0..w.mode_count() {
                            push(Command::Attack {
                                target,
                                weapon: i,
                                mode,
                            });
                        }
                    }
                    push(Command::Draw { weapon: i });
                }
            }
            for c in split_candidates(world, actor) {
                push(c);
            }
            push(Command::from(ZonesCommand::Surrender));
            push(Command::Flee);
        }
    }
    out
}

#[cfg(test)]
mod tests;
