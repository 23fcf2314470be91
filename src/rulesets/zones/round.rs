//! The zones round (§Combat procedure): the faction holding the initiative
//! decides which faction acts first; factions alternate taking a turn with
//! one character or passing; each character takes at most one turn a round;
//! the round ends when all factions pass in a row, then morale is checked.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, Factions, Phase, Prompt};
use crate::rules::components::{Cid, Condition, Health, TurnState};
use crate::rules::dice::{Dice, DiceExpr, RollOptions};
use crate::rules::event::BattleEvent;
use crate::rules::view;
use crate::rulesets::zones::event::ZonesEvent;

pub const RULE_PROCEDURE: &str = "zones §Combat procedure";
pub const RULE_INITIATIVE: &str =
    "zones §Combat procedure: initiative is held by the faction which started the fight";

/// What the character whose turn it is has spent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
}

/// Move the battle on when nothing is prompted.
pub fn advance(world: &mut World) {
    let b = world.resource::<Battle>();
    if b.is_over() || b.prompt != Prompt::None {
        return;
    }
    match b.phase {
        Phase::Setup => {
            choose_holder(world);
            // "At the start of the fight, concealed characters play a bonus
            // round, during which only they can act."
            let ambush = view::standing_all(world)
                .into_iter()
                .any(|c| view::conditions(world, c).has(Condition::Concealed));
            if ambush {
                start_bonus_round(world);
            } else {
                start_round(world);
            }
        }
        Phase::RoundEnd => start_round(world),
        _ => next_activation(world),
    }
}

/// "Initiative is held by the faction which started the fight, or is
/// assigned randomly if that's unclear."
fn choose_holder(world: &mut World) {
    let factions = world.resource::<Factions>().0.clone();
    let starter = factions.iter().position(|f| f.starts_fight);
    let (holder, roll) = match starter {
        Some(f) => (f as u8, None),
        None => {
            let n = factions.len().max(1);
            let expr = DiceExpr::parse(&format!("d{n}")).unwrap_or_else(|_| DiceExpr::flat(1));
            let roll = expr.roll(&mut world.resource_mut::<Dice>(), &RollOptions::default());
            (((roll.total - 1).max(0) as usize % n) as u8, Some(roll))
        }
    };
    emit(
        world,
        ZonesEvent::InitiativeHeld {
            faction: holder,
            roll,
            rule: RULE_INITIATIVE,
        },
    );
    let original = standing_per_faction(world);
    let mut r = world.resource_mut::<ZonesRound>();
    r.holder = Some(holder);
    r.original = original;
}

/// Standing members of each faction (mounts and vehicles not counted).
pub fn standing_per_faction(world: &World) -> Vec<usize> {
    let n = world.resource::<Factions>().0.len();
    let mut v = vec![0; n];
    for c in view::standing_all(world) {
        if view::steed(world, c).is_some() {
            continue;
        }
        if let Some(f) = view::faction(world, c)
            && let Some(slot) = v.get_mut(f as usize)
        {
            *slot += 1;
        }
    }
    v
}

fn start_bonus_round(world: &mut World) {
    emit(world, BattleEvent::RoundStarted { round: 0 });
    world.resource_mut::<ZonesRound>().bonus = true;
    begin(world);
}

fn start_round(world: &mut World) {
    let round = world.resource::<Battle>().round + 1;
    emit(world, BattleEvent::RoundStarted { round });
    world.resource_mut::<ZonesRound>().bonus = false;
    begin(world);
}

fn begin(world: &mut World) {
    let start_standing = standing_per_faction(world);
    let start_health: Vec<i32> = view::all(world)
        .into_iter()
        .map(|c| view::get::<Health>(world, c).map_or(0, |h| h.hp))
        .collect();
    let mut r = world.resource_mut::<ZonesRound>();
    r.next = r.holder.unwrap_or(0);
    r.passes = 0;
    r.opening = true;
    r.turn = TurnBudget::default();
    r.team.clear();
    r.reserved.clear();
    r.carried_fast.clear();
    r.start_standing = start_standing;
    r.start_health = start_health;
    world.resource_mut::<Battle>().phase = Phase::Activation;
    next_activation(world);
}

/// Characters of `faction` who can still take a turn this round (in the
/// bonus round, only the concealed; never one who reserved its turn to
/// react, nor a vehicle with nobody aboard).
pub fn eligible(world: &World, faction: u8) -> Vec<Cid> {
    let r = world.resource::<ZonesRound>();
    view::standing_all(world)
        .into_iter()
        .filter(|c| view::faction(world, *c) == Some(faction))
        .filter(|c| view::get::<TurnState>(world, *c).is_some_and(|t| !t.done))
        .filter(|c| !r.bonus || view::conditions(world, *c).has(Condition::Concealed))
        .filter(|c| !r.reserved.contains(c))
        .filter(|c| !super::riders::idle_vehicle(world, *c))
        .collect()
}

/// Ask the next faction to take a turn or pass; a faction with nobody
/// left to act must pass. All factions passing in a row ends the round.
pub fn next_activation(world: &mut World) {
    let n = world.resource::<Factions>().0.len();
    loop {
        let (next, passes) = {
            let r = world.resource::<ZonesRound>();
            (r.next, r.passes)
        };
        if passes >= n {
            end_round(world);
            return;
        }
        if let Some(&speaker) = eligible(world, next).first() {
            world.resource_mut::<Battle>().prompt = Prompt::Activate {
                faction: next,
                speaker,
            };
            return;
        }
        // A faction with nobody standing passes without a word.
        let anyone = standing_per_faction(world)
            .get(next as usize)
            .is_some_and(|c| *c > 0);
        if anyone {
            emit(
                world,
                ZonesEvent::Passed {
                    faction: next,
                    forced: true,
                    rule: RULE_PROCEDURE,
                },
            );
        }
        pass_on(world, next);
    }
}

/// Count a pass by `faction` and hand play to the next faction.
pub fn pass_on(world: &mut World, faction: u8) {
    let n = world.resource::<Factions>().0.len().max(1) as u8;
    let mut r = world.resource_mut::<ZonesRound>();
    r.passes += 1;
    r.opening = false;
    r.next = (faction + 1) % n;
}

/// The faction takes its turn with `who`.
pub fn activate(world: &mut World, faction: u8, who: Cid) {
    emit(
        world,
        ZonesEvent::Activated {
            faction,
            who,
            rule: RULE_PROCEDURE,
        },
    );
    // "Mounts and riders, as well as vehicles and passengers, take turn
    // together."
    let team: Vec<TurnBudget> = super::riders::pair(world, who)
        .into_iter()
        .filter(|c| *c != who)
        .map(|c| TurnBudget {
            who: Some(c),
            ..default()
        })
        .collect();
    {
        let mut r = world.resource_mut::<ZonesRound>();
        r.passes = 0;
        r.opening = false;
        r.turn = TurnBudget {
            who: Some(who),
            ..default()
        };
        r.team = team;
    }
    emit(world, BattleEvent::TurnStarted { who });
    world.resource_mut::<Battle>().prompt = Prompt::Act { actor: who };
}

/// End `who`'s turn: the next of its pair goes on with the turn, else play
/// passes to the next faction.
pub fn end_turn(world: &mut World, who: Cid) {
    if world.resource::<Battle>().prompt == (Prompt::Act { actor: who }) {
        emit(world, BattleEvent::TurnEnded { who });
    }
    finish_part(world, who);
}

/// `who` is through with its part of the turn (ended or reserved): the next
/// of its pair goes on, else play passes to the next faction.
pub fn finish_part(world: &mut World, who: Cid) {
    if super::mounts::next_of_pair(world, who) {
        return;
    }
    let n = world.resource::<Factions>().0.len().max(1) as u8;
    let f = view::faction(world, who).unwrap_or(0);
    let mut r = world.resource_mut::<ZonesRound>();
    r.next = (f + 1) % n;
    r.turn = TurnBudget::default();
    world.resource_mut::<Battle>().prompt = Prompt::None;
}

fn end_round(world: &mut World) {
    super::morale::check(world);
    let round = world.resource::<Battle>().round;
    emit(world, BattleEvent::RoundEnded { round });
    world.resource_mut::<Battle>().phase = Phase::RoundEnd;
}
