//! The Resolve part of a battle step, which every ruleset shares: the
//! commands sent since the last step, each checked by the ruleset's one
//! legality check and, when legal, carried out and recorded.

use bevy::prelude::*;

use crate::rules::view;

use crate::rules::battle::Battle;
use crate::rules::command::{Command, CommandMsg, Illegal, Verdict};
use crate::rules::components::Cid;
use crate::rules::log::{BattleLog, LastRejection};
use crate::rules::scene::Scene;

/// The Resolve step every ruleset shares: drain the commands sent since the
/// last step, check each with the ruleset's legality check (the first with
/// the `verdict` the step's AI reached for it, if it sent it), record and
/// execute the legal ones, remember why the last illegal one was refused.
pub fn resolve_with(
    world: &mut World,
    verdict: Option<Verdict>,
    check: fn(&World, Cid, &Command) -> Result<(), Illegal>,
    execute: fn(&mut Scene, Cid, &Command),
) {
    let mut messages = view::write::resource_mut::<bevy::ecs::message::Messages<CommandMsg>>(world);
    // Mostly the one command the AI sent: taken alone, not gathered.
    if messages.len() <= 1 {
        let Some(msg) = messages.drain().next() else {
            return;
        };
        let verdict = verdict.filter(|v| msg.actor == v.actor);
        resolve_one(world, msg, verdict, check, execute);
        return;
    }
    let msgs: smallvec::SmallVec<[CommandMsg; 4]> = messages.drain().collect();
    debug_assert!(
        verdict.is_none(),
        "a verdict comes with the only command of the step"
    );
    let mut verdict = verdict.filter(|v| msgs.first().is_some_and(|m| m.actor == v.actor));
    for msg in msgs {
        if !resolve_one(world, msg, verdict.take(), check, execute) {
            break;
        }
    }
}

/// [`resolve_with`] for one command: judged (by `verdict`, if given) and
/// carried out, or refused; false, and nothing done, once the battle is
/// over.
fn resolve_one(
    world: &mut World,
    msg: CommandMsg,
    verdict: Option<Verdict>,
    check: fn(&World, Cid, &Command) -> Result<(), Illegal>,
    execute: fn(&mut Scene, Cid, &Command),
) -> bool {
    if view::resource::<Battle>(world).is_over() {
        return false;
    }
    let judged = match verdict {
        Some(v) => v.judged,
        None => check(world, msg.actor, &msg.command),
    };
    match judged {
        Err(e) => view::write::resource_mut::<LastRejection>(world).0 = Some((msg, e)),
        Ok(()) => {
            view::write::resource_mut::<LastRejection>(world).0 = None;
            execute(&mut Scene::new(world), msg.actor, &msg.command);
            // Recorded once carried out (nothing reads the list while a
            // command executes): the message itself, not a copy.
            view::write::resource_mut::<BattleLog>(world)
                .commands
                .push(msg);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::cell::Cell as Counter;

    use bevy::ecs::message::Messages;
    use bevy::prelude::World;

    use super::*;
    use crate::rules::command::illegal;

    thread_local! {
        static CHECKED: Counter<u32> = const { Counter::new(0) };
        static EXECUTED: Counter<u32> = const { Counter::new(0) };
    }

    fn refuse(_: &World, _: Cid, _: &Command) -> Result<(), Illegal> {
        CHECKED.with(|c| c.set(c.get() + 1));
        illegal("the check refuses everything")
    }

    fn record(_: &mut Scene, _: Cid, _: &Command) {
        EXECUTED.with(|c| c.set(c.get() + 1));
    }

    /// Resolve with one command from `actor` sent, and `verdict`: how many
    /// times the check ran, how many commands ran, and the refusal kept.
    fn resolve(actor: Cid, verdict: Option<Verdict>) -> (u32, u32, Option<Illegal>) {
        resolve_sent(&[actor], verdict)
    }

    /// [`resolve`] with a command from each of `actors` sent, in order.
    fn resolve_sent(actors: &[Cid], verdict: Option<Verdict>) -> (u32, u32, Option<Illegal>) {
        let mut world = World::new();
        world.init_resource::<Battle>();
        world.init_resource::<BattleLog>();
        world.init_resource::<LastRejection>();
        world.init_resource::<Messages<CommandMsg>>();
        for &actor in actors {
            world
                .resource_mut::<Messages<CommandMsg>>()
                .write(CommandMsg {
                    actor,
                    command: Command::EndTurn,
                });
        }
        CHECKED.with(|c| c.set(0));
        EXECUTED.with(|c| c.set(0));
        resolve_with(&mut world, verdict, refuse, record);
        let refused = world.resource::<LastRejection>().0.clone().map(|(_, e)| e);
        (
            CHECKED.with(Counter::get),
            EXECUTED.with(Counter::get),
            refused,
        )
    }

    #[test]
    fn the_ai_s_verdict_stands_for_the_check_of_its_command() {
        // Legal by the verdict: executed, the check not asked again.
        assert_eq!(
            resolve(Cid(3), Some(Verdict::new(Cid(3), Ok(())))),
            (0, 1, None)
        );
        // Refused by the verdict: refused for its reason, not executed.
        let why = Illegal("no".into());
        assert_eq!(
            resolve(Cid(3), Some(Verdict::new(Cid(3), Err(why.clone())))),
            (0, 0, Some(why))
        );
        // No verdict, or one about someone else's command: the check judges.
        let checked = Some(Illegal("the check refuses everything".into()));
        assert_eq!(resolve(Cid(3), None), (1, 0, checked.clone()));
        assert_eq!(
            resolve(Cid(3), Some(Verdict::new(Cid(4), Ok(())))),
            (1, 0, checked.clone())
        );
        // Nothing sent: nothing checked, run or refused.
        assert_eq!(resolve_sent(&[], None), (0, 0, None));
    }

    /// Several commands in one step (sent between steps, as a player's
    /// can be; no verdict comes with them): each is checked in turn.
    #[test]
    fn several_commands_are_each_judged_in_turn() {
        let checked = Some(Illegal("the check refuses everything".into()));
        assert_eq!(
            resolve_sent(&[Cid(1), Cid(2), Cid(1)], None),
            (3, 0, checked)
        );
    }
}
