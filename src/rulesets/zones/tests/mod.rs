//! Zones rule tests with scripted dice. Each test builds a tiny level, runs
//! the commands of a worked example or a rule, and checks the exact events,
//! with the numbers of `../shared/rules/zones.txt`.

use super::modes::{MODE_DEATH_BLOW, MODE_HOLD_BACK, MODE_STRIKE};
use crate::data::level::parse_level;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Health, TurnState};
use crate::rules::engine::{Controls, Engine, StartOptions};
use crate::rules::event::{BattleEvent, DamageRolled, Damaged, GearBroken};
use crate::rules::level::Level;
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::zones::command::{Maneuver, ZonesCommand};
use crate::rulesets::zones::event::{GearOutcome, GearRolled, Reaction, SaveRolled, ZonesEvent};
use crate::testkit::{
    Scenario, at, cid, cmd, engine, has, hp, prompt, refused, since, start_ruleset,
};
use std::path::Path;

mod ai;
mod attacking;
mod blasts_and_stunts;
mod gear;
mod main_actions;
mod morale;
mod mounts;
mod nonlethal;
mod procedure;
mod reactions;
mod sneaking_and_chases;

/// Seven zones side by side, two columns each ("A" to "G"), two rows high;
/// `players` (first) and `bandits` (who started the fight).
fn level(rows: &[&str], combatants: &[&str]) -> Level {
    level_with(
        rows,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        combatants,
        true,
    )
}

fn level_with(rows: &[&str], zones: &[&str], combatants: &[&str], bandits_start: bool) -> Level {
    Scenario::zones(rows, zones)
        .with(combatants)
        .second_starts(bandits_start)
        .level()
}

/// Start a zones battle on `level` with these dice first.
fn start(level: &Level, script: &[u32]) -> Engine {
    let mut e = engine();
    start_ruleset(&mut e, level, crate::rulesets::zones::ID, script);
    e
}

const OPEN: [&str; 2] = ["..............", ".............."];

fn done(e: &Engine, c: Cid) -> bool {
    view::get::<TurnState>(e.world(), c).is_some_and(|t| t.done)
}

fn activate(e: &mut Engine, who: Cid) {
    let Prompt::Activate { speaker, .. } = prompt(e) else {
        panic!("expected an activation prompt, got {:?}", prompt(e));
    };
    cmd(e, speaker, ZonesCommand::Activate { who });
}

fn pass(e: &mut Engine) {
    let Prompt::Activate { speaker, .. } = prompt(e) else {
        panic!("expected an activation prompt, got {:?}", prompt(e));
    };
    cmd(e, speaker, ZonesCommand::Pass);
}

fn attack(e: &mut Engine, who: Cid, target: Cid, weapon: usize, mode: usize) {
    cmd(
        e,
        who,
        Command::Attack {
            target,
            weapon,
            mode,
        },
    );
}

/// Everyone asked about guarding says no.
fn decline_guards(e: &mut Engine) {
    while let Prompt::React { actor, .. } = prompt(e) {
        cmd(e, actor, Command::NoReaction);
    }
}

fn damaged(events: &[BattleEvent]) -> Vec<(Cid, i32, i32)> {
    events
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::Damaged(Damaged {
                target,
                hp_loss,
                hp_after,
                ..
            }) => Some((*target, *hp_loss, *hp_after)),
            _ => None,
        })
        .collect()
}

fn saves(events: &[BattleEvent]) -> Vec<(Cid, &'static str, i32, i32, bool)> {
    events
        .iter()
        .filter_map(|ev| match ev.own::<ZonesEvent>() {
            Some(ZonesEvent::SaveRolled(SaveRolled {
                who,
                attribute,
                roll,
                target,
                pass,
                ..
            })) => Some((*who, *attribute, roll.total, *target, *pass)),
            _ => None,
        })
        .collect()
}

/// The bandits of the text's examples: a leader with a battleaxe (d8) and
/// three bandits (health 8, AGI 8) with axes and bows; the players'
/// Balthasar (sword d6), Sybilla (musket d8, dagger) and Theobald (spear d6,
/// shield and light armour: armour value 2).
fn party(bal: (i32, i32), syb: (i32, i32), theo: (i32, i32)) -> Vec<String> {
    vec![
        format!(
            r#"(archetype: "swordsman", faction: "players", at: {bal:?}, name: "Balthasar", overrides: (weapons: ["sword"], armor: [], shield: None))"#
        ),
        format!(
            r#"(archetype: "swordsman", faction: "players", at: {syb:?}, name: "Sybilla", overrides: (weapons: ["musket", "dagger"], armor: [], shield: None))"#
        ),
        format!(
            r#"(archetype: "spearman", faction: "players", at: {theo:?}, name: "Theobald", overrides: (weapons: ["spear", "dagger"], armor: ["light"], shield: "shield"))"#
        ),
    ]
}

fn bandits(leader: (i32, i32), b: [(i32, i32); 3]) -> Vec<String> {
    let mut v = vec![format!(
        r#"(archetype: "bandit", faction: "bandits", at: {leader:?}, name: "Leader", overrides: (weapons: ["battleaxe"], stats: {{"HEALTH": 8}}))"#
    )];
    for (i, p) in b.iter().enumerate() {
        v.push(format!(
            r#"(archetype: "bandit", faction: "bandits", at: {p:?}, name: "Bandit {}")"#,
            i + 1
        ));
    }
    v
}

fn example_level(
    bal: (i32, i32),
    syb: (i32, i32),
    theo: (i32, i32),
    leader: (i32, i32),
    b: [(i32, i32); 3],
) -> Level {
    let all: Vec<String> = party(bal, syb, theo)
        .into_iter()
        .chain(bandits(leader, b))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    level(&OPEN, &refs)
}

/// Everyone far apart: nobody can strike anybody.
fn apart() -> Level {
    example_level((0, 0), (0, 1), (1, 0), (13, 0), [(13, 1), (12, 0), (12, 1)])
}

/// A mirrored skirmish of three against three.
fn mirror() -> Level {
    level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (1, 0))"#,
            r#"(archetype: "spearman", faction: "players", at: (1, 1))"#,
            r#"(archetype: "archer", faction: "players", at: (0, 0))"#,
            r#"(archetype: "swordsman", faction: "bandits", at: (12, 0))"#,
            r#"(archetype: "spearman", faction: "bandits", at: (12, 1))"#,
            r#"(archetype: "archer", faction: "bandits", at: (13, 0))"#,
        ],
    )
}

fn grab(e: &mut Engine, who: Cid, target: Cid) {
    cmd(
        e,
        who,
        ZonesCommand::Maneuver {
            target,
            kind: Maneuver::Grapple,
        },
    );
}

/// Pass until the next round's first activation prompt.
fn next_round(e: &mut Engine) {
    let round = e.world().resource::<Battle>().round;
    for _ in 0..50 {
        if e.world().resource::<Battle>().round != round {
            return;
        }
        match prompt(e) {
            Prompt::Activate { .. } => pass(e),
            Prompt::None => e.step(),
            p => panic!("next_round: stuck at {p:?}"),
        }
    }
    panic!("next_round: the round does not end");
}

fn holder_of(e: &Engine, who: Cid) -> Option<Cid> {
    super::maneuvers::holder(e.world(), who)
}

fn gear_rolls(e: &Engine) -> Vec<(Cid, String, i32, GearOutcome)> {
    e.events()
        .iter()
        .filter_map(|x| match x.own::<ZonesEvent>() {
            Some(ZonesEvent::GearRolled(GearRolled {
                who,
                item,
                roll,
                outcome,
                ..
            })) => Some((*who, item.clone(), roll.total, *outcome)),
            _ => None,
        })
        .collect()
}

fn broke(e: &Engine) -> Vec<(Cid, String)> {
    e.events()
        .iter()
        .filter_map(|x| match x {
            BattleEvent::GearBroken(GearBroken { who, item, .. }) => Some((*who, item.clone())),
            _ => None,
        })
        .collect()
}

/// A horse "Bay" (large, AGI 11, health 10, sprinting: 4 zones, half speed
/// 2) ridden by "Rider" (a swordsman with a sword, no armour, AGI 11,
/// health 8) at `pair`, and the example's bandits.
fn mounted_level(pair: (i32, i32), leader: (i32, i32), b: [(i32, i32); 3]) -> Level {
    let mut all = vec![
        format!(r#"(archetype: "horse", faction: "players", at: {pair:?}, name: "Bay")"#),
        format!(
            r#"(archetype: "swordsman", faction: "players", at: {pair:?}, name: "Rider", riding: Some("Bay"), overrides: (weapons: ["sword"], armor: [], shield: None))"#
        ),
    ];
    all.extend(bandits(leader, b));
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    level(&OPEN, &refs)
}

fn rolled(events: &[BattleEvent]) -> Vec<(Cid, String, i32)> {
    events
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::DamageRolled(DamageRolled { target, roll, .. }) => {
                Some((*target, roll.expr.to_string(), roll.total))
            }
            _ => None,
        })
        .collect()
}

/// The "Incapacitated" row of `c`'s sheet, if it has one.
fn incapacitated_row(e: &Engine, c: Cid) -> Option<String> {
    crate::rulesets::zones::sheet::sheet(e.world(), c)
        .into_iter()
        .find(|(k, _)| k == "Incapacitated")
        .map(|(_, v)| v)
}
