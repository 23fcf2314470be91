//! zones' own events in the battle log: each event's narration (its log
//! line, its line for the player, what the board shows, whether the
//! readable log leaves it out) is one [`Narrate`] impl on the event's
//! struct, reached through one match, [`ZonesEvent::narration`]. The
//! impls: the round's procedure and the turn's bookkeeping in
//! `procedure.rs`, saves, attacks and reactions in `attacks.rs`, the other
//! main actions in `actions.rs`.

mod actions;
mod attacks;
mod procedure;

use crate::rules::event::{Cue, OwnEvent};
use crate::rules::roster::Names;
use crate::rulesets::zones::event::ZonesEvent;

impl OwnEvent for ZonesEvent {
    fn describe(&self, n: &Names) -> String {
        self.narration().describe(n)
    }

    fn plain(&self, n: &Names) -> Option<String> {
        self.narration().plain(n)
    }

    fn silent(&self) -> bool {
        self.narration().silent()
    }

    fn cues(&self) -> Vec<Cue> {
        self.narration().cues()
    }
}

impl ZonesEvent {
    /// The event's own narration: the one match over zones' events here.
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

/// One event's narration, as [`OwnEvent`] asks it of [`ZonesEvent`]: its
/// log line; by default no shorter line for the player, no cue, not silent.
trait Narrate {
    /// Its line in the battle log.
    fn describe(&self, n: &Names) -> String;
    /// Its line in the player's log, where shorter than `describe`'s.
    fn plain(&self, _n: &Names) -> Option<String> {
        None
    }
    /// What the board shows while playing it back.
    fn cues(&self) -> Vec<Cue> {
        Vec::new()
    }
    /// A question or a turn's bookkeeping, left out of the readable logs.
    fn silent(&self) -> bool {
        false
    }
}
