//! What a command would do under zones, in the rules' own numbers, for the
//! UI to show before the player commits; and the character sheet.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Loadout, Weapon};
use crate::rules::hooks::Preview;
use crate::rules::map::{Cell, Map};
use crate::rules::view::{self, name};
use crate::rulesets::zones::command::{Influence, Maneuver, ZonesCommand};
use crate::rulesets::zones::weapon::ZonesGear;

use super::maneuvers::{may_resist, shove_end, size_difference};
use super::modes::{MODE_DEATH_BLOW, is_stunt};
use super::numbers::damage_odds;
use super::preview_procedure::preview_procedure;
use super::preview_reactions::{
    incoming, preview_counter, preview_dodge, preview_guard, preview_hide_behind,
    preview_no_reaction, preview_opportunity, with_weapon,
};
use super::query::{
    armor, blast_targets, critical_threshold, save_chance, stats, stunt_effect, wit_save_reason,
    zone, zone_distance,
};
use super::reach::{check_move, mode_after};
use super::state::{Pending, ZonesRound};
use super::stats::PowerEffect;

/// What `command` would do; the skeleton adds why it is illegal, if it is.
pub fn preview(world: &World, actor: Cid, command: &Command) -> Preview {
    let mut p = Preview::default();
    if preview_procedure(world, actor, command, &mut p) {
        lets_go(world, actor, command, &mut p);
        return p;
    }
    let attacker = match view::resource::<Battle>(world).prompt {
        Prompt::React { attacker, .. } => Some(attacker),
        _ => None,
    };
    match (command, command.own::<ZonesCommand>()) {
        (Command::Move { .. }, _) => preview_move(world, actor, &mut p, command),
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => attack(world, actor, *target, *weapon, *mode, &mut p),
        (Command::Dodge, _) => {
            preview_dodge(world, actor, &mut p);
            incoming(world, actor, attacker, &mut p);
        }
        (_, Some(ZonesCommand::Counter { .. })) => {
            preview_counter(world, actor, attacker, &mut p, command);
            incoming(world, actor, attacker, &mut p);
        }
        (_, Some(ZonesCommand::HideBehind { .. })) => {
            preview_hide_behind(world, actor, &mut p, command)
        }
        (_, Some(ZonesCommand::Guard)) => preview_guard(world, &mut p),
        (_, Some(ZonesCommand::Opportunity { .. })) => {
            preview_opportunity(world, actor, attacker, &mut p, command)
        }
        (Command::NoReaction, _) => {
            preview_no_reaction(world, &mut p);
            incoming(world, actor, attacker, &mut p);
        }
        (_, Some(ZonesCommand::Hide)) => {
            p.title = "Hide: spends the main action; concealed until you attack, run or an enemy in your zone sees you".into();
        }
        (_, Some(ZonesCommand::Surrender)) => {
            p.title = "Surrender: the turn is wasted, but the enemy may spare you".into();
        }
        (Command::Flee, _) => p.title = "Leave the fight over the map's edge".into(),
        (Command::EndTurn, _) => p.title = "End the turn".into(),
        (_, Some(ZonesCommand::Maneuver { target, kind })) => {
            maneuver(world, actor, *target, *kind, &mut p)
        }
        (_, Some(ZonesCommand::CounterManeuver { .. })) => {
            preview_counter_maneuver(world, actor, attacker, &mut p, command)
        }
        (_, Some(ZonesCommand::SplitAttack { .. })) => {
            preview_split_attack(world, actor, &mut p, command)
        }
        (_, Some(ZonesCommand::BreakFree)) => preview_break_free(world, actor, &mut p),
        (_, Some(ZonesCommand::FreeAlly { .. })) => {
            preview_free_ally(world, actor, &mut p, command)
        }
        (_, Some(ZonesCommand::Accept)) => preview_accept(world, &mut p),
        (_, Some(ZonesCommand::Influence { target, kind })) => {
            preview_influence(world, *target, *kind, &mut p)
        }
        (_, Some(ZonesCommand::UseItem { item, on })) => {
            preview_use_item(world, actor, *item, *on, &mut p)
        }
        (_, Some(ZonesCommand::Invoke { power, target })) => {
            preview_invoke(world, actor, *power, *target, &mut p)
        }
        _ => p.title = "Not part of a zones turn".into(),
    }
    lets_go(world, actor, command, &mut p);
    p
}

/// Holding someone in a grab: say so before an action lets go of them
/// (§Non-lethal attacks: "any other action frees the grabbed").
fn lets_go(world: &World, actor: Cid, command: &Command, p: &mut Preview) {
    if let Some(held) = view::holding(world, actor)
        && !super::maneuvers::keeps_hold(world, actor, held, command)
    {
        p.lines.push(format!(
            "this lets go of {}  (zones §Non-lethal attacks: any other action frees the grabbed)",
            name(world, held)
        ));
    }
}

fn preview_move(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Command::Move { path } = command else {
        return;
    };
    let start = view::cell(world, actor);
    p.title = format!(
        "Move to {}",
        path.last().map_or(String::from("?"), |c| c.to_string())
    );
    if let (Ok(zones), Some(_)) = (check_move(world, actor, path), start) {
        let mode = mode_after(world, actor, zones);
        p.move_mode = Some(mode);
        let t = &view::resource::<ZonesRound>(world).turn;
        // Getting on or off a mount counts half a zone.
        let halves = 2 * (t.zones + zones) + t.halves;
        let half = stats(world, actor).map_or(1, |s| s.half_speed());
        p.lines.push(format!(
            "{zones} zone{} ({}{} this turn; half speed {half})",
            if zones == 1 { "" } else { "s" },
            halves / 2,
            if halves % 2 == 1 { "½" } else { "" }
        ));
        if mode == crate::rules::components::MoveMode::Full {
            p.lines
                .push("beyond half speed: no actions this turn  (zones §Taking a turn)".into());
        }
        if let Some(z) = path
            .last()
            .and_then(|c| view::resource::<Map>(world).zone_of(*c))
            .and_then(|z| {
                view::resource::<Map>(world)
                    .zones()
                    .get(z)
                    .map(|z| z.name.clone())
            })
        {
            p.title = format!("Move to {z}");
        }
    }
}

fn preview_counter_maneuver(
    world: &World,
    actor: Cid,
    attacker: Option<Cid>,
    p: &mut Preview,
    command: &Command,
) {
    let Some(ZonesCommand::CounterManeuver { kind }) = command.own::<ZonesCommand>() else {
        return;
    };
    if let Some(a) = attacker {
        maneuver(world, actor, a, *kind, p);
        p.title = format!("Counter: {}", p.title);
        p.lines.push(
            "resolved after a blow; after their non-lethal attack if theirs is one too  (zones §Non-lethal attacks)"
                .into(),
        );
    }
}

fn preview_split_attack(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::SplitAttack { weapon, shares }) = command.own::<ZonesCommand>() else {
        return;
    };
    let w = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(*weapon));
    let parts: Vec<String> = shares
        .iter()
        .map(|(t, d)| {
            format!(
                "{} {d} {}",
                name(world, *t),
                if *d == 1 { "die" } else { "dice" }
            )
        })
        .collect();
    p.title = format!(
        "Share the {} among {}",
        w.map_or("weapon", |w| &*w.name),
        parts.join(", ")
    );
    if let Some(w) = w {
        for (t, d) in shares {
            let o = super::numbers::split_odds(world, actor, *t, w, *d);
            p.lines.push(format!(
                "{}: {}-{} damage, {:.0}% to take them out",
                name(world, *t),
                o.least,
                o.most,
                o.p_down * 100.0
            ));
        }
    }
    p.lines.push(
        "one attack on several smaller targets; only one of them may counter  (zones §Effects of size in combat)"
            .into(),
    );
}

fn preview_break_free(world: &World, actor: Cid, p: &mut Preview) {
    let str_ = stats(world, actor).map_or(0, |s| s.str);
    p.title = format!("Break free: STR save under {str_}");
    p.chance = Some(save_chance(world, str_));
    p.lines
        .push("takes the whole turn, pass or fail  (zones §Non-lethal attacks)".into());
}

fn preview_free_ally(world: &World, actor: Cid, p: &mut Preview, command: &Command) {
    let Some(ZonesCommand::FreeAlly { who }) = command.own::<ZonesCommand>() else {
        return;
    };
    let str_ = stats(world, actor).map_or(0, |s| s.str);
    p.title = format!("Pull {} free: STR save under {str_}", name(world, *who));
    p.chance = Some(save_chance(world, str_));
    p.lines
        .push("a main action  (zones §Non-lethal attacks)".into());
}

fn preview_accept(world: &World, p: &mut Preview) {
    let effect = view::resource::<Pending>(world)
        .attack
        .as_ref()
        .map_or("", |s| stunt_effect(s.mode));
    p.title = format!("Accept: {effect}");
    p.lines
        .push("no damage, and no reaction  (zones §Attack stunts)".into());
}

fn attack(world: &World, actor: Cid, target: Cid, weapon: usize, mode: usize, p: &mut Preview) {
    let Some(w) = view::get::<Loadout>(world, actor)
        .and_then(|l| l.weapons.get(weapon))
        .cloned()
    else {
        return;
    };
    p.title = format!("Attack {} {}", name(world, target), with_weapon(&w));
    if mode != 0 {
        p.title.push_str(&format!(" ({})", w.mode_name(mode)));
    }
    if mode == MODE_DEATH_BLOW {
        p.lines
            .push("kills a nearby incapacitated target  (zones §Attacking)".into());
        return;
    }
    if super::query::mounted(world, actor) {
        p.lines.push(
            "from the saddle: impaired damage, a d4  (zones §Mounts and vehicles in combat)".into(),
        );
    }
    if is_stunt(mode) {
        p.lines.push(format!(
            "offer: {} instead; if refused, a normal attack  (zones §Attack stunts)",
            stunt_effect(mode)
        ));
    }
    if w.zones().blast {
        blast_lines(world, actor, target, &w, p);
    }
    p.chance = Some(match wit_save_reason(world, actor, target, &w, false) {
        Some(why) => {
            let wit = stats(world, actor).map_or(0, |s| s.wit);
            p.lines.push(format!("WIT save under {wit} {why}"));
            save_chance(world, wit)
        }
        None => {
            p.lines
                .push("hits automatically (unless the target reacts)".into());
            1.0
        }
    });
    if let Some(d) = zone_distance(world, actor, target)
        && w.is_ranged()
    {
        p.lines
            .push(format!("{d} zones away, range {}", w.zones().range_zones));
    }
    let (arm, parts) = armor(world, actor, target, &w);
    let odds = damage_odds(world, actor, target, &w, mode);
    p.damage = Some((odds.least, odds.most));
    p.lines
        .push(format!("damage {}, armour {arm}", w.mode_damage(mode)));
    for m in parts {
        p.lines
            .push(format!("  {} {}  ({})", m.name, m.value, m.rule));
    }
    p.lines.push(format!(
        "{:.1} on average; {:.0}% to take them out (critical at {})",
        odds.mean,
        odds.p_down * 100.0,
        critical_threshold(world, target)
    ));
}

/// §Blast attacks: whom the blast would hit, and where a miss strays.
fn blast_lines(world: &World, actor: Cid, target: Cid, w: &Weapon, p: &mut Preview) {
    let z = if w.is_ranged() {
        zone(world, target)
    } else {
        zone(world, actor)
    };
    let Some(z) = z else { return };
    let hit = blast_targets(world, actor, z, w.is_ranged());
    let names: Vec<String> = hit.iter().map(|c| name(world, *c)).collect();
    p.lines.push(format!(
        "blast: hits {}  (zones §Blast attacks)",
        names.join(", ")
    ));
    if w.is_ranged() {
        p.lines
            .push("on a miss it strays into a random neighbouring zone".into());
    }
}

fn maneuver(world: &World, actor: Cid, target: Cid, kind: Maneuver, p: &mut Preview) {
    let what = match kind {
        Maneuver::Disarm { weapon } => format!(
            "Disarm {}: the {}",
            name(world, target),
            view::get::<Loadout>(world, target)
                .and_then(|l| l.weapons.get(weapon))
                .map_or("weapon", |w| &*w.name)
        ),
        Maneuver::Shove => format!("Shove {}", name(world, target)),
        Maneuver::Grapple => format!("Grab {}", name(world, target)),
    };
    p.title = what;
    // §Taking a turn: "Attacking an enemy is a main action", a non-lethal
    // one too.
    p.lines
        .push("spends the main action  (zones §Taking a turn)".into());
    if may_resist(world, actor, target) {
        let str_ = stats(world, target).map_or(0, |s| s.str);
        let resist = save_chance(world, str_);
        p.chance = Some(1.0 - resist);
        p.lines
            .push(format!("they resist with a STR save under {str_}"));
    } else {
        p.chance = Some(1.0);
        p.lines
            .push("smaller: no STR save to resist  (zones §Effects of size in combat)".into());
    }
    match kind {
        Maneuver::Shove => {
            let (end, pit) = shove_end(world, actor, target);
            if view::cell(world, target) != Some(end) {
                p.lands.push(end);
            }
            if pit.is_some() {
                p.lines.push("pushed into the pit!".into());
            } else {
                // Where it ends up, as a player reads the map: how far, and
                // the zone, if it leaves its own.
                let map = view::resource::<Map>(world);
                let from = view::cell(world, target);
                let cells = from.map_or(0, |f| (end.x - f.x).abs().max((end.y - f.y).abs()));
                let zone_name = |c: Cell| {
                    map.zone_of(c)
                        .and_then(|z| map.zones().get(z))
                        .map(|z| z.name.clone())
                };
                let into = match (from.and_then(|f| map.zone_of(f)), map.zone_of(end)) {
                    (a, b) if a != b => zone_name(end).map(|n| format!(", into {n}")),
                    _ => None,
                };
                p.lines.push(match cells {
                    0 => "pushed nowhere: something stands behind it".to_string(),
                    1 => format!("pushed back 1 cell{}", into.unwrap_or_default()),
                    n => format!("pushed back {n} cells{}", into.unwrap_or_default()),
                });
            }
            if size_difference(world, actor, target) > 0 {
                p.lines.push("larger: d4 direct damage too".into());
            }
        }
        Maneuver::Grapple => p.lines.push(
            "held: it can only try to break free; you keep hold moving, disarming or striking one-handed"
                .into(),
        ),
        Maneuver::Disarm { .. } => p.lines.push(
            "dropped; with a free hand you take it".into(),
        ),
    }
}

/// §Taking a turn, main actions: words (Fray decides what each does).
fn preview_influence(world: &World, target: Cid, kind: Influence, p: &mut Preview) {
    let who = name(world, target);
    let pct = 100.0 * super::influence::p_swayed(world, target);
    p.title = match kind {
        Influence::Intimidate => format!(
            "Intimidate {who}: {pct:.0} % it breaks (surrenders or flees); if it holds, it is steadfast"
        ),
        Influence::Distract => {
            format!("Distract {who}: {pct:.0} % it cannot react for the rest of the round")
        }
        Influence::Taunt => {
            format!("Taunt {who}: {pct:.0} % it may attack only you until the end of its next turn")
        }
    };
    let wit = super::query::stats(world, target).map_or(0, |s| s.wit);
    p.lines.push(format!(
        "its WIT save, d20 under {wit}; spends your main action; talking reveals you if hidden  (zones §Taking a turn)"
    ));
}

/// "using a consumable item (a medicine box ...)".
fn preview_use_item(world: &World, actor: Cid, item: usize, on: Cid, p: &mut Preview) {
    let Some(i) = super::query::stats(world, actor).and_then(|s| s.items.get(item)) else {
        return;
    };
    let h = view::get::<crate::rules::components::Health>(world, on).copied();
    let room = h.map_or(0, |h| (h.hp_max - h.hp).max(0));
    let target = if on == actor {
        "yourself".to_string()
    } else {
        name(world, on)
    };
    p.title = format!(
        "Use the {} on {target}: heals {} (at most {room})",
        i.name, i.heals
    );
    if view::conditions(world, on).has(Condition::Incapacitated) {
        p.lines
            .push("back on its feet if its health rises above 0, with no turn this round".into());
    }
    p.lines.push(format!(
        "spends your main action; {} use{} left",
        i.uses,
        if i.uses == 1 { "" } else { "s" }
    ));
}

/// §Taking a turn: "invoking a profane power" (Fray decides what powers do).
fn preview_invoke(world: &World, actor: Cid, power: usize, target: Cid, p: &mut Preview) {
    let Some(k) = super::query::stats(world, actor).and_then(|s| s.powers.get(power)) else {
        return;
    };
    let who = if target == actor {
        "yourself".to_string()
    } else {
        name(world, target)
    };
    let pct = 100.0 * super::influence::p_swayed(world, target);
    p.title = match &k.effect {
        PowerEffect::Harm(d) => format!(
            "Invoke {} at {who}: {pct:.0} % it takes {d} (no armour, no reaction)",
            k.name
        ),
        PowerEffect::Terrify => format!(
            "Invoke {} at {who}: {pct:.0} % it breaks (surrenders or flees)",
            k.name
        ),
        PowerEffect::Daze => format!(
            "Invoke {} at {who}: {pct:.0} % it cannot react for the rest of the round",
            k.name
        ),
        PowerEffect::Mend(d) => format!("Invoke {} on {who}: heals {d}", k.name),
    };
    if k.effect.hostile() {
        let wit = super::query::stats(world, target).map_or(0, |s| s.wit);
        p.lines
            .push(format!("its WIT save, d20 under {wit}, resists it"));
    }
    p.lines.push(format!(
        "spends your main action and reveals you if hidden; {} invocation{} left",
        k.uses,
        if k.uses == 1 { "" } else { "s" }
    ));
}
