//! What zones' own events change: the only place they change, applied
//! through the ruleset's `apply` hook after the core's shared apply.

use bevy::prelude::*;

use crate::rules::apply::{each, face, strike, with};
use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::components::{Cid, Condition, TurnState};
use crate::rules::event::{
    BattleEvent, ConditionAdded, Damaged, Drew, GearBroken, Moved, PickedUp, RoundEnded,
    RoundStarted, TurnEnded,
};
use crate::rules::view;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::event::{
    self, ActivationOffered, AttackMade, BackOnFeet, CarriedFast, FirstTurnGiven, FreeTried,
    HalfZoneSpent, InfluenceTried, InitiativeHeld, ItemUsed, JoinsTurn, ManeuverMade, PairTurn,
    PowerInvoked, ReactionTaken, TurnHandedOver, TurnReserved, TurnResumed, ZonesEvent,
};
use crate::rulesets::zones::query::standing_per_faction;
use crate::rulesets::zones::state::{GearUse, Pending, Swayed, TurnBudget, Waiting, ZonesRound};
use crate::rulesets::zones::stats::ZonesStats;

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
            Some(ZonesEvent::AttackMade(AttackMade {
                attacker, weapon, ..
            })),
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

/// zones' own events: each one's apply, the one match over them here.
fn apply_own(world: &mut World, event: &ZonesEvent) {
    match event {
        ZonesEvent::InitiativeHeld(e) => apply_initiative_held(world, e),
        ZonesEvent::FirstTurnGiven(e) => apply_first_turn_given(world, e),
        ZonesEvent::Activated(e) => activated(world, e.who),
        ZonesEvent::Passed(e) => passed(world, e.faction),
        ZonesEvent::ActivationOffered(e) => apply_activation_offered(world, e),
        ZonesEvent::ReactionOffered(e) => offered(world, e.who, e.by, &e.waits),
        ZonesEvent::TurnResumed(e) => apply_turn_resumed(world, e),
        ZonesEvent::PlayGoesTo(e) => play_goes_to(world, e.faction),
        ZonesEvent::PairTurn(e) => apply_pair_turn(world, e),
        ZonesEvent::JoinsTurn(e) => apply_joins_turn(world, e),
        ZonesEvent::HalfZoneSpent(e) => apply_half_zone_spent(world, e),
        ZonesEvent::CarriedFast(e) => apply_carried_fast(world, e),
        ZonesEvent::AttackMade(e) => apply_attack_made(world, e),
        ZonesEvent::ReactionTaken(e) => apply_reaction_taken(world, e),
        ZonesEvent::ManeuverMade(e) => apply_maneuver_made(world, e),
        ZonesEvent::TurnHandedOver(e) => apply_turn_handed_over(world, e),
        ZonesEvent::TurnReserved(e) => apply_turn_reserved(world, e),
        ZonesEvent::InfluenceTried(e) => apply_influence_tried(world, e),
        ZonesEvent::Swayed(e) => apply_swayed(world, e),
        ZonesEvent::ItemUsed(e) => apply_item_used(world, e),
        ZonesEvent::BackOnFeet(e) => apply_back_on_feet(world, e),
        ZonesEvent::FreeTried(e) => apply_free_tried(world, e),
        ZonesEvent::PowerInvoked(e) => apply_power_invoked(world, e),
        // What only tells how a roll or an attack went changes nothing:
        // the events that follow it do.
        ZonesEvent::SaveRolled(_) => {}
        ZonesEvent::AttackMissed(_) => {}
        ZonesEvent::BlastHits(_) => {}
        ZonesEvent::GearRolled(_) => {}
        ZonesEvent::StuntProposed(_) => {}
        ZonesEvent::StuntAccepted(_) => {}
        ZonesEvent::CounterOrder(_) => {}
        ZonesEvent::BlowStopped(_) => {}
    }
}

/// The holder is asked first each round; what stands now is the fight's
/// start for morale.
fn apply_initiative_held(world: &mut World, e: &InitiativeHeld) {
    let original = standing_per_faction(world);
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.holder = Some(e.faction);
    r.original = original;
}

/// The holder gives the first turn away.
fn apply_first_turn_given(world: &mut World, e: &FirstTurnGiven) {
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.opening = false;
    r.next = e.to;
    view::write::resource_mut::<Battle>(world).prompt = Prompt::None;
}

/// `faction` is asked to take a turn or pass: the `Activate` prompt.
fn apply_activation_offered(world: &mut World, e: &ActivationOffered) {
    view::write::resource_mut::<Battle>(world).prompt = Prompt::Activate {
        faction: e.faction,
        speaker: e.speaker,
    };
}

/// Nothing waits any more: the turn of `who` goes on, or nobody is asked.
fn apply_turn_resumed(world: &mut World, e: &TurnResumed) {
    *view::write::resource_mut::<Pending>(world) = Pending::default();
    view::write::resource_mut::<Battle>(world).prompt = match e.who {
        Some(who) => Prompt::Act { actor: who },
        None => Prompt::None,
    };
}

/// Who of the pair acts now, and what the others have spent.
fn apply_pair_turn(world: &mut World, e: &PairTurn) {
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    r.turn = e.acting.clone();
    r.team = e.others.clone();
}

/// A mount its rider got on joins the turn, with a fresh budget.
fn apply_joins_turn(world: &mut World, e: &JoinsTurn) {
    view::write::resource_mut::<ZonesRound>(world)
        .team
        .push(TurnBudget {
            who: Some(e.who),
            ..Default::default()
        });
}

/// Getting on or off counts as half a zone of the turn's movement.
fn apply_half_zone_spent(world: &mut World, _e: &HalfZoneSpent) {
    view::write::resource_mut::<ZonesRound>(world).turn.halves += 1
}

/// Riders carried at full speed take no action nor reaction this round.
fn apply_carried_fast(world: &mut World, e: &CarriedFast) {
    let mut r = view::write::resource_mut::<ZonesRound>(world);
    for c in &e.riders {
        if !r.carried_fast.contains(c) {
            r.carried_fast.push(*c);
        }
    }
}

/// §Taking a turn: "A reaction takes the whole turn and doesn't allow for
/// movement or a bonus action."
fn apply_reaction_taken(world: &mut World, e: &ReactionTaken) {
    with::<TurnState>(world, e.who, |t| {
        t.reaction_used = true;
        t.done = true;
    });
}

/// The pair's turn goes on with `to`.
fn apply_turn_handed_over(world: &mut World, e: &TurnHandedOver) {
    view::write::resource_mut::<Battle>(world).prompt = Prompt::Act { actor: e.to };
}

/// `who` keeps its turn to react.
fn apply_turn_reserved(world: &mut World, e: &TurnReserved) {
    view::write::resource_mut::<ZonesRound>(world)
        .reserved
        .push(e.who);
}

/// §Taking a turn: words are a main action.
fn apply_influence_tried(world: &mut World, _e: &InfluenceTried) {
    view::write::resource_mut::<ZonesRound>(world).turn.main = true
}

/// A distraction lasts the round; a taunt binds the target to `by`.
fn apply_swayed(world: &mut World, e: &event::Swayed) {
    with::<Swayed>(world, e.target, |s| match e.kind {
        Influence::Taunt => s.taunted_by = Some(e.by),
        _ => s.distracted = true,
    })
}

/// §Taking a turn: using an item is a main action, and spends one use.
fn apply_item_used(world: &mut World, e: &ItemUsed) {
    view::write::resource_mut::<ZonesRound>(world).turn.main = true;
    with::<ZonesStats>(world, e.who, |s| {
        if let Some(i) = s.items.get_mut(e.item) {
            i.uses = i.uses.saturating_sub(1);
        }
    });
}

/// Back on its feet, it takes no turn this round (Fray decides).
fn apply_back_on_feet(world: &mut World, e: &BackOnFeet) {
    with::<TurnState>(world, e.who, |t| t.done = true)
}

/// Pulling a grabbed ally free is the turn's main action.
fn apply_free_tried(world: &mut World, _e: &FreeTried) {
    view::write::resource_mut::<ZonesRound>(world).turn.main = true
}

/// Invoking a power is a main action, and spends one of its uses.
fn apply_power_invoked(world: &mut World, e: &PowerInvoked) {
    view::write::resource_mut::<ZonesRound>(world).turn.main = true;
    with::<ZonesStats>(world, e.by, |s| {
        if let Some(p) = s.powers.get_mut(e.index) {
            p.uses = p.uses.saturating_sub(1);
        }
    });
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

/// One blow, one arrow or stone (zones weapons have no magazine); §Taking
/// a turn: an attack on one's turn is its main action.
fn apply_attack_made(world: &mut World, e: &AttackMade) {
    strike(world, e.attacker, e.target, e.weapon_index, 1);
    if !e.reaction {
        with::<TurnState>(world, e.attacker, |t| t.action_used = true);
        view::write::resource_mut::<ZonesRound>(world).turn.main = true;
    }
}

/// The maneuvering one faces its target; on its turn, its main action.
fn apply_maneuver_made(world: &mut World, e: &ManeuverMade) {
    face(world, e.attacker, e.target);
    if !e.reaction {
        with::<TurnState>(world, e.attacker, |t| t.action_used = true);
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
