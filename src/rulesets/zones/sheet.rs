//! The zones sheet of a character, as the side panel shows it: attributes,
//! armour and its wear, speed, health and the critical threshold, mounts and
//! riders, weapons, whether its turn is taken. Reads only.

use bevy::prelude::*;

use crate::rules::components::{Cid, Condition, Health, Loadout, Size, TurnState, Weapon};
use crate::rules::event::{BattleEvent, ConditionAdded, Damaged, RoundStarted};
use crate::rules::log::BattleLog;
use crate::rules::view::{self, name};
use crate::rulesets::zones::stats::ZonesStats;
use crate::rulesets::zones::weapon::ZonesGear;

use super::query::{critical_threshold, stats};
use super::state::RULE_STUNT;

/// What put `cid` down, from the battle log: the blow (its size against
/// the critical threshold, or the health it left), or the stunt it gave in
/// to, and the round.
fn how_it_went_down(world: &World, cid: Cid) -> String {
    let events = &view::resource::<BattleLog>(world).events;
    let Some(at) = events.iter().rposition(|e| {
        matches!(e, BattleEvent::ConditionAdded(ConditionAdded { who, condition: Condition::Incapacitated, .. }) if *who == cid)
    }) else {
        return "down and helpless".into();
    };
    let round = events[..at]
        .iter()
        .rev()
        .find_map(|e| match e {
            BattleEvent::RoundStarted(RoundStarted { round }) => Some(*round),
            _ => None,
        })
        .unwrap_or(0);
    if let BattleEvent::ConditionAdded(ConditionAdded { rule, .. }) = &events[at]
        && *rule == RULE_STUNT
    {
        return format!("down since round {round}: it gave in to an attack stunt");
    }
    let blow = events[..at].iter().rev().find_map(|e| match e {
        BattleEvent::Damaged(Damaged {
            target,
            by,
            hp_loss,
            hp_after,
            ..
        }) if *target == cid => Some((*by, *hp_loss, *hp_after)),
        _ => None,
    });
    match blow {
        Some((by, loss, after)) => {
            let from = by.map_or(String::new(), |b| format!(" from {}", name(world, b)));
            if after <= 0 {
                format!("down since round {round}: a blow of {loss}{from} ran its health out")
            } else {
                format!(
                    "down since round {round}: a blow of {loss}{from}, critical damage (half \
                     its health: {} or more)",
                    critical_threshold(world, cid)
                )
            }
        }
        None => format!("down since round {round}"),
    }
}

/// The zones sheet of `cid`.
pub fn sheet(world: &World, cid: Cid) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(s) = stats(world, cid) {
        stat_rows(world, cid, s, &mut out);
    }
    body_rows(world, cid, &mut out);
    steed_rows(world, cid, &mut out);
    gear_rows(world, cid, &mut out);
    round_rows(world, cid, &mut out);
    out
}

/// Health and its critical threshold, how it went down if it is
/// incapacitated, its size when not medium.
fn body_rows(world: &World, cid: Cid, out: &mut Vec<(String, String)>) {
    if let Some(h) = view::get::<Health>(world, cid) {
        out.push((
            "Health".into(),
            format!(
                "{}/{}  (critical: {} in one hit)",
                h.hp,
                h.hp_max,
                critical_threshold(world, cid)
            ),
        ));
    }
    if view::conditions(world, cid).has(Condition::Incapacitated) {
        out.push((
            "Incapacitated".into(),
            format!(
                "{}; it cannot act or react, and a nearby enemy can finish it with a death \
                 blow",
                how_it_went_down(world, cid)
            ),
        ));
    }
    let size = view::get::<Size>(world, cid).copied().unwrap_or_default();
    if size != Size::Medium {
        out.push(("Size".into(), format!("{size:?}")));
    }
}

/// Its weapons (not a vehicle's), items and profane powers, with the uses
/// left.
fn gear_rows(world: &World, cid: Cid, out: &mut Vec<(String, String)>) {
    let vehicle = super::turns::is_vehicle(world, cid);
    if let Some(l) = view::get::<Loadout>(world, cid).filter(|_| !vehicle) {
        for (i, w) in l.weapons.iter().enumerate() {
            out.push((String::from(&*w.name), weapon_line(w, l.ready == Some(i))));
        }
    }
    if let Some(s) = stats(world, cid) {
        for i in &s.items {
            out.push((
                i.name.clone(),
                format!(
                    "heals {}; {} use{} left (main action)",
                    i.heals,
                    i.uses,
                    if i.uses == 1 { "" } else { "s" }
                ),
            ));
        }
        for k in &s.powers {
            let what = match &k.effect {
                super::stats::PowerEffect::Harm(d) => {
                    format!("{d} direct damage, WIT save resists")
                }
                super::stats::PowerEffect::Terrify => "breaks the target, WIT save resists".into(),
                super::stats::PowerEffect::Daze => {
                    "no reactions this round, WIT save resists".into()
                }
                super::stats::PowerEffect::Mend(d) => format!("heals {d} nearby"),
            };
            out.push((
                k.name.clone(),
                format!(
                    "{what}; reach {} zone{}; {} left (main action)",
                    k.range,
                    if k.range == 1 { "" } else { "s" },
                    k.uses
                ),
            ));
        }
    }
}

/// This round: whether it is distracted or taunted (§Taking a turn, main
/// actions) and, standing, whether its turn is taken.
fn round_rows(world: &World, cid: Cid, out: &mut Vec<(String, String)>) {
    if let Some(s) = view::get::<super::state::Swayed>(world, cid) {
        if s.distracted {
            out.push(("Distracted".into(), "cannot react this round".into()));
        }
        if let Some(by) = s.taunted_by {
            out.push((
                "Taunted".into(),
                format!(
                    "may attack only {} until its next turn ends",
                    view::name(world, by)
                ),
            ));
        }
    }
    // Down or gone, it has no turn to take.
    if !view::standing(world, cid) {
        return;
    }
    let done = view::get::<TurnState>(world, cid).is_some_and(|t| t.done);
    out.push((
        "This round".into(),
        if done {
            "turn taken".into()
        } else {
            "turn still to take (or to react)".into()
        },
    ));
}

/// Attributes, armour and its wear (§Combat gear degradation), speed,
/// fearlessness.
fn stat_rows(world: &World, cid: Cid, s: &ZonesStats, out: &mut Vec<(String, String)>) {
    out.push((
        "Attributes".into(),
        format!("STR {}  AGI {}  WIT {}", s.str, s.agi, s.wit),
    ));
    let lost = super::query::armor_lost(world, cid);
    let names: Vec<String> = s
        .pieces
        .iter()
        .map(|p| {
            if p.damaged && super::query::broken(world, cid, &p.name) {
                format!("{}: broken", p.name)
            } else if p.damaged {
                format!("{}: damaged", p.name)
            } else {
                p.name.clone()
            }
        })
        .collect();
    out.push((
        "Armour".into(),
        if names.is_empty() {
            format!("{}", (s.armor - lost).max(0))
        } else {
            format!("{} ({})", (s.armor - lost).max(0), names.join(", "))
        },
    ));
    let mut speed = format!("{} zones, half {}", s.full_speed(), s.half_speed());
    if s.sprint {
        speed.push_str(" (sprints)");
    }
    out.push(("Speed".into(), speed));
    if s.fearless {
        out.push(("Morale".into(), "immune to fear".into()));
    }
}

/// §Mounts and vehicles: what it carries and who rides it, or what it
/// rides.
fn steed_rows(world: &World, cid: Cid, out: &mut Vec<(String, String)>) {
    if let Some(st) = view::steed(world, cid) {
        let aboard: Vec<String> = super::turns::standing_riders(world, cid)
            .into_iter()
            .map(|c| name(world, c))
            .collect();
        out.push((
            if st.vehicle { "Vehicle" } else { "Mount" }.into(),
            format!(
                "carries {}: {}",
                st.carries,
                if aboard.is_empty() {
                    "nobody aboard".to_string()
                } else {
                    aboard.join(", ")
                }
            ),
        ));
    }
    if let Some(m) = view::riding(world, cid) {
        out.push((
            "Riding".into(),
            format!("{}: attacks impaired (d4)", name(world, m)),
        ));
    }
}

/// Damage, range, penetrating, blast, wear, ammunition.
fn weapon_line(w: &Weapon, in_hand: bool) -> String {
    let mut d = format!("{}", w.damage);
    if w.is_ranged() {
        d.push_str(&format!(", range {}", w.zones().range_zones));
    }
    if w.zones().penetrating {
        d.push_str(", penetrating");
    }
    if w.zones().blast {
        d.push_str(", blast");
    }
    if w.zones().damaged {
        d.push_str(", damaged");
    }
    if let Some(a) = w.spare {
        d.push_str(&format!(", {a} left"));
    }
    if in_hand {
        d.push_str("  (in hand)");
    }
    d
}

/// What a kind of ground means under zones (Fray's cover, docs/rulesets/
/// zones.md §Cover), for the board's hover.
pub fn terrain_note(t: crate::rules::map::Terrain) -> Option<String> {
    use crate::rules::map::Terrain;
    let cover = "a shot at one standing in it or behind it (the cover on the line of fire next \
                 to the target) meets 1 more armour, never above 3, unless the weapon \
                 penetrates  (zones §Cover; Fray decides: docs/rulesets/zones.md §Cover)";
    Some(match t {
        Terrain::LowCover => format!("low cover: {cover}"),
        Terrain::HighCover => format!("high cover, not to be entered: {cover}"),
        Terrain::Wall => "wall: blocks movement and sight".into(),
        Terrain::Pit => "a pit: a shove can push someone in".into(),
        _ => return None,
    })
}

/// What a row of the zones sheet means, for its tooltip (by the row's
/// label; a weapon's row by the weapon's name).
pub fn tip(world: &World, cid: Cid, label: &str) -> Option<String> {
    let weapon = view::get::<Loadout>(world, cid)
        .is_some_and(|l| l.weapons.iter().any(|w| *w.name == *label));
    if let Some(s) = stats(world, cid) {
        if s.items.iter().any(|i| i.name == label) {
            return Some(
                "an item: using it is the turn's main action, on itself or someone nearby  \
                 (zones §Taking a turn)"
                    .into(),
            );
        }
        if s.powers.iter().any(|k| k.name == label) {
            return Some(
                "a power: invoking it is the turn's main action; the target resists with a \
                 WIT save  (zones §Taking a turn; Fray decides: docs/rulesets/zones.md §Main actions)"
                    .into(),
            );
        }
    }
    if weapon {
        return Some(
            "its damage die, rolled on a hit; range in zones for a ranged weapon; a damaged \
             weapon breaks on a damage roll of 1  (zones §Attacking, §Combat gear \
             degradation)"
                .into(),
        );
    }
    Some(match label {
        "Attributes" => "a save is a d20 rolled at or under the attribute: STR to resist a \
             shove or a grab, AGI to dodge or to keep one's feet, WIT to hit where the text \
             asks it and to hold one's nerve  (zones §Attacking, §Reacting to an attack, §Morale)"
            .into(),
        "Armour" => "taken off every blow's damage (cover adds 1 against a shot), never more \
             than 3  (zones §Reacting to an attack, §Cover)"
            .into(),
        "Speed" => "zones it can cross in a turn: its full speed, or half with a bonus and a \
             main action  (zones §Taking a turn)"
            .into(),
        "Health" => "a blow of half its health or more is critical damage: it is \
             incapacitated; health 0 or less kills (both Fray's settings)  (zones §Attacking; \
             Fray decides: docs/rulesets/zones.md §Health)"
            .into(),
        "This round" => "a character who has not taken its turn can still react to an attack, \
             and the reaction takes the turn  (zones §Reacting to an attack)"
            .into(),
        "Morale" => "never breaks, nor can it be intimidated  (zones §Morale)".into(),
        "Incapacitated" => "down and helpless until the fight ends or it is healed  (zones \
             §Attacking)"
            .into(),
        "Size" => "a larger attacker rolls its damage once more for each size it is larger, a \
             smaller one halves it; no STR save against a larger shover or grabber  (zones \
             §Effects of size in combat)"
            .into(),
        "Mount" | "Vehicle" => "mount and riders take their turn together; riders' attacks \
             are impaired  (zones §Mounts and vehicles in combat)"
            .into(),
        "Riding" => "attacks from the saddle are impaired (d4)  (zones §Mounts and vehicles \
             in combat)"
            .into(),
        "Distracted" => "no reaction this round  (zones §Taking a turn; Fray decides: \
             docs/rulesets/zones.md §Main actions)"
            .into(),
        "Taunted" => {
            "may attack only the taunter until its next turn ends  (zones §Taking a turn; \
             Fray decides: docs/rulesets/zones.md §Main actions)"
                .into()
        }
        _ => return None,
    })
}
