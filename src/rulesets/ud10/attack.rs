//! UD10 attacks (§Attacking, §Defense Rating Modifiers, §Attack Modifiers,
//! §Ranged Attacks) and the reactions to them (§Parrying and Dodging).

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout, WeaponKind};
use crate::rules::dice::{DiceRoll, Die, Rolled};
use crate::rules::event::{BattleEvent, Modifier, ReactionDeclined};
use crate::rules::level::Facing;
use crate::rules::map::Cell;
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
    let attack = Attack {
        attacker,
        target,
        weapon: weapon_idx,
        mode,
        free,
    };
    let Some(read) = read_attack(world, &attack) else {
        return;
    };
    if let Some(facing) = read.turns {
        turn_to_face(world, &attack, facing);
    }
    if let Some(pending) = roll_attack(world, &attack, read) {
        offer_reactions(world, pending, free);
    }
}

/// One attack as commanded: who strikes whom, with which weapon (its index
/// in the attacker's loadout) in which mode, and whether it is a free
/// attack on one who flees rather than the attacker's action.
struct Attack {
    attacker: Cid,
    target: Cid,
    weapon: usize,
    mode: usize,
    free: bool,
}

/// What an attack reads before it changes anything.
struct AttackRead {
    /// The weapon's name, as the event names it.
    name: String,
    /// The mode's name ("single" for a weapon of one mode).
    mode_name: String,
    /// The ammunition it spends (none in melee).
    shots: u32,
    /// A melee weapon (else a ranged or thrown one).
    melee: bool,
    /// Where the attacker stands.
    from: Cell,
    /// The way the defender turns to face its one opponent, if it does.
    turns: Option<Facing>,
}

/// What the attack reads before it changes anything, in one reading scope
/// (each combatant's parts found once): what the event names of the
/// weapon, where the attacker stands, and whether the defender, fighting
/// this one opponent, turns to face it. (The weapon is read where it lies,
/// not copied: striking changes only its ammunition.) None: the attacker,
/// its weapon or the target is gone.
fn read_attack(world: &mut Scene, a: &Attack) -> Option<AttackRead> {
    view::reading(world, |world| {
        let weapon = view::get::<Loadout>(world, a.attacker)?
            .weapons
            .get(a.weapon)?;
        let from = view::cell(world, a.attacker)?;
        view::cell(world, a.target)?;
        let melee = weapon.kind == WeaponKind::Melee;
        let turns = (!a.free && melee)
            .then(|| turns_to_face(world, a.attacker, a.target))
            .flatten();
        Some(AttackRead {
            name: String::from(&*weapon.name),
            mode_name: weapon.mode_name(a.mode).to_string(),
            shots: if weapon.is_ranged() {
                weapon.shots(a.mode)
            } else {
                0
            },
            melee,
            from,
            turns,
        })
    })
}

/// The defender no other enemy engages turns to face its attacker in melee
/// (Fray decides: docs/rulesets/ud10.md, "From behind").
fn turn_to_face(world: &mut Scene, a: &Attack, facing: Facing) {
    emit(
        world,
        Ud10Event::Turned(Turned {
            who: a.target,
            towards: a.attacker,
            facing,
            rule: RULE_FROM_BEHIND,
        }),
    );
}

/// §Attacking: d10 + the attack's bonus against the defender's Defense,
/// with the numbers read after any turn (attacked from behind). On a hit,
/// the attack as it waits on an answer.
fn roll_attack(world: &mut Scene, a: &Attack, read: AttackRead) -> Option<Pending> {
    let mut n = view::reading(world, |world| {
        let weapon = view::get::<Loadout>(world, a.attacker)?
            .weapons
            .get(a.weapon)?;
        Some(numbers(
            world, a.attacker, read.from, a.target, weapon, a.mode, a.free,
        ))
    })?;
    let roll = d10(world);
    let total = roll.total + n.bonus();
    let hit = total >= n.defense;
    emit(
        world,
        Ud10Event::AttackRolled(AttackRolled {
            attacker: a.attacker,
            target: a.target,
            weapon: read.name,
            weapon_index: a.weapon,
            mode: read.mode_name,
            shots: read.shots,
            roll,
            modifiers: std::mem::take(&mut n.modifiers),
            total,
            defense: n.defense,
            defense_parts: std::mem::take(&mut n.defense_parts),
            hit,
            free: a.free,
            rule: if a.free {
                super::reach::RULE_FLEEING
            } else if read.melee {
                RULE_ATTACK
            } else {
                RULE_RANGED
            },
        }),
    );
    hit.then_some(Pending {
        attacker: a.attacker,
        target: a.target,
        weapon: a.weapon,
        mode: a.mode,
        total,
        ranged: n.ranged,
        dex_counts: n.dex_counts,
    })
}

/// §Parrying and Dodging: a hit its target may answer waits on the answer;
/// one it may neither parry nor dodge (a free attack on one who flees is
/// never answered) says why not each, and its damage follows at once.
fn offer_reactions(world: &mut Scene, pending: Pending, free: bool) {
    let target = pending.target;
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
        emit(
            world,
            BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
        );
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
