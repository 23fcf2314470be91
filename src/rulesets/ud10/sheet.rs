//! The UD10 sheet of a combatant, as the side panel shows it: stat block,
//! health, weapons, armor by body zone, shield, initiative. Reads only.

use bevy::prelude::*;

use crate::rules::components::{Cid, Health, Loadout, Size, Weapon};
use crate::rules::view;
use crate::rulesets::ud10::armor::{Armor, BodyZone, Shield};
use crate::rulesets::ud10::data::Ud10Stats;
use crate::rulesets::ud10::weapon::Ud10Gear;

use super::preview::signed;
use super::query::{stats, turn};
use super::reach::standard_dm;

/// The UD10 sheet of a combatant.
pub fn sheet(world: &World, cid: Cid) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(s) = stats(world, cid) {
        out.push((
            "Attributes".into(),
            format!("STR {}  DEX {}  CON {}", s.str, s.dex, s.con),
        ));
        out.push(("Skills".into(), skills_line(s)));
        let std = standard_dm(world, cid) as f64 / 10.0;
        out.push((
            "Movement".into(),
            format!("standard {std:.1} m, full {:.1} m", 2.0 * std),
        ));
    }
    if let Some(h) = view::get::<Health>(world, cid) {
        out.push((
            "Health".into(),
            format!("HP {}/{}  EP {}/{}", h.hp, h.hp_max, h.ep, h.ep_max),
        ));
    }
    let size = view::get::<Size>(world, cid).copied().unwrap_or_default();
    if size != Size::Medium {
        out.push(("Size".into(), format!("{size:?}")));
    }
    if let Some(l) = view::get::<Loadout>(world, cid) {
        for (i, w) in l.weapons.iter().enumerate() {
            out.push((String::from(&*w.name), weapon_line(w, l.ready == Some(i))));
        }
    }
    if let Some(a) = view::get::<Armor>(world, cid) {
        out.push(("Armor".into(), armor_line(a)));
    }
    if let Some(sh) = view::get::<Shield>(world, cid) {
        out.push((
            "Shield".into(),
            format!("{} (+{} Defense)", sh.name, sh.defense),
        ));
    }
    let t = turn(world, cid);
    if let Some(i) = t.initiative {
        out.push(("Initiative".into(), i.to_string()));
    }
    out
}

/// Skills, with DEX standing in for an untrained parry or dodge.
fn skills_line(s: &Ud10Stats) -> String {
    let mut skills = format!(
        "Initiative {}  Melee {}  Ranged {}",
        s.ini, s.melee, s.ranged
    );
    skills.push_str(&match s.parry {
        Some(v) => format!("  Parry {v}"),
        None => "  Parry (DEX)".into(),
    });
    skills.push_str(&match s.dodge {
        Some(v) => format!("  Dodge {v}"),
        None => "  Dodge (DEX)".into(),
    });
    skills
}

/// Damage, AM, penetration, range or reach, ammunition.
fn weapon_line(w: &Weapon, in_hand: bool) -> String {
    let mut d = format!("{} AM {}", w.damage, signed(w.ud10().attack_mod));
    if w.ud10().penetration > 0 {
        d.push_str(&format!(" pen {}", w.ud10().penetration));
    }
    if w.is_ranged() {
        d.push_str(&format!(", {} m increments", w.range_increment_m));
        if w.magazine > 0 {
            d.push_str(&format!(", loaded {}/{}", w.loaded, w.magazine));
        }
        if let Some(sp) = w.spare {
            d.push_str(&format!(", {sp} spare"));
        }
    } else if w.reach > 1 {
        d.push_str(&format!(", reach {}", w.reach));
    }
    if in_hand {
        d.push_str("  (in hand)");
    }
    d
}

/// The armor rating of each body zone, and the largest buffer.
fn armor_line(a: &Armor) -> String {
    if a.pieces.is_empty() {
        return "none".into();
    }
    let z = |b: BodyZone| a.zone(b);
    format!(
        "{}: head {} arms {}/{} trunk {} legs {}/{} (buffer up to {})",
        a.pieces.join(", "),
        z(BodyZone::Head).rating,
        z(BodyZone::LeftArm).rating,
        z(BodyZone::RightArm).rating,
        z(BodyZone::Trunk).rating,
        z(BodyZone::LeftLeg).rating,
        z(BodyZone::RightLeg).rating,
        BodyZone::ALL
            .iter()
            .map(|b| z(*b).buffer)
            .max()
            .unwrap_or(0)
    )
}

/// What a kind of ground means under ud10 (§Movement, §Taking Cover,
/// §Attack Modifiers), for the board's hover.
pub fn terrain_note(world: &World, t: crate::rules::map::Terrain) -> Option<String> {
    use crate::rules::map::Terrain;
    let s = view::resource::<super::settings::Ud10Settings>(world);
    Some(match t {
        Terrain::LowCover => format!(
            "low cover: +{} Defense against a shot across it or at one standing in it \
             (ud10 §Taking Cover: the rating is Fray's setting); climbing over costs double \
             (Fray decides: docs/rulesets/ud10.md §Movement)",
            s.low_cover
        ),
        Terrain::HighCover => format!(
            "high cover: +{} Defense against a shot across it (ud10 §Taking Cover: the \
             rating is Fray's setting); cannot be entered",
            s.high_cover
        ),
        Terrain::Difficult => "difficult ground: entering costs double  (Fray decides: \
             docs/rulesets/ud10.md §Movement)"
            .into(),
        Terrain::Water => "water: entering costs triple  (Fray decides: docs/rulesets/ud10.md \
             §Movement)"
            .into(),
        Terrain::HighGround => "high ground: a melee attacker below strikes at -2 (ud10 §Attack \
             Modifiers); climbing up costs double (Fray decides: docs/rulesets/ud10.md \
             §Movement)"
            .into(),
        Terrain::Wall => "wall: blocks movement and sight".into(),
        Terrain::Pit => "a pit: never entered by choice".into(),
        Terrain::Open => return None,
    })
}

/// What a row of the ud10 sheet means, for its tooltip (by the row's
/// label; a weapon's row by the weapon's name).
pub fn tip(world: &World, cid: Cid, label: &str) -> Option<String> {
    let s = view::resource::<super::settings::Ud10Settings>(world);
    let weapon = view::get::<Loadout>(world, cid)
        .is_some_and(|l| l.weapons.iter().any(|w| *w.name == *label));
    if weapon {
        return Some(
            "damage dice (a 10 rolls again), AM: added to the attack roll, pen: armor it \
             goes through; range increments (-1 to hit for each past the first) or reach in \
             cells. Drawing another weapon takes the action or part of a standard movement  \
             (ud10 §Attacking, §Ranged Attacks, §Determining The Damage, §Movement)"
                .into(),
        );
    }
    Some(match label {
        "Attributes" => "DEX adds to Defense (10 + DEX) and stands in for an untrained parry \
             or dodge; CON is taken off the damage of every hit; STR adds to movement  \
             (ud10 §Attacking, §Parrying and Dodging, §Constitution, §Movement)"
            .into(),
        "Skills" => "an attack is d10 + Melee or Ranged against the target's Defense; a parry \
             or dodge is d10 + the skill against the attack's total (once a round, for a \
             hit it can see coming); Initiative sets the round's order  (ud10 §Attacking, \
             §Parrying and Dodging)"
            .into(),
        "Movement" => "a standard movement keeps the action; a full movement (twice as far) \
             spends it  (ud10 §Movement)"
            .into(),
        "Health" => format!(
            "what the buffer takes goes to EP, the rest to HP; unconscious at {} HP or \
             less, dead at {} or less  (ud10 §Summary: Taking Damage)",
            s.unconscious_at_hp, s.dead_at_hp
        ),
        "Armor" => "armor rating per body zone, taken off a hit on that zone; the buffer \
             sends up to its points of a hit to EP instead of HP  (ud10 §Armor Rating, \
             §Optional Rule: Buffer)"
            .into(),
        "Shield" => "adds to Defense unless attacked from behind  (ud10 §Defense Rating \
             Modifiers)"
            .into(),
        "Initiative" => "this round's initiative: the highest acts first  (ud10 §Starting a \
             Combat Round)"
            .into(),
        "Size" => "large: -1 Defense; small: +1  (ud10 §Defense Rating Modifiers)".into(),
        _ => return None,
    })
}
