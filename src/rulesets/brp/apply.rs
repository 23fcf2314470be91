//! What brp's own events change, and what its round takes from the core's
//! events after the core's shared apply: the only place they change.

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::apply::{each, with};
use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Loadout};
use crate::rules::event::BattleEvent;

use super::event::{BrpEvent, RoundPhase};
use super::query::enemy_adjacent;
use super::state::{BrpRound, PendingAttack};
use super::stats::{BrpShield, BrpWeapon, Wound, Wounds};

pub fn apply(world: &mut World, event: &BattleEvent) {
    match event {
        BattleEvent::Ruleset(_) => {
            if let Some(own) = event.own::<BrpEvent>() {
                apply_own(world, own);
            }
        }
        BattleEvent::TurnEnded { who } => slot(world, *who, |s| s.done = true),
        BattleEvent::ReactionDeclined { .. } => answered(world),
        // Riders move with their mount, as far (docs/rulesets/brp.md,
        // "Mounts and vehicles").
        BattleEvent::Moved { who, cost_dm, .. } => {
            slot(world, *who, |s| s.moved_dm += cost_dm);
            for r in crate::rules::view::riders(world, *who) {
                slot(world, r, |s| s.moved_dm += cost_dm);
            }
        }
        // §5.14: "Keep track of each injury separately".
        BattleEvent::Damaged {
            target, hp_loss, ..
        } if *hp_loss > 0 => with::<Wounds>(world, *target, |w| {
            w.0.push(Wound {
                hp: *hp_loss,
                treated: false,
            })
        }),
        BattleEvent::GearBroken {
            who,
            weapon_index: None,
            ..
        } => {
            if let Some(e) = crate::rules::view::entity(world, *who) {
                world.entity_mut(e).remove::<BrpShield>();
                // The combatant moves to another table: what the step
                // found is found afresh.
                crate::rules::view::moved(world);
            }
        }
        BattleEvent::GearBroken {
            who,
            weapon_index: Some(i),
            ..
        } => weapon_gone(world, *who, *i),
        _ => {}
    }
}

fn apply_own(world: &mut World, e: &BrpEvent) {
    match e {
        BrpEvent::PhaseBegan { phase, .. } => phase_began(world, *phase),
        // §5.2: the round's DEX order, and its bookkeeping fresh.
        BrpEvent::DexOrder { order, .. } => {
            let n = view::resource::<crate::rules::roster::Roster>(world).len();
            let mut r = view::write::resource_mut::<BrpRound>(world);
            r.order = order.clone();
            r.slots = vec![Default::default(); n];
        }
        BrpEvent::DefenseOffered { attack, .. } => {
            view::write::resource_mut::<Battle>(world).prompt = Prompt::React {
                actor: attack.target,
                attacker: attack.attacker,
            };
            view::write::resource_mut::<PendingAttack>(world).0 = Some(attack.clone());
        }
        BrpEvent::Declared { who, intent, .. } => slot(world, *who, |s| s.declared = Some(*intent)),
        BrpEvent::Ranked {
            who, rank, band, ..
        } => slot(world, *who, |s| s.rank = Some((*rank, *band))),
        BrpEvent::AttackRolled {
            attacker,
            weapon_index,
            shot: true,
            ..
        } => with::<Loadout>(world, *attacker, |l| {
            if let Some(w) = l.weapons.get_mut(*weapon_index) {
                w.loaded = w.loaded.saturating_sub(1);
            }
        }),
        BrpEvent::GearDamaged {
            who,
            weapon_index: Some(i),
            hp_left,
            ..
        } => with::<Loadout>(world, *who, |l| {
            if let Some(g) = l
                .weapons
                .get_mut(*i)
                .and_then(|w| w.own.get_mut::<BrpWeapon>())
            {
                g.hp = Some(*hp_left);
            }
        }),
        BrpEvent::GearDamaged {
            who,
            weapon_index: None,
            hp_left,
            ..
        } => with::<BrpShield>(world, *who, |s| s.hp = *hp_left),
        BrpEvent::Thrown {
            who, weapon_index, ..
        } => {
            with::<Loadout>(world, *who, |l| {
                let i = *weapon_index;
                if i < l.weapons.len() {
                    l.weapons.remove(i);
                    l.ready = match l.ready {
                        Some(r) if r == i => None,
                        Some(r) if r > i => Some(r - 1),
                        r => r,
                    };
                }
            });
            weapon_gone(world, *who, *weapon_index);
        }
        BrpEvent::FirstAid { patient, .. } => with::<Wounds>(world, *patient, |w| {
            for wound in &mut w.0 {
                wound.treated = true;
            }
        }),
        BrpEvent::Reloading {
            who, weapon_index, ..
        } => {
            let i = *weapon_index;
            slot(world, *who, |s| s.reloading = Some(i));
            with::<Loadout>(world, *who, |l| l.ready = Some(i));
        }
        BrpEvent::Reloaded {
            who,
            weapon_index,
            loaded,
            ..
        } => {
            slot(world, *who, |s| s.reloading = None);
            with::<Loadout>(world, *who, |l| {
                if let Some(w) = l.weapons.get_mut(*weapon_index) {
                    let added = loaded.saturating_sub(w.loaded);
                    w.loaded = *loaded;
                    if let Some(s) = &mut w.spare {
                        *s = s.saturating_sub(added);
                    }
                }
            });
        }
        BrpEvent::DefenseRolled { who, .. } => {
            slot(world, *who, |s| s.defences = s.defences.saturating_add(1));
            answered(world);
        }
        BrpEvent::RankCalled { .. }
        | BrpEvent::Matrix { .. }
        | BrpEvent::DamageRolled { .. }
        | BrpEvent::AttackRolled { .. } => {}
    }
}

/// Weapon `i` has left `who`'s loadout (broken, thrown): its statement
/// follows the weapons that move up a place; one that named the weapon gone
/// is left with nothing to do but parry and dodge (docs/rulesets/brp.md,
/// "Binding statements").
fn weapon_gone(world: &mut World, who: Cid, i: usize) {
    use super::command::Intent;
    let shift = |w: usize| {
        if w > i {
            Some(w - 1)
        } else if w == i {
            None
        } else {
            Some(w)
        }
    };
    slot(world, who, |s| {
        s.declared = match s.declared {
            Some(Intent::Attack { target, weapon }) => Some(match shift(weapon) {
                Some(weapon) => Intent::Attack { target, weapon },
                None => Intent::Defend,
            }),
            Some(Intent::Reload { weapon }) => {
                Some(shift(weapon).map_or(Intent::Defend, |weapon| Intent::Reload { weapon }))
            }
            other => other,
        };
        if let Some(r) = s.reloading {
            s.reloading = shift(r);
        }
    });
}

fn slot(world: &mut World, who: Cid, f: impl FnOnce(&mut super::state::Slot)) {
    if let Some(s) = view::write::resource_mut::<BrpRound>(world)
        .slots
        .get_mut(who.0 as usize)
    {
        f(s);
    }
}

/// A phase of the round begins (§5.1): the battle is in it, and each
/// phase gives everyone a turn anew (the tracker's "turn taken"); the
/// Movement phase also marks who is "involved in combat" as it begins
/// (§5.3): next to an enemy.
fn phase_began(world: &mut World, phase: RoundPhase) {
    view::write::resource_mut::<Battle>(world).phase = match phase {
        RoundPhase::Intent => Phase::Intent,
        RoundPhase::Movement => Phase::Movement,
        RoundPhase::Actions => Phase::Actions,
        RoundPhase::Resolution => Phase::Resolution,
    };
    each::<crate::rules::components::TurnState>(world, |t| t.done = false);
    if matches!(phase, RoundPhase::Movement | RoundPhase::Actions) {
        for s in &mut view::write::resource_mut::<BrpRound>(world).slots {
            s.done = false;
        }
    }
    if phase == RoundPhase::Movement {
        for c in view::standing_all(world) {
            let involved = view::cell(world, c).is_some_and(|at| enemy_adjacent(world, c, at));
            slot(world, c, |s| s.involved = involved);
        }
    }
}

/// The pending attack answered (a defence rolled or declined): nothing is
/// pending, and the attacker's turn goes on.
fn answered(world: &mut World) {
    if let Some(p) = view::write::resource_mut::<PendingAttack>(world).0.take() {
        view::write::resource_mut::<Battle>(world).prompt = Prompt::Act { actor: p.attacker };
    }
}
