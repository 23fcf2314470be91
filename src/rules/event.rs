//! Events: every outcome of a battle, with the dice, the modifiers by name and
//! the section of the rule text that applies. Events are the only way state
//! changes (see [`crate::rules::apply`]) and they make up the battle log.

use serde::Serialize;

use crate::rules::components::{BodyZone, Cid, Condition, MoveMode};
use crate::rules::dice::DiceRoll;
use crate::rules::map::Cell;

/// A citation of the rule text: `"ud10 §Attacking"`.
pub type Rule = &'static str;

/// One named modifier to a roll or a target number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Modifier {
    pub name: &'static str,
    pub value: i32,
    pub rule: Rule,
}

impl Modifier {
    pub fn new(name: &'static str, value: i32, rule: Rule) -> Self {
        Modifier { name, value, rule }
    }
}

/// Sum of a list of modifiers.
pub fn total(mods: &[Modifier]) -> i32 {
    mods.iter().map(|m| m.value).sum()
}

/// What a durability roll did to an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GearOutcome {
    Fine,
    Damaged,
    /// Already damaged, and now beyond repair.
    Destroyed,
}

/// Which reaction was tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ReactionKind {
    Parry,
    Dodge,
    Counter,
    Guard,
    HideBehind,
    Opportunity,
}

impl ReactionKind {
    pub fn name(self) -> &'static str {
        match self {
            ReactionKind::Parry => "parry",
            ReactionKind::Dodge => "dodge",
            ReactionKind::Counter => "counter",
            ReactionKind::Guard => "guard",
            ReactionKind::HideBehind => "hide behind",
            ReactionKind::Opportunity => "opportunity attack",
        }
    }
}

/// How the battle ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum EndReason {
    LastStanding,
    Survived { rounds: u32 },
    HeldZone { zone: String, rounds: u32 },
    RoundLimit { rounds: u32 },
    NoneStanding,
}

/// Everything that happens in a battle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum BattleEvent {
    BattleStarted {
        level: String,
        ruleset: &'static str,
        seed: u64,
    },
    RoundStarted {
        round: u32,
    },
    InitiativeRolled {
        who: Cid,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        rule: Rule,
    },
    /// A tie on initiative broken by a roll-off (Fray decides; see docs/rulesets/ud10.md).
    TieBroken {
        between: Vec<Cid>,
        order: Vec<Cid>,
        rule: Rule,
    },
    TurnOrder {
        order: Vec<Cid>,
    },
    TurnStarted {
        who: Cid,
    },
    Moved {
        who: Cid,
        from: Cell,
        path: Vec<Cell>,
        cost_dm: u32,
        /// Zone borders crossed (zone-based rulesets; 0 otherwise).
        zones: u32,
        mode: MoveMode,
        rule: Rule,
    },
    /// The mover's path was cut short (killed or downed by a free attack on the way).
    MoveInterrupted {
        who: Cid,
        at: Cell,
    },
    ConditionAdded {
        who: Cid,
        condition: Condition,
        rule: Rule,
    },
    ConditionRemoved {
        who: Cid,
        condition: Condition,
        rule: Rule,
    },
    Drew {
        who: Cid,
        weapon: String,
        index: usize,
        as_movement: bool,
        rule: Rule,
    },
    Reloaded {
        who: Cid,
        weapon: String,
        index: usize,
        loaded: u32,
        rule: Rule,
    },
    Aimed {
        who: Cid,
        target: Cid,
        rounds: u8,
        rule: Rule,
    },
    AttackRolled {
        attacker: Cid,
        target: Cid,
        weapon: String,
        weapon_index: usize,
        mode: String,
        /// Ammunition spent on this attack.
        shots: u32,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        defense: i32,
        defense_parts: Vec<Modifier>,
        hit: bool,
        /// A free attack (on a fleeing character), not the attacker's action.
        free: bool,
        rule: Rule,
    },
    ReactionRolled {
        who: Cid,
        kind: ReactionKind,
        roll: DiceRoll,
        modifiers: Vec<Modifier>,
        total: i32,
        against: i32,
        success: bool,
        rule: Rule,
    },
    ReactionDeclined {
        who: Cid,
    },
    HitLocation {
        target: Cid,
        die: u32,
        zone: BodyZone,
        rule: Rule,
    },
    DamageRolled {
        target: Cid,
        roll: DiceRoll,
        rule: Rule,
    },
    /// The damage pipeline, step by step, and the losses it leaves.
    Damaged {
        target: Cid,
        rolled: i32,
        steps: Vec<Modifier>,
        ep_loss: i32,
        hp_loss: i32,
        hp_after: i32,
        ep_after: i32,
        rule: Rule,
    },
    Fled {
        who: Cid,
        rule: Rule,
    },
    TurnEnded {
        who: Cid,
    },
    RoundEnded {
        round: u32,
    },
    BattleEnded {
        winner: Option<u8>,
        reason: EndReason,
    },
    /// Which faction holds the initiative (alternating activation).
    InitiativeHeld {
        faction: u8,
        /// The die that picked it, when the level names no faction.
        roll: Option<DiceRoll>,
        rule: Rule,
    },
    /// The initiative holder lets another faction act first this round.
    FirstTurnGiven {
        by: u8,
        to: u8,
        rule: Rule,
    },
    /// A faction takes its turn with one of its characters.
    Activated {
        faction: u8,
        who: Cid,
        rule: Rule,
    },
    /// A faction passes (forced: nobody of it can still take a turn).
    Passed {
        faction: u8,
        forced: bool,
        rule: Rule,
    },
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
        kind: ReactionKind,
        /// The attacker (or the mover, for an opportunity attack).
        against: Cid,
        rule: Rule,
    },
    /// An attack changes target (guard, hide behind); `swapped`: the two
    /// swap places.
    TargetChanged {
        attacker: Cid,
        from: Cid,
        to: Cid,
        swapped: bool,
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
    /// `by` takes hold of `who`.
    Grabbed {
        by: Cid,
        who: Cid,
        rule: Rule,
    },
    /// `by` no longer holds `who` (broken free, freed, let go).
    Released {
        by: Cid,
        who: Cid,
        rule: Rule,
    },
    /// `who` drops the weapon at `index` of its loadout; `taken_by`: who
    /// catches it, and where it goes in that one's loadout.
    Disarmed {
        who: Cid,
        index: usize,
        weapon: String,
        taken_by: Option<(Cid, usize)>,
        rule: Rule,
    },
    /// Moved by someone else (shoved, dragged along): not a move of its own.
    Displaced {
        who: Cid,
        by: Cid,
        from: Cell,
        to: Cell,
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
    /// An item breaks in the fight; `weapon_index`: the weapon it was in
    /// the loadout, which is gone from it.
    GearBroken {
        who: Cid,
        item: String,
        weapon_index: Option<usize>,
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
    /// `who` gets on `mount` (a mount or a vehicle) and shares its cell.
    Mounted {
        who: Cid,
        mount: Cid,
        rule: Rule,
    },
    /// `who` gets off `mount`, onto `to`; `thrown`: it did not choose to
    /// (its mount went down, or it was pulled or pushed off).
    Dismounted {
        who: Cid,
        mount: Cid,
        to: Cell,
        thrown: bool,
        rule: Rule,
    },
    /// A mount and its riders take their turn together: `to` goes on with
    /// it after `from`.
    TurnHandedOver {
        from: Cid,
        to: Cid,
        rule: Rule,
    },
    /// `who` does nothing in its pair's turn and keeps its turn to react.
    TurnReserved {
        who: Cid,
        rule: Rule,
    },
    /// `who` picks up the `item`-th weapon lying on the ground and holds it.
    PickedUp {
        who: Cid,
        item: usize,
        weapon: String,
        rule: Rule,
    },
}
