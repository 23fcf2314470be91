//! §Attacking, §Reacting to an attack, §Guarding, §Cover and §Effects of
//! size in combat: an attack is declared, a WIT save to hit is made where
//! the text asks for one, the target may react (dodge, counter, hide behind
//! a nearby ally), nearby allies may guard, and damage is rolled, reduced by
//! armour and applied.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Maneuver};
use crate::rules::components::{Cid, Condition, Health, Loadout, Size, TurnState, Weapon};
use crate::rules::dice::{Dice, DiceExpr, DiceRoll, RollOptions};
use crate::rules::event::{BattleEvent, Modifier, ReactionKind};
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;

use super::check::stats;
use super::data::{
    MODE_DEATH_BLOW, MODE_HOLD_BACK, MODE_STRIKE, MODE_STUNT_DISARM, MODE_STUNT_SURRENDER,
    impaired, is_stunt,
};
use super::movement::resume_move;
use super::nonlethal::{self, land_maneuver, tidy_holds};
use super::round::{ZonesRound, end_turn};
use super::settings::{ZeroHealth, ZonesSettings};

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

/// An attack waiting for a reaction.
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveState {
    pub who: Cid,
    /// The rest of the path, starting with the first cell past the border.
    pub rest: Vec<Cell>,
    /// Enemies still to be asked; the first is being asked now.
    pub candidates: Vec<Cid>,
}

/// What the battle is in the middle of.
#[derive(Resource, Clone, Debug, Default)]
pub struct Pending {
    pub attack: Option<AttackState>,
    pub moving: Option<MoveState>,
    pub blast: Option<BlastState>,
}

/// Roll a d20 save under `target` and log it. Fray decides: equal or under
/// passes; with `natural_extremes`, 1 always passes and 20 always fails.
pub fn save(
    world: &mut World,
    who: Cid,
    attribute: &'static str,
    target: i32,
    purpose: &'static str,
    rule: &'static str,
) -> bool {
    let r = world.resource_mut::<Dice>().roll_die(20);
    let extremes = world.resource::<ZonesSettings>().natural_extremes;
    let pass = if extremes && r == 1 {
        true
    } else if extremes && r == 20 {
        false
    } else {
        r as i32 <= target
    };
    emit(
        world,
        BattleEvent::SaveRolled {
            who,
            attribute,
            roll: DiceRoll::one_die(20, r),
            target,
            pass,
            purpose,
            rule,
        },
    );
    pass
}

/// Chance to pass a d20 save under `target`.
pub fn save_chance(world: &World, target: i32) -> f64 {
    let extremes = world.resource::<ZonesSettings>().natural_extremes;
    let passing = if extremes {
        target.clamp(1, 19)
    } else {
        target.clamp(0, 20)
    };
    f64::from(passing) / 20.0
}

pub fn weapon(world: &World, who: Cid, index: usize) -> Option<Weapon> {
    view::get::<Loadout>(world, who).and_then(|l| l.weapons.get(index).cloned())
}

pub fn zone(world: &World, who: Cid) -> Option<usize> {
    let c = view::cell(world, who)?;
    world.resource::<Map>().zone_of(c)
}

/// Can `who` reach `target` with a melee attack? Nearby, or "Massive
/// characters can make melee attacks up to range 1" (one zone away).
pub fn melee_reach(world: &World, who: Cid, target: Cid) -> bool {
    if nearby(world, who, target) {
        return true;
    }
    view::get::<Size>(world, who) == Some(&Size::Massive)
        && zone_distance(world, who, target).is_some_and(|d| d <= 1)
}

/// Same zone: "nearby".
pub fn nearby(world: &World, a: Cid, b: Cid) -> bool {
    zone(world, a).is_some() && zone(world, a) == zone(world, b)
}

/// Zone steps between two characters.
pub fn zone_distance(world: &World, a: Cid, b: Cid) -> Option<u32> {
    let (za, zb) = (zone(world, a)?, zone(world, b)?);
    world.resource::<Map>().zone_distance(za, zb)
}

/// Can `a` see `b`? Not in complete darkness (a level's `visibility:
/// Dark`: "when fighting in complete darkness"), nor through walls.
pub fn visible(world: &World, a: Cid, b: Cid) -> bool {
    if world.resource::<crate::rules::battle::BattleRules>().dark {
        return false;
    }
    match (view::cell(world, a), view::cell(world, b)) {
        (Some(x), Some(y)) => world.resource::<Map>().line_of_sight(x, y),
        _ => false,
    }
}

pub fn size_rank(world: &World, who: Cid) -> i32 {
    match view::get::<Size>(world, who).copied().unwrap_or_default() {
        Size::Tiny => 0,
        Size::Small => 1,
        Size::Medium => 2,
        Size::Large => 3,
        Size::Massive => 4,
    }
}

/// Range of a ranged weapon against `target`: "the maximum range is halved
/// for each size of difference if the target is smaller, or doubled for each
/// size of difference if the target is larger" (not for blasts).
pub fn range_against(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> u32 {
    if w.blast {
        return w.range_zones;
    }
    let diff = size_rank(world, target) - size_rank(world, attacker);
    if diff >= 0 {
        w.range_zones << diff
    } else {
        w.range_zones >> (-diff)
    }
}

/// Why the attack needs a WIT save to hit, if it does (§Attacking:
/// "For melee attacks: when the target isn't visible ... For ranged
/// attacks: when the target is beyond half range, or the attack is made
/// while moving").
pub fn wit_save_reason(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    reaction: bool,
) -> Option<&'static str> {
    if !w.is_ranged() {
        return (!visible(world, attacker, target)).then_some("to hit a target it cannot see");
    }
    let dist = zone_distance(world, attacker, target).unwrap_or(u32::MAX);
    if 2 * dist > range_against(world, attacker, target, w) {
        return Some("to hit beyond half range");
    }
    let moved = !reaction && super::mounts::moved_this_turn(world, attacker);
    moved.then_some("to hit while moving")
}

/// The target's armour against this attack: worn armour and shield, plus
/// cover against a ranged attack that cannot penetrate it, never above 3.
pub fn armour(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> (i32, Vec<Modifier>) {
    let lost = super::gear::armour_lost(world, target);
    let worn = (stats(world, target).map_or(0, |s| s.armour) - lost).max(0);
    let mut parts = Vec::new();
    if worn > 0 {
        parts.push(Modifier::new("armour", -worn, RULE_ATTACK));
    }
    let mut total = worn;
    if w.is_ranged() && in_cover(world, attacker, target) {
        if w.penetration > 0 {
            parts.push(Modifier::new("cover (penetrated)", 0, RULE_COVER));
        } else {
            parts.push(Modifier::new("cover", -1, RULE_COVER));
            total += 1;
        }
    }
    if total > 3 {
        parts.push(Modifier::new("armour never above 3", total - 3, RULE_COVER));
        total = 3;
    }
    (total, parts)
}

/// Fray decides: a target is in cover when it stands in low or high cover,
/// or when a cover cell next to it lies on the line of fire.
pub fn in_cover(world: &World, attacker: Cid, target: Cid) -> bool {
    let (Some(from), Some(at)) = (view::cell(world, attacker), view::cell(world, target)) else {
        return false;
    };
    let map = world.resource::<Map>();
    let cover = |c: Cell| matches!(map.terrain(c), Terrain::LowCover | Terrain::HighCover);
    cover(at)
        || Map::cells_between(from, at)
            .into_iter()
            .any(|c| Map::chebyshev(c, at) == 1 && cover(c))
}

/// Roll the damage of an attack: the weapon's die (a d4 when held back),
/// with the dice doubled for each size the attacker is larger, or the
/// result halved (rounded up) for each size it is smaller.
pub fn roll_damage(
    world: &mut World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
) -> (DiceRoll, i32, Vec<Modifier>) {
    let expr: DiceExpr = if mode == MODE_HOLD_BACK || mounted(world, attacker) {
        impaired()
    } else {
        w.damage.clone()
    };
    let diff = size_difference(world, attacker, target, w);
    let times = if diff > 0 { 1u32 << diff } else { 1 };
    let roll = roll_times(world, &expr, times);
    let mut steps = Vec::new();
    let mut value = roll.total;
    if diff > 0 {
        steps.push(Modifier::new("larger: dice doubled per size", 0, RULE_SIZE));
    } else if diff < 0 {
        let halved = halved(value, -diff);
        steps.push(Modifier::new(
            "smaller: halved per size",
            halved - value,
            RULE_SIZE,
        ));
        value = halved;
    }
    (roll, value, steps)
}

/// "Attacks made by riders and passengers are impaired" (§Mounts and
/// vehicles in combat).
pub fn mounted(world: &World, attacker: Cid) -> bool {
    view::riding(world, attacker).is_some()
}

/// `expr` rolled `times` times and added up ("2 x 1D8").
fn roll_times(world: &mut World, expr: &DiceExpr, times: u32) -> DiceRoll {
    let mut roll = DiceRoll {
        expr: if times > 1 {
            format!("{times} x {expr}")
        } else {
            expr.to_string()
        },
        dice: Vec::new(),
        flat: 0,
        total: 0,
    };
    for _ in 0..times {
        let r = expr.roll(&mut world.resource_mut::<Dice>(), &RollOptions::default());
        roll.dice.extend(r.dice);
        roll.flat += r.flat;
        roll.total += r.total;
    }
    roll
}

/// Sizes the attacker is larger (positive) or smaller (negative) than the
/// target; "Damage from blast attacks isn't modified."
fn size_difference(world: &World, attacker: Cid, target: Cid, w: &Weapon) -> i32 {
    if w.blast {
        0
    } else {
        size_rank(world, attacker) - size_rank(world, target)
    }
}

/// "Smaller characters halve damage for each size of difference", rounded
/// up: "a roll of 3 would only inflict 2 damage".
fn halved(value: i32, sizes: i32) -> i32 {
    (value + (1 << sizes) - 1) >> sizes
}

/// What a blow can do, for the preview and the AI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DamageOdds {
    /// Mean damage suffered after size and armour.
    pub mean: f64,
    /// Chance it takes the target out (critical damage or health to 0).
    pub p_down: f64,
    /// Least and most damage suffered.
    pub least: i32,
    pub most: i32,
}

/// The odds of a blow, each result of the damage dice taken as equally
/// likely between the least and the most (exact for one die).
pub fn damage_odds(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
) -> DamageOdds {
    blow_odds(world, attacker, target, w, mode, mounted(world, attacker))
}

/// As [`damage_odds`], for a rider weighing the blow it would strike on
/// foot, with its weapon's own dice rather than the saddle's impaired d4.
pub fn damage_odds_on_foot(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
) -> DamageOdds {
    blow_odds(world, attacker, target, w, mode, false)
}

/// A blow's odds with the size rules; `saddle`: impaired, from a mount.
fn blow_odds(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
    saddle: bool,
) -> DamageOdds {
    let diff = size_difference(world, attacker, target, w);
    let times = if diff > 0 { 1 << diff } else { 1 };
    let expr = blow_expr(w, mode, saddle);
    odds_of(world, attacker, target, w, &expr, times, diff.min(0))
}

/// The dice of a blow: the mode's, or the impaired d4 from the saddle.
fn blow_expr(w: &Weapon, mode: usize, saddle: bool) -> DiceExpr {
    if saddle {
        impaired()
    } else {
        w.mode_damage(mode).clone()
    }
}

/// The odds of `times` times `expr`, halved for each of `-smaller` sizes.
fn odds_of(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    expr: &DiceExpr,
    times: i32,
    smaller: i32,
) -> DamageOdds {
    let diff = smaller;
    let (lo, hi) = (expr.min(None) * times, expr.max(None) * times);
    let (arm, _) = armour(world, attacker, target, w);
    let suffered = |v: i32| (if diff < 0 { halved(v, -diff) } else { v } - arm).max(0);
    let mut odds = DamageOdds {
        mean: 0.0,
        p_down: 0.0,
        least: suffered(lo),
        most: suffered(hi),
    };
    let Some(h) = view::get::<Health>(world, target) else {
        return odds;
    };
    let down_at = critical_threshold(world, target).min(h.hp.max(1));
    let already_down = view::conditions(world, target).has(Condition::Incapacitated);
    let n = (hi - lo + 1).max(1) as f64;
    for v in lo..=hi {
        let s = suffered(v);
        odds.mean += f64::from(s) / n;
        if !already_down && s >= down_at {
            odds.p_down += 1.0 / n;
        }
    }
    odds
}

/// The odds of one share of a split attack: `dice` times the weapon's dice.
pub fn split_odds(world: &World, attacker: Cid, target: Cid, w: &Weapon, dice: u32) -> DamageOdds {
    let expr = blow_expr(w, MODE_STRIKE, mounted(world, attacker));
    odds_of(world, attacker, target, w, &expr, dice as i32, 0)
}

/// "Larger characters ... can distribute dice from melee attacks among
/// several smaller targets as they see fit": each share is a number of the
/// weapon's dice, and the shares, each counted against what the whole
/// attack would roll on that target, make up exactly one attack (the text:
/// a wyrm's 2d8 bite on a medium target, 4d8 on a small one, can be d8 on a
/// medium and 2d8 on a small).
pub fn check_split(
    world: &World,
    who: Cid,
    index: usize,
    shares: &[(Cid, u32)],
) -> Result<(), crate::rules::command::Illegal> {
    use crate::rules::command::illegal;
    let Some(w) = weapon(world, who, index) else {
        return illegal("no such weapon");
    };
    if w.is_ranged() || w.blast {
        return illegal("only a melee attack's dice can be shared out");
    }
    if shares.len() < 2 {
        return illegal("share the dice among two targets or more");
    }
    let mut seen = Vec::new();
    let mut top = 0;
    for &(t, dice) in shares {
        if seen.contains(&t) {
            return illegal("each target once");
        }
        seen.push(t);
        super::check::check_strike(world, who, t, index, MODE_STRIKE, false)?;
        let diff = size_rank(world, who) - size_rank(world, t);
        if diff < 1 {
            return illegal("dice are shared only among smaller targets");
        }
        if dice == 0 {
            return illegal("each target gets a die at least");
        }
        top = top.max(diff);
    }
    let whole = 1i64 << top;
    let sum: i64 = shares
        .iter()
        .map(|&(t, dice)| {
            i64::from(dice) * (whole >> (size_rank(world, who) - size_rank(world, t)))
        })
        .sum();
    if sum != whole {
        return illegal("the shares must make up exactly the whole attack");
    }
    Ok(())
}

/// A split attack: one attack on several smaller targets; like a blast, it
/// asks each target for its reaction, and only one may counter.
pub fn execute_split(world: &mut World, attacker: Cid, index: usize, shares: &[(Cid, u32)]) {
    let Some(w) = weapon(world, attacker, index) else {
        return;
    };
    for &(t, _) in shares {
        emit(
            world,
            BattleEvent::AttackMade {
                attacker,
                target: t,
                weapon: w.name.clone(),
                weapon_index: index,
                mode: "shared dice".into(),
                reaction: false,
                rule: RULE_SIZE,
            },
        );
    }
    world.resource_mut::<ZonesRound>().turn.main = true;
    reveal(world, attacker);
    // One WIT save if any target is unseen; a miss misses them all.
    if let Some(&(t, _)) = shares
        .iter()
        .find(|(t, _)| wit_save_reason(world, attacker, *t, &w, false).is_some())
        && !wit_to_hit(world, attacker, t, &w, false, RULE_SIZE)
    {
        return;
    }
    let targets: Vec<Cid> = shares.iter().map(|s| s.0).collect();
    let asking = targets
        .iter()
        .copied()
        .filter(|t| can_react(world, *t, attacker))
        .collect();
    world.resource_mut::<Pending>().blast = Some(BlastState {
        attacker,
        weapon: index,
        mode: MODE_STRIKE,
        targets,
        asking,
        dodged: Vec::new(),
        counter: None,
        shares: shares.to_vec(),
    });
    ask_blast(world);
}

/// Damage `target` takes from a rolled attack, after armour.
pub struct Blow {
    pub target: Cid,
    pub roll: DiceRoll,
    pub rolled: i32,
    pub steps: Vec<Modifier>,
    pub suffered: i32,
    /// The damage before armour, for worn armour breaking; `None` for
    /// direct damage (no attack).
    pub before_armour: Option<i32>,
}

/// Roll a blow by `attacker` on `target`.
pub fn blow(world: &mut World, attacker: Cid, target: Cid, w: &Weapon, mode: usize) -> Blow {
    let (roll, value, mut steps) = roll_damage(world, attacker, target, w, mode);
    emit(
        world,
        BattleEvent::DamageRolled {
            target,
            roll: roll.clone(),
            rule: RULE_ATTACK,
        },
    );
    super::gear::break_worn_weapon(world, attacker, w, &roll);
    let (armour, parts) = armour(world, attacker, target, w);
    steps.extend(parts);
    Blow {
        target,
        rolled: roll.total,
        roll,
        steps,
        suffered: (value - armour).max(0),
        before_armour: Some(value),
    }
}

/// The health at or under which one hit is critical: at least
/// `critical_percent` of the maximum, rounded up.
pub fn critical_threshold(world: &World, who: Cid) -> i32 {
    let max = view::get::<Health>(world, who).map_or(1, |h| h.hp_max);
    let pct = world.resource::<ZonesSettings>().critical_percent as i32;
    ((max * pct + 99) / 100).max(1)
}

/// Apply a blow: health falls; critical damage incapacitates; health 0 or
/// less kills (or incapacitates, by setting).
pub fn land(world: &mut World, b: &Blow) {
    let Some(h) = view::get::<Health>(world, b.target).copied() else {
        return;
    };
    let after = h.hp - b.suffered;
    emit(
        world,
        BattleEvent::Damaged {
            target: b.target,
            rolled: b.rolled,
            steps: b.steps.clone(),
            ep_loss: 0,
            hp_loss: b.suffered,
            hp_after: after,
            ep_after: 0,
            rule: RULE_ATTACK,
        },
    );
    if b.suffered > 0 {
        super::morale::harmed(world, b.target);
    }
    let conds = view::conditions(world, b.target);
    let zero = world.resource::<ZonesSettings>().zero_health;
    if after <= 0 && zero == ZeroHealth::Dead {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who: b.target,
                condition: Condition::Dead,
                rule: RULE_HEALTH,
            },
        );
    } else if !conds.has(Condition::Incapacitated)
        && (after <= 0 || b.suffered >= critical_threshold(world, b.target))
    {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who: b.target,
                condition: Condition::Incapacitated,
                rule: RULE_HEALTH,
            },
        );
    }
    if let Some(before) = b.before_armour {
        super::gear::break_worn_armour(world, b.target, before);
    }
    tidy_holds(world);
}

/// Can `who` react to an attack by `attacker` now? "Targets who are unaware
/// of their attacker can't react"; a reaction takes the whole turn, so only
/// those who have not yet taken their turn this round may; a grabbed
/// character "can't act" ("The bandit can't react since he is grabbed").
pub fn can_react(world: &World, who: Cid, attacker: Cid) -> bool {
    // Vehicles never react; riders carried at full speed cannot.
    !super::mounts::is_vehicle(world, who)
        && !super::mounts::carried_fast(world, who)
        && view::standing(world, who)
        && view::get::<TurnState>(world, who).is_some_and(|t| !t.done)
        && !view::conditions(world, attacker).has(Condition::Concealed)
        && !view::conditions(world, who).has(Condition::Grabbed)
}

/// "Enemies attacked by a concealed character are taken by surprise and
/// can't react"; "Actions which might reveal a character include:
/// attacking".
pub fn reveal(world: &mut World, who: Cid) {
    if view::conditions(world, who).has(Condition::Concealed) {
        emit(
            world,
            BattleEvent::ConditionRemoved {
                who,
                condition: Condition::Concealed,
                rule: RULE_SNEAK,
            },
        );
    }
}

/// "Concealed characters are revealed when they make noise or become
/// visible to the enemy ... walking right in front of the enemy". Fray
/// decides: a concealed character sharing a zone with a standing enemy who
/// can see it is revealed.
pub fn reveal_seen(world: &mut World) {
    for c in view::standing_all(world) {
        if !view::conditions(world, c).has(Condition::Concealed) {
            continue;
        }
        let seen = view::enemies(world, c)
            .into_iter()
            .any(|e| nearby(world, e, c) && visible(world, e, c));
        if seen {
            reveal(world, c);
        }
    }
}

/// An attack on the actor's turn (§Attacking). The state machine goes on in
/// [`resolve_reaction`] when a reaction prompt is answered.
pub fn execute_attack(world: &mut World, attacker: Cid, target: Cid, weapon: usize, mode: usize) {
    if self::weapon(world, attacker, weapon).is_some_and(|w| w.blast) {
        declare_blast(world, attacker, target, weapon, mode);
    } else {
        declare_attack(world, attacker, target, weapon, mode);
    }
    reveal(world, attacker);
}

/// A non-lethal attack on the actor's turn (§Non-lethal attacks): no save
/// to hit (the target is nearby), then the target may react as to any
/// attack.
pub fn execute_maneuver(world: &mut World, attacker: Cid, target: Cid, kind: Maneuver) {
    emit(
        world,
        BattleEvent::ManeuverMade {
            attacker,
            target,
            kind: kind.name(),
            reaction: false,
            rule: nonlethal::RULE_NONLETHAL,
        },
    );
    world.resource_mut::<ZonesRound>().turn.main = true;
    let state = AttackState {
        attacker,
        target,
        weapon: 0,
        mode: MODE_STRIKE,
        stage: Stage::Target,
        hidden: false,
        guards: Vec::new(),
        maneuver: Some(kind),
        surprise: view::conditions(world, attacker).has(Condition::Concealed),
    };
    ask_target(world, state);
    reveal(world, attacker);
}

/// The attack is made: the turn's main action.
fn made(
    world: &mut World,
    attacker: Cid,
    target: Cid,
    index: usize,
    w: &Weapon,
    mode: usize,
    rule: &'static str,
) {
    emit(
        world,
        BattleEvent::AttackMade {
            attacker,
            target,
            weapon: w.name.clone(),
            weapon_index: index,
            mode: w.mode_name(mode).to_string(),
            reaction: false,
            rule,
        },
    );
    world.resource_mut::<ZonesRound>().turn.main = true;
}

/// The WIT save to hit, where the text asks for one; a failure is a miss.
/// True when the attack goes on.
fn wit_to_hit(
    world: &mut World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    reaction: bool,
    rule: &'static str,
) -> bool {
    let Some(why) = wit_save_reason(world, attacker, target, w, reaction) else {
        return true;
    };
    let wit = stats(world, attacker).map_or(0, |s| s.wit);
    if save(world, attacker, "WIT", wit, why, rule) {
        return true;
    }
    emit(
        world,
        BattleEvent::AttackMissed {
            attacker,
            target,
            rule,
        },
    );
    false
}

fn declare_attack(world: &mut World, attacker: Cid, target: Cid, weapon: usize, mode: usize) {
    let Some(w) = self::weapon(world, attacker, weapon) else {
        return;
    };
    made(world, attacker, target, weapon, &w, mode, RULE_ATTACK);
    if mode == MODE_DEATH_BLOW {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who: target,
                condition: Condition::Dead,
                rule: "zones §Attacking: death blow",
            },
        );
        tidy_holds(world);
        return;
    }
    if !wit_to_hit(world, attacker, target, &w, false, RULE_ATTACK) {
        return;
    }
    let state = AttackState {
        attacker,
        target,
        weapon,
        mode,
        stage: Stage::Target,
        hidden: false,
        guards: Vec::new(),
        maneuver: None,
        surprise: view::conditions(world, attacker).has(Condition::Concealed),
    };
    if is_stunt(mode) {
        // "The attacker can propose an alternative effect to the target
        // instead of inflicting damage ... before the target decides
        // whether to react."
        emit(
            world,
            BattleEvent::StuntProposed {
                attacker,
                target,
                effect: stunt_effect(mode),
                rule: RULE_STUNT,
            },
        );
        world.resource_mut::<Battle>().prompt = Prompt::React {
            actor: target,
            attacker,
        };
        world.resource_mut::<Pending>().attack = Some(AttackState {
            stage: Stage::Stunt,
            ..state
        });
        return;
    }
    ask_target(world, state);
}

/// What a stunt mode offers.
pub fn stunt_effect(mode: usize) -> &'static str {
    match mode {
        MODE_STUNT_SURRENDER => "surrender instead of taking the blow",
        _ => "drop the weapon in hand and stay down for the rest of the fight",
    }
}

/// The target accepts the stunt: no damage, no reaction; the effect.
fn accept_stunt(world: &mut World, state: &AttackState) {
    let who = state.target;
    let effect = stunt_effect(state.mode);
    emit(
        world,
        BattleEvent::StuntAccepted {
            who,
            effect,
            rule: RULE_STUNT,
        },
    );
    if state.mode == MODE_STUNT_DISARM {
        if let Some(l) = view::get::<Loadout>(world, who)
            && let Some(i) = l.ready
            && let Some(w) = l.weapons.get(i).filter(|w| w.hands > 0)
        {
            let weapon = w.name.clone();
            emit(
                world,
                BattleEvent::Disarmed {
                    who,
                    index: i,
                    weapon,
                    taken_by: None,
                    rule: RULE_STUNT,
                },
            );
        }
        emit(
            world,
            BattleEvent::ConditionAdded {
                who,
                condition: Condition::Incapacitated,
                rule: RULE_STUNT,
            },
        );
    } else {
        emit(
            world,
            BattleEvent::ConditionAdded {
                who,
                condition: Condition::Surrendered,
                rule: RULE_STUNT,
            },
        );
    }
    tidy_holds(world);
}

/// Ask the target to react, or go on to the guards.
fn ask_target(world: &mut World, mut state: AttackState) {
    if !state.surprise
        && can_react(world, state.target, state.attacker)
        && !view::conditions(world, state.target).has(Condition::Surrendered)
    {
        state.stage = Stage::Target;
        world.resource_mut::<Battle>().prompt = Prompt::React {
            actor: state.target,
            attacker: state.attacker,
        };
        world.resource_mut::<Pending>().attack = Some(state);
        return;
    }
    state.guards = guards(world, &state);
    ask_guard(world, state);
}

/// Nearby allies of the target who may guard it: "A character who is
/// nearby the target of an attack can react by guarding them."
pub fn guards(world: &World, state: &AttackState) -> Vec<Cid> {
    if state.hidden {
        return Vec::new();
    }
    if state.surprise {
        return Vec::new();
    }
    view::allies(world, state.target)
        .into_iter()
        .filter(|a| *a != state.attacker && nearby(world, *a, state.target))
        .filter(|a| can_react(world, *a, state.attacker))
        .collect()
}

fn ask_guard(world: &mut World, mut state: AttackState) {
    match state.guards.first() {
        Some(&g) => {
            state.stage = Stage::Guard;
            world.resource_mut::<Battle>().prompt = Prompt::React {
                actor: g,
                attacker: state.attacker,
            };
            world.resource_mut::<Pending>().attack = Some(state);
        }
        None => {
            hit(world, &state);
            finish(world);
        }
    }
}

/// The attack lands on its (current) target.
fn hit(world: &mut World, state: &AttackState) {
    if let Some(kind) = state.maneuver {
        land_maneuver(world, state.attacker, state.target, kind);
        return;
    }
    let Some(w) = weapon(world, state.attacker, state.weapon) else {
        return;
    };
    let b = blow(
        world,
        state.attacker,
        state.target,
        &w,
        damage_mode(state.mode),
    );
    land(world, &b);
}

/// A declined stunt is resolved "as normal".
fn damage_mode(mode: usize) -> usize {
    if is_stunt(mode) { MODE_STRIKE } else { mode }
}

/// The attack is over: back to the turn it interrupted.
fn finish(world: &mut World) {
    if world.resource::<Pending>().moving.is_some() {
        next_opportunist(world);
        return;
    }
    let who = world.resource::<ZonesRound>().turn.who;
    match who {
        Some(who) => {
            world.resource_mut::<Battle>().prompt = Prompt::Act { actor: who };
            if !view::standing(world, who) {
                end_turn(world, who);
            }
        }
        None => world.resource_mut::<Battle>().prompt = Prompt::None,
    }
}

/// Answer to a `React` prompt (checked legal).
pub fn resolve_reaction(world: &mut World, who: Cid, command: &Command) {
    if world.resource::<Pending>().blast.is_some() {
        blast_answer(world, who, command);
        return;
    }
    let Some(mut state) = world.resource_mut::<Pending>().attack.take() else {
        opportunity_answer(world, who, command);
        return;
    };
    match (state.stage, command) {
        (Stage::Stunt, Command::Accept) => {
            accept_stunt(world, &state);
            finish(world);
        }
        (Stage::Stunt, Command::NoReaction) => {
            emit(world, BattleEvent::ReactionDeclined { who });
            state.mode = damage_mode(state.mode);
            ask_target(world, state);
        }
        (Stage::Target, Command::NoReaction) => {
            emit(world, BattleEvent::ReactionDeclined { who });
            state.guards = guards(world, &state);
            ask_guard(world, state);
        }
        (Stage::Guard, Command::NoReaction) => {
            emit(world, BattleEvent::ReactionDeclined { who });
            state.guards.retain(|g| *g != who);
            ask_guard(world, state);
        }
        (Stage::Target, Command::Dodge) => {
            taken(world, who, ReactionKind::Dodge, state.attacker, RULE_DODGE);
            if dodge(world, who, state.attacker) {
                hit(world, &state);
            }
            finish(world);
        }
        (Stage::Target, Command::Counter { .. } | Command::CounterManeuver { .. }) => {
            taken(
                world,
                who,
                ReactionKind::Counter,
                state.attacker,
                RULE_COUNTER,
            );
            let strike = match command {
                Command::CounterManeuver { kind } => Strike::Maneuver(*kind),
                Command::Counter { weapon } => Strike::Blow(*weapon),
                _ => unreachable!("matched above"),
            };
            counter(world, &state, strike);
            finish(world);
        }
        (Stage::Target, Command::HideBehind { who: other }) => {
            taken(
                world,
                who,
                ReactionKind::HideBehind,
                state.attacker,
                RULE_HIDE,
            );
            emit(
                world,
                BattleEvent::TargetChanged {
                    attacker: state.attacker,
                    from: who,
                    to: *other,
                    swapped: true,
                    rule: RULE_HIDE,
                },
            );
            tidy_holds(world);
            state.target = *other;
            state.hidden = true;
            ask_target(world, state);
        }
        (Stage::Guard, Command::Guard) => {
            taken(world, who, ReactionKind::Guard, state.attacker, RULE_GUARD);
            emit(
                world,
                BattleEvent::TargetChanged {
                    attacker: state.attacker,
                    from: state.target,
                    to: who,
                    swapped: false,
                    rule: RULE_GUARD,
                },
            );
            state.target = who;
            hit(world, &state);
            finish(world);
        }
        _ => {
            // Not an answer to this stage (the check refuses these).
            world.resource_mut::<Pending>().attack = Some(state);
        }
    }
}

/// "Dodge. Make an AGI save: on a pass the attack misses." True when the
/// attack still lands.
fn dodge(world: &mut World, who: Cid, attacker: Cid) -> bool {
    let agi = stats(world, who).map_or(0, |s| s.agi);
    if save(world, who, "AGI", agi, "to dodge", RULE_DODGE) {
        emit(
            world,
            BattleEvent::AttackMissed {
                attacker,
                target: who,
                rule: RULE_DODGE,
            },
        );
        false
    } else {
        true
    }
}

fn taken(world: &mut World, who: Cid, kind: ReactionKind, against: Cid, rule: &'static str) {
    emit(
        world,
        BattleEvent::ReactionTaken {
            who,
            kind,
            against,
            rule,
        },
    );
}

/// What a counter strikes back with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strike {
    Blow(usize),
    Maneuver(Maneuver),
}

/// "Both characters roll for damage at the same time. Whoever suffers the
/// most damage, after reductions, is hit first. In case of a tie both
/// characters are hit at the same time." A blow that incapacitates or kills
/// stops the other. With non-lethal attacks (§Non-lethal attacks): "If a
/// normal attack is countered by a non-lethal attack, or viceversa, the
/// non-lethal attack is resolved last. If a non-lethal attack is countered
/// by a non-lethal attack, the counter is resolved last."
fn counter(world: &mut World, state: &AttackState, answer: Strike) {
    let (a, t) = (state.attacker, state.target);
    let wt = match answer {
        Strike::Blow(i) => {
            let Some(wt) = weapon(world, t, i) else {
                return;
            };
            emit(
                world,
                BattleEvent::AttackMade {
                    attacker: t,
                    target: a,
                    weapon: wt.name.clone(),
                    weapon_index: i,
                    mode: "counter".into(),
                    reaction: true,
                    rule: RULE_COUNTER,
                },
            );
            if !wit_to_hit(world, t, a, &wt, true, RULE_COUNTER) {
                hit(world, state);
                return;
            }
            Some(wt)
        }
        Strike::Maneuver(kind) => {
            emit(
                world,
                BattleEvent::ManeuverMade {
                    attacker: t,
                    target: a,
                    kind: kind.name(),
                    reaction: true,
                    rule: RULE_COUNTER,
                },
            );
            None
        }
    };
    match (state.maneuver, answer, wt) {
        (None, Strike::Blow(_), Some(wt)) => {
            let Some(wa) = weapon(world, a, state.weapon) else {
                return;
            };
            let on_target = blow(world, a, t, &wa, damage_mode(state.mode));
            let on_attacker = blow(world, t, a, &wt, MODE_STRIKE);
            let order: [&Blow; 2] = if on_attacker.suffered > on_target.suffered {
                [&on_attacker, &on_target]
            } else {
                [&on_target, &on_attacker]
            };
            let tie = on_attacker.suffered == on_target.suffered;
            land(world, order[0]);
            // The one hit first strikes back only if still standing (or at
            // once, on a tie).
            let striker = if order[0].target == a { a } else { t };
            if tie || view::standing(world, striker) {
                land(world, order[1]);
            }
        }
        // A blow against a non-lethal attack: the blow first.
        (Some(kind), Strike::Blow(_), Some(wt)) => {
            let b = blow(world, t, a, &wt, MODE_STRIKE);
            land(world, &b);
            land_maneuver(world, a, t, kind);
        }
        (None, Strike::Maneuver(kind), _) => {
            hit(world, state);
            land_maneuver(world, t, a, kind);
        }
        // Both non-lethal: "the counter is resolved last".
        (Some(first), Strike::Maneuver(kind), _) => {
            land_maneuver(world, a, t, first);
            land_maneuver(world, t, a, kind);
        }
        _ => {}
    }
}

/// A blast attack (§Blast attacks): "Melee blast attacks hit the
/// attacker's zone and don't target the attacker themselves. They can't
/// miss. Ranged blast attacks hit any zone within range and target the
/// attacker as well if directed at their own zone. If they miss, they are
/// deviated and hit a random neighbouring zone." Fray aims a ranged blast
/// at the zone the target stands in.
fn declare_blast(world: &mut World, attacker: Cid, target: Cid, weapon: usize, mode: usize) {
    let Some(w) = self::weapon(world, attacker, weapon) else {
        return;
    };
    made(world, attacker, target, weapon, &w, mode, RULE_BLAST);
    let aimed = if w.is_ranged() {
        zone(world, target)
    } else {
        zone(world, attacker)
    };
    let Some(mut hit_zone) = aimed else {
        return;
    };
    let mut deviated = None;
    if w.is_ranged()
        && let Some(why) = wit_save_reason(world, attacker, target, &w, false)
    {
        let wit = stats(world, attacker).map_or(0, |s| s.wit);
        if !save(world, attacker, "WIT", wit, why, RULE_BLAST) {
            // "Assign a number to each neighbouring zone and roll a die to
            // determine which one is hit."
            let around: Vec<u16> = world.resource::<Map>().zone_neighbours(hit_zone).to_vec();
            if around.is_empty() {
                emit(
                    world,
                    BattleEvent::AttackMissed {
                        attacker,
                        target,
                        rule: RULE_BLAST,
                    },
                );
                return;
            }
            let r = world.resource_mut::<Dice>().roll_die(around.len() as u32);
            hit_zone = usize::from(around[(r as usize - 1).min(around.len() - 1)]);
            deviated = Some(DiceRoll::one_die(around.len() as u32, r));
        }
    }
    let targets = blast_targets(world, attacker, hit_zone, w.is_ranged());
    let zone_name = world.resource::<Map>().zones()[hit_zone].name.clone();
    emit(
        world,
        BattleEvent::BlastHits {
            attacker,
            zone: zone_name,
            deviated,
            targets: targets.clone(),
            rule: RULE_BLAST,
        },
    );
    let asking = targets
        .iter()
        .copied()
        .filter(|t| *t != attacker && can_react(world, *t, attacker))
        .collect();
    world.resource_mut::<Pending>().blast = Some(BlastState {
        attacker,
        weapon,
        mode,
        targets,
        asking,
        dodged: Vec::new(),
        counter: None,
        shares: Vec::new(),
    });
    ask_blast(world);
}

/// "Blast attacks hit a zone and target all characters in it and on its
/// borders." Fray decides: on its borders means standing in a cell of
/// another zone that touches one of its cells. A melee blast spares the
/// attacker.
pub fn blast_targets(world: &World, attacker: Cid, z: usize, ranged: bool) -> Vec<Cid> {
    let map = world.resource::<Map>();
    let cells = &map.zones()[z].cells;
    view::all(world)
        .into_iter()
        .filter(|c| {
            let conds = view::conditions(world, *c);
            !conds.has(Condition::Dead) && !conds.has(Condition::Fled)
        })
        .filter(|c| ranged || *c != attacker)
        .filter(|c| {
            view::cell(world, *c).is_some_and(|at| {
                map.zone_of(at) == Some(z) || cells.iter().any(|k| Map::chebyshev(*k, at) == 1)
            })
        })
        .collect()
}

/// Ask the next target of a blast for its reaction, or roll the damage.
fn ask_blast(world: &mut World) {
    let Some(b) = world.resource::<Pending>().blast.clone() else {
        return;
    };
    match b.asking.first() {
        Some(&t) => {
            world.resource_mut::<Battle>().prompt = Prompt::React {
                actor: t,
                attacker: b.attacker,
            };
        }
        None => {
            world.resource_mut::<Pending>().blast = None;
            blast_damage(world, &b);
            finish(world);
        }
    }
}

fn blast_answer(world: &mut World, who: Cid, command: &Command) {
    let Some(mut b) = world.resource_mut::<Pending>().blast.take() else {
        return;
    };
    b.asking.retain(|t| *t != who);
    match command {
        Command::Dodge => {
            taken(world, who, ReactionKind::Dodge, b.attacker, RULE_DODGE);
            if !dodge(world, who, b.attacker) {
                // Still in the blast.
            } else {
                b.dodged.push(who);
            }
        }
        Command::Counter { weapon } if b.counter.is_none() => {
            taken(world, who, ReactionKind::Counter, b.attacker, RULE_COUNTER);
            b.counter = Some((who, *weapon));
        }
        _ => emit(world, BattleEvent::ReactionDeclined { who }),
    }
    world.resource_mut::<Pending>().blast = Some(b);
    ask_blast(world);
}

/// One damage roll for the whole blast ("it always inflicts d6 damage"),
/// each target's armour taken off. A counter is weighed against the blast's
/// damage on the one who counters.
fn blast_damage(world: &mut World, b: &BlastState) {
    let Some(w) = weapon(world, b.attacker, b.weapon) else {
        return;
    };
    let hit: Vec<Cid> = b
        .targets
        .iter()
        .copied()
        .filter(|t| !b.dodged.contains(t))
        .collect();
    let Some(&first) = hit.first() else {
        return;
    };
    let blows: Vec<Blow> = if b.shares.is_empty() {
        blast_blows(world, b, &w, first, &hit)
    } else {
        hit.iter()
            .map(|&t| {
                let dice = b.shares.iter().find(|s| s.0 == t).map_or(1, |s| s.1);
                share_blow(world, b.attacker, t, &w, dice)
            })
            .collect()
    };
    resolve_multi(world, b, blows);
}

/// One share of a split attack: `dice` times the weapon's dice, no size
/// step (the share already counts the sizes), armour off.
fn share_blow(world: &mut World, attacker: Cid, target: Cid, w: &Weapon, dice: u32) -> Blow {
    let roll = roll_times(world, &w.damage, dice);
    emit(
        world,
        BattleEvent::DamageRolled {
            target,
            roll: roll.clone(),
            rule: RULE_SIZE,
        },
    );
    super::gear::break_worn_weapon(world, attacker, w, &roll);
    let (arm, steps) = armour(world, attacker, target, w);
    Blow {
        target,
        rolled: roll.total,
        suffered: (roll.total - arm).max(0),
        before_armour: Some(roll.total),
        roll,
        steps,
    }
}

/// A blast: one damage roll for everyone it hits.
fn blast_blows(
    world: &mut World,
    b: &BlastState,
    w: &Weapon,
    first: Cid,
    hit: &[Cid],
) -> Vec<Blow> {
    let (roll, value, steps) = roll_damage(world, b.attacker, first, w, damage_mode(b.mode));
    emit(
        world,
        BattleEvent::DamageRolled {
            target: first,
            roll: roll.clone(),
            rule: RULE_BLAST,
        },
    );
    super::gear::break_worn_weapon(world, b.attacker, w, &roll);
    hit.iter()
        .map(|&t| {
            let (arm, parts) = armour(world, b.attacker, t, w);
            let mut st = steps.clone();
            st.extend(parts);
            Blow {
                target: t,
                roll: roll.clone(),
                rolled: roll.total,
                steps: st,
                suffered: (value - arm).max(0),
                before_armour: Some(value),
            }
        })
        .collect()
}

/// Land a blast's or a split attack's blows, weighing the one counter.
fn resolve_multi(world: &mut World, b: &BlastState, blows: Vec<Blow>) {
    let mut counter_blow = None;
    if let Some((c, i)) = b.counter
        && let Some(wc) = weapon(world, c, i)
    {
        emit(
            world,
            BattleEvent::AttackMade {
                attacker: c,
                target: b.attacker,
                weapon: wc.name.clone(),
                weapon_index: i,
                mode: "counter".into(),
                reaction: true,
                rule: RULE_COUNTER,
            },
        );
        if wit_to_hit(world, c, b.attacker, &wc, true, RULE_COUNTER) {
            counter_blow = Some((c, blow(world, c, b.attacker, &wc, MODE_STRIKE)));
        }
    }
    if let Some((c, cb)) = &counter_blow {
        let on_counterer = blows
            .iter()
            .find(|x| x.target == *c)
            .map_or(0, |x| x.suffered);
        if cb.suffered > on_counterer {
            // The attacker is hit first; taken out, its blast is stopped.
            land(world, cb);
            if !view::standing(world, b.attacker) {
                return;
            }
            for x in &blows {
                land(world, x);
            }
            return;
        }
        let tie = cb.suffered == on_counterer;
        for x in &blows {
            land(world, x);
        }
        if tie || view::standing(world, *c) {
            land(world, cb);
        }
        return;
    }
    for x in &blows {
        land(world, x);
    }
}

/// The next enemy at the border is asked, or the move resumes.
fn next_opportunist(world: &mut World) {
    let mover = world.resource::<Pending>().moving.as_ref().map(|m| m.who);
    let Some(mover) = mover else { return };
    let next = {
        let mut p = world.resource_mut::<Pending>();
        let m = p.moving.as_mut().expect("checked above");
        if !m.candidates.is_empty() {
            m.candidates.remove(0);
        }
        m.candidates.clone()
    };
    let still: Vec<Cid> = next
        .into_iter()
        .filter(|c| can_react(world, *c, mover) && nearby(world, *c, mover))
        .collect();
    if view::standing(world, mover)
        && let Some(&first) = still.first()
    {
        if let Some(m) = world.resource_mut::<Pending>().moving.as_mut() {
            m.candidates = still.clone();
        }
        world.resource_mut::<Battle>().prompt = Prompt::React {
            actor: first,
            attacker: mover,
        };
        return;
    }
    resume_move(world);
}

/// An enemy at the border answers: strike at the mover, or let it go.
fn opportunity_answer(world: &mut World, who: Cid, command: &Command) {
    let Some(mover) = world.resource::<Pending>().moving.as_ref().map(|m| m.who) else {
        return;
    };
    match command {
        Command::Opportunity { weapon } => {
            taken(
                world,
                who,
                ReactionKind::Opportunity,
                mover,
                super::movement::RULE_OPPORTUNITY,
            );
            if let Some(w) = self::weapon(world, who, *weapon) {
                emit(
                    world,
                    BattleEvent::AttackMade {
                        attacker: who,
                        target: mover,
                        weapon: w.name.clone(),
                        weapon_index: *weapon,
                        mode: "opportunity".into(),
                        reaction: true,
                        rule: super::movement::RULE_OPPORTUNITY,
                    },
                );
                if wit_to_hit(world, who, mover, &w, true, RULE_ATTACK) {
                    // The mover is in the middle of its own turn: it cannot
                    // react.
                    let b = blow(world, who, mover, &w, 0);
                    land(world, &b);
                }
            }
        }
        _ => emit(world, BattleEvent::ReactionDeclined { who }),
    }
    next_opportunist(world);
}
