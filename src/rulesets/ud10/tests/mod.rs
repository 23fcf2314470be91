//! UD10 rule tests. Each names the rule it checks; the numbers come from
//! `../shared/rules/ud10.txt` and the stat blocks in
//! `assets/rulesets/ud10/`. Dice are scripted: the comment by each script
//! says which roll each number is.

use crate::rules::battle::Prompt;
use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Loadout, MoveMode, TurnState};
use crate::rules::engine::Engine;
use crate::rules::event::{BattleEvent, Modifier};
use crate::rules::map::Cell;
use crate::rules::view;
use crate::testkit::{
    cid, cmd, engine, level, level_with, prompt, refused, set_condition, set_hp, since, start,
};

use super::harm::{body_zone, pipeline};
use super::numbers::AttackNumbers;
use super::settings::Ud10Settings;
use crate::rulesets::ud10::armor::{BodyZone, Protection};
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::event::Ud10Event;

mod ai;
mod ammunition;
mod attack_and_damage;
mod audit;
mod defense;
mod facing;
mod first_aid;
mod initiative;
mod modifiers;
mod movement;
mod parrying;

fn numbers(e: &Engine, attacker: Cid, target: Cid) -> AttackNumbers {
    let w = e.world();
    let l = view::get::<Loadout>(w, attacker).expect("loadout");
    let weapon = l.ready_weapon().expect("weapon in hand").clone();
    let from = view::cell(w, attacker).expect("cell");
    crate::rulesets::ud10::numbers::numbers(w, attacker, from, target, &weapon, 0, false)
}

fn names(mods: &[Modifier]) -> Vec<(&'static str, i32)> {
    mods.iter().map(|m| (m.name, m.value)).collect()
}

/// The events of a blow past the reaction it could not get: the tests of
/// the damage that follows read them in order (the `NoReaction` line is
/// `parrying.rs`'s to check).
fn past_no_reaction(ev: Vec<BattleEvent>) -> Vec<BattleEvent> {
    ev.into_iter()
        .filter(|e| !matches!(e.own::<Ud10Event>(), Some(Ud10Event::NoReaction(_))))
        .collect()
}

/// Attack with the weapon in hand (firing mode 0).
fn strike(e: &mut Engine, attacker: Cid, target: Cid) {
    cmd(
        e,
        attacker,
        Command::Attack {
            target,
            weapon: 0,
            mode: 0,
        },
    );
}

const OPEN: [&str; 3] = ["..........", "..........", ".........."];

/// A battle of `l` begun with `from_behind` set as given (ud10's setting
/// for who counts as attacked from behind) and initiative dice 10 and 1:
/// the engine, and the combatants named A and B.
pub(super) fn begun_with(l: &crate::rules::level::Level, from_behind: &str) -> (Engine, Cid, Cid) {
    let mut e = engine();
    e.configure(crate::rulesets::ud10::ID, "from_behind", from_behind)
        .unwrap();
    start(&mut e, l, &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    (e, a, b)
}

/// A duel many tests start from: A, a swordsman (skill 8, longsword
/// 1D10+4, pen 1) at (1, 1) facing east, against B, an archer (DEX 3, CON
/// 1, leather) beside it facing west, on open ground, with `dice` scripted
/// (initiative first); the engine and A and B.
fn duel(dice: &[u32]) -> (Engine, Cid, Cid) {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, dice);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    (e, a, b)
}
