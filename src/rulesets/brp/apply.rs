//! What brp's own events change, and what its round takes from the core's
//! events after the core's shared apply: the only place they change.

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::apply::{each, with};
use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Loadout};
use crate::rules::event::{BattleEvent, Damaged, GearBroken, Moved, ReactionDeclined, TurnEnded};

use super::event::{
    AttackRolled, BrpEvent, Declared, DefenseOffered, DefenseRolled, DexOrder, FirstAid,
    GearDamaged, PhaseBegan, Ranked, Reloaded, Reloading, RoundPhase, Thrown,
};
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
        BattleEvent::TurnEnded(TurnEnded { who }) => slot(world, *who, |s| s.done = true),
        BattleEvent::ReactionDeclined(ReactionDeclined { .. }) => answered(world),
        // Riders move with their mount, as far (docs/rulesets/brp.md,
        // "Mounts and vehicles").
        BattleEvent::Moved(Moved { who, cost_dm, .. }) => {
            slot(world, *who, |s| s.moved_dm += cost_dm);
            for r in crate::rules::view::riders(world, *who) {
                slot(world, r, |s| s.moved_dm += cost_dm);
            }
        }
        // §5.14: "Keep track of each injury separately".
        BattleEvent::Damaged(Damaged {
            target, hp_loss, ..
        }) if *hp_loss > 0 => with::<Wounds>(world, *target, |w| {
            w.0.push(Wound {
                hp: *hp_loss,
                treated: false,
            })
        }),
        BattleEvent::GearBroken(GearBroken {
            who,
            weapon_index: None,
            ..
        }) => {
            if let Some(e) = crate::rules::view::entity(world, *who) {
                world.entity_mut(e).remove::<BrpShield>();
                // The combatant moves to another table: what the step
                // found is found afresh.
                crate::rules::view::moved(world);
            }
        }
        BattleEvent::GearBroken(GearBroken {
            who,
            weapon_index: Some(i),
            ..
        }) => weapon_gone(world, *who, *i),
        _ => {}
    }
}

/// What one of brp's own events changes: the one match, each event to its
/// own function.
fn apply_own(world: &mut World, event: &BrpEvent) {
    match event {
        BrpEvent::PhaseBegan(e) => apply_phase_began(world, e),
        BrpEvent::DexOrder(e) => apply_dex_order(world, e),
        BrpEvent::Declared(e) => apply_declared(world, e),
        BrpEvent::Ranked(e) => apply_ranked(world, e),
        BrpEvent::AttackRolled(e) => apply_attack_rolled(world, e),
        BrpEvent::DefenseOffered(e) => apply_defense_offered(world, e),
        BrpEvent::DefenseRolled(e) => apply_defense_rolled(world, e),
        BrpEvent::GearDamaged(e) => apply_gear_damaged(world, e),
        BrpEvent::Thrown(e) => apply_thrown(world, e),
        BrpEvent::FirstAid(e) => apply_first_aid(world, e),
        BrpEvent::Reloading(e) => apply_reloading(world, e),
        BrpEvent::Reloaded(e) => apply_reloaded(world, e),
        // Told for the log; what they lead to comes as events of its own.
        BrpEvent::RankCalled(_) => {}
        BrpEvent::Matrix(_) => {}
        BrpEvent::DamageRolled(_) => {}
    }
}

/// §5.2: the round's DEX order, and its bookkeeping fresh.
fn apply_dex_order(world: &mut World, e: &DexOrder) {
    let n = view::resource::<crate::rules::roster::Roster>(world).len();
    let mut r = view::write::resource_mut::<BrpRound>(world);
    r.order = e.order.clone();
    r.slots = vec![Default::default(); n];
}

/// The statement of intent binds its maker for the round (§5.2).
fn apply_declared(world: &mut World, e: &Declared) {
    slot(world, e.who, |s| s.declared = Some(e.intent));
}

/// The rank its maker acts on this round, and its movement's band (§5.3).
fn apply_ranked(world: &mut World, e: &Ranked) {
    slot(world, e.who, |s| s.rank = Some((e.rank, e.band)));
}

/// A shot spends a round from the weapon's magazine.
fn apply_attack_rolled(world: &mut World, e: &AttackRolled) {
    if !e.shot {
        return;
    }
    with::<Loadout>(world, e.attacker, |l| {
        if let Some(w) = l.weapons.get_mut(e.weapon_index) {
            w.loaded = w.loaded.saturating_sub(1);
        }
    });
}

/// The attack waits on its target (§5.6, §5.7): it is the pending attack,
/// and the target is asked for its parry or dodge.
fn apply_defense_offered(world: &mut World, e: &DefenseOffered) {
    view::write::resource_mut::<Battle>(world).prompt = Prompt::React {
        actor: e.attack.target,
        attacker: e.attack.attacker,
    };
    view::write::resource_mut::<PendingAttack>(world).0 = Some(e.attack.clone());
}

/// A parry or dodge counts against the defender's round (§5.11), and
/// answers the pending attack.
fn apply_defense_rolled(world: &mut World, e: &DefenseRolled) {
    slot(world, e.who, |s| s.defences = s.defences.saturating_add(1));
    answered(world);
}

/// The weapon or shield that parried keeps its hit points left (§5.8).
fn apply_gear_damaged(world: &mut World, e: &GearDamaged) {
    match e.weapon_index {
        Some(i) => with::<Loadout>(world, e.who, |l| {
            if let Some(g) = l
                .weapons
                .get_mut(i)
                .and_then(|w| w.own.get_mut::<BrpWeapon>())
            {
                g.hp = Some(e.hp_left);
            }
        }),
        None => with::<BrpShield>(world, e.who, |s| s.hp = e.hp_left),
    }
}

/// A thrown weapon leaves the thrower's loadout (the ready weapon's index
/// follows), and its statement with it.
fn apply_thrown(world: &mut World, e: &Thrown) {
    let i = e.weapon_index;
    with::<Loadout>(world, e.who, |l| {
        if i < l.weapons.len() {
            l.weapons.remove(i);
            l.ready = match l.ready {
                Some(r) if r == i => None,
                Some(r) if r > i => Some(r - 1),
                r => r,
            };
        }
    });
    weapon_gone(world, e.who, i);
}

/// §5.14: every wound of the patient counts as treated, healed or not.
fn apply_first_aid(world: &mut World, e: &FirstAid) {
    with::<Wounds>(world, e.patient, |w| {
        for wound in &mut w.0 {
            wound.treated = true;
        }
    });
}

/// A reload begun: the weapon is the one in hand, loaded at the round's end.
fn apply_reloading(world: &mut World, e: &Reloading) {
    let i = e.weapon_index;
    slot(world, e.who, |s| s.reloading = Some(i));
    with::<Loadout>(world, e.who, |l| l.ready = Some(i));
}

/// A reload done: the weapon holds `loaded`, taken from its spares.
fn apply_reloaded(world: &mut World, e: &Reloaded) {
    slot(world, e.who, |s| s.reloading = None);
    with::<Loadout>(world, e.who, |l| {
        if let Some(w) = l.weapons.get_mut(e.weapon_index) {
            let added = e.loaded.saturating_sub(w.loaded);
            w.loaded = e.loaded;
            if let Some(s) = &mut w.spare {
                *s = s.saturating_sub(added);
            }
        }
    });
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
fn apply_phase_began(world: &mut World, e: &PhaseBegan) {
    let phase = e.phase;
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
