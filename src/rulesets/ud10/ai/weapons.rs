//! Which weapon to draw when the one in hand cannot strike from here, or
//! has run out of ammunition.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout, WeaponKind};
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::ud10::check;
use crate::rulesets::ud10::weapon::Ud10Gear;

/// Draw a weapon that can strike from here when the one in hand cannot.
pub(super) fn switch_weapon(world: &World, actor: Cid, here: Cell) -> Option<Command> {
    let l = view::get::<Loadout>(world, actor)?;
    let map = view::resource::<Map>(world);
    let enemies = view::enemies(world, actor);
    let mut best: Option<(f64, usize)> = None;
    for (i, w) in l.weapons.iter().enumerate() {
        if Some(i) == l.ready || check::has_ammo(w, 0).is_err() || w.ud10().entangles {
            continue;
        }
        let reaches = enemies
            .iter()
            .any(|e| view::cell(world, *e).is_some_and(|ec| check::reaches(map, here, ec, w)));
        let score = w.damage.mean(None, Some(10)) + if reaches { 100.0 } else { 0.0 };
        // Melee fighters out of reach keep their weapon; others draw what reaches.
        if reaches && best.is_none_or(|b| score > b.0) {
            best = Some((score, i));
        }
    }
    if best.is_none() {
        // Out of ammunition: draw the best melee weapon.
        let ready_empty = l
            .ready_weapon()
            .is_some_and(|w| check::has_ammo(w, 0).is_err() && (w.spare == Some(0)));
        if ready_empty {
            best = l
                .weapons
                .iter()
                .enumerate()
                .filter(|(_, w)| w.kind == WeaponKind::Melee)
                .map(|(i, w)| (w.damage.mean(None, Some(10)), i))
                .fold(None, |b: Option<(f64, usize)>, x| {
                    if b.is_none_or(|b| x.0 > b.0) {
                        Some(x)
                    } else {
                        b
                    }
                });
        }
    }
    let (_, i) = best?;
    let cmd = Command::Draw { weapon: i };
    check::check(world, actor, &cmd).ok().map(|_| cmd)
}
