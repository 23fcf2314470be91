//! Who may take a turn: "each character can only take a turn once per
//! round" (§Combat procedure), and in the bonus round only the concealed
//! act (§Sneaking in combat). Which of a faction's characters may take the
//! faction's turn now; who rides what, and who takes part in the turn in
//! progress with what spent (§Mounts and vehicles: "Mounts and riders ...
//! take turn together"). Read only: the checks, the round's next speaker,
//! the preview and the AI ask it. Below `query.rs`: it imports no other
//! file of the ruleset but the state.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, TurnState};
use crate::rules::view;

use super::state::{TurnBudget, ZonesRound};

/// Has `who` not yet taken its turn this round?
pub fn turn_left(world: &World, who: Cid) -> bool {
    view::get::<TurnState>(world, who).is_some_and(|t| !t.done)
}

/// Characters of `faction` who can still take a turn this round (in the
/// bonus round, only the concealed; never one who reserved its turn to
/// react, nor a vehicle with nobody aboard).
pub fn eligible(world: &World, faction: u8) -> view::Cids {
    let r = view::resource::<ZonesRound>(world);
    // (The faction's standing found in the roster's one look: asked at
    // every activation, its check, and the AI's.)
    view::standing_in(world, faction)
        .into_iter()
        .filter(|c| may_take_turn(world, r, *c))
        .collect()
}

/// The first of [`eligible`]'s characters, if any, without the others.
pub fn first_eligible(world: &World, faction: u8) -> Option<Cid> {
    let r = view::resource::<ZonesRound>(world);
    view::standing_in(world, faction)
        .into_iter()
        .find(|c| may_take_turn(world, r, *c))
}

/// Is `who` one of [`eligible`]'s characters of `faction`? Asked of one
/// character, without the others (the check of an activation).
pub fn is_eligible(world: &World, faction: u8, who: Cid) -> bool {
    view::faction(world, who) == Some(faction)
        && view::standing(world, who)
        && may_take_turn(world, view::resource::<ZonesRound>(world), who)
}

/// What [`eligible`] asks of each standing character of the faction: a
/// turn not yet taken ([`turn_left`], §Combat procedure), concealed in the
/// bonus round (§Sneaking in combat), not reserved, not an idle vehicle.
fn may_take_turn(world: &World, r: &ZonesRound, c: Cid) -> bool {
    turn_left(world, c)
        && (!r.bonus || view::conditions(world, c).has(Condition::Concealed))
        && !r.reserved.contains(&c)
        && !super::turns::idle_vehicle(world, c)
}

/// The mount `who` belongs to, as mount or rider.
pub(super) fn mount_of(world: &World, who: Cid) -> Cid {
    view::riding(world, who).unwrap_or(who)
}

/// Is `who` one of a pair: riding, or carrying someone?
pub fn paired(world: &World, who: Cid) -> bool {
    view::riding(world, who).is_some() || !standing_riders(world, who).is_empty()
}

/// The standing riders of `mount`.
pub fn standing_riders(world: &World, mount: Cid) -> Vec<Cid> {
    view::riders(world, mount)
        .into_iter()
        .filter(|r| view::standing(world, *r))
        .collect()
}

/// Those who take the turn together with `who`: the mount first, then its
/// riders, as far as they are standing and still have their turn.
pub fn pair(world: &World, who: Cid) -> view::Cids {
    let mount = mount_of(world, who);
    let r = view::resource::<ZonesRound>(world);
    let mut v = view::Cids::new();
    v.push(mount);
    v.extend(standing_riders(world, mount));
    v.retain(|c| {
        *c == who
            || (view::standing(world, *c)
                && view::get::<TurnState>(world, *c).is_some_and(|t| !t.done)
                && !r.reserved.contains(c))
    });
    v
}

/// A vehicle with nobody aboard: it cannot take a turn.
pub fn idle_vehicle(world: &World, who: Cid) -> bool {
    view::steed(world, who).is_some_and(|s| s.vehicle) && standing_riders(world, who).is_empty()
}

pub fn is_vehicle(world: &World, who: Cid) -> bool {
    view::steed(world, who).is_some_and(|s| s.vehicle)
}

/// What `who` has spent in the turn in progress, if it takes part in it.
pub fn budget_of(world: &World, who: Cid) -> Option<TurnBudget> {
    let r = view::resource::<ZonesRound>(world);
    if r.turn.who == Some(who) {
        return Some(r.turn.clone());
    }
    r.team.iter().find(|b| b.who == Some(who)).cloned()
}

/// "If the mount or vehicle is moving": Fray decides, it has crossed a zone
/// border in the turn in progress.
pub fn moving(world: &World, mount: Cid) -> bool {
    budget_of(world, mount).is_some_and(|b| b.zones > 0)
}

/// Has `who` moved in this turn, on its own feet or carried? (Shooting
/// "while moving" needs a WIT save.)
pub fn moved_this_turn(world: &World, who: Cid) -> bool {
    budget_of(world, who).is_some_and(|b| b.zones > 0)
        || view::riding(world, who).is_some_and(|m| moving(world, m))
}

/// A rider of `mount` has acted in this turn: the mount keeps to half speed.
pub fn riders_acted(world: &World, mount: Cid) -> bool {
    standing_riders(world, mount)
        .into_iter()
        .any(|r| budget_of(world, r).is_some_and(|b| b.acted()))
}

/// Carried at full speed this round: no action nor reaction.
pub fn carried_fast(world: &World, who: Cid) -> bool {
    view::resource::<ZonesRound>(world)
        .carried_fast
        .contains(&who)
}
