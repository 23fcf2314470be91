//! §Non-lethal attacks (disarm, shove, grapple) and their part of §Effects
//! of size in combat: the target saves with STR or suffers the consequence;
//! grabbed characters can only try to break free; what a grabbing character
//! may do without letting go.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::command::{Command, Illegal, Maneuver, illegal};
use crate::rules::components::{Cid, Condition, HeldBy, Loadout};
use crate::rules::dice::{Dice, DiceExpr, RollOptions};
use crate::rules::event::BattleEvent;
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;

use super::attack::{Blow, land, save};
use super::check::stats;
use super::data::impaired;
use super::queries::{nearby, size_rank};
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
    view::get::<HeldBy>(world, who).and_then(|h| h.0)
}

/// Whom `grabber` holds.
pub fn holding(world: &World, grabber: Cid) -> Option<Cid> {
    view::all(world)
        .into_iter()
        .find(|c| holder(world, *c) == Some(grabber))
}

/// Sizes `a` is larger than `b` (negative: smaller).
pub fn size_difference(world: &World, a: Cid, b: Cid) -> i32 {
    size_rank(world, a) - size_rank(world, b)
}

/// Can `who` make this non-lethal attack on `target` (as its action or as a
/// counter)? "Target a nearby character"; "Larger characters can't be
/// disarmed, shoved, or grabbed by smaller characters."
pub fn check_maneuver(world: &World, who: Cid, target: Cid, kind: Maneuver) -> Result<(), Illegal> {
    if view::faction(world, who) == view::faction(world, target) {
        return illegal("not an enemy");
    }
    super::check::check_target(world, target)?;
    if size_difference(world, target, who) > 0 {
        return illegal("larger characters can't be disarmed, shoved or grabbed by smaller ones");
    }
    if !nearby(world, who, target) {
        return illegal("non-lethal attacks only reach nearby characters (the same zone)");
    }
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
        return !matches!(command, Command::Flee | Command::Surrender);
    }
    let one_handed = |i: usize| {
        view::get::<Loadout>(world, actor)
            .and_then(|l| l.weapons.get(i))
            .is_some_and(|w| w.hands <= 1)
    };
    match command {
        Command::Move { .. } | Command::EndTurn | Command::NoReaction => true,
        Command::Attack { weapon, .. } | Command::Draw { weapon } => one_handed(*weapon),
        Command::Maneuver {
            target,
            kind: Maneuver::Disarm { .. },
        } => *target == held,
        Command::HideBehind { who } => *who == held,
        _ => false,
    }
}

/// Before `actor` does `command`: if that frees whom it holds, let go.
pub fn let_go_unless_kept(world: &mut World, actor: Cid, command: &Command) {
    if let Some(held) = holding(world, actor)
        && !keeps_hold(world, actor, held, command)
    {
        release(world, actor, held, RULE_GRAPPLE);
    }
}

fn release(world: &mut World, by: Cid, who: Cid, rule: &'static str) {
    emit(world, BattleEvent::Released { by, who, rule });
}

/// Holds that can no longer be kept end: the grabber is out of the fight,
/// the held character is dead or gone, or the two are no longer side by
/// side (a shove, a swap).
pub fn tidy_holds(world: &mut World) {
    for who in view::all(world) {
        let Some(by) = holder(world, who) else {
            continue;
        };
        let apart = match (view::cell(world, who), view::cell(world, by)) {
            (Some(a), Some(b)) => Map::chebyshev(a, b) > 1,
            _ => true,
        };
        let gone = view::conditions(world, who).has(Condition::Dead)
            || view::conditions(world, who).has(Condition::Fled);
        if apart || gone || !view::standing(world, by) {
            release(world, by, who, RULE_HOLD);
        }
    }
}

/// A grabbing character moved: the held one comes along, to the cell the
/// grabber left ("keep hold while moving together with the grabbed
/// character").
pub fn drag(world: &mut World, grabber: Cid, from: Cell, path: &[Cell]) {
    let Some(held) = holding(world, grabber) else {
        return;
    };
    let Some(at) = view::cell(world, held) else {
        return;
    };
    let to = if path.len() >= 2 {
        path[path.len() - 2]
    } else {
        from
    };
    if to != at {
        emit(
            world,
            BattleEvent::Displaced {
                who: held,
                by: grabber,
                from: at,
                to,
                rule: RULE_GRAPPLE,
            },
        );
    }
}

/// Does the target get a STR save against a non-lethal attack by
/// `attacker`? "Smaller characters can't resist with a STR save when a
/// larger character disarms, shoves, or grabs them."
pub fn may_resist(world: &World, attacker: Cid, target: Cid) -> bool {
    size_difference(world, attacker, target) <= 0
}

/// A non-lethal attack reaches its target (not dodged): the STR save, then
/// the consequence.
pub fn land_maneuver(world: &mut World, attacker: Cid, target: Cid, kind: Maneuver) {
    // Stopped when the attacker went down first (a counter), or pointless
    // on the dead.
    if !view::standing(world, attacker) || view::conditions(world, target).has(Condition::Dead) {
        return;
    }
    let (purpose, rule) = match kind {
        Maneuver::Disarm { .. } => ("to keep hold of the weapon", RULE_DISARM),
        Maneuver::Shove => ("to stand firm", RULE_SHOVE),
        Maneuver::Grapple => ("to avoid being grabbed", RULE_GRAPPLE),
    };
    if may_resist(world, attacker, target) {
        let str_ = stats(world, target).map_or(0, |s| s.str);
        if save(world, target, "STR", str_, purpose, rule) {
            return;
        }
    }
    match kind {
        Maneuver::Disarm { weapon } => disarm(world, attacker, target, weapon),
        Maneuver::Shove => shove(world, attacker, target),
        Maneuver::Grapple => {
            if let Some(other) = holding(world, attacker) {
                release(world, attacker, other, RULE_GRAPPLE);
            }
            // Fray decides: a grabbed rider is pulled down off its mount.
            if let Some(m) = view::riding(world, target)
                && let Some(at) = view::cell(world, m)
            {
                let to = super::mounts::landing_near(world, at, view::cell(world, attacker));
                super::mounts::throw_off(world, target, to);
                if !view::standing(world, target) {
                    return;
                }
            }
            emit(
                world,
                BattleEvent::Grabbed {
                    by: attacker,
                    who: target,
                    rule: RULE_GRAPPLE,
                },
            );
        }
    }
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

/// "The target must pass a STR save or drop a weapon chosen by the
/// attacker. If the attacker has a free hand, they can grab the weapon."
fn disarm(world: &mut World, attacker: Cid, target: Cid, weapon: usize) {
    let Some(name) = view::get::<Loadout>(world, target)
        .and_then(|l| l.weapons.get(weapon))
        .map(|w| w.name.clone())
    else {
        return;
    };
    let taken_by = free_hand(world, attacker).then(|| {
        // Before the bare hands, which stay last.
        let n = view::get::<Loadout>(world, attacker).map_or(0, |l| l.weapons.len());
        (attacker, n.saturating_sub(1))
    });
    emit(
        world,
        BattleEvent::Disarmed {
            who: target,
            index: weapon,
            weapon: name,
            taken_by,
            rule: RULE_DISARM,
        },
    );
}

/// "Force them to move by half a zone, and eventually push them into a
/// hazard"; a larger shover inflicts d4 direct damage and doubles the
/// distance for each size of difference. Fray decides: the push goes
/// straight away from the shover, `shove_cells` cells per half zone, and
/// stops at walls, other characters and the map's edge; a pit on the way
/// is fallen into.
fn shove(world: &mut World, attacker: Cid, target: Cid) {
    let diff = size_difference(world, attacker, target).max(0);
    if diff > 0 {
        direct_damage(world, target, &impaired(), RULE_SIZE_SHOVE);
        if !view::standing(world, target) {
            return;
        }
    }
    let Some(at) = view::cell(world, target) else {
        return;
    };
    let (cur, fell) = shove_end(world, attacker, target);
    // Fray decides: a shoved rider is pushed off its mount, and falls.
    if view::riding(world, target).is_some() && (cur != at || fell.is_some()) {
        super::mounts::throw_off(world, target, at);
        if !view::standing(world, target) {
            return;
        }
    }
    let pit_damage = world.resource::<ZonesSettings>().pit_damage.clone();
    match (fell, pit_damage) {
        (Some(pit), None) => {
            displace(world, attacker, target, at, pit, RULE_SHOVE);
            emit(
                world,
                BattleEvent::ConditionAdded {
                    who: target,
                    condition: Condition::Dead,
                    rule: RULE_PIT,
                },
            );
        }
        (Some(_), Some(dice)) => {
            displace(world, attacker, target, at, cur, RULE_SHOVE);
            direct_damage(world, target, &dice, RULE_PIT);
        }
        (None, _) => displace(world, attacker, target, at, cur, RULE_SHOVE),
    }
    tidy_holds(world);
}

/// Damage no armour reduces.
pub(super) fn direct_damage(world: &mut World, target: Cid, dice: &DiceExpr, rule: &'static str) {
    let r = dice.roll(&mut world.resource_mut::<Dice>(), &RollOptions::default());
    emit(
        world,
        BattleEvent::DamageRolled {
            target,
            roll: r.clone(),
            rule,
        },
    );
    let b = Blow {
        target,
        rolled: r.total,
        suffered: r.total,
        roll: r,
        steps: Vec::new(),
        before_armour: None,
    };
    land(world, &b);
}

/// Where a shove by `attacker` would leave `target`: the last cell it is
/// pushed to, and the pit it falls into on the way, if any.
pub fn shove_end(world: &World, attacker: Cid, target: Cid) -> (Cell, Option<Cell>) {
    let diff = size_difference(world, attacker, target).max(0);
    let cells = world.resource::<ZonesSettings>().shove_cells << diff;
    let (Some(from), Some(at)) = (view::cell(world, attacker), view::cell(world, target)) else {
        return (Cell { x: 0, y: 0 }, None);
    };
    let dir = ((at.x - from.x).signum(), (at.y - from.y).signum());
    let map = world.resource::<Map>();
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

fn displace(world: &mut World, by: Cid, who: Cid, from: Cell, to: Cell, rule: &'static str) {
    if from != to {
        emit(
            world,
            BattleEvent::Displaced {
                who,
                by,
                from,
                to,
                rule,
            },
        );
    }
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

pub fn break_free(world: &mut World, who: Cid) {
    let Some(by) = holder(world, who) else {
        return;
    };
    let str_ = stats(world, who).map_or(0, |s| s.str);
    if save(world, who, "STR", str_, "to break free", RULE_GRAPPLE) {
        release(world, by, who, RULE_GRAPPLE);
    }
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

pub fn free_ally(world: &mut World, actor: Cid, who: Cid) {
    let Some(by) = holder(world, who) else {
        return;
    };
    let str_ = stats(world, actor).map_or(0, |s| s.str);
    if save(world, actor, "STR", str_, "to free an ally", RULE_GRAPPLE) {
        release(world, by, who, RULE_GRAPPLE);
    }
}
