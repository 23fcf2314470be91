//! The brp sheet of a combatant, as the side panel shows it, and what each
//! row means. Reads only.

use bevy::prelude::*;

use crate::rules::components::{Cid, Health, Loadout, Weapon};
use crate::rules::view;

use super::command::Intent;
use super::derived::Source;
use super::event::Band;
use super::query::{round, settings};
use super::stats::{BrpArmor, BrpShield, Wounds, gear, stats};

fn weapon_line(w: &Weapon, ready: bool) -> String {
    let Some(g) = gear(w) else {
        return w.damage.to_string();
    };
    let mut s = format!("{}% ({}), {}", g.chance, g.specialty, w.damage);
    if let Source::Related(from) = &g.source {
        s.push_str(&format!(", ½ of {from}"));
    }
    if g.is_missile() {
        s.push_str(&format!(", range {:.0} m", g.range_m));
    }
    if w.magazine > 0 {
        s.push_str(&format!(", loaded {}/{}", w.loaded, w.magazine));
    }
    if let Some(hp) = g.hp {
        s.push_str(&format!(", {hp} HP"));
    }
    if ready {
        s.push_str(" (in hand)");
    }
    s
}

/// The brp sheet of a combatant.
pub fn sheet(world: &World, cid: Cid) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(s) = stats(world, cid) {
        out.push((
            "Characteristics".into(),
            format!(
                "STR {}  CON {}  SIZ {}  INT {}  POW {}  DEX {}  APP {}",
                s.str, s.con, s.siz, s.int, s.pow, s.dex, s.app
            ),
        ));
        out.push(("Damage bonus".into(), s.db.to_string()));
        out.push((
            "Skills".into(),
            format!("Dodge {}%  First Aid {}%", s.dodge, s.first_aid),
        ));
    }
    if let Some(h) = view::get::<Health>(world, cid) {
        out.push(("Hit points".into(), format!("{}/{}", h.hp, h.hp_max)));
    }
    if let Some(w) = view::get::<Wounds>(world, cid)
        && !w.0.is_empty()
    {
        let list: Vec<String> =
            w.0.iter()
                .map(|w| format!("{}{}", w.hp, if w.treated { " (tended)" } else { "" }))
                .collect();
        out.push(("Wounds".into(), list.join(", ")));
    }
    if let Some(l) = view::get::<Loadout>(world, cid) {
        for (i, w) in l.weapons.iter().enumerate() {
            out.push((String::from(&*w.name), weapon_line(w, l.ready == Some(i))));
        }
    }
    if let Some(a) = view::get::<BrpArmor>(world, cid)
        && !a.pieces.is_empty()
    {
        let mut s = format!("{} AP ({})", a.ap, a.pieces.join(", "));
        if a.ap_high_velocity != a.ap {
            s.push_str(&format!(", {} against firearms", a.ap_high_velocity));
        }
        out.push(("Armor".into(), s));
    }
    if let Some(sh) = view::get::<BrpShield>(world, cid) {
        out.push((
            "Shield".into(),
            format!("{}: {}%, {} HP", sh.name, sh.chance, sh.hp),
        ));
    }
    if let Some(slot) = round(world).slot(cid) {
        let stated = match slot.declared {
            Some(Intent::Attack { target, weapon }) => Some(format!(
                "attack {} ({})",
                view::name(world, target),
                view::get::<Loadout>(world, cid)
                    .and_then(|l| l.weapons.get(weapon))
                    .map_or("?".into(), |w| w.name.to_lowercase())
            )),
            Some(Intent::FirstAid { patient }) => {
                Some(format!("First Aid on {}", view::name(world, patient)))
            }
            Some(Intent::Reload { .. }) => Some("reload".into()),
            Some(Intent::Defend) => Some("only parry and dodge".into()),
            None => None,
        };
        if let Some(s) = stated {
            out.push(("Stated".into(), s));
        }
        let moved = f64::from(slot.moved_dm) / 10.0;
        let rank = match slot.rank {
            Some((_, Band::Run)) => "no action".to_string(),
            Some((r, _)) => format!("DEX rank {r}"),
            None => "rank set when the actions begin".into(),
        };
        out.push(("This round".into(), format!("moved {moved:.1} m, {rank}")));
    }
    out
}

/// What a row of the sheet means.
pub fn tip(world: &World, _cid: Cid, label: &str) -> Option<String> {
    let s = settings(world);
    Some(match label {
        "Characteristics" => "The seven characteristics; DEX sets the order of statements and the DEX rank one acts on (brp §5.2, §5.4)".into(),
        "Damage bonus" => "Added to melee damage; half of it (rolled and halved, rounding up) to the missile weapons whose row says ½db (thrown weapons, bows, slings; §5.9). From STR + SIZ (tables.ron: the text names it, the standard table gives it)".into(),
        "Skills" => "Dodge (DEX x 2 untrained, less armor's physical modifier, §5.7, §5.10) and First Aid (§5.14)".into(),
        "Hit points" => format!("The average of CON and SIZ (§5.12). Unconscious at {} or fewer; dead if at 0 or fewer when the round ends", s.unconscious_at_hp),
        "Wounds" => "Each injury apart: First Aid heals 1D3 of each, once (§5.14)".into(),
        "Armor" => "Armor points, taken off every blow's damage (§5.10)".into(),
        "Shield" => "Parries with the Shield skill; against low-velocity missiles a straight 15/30/60% by its size (§5.11)".into(),
        "Stated" => "The statement of intent this round (§5.2): the action on its DEX rank must be this one".into(),
        "This round" => "Under 6 m keeps the full DEX rank, 6-15 m halves it, 16-29 m quarters it, 30 m leaves no action (§5.3)".into(),
        _ => "A weapon: the chance (the skill's rating, or the base chance untrained), its damage, its hit points when it parries (§5.9)".into(),
    })
}

/// Where in its round the battle is (§5.1), for the top bar.
pub fn round_note(world: &World) -> Option<String> {
    use crate::rules::battle::{Battle, Phase};
    let b = view::resource::<Battle>(world);
    Some(match b.phase {
        Phase::Intent => "Statement of intent".into(),
        Phase::Movement => "Movement".into(),
        Phase::Actions => match view::resource::<crate::rules::schedule::Schedule>(world).score() {
            Some(rank) => format!("Actions: DEX rank {rank}"),
            None => "Actions".into(),
        },
        Phase::Resolution => "Resolution".into(),
        _ => return None,
    })
}

/// A combatant's DEX (or rank, once the count has begun) and what it has
/// stated, for its row of the turn order: "DEX 12: attack", and in full
/// "will attack East archer".
pub fn order_note(world: &World, cid: Cid) -> Option<(String, String)> {
    use crate::rules::battle::{Battle, Phase};
    let slot = round(world).slot(cid)?;
    let rank = match (view::resource::<Battle>(world).phase, slot.rank) {
        (Phase::Actions | Phase::Resolution, Some((_, Band::Run))) => "no action".to_string(),
        (Phase::Actions | Phase::Resolution, Some((r, _))) => format!("rank {r}"),
        _ => format!("DEX {}", stats(world, cid)?.dex),
    };
    let (verb, long) = match slot.declared {
        Some(Intent::Attack { target, .. }) => (
            "attack",
            format!("will attack {}", view::name(world, target)),
        ),
        Some(Intent::FirstAid { patient }) => (
            "aid",
            format!("will give {} First Aid", view::name(world, patient)),
        ),
        Some(Intent::Reload { .. }) => ("reload", "will reload".into()),
        Some(Intent::Defend) => ("defend", "will only parry and dodge".into()),
        None => return Some((rank.clone(), format!("{rank}: nothing stated yet"))),
    };
    Some((format!("{rank}: {verb}"), format!("{rank}: {long}")))
}

/// Whom a combatant has stated it will attack, until its rank has come.
pub fn aims_at(world: &World, cid: Cid) -> Option<Cid> {
    use crate::rules::battle::{Battle, Phase};
    let phase = view::resource::<Battle>(world).phase;
    let r = round(world);
    let slot = r.slot(cid)?;
    if phase == Phase::Actions
        && view::resource::<crate::rules::schedule::Schedule>(world).acted(cid)
    {
        return None;
    }
    match (phase, slot.declared) {
        (Phase::Intent | Phase::Movement | Phase::Actions, Some(Intent::Attack { target, .. })) => {
            Some(target)
        }
        _ => None,
    }
}
