//! The brp AI. It issues the same commands a player does and only ones the
//! check accepts. It states an attack on the enemy its blows are worth
//! most against (the chance, the special chance, the defender's best
//! parry or dodge, the damage through armor, the hit points left), First
//! Aid for a dying ally it can reach before the round ends, a reload when
//! its crossbow is empty and no enemy is at hand; it moves no farther than
//! its statement needs (a shorter move keeps a better DEX rank), keeps
//! missile users where they can shoot without closing in, and meets every
//! successful attack with its likeliest defence.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase, Prompt};
use crate::rules::command::{Command, Decision};
use crate::rules::components::{Cid, Health, Loadout, Weapon};
use crate::rules::map::{Cell, Map};
use crate::rules::view;

use super::chance::{Difficulty, Level, special_up_to};
use super::check::{self, attackable};
use super::command::{BrpCommand, Intent};
use super::legal::{nearest, patients, toward};
use super::numbers::{
    armor_against, attack_numbers, best_defense, defenses, mean_through_armor, rolled_by,
};
use super::query::{HALF_FROM_DM, enemy_adjacent, move_left, round, settings};
use super::settings::SpecialBoundary;
use super::state::PendingAttack;
use super::stats::{gear, stats};

/// The AI's command for `actor` now; always legal.
pub fn decide(world: &World, actor: Cid) -> Command {
    decision(world, actor).command
}

/// [`decide`], with the ruleset's check's answer on the command it
/// settles on: the core's verdict on it.
pub fn decision(world: &World, actor: Cid) -> Decision {
    let b = view::resource::<Battle>(world);
    let cmd = match (b.prompt, b.phase) {
        (Prompt::React { .. }, _) => react(world, actor),
        (Prompt::Act { .. }, Phase::Intent) => {
            Command::from(BrpCommand::Declare(intent(world, actor)))
        }
        (Prompt::Act { .. }, Phase::Movement) => movement(world, actor),
        (Prompt::Act { .. }, Phase::Actions) => action(world, actor),
        _ => Command::EndTurn,
    };
    if check::check(world, actor, &cmd).is_ok() {
        return Decision::legal(cmd);
    }
    Decision::unjudged(match (b.prompt, b.phase) {
        (Prompt::React { .. }, _) => Command::NoReaction,
        (_, Phase::Intent) => Command::from(BrpCommand::Declare(Intent::Defend)),
        _ => Command::EndTurn,
    })
}

/// The likeliest defence against the attack waiting (a defence costs
/// nothing in brp: any chance is worth taking). "A special success ...
/// requires an equally successful parry or Dodge roll to avoid"; a plain
/// success against it still turns its special damage into normal damage
/// (§5.8). Ties go to a dodge, which wears no weapon.
fn react(world: &World, actor: Cid) -> Command {
    let Some(p) = view::resource::<PendingAttack>(world).0.as_ref() else {
        return Command::NoReaction;
    };
    let boundary = settings(world).special;
    let mut best: Option<((i32, i32, bool), Command)> = None;
    for o in defenses(world, actor, p) {
        let special = special_up_to(o.chance, boundary);
        let key = if p.level == Level::Special {
            (special, o.chance, o.kind == super::matrix::Defense::Dodge)
        } else {
            (o.chance, special, o.kind == super::matrix::Defense::Dodge)
        };
        let cmd = match o.kind {
            super::matrix::Defense::Dodge => Command::Dodge,
            super::matrix::Defense::Parry => Command::from(BrpCommand::Parry { shield: o.shield }),
        };
        if best.as_ref().is_none_or(|b| key > b.0) {
            best = Some((key, cmd));
        }
    }
    match best {
        Some((key, cmd)) if key.0 > 0 || key.1 > 0 => cmd,
        _ => Command::NoReaction,
    }
}

/// What the blows of one of `actor`'s weapons are worth, weighed against
/// enemy after enemy ([`Weighed::against`]): what comes of the attacker and
/// the weapon (the dice, the damage bonus) worked out once.
struct Weighed {
    /// The blow's [`Blow::rolled`](super::numbers::Blow::rolled), the same
    /// against every target ([`rolled_by`]).
    rolled: (f64, f64),
    velocity: Option<super::data::Velocity>,
    /// The game's special success boundary (§5.13), read once.
    boundary: SpecialBoundary,
}

impl Weighed {
    fn of(world: &World, actor: Cid, w: &Weapon) -> Option<Weighed> {
        let g = gear(w)?;
        Some(Weighed {
            rolled: rolled_by(world, actor, &w.damage, g.db),
            velocity: g.velocity,
            boundary: settings(world).special,
        })
    }

    /// What a blow at `chance` is worth against `target`: the expected hit
    /// points it takes, through the defender's best defence and armor, as
    /// a share of what the target has left before it falls.
    fn against(&self, world: &World, chance: i32, target: Cid, guards: &mut Guards) -> f64 {
        let boundary = self.boundary;
        let p_hit = f64::from(chance.clamp(0, 100)) / 100.0;
        let p_spec = f64::from(special_up_to(chance, boundary).clamp(0, 100)) / 100.0;
        let (def, ap, left) = guards.of(world, target, self.velocity);
        let p_def = f64::from(def.clamp(0, 100)) / 100.0;
        let p_def_spec = f64::from(special_up_to(def, boundary).clamp(0, 100)) / 100.0;
        let (normal, special) = (
            mean_through_armor(self.rolled, ap, false),
            mean_through_armor(self.rolled, ap, true),
        );
        let expected = (p_hit - p_spec) * (1.0 - p_def) * normal
            + p_spec * ((1.0 - p_def) * special + (p_def - p_def_spec) * normal);
        expected / f64::from(left)
    }
}

/// What each enemy opposes to a blow of each velocity, its best defence
/// and its armor, and the hit points it has before it falls, found once
/// for all the weapons one decision weighs against it (the same against a
/// sword as against an axe).
#[derive(Default)]
struct Guards(smallvec::SmallVec<[Guard; 8]>);

/// An enemy and a blow's velocity; its best defence and armor against it,
/// and its hit points left above the unconscious threshold (at least 1).
type Guard = ((Cid, Option<super::data::Velocity>), (i32, i32, i32));

impl Guards {
    fn of(
        &mut self,
        world: &World,
        target: Cid,
        velocity: Option<super::data::Velocity>,
    ) -> (i32, i32, i32) {
        if let Some((_, g)) = self.0.iter().find(|(k, _)| *k == (target, velocity)) {
            return *g;
        }
        let threshold = settings(world).unconscious_at_hp;
        let g = (
            best_defense(world, target, velocity),
            armor_against(world, target, velocity),
            view::get::<Health>(world, target).map_or(1, |h| (h.hp - threshold).max(1)),
        );
        self.0.push(((target, velocity), g));
        g
    }
}

/// The weapons `actor` can attack with now (loaded if they must be), kept
/// inline: asked of every actor and enemy a decision weighs.
fn weapons(world: &World, actor: Cid) -> smallvec::SmallVec<[(usize, &Weapon); 4]> {
    view::get::<Loadout>(world, actor)
        .map(|l| {
            l.weapons
                .iter()
                .enumerate()
                .filter(|(_, w)| gear(w).is_some() && !(w.magazine > 0 && w.loaded == 0))
                .collect()
        })
        .unwrap_or_default()
}

/// The statement of intent (§5.2).
fn intent(world: &World, actor: Cid) -> Intent {
    let Some(here) = view::cell(world, actor) else {
        return Intent::Defend;
    };
    if view::steed(world, actor).is_some_and(|s| s.vehicle) {
        return Intent::Defend;
    }
    let engaged = enemy_adjacent(world, actor, here);
    // A dying ally within reach of a short move: First Aid saves it from
    // death at the round's end (§5.12, §5.14).
    let medic = view::steed(world, actor).is_none();
    if medic
        && !engaged
        && stats(world, actor).is_some_and(|s| s.first_aid >= 25)
        && let Some(patient) = dying_within(world, actor, here)
    {
        return Intent::FirstAid { patient };
    }
    // An empty crossbow or firearm with no enemy at hand: reload.
    if !engaged
        && let Some(l) = view::get::<Loadout>(world, actor)
        && let Some(i) = l.ready
        && let Some(w) = l.weapons.get(i)
        && w.magazine > 0
        && w.loaded == 0
        && w.spare != Some(0)
    {
        return Intent::Reload { weapon: i };
    }
    let best = best_target(world, actor, here, engaged);
    // A medic with nothing much to strike this round stands by an ally
    // likely to fall before the round ends (§5.14: "may be saved from death
    // if they can be brought up to 1 hit point by the time the combat round
    // ends").
    if medic
        && !engaged
        && best.is_none_or(|b| b.0 < MEDIC_BELOW)
        && stats(world, actor).is_some_and(|s| s.skills.contains_key("First Aid"))
        && let Some(patient) = endangered_within(world, actor, here)
    {
        return Intent::FirstAid { patient };
    }
    match best {
        Some((_, target, weapon)) => Intent::Attack { target, weapon },
        None => Intent::Defend,
    }
}

/// Below this value of its best blow a medic tends an endangered ally
/// instead (a blow's value: the share of the target's hit points it is
/// expected to take).
const MEDIC_BELOW: f64 = 0.1;

/// An ally fighting in melee with few hit points left (at most 40 % of its
/// most, or 3 above falling), within a short move of the medic: the one
/// with the fewest.
fn endangered_within(world: &World, actor: Cid, here: Cell) -> Option<Cid> {
    let threshold = settings(world).unconscious_at_hp;
    let f = view::faction(world, actor);
    view::standing_all(world)
        .into_iter()
        .filter(|c| {
            *c != actor && view::faction(world, *c) == f && view::steed(world, *c).is_none()
        })
        .filter_map(|c| {
            let h = view::get::<Health>(world, c)?;
            let at = view::cell(world, c)?;
            let low = h.hp <= (h.hp_max * 2 / 5).max(threshold + 3);
            (low && Map::chebyshev(here, at) <= 4 && enemy_adjacent(world, c, at))
                .then_some((h.hp, c))
        })
        .min()
        .map(|(_, c)| c)
}

/// An ally at 0 hit points or fewer (or out cold) whose side the medic can
/// reach by a short move, nearest first.
fn dying_within(world: &World, actor: Cid, here: Cell) -> Option<Cid> {
    let mut best: Option<(i32, Cid)> = None;
    for p in patients(world, actor) {
        if view::steed(world, p).is_some() {
            continue;
        }
        let down = check::treatable(world, p)
            && (view::get::<Health>(world, p).is_some_and(|h| h.hp <= 0)
                || view::conditions(world, p)
                    .has(crate::rules::components::Condition::Unconscious));
        let Some(at) = view::cell(world, p) else {
            continue;
        };
        let d = Map::chebyshev(here, at);
        // Within about 6 metres: beside the patient before the count ends.
        if down && d <= 4 && best.is_none_or(|b| d < b.0) {
            best = Some((d, p));
        }
    }
    best.map(|b| b.1)
}

/// The best attack to state: (value, target, weapon). Missiles from where
/// the shooter stands (it keeps its distance), melee on an enemy it can
/// reach this round, valued less the farther it must go (a shorter move
/// keeps a better rank). A missile user set upon fights with what it has
/// at hand.
fn best_target(world: &World, actor: Cid, here: Cell, engaged: bool) -> Option<(f64, Cid, usize)> {
    let mut best: Option<(f64, Cid, usize)> = None;
    let mut guards = Guards::default();
    // A rider goes as far as its mount (a vehicle the AI leaves put).
    let budget = match view::riding(world, actor) {
        Some(m) if view::steed(world, m).is_some_and(|s| s.vehicle) => 0,
        Some(m) => move_left(world, m),
        None => move_left(world, actor),
    };
    let enemies = view::enemies(world, actor);
    for (i, w) in weapons(world, actor) {
        let Some(g) = gear(w) else { continue };
        let Some(weighed) = Weighed::of(world, actor, w) else {
            continue;
        };
        for &e in &enemies {
            let Some(at) = view::cell(world, e) else {
                continue;
            };
            let v = if g.is_missile() {
                // A shooter set upon fights with what it has in hand: one
                // that stepped off would be set upon again by faster foes,
                // or, slower, kite its foes round after round.
                if engaged {
                    continue;
                }
                match attack_numbers(world, actor, here, e, i) {
                    Ok(n) => weighed.against(world, n.chance, e, &mut guards),
                    Err(_) => continue,
                }
            } else {
                let steps = (Map::chebyshev(here, at) - 1).max(0) as u32;
                let cost = steps * crate::rules::map::ORTHO_DM;
                if cost > budget {
                    // Out of reach this round: worth closing in on.
                    0.01 / (1.0 + f64::from(steps))
                } else {
                    let factor = if cost < HALF_FROM_DM { 1.0 } else { 0.8 };
                    factor * weighed.against(world, g.chance, e, &mut guards)
                }
            };
            if best.is_none_or(|b| v > b.0) {
                best = Some((v, e, i));
            }
        }
    }
    best
}

/// The Movement phase: as far as the statement needs, no farther; one who
/// stays behind a large shield kneels if enemy missiles are about.
fn movement(world: &World, actor: Cid) -> Command {
    let cmd = moving(world, actor);
    if cmd == Command::EndTurn && check::check_kneel(world, actor).is_ok() && shot_at(world, actor)
    {
        return Command::from(BrpCommand::Kneel);
    }
    cmd
}

/// Could an enemy's missile reach `actor` (no enemy beside it, one with a
/// loaded missile weapon in range and sight)?
fn shot_at(world: &World, actor: Cid) -> bool {
    let Some(here) = view::cell(world, actor) else {
        return false;
    };
    if enemy_adjacent(world, actor, here) {
        return false;
    }
    view::each_enemy(world, actor).any(|e| {
        let Some(from) = view::cell(world, e) else {
            return false;
        };
        weapons(world, e).into_iter().any(|(i, w)| {
            gear(w).is_some_and(|g| g.is_missile())
                && attack_numbers(world, e, from, actor, i).is_ok()
        })
    })
}

fn moving(world: &World, actor: Cid) -> Command {
    let Some(here) = view::cell(world, actor) else {
        return Command::EndTurn;
    };
    // A rider goes where its mount goes; a vehicle stays put.
    if view::riding(world, actor).is_some() || view::steed(world, actor).is_some_and(|s| s.vehicle)
    {
        return Command::EndTurn;
    }
    let declared = match round(world).declared(actor) {
        Some(i) => i,
        None if !settings(world).statement_of_intent => intent(world, actor),
        None => return Command::EndTurn,
    };
    // A mount carries its rider to the enemy the rider means to strike in
    // melee (a shooting rider is carried nowhere).
    let riders: Vec<Cid> = view::riders(world, actor)
        .into_iter()
        .filter(|r| view::standing(world, *r))
        .collect();
    let shooting = riders.iter().any(|r| match round(world).declared(*r) {
        Some(Intent::Attack { weapon, .. }) => {
            super::stats::weapon(world, *r, weapon).is_some_and(|(_, g)| g.is_missile())
        }
        _ => false,
    });
    if shooting {
        return Command::EndTurn;
    }
    let carried = riders.iter().find_map(|r| match round(world).declared(*r) {
        Some(Intent::Attack { target, .. }) => Some(target),
        _ => None,
    });
    let goal = match (carried, declared) {
        (Some(target), _) => target,
        (None, declared) => match declared {
            Intent::Attack { target, weapon } => {
                let ranged =
                    super::stats::weapon(world, actor, weapon).is_some_and(|(_, g)| g.is_missile());
                if attackable(world, actor, target, weapon) {
                    return Command::EndTurn;
                }
                if ranged {
                    return shooting_spot(world, actor, target, weapon)
                        .map_or(Command::EndTurn, |path| Command::Move { path });
                }
                target
            }
            Intent::FirstAid { patient } => patient,
            Intent::Reload { .. } | Intent::Defend => return Command::EndTurn,
        },
    };
    let Some(at) = view::cell(world, goal) else {
        return Command::EndTurn;
    };
    if Map::chebyshev(here, at) <= 1 {
        return Command::EndTurn;
    }
    // The cheapest cell beside the goal; else the reachable cell nearest
    // it by the way there (walls and moats counted), then the cheapest, and
    // only if nearer than here. (With the way to the goal blocked, a
    // shieldbearer on Ruined Keep once stepped back and forth between two
    // cells as near as each other until its movement ran out, 1.5 m at a
    // time, each step lowering its DEX rank.)
    toward(world, actor, at).map_or(Command::EndTurn, |path| Command::Move { path })
}

/// Where a shooter can shoot `target` from, by the shortest move that
/// does not end next to an enemy.
fn shooting_spot(world: &World, actor: Cid, target: Cid, weapon: usize) -> Option<Vec<Cell>> {
    nearest(world, actor, |c| {
        !enemy_adjacent(world, actor, c)
            && attack_numbers(world, actor, c, target, weapon)
                .is_ok_and(|n| n.difficulty <= Difficulty::Difficult)
    })?
    .ok()
}

/// The Actions phase: the stated action, on another target of the same
/// weapon if the stated one cannot be struck.
fn action(world: &World, actor: Cid) -> Command {
    let Some(here) = view::cell(world, actor) else {
        return Command::EndTurn;
    };
    let declared = match round(world).declared(actor) {
        Some(i) => i,
        None if !settings(world).statement_of_intent => intent(world, actor),
        None => return Command::EndTurn,
    };
    match declared {
        Intent::Attack { target, weapon } => {
            if attackable(world, actor, target, weapon) {
                return Command::Attack {
                    target,
                    weapon,
                    mode: 0,
                };
            }
            let weighed = view::get::<Loadout>(world, actor)
                .and_then(|l| l.weapons.get(weapon))
                .and_then(|w| Weighed::of(world, actor, w));
            let mut best: Option<(f64, Cid)> = None;
            let mut guards = Guards::default();
            for e in view::enemies(world, actor) {
                if let (Some(wb), Ok(n)) = (
                    weighed.as_ref(),
                    attack_numbers(world, actor, here, e, weapon),
                ) {
                    let v = wb.against(world, n.chance, e, &mut guards);
                    if best.is_none_or(|b| v > b.0) {
                        best = Some((v, e));
                    }
                }
            }
            best.map_or(Command::EndTurn, |(_, target)| Command::Attack {
                target,
                weapon,
                mode: 0,
            })
        }
        Intent::FirstAid { patient } => Command::from(BrpCommand::FirstAid { patient }),
        Intent::Reload { weapon } => Command::from(BrpCommand::Reload { weapon }),
        Intent::Defend => Command::EndTurn,
    }
}
