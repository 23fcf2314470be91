//! What the round's procedure and a turn's lesser moves would do, for
//! `preview.rs`: taking, handing over or keeping a turn, passing, giving
//! the first turn away, getting on and off, picking up, drawing. Reads
//! only.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::hooks::Preview;
use crate::rules::roster::Factions;
use crate::rules::view::{self, name};
use crate::rulesets::zones::command::ZonesCommand;

use super::query::{save_chance, stats};

/// What `command` would do if it is one of the round's procedure or a
/// turn's lesser moves; false: it is none of them.
pub(super) fn preview_procedure(
    world: &World,
    actor: Cid,
    command: &Command,
    p: &mut Preview,
) -> bool {
    match (command, command.own::<ZonesCommand>()) {
        (_, Some(ZonesCommand::Activate { .. })) => preview_activate(world, p, command),
        (_, Some(ZonesCommand::Mount { .. })) => preview_mount(world, actor, p, command),
        (_, Some(ZonesCommand::Dismount { .. })) => preview_dismount(world, actor, p, command),
        (_, Some(ZonesCommand::PickUp { .. })) => preview_pick_up(world, p, command),
        (_, Some(ZonesCommand::Reserve)) => preview_reserve(p),
        (_, Some(ZonesCommand::Pass)) => preview_pass(p),
        (_, Some(ZonesCommand::FirstTurnTo { .. })) => preview_first_turn_to(world, p, command),
        (Command::Draw { .. }, _) => preview_draw(world, actor, p, command),
        _ => return false,
    }
    true
}

/// §Combat procedure: passing keeps everyone's turn for later.
fn preview_pass(p: &mut Preview) {
    p.title = "Pass: keep everyone's turn for later (or for reactions)".into();
    p.lines
        .push("when all factions pass in a row, the round ends  (zones §Combat procedure)".into());
}

fn preview_activate(world: &World, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::Activate { who }) = command.own::<ZonesCommand>() else {
        return;
    };
    if matches!(view::resource::<Battle>(world).prompt, Prompt::Act { .. }) {
        p.title = format!("Give the turn to {}", name(world, *who));
        p.lines.push(
            "a mount and its riders take their turn together; you can take it back  (zones §Mounts and vehicles in combat)"
                .into(),
        );
    } else {
        p.title = format!("{} takes the turn", name(world, *who));
        let pair = super::turns::pair(world, *who);
        if pair.len() > 1 {
            let names: Vec<String> = pair.iter().map(|c| name(world, *c)).collect();
            p.lines.push(format!(
                "together with its pair: {}  (zones §Mounts and vehicles in combat)",
                names.join(", ")
            ));
        }
    }
}

fn preview_mount(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::Mount { mount }) = command.own::<ZonesCommand>() else {
        return;
    };
    p.title = format!("Get on {}", name(world, *mount));
    p.lines.push(
        "counts as moving half a zone; your attacks from the saddle are impaired  (zones §Mounts and vehicles in combat)"
            .into(),
    );
    if super::turns::moving(world, *mount) {
        let agi = stats(world, actor).map_or(0, |s| s.agi);
        p.chance = Some(save_chance(world, agi));
        p.lines.push(format!(
            "it is moving: AGI save under {agi}, or fall for d4 direct damage"
        ));
    }
}

fn preview_dismount(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::Dismount { to }) = command.own::<ZonesCommand>() else {
        return;
    };
    p.title = format!("Get off onto {to}");
    p.lines
        .push("counts as moving half a zone  (zones §Mounts and vehicles in combat)".into());
    if let Some(m) = view::riding(world, actor)
        && super::turns::moving(world, m)
    {
        let agi = stats(world, actor).map_or(0, |s| s.agi);
        p.chance = Some(save_chance(world, agi));
        p.lines.push(format!(
            "the mount is moving: AGI save under {agi}, or d4 direct damage"
        ));
    }
}

fn preview_pick_up(world: &World, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::PickUp { item }) = command.own::<ZonesCommand>() else {
        return;
    };
    let what = view::resource::<crate::rules::battle::Ground>(world)
        .0
        .get(*item)
        .map_or(String::new(), |(_, w)| String::from(&*w.name));
    p.title = format!("Pick up the {what} and hold it");
    p.lines
        .push("a bonus action  (zones §Taking a turn)".into());
}

fn preview_reserve(p: &mut Preview) {
    p.title = "Keep this turn to react".into();
    p.lines.push(
        "do nothing now; dodge, counter or guard later this round  (zones §Mounts and vehicles in combat)"
            .into(),
    );
}

fn preview_first_turn_to(world: &World, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::FirstTurnTo { faction }) = command.own::<ZonesCommand>() else {
        return;
    };
    let f = view::resource::<Factions>(world)
        .0
        .get(*faction as usize)
        .map_or("?".to_string(), |f| f.name.clone());
    p.title = format!("Let {f} act first");
}

fn preview_draw(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Command::Draw { weapon } = command else {
        return;
    };
    let w = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(*weapon));
    p.title = format!(
        "Take the {} in hand (spends the bonus action)",
        w.map_or("weapon", |w| &*w.name)
    );
}
