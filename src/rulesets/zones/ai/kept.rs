//! What an activation weighed of each character it could choose (its best
//! strike from where it stands, its best word, item or power), kept for the
//! turn that follows: the character chosen decides next, and what it weighs
//! first is the same. The two decisions are one battle moment apart by
//! exactly the activation's two events (`Activated`, `TurnStarted`), which
//! change only who the round says acts (its turn's budget named, nothing of
//! it spent; the prompt): nothing these answers read, for a character on
//! its own feet (a mount's or a rider's turn is the pair's, and what moved
//! reads the pair's budgets: not kept). Debug builds check every answer
//! given again against one worked out afresh.

use std::cell::RefCell;

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::event::{BattleEvent, TurnStarted};
use crate::rules::log::{BattleLog, Moment};
use crate::rules::view;
use crate::rulesets::zones::event::{Activated, ZonesEvent};

/// One character's answers, as the activation worked them out.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Weighed {
    /// [`best_strike_here`](super::value::best_strike_here), not as a
    /// reaction.
    pub strike: Option<(f64, usize, Cid)>,
    /// [`best_word_or_item`](super::words::best_word_or_item).
    pub word: Option<(f64, Command)>,
}

#[derive(Default)]
struct Kept {
    /// The activation's moment.
    at: Option<Moment>,
    of: smallvec::SmallVec<[(Cid, Weighed); 8]>,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// An activation at this moment begins weighing: what was kept before goes.
pub(super) fn begin(world: &World) {
    let at = view::resource::<BattleLog>(world).moment();
    KEPT.with_borrow_mut(|k| {
        k.at = Some(at);
        k.of.clear();
    });
}

/// The activation weighed `who` so.
pub(super) fn keep(who: Cid, weighed: Weighed) {
    KEPT.with_borrow_mut(|k| k.of.push((who, weighed)));
}

/// What the activation just before weighed of `actor`, if `actor` is the
/// character it chose, deciding for the first time in its turn, on its own
/// feet.
pub(super) fn for_first_decision(world: &World, actor: Cid) -> Option<Weighed> {
    if view::riding(world, actor).is_some() || view::steed(world, actor).is_some() {
        return None;
    }
    let log = view::resource::<BattleLog>(world);
    KEPT.with_borrow(|k| {
        let at = k.at?;
        if log.moment() != at.later(2) {
            return None;
        }
        let activated = log.events[at.events()].own::<ZonesEvent>().is_some_and(
            |e| matches!(e, ZonesEvent::Activated(Activated { who, .. }) if *who == actor),
        );
        let started =
            matches!(log.events[at.events() + 1], BattleEvent::TurnStarted(TurnStarted { who }) if who == actor);
        if !(activated && started) {
            return None;
        }
        k.of.iter()
            .find(|(c, _)| *c == actor)
            .map(|(_, w)| w.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::battle::{Battle, Prompt};
    use crate::rules::engine::Controls;
    use crate::rules::fork;
    use crate::rulesets::zones::ai::{value::best_strike_here, words::best_word_or_item};
    use crate::testkit::{engine, start_shipped};

    /// Whole battles, step by step: right after an activation, the
    /// character it chose finds what the activation weighed of it, which
    /// is what a fresh weighing gives; one step later (its first decision
    /// made) it finds nothing, nor does the same state restored from a
    /// fork (another serial), nor another character.
    #[test]
    fn an_activations_weighing_serves_the_chosen_ones_first_decision_only() {
        let (mut firsts, mut given) = (0, 0);
        for seed in 1..=3 {
            let mut e = engine();
            start_shipped(
                &mut e,
                "mirror_duel",
                crate::rulesets::zones::ID,
                seed,
                Controls::AllAi,
            );
            let mut steps = 0;
            while e.outcome().is_none() && steps < 1_000 {
                let was = view::resource::<Battle>(e.world()).prompt;
                e.run(1);
                steps += 1;
                let (Prompt::Activate { .. }, Prompt::Act { actor }) =
                    (was, view::resource::<Battle>(e.world()).prompt)
                else {
                    continue;
                };
                firsts += 1;
                let kept = view::reading(e.world(), |w| {
                    for other in view::all(w) {
                        if other != actor {
                            assert_eq!(for_first_decision(w, other), None, "{other:?}");
                        }
                    }
                    let kept = for_first_decision(w, actor)?;
                    let fresh = Weighed {
                        strike: best_strike_here(w, actor, false),
                        word: best_word_or_item(w, actor),
                    };
                    assert_eq!(kept, fresh, "seed {seed}, step {steps}, {actor:?}");
                    Some(kept)
                });
                if kept.is_none() {
                    continue;
                }
                given += 1;
                // The same state, restored: another battle as far as a
                // moment can tell.
                let moment = |e: &crate::rules::engine::Engine| {
                    view::resource::<BattleLog>(e.world()).moment()
                };
                let before = moment(&e);
                let snap = fork::snapshot(e.world());
                fork::restore(e.world_mut(), &snap);
                view::reading(e.world(), |w| {
                    assert_eq!(for_first_decision(w, actor), None);
                });
                // Played on and restored again, the log only cut back to
                // the snapshot's: another moment all the same.
                let once = moment(&e);
                e.run(1);
                fork::restore(e.world_mut(), &snap);
                let twice = moment(&e);
                assert!(before != once && once != twice && twice != before);
                assert_eq!(twice.events(), before.events());
                // Its first decision made, there is nothing for it.
                e.run(1);
                steps += 1;
                view::reading(e.world(), |w| {
                    assert_eq!(for_first_decision(w, actor), None);
                });
            }
            assert!(e.outcome().is_some(), "seed {seed} ends");
        }
        // Everyone fights on its own feet here and nobody breaks before
        // the first blows: most turns begin with the activation's answer.
        assert!(given > 0 && 2 * given >= firsts, "{given} of {firsts}");
    }
}
