//! Events: every outcome of a battle, with the dice, the modifiers by name and
//! the section of the rule text that applies. Events are the only way state
//! changes (see [`crate::rules::apply`]) and they make up the battle log.
//!
//! The core's [`BattleEvent`] holds what every ruleset shares: the battle's
//! frame (rounds, turns, its end) and every change to state the core owns
//! (position, conditions, health, loadout, riders, holds), which the core
//! applies and the board plays back. What only one ruleset's rules produce
//! (its dice, its initiative, its bookkeeping) is that ruleset's own event
//! type, an [`OwnEvent`] carried in [`BattleEvent::Ruleset`]: the core never
//! names it, the ruleset narrates it and applies it through its `apply`
//! hook, and in the JSON log it reads as if it were one of the core's.

use std::any::Any;
use std::fmt::Debug;

use serde::Serialize;

use crate::rules::components::{Cid, Condition, MoveMode};
use crate::rules::dice::DiceRoll;
use crate::rules::map::Cell;
use crate::rules::roster::Names;

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
    BattleStarted(BattleStarted),
    RoundStarted(RoundStarted),
    TurnOrder(TurnOrder),
    TurnStarted(TurnStarted),
    Moved(Moved),
    MoveInterrupted(MoveInterrupted),
    ConditionAdded(ConditionAdded),
    ConditionRemoved(ConditionRemoved),
    Drew(Drew),
    ReactionDeclined(ReactionDeclined),
    DamageRolled(DamageRolled),
    Damaged(Damaged),
    Healed(Healed),
    Fled(Fled),
    TurnEnded(TurnEnded),
    RoundEnded(RoundEnded),
    Count(Count),
    FallDeferred(FallDeferred),
    GroupActed(GroupActed),
    BattleEnded(BattleEnded),
    TargetChanged(TargetChanged),
    Grabbed(Grabbed),
    Released(Released),
    Disarmed(Disarmed),
    Displaced(Displaced),
    GearBroken(GearBroken),
    Mounted(Mounted),
    Dismounted(Dismounted),
    PickedUp(PickedUp),
    /// An event of the ruleset in force, in that ruleset's own vocabulary.
    #[serde(untagged)]
    Ruleset(RulesetEvent),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleStarted {
    pub level: String,
    pub ruleset: &'static str,
    pub seed: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundStarted {
    pub round: u32,
}

/// The order in which combatants act this round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnOrder {
    pub order: Vec<Cid>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnStarted {
    pub who: Cid,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moved {
    pub who: Cid,
    pub from: Cell,
    pub path: Vec<Cell>,
    pub cost_dm: u32,
    /// Zone borders crossed (zone-based rulesets; 0 otherwise).
    pub zones: u32,
    pub mode: MoveMode,
    pub rule: Rule,
}

/// The mover's path was cut short (killed or downed by a free attack on the way).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveInterrupted {
    pub who: Cid,
    pub at: Cell,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConditionAdded {
    pub who: Cid,
    pub condition: Condition,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConditionRemoved {
    pub who: Cid,
    pub condition: Condition,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Drew {
    pub who: Cid,
    pub weapon: String,
    pub index: usize,
    pub as_movement: bool,
    /// What the draw costs, in the ruleset's words ("spends the
    /// action", "part of its movement").
    pub cost: Rule,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReactionDeclined {
    pub who: Cid,
    /// What it could have done, in the ruleset's words ("parry or
    /// dodge", "guard"): the line says what was not done.
    pub forgoes: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DamageRolled {
    pub target: Cid,
    pub roll: DiceRoll,
    pub rule: Rule,
}

/// The damage pipeline, step by step, and the losses it leaves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Damaged {
    pub target: Cid,
    /// Who dealt it (an attacker, a shover, an invoker); none for a
    /// fall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Cid>,
    pub rolled: i32,
    pub steps: Vec<Modifier>,
    pub ep_loss: i32,
    pub hp_loss: i32,
    pub hp_after: i32,
    pub ep_after: i32,
    pub rule: Rule,
}

/// `target` recovers health (first aid, a medicine box, a healing
/// power): `gained` points, `hp_after` its health now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Healed {
    pub target: Cid,
    pub by: Cid,
    pub gained: i32,
    pub hp_after: i32,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fled {
    pub who: Cid,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TurnEnded {
    pub who: Cid,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundEnded {
    pub round: u32,
}

/// The count of a round counted down by score (`rules::schedule`):
/// each score, highest first, with its groups in acting order (each
/// group simultaneous).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Count {
    pub ranks: crate::rules::schedule::Ranks,
    pub rule: Rule,
}

/// `who`, dropped by a member of the simultaneous group now acting,
/// falls once the whole group has acted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FallDeferred {
    pub who: Cid,
    pub rule: Rule,
}

/// The simultaneous group has acted: `falls` fall now (those tended
/// back above the mark meanwhile do not).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupActed {
    pub falls: Vec<Cid>,
    pub rule: Rule,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BattleEnded {
    pub winner: Option<u8>,
    pub reason: EndReason,
}

/// An attack changes target (guard, hide behind); `swapped`: the two
/// swap places.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TargetChanged {
    pub attacker: Cid,
    pub from: Cid,
    pub to: Cid,
    pub swapped: bool,
    pub rule: Rule,
}

/// `by` takes hold of `who`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Grabbed {
    pub by: Cid,
    pub who: Cid,
    pub rule: Rule,
}

/// `by` no longer holds `who` (broken free, freed, let go).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Released {
    pub by: Cid,
    pub who: Cid,
    pub rule: Rule,
}

/// `who` drops the weapon at `index` of its loadout; `taken_by`: who
/// catches it, and where it goes in that one's loadout.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Disarmed {
    pub who: Cid,
    pub index: usize,
    pub weapon: String,
    pub taken_by: Option<(Cid, usize)>,
    pub rule: Rule,
}

/// Moved by someone else (shoved, dragged along): not a move of its own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Displaced {
    pub who: Cid,
    pub by: Cid,
    pub from: Cell,
    pub to: Cell,
    pub rule: Rule,
}

/// An item breaks in the fight; `weapon_index`: the weapon it was in
/// the loadout, which is gone from it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GearBroken {
    pub who: Cid,
    pub item: String,
    pub weapon_index: Option<usize>,
    pub rule: Rule,
}

/// `who` gets on `mount` (a mount or a vehicle) and shares its cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mounted {
    pub who: Cid,
    pub mount: Cid,
    pub rule: Rule,
}

/// `who` gets off `mount`, onto `to`; `thrown`: it did not choose to
/// (its mount went down, or it was pulled or pushed off).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dismounted {
    pub who: Cid,
    pub mount: Cid,
    pub to: Cell,
    pub thrown: bool,
    pub rule: Rule,
}

/// `who` picks up the `item`-th weapon lying on the ground and holds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PickedUp {
    pub who: Cid,
    pub item: usize,
    pub weapon: String,
    pub rule: Rule,
}

impl BattleEvent {
    /// The event as the ruleset event type `E`, if it is one.
    pub fn own<E: OwnEvent>(&self) -> Option<&E> {
        match self {
            BattleEvent::Ruleset(e) => e.get::<E>(),
            _ => None,
        }
    }

    /// Left out of the readable log (see [`OwnEvent::silent`]).
    pub fn silent(&self) -> bool {
        match self {
            BattleEvent::Ruleset(e) => e.silent(),
            _ => false,
        }
    }
}

/// A ruleset's own event type: what only that ruleset's rules emit. It is
/// written in the ruleset's folder; the core carries it without knowing it.
pub trait OwnEvent: Clone + PartialEq + Debug + Serialize + Send + Sync + 'static {
    /// The event's own struct, which says its lines: the ruleset's one
    /// match over its events for narration.
    fn narration(&self) -> &dyn Narrate;
    /// Its line (or lines) in the battle log.
    fn describe(&self, n: &Names) -> String {
        self.narration().describe(n)
    }
    /// Its line in the player's log, where shorter than the battle log's.
    fn plain(&self, n: &Names) -> Option<String> {
        self.narration().plain(n)
    }
    /// What the board shows while playing it back.
    fn cues(&self) -> Vec<Cue> {
        self.narration().cues()
    }
    /// Left out of the readable logs ([`Narrate::silent`]).
    fn silent(&self) -> bool {
        self.narration().silent()
    }
}

/// One event's lines, said by the event's own struct (a ruleset's
/// `narrate.rs` implements it for each of its events).
pub trait Narrate {
    /// Its line (or lines) in the battle log.
    fn describe(&self, n: &Names) -> String;
    /// Its line in the player's log, as a player reads it ("the spearman's
    /// spear misses Theobald (rolled 9, needed 12)"), where that is shorter
    /// than [`Narrate::describe`]'s; none: the log's own line.
    fn plain(&self, _n: &Names) -> Option<String> {
        None
    }
    /// What the board shows while playing it back, beyond the state it
    /// changes: nothing, unless the ruleset says.
    fn cues(&self) -> Vec<Cue> {
        Vec::new()
    }
    /// Kept in the log for what it changes (a question asked, a turn's
    /// bookkeeping) but not a line a reader needs: the readable log and
    /// the game's log leave it out; the JSON log keeps it.
    fn silent(&self) -> bool {
        false
    }
}

/// How the board shows a ruleset's event: the game reads these, the rules
/// never do.
#[derive(Clone, Debug, PartialEq)]
pub enum Cue {
    /// `attacker` lunges at `target`; `text` floats over the target, bright
    /// when the blow `landed`.
    Strike {
        attacker: Cid,
        target: Cid,
        text: String,
        landed: bool,
    },
    /// `text` floats over `who`.
    Say { who: Cid, text: String, tone: Tone },
}

/// The kind of a floating line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Something done: drawing, reloading, aiming.
    Plain,
    /// A reaction's result.
    Reaction,
}

impl<E: OwnEvent> From<E> for BattleEvent {
    fn from(e: E) -> Self {
        BattleEvent::Ruleset(RulesetEvent(Box::new(e)))
    }
}

/// A ruleset's event, boxed so that the core's enum does not grow with the
/// rulesets. Serialises as the event itself.
pub struct RulesetEvent(Box<dyn DynEvent>);

impl RulesetEvent {
    /// The event as the ruleset event type `E`, if it is one.
    pub fn get<E: OwnEvent>(&self) -> Option<&E> {
        self.0.as_any().downcast_ref::<E>()
    }
    pub fn describe(&self, n: &Names) -> String {
        self.0.describe(n)
    }
    pub fn cues(&self) -> Vec<Cue> {
        self.0.cues()
    }
    pub fn plain(&self, n: &Names) -> Option<String> {
        self.0.plain(n)
    }
    pub fn silent(&self) -> bool {
        self.0.silent()
    }
}

impl Clone for RulesetEvent {
    fn clone(&self) -> Self {
        RulesetEvent(self.0.clone_box())
    }
}

impl PartialEq for RulesetEvent {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_dyn(other.0.as_any())
    }
}

impl Debug for RulesetEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Serialize for RulesetEvent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        erased_serde::serialize(&*self.0, serializer)
    }
}

/// [`OwnEvent`] as an object: what [`RulesetEvent`] needs of the box.
trait DynEvent: erased_serde::Serialize + Debug + Send + Sync {
    fn clone_box(&self) -> Box<dyn DynEvent>;
    fn as_any(&self) -> &dyn Any;
    fn eq_dyn(&self, other: &dyn Any) -> bool;
    fn describe(&self, n: &Names) -> String;
    fn cues(&self) -> Vec<Cue>;
    fn plain(&self, n: &Names) -> Option<String>;
    fn silent(&self) -> bool;
}

impl<E: OwnEvent> DynEvent for E {
    fn clone_box(&self) -> Box<dyn DynEvent> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn eq_dyn(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<E>() == Some(self)
    }
    fn describe(&self, n: &Names) -> String {
        OwnEvent::describe(self, n)
    }
    fn cues(&self) -> Vec<Cue> {
        OwnEvent::cues(self)
    }
    fn plain(&self, n: &Names) -> Option<String> {
        OwnEvent::plain(self, n)
    }
    fn silent(&self) -> bool {
        OwnEvent::silent(self)
    }
}
