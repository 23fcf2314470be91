//! What `fray audit` counts of the AI's play under UD10: the plays a GM
//! reading the logs would question (attacks from behind, free attacks
//! drawn for nothing, reactions that could not work) and the ones the AI
//! should make (aiming, shooting from cover, first aid). Reads only.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Loadout, WeaponKind};
use crate::rules::event::{BattleEvent, TurnStarted};
use crate::rules::hooks::AuditFigure;
use crate::rules::log::BattleLog;
use crate::rules::map::Map;
use crate::rules::view;

use super::cover::cover;
use super::event::{AttackRolled, FirstAid, ReactionRolled, Ud10Event};
use super::numbers::DEX_BEHIND;
use super::settings::Ud10Settings;

const MELEE: usize = 0;
const BEHIND: usize = 1;
const FREE: usize = 2;
const WASTED: usize = 3;
const SHOTS: usize = 4;
const FROM_COVER: usize = 5;
const CROUCHED: usize = 6;
const AIMS: usize = 7;
const REACTIONS: usize = 8;
const HOPELESS: usize = 9;
const FIRST_AID: usize = 10;
const BROUGHT_ROUND: usize = 11;

pub const FIGURES: &[AuditFigure] = &[
    AuditFigure {
        name: "melee attacks",
        counts: "melee attacks made as the attacker's action (free attacks apart)",
        of: None,
    },
    AuditFigure {
        name: "from behind",
        counts: "of those, attacks from behind the defender (no DEX, no shield, no parry or dodge)",
        of: Some("melee attacks"),
    },
    AuditFigure {
        name: "free attacks",
        counts: "free attacks drawn by a combatant leaving melee or fleeing (§Optional Rule: Fleeing From Battle)",
        of: None,
    },
    AuditFigure {
        name: "wasted",
        counts: "of those, drawn by a mover who then attacked the very enemy that struck it, in the same turn",
        of: Some("free attacks"),
    },
    AuditFigure {
        name: "shots",
        counts: "ranged attacks",
        of: None,
    },
    AuditFigure {
        name: "from cover",
        counts: "of the shots, shot from behind cover (terrain) against the target's return fire",
        of: Some("shots"),
    },
    AuditFigure {
        name: "crouched",
        counts: "of the shots, shot crouching (§Taking Cover)",
        of: Some("shots"),
    },
    AuditFigure {
        name: "aims",
        counts: "rounds spent taking aim (§Attack Modifiers)",
        of: None,
    },
    AuditFigure {
        name: "reactions",
        counts: "parries and dodges tried",
        of: None,
    },
    AuditFigure {
        name: "hopeless",
        counts: "of those, ones no die could have made beat the attack",
        of: Some("reactions"),
    },
    AuditFigure {
        name: "first aid",
        counts: "First Aid checks made on unconscious allies (§Performing Actions)",
        of: None,
    },
    AuditFigure {
        name: "brought round",
        counts: "of those, ones that brought the ally round",
        of: Some("first aid"),
    },
];

/// Count the plays in the events from `first` on.
pub fn audit(world: &World, first: usize, counts: &mut [u64]) {
    if counts.len() < FIGURES.len() {
        return;
    }
    let log = &view::resource::<BattleLog>(world).events;
    for (k, e) in log.iter().enumerate().skip(first) {
        let Some(own) = e.own::<Ud10Event>() else {
            continue;
        };
        match own {
            Ud10Event::AttackRolled(AttackRolled {
                attacker,
                target,
                weapon_index,
                defense_parts,
                free,
                ..
            }) => {
                if *free {
                    counts[FREE] += 1;
                    continue;
                }
                if is_melee(world, *attacker, *weapon_index) {
                    counts[MELEE] += 1;
                    if defense_parts.iter().any(|m| m.name == DEX_BEHIND) {
                        counts[BEHIND] += 1;
                    }
                } else {
                    counts[SHOTS] += 1;
                    if shot_from_cover(world, *attacker, *target) {
                        counts[FROM_COVER] += 1;
                    }
                    if view::conditions(world, *attacker).has(Condition::Crouching) {
                        counts[CROUCHED] += 1;
                    }
                }
                counts[WASTED] += free_attacks_this_turn(&log[..k], *attacker, *target);
            }
            Ud10Event::Aimed(_) => counts[AIMS] += 1,
            Ud10Event::FirstAid(FirstAid { success, .. }) => {
                counts[FIRST_AID] += 1;
                counts[BROUGHT_ROUND] += u64::from(*success);
            }
            Ud10Event::ReactionRolled(ReactionRolled {
                roll,
                total,
                against,
                ..
            }) => {
                counts[REACTIONS] += 1;
                // The best the die could have given: a ten.
                let best = total - roll.total + 10;
                if best <= *against {
                    counts[HOPELESS] += 1;
                }
            }
            _ => {}
        }
    }
}

/// Was the weapon a melee one? (A thrown weapon has left the hand.)
fn is_melee(world: &World, who: Cid, index: usize) -> bool {
    view::get::<Loadout>(world, who)
        .and_then(|l| l.weapons.get(index))
        .is_some_and(|w| w.kind == WeaponKind::Melee)
}

/// Had `shooter` cover from the terrain against `target`'s return fire?
fn shot_from_cover(world: &World, shooter: Cid, target: Cid) -> bool {
    let (Some(at), Some(from)) = (view::cell(world, shooter), view::cell(world, target)) else {
        return false;
    };
    cover(
        view::resource::<Map>(world),
        view::resource::<Ud10Settings>(world),
        from,
        at,
    )
    .is_some()
}

/// Free attacks `by` made on `mover` since `mover`'s turn began.
fn free_attacks_this_turn(before: &[BattleEvent], mover: Cid, by: Cid) -> u64 {
    let mut n = 0;
    for e in before.iter().rev() {
        if let BattleEvent::TurnStarted(TurnStarted { who }) = e
            && *who == mover
        {
            break;
        }
        if let Some(Ud10Event::AttackRolled(AttackRolled {
            attacker,
            target,
            free: true,
            ..
        })) = e.own::<Ud10Event>()
            && *attacker == by
            && *target == mover
        {
            n += 1;
        }
    }
    n
}
