//! UD10 attacks (§Attacking, §Defense Rating Modifiers, §Attack Modifiers,
//! §Ranged Attacks) and the reactions to them (§Parrying and Dodging).

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout, WeaponKind};
use crate::rules::dice::{DiceRoll, Die, Rolled};
use crate::rules::event::{BattleEvent, Modifier};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::event::{
    AttackRolled, Barred, NoReaction, Reaction, ReactionOffered, ReactionRolled, Turned, Ud10Event,
};

use super::check::{dodge_barred_against, parry_barred_against, reaction_bonus};
use super::damage;
use super::numbers::{
    Pending, PendingAttack, RULE_ATTACK, RULE_FROM_BEHIND, RULE_PARRY, RULE_RANGED, numbers,
    turns_to_face,
};

/// Roll one d10 for a check.
pub fn d10(world: &mut Scene) -> DiceRoll {
    let r = world.dice().roll_die(10);
    DiceRoll {
        expr: Rolled::dice(1, 10),
        dice: smallvec::smallvec![Die {
            sides: 10,
            result: r,
            exploded: false,
            negative: false,
        }],
        flat: 0,
        total: r as i32,
    }
}

/// Execute a legal attack: the roll, and on a hit either a reaction prompt
/// (the defender may parry or dodge) or the damage at once.
pub fn execute_attack(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    weapon_idx: usize,
    mode: usize,
    free: bool,
) {
    // What the attack reads before it changes anything, in one reading
    // scope (each combatant's parts found once): what the event names of
    // the weapon, where the attacker stands, and whether the defender,
    // fighting this one opponent, turns to face it. (The weapon is read
    // where it lies, not copied: striking changes only its ammunition.)
    let read = view::reading(world, |world| {
        let weapon = view::get::<Loadout>(world, attacker)?
            .weapons
            .get(weapon_idx)?;
        let from = view::cell(world, attacker)?;
        view::cell(world, target)?;
        let melee = weapon.kind == WeaponKind::Melee;
        let turns = (!free && melee)
            .then(|| turns_to_face(world, attacker, target))
            .flatten();
        let named = (
            String::from(&*weapon.name),
            weapon.mode_name(mode).to_string(),
            if weapon.is_ranged() {
                weapon.shots(mode)
            } else {
                0
            },
        );
        Some((named, melee, from, turns))
    });
    let Some(((name, mode_name, shots), melee, from, turns)) = read else {
        return;
    };
    if let Some(facing) = turns {
        emit(
            world,
            Ud10Event::Turned(Turned {
                who: target,
                towards: attacker,
                facing,
                rule: RULE_FROM_BEHIND,
            }),
        );
    }
    // The numbers after the turn, which they read (attacked from behind).
    let numbers_now = view::reading(world, |world| {
        let weapon = view::get::<Loadout>(world, attacker)?
            .weapons
            .get(weapon_idx)?;
        Some(numbers(world, attacker, from, target, weapon, mode, free))
    });
    let Some(mut n) = numbers_now else {
        return;
    };
    let roll = d10(world);
    let total = roll.total + n.bonus();
    let hit = total >= n.defense;
    emit(
        world,
        Ud10Event::AttackRolled(AttackRolled {
            attacker,
            target,
            weapon: name,
            weapon_index: weapon_idx,
            mode: mode_name,
            shots,
            roll,
            modifiers: std::mem::take(&mut n.modifiers),
            total,
            defense: n.defense,
            defense_parts: std::mem::take(&mut n.defense_parts),
            hit,
            free,
            rule: if free {
                super::reach::RULE_FLEEING
            } else if melee {
                RULE_ATTACK
            } else {
                RULE_RANGED
            },
        }),
    );
    if !hit {
        return;
    }
    let pending = Pending {
        attacker,
        target,
        weapon: weapon_idx,
        mode,
        total,
        ranged: n.ranged,
        dex_counts: n.dex_counts,
    };
    // Which reactions may come; why neither may, if neither may (said in
    // the log).
    let (parry, dodge) = view::reading(world, |world| {
        if free {
            return (Err(Barred::Fleeing), Err(Barred::Fleeing));
        }
        (
            parry_barred_against(world, target, &pending),
            dodge_barred_against(world, target, &pending),
        )
    });
    match (parry, dodge) {
        (Err(parry), Err(dodge)) => {
            emit(
                world,
                Ud10Event::NoReaction(NoReaction {
                    who: target,
                    parry,
                    dodge,
                    rule: RULE_PARRY,
                }),
            );
            damage::hit(world, &pending);
        }
        (parry, dodge) => emit(
            world,
            Ud10Event::ReactionOffered(ReactionOffered {
                attack: pending,
                parry: parry.is_ok(),
                dodge: dodge.is_ok(),
                rule: RULE_PARRY,
            }),
        ),
    }
}

/// The defender answers the reaction prompt.
pub fn resolve_reaction(world: &mut Scene, who: Cid, command: &Command) {
    // Declining, what the defender could have done ("does not parry or
    // dodge"), read while the attack is still pending.
    let forgoes = if *command == Command::NoReaction {
        let open: Vec<&str> = [
            ("parry", super::check::parry_barred(world, who).is_ok()),
            ("dodge", super::check::dodge_barred(world, who).is_ok()),
        ]
        .into_iter()
        .filter_map(|(w, open)| open.then_some(w))
        .collect();
        crate::rules::narrate::either(&open)
    } else {
        String::new()
    };
    // The attack stays pending until the answer's event (declined, or the
    // reaction rolled) settles it and gives the attacker its turn back.
    let Some(p) = view::resource::<PendingAttack>(world).0.clone() else {
        return;
    };
    let kind = match (command, command.own::<Ud10Command>()) {
        (_, Some(Ud10Command::Parry)) => Some(Reaction::Parry),
        (Command::Dodge, _) => Some(Reaction::Dodge),
        _ => None,
    };
    let Some(kind) = kind else {
        emit(world, BattleEvent::ReactionDeclined { who, forgoes });
        finish_hit(world, &p);
        return;
    };
    let (name, value) = reaction_bonus(world, who, kind);
    let roll = d10(world);
    let modifiers = vec![Modifier::new(name, value, RULE_PARRY)];
    let total = roll.total + value;
    // "If the parry check's result is higher than the attack roll's result,
    // the attack did not go through."
    let success = total > p.total;
    emit(
        world,
        Ud10Event::ReactionRolled(ReactionRolled {
            who,
            kind,
            roll,
            modifiers,
            total,
            against: p.total,
            success,
            rule: RULE_PARRY,
        }),
    );
    if !success {
        finish_hit(world, &p);
    }
}

fn finish_hit(world: &mut Scene, p: &Pending) {
    damage::hit(world, p);
}
