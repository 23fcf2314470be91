//! zones' own events in the battle log: each event's narration (its log
//! line, its line for the player, what the board shows, whether the
//! readable log leaves it out) is one [`Narrate`] impl on the event's
//! struct, reached through one match, `OwnEvent::narration`. The
//! impls: the round's procedure and the turn's bookkeeping in
//! `procedure.rs`, saves, attacks and reactions in `attacks.rs`, the other
//! main actions in `actions.rs`.

mod actions;
mod attacks;
mod procedure;

use crate::rules::event::{Narrate, OwnEvent};
use crate::rulesets::zones::event::ZonesEvent;

impl OwnEvent for ZonesEvent {
    fn narration(&self) -> &dyn Narrate {
        match self {
            ZonesEvent::InitiativeHeld(e) => e,
            ZonesEvent::FirstTurnGiven(e) => e,
            ZonesEvent::Activated(e) => e,
            ZonesEvent::Passed(e) => e,
            ZonesEvent::ActivationOffered(e) => e,
            ZonesEvent::ReactionOffered(e) => e,
            ZonesEvent::TurnResumed(e) => e,
            ZonesEvent::PlayGoesTo(e) => e,
            ZonesEvent::PairTurn(e) => e,
            ZonesEvent::JoinsTurn(e) => e,
            ZonesEvent::HalfZoneSpent(e) => e,
            ZonesEvent::CarriedFast(e) => e,
            ZonesEvent::SaveRolled(e) => e,
            ZonesEvent::AttackMade(e) => e,
            ZonesEvent::AttackMissed(e) => e,
            ZonesEvent::ReactionTaken(e) => e,
            ZonesEvent::ManeuverMade(e) => e,
            ZonesEvent::BlastHits(e) => e,
            ZonesEvent::GearRolled(e) => e,
            ZonesEvent::StuntProposed(e) => e,
            ZonesEvent::StuntAccepted(e) => e,
            ZonesEvent::TurnHandedOver(e) => e,
            ZonesEvent::TurnReserved(e) => e,
            ZonesEvent::InfluenceTried(e) => e,
            ZonesEvent::Swayed(e) => e,
            ZonesEvent::ItemUsed(e) => e,
            ZonesEvent::BackOnFeet(e) => e,
            ZonesEvent::FreeTried(e) => e,
            ZonesEvent::CounterOrder(e) => e,
            ZonesEvent::BlowStopped(e) => e,
            ZonesEvent::PowerInvoked(e) => e,
        }
    }
}
