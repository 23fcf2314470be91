//! Read-only questions the check, the preview, the AI and the execution
//! share: the DEX order and ranks (§5.2–5.4), how far one may still move
//! (§5.3), whether a weapon reaches (§5.9). The numbers of an attack and
//! of each defence against it are `numbers.rs`'s.

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::Cid;
use crate::rules::map::{Cell, Map};
use crate::rules::view;

use super::chance::{Difficulty, range_band};
use super::data::Length;
use super::event::Band;
use super::settings::BrpSettings;
use super::state::BrpRound;
use super::stats::BrpWeapon;

pub const RULE_INTENT: &str = "brp §5.2 Statement of Intent";
pub const RULE_MOVEMENT: &str = "brp §5.3 Movement";
pub const RULE_ACTIONS: &str = "brp §5.4 Actions";
pub const RULE_PARRY: &str = "brp §5.6 Parrying";
pub const RULE_DODGE: &str = "brp §5.7 Dodging";
pub const RULE_SHIELDS: &str = "brp §5.11 Shields";
pub const RULE_RELOAD: &str = "brp §5.9 Weapons and Damage (reloading)";
pub const RULE_SIMULTANEOUS: &str = "Fray decides: docs/rulesets/brp.md, \"Simultaneous actions\"";
pub const RULE_INVOLVED: &str = "Fray decides: docs/rulesets/brp.md, \"Involved in combat\"";

/// The most a character moves in a round: "around 30 meters" (§5.3), in
/// decimetres.
pub const RUN_DM: u32 = 300;
/// Under 6 metres a character keeps its full DEX rank (§5.3: "between
/// 6–15 meters and still act at half").
pub const HALF_FROM_DM: u32 = 60;
/// Up to 15 metres: half; beyond, a quarter (§5.3: "16–29 meters").
pub const HALF_UP_TO_DM: u32 = 150;

/// The band a round's movement falls in (§5.3).
pub fn band(moved_dm: u32) -> Band {
    if moved_dm < HALF_FROM_DM {
        Band::Full
    } else if moved_dm <= HALF_UP_TO_DM {
        Band::Half
    } else if moved_dm < RUN_DM {
        Band::Quarter
    } else {
        Band::Run
    }
}

/// §5.3: the rank a character of `dex` acts on after moving in `band`:
/// halves and quarters round up (docs/rulesets/brp.md); `None` after the
/// 30-metre run.
pub fn rank(dex: i32, band: Band) -> Option<i32> {
    match band {
        Band::Full => Some(dex),
        Band::Half => Some(Difficulty::Difficult.of(dex)),
        Band::Quarter => Some(Difficulty::Quarter.of(dex)),
        Band::Run => None,
    }
}

/// What orders characters of the same DEX (§5.2: "use the relevant skill
/// (missile weapons before melee weapons ...). If both are using the same
/// type of weapons, the character with the higher skill rating goes
/// first") and of the same rank (§5.4: missile, long, medium, short or
/// unarmed): lower sorts first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct WeaponOrder {
    /// 0 missile, 1 long, 2 medium, 3 short or unarmed, 4 no attack.
    pub class: u8,
    /// The skill's rating, negated (higher goes first).
    pub skill: i32,
}

/// §5.2 and §5.4: the order a weapon gives on a tie (missile before
/// melee; on a rank, long, medium, short; `None`: no attack this round).
pub fn weapon_order(w: Option<&BrpWeapon>) -> WeaponOrder {
    match w {
        None => WeaponOrder { class: 4, skill: 0 },
        Some(g) => WeaponOrder {
            class: match (g.is_missile(), g.length) {
                (true, _) => 0,
                (false, Some(Length::Long)) => 1,
                (false, Some(Length::Medium)) => 2,
                _ => 3,
            },
            skill: -g.chance,
        },
    }
}

/// Stable groups of `items` by `key`, in key order: a group holds those that
/// tie.
pub fn tied_groups<K: Ord + Copy>(mut items: Vec<(K, Cid)>) -> Vec<Vec<Cid>> {
    items.sort();
    // Each run of one key made a group at its size: no list grows.
    let mut out: Vec<Vec<Cid>> = Vec::with_capacity(items.len());
    let mut i = 0;
    while i < items.len() {
        let k = items[i].0;
        let n = items[i..].iter().take_while(|(key, _)| *key == k).count();
        out.push(items[i..i + n].iter().map(|(_, c)| *c).collect());
        i += n;
    }
    out
}

/// The round's state.
pub fn round(world: &World) -> &BrpRound {
    view::resource::<BrpRound>(world)
}

/// The rules' settings.
pub fn settings(world: &World) -> &BrpSettings {
    view::resource::<BrpSettings>(world)
}

/// Is an enemy of `who` standing next to `at`?
pub fn enemy_adjacent(world: &World, who: Cid, at: Cell) -> bool {
    view::each_enemy(world, who)
        .any(|e| view::cell(world, e).is_some_and(|c| Map::chebyshev(c, at) <= 1))
}

/// How much farther `who` may move this round, in decimetres (§5.3): the
/// 30-metre run only with nothing but parries and dodges stated (or with no
/// statements at all) and not involved in combat; otherwise short of 30
/// metres, so that an action remains.
pub fn move_left(world: &World, who: Cid) -> u32 {
    let r = round(world);
    let Some(slot) = r.slot(who) else { return 0 };
    // Without statements (§5.2's shortcut) anyone not involved may run the
    // 30 metres, and so gives up its action.
    let defends = !settings(world).statement_of_intent
        || matches!(slot.declared, Some(super::command::Intent::Defend));
    let cap = if defends && !slot.involved {
        RUN_DM
    } else {
        RUN_DM - 1
    };
    cap.saturating_sub(slot.moved_dm)
}

/// Can `weapon` (carried by `attacker`) strike `target` from `from`, and
/// how hard is it (§5.9's range bands; melee: next to it)?
pub fn reach(world: &World, from: Cell, target: Cid, g: &BrpWeapon) -> Result<Difficulty, Illegal> {
    let Some(to) = view::cell(world, target) else {
        return illegal("the target is not on the map");
    };
    if !g.is_missile() {
        return if Map::chebyshev(from, to) <= 1 {
            Ok(Difficulty::Normal)
        } else {
            illegal("out of reach: a melee weapon strikes the next cell")
        };
    }
    let map = view::resource::<Map>(world);
    if !map.line_of_sight(from, to) {
        return illegal("no line of sight");
    }
    match range_band(Map::distance_m(from, to), g.range_m) {
        Difficulty::Impossible => illegal("beyond three times the range: no chance"),
        d => Ok(d),
    }
}
