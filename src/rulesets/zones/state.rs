//! The round in progress and what the acting character has spent
//! (`ZonesRound`, `TurnBudget`); what a zones attack leaves waiting (an
//! attack, a blast or a move paused for reactions); the names of the rule
//! sections the attack code cites.
//! A leaf: it imports nothing of the ruleset.

use bevy::prelude::*;
use serde::Serialize;

use crate::rules::components::Cid;
use crate::rules::map::Cell;
use crate::rulesets::zones::command::Maneuver;

pub const RULE_ATTACK: &str = "zones §Attacking";
pub const RULE_DODGE: &str = "zones §Reacting to an attack: Dodge";
pub const RULE_COUNTER: &str = "zones §Reacting to an attack: Counter";
pub const RULE_HIDE: &str = "zones §Reacting to an attack: Hide behind a nearby character";
pub const RULE_GUARD: &str = "zones §Guarding";
pub const RULE_COVER: &str = "zones §Cover";
pub const RULE_SIZE: &str = "zones §Effects of size in combat";
pub const RULE_HEALTH: &str = "Fray decides: docs/rulesets/zones.md §Health";
pub const RULE_SNEAK: &str = "zones §Sneaking in combat";
pub const RULE_BLAST: &str = "zones §Blast attacks";
pub const RULE_STUNT: &str = "zones §Attack stunts";
pub const RULE_MAIN_ACTIONS: &str = "zones §Taking a turn: main actions (Fray decides)";

/// What others' words did to a character this round (Fray decides: see
/// docs/rulesets/zones.md, "Main actions"): distracted, it cannot react
/// until the round ends; taunted, it may attack only its taunter until the
/// end of its next turn.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
pub struct Swayed {
    pub distracted: bool,
    pub taunted_by: Option<Cid>,
}

/// An attack waiting for a reaction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackState {
    pub attacker: Cid,
    pub target: Cid,
    pub weapon: usize,
    pub mode: usize,
    pub stage: Stage,
    /// The target came in by hiding-behind: it may not pass the attack on.
    pub hidden: bool,
    /// Nearby allies still to be asked whether they guard.
    pub guards: Vec<Cid>,
    /// A non-lethal attack instead of a weapon's blow.
    pub maneuver: Option<Maneuver>,
    /// Made from concealment: "Enemies attacked by a concealed character
    /// are taken by surprise and can't react" (even once the attacker is
    /// revealed, later in the same attack).
    pub surprise: bool,
}

/// Who is being asked about an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Stage {
    /// The target: dodge, counter, hide behind, or take it.
    Target,
    /// The first of `guards`: guard, or not.
    Guard,
    /// The target: accept the stunt the attacker proposes, or not.
    Stunt,
}

/// A blast attack asking the characters it hits for their reactions, one
/// after the other, before its damage is rolled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BlastState {
    pub attacker: Cid,
    pub weapon: usize,
    pub mode: usize,
    /// Everyone the blast hits.
    pub targets: Vec<Cid>,
    /// Targets still to be asked; the first is being asked now.
    pub asking: Vec<Cid>,
    /// Targets who dodged it.
    pub dodged: Vec<Cid>,
    /// The one target who counters, with its weapon ("Attacks directed at
    /// multiple targets (such as blast attacks) can only be countered by a
    /// single target").
    pub counter: Option<(Cid, usize)>,
    /// A split attack's dice per target (empty for a blast).
    pub shares: Vec<(Cid, u32)>,
}

/// A move stopped at a zone border while nearby enemies decide on
/// opportunity attacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveState {
    pub who: Cid,
    /// The rest of the path, starting with the first cell past the border.
    pub rest: Vec<Cell>,
    /// Enemies still to be asked; the first is being asked now.
    pub candidates: Vec<Cid>,
}

/// What the battle is in the middle of: set by `ReactionOffered`, cleared
/// by `TurnResumed` (apply.rs), read by the writers as it stands.
#[derive(Resource, Clone, Debug, Default)]
pub struct Pending {
    pub attack: Option<AttackState>,
    pub moving: Option<MoveState>,
    pub blast: Option<BlastState>,
}

impl Pending {
    /// Nothing waits for a reaction.
    pub fn is_empty(&self) -> bool {
        self.attack.is_none() && self.moving.is_none() && self.blast.is_none()
    }
}

/// What waits for the answer of the one asked (`ZonesEvent::ReactionOffered`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Waiting {
    /// An attack asks its target, a guard, or the target of a stunt.
    Attack(AttackState),
    /// A blast or a split attack asks its targets one after the other.
    Blast(BlastState),
    /// A move stopped at a zone border asks the enemies it leaves.
    Move(MoveState),
}

/// What the character whose turn it is has spent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TurnBudget {
    pub who: Option<Cid>,
    /// Zone borders crossed this turn.
    pub zones: u32,
    /// The main action is spent.
    pub main: bool,
    /// Bonus actions spent.
    pub bonus: u8,
    /// Half zones spent getting on or off a mount (§Mounts and vehicles in
    /// combat: "counts as moving half a zone").
    pub halves: u32,
}

impl TurnBudget {
    /// Any action taken: movement is then limited to half speed.
    pub fn acted(&self) -> bool {
        self.main || self.bonus > 0
    }
    /// Movement spent, in half zones.
    pub fn spent_halves(&self) -> u32 {
        2 * self.zones + self.halves
    }
    /// Moved beyond `half` zones (half speed): no actions this turn.
    pub fn beyond(&self, half: u32) -> bool {
        self.spent_halves() > 2 * half
    }
    /// Nothing done yet this turn.
    pub fn untouched(&self) -> bool {
        !self.acted() && self.spent_halves() == 0
    }
    /// Bonus actions still allowed: one, or two instead of the main action.
    pub fn bonus_left(&self) -> u8 {
        let cap = if self.main { 1 } else { 2 };
        cap - self.bonus.min(cap)
    }
}

/// The round in progress.
#[derive(Resource, Clone, Debug, Default)]
pub struct ZonesRound {
    /// The faction holding the initiative.
    pub holder: Option<u8>,
    /// The faction whose `Activate` prompt comes next.
    pub next: u8,
    /// Factions that have passed in a row.
    pub passes: usize,
    /// The holder has not answered yet this round: it may give the first
    /// turn to another faction.
    pub opening: bool,
    pub turn: TurnBudget,
    /// Standing members per faction when the fight began (for morale).
    pub original: Vec<usize>,
    /// Standing members per faction when this round began.
    pub start_standing: Vec<usize>,
    /// Health per combatant when this round began.
    pub start_health: Vec<i32>,
    /// Round 0, the concealed characters' bonus round (§Sneaking in combat).
    pub bonus: bool,
    /// The others taking this turn together with the one acting (a mount
    /// and its riders), with what each has spent.
    pub team: Vec<TurnBudget>,
    /// Who kept its turn to react this round (§Mounts and vehicles).
    pub reserved: Vec<Cid>,
    /// Riders whose mount moved at full speed this round: no action nor
    /// reaction.
    pub carried_fast: Vec<Cid>,
    /// What the fight has used of everyone's gear, in order, for the
    /// durability rolls when it is over (§Combat gear degradation): kept by
    /// `apply` as attacks are made and blows land, for the whole battle.
    pub gear_used: Vec<GearUse>,
}

/// One use of gear in the fight (see `gear::used_items`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GearUse {
    /// An attack with the weapon of this name.
    Attack { attacker: Cid, weapon: String },
    /// A blow landed on this character: its armour and shield took it.
    Hit { target: Cid },
}
