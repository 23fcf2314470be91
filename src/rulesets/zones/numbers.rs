//! The odds of a blow's damage (§Attacking, §Effects of size in combat,
//! §Mounts and vehicles in combat: impaired riders), shared by the preview
//! and the AI, and the check of a larger attacker's shared dice. Reads only.

use std::borrow::Cow;

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Health, Weapon};
use crate::rules::dice::DiceExpr;
use crate::rules::kept::{self, Kept};
use crate::rules::view;
use crate::rulesets::zones::weapon::ZonesGear;

use super::modes::{MODE_STRIKE, impaired};
use super::query::{
    armor_total, critical_threshold_of, halved, mounted, size_difference, size_rank,
    weapon_ref as weapon,
};

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
pub(super) fn blow_odds(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
    saddle: bool,
) -> DamageOdds {
    let d = blow_dice(world, attacker, target, w, mode, saddle);
    odds_of(
        world,
        attacker,
        target,
        w,
        &d.expr,
        d.times as i32,
        d.size_diff.min(0),
    )
}

/// The dice of one blow, all factors accounted for: the mode's dice (a
/// held-back blow's impaired d4), a rider's impaired d4 (§Mounts and
/// vehicles in combat), rolled once more for each size the attacker is
/// larger and halved for each size it is smaller (§Effects of size in
/// combat). The roll, the preview and the AI all start from it.
pub struct BlowDice<'w> {
    /// Borrowed from the weapon unless it is the saddle's d4.
    pub expr: Cow<'w, DiceExpr>,
    /// How many times the dice are rolled and added up.
    pub times: u32,
    /// Sizes the attacker is larger (positive) or smaller (negative).
    pub size_diff: i32,
}

pub fn blow_dice<'w>(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &'w Weapon,
    mode: usize,
    saddle: bool,
) -> BlowDice<'w> {
    let size_diff = size_difference(world, attacker, target, w);
    BlowDice {
        expr: blow_expr(w, mode, saddle),
        times: if size_diff > 0 { 1 << size_diff } else { 1 },
        size_diff,
    }
}

/// The dice of a blow: the mode's, or the impaired d4 from the saddle.
pub(super) fn blow_expr(w: &Weapon, mode: usize, saddle: bool) -> Cow<'_, DiceExpr> {
    if saddle {
        Cow::Owned(impaired())
    } else {
        Cow::Borrowed(w.mode_damage(mode))
    }
}

/// The odds of `times` times `expr`, halved for each of `-smaller` sizes.
pub(super) fn odds_of(
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
    let arm = armor_total(world, attacker, target, w);
    let mut odds = DamageOdds {
        mean: 0.0,
        p_down: 0.0,
        least: suffered(lo, diff, arm),
        most: suffered(hi, diff, arm),
    };
    let Some(h) = view::get::<Health>(world, target) else {
        return odds;
    };
    let down_at = critical_threshold_of(world, h.hp_max).min(h.hp.max(1));
    let already_down = view::conditions(world, target).has(Condition::Incapacitated);
    (odds.mean, odds.p_down) = spread(Spread {
        lo,
        hi,
        smaller: diff,
        armor: arm,
        down_at,
        already_down,
    });
    odds
}

/// What [`odds_of`] sums over a blow's rolls: the range rolled, the sizes
/// the attacker is smaller, the armour, the damage that takes the target
/// out, and whether it is out already.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Spread {
    lo: i32,
    hi: i32,
    smaller: i32,
    armor: i32,
    down_at: i32,
    already_down: bool,
}

thread_local! {
    /// The sums [`spread`] worked out: the AI weighs the same few weapons
    /// against the same few armours thousands of times a battle.
    static SPREADS: Kept<Spread, (f64, f64), 64> = const { Kept::new() };
}

/// The mean damage suffered and the chance it takes the target out, each
/// result from `lo` to `hi` equally likely, summed in that order:
/// remembered, a function of `s` alone.
fn spread(s: Spread) -> (f64, f64) {
    let bits = kept::mix([
        s.lo,
        s.hi,
        s.smaller,
        s.armor,
        s.down_at,
        i32::from(s.already_down),
    ]);
    SPREADS.with(|k| k.get_or(s, bits, sum_spread))
}

/// [`spread`], worked out.
fn sum_spread(s: &Spread) -> (f64, f64) {
    let n = (s.hi - s.lo + 1).max(1) as f64;
    let (mut mean, mut p_down) = (0.0, 0.0);
    for v in s.lo..=s.hi {
        let d = suffered(v, s.smaller, s.armor);
        mean += f64::from(d) / n;
        if !s.already_down && d >= s.down_at {
            p_down += 1.0 / n;
        }
    }
    (mean, p_down)
}

/// What a roll of `v` takes after size (halved for each of `-smaller`
/// sizes, §Effects of size in combat) and the target's armour value
/// ([`armor_total`]; §Reacting to an attack's example: armour 2 turns 5
/// damage into 3), never below 0.
fn suffered(v: i32, smaller: i32, armor: i32) -> i32 {
    (if smaller < 0 { halved(v, -smaller) } else { v } - armor).max(0)
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
    if w.is_ranged() || w.zones().blast {
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
        super::strike::check_strike(world, who, t, index, MODE_STRIKE, false)?;
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
