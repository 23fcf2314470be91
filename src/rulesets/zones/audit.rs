//! What `fray audit` counts of the AI's play under zones: whether its
//! activations do anything, whether it ever passes or hands the first turn
//! away, which reactions it takes, and its words, items and powers. Reads
//! only.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition};
use crate::rules::event::{
    BattleEvent, ConditionAdded, Dismounted, Drew, Fled, Mounted, Moved, PickedUp, Released,
    TurnEnded, TurnStarted,
};
use crate::rules::hooks::AuditFigure;
use crate::rules::log::BattleLog;
use crate::rules::view;

use super::event::{
    AttackMade, BlastHits, FreeTried, InfluenceTried, ItemUsed, ManeuverMade, Passed, PowerInvoked,
    Reaction, ReactionTaken, StuntProposed, TurnHandedOver, TurnReserved, ZonesEvent,
};

const ACTIVATIONS: usize = 0;
const IDLE: usize = 1;
const PASSES: usize = 2;
const FIRST_GIVEN: usize = 3;
const ATTACKS: usize = 4;
const DODGES: usize = 5;
const COUNTERS: usize = 6;
const GUARDS: usize = 7;
const HIDES: usize = 8;
const OPPORTUNITY: usize = 9;
const WORDS: usize = 10;
const ITEMS: usize = 11;
const POWERS: usize = 12;

pub const FIGURES: &[AuditFigure] = &[
    AuditFigure {
        name: "activations",
        counts: "characters activated to take their turn (§Procedure)",
        of: None,
    },
    AuditFigure {
        name: "idle",
        counts: "of those, turns in which the character did nothing (no move, attack, manoeuvre, draw, pick-up, mount, flight or surrender), spending its reaction for the round",
        of: Some("activations"),
    },
    AuditFigure {
        name: "passes",
        counts: "voluntary passes (§Procedure: a faction may pass)",
        of: None,
    },
    AuditFigure {
        name: "first turn given",
        counts: "rounds the faction holding the initiative let another act first",
        of: None,
    },
    AuditFigure {
        name: "attacks",
        counts: "attacks made as a turn's main action",
        of: None,
    },
    AuditFigure {
        name: "dodges",
        counts: "dodges taken (§Reactions)",
        of: None,
    },
    AuditFigure {
        name: "counters",
        counts: "counterattacks taken (§Reactions)",
        of: None,
    },
    AuditFigure {
        name: "guards",
        counts: "guards taken for an ally (§Reactions)",
        of: None,
    },
    AuditFigure {
        name: "hid behind",
        counts: "characters who hid behind an ally (§Reactions)",
        of: None,
    },
    AuditFigure {
        name: "opportunity",
        counts: "opportunity attacks on a character moving away (§Moving)",
        of: None,
    },
    AuditFigure {
        name: "words",
        counts: "intimidations, distractions and taunts tried (§Taking a turn, main actions)",
        of: None,
    },
    AuditFigure {
        name: "items",
        counts: "consumable items used (a medicine box)",
        of: None,
    },
    AuditFigure {
        name: "powers",
        counts: "profane powers invoked",
        of: None,
    },
];

/// Count the plays in the events from `first` on.
pub fn audit(world: &World, first: usize, counts: &mut [u64]) {
    if counts.len() < FIGURES.len() {
        return;
    }
    let log = &view::resource::<BattleLog>(world).events;
    for (k, e) in log.iter().enumerate().skip(first) {
        if let BattleEvent::TurnEnded(TurnEnded { who }) = e {
            if idle_turn(&log[..k], *who) {
                counts[IDLE] += 1;
            }
            continue;
        }
        match e.own::<ZonesEvent>() {
            Some(ZonesEvent::Activated(_)) => counts[ACTIVATIONS] += 1,
            Some(ZonesEvent::Passed(Passed { forced: false, .. })) => counts[PASSES] += 1,
            Some(ZonesEvent::FirstTurnGiven(_)) => counts[FIRST_GIVEN] += 1,
            Some(ZonesEvent::InfluenceTried(_)) => counts[WORDS] += 1,
            Some(ZonesEvent::ItemUsed(_)) => counts[ITEMS] += 1,
            Some(ZonesEvent::PowerInvoked(_)) => counts[POWERS] += 1,
            Some(ZonesEvent::AttackMade(AttackMade {
                reaction: false, ..
            })) => counts[ATTACKS] += 1,
            Some(ZonesEvent::ReactionTaken(ReactionTaken { kind, .. })) => match kind {
                Reaction::Dodge => counts[DODGES] += 1,
                Reaction::Counter => counts[COUNTERS] += 1,
                Reaction::Guard => counts[GUARDS] += 1,
                Reaction::HideBehind => counts[HIDES] += 1,
                Reaction::Opportunity => counts[OPPORTUNITY] += 1,
            },
            _ => {}
        }
    }
}

/// Did `who`'s turn, ending now, pass without it doing anything? Only an
/// activated turn counts (a mount's rider acting with it, or a character
/// keeping its turn to react, did something).
fn idle_turn(before: &[BattleEvent], who: Cid) -> bool {
    for e in before.iter().rev() {
        if let BattleEvent::TurnStarted(TurnStarted { who: w }) = e
            && *w == who
        {
            return true;
        }
        if acts(e, who) {
            return false;
        }
    }
    false
}

/// Is `e` something `who` does in its turn?
fn acts(e: &BattleEvent, who: Cid) -> bool {
    match e {
        BattleEvent::Moved(Moved { who: w, .. })
        | BattleEvent::Drew(Drew { who: w, .. })
        | BattleEvent::PickedUp(PickedUp { who: w, .. })
        | BattleEvent::Mounted(Mounted { who: w, .. })
        | BattleEvent::Dismounted(Dismounted { who: w, .. })
        | BattleEvent::Fled(Fled { who: w, .. }) => *w == who,
        BattleEvent::ConditionAdded(ConditionAdded {
            who: w,
            condition: Condition::Surrendered,
            ..
        }) => *w == who,
        BattleEvent::Released(Released { by, .. }) => *by == who,
        _ => match e.own::<ZonesEvent>() {
            Some(ZonesEvent::AttackMade(AttackMade {
                attacker,
                reaction: false,
                ..
            }))
            | Some(ZonesEvent::ManeuverMade(ManeuverMade {
                attacker,
                reaction: false,
                ..
            }))
            | Some(ZonesEvent::BlastHits(BlastHits { attacker, .. }))
            | Some(ZonesEvent::StuntProposed(StuntProposed { attacker, .. })) => *attacker == who,
            Some(ZonesEvent::TurnHandedOver(TurnHandedOver { from, .. })) => *from == who,
            Some(ZonesEvent::InfluenceTried(InfluenceTried { by, .. })) => *by == who,
            Some(ZonesEvent::ItemUsed(ItemUsed { who: w, .. })) => *w == who,
            Some(ZonesEvent::PowerInvoked(PowerInvoked { by, .. }))
            | Some(ZonesEvent::FreeTried(FreeTried { by, .. })) => *by == who,
            Some(ZonesEvent::TurnReserved(TurnReserved { who: w, .. })) => *w == who,
            _ => false,
        },
    }
}
