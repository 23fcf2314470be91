//! Carrying out a checked brp command: each emits the events that say what
//! happened; `apply.rs` changes the state from them.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Health, Loadout, MoveMode};
use crate::rules::dice::{DiceExpr, RollOptions};
use crate::rules::event::{BattleEvent, ConditionAdded, ConditionRemoved, Healed, Moved};
use crate::rules::map::Cell;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;

use super::attack::{self, d100};
use super::chance::{Level, level};
use super::check::check_move;
use super::command::{BrpCommand, Intent};
use super::event::{BrpEvent, Declared, FirstAid, Reloading};
use super::query::RULE_RELOAD;
use super::query::{RULE_INTENT, RULE_MOVEMENT, settings};
use super::round::end_turn;
use super::stats::{Wounds, stats};

pub const RULE_HEALING: &str = "brp §5.14 Healing";
pub const RULE_KNEEL: &str = "brp §5.11 Shields (kneeling behind a large shield)";

/// Carry out `actor`'s checked `command`: each to its step.
pub fn execute(world: &mut Scene, actor: Cid, command: &Command) {
    match (command, command.own::<BrpCommand>()) {
        (_, Some(BrpCommand::Declare(intent))) => declare(world, actor, intent),
        (_, Some(BrpCommand::Kneel)) => kneel(world, actor),
        (Command::Move { path }, _) => move_along(world, actor, path),
        (Command::Attack { target, weapon, .. }, _) => {
            attack::execute_attack(world, actor, *target, *weapon)
        }
        (_, Some(BrpCommand::Parry { .. })) | (Command::Dodge, _) | (Command::NoReaction, _) => {
            attack::resolve_reaction(world, actor, command)
        }
        (_, Some(BrpCommand::FirstAid { patient })) => {
            first_aid(world, actor, *patient);
            end_turn(world, actor);
        }
        (_, Some(BrpCommand::Reload { weapon })) => reload(world, actor, *weapon),
        (Command::EndTurn, _) => end_turn(world, actor),
        _ => {}
    }
}

/// §5.2: `who` states its intent (the weapon it names, by name, for the
/// log), and its turn in the statements is over.
fn declare(world: &mut Scene, who: Cid, intent: &Intent) {
    let weapon = match intent {
        Intent::Attack { weapon, .. } | Intent::Reload { weapon } => {
            view::get::<Loadout>(world, who)
                .and_then(|l| l.weapons.get(*weapon))
                .map(|w| String::from(&*w.name))
        }
        _ => None,
    };
    emit(
        world,
        BrpEvent::Declared(Declared {
            who,
            intent: *intent,
            weapon,
            rule: RULE_INTENT,
        }),
    );
    end_turn(world, who);
}

/// §5.11: `who` kneels behind its large shield.
fn kneel(world: &mut Scene, who: Cid) {
    emit(
        world,
        BattleEvent::ConditionAdded(ConditionAdded {
            who,
            condition: Condition::Crouching,
            rule: RULE_KNEEL,
        }),
    );
}

/// §5.3: `who` moves along `path` (if it still may), standing up first if
/// it knelt.
fn move_along(world: &mut Scene, who: Cid, path: &[Cell]) {
    let (Ok(cost), Some(from)) = (check_move(world, who, path), view::cell(world, who)) else {
        return;
    };
    // Moving stands a kneeling character up.
    if view::conditions(world, who).has(Condition::Crouching) {
        emit(
            world,
            BattleEvent::ConditionRemoved(ConditionRemoved {
                who,
                condition: Condition::Crouching,
                rule: RULE_KNEEL,
            }),
        );
    }
    emit(
        world,
        BattleEvent::Moved(Moved {
            who,
            from,
            path: path.to_vec(),
            cost_dm: cost,
            zones: 0,
            mode: MoveMode::None,
            rule: RULE_MOVEMENT,
        }),
    );
}

/// `who` begins reloading weapon `index` (loaded at the round's end), and
/// its action is spent.
fn reload(world: &mut Scene, who: Cid, index: usize) {
    if let Some(w) = view::get::<Loadout>(world, who).and_then(|l| l.weapons.get(index)) {
        let name = String::from(&*w.name);
        emit(
            world,
            BrpEvent::Reloading(Reloading {
                who,
                weapon_index: index,
                weapon: name,
                rule: RULE_RELOAD,
            }),
        );
    }
    end_turn(world, who);
}

/// §5.14: "Successful use of the First Aid skill heals 1D3 hit points per
/// injury ... can only heal the total hit points in damage for an
/// individual wound. An injury may have First Aid applied to it only once.
/// If the roll is unsuccessful, it is still bandaged". One treatment tends
/// every untreated injury (docs/rulesets/brp.md, "First Aid").
fn first_aid(world: &mut Scene, medic: Cid, patient: Cid) {
    let chance = stats(world, medic).map_or(0, |s| s.first_aid);
    let roll = d100(world);
    let lv = level(roll.total as u32, chance, settings(world).special);
    let wounds: Vec<(usize, i32)> = view::get::<Wounds>(world, patient)
        .map(|w| w.untreated().map(|(i, w)| (i, w.hp)).collect())
        .unwrap_or_default();
    let mut healed = Vec::new();
    if lv != Level::Failure {
        let d3 = DiceExpr::parse("1D3").unwrap_or_else(|_| DiceExpr::flat(1));
        for (i, hp) in &wounds {
            let r = d3.roll(&mut world.dice(), &RollOptions::default());
            let gained = r.total.min(*hp);
            healed.push((*i, r, gained));
        }
    }
    let gained: i32 = healed.iter().map(|h| h.2).sum();
    emit(
        world,
        BrpEvent::FirstAid(FirstAid {
            medic,
            patient,
            chance,
            roll,
            level: lv,
            healed,
            rule: RULE_HEALING,
        }),
    );
    let Some(h) = view::get::<Health>(world, patient).copied() else {
        return;
    };
    if gained > 0 {
        emit(
            world,
            BattleEvent::Healed(Healed {
                target: patient,
                by: medic,
                gained,
                hp_after: h.hp + gained,
                rule: RULE_HEALING,
            }),
        );
    }
    // "until awakened by another character": tended above the point where
    // one falls unconscious, the patient wakes.
    let hp = h.hp + gained;
    if view::conditions(world, patient).has(Condition::Unconscious)
        && hp > settings(world).unconscious_at_hp
    {
        emit(
            world,
            BattleEvent::ConditionRemoved(ConditionRemoved {
                who: patient,
                condition: Condition::Unconscious,
                rule: RULE_HEALING,
            }),
        );
    }
}
