//! What waits for a reaction: an attack, a blast or a move at a border is
//! offered to the one asked (`ReactionOffered`), and once nothing waits the
//! turn goes on (`TurnResumed`). Their apply keeps `Pending` and the
//! prompt; the writers only read them.
//! Below every writer that asks: it imports none of them.

use crate::rules::battle::{Battle, Prompt};
use crate::rules::components::Cid;
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::event::{
    Reaction, ReactionOffered, ReactionTaken, TurnResumed, ZonesEvent,
};

use super::state::{Pending, Waiting};

pub const RULE_REACT: &str = "zones §Reacting to an attack";

/// Ask `who` how it answers `by`: `waits` waits for the answer.
pub(super) fn offer(world: &mut Scene, who: Cid, by: Cid, waits: Waiting) {
    emit(
        world,
        ZonesEvent::ReactionOffered(ReactionOffered {
            who,
            by,
            waits,
            rule: RULE_REACT,
        }),
    );
}

/// Nothing waits any more: back to `who`'s turn (none: the battle moves
/// on). Written only when something waited or the prompt was elsewhere.
pub(super) fn resume(world: &mut Scene, who: Option<Cid>) {
    let prompt = match who {
        Some(actor) => Prompt::Act { actor },
        None => Prompt::None,
    };
    let idle = view::resource::<Pending>(world).is_empty()
        && view::resource::<Battle>(world).prompt == prompt;
    if !idle {
        emit(
            world,
            ZonesEvent::TurnResumed(TurnResumed {
                who,
                rule: RULE_REACT,
            }),
        );
    }
}

pub(super) fn taken(world: &mut Scene, who: Cid, kind: Reaction, against: Cid, rule: &'static str) {
    emit(
        world,
        ZonesEvent::ReactionTaken(ReactionTaken {
            who,
            kind,
            against,
            rule,
        }),
    );
}
