//! brp's rules against the numbers of `../shared/rules/brp.txt`: the
//! tables and percentile rules (`tables`), and whole rounds with scripted
//! dice (`combat`, `round`).

mod combat;
mod damage;
mod mounts;
mod round;
mod tables;
mod wear;

use crate::rules::battle::Prompt;
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::engine::Engine;
use crate::rules::event::{BattleEvent, Damaged};
use crate::testkit::{Scenario, cid, cmd, prompt, since};

use super::command::{BrpCommand, Intent};
use super::event::BrpEvent;

/// An open map `w` cells wide and 3 high.
fn open(w: usize) -> Vec<String> {
    vec![".".repeat(w); 3]
}

/// A brp battle on an open map `w` wide with these combatants, humans on
/// both sides, and these dice first.
fn battle(w: usize, combatants: &[&str], script: &[u32]) -> Engine {
    let rows = open(w);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Scenario::brp(&rows).with(combatants).start(script)
}

/// Whoever is prompted states `intent`.
fn state(e: &mut Engine, who: &str, intent: Intent) {
    let c = cid(e, who);
    assert_eq!(prompt(e), Prompt::Act { actor: c }, "{who} to state");
    cmd(e, c, BrpCommand::Declare(intent));
}

/// `who` ends its turn (of statement, movement or action).
fn pass(e: &mut Engine, who: &str) {
    let c = cid(e, who);
    assert_eq!(prompt(e), Prompt::Act { actor: c }, "{who}'s turn");
    cmd(e, c, Command::EndTurn);
}

/// The brp events since `from`.
fn own(e: &Engine, from: usize) -> Vec<BrpEvent> {
    since(e, from)
        .iter()
        .filter_map(|ev| ev.own::<BrpEvent>().cloned())
        .collect()
}

/// The core's `Damaged` events since `from`: (target, rolled, hp lost, hp after).
fn damaged(e: &Engine, from: usize) -> Vec<(Cid, i32, i32, i32)> {
    since(e, from)
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::Damaged(Damaged {
                target,
                rolled,
                hp_loss,
                hp_after,
                ..
            }) => Some((*target, *rolled, *hp_loss, *hp_after)),
            _ => None,
        })
        .collect()
}

/// Attack `target` with weapon 0.
fn attack(target: Cid) -> Command {
    Command::Attack {
        target,
        weapon: 0,
        mode: 0,
    }
}

/// Round 1 up to A's action: A states an attack on B, B only parries and
/// dodges, neither moves.
fn to_a_s_rank(e: &mut Engine) {
    let b = cid(e, "B");
    state(
        e,
        "A",
        Intent::Attack {
            target: b,
            weapon: 0,
        },
    );
    state(e, "B", Intent::Defend);
    pass(e, "A");
    pass(e, "B");
}
