//! Words and items as a main action (§Taking a turn): intimidating a shaken
//! enemy, and a medicine box on a fallen or badly hurt friend, when either
//! is worth more than what the turn could otherwise do. Distracting and
//! taunting it leaves to the hard AI, which weighs them by playing them on:
//! what they are worth hangs on who acts after.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Health};
use crate::rules::view;
use crate::rulesets::zones::command::{Influence, ZonesCommand};
use crate::rulesets::zones::influence::{check_influence, check_item, p_swayed};
use crate::rulesets::zones::queries::stats;

use super::value::DOWN;

/// A broken enemy surrenders or runs: nearly as good as one taken out.
const BROKEN: f64 = 0.8 * DOWN;
/// A fallen friend back on its feet (with its health low).
const BACK_UP: f64 = 0.8 * DOWN;
/// A point of health given back to a friend at half health or less.
const HEALED: f64 = 0.7;

/// The best word or item `who` could use now, if any: value, command.
pub(super) fn best_word_or_item(world: &World, who: Cid) -> Option<(f64, Command)> {
    let mut best: Option<(f64, Command)> = None;
    let mut consider = |v: f64, c: ZonesCommand| {
        if v > 0.0 && best.as_ref().is_none_or(|b| v > b.0) {
            best = Some((v, Command::from(c)));
        }
    };
    for target in view::enemies(world, who) {
        let kind = Influence::Intimidate;
        if check_influence(world, who, target, kind).is_ok() {
            consider(
                p_swayed(world, target) * BROKEN,
                ZonesCommand::Influence { target, kind },
            );
        }
    }
    let items = stats(world, who).map_or(&[][..], |s| &s.items[..]);
    for (item, i) in items.iter().enumerate() {
        let (lo, hi) = (i.heals.min(None), i.heals.max(None));
        let mean = f64::from(lo + hi) / 2.0;
        for on in std::iter::once(who).chain(view::all(world).into_iter().filter(|c| *c != who)) {
            if check_item(world, who, item, on).is_err() {
                continue;
            }
            let Some(h) = view::get::<Health>(world, on).copied() else {
                continue;
            };
            let v = if view::conditions(world, on).has(Condition::Incapacitated) {
                // The chance the roll lifts it above 0.
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
                HEALED * mean.min(f64::from(h.hp_max - h.hp))
            } else {
                0.0
            };
            consider(v, ZonesCommand::UseItem { item, on });
        }
    }
    best
}
