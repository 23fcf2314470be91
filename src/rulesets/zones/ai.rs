//! The zones tactical AI. It answers every prompt with a command that passes
//! the same check as a player's: which character acts (the one with the best
//! attack in reach), how it moves and whom it strikes, whether to spend its
//! turn on a dodge, a counter, a guard or an opportunity attack, and what a
//! broken character does (gets away, else surrenders).

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Maneuver};
use crate::rules::components::{Cid, Condition, Health, Loadout, Weapon};
use crate::rules::map::{Cell, Map};
use crate::rules::view;

use super::check::{self, check_strike, check_strike_drawn, stats};
use super::data::{MODE_STRIKE, MODE_STUNT_SURRENDER};
use super::mounts;
use super::movement::{self, nearest_enemy_zones, reach, remaining};
use super::nonlethal::{check_maneuver, holding, may_resist, shove_end};
use super::odds::{damage_odds, split_odds};
use super::queries::{blast_targets, can_react, save_chance, wit_save_reason, zone};
use super::round::{ZonesRound, eligible};
use super::state::{Pending, Stage};

/// How much taking a character out of the fight is worth, in points of
/// damage.
const DOWN: f64 = 8.0;

/// The AI's command for `actor` (the speaker, for an activation) now.
pub fn decide(world: &mut World, actor: Cid) -> Command {
    let prompt = world.resource::<Battle>().prompt;
    let cmd = match prompt {
        Prompt::None => Command::EndTurn,
        Prompt::Activate { faction, .. } => activation(world, faction),
        Prompt::React { attacker, .. } => react(world, actor, attacker),
        Prompt::Act { .. } => act(world, actor),
    };
    if check::check(world, actor, &cmd).is_ok() {
        return cmd;
    }
    match prompt {
        Prompt::Activate { .. } => Command::Pass,
        Prompt::React { .. } => Command::NoReaction,
        _ => Command::EndTurn,
    }
}

/// Expected value of a blow by `attacker` on `target` with `w`: mean damage
/// suffered plus [`DOWN`] times the chance it takes the target out, times
/// the chance to hit.
pub fn blow_value(world: &World, attacker: Cid, target: Cid, w: &Weapon, mode: usize) -> f64 {
    let p_hit = match wit_save_reason(world, attacker, target, w, false) {
        Some(_) => save_chance(world, stats(world, attacker).map_or(0, |s| s.wit)),
        None => 1.0,
    };
    if w.blast {
        return p_hit * blast_value(world, attacker, target, w, mode);
    }
    let o = damage_odds(world, attacker, target, w, mode);
    p_hit * (o.mean + DOWN * o.p_down)
}

/// A blast aimed at `target`'s zone (or the attacker's own, in melee):
/// what it does to enemies, less what it does to friends.
fn blast_value(world: &World, attacker: Cid, target: Cid, w: &Weapon, mode: usize) -> f64 {
    let z = if w.is_ranged() {
        zone(world, target)
    } else {
        zone(world, attacker)
    };
    let Some(z) = z else { return 0.0 };
    let me = view::faction(world, attacker);
    blast_targets(world, attacker, z, w.is_ranged())
        .into_iter()
        .map(|t| {
            let o = damage_odds(world, attacker, t, w, mode);
            let v = o.mean + DOWN * o.p_down;
            if view::faction(world, t) == me {
                -1.5 * v
            } else {
                v
            }
        })
        .sum()
}

/// The chance a non-lethal attack gets past the target's STR save.
fn p_fails_str(world: &World, attacker: Cid, target: Cid) -> f64 {
    if !may_resist(world, attacker, target) {
        return 1.0;
    }
    1.0 - save_chance(world, stats(world, target).map_or(0, |s| s.str))
}

/// The best non-lethal attack `who` can make now, if any: value, command.
/// A shove into a pit is worth a kill (or its damage); a grapple takes an
/// enemy's coming turns away.
fn best_maneuver(world: &World, who: Cid) -> Option<(f64, Command)> {
    let mut best: Option<(f64, Command)> = None;
    for t in view::enemies(world, who) {
        let p = p_fails_str(world, who, t);
        let hp = view::get::<Health>(world, t).map_or(1, |h| h.hp);
        if check_maneuver(world, who, t, Maneuver::Shove).is_ok()
            && shove_end(world, who, t).1.is_some()
        {
            let fall = match &world
                .resource::<super::settings::ZonesSettings>()
                .pit_damage
            {
                None => DOWN + f64::from(hp),
                Some(d) => f64::from(d.min(None) + d.max(None)) / 2.0,
            };
            let v = p * fall;
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((
                    v,
                    Command::Maneuver {
                        target: t,
                        kind: Maneuver::Shove,
                    },
                ));
            }
        }
        // Knock away the weapon in its hand: worth what that weapon does
        // beyond its bare hands, for a round or two.
        if let Some(l) = view::get::<Loadout>(world, t)
            && let Some(i) = l.ready
            && let (Some(w), Some(bare)) = (l.weapons.get(i), l.weapons.last())
        {
            let kind = Maneuver::Disarm { weapon: i };
            if check_maneuver(world, who, t, kind).is_ok() {
                let armed = damage_odds(world, t, who, w, MODE_STRIKE);
                let unarmed = damage_odds(world, t, who, bare, MODE_STRIKE);
                let gain =
                    (armed.mean + DOWN * armed.p_down) - (unarmed.mean + DOWN * unarmed.p_down);
                let v = p * gain * 1.5;
                if best.as_ref().is_none_or(|b| v > b.0) {
                    best = Some((v, Command::Maneuver { target: t, kind }));
                }
            }
        }
        if holding(world, who).is_none()
            && check_maneuver(world, who, t, Maneuver::Grapple).is_ok()
            && view::standing(world, t)
        {
            // Held, it loses its turns until it breaks free: worth about
            // one of its turns, more for those who fight from afar.
            let v = p * turn_value(world, t) * 0.8;
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((
                    v,
                    Command::Maneuver {
                        target: t,
                        kind: Maneuver::Grapple,
                    },
                ));
            }
        }
    }
    best
}

/// The best strike `who` could make from where it stands, if any: value,
/// weapon, target.
fn best_strike_here(world: &World, who: Cid, reaction: bool) -> Option<(f64, usize, Cid)> {
    let l = view::get::<Loadout>(world, who)?;
    let mut best: Option<(f64, usize, Cid)> = None;
    for (i, w) in l.weapons.iter().enumerate() {
        for t in view::enemies(world, who) {
            if check_strike_any_hand(world, who, t, i, reaction).is_err() {
                continue;
            }
            let v = blow_value(world, who, t, w, MODE_STRIKE);
            // Never a blow that does more harm to friends than to foes.
            if v > 0.0 && best.is_none_or(|b| v > b.0) {
                best = Some((v, i, t));
            }
        }
    }
    best
}

/// The rules' strike check, counting a weapon not in hand as drawn when a
/// bonus action is left to draw it.
fn check_strike_any_hand(
    world: &World,
    who: Cid,
    target: Cid,
    index: usize,
    reaction: bool,
) -> Result<(), crate::rules::command::Illegal> {
    let drawable = !reaction && world.resource::<ZonesRound>().turn.bonus_left() > 0;
    check_strike_drawn(world, who, target, index, MODE_STRIKE, reaction, drawable)
}

/// What a character's turn is worth now: its best strike, from here or after
/// a half-speed move.
pub fn turn_value(world: &World, who: Cid) -> f64 {
    let here = best_strike_here(world, who, false).map_or(0.0, |b| b.0);
    let Some(s) = stats(world, who) else {
        return here;
    };
    let Some(l) = view::get::<Loadout>(world, who) else {
        return here;
    };
    // A melee strike after moving into an enemy's zone.
    let mut after = 0.0f64;
    let my = zone(world, who);
    let map = world.resource::<Map>();
    for t in view::enemies(world, who) {
        let (Some(a), Some(b)) = (my, zone(world, t)) else {
            continue;
        };
        if map
            .zone_distance(a, b)
            .is_some_and(|d| d >= 1 && d <= s.half_speed())
            && let Some(w) = l.ready_weapon().filter(|w| !w.is_ranged())
        {
            after = after.max(blow_value(world, who, t, w, MODE_STRIKE) * 0.9);
        }
    }
    here.max(after)
}

/// Which character takes the faction's turn: the one whose turn is worth
/// most now; broken characters go first to get away.
fn activation(world: &World, faction: u8) -> Command {
    let mut best: Option<(f64, Cid)> = None;
    for c in eligible(world, faction) {
        let mut v = turn_value(world, c);
        if view::conditions(world, c).has(Condition::Broken) {
            v = 100.0;
        }
        // Someone who can still close in is worth something.
        v += 0.1;
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, c));
        }
    }
    match best {
        // A mount and its riders take their turn together: the mount goes
        // first, to carry them where they can strike.
        Some((_, who)) => Command::Activate {
            who: mounts::pair(world, who).first().copied().unwrap_or(who),
        },
        None => Command::Pass,
    }
}

/// A mount or vehicle with riders still to act this turn: carry them away if
/// one is broken; a vehicle stands still for its passengers to shoot; a
/// mount keeps to half speed when a rider could strike from here. `None`:
/// act as anyone would.
fn steer(world: &World, actor: Cid) -> Option<Command> {
    let riders = mounts::standing_riders(world, actor);
    if riders.is_empty() {
        return None;
    }
    if riders
        .iter()
        .any(|r| view::conditions(world, *r).has(Condition::Broken))
    {
        return Some(match broken(world, actor) {
            Command::Surrender => Command::EndTurn,
            c => c,
        });
    }
    let pending: Vec<Cid> = riders
        .into_iter()
        .filter(|r| mounts::budget_of(world, *r).is_some_and(|b| !b.acted()))
        .collect();
    if pending.is_empty() {
        return None;
    }
    if mounts::is_vehicle(world, actor) {
        return Some(Command::EndTurn);
    }
    None
}

/// With nothing but bare hands in hand, the best weapon lying nearby, if
/// the rules let it be picked up now.
fn pick_up(world: &World, actor: Cid) -> Option<Command> {
    let l = view::get::<Loadout>(world, actor)?;
    let bare = l.ready.is_none_or(|r| r + 1 == l.weapons.len());
    if !bare {
        return None;
    }
    world
        .resource::<crate::rules::battle::Ground>()
        .0
        .iter()
        .enumerate()
        .map(|(item, (_, w))| (w.damage.max(None), Command::PickUp { item }))
        .filter(|(_, c)| check::check(world, actor, c).is_ok())
        .max_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Get off when the weapon in hand, on foot, is worth more against a
/// nearby enemy than the saddle's impaired blow, by more than the fall a
/// moving mount risks; land next to that enemy's side.
fn get_off_to_fight(world: &World, actor: Cid) -> Option<Command> {
    let mount = view::riding(world, actor)?;
    let t = world.resource::<ZonesRound>().turn.clone();
    if t.acted() {
        return None;
    }
    let w = view::get::<Loadout>(world, actor)?.ready_weapon()?.clone();
    if w.is_ranged() {
        return None;
    }
    let saddle = best_strike_here(world, actor, false).map_or(0.0, |b| b.0);
    let (foot, target) = view::enemies(world, actor)
        .into_iter()
        .filter(|e| super::queries::melee_reach(world, actor, *e))
        .map(|e| {
            let o = super::odds::damage_odds_on_foot(world, actor, e, &w, MODE_STRIKE);
            (o.mean + DOWN * o.p_down, e)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))?;
    let fall = if mounts::moving(world, mount) {
        let agi = stats(world, actor).map_or(0, |s| s.agi);
        (1.0 - save_chance(world, agi)) * 2.5
    } else {
        0.0
    };
    if foot - saddle <= fall + 0.5 {
        return None;
    }
    let at = view::cell(world, mount)?;
    let to = mounts::landing_near(world, at, view::cell(world, target));
    let c = Command::Dismount { to };
    check::check(world, actor, &c).is_ok().then_some(c)
}

/// A rider who could strike from where it sits now.
fn rider_can_strike(world: &World, mount: Cid) -> bool {
    mounts::standing_riders(world, mount).into_iter().any(|r| {
        mounts::budget_of(world, r).is_some_and(|b| !b.acted())
            && best_strike_here(world, r, false).is_some()
    })
}

fn act(world: &World, actor: Cid) -> Command {
    let conds = view::conditions(world, actor);
    if conds.has(Condition::Grabbed) {
        return if check::check(world, actor, &Command::BreakFree).is_ok() {
            Command::BreakFree
        } else {
            Command::EndTurn
        };
    }
    if conds.has(Condition::Broken) {
        return broken(world, actor);
    }
    if let Some(c) = steer(world, actor) {
        return c;
    }
    let t = world.resource::<ZonesRound>().turn.clone();
    let half = stats(world, actor).map_or(1, |s| s.half_speed());
    // Disarmed, or fighting bare-handed: pick up a weapon lying nearby.
    if let Some(c) = pick_up(world, actor) {
        return c;
    }
    // A rider next to a foe it would hit harder on foot gets off to fight.
    if let Some(c) = get_off_to_fight(world, actor) {
        return c;
    }
    if !t.main && t.bonus < 2 && !t.beyond(half) {
        let strike = best_strike_here(world, actor, false);
        let strike_v = strike.map_or(0.0, |s| s.0);
        if let Some((v, c)) = best_maneuver(world, actor)
            && v > strike_v
            && check::check(world, actor, &c).is_ok()
        {
            return c;
        }
        if let Some(c) = free_an_ally(world, actor, strike_v) {
            return c;
        }
        if let Some((v, c)) = best_split(world, actor)
            && v > strike_v
        {
            return c;
        }
        if let Some((_, weapon, target)) = strike {
            let ready = view::get::<Loadout>(world, actor).and_then(|l| l.ready);
            let unarmed =
                view::get::<Loadout>(world, actor).is_some_and(|l| weapon + 1 == l.weapons.len());
            if ready != Some(weapon) && !unarmed {
                return Command::Draw { weapon };
            }
            return Command::Attack {
                target,
                weapon,
                mode: stunt_or_strike(world, actor, target, weapon),
            };
        }
        // Close in so as to strike this turn.
        if let Some(path) = approach(world, actor, true) {
            return Command::Move { path };
        }
        // A ranged weapon not in hand that could strike from here.
        if let Some(d) = draw_for_range(world, actor) {
            return d;
        }
    }
    // At full speed the riders could not act: not while one could strike.
    if !t.main
        && !rider_can_strike(world, actor)
        && let Some(path) = approach(world, actor, false)
    {
        return Command::Move { path };
    }
    Command::EndTurn
}

/// The best sharing of the weapon in hand's dice among smaller enemies
/// (§Effects of size in combat), if any is legal: value, command.
fn best_split(world: &World, actor: Cid) -> Option<(f64, Command)> {
    let w = view::get::<Loadout>(world, actor)?.ready_weapon()?.clone();
    super::split_candidates(world, actor)
        .into_iter()
        .filter(|c| check::check(world, actor, c).is_ok())
        .map(|c| {
            let v = match &c {
                Command::SplitAttack { shares, .. } => shares
                    .iter()
                    .map(|&(t, d)| {
                        let o = split_odds(world, actor, t, &w, d);
                        o.mean + DOWN * o.p_down
                    })
                    .sum(),
                _ => 0.0,
            };
            (v, c)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Offer a sure surrender instead of a blow likely to take the target out
/// anyway (§Attack stunts): the AI target accepts such offers.
fn stunt_or_strike(world: &World, actor: Cid, target: Cid, weapon: usize) -> usize {
    let Some(w) = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(weapon)) else {
        return MODE_STRIKE;
    };
    let stunt = Command::Attack {
        target,
        weapon,
        mode: MODE_STUNT_SURRENDER,
    };
    let o = damage_odds(world, actor, target, w, MODE_STRIKE);
    if o.p_down >= ACCEPT_AT && o.p_down < 1.0 && check::check(world, actor, &stunt).is_ok() {
        MODE_STUNT_SURRENDER
    } else {
        MODE_STRIKE
    }
}

/// The chance of being taken out, whatever one does, at which a proposed
/// stunt is accepted (and at which the AI proposes one).
const ACCEPT_AT: f64 = 0.8;

/// Pull a nearby held ally free when my own strike is worth less than the
/// ally's turn.
fn free_an_ally(world: &World, actor: Cid, strike_v: f64) -> Option<Command> {
    let str_ = stats(world, actor).map_or(0, |s| s.str);
    view::allies(world, actor)
        .into_iter()
        .filter(|a| view::conditions(world, *a).has(Condition::Grabbed))
        .map(|a| Command::FreeAlly { who: a })
        .find(|c| {
            let Command::FreeAlly { who } = c else {
                return false;
            };
            save_chance(world, str_) * turn_value(world, *who).max(2.0) > strike_v
                && check::check(world, actor, c).is_ok()
        })
}

fn draw_for_range(world: &World, actor: Cid) -> Option<Command> {
    let l = view::get::<Loadout>(world, actor)?;
    for (i, w) in l.weapons.iter().enumerate() {
        if Some(i) != l.ready && w.is_ranged() {
            let cmd = Command::Draw { weapon: i };
            let can = view::enemies(world, actor)
                .into_iter()
                .any(|t| check_strike_drawn(world, actor, t, i, MODE_STRIKE, false, true).is_ok());
            if can && check::check(world, actor, &cmd).is_ok() {
                return Some(cmd);
            }
        }
    }
    None
}

/// A move towards the enemy. `keep_actions`: only within half speed, and
/// only to a cell from which a strike is possible.
fn approach(world: &World, actor: Cid, keep_actions: bool) -> Option<Vec<Cell>> {
    let s = stats(world, actor)?;
    let t = world.resource::<ZonesRound>().turn.clone();
    let budget = if keep_actions {
        (2 * s.half_speed()).saturating_sub(t.spent_halves()) / 2
    } else {
        remaining(world, actor)
    };
    if budget == 0 {
        return None;
    }
    let l = view::get::<Loadout>(world, actor)?;
    let ranged = l.ready_weapon().is_some_and(|w| w.is_ranged());
    let map = world.resource::<Map>();
    let enemies = view::enemies(world, actor);
    let enemy_cells: Vec<(Cid, Cell)> = enemies
        .iter()
        .filter_map(|e| view::cell(world, *e).map(|c| (*e, c)))
        .collect();
    let here = view::cell(world, actor)?;
    let here_dist = nearest_enemy_zones(world, actor, here).unwrap_or(u32::MAX);
    // What a blow is worth on each enemy, and where each stands (the same
    // for every cell weighed below).
    let w = l.ready_weapon();
    let targets: Vec<(Cell, usize, f64)> = enemy_cells
        .iter()
        .filter_map(|&(e, ec)| {
            let value = w.map_or(1.0, |w| {
                let o = damage_odds(world, actor, e, w, MODE_STRIKE);
                o.mean + DOWN * o.p_down
            });
            Some((ec, map.zone_of(ec)?, value))
        })
        .collect();
    let mut best: Option<(f64, Vec<Cell>)> = None;
    for (cell, cost, path) in reach(world, actor, budget) {
        if cost == 0 {
            continue;
        }
        let Some(z) = map.zone_of(cell) else { continue };
        let mut score = 0.0;
        let mut nearest = 99;
        for &(ec, ez, value) in &targets {
            let d = map.zone_distance(z, ez).unwrap_or(99);
            nearest = nearest.min(d);
            let strikes = match w {
                Some(w) if w.is_ranged() => {
                    map.line_of_sight(cell, ec) && 2 * d <= w.range_zones.max(1)
                }
                _ => d == 0,
            };
            if strikes {
                score = f64::max(score, 10.0 + value);
            }
        }
        if keep_actions && score == 0.0 {
            continue;
        }
        if score == 0.0 {
            // Plain approach: nearer is better; archers stay two zones off.
            let want = if ranged { 2 } else { 0 };
            score = 5.0 - f64::from(nearest.abs_diff(want));
            if nearest >= here_dist && !ranged {
                continue;
            }
        }
        // Prefer short paths and cells next to the target.
        let closeness = enemy_cells
            .iter()
            .map(|(_, ec)| Map::chebyshev(*ec, cell))
            .min()
            .unwrap_or(0);
        score -= 0.01 * f64::from(closeness) + 0.001 * path.len() as f64;
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, path));
        }
    }
    best.map(|b| b.1)
}

/// "Those who fail must surrender or retreat": get away if possible,
/// else leave the map, else surrender.
fn broken(world: &World, actor: Cid) -> Command {
    // A rider is carried off by its mount, which goes first; if it did not
    // get away, the rider gives up.
    if let Some(m) = view::riding(world, actor) {
        return if mounts::moving(world, m) {
            Command::EndTurn
        } else {
            Command::Surrender
        };
    }
    if movement::check_flee(world, actor).is_ok() {
        return Command::Flee;
    }
    let here = view::cell(world, actor);
    let here_d = here.and_then(|c| nearest_enemy_zones(world, actor, c));
    let mut best: Option<(u32, Vec<Cell>)> = None;
    for (cell, _, path) in reach(world, actor, remaining(world, actor)) {
        let d = nearest_enemy_zones(world, actor, cell).unwrap_or(99);
        let cmd = Command::Move { path: path.clone() };
        if check::check(world, actor, &cmd).is_err() {
            continue;
        }
        if best.as_ref().is_none_or(|b| d > b.0) {
            best = Some((d, path));
        }
    }
    match best {
        Some((d, path)) if Some(d) > here_d => Command::Move { path },
        _ => {
            if world.resource::<ZonesRound>().turn.zones > 0 {
                Command::EndTurn
            } else {
                Command::Surrender
            }
        }
    }
}

fn react(world: &World, actor: Cid, attacker: Cid) -> Command {
    let pending = world.resource::<Pending>();
    if pending.moving.is_some() && pending.attack.is_none() {
        // An enemy leaves: strike if that is worth the turn.
        let Some((v, weapon, _)) = best_strike_here(world, actor, true)
            .filter(|(_, _, t)| *t == attacker)
            .or_else(|| opportunity(world, actor, attacker))
        else {
            return Command::NoReaction;
        };
        return if v >= 0.8 * turn_value(world, actor) {
            Command::Opportunity { weapon }
        } else {
            Command::NoReaction
        };
    }
    if let Some(b) = &pending.blast {
        let Some(w) = view::get::<Loadout>(world, attacker).and_then(|l| l.weapons.get(b.weapon))
        else {
            return Command::NoReaction;
        };
        let o = damage_odds(world, attacker, actor, w, b.mode);
        let agi = stats(world, actor).map_or(0, |s| s.agi);
        let v = save_chance(world, agi) * (o.mean + DOWN * o.p_down);
        return if v > turn_value(world, actor) * 0.9 && v >= 1.5 {
            Command::Dodge
        } else {
            Command::NoReaction
        };
    }
    let Some(state) = pending.attack.clone() else {
        return Command::NoReaction;
    };
    if let Some(kind) = state.maneuver {
        return react_to_maneuver(world, actor, attacker, state.stage, kind);
    }
    let Some(w) = view::get::<Loadout>(world, attacker)
        .and_then(|l| l.weapons.get(state.weapon))
        .cloned()
    else {
        return Command::NoReaction;
    };
    let my_turn = turn_value(world, actor);
    match state.stage {
        Stage::Stunt => {
            // Accepting takes me out for sure; refusing, I may still dodge.
            let o = damage_odds(world, attacker, actor, &w, MODE_STRIKE);
            let escape = if can_react(world, actor, attacker) {
                save_chance(world, stats(world, actor).map_or(0, |s| s.agi))
            } else {
                0.0
            };
            if o.p_down * (1.0 - escape) >= ACCEPT_AT {
                Command::Accept
            } else {
                Command::NoReaction
            }
        }
        Stage::Guard => {
            let t = damage_odds(world, attacker, state.target, &w, state.mode);
            let m = damage_odds(world, attacker, actor, &w, state.mode);
            let (t_mean, t_down, m_mean, m_down) = (t.mean, t.p_down, m.mean, m.p_down);
            let saved = (t_mean + DOWN * t_down) - (m_mean + DOWN * m_down);
            if t_down >= 0.3 && saved > my_turn.max(2.0) {
                Command::Guard
            } else {
                Command::NoReaction
            }
        }
        Stage::Target => {
            let o = damage_odds(world, attacker, actor, &w, state.mode);
            let incoming = o.mean + DOWN * o.p_down;
            let agi = stats(world, actor).map_or(0, |s| s.agi);
            let dodge = save_chance(world, agi) * incoming;
            let mut best = (dodge, Command::Dodge);
            if let Some((v, weapon)) = counter_value(world, actor, attacker, &w, state.mode)
                && v > best.0
            {
                best = (v, Command::Counter { weapon });
            }
            // Hide behind the enemy I hold: its friend's blow lands on it.
            if let Some(held) = holding(world, actor) {
                let hide = Command::HideBehind { who: held };
                let o = damage_odds(world, attacker, held, &w, state.mode);
                let v = incoming + o.mean + DOWN * o.p_down;
                if v > best.0 && check::check(world, actor, &hide).is_ok() {
                    best = (v, hide);
                }
            }
            if best.0 > my_turn * 0.9 && best.0 >= 1.5 {
                best.1
            } else {
                Command::NoReaction
            }
        }
    }
}

/// Dodge or strike back at a disarm, shove or grapple, when it is worth the
/// turn.
fn react_to_maneuver(
    world: &World,
    actor: Cid,
    attacker: Cid,
    stage: Stage,
    kind: Maneuver,
) -> Command {
    if stage != Stage::Target {
        return Command::NoReaction;
    }
    let p = p_fails_str(world, attacker, actor);
    let my_turn = turn_value(world, actor);
    let cost = match kind {
        Maneuver::Shove if shove_end(world, attacker, actor).1.is_some() => {
            DOWN + view::get::<Health>(world, actor).map_or(1, |h| h.hp) as f64
        }
        Maneuver::Shove => 0.5,
        Maneuver::Grapple => my_turn.max(2.0) * 1.5,
        Maneuver::Disarm { .. } => 2.0,
    };
    let agi = stats(world, actor).map_or(0, |s| s.agi);
    let mut best = (save_chance(world, agi) * p * cost, Command::Dodge);
    // A blow first; the grab or shove follows only if the attacker stands.
    if let Some((v, weapon, _)) = best_strike_here(world, actor, true).filter(|b| b.2 == attacker) {
        let o = view::get::<Loadout>(world, actor)
            .and_then(|l| l.weapons.get(weapon))
            .map_or(0.0, |w| {
                damage_odds(world, actor, attacker, w, MODE_STRIKE).p_down
            });
        let v = v + o * p * cost;
        if v > best.0 {
            best = (v, Command::Counter { weapon });
        }
    }
    if best.0 > my_turn * 0.9 && best.0 >= 1.0 {
        best.1
    } else {
        Command::NoReaction
    }
}

/// An opportunity strike at a mover with any weapon usable as a reaction.
fn opportunity(world: &World, actor: Cid, mover: Cid) -> Option<(f64, usize, Cid)> {
    let l = view::get::<Loadout>(world, actor)?;
    l.weapons
        .iter()
        .enumerate()
        .filter(|(i, _)| check_strike(world, actor, mover, *i, MODE_STRIKE, true).is_ok())
        .map(|(i, w)| (blow_value(world, actor, mover, w, MODE_STRIKE), i, mover))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// What countering is worth: my blow on the attacker, plus the chance it
/// stops the attack (the blow that hurts more lands first).
fn counter_value(
    world: &World,
    actor: Cid,
    attacker: Cid,
    incoming: &Weapon,
    mode: usize,
) -> Option<(f64, usize)> {
    let l = view::get::<Loadout>(world, actor)?;
    let inc = damage_odds(world, attacker, actor, incoming, mode);
    let (in_mean, in_down) = (inc.mean, inc.p_down);
    let mut best: Option<(f64, usize)> = None;
    for (i, w) in l.weapons.iter().enumerate() {
        if check_strike(world, actor, attacker, i, MODE_STRIKE, true).is_err() {
            continue;
        }
        let mine = damage_odds(world, actor, attacker, w, MODE_STRIKE);
        let (my_mean, my_down) = (mine.mean, mine.p_down);
        // Rough odds that my blow is the bigger one and downs the attacker
        // first, so that theirs never lands.
        let first = if my_mean > in_mean {
            0.6
        } else if my_mean < in_mean {
            0.3
        } else {
            0.45
        };
        let v = my_mean + DOWN * my_down + first * my_down * (in_mean + DOWN * in_down)
            - (1.0 - first * my_down) * DOWN * in_down * 0.25;
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, i));
        }
    }
    best
}
