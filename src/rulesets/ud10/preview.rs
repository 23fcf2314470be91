//! What the UI shows before a command: UD10's own numbers for it (chance to
//! hit with every modifier by name, damage range, movement mode and cost,
//! parry odds), and the combatant sheet.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Health, Loadout, MoveMode, Weapon};
use crate::rules::event::Modifier;
use crate::rules::hooks::Preview;
use crate::rules::map::{Cell, Map};
use crate::rules::view::{self, name};
use crate::rulesets::ud10::armor::BodyZone;
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::weapon::Ud10Gear;

use super::armor::{Armor, Protection};
use super::check;
use super::harm::hp_loss;
use super::numbers::PendingAttack;
use super::query::{stats, turn};
use super::reach::{check_move, check_retreat, standard_dm};
use super::settings::Ud10Settings;

pub(super) fn signed(v: i32) -> String {
    if v < 0 {
        format!("{v}")
    } else {
        format!("+{v}")
    }
}

fn mod_lines(mods: &[Modifier]) -> Vec<String> {
    mods.iter()
        .map(|m| format!("{} {}  ({})", signed(m.value), m.name, m.rule))
        .collect()
}

/// What `command` would do; the skeleton adds why it is illegal, if it is.
pub fn preview(world: &World, actor: Cid, command: &Command) -> Preview {
    let mut p = Preview::default();
    match (command, command.own::<Ud10Command>()) {
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => attack_preview(world, actor, *target, *weapon, *mode, &mut p),
        (Command::Move { path }, _) => move_preview(world, actor, path, &mut p),
        (_, Some(Ud10Command::Retreat { path })) => {
            p.title = match check_retreat(world, actor, path) {
                Ok((_, cost)) => {
                    p.move_mode = Some(MoveMode::Retreat);
                    format!(
                        "Retreat {:.1} m: no free attacks; the whole round",
                        cost as f64 / 10.0
                    )
                }
                Err(e) => format!("Retreat: {e}"),
            };
        }
        (_, Some(Ud10Command::Parry)) | (Command::Dodge, _) => {
            reaction_preview(world, actor, command, &mut p);
            pending_damage(world, actor, &mut p);
        }
        (Command::NoReaction, _) => {
            p.title = "Take the hit".into();
            pending_damage(world, actor, &mut p);
        }
        (_, Some(Ud10Command::Aim { target, .. })) => {
            p.title = format!(
                "Aim at {}: +2 next round, +4 after two rounds; spends the action",
                name(world, *target)
            )
        }
        (_, Some(Ud10Command::Reload { weapon })) => {
            let w = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(*weapon));
            p.title = format!("Reload the {}", w.map_or("weapon", |w| &*w.name));
        }
        (Command::Draw { weapon }, _) => p.title = draw_title(world, actor, *weapon),
        (_, Some(Ud10Command::FirstAid { patient })) => {
            let n = super::first_aid::numbers(world, actor);
            p.title = format!(
                "First aid on {}: d10 {:+} vs {}, {:.0} %; brought round with 1 HP, acting from next round; spends the action",
                name(world, *patient),
                n.bonus(),
                n.difficulty,
                100.0 * n.chance()
            )
        }
        (_, Some(Ud10Command::CutFree)) => {
            p.title = "Cut yourself free of the net: spends the action".into()
        }
        (_, Some(Ud10Command::TakeCover)) => {
            p.title = "Crouch: ranged attacks at you -2 (free action)".into()
        }
        (_, Some(Ud10Command::Stand)) => p.title = "Stand up (free action)".into(),
        (_, Some(Ud10Command::Face { facing })) => {
            p.title = format!("Turn to face {} (free)", facing.name());
            p.lines.push(
                "an attack from the rear arc may come from behind: no DEX, no shield, no parry or dodge  (ud10 §Attacking: from behind, Fray decides)"
                    .into(),
            );
        }
        (Command::Flee, _) => p.title = "Flee the battle over the map's edge".into(),
        (Command::EndTurn, _) => p.title = "End the turn".into(),
        _ => p.title = "Not part of a ud10 round".into(),
    }
    p
}

/// §Movement: the mode and cost of a move, and the free attacks it draws
/// (§Optional Rule: Fleeing From Battle).
fn move_preview(world: &World, actor: Cid, path: &[Cell], p: &mut Preview) {
    let std = standard_dm(world, actor);
    let (mode, cost) = match check_move(world, actor, path) {
        Ok(m) => m,
        Err(e) => {
            p.title = format!("Move: {e}");
            return;
        }
    };
    p.move_mode = Some(mode);
    let total = turn(world, actor).moved_dm + cost;
    let mode_name = match mode {
        MoveMode::Step => "single step",
        MoveMode::Standard => "standard movement",
        MoveMode::Full => "full movement (no action this round)",
        _ => "movement",
    };
    p.title = format!(
        "Move {:.1} m: {mode_name} ({:.1} of {:.1} m this turn)",
        cost as f64 / 10.0,
        total as f64 / 10.0,
        if mode == MoveMode::Full { 2 * std } else { std } as f64 / 10.0
    );
    p.lines.push(format!(
        "standard movement 5 m + STR = {:.1} m; full movement twice that  (ud10 §Movement)",
        std as f64 / 10.0
    ));
    if let Some(&end) = path.last()
        && let Some((e, f)) = super::facing::nearest_enemy(world, actor, end)
    {
        p.lines.push(format!(
            "ends facing {} ({}), the nearest enemy; Face (T) turns another way, free  (ud10 §Attacking: from behind, Fray decides)",
            name(world, e),
            f.name()
        ));
    }
    let engaged =
        super::reach::engaged_enemies(world, actor, view::cell(world, actor).unwrap_or_default());
    if view::resource::<Ud10Settings>(world).fleeing && !engaged.is_empty() {
        let map = view::resource::<Map>(world);
        let runs: Vec<String> = engaged
            .iter()
            .filter(|e| {
                path.iter()
                    .any(|c| !super::reach::threatens(world, map, **e, *c))
            })
            .map(|e| name(world, *e))
            .collect();
        if !runs.is_empty() {
            p.lines.push(format!(
                "leaving melee: free attacks from {}  (ud10 §Optional Rule: Fleeing From Battle)",
                runs.join(", ")
            ));
        }
    }
}

/// §Parrying and Dodging: the check against the attack roll's result.
fn reaction_preview(world: &World, actor: Cid, command: &Command, p: &mut Preview) {
    let (Some(pending), Some(s)) = (
        view::resource::<PendingAttack>(world).0.clone(),
        stats(world, actor),
    ) else {
        return;
    };
    let parry = command.own() == Some(&Ud10Command::Parry);
    let (label, bonus) = match (parry, s.parry, s.dodge) {
        (true, Some(v), _) => ("Parry skill", v),
        (true, None, _) => ("untrained: DEX", s.dex),
        (_, _, Some(v)) => ("Dodge skill", v),
        _ => ("DEX", s.dex),
    };
    p.chance = Some(super::numbers::reaction_chance(bonus, pending.total));
    p.title = format!(
        "{}: d10 {} {label} must beat {}",
        if parry { "Parry" } else { "Dodge" },
        signed(bonus),
        pending.total
    );
    p.lines.push(
        "the check must be higher than the attack roll's result  (ud10 §Parrying and Dodging)"
            .into(),
    );
}

/// Drawing: the action, or part of a standard movement (§Free Actions).
fn draw_title(world: &World, actor: Cid, weapon: usize) -> String {
    let t = turn(world, actor);
    let w = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(weapon));
    match w {
        Some(w) if check::draw_as_movement(&t, w) => {
            format!("Draw the {} (part of your standard movement)", w.name)
        }
        Some(w) => format!("Draw the {} (spends the action)", w.name),
        None => "Draw".into(),
    }
}

fn attack_preview(
    world: &World,
    actor: Cid,
    target: Cid,
    weapon: usize,
    mode: usize,
    p: &mut Preview,
) {
    let Some(w) = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(weapon)) else {
        return;
    };
    let (Some(from), Some(_)) = (view::cell(world, actor), view::cell(world, target)) else {
        return;
    };
    let n = super::numbers::numbers(world, actor, from, target, w, mode, false);
    p.title = format!(
        "Attack {} with the {}{}",
        name(world, target),
        w.name,
        if w.mode_count() > 1 {
            format!(" ({})", w.mode_name(mode))
        } else {
            String::new()
        }
    );
    p.chance = Some(n.hit_chance());
    if n.defense_parts
        .iter()
        .any(|m| m.name == super::numbers::DEX_BEHIND)
    {
        p.lines.push(format!(
            "FROM BEHIND: {}'s DEX and shield do not count  ({})",
            name(world, target),
            super::numbers::RULE_FROM_BEHIND
        ));
    }
    p.lines.push(format!(
        "d10 {} = needs {} or more on the die against Defense {}",
        signed(n.bonus()),
        (n.defense - n.bonus()).max(1),
        n.defense
    ));
    p.lines.extend(mod_lines(&n.modifiers));
    p.lines.push(format!(
        "Defense {} = {}",
        n.defense,
        n.defense_parts
            .iter()
            .map(|m| if m.value == 0 {
                m.name.to_string()
            } else {
                format!("{} {}", signed(m.value), m.name)
            })
            .collect::<Vec<_>>()
            .join(", ")
    ));
    // What the target may answer a hit with, said only where it may.
    let (parry, dodge) = check::reactions_open(world, target, n.ranged, n.dex_counts);
    let who = name(world, target);
    let line = match (&parry, &dodge) {
        (Ok(()), Ok(())) => format!("{who} may parry or dodge a hit (a roll above the attack's)"),
        (Ok(()), Err(_)) => format!("{who} may parry a hit (a roll above the attack's)"),
        (Err(_), Ok(())) => format!("{who} may dodge a hit (a roll above the attack's)"),
        (Err(p), Err(d)) => crate::rulesets::ud10::event::cannot_react(&who, p, d),
    };
    p.lines
        .push(format!("{line}  (ud10 §Parrying and Dodging)"));
    damage_preview(world, target, w, mode, p);
}

/// The stakes of a reaction: what the pending hit would do to `target`.
fn pending_damage(world: &World, target: Cid, p: &mut Preview) {
    let Some(pending) = view::resource::<super::numbers::PendingAttack>(world)
        .0
        .clone()
    else {
        return;
    };
    if pending.target != target {
        return;
    }
    if let Some(w) =
        view::get::<Loadout>(world, pending.attacker).and_then(|l| l.weapons.get(pending.weapon))
    {
        damage_preview(world, target, w, pending.mode, p);
        let out = chance_down(world, target, w, pending.mode);
        if let Some((lo, hi)) = p.damage {
            p.stakes = Some(format!(
                "If the blow lands: {lo}-{hi} HP, {:.0}% to take {} out (HP {})",
                out * 100.0,
                name(world, target),
                view::get::<Health>(world, target).map_or(0, |h| h.hp)
            ));
        }
    }
}

/// The chance a blow of `w` in `mode` that lands takes `target` out of the
/// fight (§Summary: Taking Damage, and Fray's knock-out and death
/// thresholds: docs/rulesets/ud10.md): over the damage code's totals (tens
/// exploding, two rolls deep) and the body zone's die.
pub fn chance_down(world: &World, target: Cid, w: &Weapon, mode: usize) -> f64 {
    let s = view::resource::<Ud10Settings>(world);
    let Some(h) = view::get::<Health>(world, target) else {
        return 0.0;
    };
    let armor = view::get::<Armor>(world, target)
        .cloned()
        .unwrap_or_default();
    // "01: head 02: left arm 03: right arm 04-06: trunk 7/8: left leg
    // 9/10: right leg", or the armor averaged.
    let zones: Vec<(Protection, f64)> = if s.body_zones {
        (1..=10)
            .map(|d| (armor.zone(super::harm::body_zone(d)), 0.1))
            .collect()
    } else {
        vec![(armor.averaged(), 1.0)]
    };
    let con = stats(world, target).map_or(0, |t| t.con);
    let pen = w.ud10().penetration;
    let mut out = 0.0;
    for (rolled, q) in w.mode_damage(mode).distribution(None, Some(10), 2) {
        for (prot, zq) in &zones {
            let (ep_loss, hp_loss) = super::harm::losses(rolled, *prot, pen, con, s);
            let (hp, ep) = (h.hp - hp_loss, h.ep - ep_loss);
            let down = hp <= s.unconscious_at_hp
                || hp <= s.dead_at_hp
                || (h.ep_max > 0 && ep <= 0 && s.ep_zero == super::settings::EpZero::Unconscious);
            if down {
                out += q * zq;
            }
        }
    }
    out.min(1.0)
}

/// §Summary: Taking Damage: the damage code's range, then what armor,
/// buffer and CON leave of it, over the body zones' protection (or the
/// averaged armor).
fn damage_preview(world: &World, target: Cid, w: &Weapon, mode: usize, p: &mut Preview) {
    let s = view::resource::<Ud10Settings>(world);
    let expr = w.mode_damage(mode);
    let armor = view::get::<Armor>(world, target)
        .cloned()
        .unwrap_or_default();
    let prots: Vec<Protection> = if s.body_zones {
        BodyZone::ALL.iter().map(|z| armor.zone(*z)).collect()
    } else {
        vec![armor.averaged()]
    };
    let con = stats(world, target).map_or(0, |t| t.con);
    let lo = prots
        .iter()
        .map(|pr| hp_loss(expr.min(None), *pr, w.ud10().penetration, con, s))
        .min()
        .unwrap_or(0);
    let hi = prots
        .iter()
        .map(|pr| hp_loss(expr.max(None), *pr, w.ud10().penetration, con, s))
        .max()
        .unwrap_or(0);
    p.damage = Some((lo, hi));
    p.lines.push(format!(
        "damage {} ({}-{}, tens explode) -> {}-{} HP after armor{}, CON  (ud10 §Summary: Taking Damage)",
        expr,
        expr.min(None),
        expr.max(None),
        lo,
        hi,
        if s.buffer { ", buffer" } else { "" }
    ));
}
