//! zones' own events: what only its rules emit (the initiative, activations
//! and passes, saves, attacks and reactions, non-lethal attacks, blasts,
//! stunts, gear rolls, riders' turns). The core carries them in
//! `BattleEvent::Ruleset`; `narrate/` gives their log lines and
//! `apply.rs` what they change.

use serde::Serialize;

use crate::rules::components::Cid;
use crate::rules::dice::DiceRoll;
use crate::rules::event::Rule;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::state::{TurnBudget, Waiting};

/// An event of zones' own: each variant carries its struct (below, with
/// its doc), which narrate/ and apply.rs hand to that event's own code.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ZonesEvent {
    InitiativeHeld(InitiativeHeld),
    FirstTurnGiven(FirstTurnGiven),
    Activated(Activated),
    Passed(Passed),
    ActivationOffered(ActivationOffered),
    ReactionOffered(ReactionOffered),
    TurnResumed(TurnResumed),
    PlayGoesTo(PlayGoesTo),
    PairTurn(PairTurn),
    JoinsTurn(JoinsTurn),
    HalfZoneSpent(HalfZoneSpent),
    CarriedFast(CarriedFast),
    SaveRolled(SaveRolled),
    AttackMade(AttackMade),
    AttackMissed(AttackMissed),
    ReactionTaken(ReactionTaken),
    ManeuverMade(ManeuverMade),
    BlastHits(BlastHits),
    GearRolled(GearRolled),
    StuntProposed(StuntProposed),
    StuntAccepted(StuntAccepted),
    TurnHandedOver(TurnHandedOver),
    TurnReserved(TurnReserved),
    InfluenceTried(InfluenceTried),
    Swayed(Swayed),
    ItemUsed(ItemUsed),
    BackOnFeet(BackOnFeet),
    FreeTried(FreeTried),
    CounterOrder(CounterOrder),
    BlowStopped(BlowStopped),
    PowerInvoked(PowerInvoked),
}

/// Which faction holds the initiative (alternating activation).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InitiativeHeld {
    pub faction: u8,
    /// The die that picked it, when the level names no faction.
    pub roll: Option<DiceRoll>,
    pub rule: Rule,
}

/// The initiative holder lets another faction act first this round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FirstTurnGiven {
    pub by: u8,
    pub to: u8,
    pub rule: Rule,
}

/// A faction takes its turn with one of its characters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Activated {
    pub faction: u8,
    pub who: Cid,
    pub rule: Rule,
}

/// A faction passes (forced: nobody of it can still take a turn;
/// `gone`: nobody of it stands, it passes without a word). Its apply
/// counts the pass and hands play to the next faction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Passed {
    pub faction: u8,
    pub forced: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub gone: bool,
    pub rule: Rule,
}

/// `faction` is asked to take a turn with one of its characters
/// (`speaker` is the first who may) or to pass. Its apply sets the
/// `Activate` prompt. A question, not an outcome: silent in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ActivationOffered {
    pub faction: u8,
    pub speaker: Cid,
    pub rule: Rule,
}

/// `who` is asked how it answers what `by` does: what waits for the
/// answer (an attack, a blast, a move stopped at a border) is kept by
/// its apply in `Pending`, with the `React` prompt. Silent in the log
/// (the answer is written).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionOffered {
    pub who: Cid,
    pub by: Cid,
    pub waits: Waiting,
    pub rule: Rule,
}

/// Nothing waits for a reaction any more: the turn of `who` goes on
/// (none: the battle moves on). Silent in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnResumed {
    pub who: Option<Cid>,
    pub rule: Rule,
}

/// The turn is over for its whole pair: play goes to `faction`, with a
/// fresh turn. Silent in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayGoesTo {
    pub faction: u8,
    pub rule: Rule,
}

/// Who of a pair taking its turn together acts now (`acting`) and what
/// each of the others still in it has spent. Silent in the log (the
/// hand-over is written).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairTurn {
    pub acting: TurnBudget,
    pub others: Vec<TurnBudget>,
    pub rule: Rule,
}

/// `who` joins the turn in progress (a mount its rider got on). Silent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JoinsTurn {
    pub who: Cid,
    pub rule: Rule,
}

/// Getting on or off counts as moving half a zone. Silent (the
/// mounting is written).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HalfZoneSpent {
    pub who: Cid,
    pub rule: Rule,
}

/// Their mount moved at full speed: these riders take no action nor
/// reaction this round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CarriedFast {
    pub riders: Vec<Cid>,
    pub rule: Rule,
}

/// A roll-under save: d20 against an attribute.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SaveRolled {
    pub who: Cid,
    pub attribute: &'static str,
    pub roll: DiceRoll,
    pub target: i32,
    pub pass: bool,
    /// What the save is for ("to hit", "to dodge", "morale").
    pub purpose: &'static str,
    pub rule: Rule,
}

/// An attack that hits unless a save or a reaction stops it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackMade {
    pub attacker: Cid,
    pub target: Cid,
    pub weapon: String,
    pub weapon_index: usize,
    /// "strike", "hold back", "death blow", ...
    pub mode: String,
    /// Not the attacker's action (a counter or opportunity attack).
    pub reaction: bool,
    pub rule: Rule,
}

/// An attack does not land (a failed save to hit, a dodge).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackMissed {
    pub attacker: Cid,
    pub target: Cid,
    pub rule: Rule,
}

/// A character spends its turn on a reaction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionTaken {
    pub who: Cid,
    pub kind: Reaction,
    /// The attacker (or the mover, for an opportunity attack).
    pub against: Cid,
    pub rule: Rule,
}

/// A non-lethal attack is made (disarm, shove, grapple).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ManeuverMade {
    pub attacker: Cid,
    pub target: Cid,
    /// "disarm", "shove", "grapple".
    pub kind: &'static str,
    /// Not the attacker's action (a counter).
    pub reaction: bool,
    pub rule: Rule,
}

/// A blast attack hits a zone: everyone in it and on its borders.
/// `deviated`: it missed the zone aimed at, and the die picked this
/// neighbouring zone.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlastHits {
    pub attacker: Cid,
    pub zone: String,
    pub deviated: Option<DiceRoll>,
    pub targets: Vec<Cid>,
    pub rule: Rule,
}

/// After the fight: a durability roll for an item that was used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GearRolled {
    pub who: Cid,
    pub item: String,
    pub roll: DiceRoll,
    pub outcome: GearOutcome,
    pub rule: Rule,
}

/// An attacker proposes an alternative effect instead of the attack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StuntProposed {
    pub attacker: Cid,
    pub target: Cid,
    pub effect: &'static str,
    pub rule: Rule,
}

/// The target accepts the proposed effect: the attack is not made.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StuntAccepted {
    pub who: Cid,
    pub effect: &'static str,
    pub rule: Rule,
}

/// A mount and its riders take their turn together: `to` goes on with
/// it after `from`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnHandedOver {
    pub from: Cid,
    pub to: Cid,
    pub rule: Rule,
}

/// `who` does nothing in its pair's turn and keeps its turn to react.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnReserved {
    pub who: Cid,
    pub rule: Rule,
}

/// `by` spends its main action on words at `target` (intimidating,
/// distracting, taunting); the target's WIT save follows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InfluenceTried {
    pub by: Cid,
    pub target: Cid,
    pub kind: Influence,
    pub rule: Rule,
}

/// The save failed: `target` is distracted, or taunted by `by`. (A
/// failed save against intimidation adds `broken` instead.)
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Swayed {
    pub target: Cid,
    pub by: Cid,
    pub kind: Influence,
    pub rule: Rule,
}

/// `who` spends its main action using one of its items on `on`
/// (itself or a nearby ally); the healing follows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemUsed {
    pub who: Cid,
    pub on: Cid,
    pub item: usize,
    pub name: String,
    pub rule: Rule,
}

/// Healed above 0, an incapacitated character is back on its feet (the
/// condition's removal comes first); it takes no turn this round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BackOnFeet {
    pub who: Cid,
    pub rule: Rule,
}

/// `by` spends its main action trying to pull `who` free of a grab
/// (its STR save follows).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FreeTried {
    pub by: Cid,
    pub who: Cid,
    pub rule: Rule,
}

/// §Reacting to an attack, Counter: "Whoever suffers the most damage,
/// after reductions, is hit first. In case of a tie both characters are
/// hit at the same time": `first` would suffer `suffers`, `then`
/// `then_suffers`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CounterOrder {
    pub first: Cid,
    pub then: Cid,
    pub suffers: i32,
    pub then_suffers: i32,
    pub tie: bool,
    pub rule: Rule,
}

/// The blow of `who`, hit first, never lands: it is out of the fight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BlowStopped {
    pub who: Cid,
    pub rule: Rule,
}

/// `by` invokes its `index`-th profane power at `target`; the save (if
/// the power is resisted) and the effect follow.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerInvoked {
    pub by: Cid,
    pub target: Cid,
    pub index: usize,
    pub power: String,
    pub rule: Rule,
}

/// Which reaction a character takes (§Reactions, §Moving, opportunity
/// attacks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Reaction {
    Dodge,
    Counter,
    Guard,
    HideBehind,
    Opportunity,
}

impl Reaction {
    pub fn name(self) -> &'static str {
        match self {
            Reaction::Dodge => "dodge",
            Reaction::Counter => "counter",
            Reaction::Guard => "guard",
            Reaction::HideBehind => "hide behind",
            Reaction::Opportunity => "opportunity attack",
        }
    }
}

/// What a durability roll did to an item (§Gear).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GearOutcome {
    Fine,
    Damaged,
    /// Already damaged, and now beyond repair.
    Destroyed,
}
