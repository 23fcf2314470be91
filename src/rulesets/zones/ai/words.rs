//! Words, items and powers as a main action (§Taking a turn): intimidating
//! a shaken enemy, a medicine box or a mending power on a fallen or badly
//! hurt friend, a harming or terrifying power on an enemy, when worth more
//! than what the turn could otherwise do. Distracting and
//! taunting it leaves to the hard AI, which weighs them by playing them on:
//! what they are worth hangs on who acts after.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Health};
use crate::rules::dice::DiceExpr;
use crate::rules::view;
use crate::rulesets::zones::command::{Influence, ZonesCommand};
use crate::rulesets::zones::influence::{
    check_influence, check_invoke, check_item, p_swayed, side_down_to_half,
    subject_to_intimidation_with,
};
use crate::rulesets::zones::query::{critical_threshold, stats};
use crate::rulesets::zones::stats::PowerEffect;

use super::value::DOWN;

/// A broken enemy surrenders or runs: nearly as good as one taken out.
const BROKEN: f64 = 0.8 * DOWN;
/// A fallen friend back on its feet (with its health low).
const BACK_UP: f64 = 0.8 * DOWN;
/// A point of health given back to a friend at half health or less.
const HEALED: f64 = 0.7;

/// The best word, item or power `who` could use now, if any: value, command.
pub(super) fn best_word_or_item(world: &World, who: Cid) -> Option<(f64, Command)> {
    let mut best: Option<(f64, Command)> = None;
    let mut consider = |v: f64, c: ZonesCommand| {
        if v > 0.0 && best.as_ref().is_none_or(|b| v > b.0) {
            best = Some((v, Command::from(c)));
        }
    };
    // Whether each side is down to half, asked once a side.
    let mut sides: smallvec::SmallVec<[(usize, bool); 4]> = smallvec::SmallVec::new();
    let mut down_to_half = |f: usize| match sides.iter().find(|(g, _)| *g == f) {
        Some(&(_, down)) => down,
        None => {
            let down = side_down_to_half(world, f);
            sides.push((f, down));
            down
        }
    };
    for target in view::enemies(world, who) {
        let kind = Influence::Intimidate;
        // Whether it is shaken first: most enemies are not, and the check
        // asks it last, after sight and distance.
        if subject_to_intimidation_with(world, target, &mut down_to_half).is_ok()
            && check_influence(world, who, target, kind).is_ok()
        {
            consider(
                p_swayed(world, target) * BROKEN,
                ZonesCommand::Influence { target, kind },
            );
        }
    }
    let powers = stats(world, who).map_or(&[][..], |s| &s.powers[..]);
    for (power, k) in powers.iter().enumerate() {
        for target in std::iter::once(who).chain(view::all(world).into_iter().filter(|c| *c != who))
        {
            if check_invoke(world, who, power, target).is_err() {
                continue;
            }
            let v = match &k.effect {
                PowerEffect::Harm(d) => p_swayed(world, target) * harm_value(world, target, d),
                PowerEffect::Terrify => p_swayed(world, target) * BROKEN,
                // What a daze is worth hangs on who strikes after: the
                // hard AI plays it on.
                PowerEffect::Daze => 0.0,
                PowerEffect::Mend(d) => mend_value(world, target, d),
            };
            consider(v, ZonesCommand::Invoke { power, target });
        }
    }
    let items = stats(world, who).map_or(&[][..], |s| &s.items[..]);
    for (item, i) in items.iter().enumerate() {
        for on in std::iter::once(who).chain(view::all(world).into_iter().filter(|c| *c != who)) {
            if check_item(world, who, item, on).is_err() {
                continue;
            }
            let v = mend_value(world, on, &i.heals);
            consider(v, ZonesCommand::UseItem { item, on });
        }
    }
    best
}

/// Healing `on` by `dice`: standing a fallen friend up (the chance the roll
/// lifts it above 0), or points given back to one at half health or less.
fn mend_value(world: &World, on: Cid, dice: &DiceExpr) -> f64 {
    let Some(h) = view::get::<Health>(world, on).copied() else {
        return 0.0;
    };
    let (lo, hi) = (dice.min(None), dice.max(None));
    if view::conditions(world, on).has(Condition::Incapacitated) {
        let need = 1 - h.hp;
        let p = if need <= lo {
            1.0
        } else if need > hi {
            0.0
        } else {
            f64::from(hi - need + 1) / f64::from(hi - lo + 1)
        };
        p * BACK_UP
    } else if 2 * h.hp <= h.hp_max {
        HEALED * (f64::from(lo + hi) / 2.0).min(f64::from(h.hp_max - h.hp))
    } else {
        0.0
    }
}

/// Direct damage `dice` on `target` weighed as a blow is: its mean plus
/// [`DOWN`] times the chance it takes the target out (critical damage or
/// health to 0), the roll taken as even across its range.
fn harm_value(world: &World, target: Cid, dice: &DiceExpr) -> f64 {
    let hp = view::get::<Health>(world, target).map_or(1, |h| h.hp);
    let out = critical_threshold(world, target).min(hp);
    let (lo, hi) = (dice.min(None).max(0), dice.max(None).max(0));
    let n = f64::from(hi - lo + 1);
    let p_down = f64::from((lo..=hi).filter(|x| *x >= out).count() as i32) / n;
    f64::from(lo + hi) / 2.0 + DOWN * p_down
}
