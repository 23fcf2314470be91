//! What zones' own events change: the only place they change, applied
//! through the ruleset's `apply` hook after the core's shared apply.

use bevy::prelude::*;

use crate::rules::apply::{each, face, strike, with};
use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Condition, TurnState};
use crate::rules::event::BattleEvent;
use crate::rules::event::{
    ConditionAdded, Damaged, Drew, GearBroken, Moved, PickedUp, RoundEnded, RoundStarted, TurnEnded,
};
use crate::rules::view;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::data::ZonesStats;
use crate::rulesets::zones::event::ZonesEvent;
use crate::rulesets::zones::query::standing_per_faction;
use crate::rulesets::zones::state::{GearUse, Pending, Swayed, TurnBudget, Waiting, ZonesRound};

/// zones' apply hook: the gear the fight uses and breaks, what the core's
/// events mean for zones' turn, then zones' own events.
pub fn apply(world: &mut World, event: &BattleEvent) {
    gear(world, event);
    after_core(world, event);
    if let Some(own) = event.own::<ZonesEvent>() {
        apply_own(world, own);
    }
}

/// §Combat gear degradation: the gear the fight uses and what it breaks.
fn gear(world: &mut World, event: &BattleEvent) {
    // The gear the fight uses, for the rolls once it is over.
    match (event, event.own::<ZonesEvent>()) {
        (
            _,
            Some(ZonesEvent::AttackMade {
                attacker, weapon, ..
            }),
        ) => used(
            world,
            GearUse::Attack {
                attacker: *attacker,
                weapon: weapon.clone(),
            },
        ),
        (BattleEvent::Damaged(Damaged { target, .. }), _) => {
            used(world, GearUse::Hit { target: *target })
        }
        _ => {}
    }
    // What broke stays broken for the rest of the fight (the core took a broken weapon out of the loadout).
    if let BattleEvent::GearBroken(GearBroken { who, item, .. }) = event {
        with::<ZonesStats>(world, *who, |s| {
            if !s.broken.contains(item) {
                s.broken.push(item.clone());
            }
        });
    }
}

/// What the core's events mean for zones' turn and for who is swayed.
fn after_core(world: &mut World, event: &BattleEvent) {
    // A distraction lasts the round; a taunt until the end of the taunted
    // one's next turn.
    match event {
        BattleEvent::RoundStarted(RoundStarted { round }) => round_started(world, *round),
        // "Bonus actions: picking up or putting down something", drawing.
        BattleEvent::PickedUp(PickedUp { .. }) | BattleEvent::Drew(Drew { .. }) => {
            view::write::resource_mut::<ZonesRound>(world).turn.bonus += 1;
        }
        // §Taking a turn: the zone borders the mover crossed count against
        // its speed.
        BattleEvent::Moved(Moved { zones, .. }) => {
            view::write::resource_mut::<ZonesRound>(world).turn.zones += zones;
        }
        BattleEvent::RoundEnded(RoundEnded { .. }) => {
            each::<Swayed>(world, |s| s.distracted = false)
        }
        BattleEvent::TurnEnded(TurnEnded { who }) => {
            with::<Swayed>(world, *who, |s| s.taunted_by = None)
        }
        // §Sneaking in combat: hiding again is the turn's main action (an
        // ambusher's concealment is set up with the level, not added).
        BattleEvent::ConditionAdded(ConditionAdded {
            who,
            condition: Condition::Concealed,
            ..
        }) if view::resource::<ZonesRound>(world).turn.who == Some(*who) => {
            view::write::resource_mut::<ZonesRound>(world).turn.main = true;
        }
        _ => {}
    }
}

/// zones' own events: the actions of a turn here, the round's procedure in
/// [`apply_procedure`].
fn apply_own(world: &mut World, event: &ZonesEvent) {
    match event {
        ZonesEvent::AttackMade {
            attacker,
            target,
            weapon_index,
            reaction,
            ..
        } => apply_attack_made(world, attacker, target, weapon_index, reaction),
        ZonesEvent::ManeuverMade {
            attacker,
            target,
            reaction,
            ..
        } => apply_maneuver_made(world, attacker, target, reaction),
        ZonesEvent::FreeTried { .. } => {
            view::write::resource_mut::<ZonesRound>(world).turn.main = true
        }
        ZonesEvent::ReactionTaken { who, .. } => {
            // §Taking a turn: "A reaction takes the whole turn and doesn't
            // allow for movement or a bonus action."
            with::<TurnState>(world, *who, |t| {
                t.reaction_used = true;
                t.done = true;
            });
        }
        ZonesEvent::SaveRolled { .. }
        | ZonesEvent::AttackMissed { .. }
        | ZonesEvent::BlastHits { .. }
        | ZonesEvent::GearRolled { .. }
        | ZonesEvent::StuntProposed { .. }
        | ZonesEvent::StuntAccepted { .. }
        | ZonesEvent::CounterOrder { .. }
        | ZonesEvent::BlowStopped { .. } => {}
        // §Taking a turn: words and items are main actions.
        ZonesEvent::InfluenceTried { .. } => {
            view::write::resource_mut::<ZonesRound>(world).turn.main = true
        }
        ZonesEvent::ItemUsed { who, item, .. } => {
            view::write::resource_mut::<ZonesRound>(world).turn.main = true;
            with::<ZonesStats>(world, *who, |s| {
                if let Some(i) = s.items.get_mut(*item) {
                    i.uses = i.uses.saturating_sub(1);
                }
            });
        }
        ZonesEvent::PowerInvoked { by, index, .. } => {
            view::write::resource_mut::<ZonesRound>(world).turn.main = true;
            with::<ZonesStats>(world, *by, |s| {
                if let Some(p) = s.powers.get_mut(*index) {
                    p.uses = p.uses.saturating_sub(1);
                }
            });
        }
        // Back on its feet, it takes no turn this round (Fray decides).
        ZonesEvent::BackOnFeet { who, .. } => with::<TurnState>(world, *who, |t| t.done = true),
        ZonesEvent::Swayed {
            target, by, kind, ..
        } => with::<Swayed>(world, *target, |s| match kind {
            Influence::Taunt => s.taunted_by = Some(*by),
            _ => s.distracted = true,
        }),
        procedure => apply_procedure(world, procedure),
    }
}

/// The round's procedure (initiative, activation, passes, offers, the
/// pair's turn, its budget): the rest of [`apply_own`].
fn apply_procedure(world: &mut World, event: &ZonesEvent) {
    match event {
        // The holder is asked first each round; what stands now is the
        // fight's start for morale.
        ZonesEvent::InitiativeHeld { faction, .. } => {
            let original = standing_per_faction(world);
            let mut r = view::write::resource_mut::<ZonesRound>(world);
            r.holder = Some(*faction);
            r.original = original;
        }
        // §Procedure: a pass counts, and play goes to the next faction.
        ZonesEvent::Passed { faction, .. } => passed(world, *faction),
        // The holder gives the first turn away.
        ZonesEvent::FirstTurnGiven { to, .. } => {
            let mut r = view::write::resource_mut::<ZonesRound>(world);
            r.opening = false;
            r.next = *to;
            view::write::resource_mut::<Battle>(world).prompt = Prompt::None;
        }
        ZonesEvent::Activated { who, .. } => activated(world, *who),
        ZonesEvent::ActivationOffered {
            faction, speaker, ..
        } => {
            view::write::resource_mut::<Battle>(world).prompt = Prompt::Activate {
                faction: *faction,
                speaker: *speaker,
            };
        }
        ZonesEvent::ReactionOffered { who, by, waits, .. } => offered(world, *who, *by, waits),
        ZonesEvent::TurnResumed { who, .. } => {
            *view::write::resource_mut::<Pending>(world) = Pending::default();
            view::write::resource_mut::<Battle>(world).prompt = match who {
                Some(who) => Prompt::Act { actor: *who },
                None => Prompt::None,
            };
        }
        // The pair's turn is over: a fresh turn for the next faction.
        ZonesEvent::PlayGoesTo { faction, .. } => play_goes_to(world, *faction),
        ZonesEvent::PairTurn { acting, others, .. } => {
            let mut r = view::write::resource_mut::<ZonesRound>(world);
            r.turn = acting.clone();
            r.team = others.clone();
        }
        ZonesEvent::TurnHandedOver { to, .. } => {
            view::write::resource_mut::<Battle>(world).prompt = Prompt::Act { actor: *to };
        }
        ZonesEvent::JoinsTurn { who, .. } => {
            view::write::resource_mut::<ZonesRound>(world)
                .team
                .push(TurnBudget {
                    who: Some(*who),
                    ..Default::default()
                });
        }
        ZonesEvent::TurnReserved { who, .. } => {
            view::write::resource_mut::<ZonesRound>(world)
                .reserved
                .push(*who);
        }
        ZonesEvent::HalfZoneSpent { .. } => {
            view::write::resource_mut::<ZonesRound>(world).turn.halves += 1
        }
        ZonesEvent::CarriedFast { riders, .. } => {
            let mut r = view::write::resource_mut::<ZonesRound>(world);
            for c in riders {
                if !r.carried_fast.contains(c) {
                    r.carried_fast.push(*c);
                }
            }
        }
        other => unreachable!("apply_own applies {other:?}"),
    }
}

/// §Procedure: `faction` passes: the pass counts, and play goes to the
/// next faction.
fn passed(world: &mut World, faction: u8) {
    let n = view::resource::<crate::rules::roster::Factions>(world)
        .0
        .len()
        .max(1) as u8;
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.passes += 1;
    r.opening = false;
    r.next = (faction + 1) % n;
    view::write::resource_mut::<Battle>(world).prompt = Prompt::None;
}

/// The pair's turn is over: play goes to `faction`, with a fresh turn.
fn play_goes_to(world: &mut World, faction: u8) {
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.next = faction;
    r.turn = TurnBudget::default();
    r.team.clear();
    view::write::resource_mut::<Battle>(world).prompt = Prompt::None;
}

fn used(world: &mut World, gear: GearUse) {
    view::write::resource_mut::<ZonesRound>(world)
        .gear_used
        .push(gear);
}

fn apply_attack_made(
    world: &mut World,
    attacker: &Cid,
    target: &Cid,
    weapon_index: &usize,
    reaction: &bool,
) {
    // One blow, one arrow or stone (zones weapons have no magazine).
    strike(world, *attacker, *target, *weapon_index, 1);
    // §Taking a turn: an attack on one's turn is its main action.
    if !*reaction {
        with::<TurnState>(world, *attacker, |t| t.action_used = true);
        view::write::resource_mut::<ZonesRound>(world).turn.main = true;
    }
}

fn apply_maneuver_made(world: &mut World, attacker: &Cid, target: &Cid, reaction: &bool) {
    face(world, *attacker, *target);
    if !*reaction {
        with::<TurnState>(world, *attacker, |t| t.action_used = true);
        view::write::resource_mut::<ZonesRound>(world).turn.main = true;
    }
}

/// A round begins (§Combat procedure): the factions are asked in turn from
/// the initiative's holder, nobody has passed or reserved; round 0 is the
/// concealed characters' bonus round (§Sneaking in combat); who stands
/// and each one's health now, for the round's morale checks.
fn round_started(world: &mut World, round: u32) {
    let start_standing = standing_per_faction(world);
    let start_health: Vec<i32> = view::all(world)
        .into_iter()
        .map(|c| view::get::<crate::rules::components::Health>(world, c).map_or(0, |h| h.hp))
        .collect();
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.bonus = round == 0;
    r.next = r.holder.unwrap_or(0);
    r.passes = 0;
    r.opening = true;
    r.turn = Default::default();
    r.team.clear();
    r.reserved.clear();
    r.carried_fast.clear();
    r.start_standing = start_standing;
    r.start_health = start_health;
    view::write::resource_mut::<Battle>(world).phase = Phase::Activation;
}

/// §Procedure: a faction takes its turn with `who`: nobody has passed
/// since, and `who`'s turn budget is fresh; "Mounts and riders, as well as
/// vehicles and passengers, take turn together": the others of its pair
/// share the turn, each with a budget of its own.
fn activated(world: &mut World, who: Cid) {
    let team: Vec<TurnBudget> = crate::rulesets::zones::turns::pair(world, who)
        .into_iter()
        .filter(|c| *c != who)
        .map(|c| TurnBudget {
            who: Some(c),
            ..Default::default()
        })
        .collect();
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.passes = 0;
    r.opening = false;
    r.turn = TurnBudget {
        who: Some(who),
        ..Default::default()
    };
    r.team = team;
}

/// `who` is asked to react to `by`: what waits for the answer is kept, the
/// other of an attack and a blast is over; a move at a border stands alone.
fn offered(world: &mut World, who: Cid, by: Cid, waits: &Waiting) {
    let mut p = view::write::resource_mut::<Pending>(world);
    match waits {
        Waiting::Attack(a) => {
            p.attack = Some(a.clone());
            p.blast = None;
        }
        Waiting::Blast(b) => {
            p.blast = Some(b.clone());
            p.attack = None;
        }
        Waiting::Move(m) => {
            *p = Pending {
                moving: Some(m.clone()),
                ..Default::default()
            };
        }
    }
    view::write::resource_mut::<Battle>(world).prompt = Prompt::React {
        actor: who,
        attacker: by,
    };
}
