//! zones' own events: what only its rules emit (the initiative, activations
//! and passes, saves, attacks and reactions, non-lethal attacks, blasts,
//! stunts, gear rolls, riders' turns). The core carries them in
//! `BattleEvent::Ruleset`; `narrate.rs` gives their log lines and
//! `apply.rs` what they change.

use serde::Serialize;

use crate::rules::components::Cid;
use crate::rules::dice::DiceRoll;
use crate::rules::event::Rule;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::state::{TurnBudget, Waiting};

/// An event of zones' own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ZonesEvent {
    /// Which faction holds the initiative (alternating activation).
    InitiativeHeld {
        faction: u8,
        /// The die that picked it, when the level names no faction.
        roll: Option<DiceRoll>,
        rule: Rule,
    },
    /// The initiative holder lets another faction act first this round.
    FirstTurnGiven { by: u8, to: u8, rule: Rule },
    /// A faction takes its turn with one of its characters.
    Activated { faction: u8, who: Cid, rule: Rule },
    /// A faction passes (forced: nobody of it can still take a turn;
    /// `gone`: nobody of it stands, it passes without a word). Its apply
    /// counts the pass and hands play to the next faction.
    Passed {
        faction: u8,
        forced: bool,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        gone: bool,
        rule: Rule,
    },
    /// `faction` is asked to take a turn with one of its characters
    /// (`speaker` is the first who may) or to pass. Its apply sets the
    /// `Activate` prompt. A question, not an outcome: silent in the log.
    ActivationOffered {
        faction: u8,
        speaker: Cid,
        rule: Rule,
    },
    /// `who` is asked how it answers what `by` does: what waits for the
    /// answer (an attack, a blast, a move stopped at a border) is kept by
    /// its apply in `Pending`, with the `React` prompt. Silent in the log
    /// (the answer is written).
    ReactionOffered {
        who: Cid,
        by: Cid,
        waits: Waiting,
        rule: Rule,
    },
    /// Nothing waits for a reaction any more: the turn of `who` goes on
    /// (none: the battle moves on). Silent in the log.
    TurnResumed { who: Option<Cid>, rule: Rule },
    /// The turn is over for its whole pair: play goes to `faction`, with a
    /// fresh turn. Silent in the log.
    PlayGoesTo { faction: u8, rule: Rule },
    /// Who of a pair taking its turn together acts now (`acting`) and what
    /// each of the others still in it has spent. Silent in the log (the
    /// hand-over is written).
    PairTurn {
        acting: TurnBudget,
        others: Vec<TurnBudget>,
        rule: Rule,
    },
    /// `who` joins the turn in progress (a mount its rider got on). Silent.
    JoinsTurn { who: Cid, rule: Rule },
    /// Getting on or off counts as moving half a zone. Silent (the
    /// mounting is written).
    HalfZoneSpent { who: Cid, rule: Rule },
    /// Their mount moved at full speed: these riders take no action nor
    /// reaction this round.
    CarriedFast { riders: Vec<Cid>, rule: Rule },
    /// A roll-under save: d20 against an attribute.
    SaveRolled {
        who: Cid,
        attribute: &'static str,
        roll: DiceRoll,
        target: i32,
        pass: bool,
        /// What the save is for ("to hit", "to dodge", "morale").
        purpose: &'static str,
        rule: Rule,
    },
    /// An attack that hits unless a save or a reaction stops it.
    AttackMade {
        attacker: Cid,
        target: Cid,
        weapon: String,
        weapon_index: usize,
        /// "strike", "hold back", "death blow", ...
        mode: String,
        /// Not the attacker's action (a counter or opportunity attack).
        reaction: bool,
        rule: Rule,
    },
    /// An attack does not land (a failed save to hit, a dodge).
    AttackMissed {
        attacker: Cid,
        target: Cid,
        rule: Rule,
    },
    /// A character spends its turn on a reaction.
    ReactionTaken {
        who: Cid,
        kind: Reaction,
        /// The attacker (or the mover, for an opportunity attack).
        against: Cid,
        rule: Rule,
    },
    /// A non-lethal attack is made (disarm, shove, grapple).
    ManeuverMade {
        attacker: Cid,
        target: Cid,
        /// "disarm", "shove", "grapple".
        kind: &'static str,
        /// Not the attacker's action (a counter).
        reaction: bool,
        rule: Rule,
    },
    /// A blast attack hits a zone: everyone in it and on its borders.
    /// `deviated`: it missed the zone aimed at, and the die picked this
    /// neighbouring zone.
    BlastHits {
        attacker: Cid,
        zone: String,
        deviated: Option<DiceRoll>,
        targets: Vec<Cid>,
        rule: Rule,
    },
    /// After the fight: a durability roll for an item that was used.
    GearRolled {
        who: Cid,
        item: String,
        roll: DiceRoll,
        outcome: GearOutcome,
        rule: Rule,
    },
    /// An attacker proposes an alternative effect instead of the attack.
    StuntProposed {
        attacker: Cid,
        target: Cid,
        effect: &'static str,
        rule: Rule,
    },
    /// The target accepts the proposed effect: the attack is not made.
    StuntAccepted {
        who: Cid,
        effect: &'static str,
        rule: Rule,
    },
    /// A mount and its riders take their turn together: `to` goes on with
    /// it after `from`.
    TurnHandedOver { from: Cid, to: Cid, rule: Rule },
    /// `who` does nothing in its pair's turn and keeps its turn to react.
    TurnReserved { who: Cid, rule: Rule },
    /// `by` spends its main action on words at `target` (intimidating,
    /// distracting, taunting); the target's WIT save follows.
    InfluenceTried {
        by: Cid,
        target: Cid,
        kind: Influence,
        rule: Rule,
    },
    /// The save failed: `target` is distracted, or taunted by `by`. (A
    /// failed save against intimidation adds `broken` instead.)
    Swayed {
        target: Cid,
        by: Cid,
        kind: Influence,
        rule: Rule,
    },
    /// `who` spends its main action using one of its items on `on`
    /// (itself or a nearby ally); the healing follows.
    ItemUsed {
        who: Cid,
        on: Cid,
        item: usize,
        name: String,
        rule: Rule,
    },
    /// Healed above 0, an incapacitated character is back on its feet (the
    /// condition's removal comes first); it takes no turn this round.
    BackOnFeet { who: Cid, rule: Rule },
    /// `by` spends its main action trying to pull `who` free of a grab
    /// (its STR save follows).
    FreeTried { by: Cid, who: Cid, rule: Rule },
    /// §Reacting to an attack, Counter: "Whoever suffers the most damage,
    /// after reductions, is hit first. In case of a tie both characters are
    /// hit at the same time": `first` would suffer `suffers`, `then`
    /// `then_suffers`.
    CounterOrder {
        first: Cid,
        then: Cid,
        suffers: i32,
        then_suffers: i32,
        tie: bool,
        rule: Rule,
    },
    /// The blow of `who`, hit first, never lands: it is out of the fight.
    BlowStopped { who: Cid, rule: Rule },
    /// `by` invokes its `index`-th profane power at `target`; the save (if
    /// the power is resisted) and the effect follow.
    PowerInvoked {
        by: Cid,
        target: Cid,
        index: usize,
        power: String,
        rule: Rule,
    },
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
