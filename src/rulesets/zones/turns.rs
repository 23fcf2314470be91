//! Who may take a turn: "each character can only take a turn once per
//! round" (§Combat procedure), and in the bonus round only the concealed
//! act (§Sneaking in combat). Which of a faction's characters may take the
//! faction's turn now. Read only: the check of an activation, the round's
//! next speaker and the AI ask it.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, TurnState};
use crate::rules::view;

use super::state::ZonesRound;

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
        && !super::riders::idle_vehicle(world, c)
}
