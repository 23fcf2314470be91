//! The zones tactical AI. It answers every prompt with a command that passes
//! the same check as a player's: which character acts (the one with the best
//! attack in reach), how it moves and whom it strikes, whether to spend its
//! turn on a dodge, a counter, a guard or an opportunity attack, when to
//! intimidate or use a medicine box (`words.rs`), and what a broken
//! character does (gets away, else surrenders).

mod kept;
mod moves;
mod react;
mod riding;
mod value;
mod words;

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Decision};
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::view;
use crate::rulesets::zones::command::ZonesCommand;

use super::check::{self, eligible};
use super::query::stats;
use super::state::ZonesRound;

use moves::{approach, broken, draw_for_range, free_an_ally, pick_up, sneak_closer};
use react::react;
use riding::{get_off_to_fight, rider_can_strike, steer};
use value::{
    best_maneuver, best_split, best_strike_here, stunt_or_strike, turn_value, turn_value_from,
};

/// The AI's command for `actor` (the speaker, for an activation) now.
pub fn decide(world: &World, actor: Cid) -> Command {
    decision(world, actor).command
}

/// [`decide`], with the ruleset's check's answer on the command it
/// settles on: the core's verdict on it.
pub fn decision(world: &World, actor: Cid) -> Decision {
    let prompt = view::resource::<Battle>(world).prompt;
    let cmd = match prompt {
        Prompt::None => Command::EndTurn,
        Prompt::Activate { faction, .. } => activation(world, faction),
        Prompt::React { attacker, .. } => react(world, actor, attacker),
        Prompt::Act { .. } => act(world, actor),
    };
    if check::check(world, actor, &cmd).is_ok() {
        return Decision::legal(cmd);
    }
    Decision::unjudged(match prompt {
        Prompt::Activate { .. } => Command::from(ZonesCommand::Pass),
        Prompt::React { .. } => Command::NoReaction,
        _ => Command::EndTurn,
    })
}

/// Which character takes the faction's turn: the one whose turn is worth
/// most now; broken characters go first to get away. When none of them
/// can strike this turn while an enemy still to act can, the faction
/// passes (or, holding the initiative, gives the first turn away): its
/// characters keep their turns to dodge, counter or guard, and act after
/// the enemy has committed (§Procedure: the text's own example has the
/// players pass).
fn activation(world: &World, faction: u8) -> Command {
    let mut best: Option<(f64, Cid)> = None;
    let mut can_strike = false;
    // What is weighed here, the one chosen weighs again first in its turn.
    kept::begin(world);
    for c in eligible(world, faction) {
        let mut v = if view::conditions(world, c).has(Condition::Broken) {
            100.0
        } else {
            // Its best blow, or word, item or power.
            let word = words::best_word_or_item(world, c);
            let strike = best_strike_here(world, c, false);
            let v = turn_value_from(world, c, strike.map_or(0.0, |b| b.0))
                .max(word.as_ref().map_or(0.0, |b| b.0));
            kept::keep(c, kept::Weighed { strike, word });
            v
        };
        can_strike |= v > 0.0;
        // Someone who can still close in is worth something.
        v += 0.1;
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, c));
        }
    }
    if best.is_some()
        && !can_strike
        && let Some(to) = striking_enemy(world, faction)
    {
        let give = Command::from(ZonesCommand::FirstTurnTo { faction: to });
        if check::check(world, world_speaker(world), &give).is_ok() {
            return give;
        }
        return Command::from(ZonesCommand::Pass);
    }
    match best {
        // A mount and its riders take their turn together: the mount goes
        // first, to carry them where they can strike.
        Some((_, who)) => Command::from(ZonesCommand::Activate {
            who: crate::rulesets::zones::turns::pair(world, who)
                .first()
                .copied()
                .unwrap_or(who),
        }),
        None => Command::from(ZonesCommand::Pass),
    }
}

/// Another faction with a character still to act who can strike this
/// turn, if any: it will not pass, so waiting for it never stalls a round.
fn striking_enemy(world: &World, faction: u8) -> Option<u8> {
    let factions = view::resource::<crate::rules::roster::Factions>(world)
        .0
        .len();
    (0..factions as u8).filter(|f| *f != faction).find(|f| {
        eligible(world, *f)
            .into_iter()
            .any(|c| turn_value(world, c) > 0.0)
    })
}

/// Who speaks for the faction at the activation prompt.
fn world_speaker(world: &World) -> Cid {
    match view::resource::<Battle>(world).prompt {
        Prompt::Activate { speaker, .. } => speaker,
        _ => Cid(0),
    }
}

/// The command for `actor` at its own turn (§Taking a turn): held, broken
/// or steering first; then a fight its side can no longer help lost; then
/// a weapon to take up; then its main action; then a move.
fn act(world: &World, actor: Cid) -> Command {
    if let Some(c) = held_broken_or_steering(world, actor) {
        return c;
    }
    let weighed = weighed_at_activation(world, actor);
    if fight_lost(world, actor, weighed.as_ref()) {
        return broken(world, actor);
    }
    // Disarmed, or fighting bare-handed: pick up a weapon lying nearby. A
    // rider next to a foe it would hit harder on foot gets off to fight.
    if let Some(c) = pick_up(world, actor).or_else(|| get_off_to_fight(world, actor)) {
        return c;
    }
    let t = view::resource::<ZonesRound>(world).turn.clone();
    let half = stats(world, actor).map_or(1, |s| s.half_speed());
    if !t.main
        && t.bonus < 2
        && !t.beyond(half)
        && let Some(c) = main_action(world, actor, weighed)
    {
        return c;
    }
    move_on(world, actor, t.main)
}

/// A grabbed character breaks free or ends its turn (Fray decides:
/// docs/rulesets/zones.md §Grabs); a broken one gets away or surrenders
/// (§Morale); a mount steers for its riders (§Mounts and vehicles in
/// combat).
fn held_broken_or_steering(world: &World, actor: Cid) -> Option<Command> {
    let conds = view::conditions(world, actor);
    if conds.has(Condition::Grabbed) {
        return Some(
            if check::check(world, actor, &Command::from(ZonesCommand::BreakFree)).is_ok() {
                Command::from(ZonesCommand::BreakFree)
            } else {
                Command::EndTurn
            },
        );
    }
    if conds.has(Condition::Broken) {
        return Some(broken(world, actor));
    }
    steer(world, actor)
}

/// The activation that chose it weighed its strike and its words at this
/// very state, but for who the round says acts (at its turn's first
/// decision only).
fn weighed_at_activation(world: &World, actor: Cid) -> Option<kept::Weighed> {
    let weighed = kept::for_first_decision(world, actor);
    debug_assert!(
        weighed.as_ref().is_none_or(|w| *w
            == kept::Weighed {
                strike: best_strike_here(world, actor, false),
                word: words::best_word_or_item(world, actor),
            }),
        "the activation's weighing kept for {actor:?} is not its own now"
    );
    weighed
}

/// When nobody left on the side can hurt the enemy, the fight is lost:
/// leave it as the broken do ("surrender or retreat", §Morale). Not a
/// mount or a vehicle, which carry others. (Those who cannot hurt the
/// enemy still help while an ally can: the goblins of the wyrm's lair draw
/// its bites.) A strike weighed is a blow worth something on an enemy with
/// a weapon it may use (a bow only with arrows): it can harm, as
/// `can_harm` would answer.
fn fight_lost(world: &World, actor: Cid, weighed: Option<&kept::Weighed>) -> bool {
    let harms = weighed.is_some_and(|w| w.strike.is_some()) || value::can_harm(world, actor);
    !harms
        && !crate::rulesets::zones::turns::is_vehicle(world, actor)
        && crate::rulesets::zones::turns::standing_riders(world, actor).is_empty()
        && !value::ally_can_harm(world, actor, true)
}

/// The turn's main action (§Taking a turn), with its half move still to
/// make: a maneuver, freeing an ally, a split attack, or a word, item or
/// power when worth more than the blow; else the blow; else closing in so
/// as to strike this turn; else drawing a ranged weapon that could strike
/// from here.
fn main_action(world: &World, actor: Cid, weighed: Option<kept::Weighed>) -> Option<Command> {
    let (strike, word) = match weighed {
        Some(w) => (w.strike, Some(w.word)),
        None => (best_strike_here(world, actor, false), None),
    };
    let strike_v = strike.map_or(0.0, |s| s.0);
    better_than_the_blow(world, actor, strike_v, word)
        .or_else(|| strike.map(|(_, weapon, target)| blow(world, actor, weapon, target)))
        .or_else(|| approach(world, actor, true).map(|path| Command::Move { path }))
        .or_else(|| draw_for_range(world, actor))
}

/// What beats the turn's blow, worth `strike_v`: a maneuver, freeing a
/// grabbed ally, a split attack, then words and items (when worth more
/// than the blow, or, with none to strike, than closing in). `word`: the
/// best word weighed at the activation, if it was.
fn better_than_the_blow(
    world: &World,
    actor: Cid,
    strike_v: f64,
    word: Option<Option<(f64, Command)>>,
) -> Option<Command> {
    if let Some((v, c)) = best_maneuver(world, actor, strike_v)
        && v > strike_v
        && check::check(world, actor, &c).is_ok()
    {
        return Some(c);
    }
    if let Some(c) = free_an_ally(world, actor, strike_v) {
        return Some(c);
    }
    if let Some((v, c)) = best_split(world, actor)
        && v > strike_v
    {
        return Some(c);
    }
    if let Some((v, c)) = word.unwrap_or_else(|| words::best_word_or_item(world, actor))
        && v > value::turn_worth_from(world, actor, strike_v)
        && check::check(world, actor, &c).is_ok()
    {
        return Some(c);
    }
    None
}

/// The blow with `weapon` on `target` (§Attacking): drawn first unless in
/// hand or bare-handed, then struck, as a stunt when one pays.
fn blow(world: &World, actor: Cid, weapon: usize, target: Cid) -> Command {
    let ready = view::get::<Loadout>(world, actor).and_then(|l| l.ready);
    let unarmed = view::get::<Loadout>(world, actor).is_some_and(|l| weapon + 1 == l.weapons.len());
    if ready != Some(weapon) && !unarmed {
        return Command::Draw { weapon };
    }
    Command::Attack {
        target,
        weapon,
        mode: stunt_or_strike(world, actor, target, weapon),
    }
}

/// The rest of a turn with no action worth taking: a move, unless the main
/// action is taken (`main_taken`), else the turn's end. Concealed: no faster than half speed, as running is not sneaking
/// (§Sneaking in combat); an ambusher who ran would give itself away for
/// nothing. At full speed the riders could not act: not while one could
/// strike.
fn move_on(world: &World, actor: Cid, main_taken: bool) -> Command {
    if view::conditions(world, actor).has(Condition::Concealed) {
        return match sneak_closer(world, actor) {
            Some(path) if !main_taken => Command::Move { path },
            _ => Command::EndTurn,
        };
    }
    if !main_taken
        && !rider_can_strike(world, actor)
        && let Some(path) = approach(world, actor, false)
    {
        return Command::Move { path };
    }
    Command::EndTurn
}
