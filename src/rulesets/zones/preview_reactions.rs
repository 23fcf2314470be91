//! What zones' reactions would do (§Reacting to an attack): the odds of a
//! dodge, a counter's blows, hiding behind, guarding, opportunity strikes,
//! and the stakes of each: the blow that lands if the reaction fails or is
//! not taken. Reads only.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout, Weapon};
use crate::rules::hooks::Preview;
use crate::rules::view::{self, name};
use crate::rulesets::zones::command::ZonesCommand;

use super::maneuvers::holder;
use super::numbers::damage_odds;
use super::query::{save_chance, stats};
use super::state::Pending;

/// The stakes of a reaction: what the pending blow would do to `actor`
/// (its damage after armour and size, and the chance it takes it out).
pub(super) fn incoming(world: &World, actor: Cid, attacker: Option<Cid>, p: &mut Preview) {
    let Some(a) = attacker else { return };
    let Some(state) = view::resource::<Pending>(world).attack.clone() else {
        return;
    };
    if state.maneuver.is_some() || state.target != actor {
        return;
    }
    let Some(w) = view::get::<Loadout>(world, a).and_then(|l| l.weapons.get(state.weapon)) else {
        return;
    };
    let o = damage_odds(world, a, actor, w, state.mode);
    p.damage = Some((o.least, o.most));
    // §Taking a turn: "A reaction takes the whole turn".
    let me = name(world, actor);
    p.stakes = Some(format!(
        "If the blow lands: {}-{} damage, {:.0}% to take {me} out. Any reaction takes {me}'s turn this round.",
        o.least,
        o.most,
        o.p_down * 100.0
    ));
    p.lines.push(format!(
        "the blow, if it lands: {}-{} damage to you, {:.0}% to take you out",
        o.least,
        o.most,
        o.p_down * 100.0
    ));
}

pub(super) fn preview_dodge(world: &World, actor: Cid, p: &mut Preview) {
    let agi = stats(world, actor).map_or(0, |s| s.agi);
    p.title = format!("Dodge: AGI save under {agi}");
    p.chance = Some(save_chance(world, agi));
    p.lines
        .push("a reaction takes the whole turn  (zones §Reacting to an attack)".into());
}

pub(super) fn preview_counter(
    world: &World,
    actor: Cid,
    attacker: Option<Cid>,
    p: &mut Preview,
    command: &Command,
) {
    let Some(ZonesCommand::Counter { weapon }) = command.own::<ZonesCommand>() else {
        return;
    };
    if let (Some(a), Some(w)) = (
        attacker,
        view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(*weapon)),
    ) {
        let o = damage_odds(world, actor, a, w, 0);
        // The odds on the button itself: what the counter deals, and how
        // likely it is to take the attacker out.
        p.title = format!(
            "Counter {} {} (deals {}-{}, {:.0}% to take them out)",
            name(world, a),
            with_weapon(w),
            o.least,
            o.most,
            o.p_down * 100.0
        );
        p.lines.push(format!(
            "both roll damage; whoever suffers more is hit first (yours: {}-{}, {:.1} on average, {:.0}% to take {} out)",
            o.least,
            o.most,
            o.mean,
            o.p_down * 100.0,
            name(world, a)
        ));
        p.lines
            .push("a reaction takes the whole turn  (zones §Reacting to an attack)".into());
    }
}

pub(super) fn preview_hide_behind(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::HideBehind { who }) = command.own::<ZonesCommand>() else {
        return;
    };
    p.title = format!(
        "Hide behind {}: swap places, they become the target",
        name(world, *who)
    );
    if holder(world, *who) == Some(actor) {
        p.lines
            .push("an enemy you hold: it cannot react  (zones §Non-lethal attacks)".into());
    }
}

pub(super) fn preview_guard(world: &World, p: &mut Preview) {
    let target = view::resource::<Pending>(world)
        .attack
        .as_ref()
        .map(|s| s.target);
    p.title = format!(
        "Guard {}: become the target instead",
        target.map_or("?".to_string(), |t| name(world, t))
    );
}

pub(super) fn preview_opportunity(
    world: &World,
    actor: Cid,
    attacker: Option<Cid>,
    p: &mut Preview,
    command: &Command,
) {
    let Some(ZonesCommand::Opportunity { weapon }) = command.own::<ZonesCommand>() else {
        return;
    };
    if let (Some(a), Some(w)) = (
        attacker,
        view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(*weapon)),
    ) {
        p.title = format!(
            "Opportunity attack on {} with the {}",
            name(world, a),
            w.name
        );
        let mean = damage_odds(world, actor, a, w, 0).mean;
        p.lines
            .push(format!("{mean:.1} damage on average; takes your turn"));
    }
}

pub(super) fn preview_no_reaction(world: &World, p: &mut Preview) {
    let stunt = view::resource::<Pending>(world)
        .attack
        .as_ref()
        .is_some_and(|a| a.stage == super::state::Stage::Stunt);
    p.title = if stunt {
        "Refuse the offer and face the attack".into()
    } else {
        "No reaction".into()
    };
}

/// "with the Sword", or "bare-handed" for fists and feet.
pub(super) fn with_weapon(w: &Weapon) -> String {
    if &*w.id == "unarmed" {
        "bare-handed".to_string()
    } else {
        format!("with the {}", w.name)
    }
}
