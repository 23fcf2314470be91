//! §Non-lethal attacks and the size rules for them, read only: who holds
//! whom, whether a disarm, shove or grab is allowed, where a shove lands,
//! whether the target may resist.

use bevy::prelude::*;

use crate::rules::command::{Command, Illegal, illegal};
use crate::rules::components::{Cid, Loadout};
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;
use crate::rulesets::zones::command::{Maneuver, ZonesCommand};

use super::query::{nearby, size_rank, stats};
use super::settings::ZonesSettings;

pub const RULE_NONLETHAL: &str = "zones §Non-lethal attacks";
pub const RULE_DISARM: &str = "zones §Non-lethal attacks: Disarm";
pub const RULE_SHOVE: &str = "zones §Non-lethal attacks: Shove";
pub const RULE_GRAPPLE: &str = "zones §Non-lethal attacks: Grapple";
pub const RULE_SIZE_NONLETHAL: &str = "zones §Effects of size in combat: Non-lethal attacks";
pub const RULE_SIZE_SHOVE: &str = "zones §Effects of size in combat: Shoving and grabbing";
pub const RULE_PIT: &str = "Fray decides: docs/rulesets/zones.md §Hazards";
pub const RULE_HOLD: &str = "Fray decides: docs/rulesets/zones.md §Grabs";

/// Who holds `who` in a grab.
pub fn holder(world: &World, who: Cid) -> Option<Cid> {
    view::held_by(world, who)
}

/// Whom `grabber` holds.
pub fn holding(world: &World, grabber: Cid) -> Option<Cid> {
    view::holding(world, grabber)
}

/// Sizes `a` is larger than `b` (negative: smaller).
pub fn size_difference(world: &World, a: Cid, b: Cid) -> i32 {
    size_rank(world, a) - size_rank(world, b)
}

/// Can `who` make this non-lethal attack on `target` (as its action or as a
/// counter)? "Target a nearby character"; "Larger characters can't be
/// disarmed, shoved, or grabbed by smaller characters."
pub fn check_maneuver(world: &World, who: Cid, target: Cid, kind: Maneuver) -> Result<(), Illegal> {
    check_any_maneuver(world, who, target)?;
    check_this_maneuver(world, who, target, kind)
}

/// What every maneuver on `target` needs (the first part of
/// [`check_maneuver`]): an enemy, a target the rules allow, no larger than
/// `who`, nearby. The AI weighs each kind only on a target that passes.
pub fn check_any_maneuver(world: &World, who: Cid, target: Cid) -> Result<(), Illegal> {
    if view::faction(world, who) == view::faction(world, target) {
        return illegal("not an enemy");
    }
    super::strike::check_target(world, target)?;
    if size_difference(world, target, who) > 0 {
        return illegal("larger characters can't be disarmed, shoved or grabbed by smaller ones");
    }
    if !nearby(world, who, target) {
        return illegal("non-lethal attacks only reach nearby characters (the same zone)");
    }
    Ok(())
}

/// What a maneuver of this `kind` needs besides [`check_any_maneuver`]'s:
/// the rest of [`check_maneuver`] (ask it of a target that passed that).
pub fn check_this_maneuver(
    world: &World,
    who: Cid,
    target: Cid,
    kind: Maneuver,
) -> Result<(), Illegal> {
    // Fray decides: a mount barges into people but has no hands to grab or
    // disarm with; a vehicle does neither.
    if let Some(s) = view::steed(world, who) {
        if s.vehicle {
            return illegal("a vehicle only moves");
        }
        if kind != Maneuver::Shove {
            return illegal("a mount can shove, but neither grab nor disarm");
        }
    }
    match kind {
        Maneuver::Disarm { weapon } => {
            let Some(w) = view::get::<Loadout>(world, target).and_then(|l| l.weapons.get(weapon))
            else {
                return illegal("no such weapon to knock away");
            };
            if w.hands == 0 {
                return illegal(format!("the {} can't be dropped", w.name.to_lowercase()));
            }
            Ok(())
        }
        Maneuver::Grapple => match holder(world, target) {
            Some(h) if h == who => illegal("already held"),
            Some(_) => illegal("already held by someone else"),
            None => Ok(()),
        },
        Maneuver::Shove => Ok(()),
    }
}

/// Does `command` let `actor` keep hold of the character it grabs? "The
/// grabbing character can keep hold while moving together with the grabbed
/// character, attempting to disarm them, hiding behind them as reaction to an
/// attack, or attacking with a one-handed weapon or an unarmed attack. Any
/// other action frees the grabbed character." A larger grabber needs one
/// hand and "can perform any action while keeping hold". Fray decides that
/// drawing a one-handed weapon (with the free hand) keeps hold, so the
/// text's Theobald can stab with his dagger.
pub fn keeps_hold(world: &World, actor: Cid, held: Cid, command: &Command) -> bool {
    if size_difference(world, actor, held) > 0 {
        return !matches!(
            (command, command.own::<ZonesCommand>()),
            (Command::Flee, _) | (_, Some(ZonesCommand::Surrender))
        );
    }
    let one_handed = |i: usize| {
        view::get::<Loadout>(world, actor)
            .and_then(|l| l.weapons.get(i))
            .is_some_and(|w| w.hands <= 1)
    };
    match (command, command.own::<ZonesCommand>()) {
        (Command::Move { .. }, _) | (Command::EndTurn, _) | (Command::NoReaction, _) => true,
        (Command::Attack { weapon, .. }, _) | (Command::Draw { weapon }, _) => one_handed(*weapon),
        (
            _,
            Some(ZonesCommand::Maneuver {
                target,
                kind: Maneuver::Disarm { .. },
            }),
        ) => *target == held,
        (_, Some(ZonesCommand::HideBehind { who })) => *who == held,
        _ => false,
    }
}

/// Does the target get a STR save against a non-lethal attack by
/// `attacker`? "Smaller characters can't resist with a STR save when a
/// larger character disarms, shoves, or grabs them."
pub fn may_resist(world: &World, attacker: Cid, target: Cid) -> bool {
    size_difference(world, attacker, target) <= 0
}

/// Fray decides when a character has a free hand to catch a weapon: nothing
/// two-handed in hand, no shield, and nobody held (a same-size grab takes
/// both hands).
pub fn free_hand(world: &World, who: Cid) -> bool {
    let Some(l) = view::get::<Loadout>(world, who) else {
        return false;
    };
    let in_hand = l.ready_weapon().map_or(0, |w| w.hands);
    let shield = stats(world, who).is_some_and(|s| s.shield);
    let grabbing = holding(world, who).is_some_and(|held| size_difference(world, who, held) <= 0);
    !grabbing && (in_hand == 0 || (in_hand == 1 && !shield))
}

/// Where a shove by `attacker` would leave `target`: the last cell it is
/// pushed to, and the pit it falls into on the way, if any.
pub fn shove_end(world: &World, attacker: Cid, target: Cid) -> (Cell, Option<Cell>) {
    let diff = size_difference(world, attacker, target).max(0);
    let cells = view::resource::<ZonesSettings>(world).shove_cells << diff;
    let (Some(from), Some(at)) = (view::cell(world, attacker), view::cell(world, target)) else {
        return (Cell { x: 0, y: 0 }, None);
    };
    let dir = ((at.x - from.x).signum(), (at.y - from.y).signum());
    let map = view::resource::<Map>(world);
    let occupied = view::occupied(world, Some(target));
    let mut cur = at;
    for _ in 0..cells {
        let next = Cell {
            x: cur.x + dir.0,
            y: cur.y + dir.1,
        };
        if !map.in_bounds(next) {
            break;
        }
        if map.terrain(next) == Terrain::Pit {
            return (cur, Some(next));
        }
        if !map.terrain(next).passable()
            || map.zone_of(next).is_none()
            || occupied.binary_search(&next).is_ok()
        {
            break;
        }
        cur = next;
    }
    (cur, None)
}

/// "Grabbed characters can't act, and can only spend their turn to attempt
/// to break free by passing a STR save"; a smaller character held by a
/// larger one cannot.
pub fn check_break_free(world: &World, who: Cid) -> Result<(), Illegal> {
    let Some(by) = holder(world, who) else {
        return illegal("nobody holds you");
    };
    if !may_resist(world, by, who) {
        return illegal("held by a larger creature: only an ally can free you");
    }
    Ok(())
}

/// "Allies can also spend a main action to attempt to free them with a STR
/// save." Fray decides: the ally must be nearby, and an ally smaller than
/// the grabber cannot (as the held one could not).
pub fn check_free_ally(world: &World, actor: Cid, who: Cid) -> Result<(), Illegal> {
    if view::faction(world, actor) != view::faction(world, who) || actor == who {
        return illegal("free an ally, not yourself");
    }
    let Some(by) = holder(world, who) else {
        return illegal("nobody holds them");
    };
    if !nearby(world, actor, who) {
        return illegal("only a nearby ally can be freed");
    }
    if !may_resist(world, by, actor) {
        return illegal("the grabber is too large for you to pull them free");
    }
    Ok(())
}
