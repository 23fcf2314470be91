//! How the game offers UD10's own commands: taking cover and standing up
//! (§Free Actions), reloading, aiming (§Attack Modifiers), the retreat
//! (§Optional Rule: Retreat) and first aid (§Performing Actions). Reads only.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::hooks::{Give, Offer, OfferKey, Offers};
use crate::rules::map::Cell;
use crate::rulesets::ud10::command::Ud10Command;

use super::query::loadout;

fn name(world: &World, cid: Cid) -> String {
    crate::rules::view::resource::<crate::rules::roster::Roster>(world)
        .name(cid)
        .to_string()
}

pub fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
    let ready = loadout(world, actor).and_then(|l| l.ready);
    let list = legal
        .iter()
        .filter_map(|c| {
            let (label, give, key) = match c.own::<Ud10Command>()? {
                Ud10Command::CutFree => ("Cut free (V)".into(), Give::Button, 'V'),
                Ud10Command::FirstAid { patient } => (
                    format!("First aid: {} (H)", name(world, *patient)),
                    Give::Click(*patient),
                    'H',
                ),
                Ud10Command::TakeCover => ("Take cover (Q)".into(), Give::Button, 'Q'),
                Ud10Command::Stand => ("Stand (Q)".into(), Give::Button, 'Q'),
                // A click on the neighbouring cell the way it would face.
                Ud10Command::Face { facing } => {
                    let at = crate::rules::view::cell(world, actor)?;
                    let (dx, dy) = facing.delta();
                    let cell = Cell {
                        x: at.x + dx,
                        y: at.y + dy,
                    };
                    ("Face (T)".into(), Give::At { cell, path: vec![] }, 'T')
                }
                // The weapon in hand: the one the bar shows.
                Ud10Command::Reload { weapon } if Some(*weapon) == ready => {
                    ("Reload (R)".into(), Give::Button, 'R')
                }
                Ud10Command::Aim { target, weapon } if Some(*weapon) == ready => {
                    ("Aim (G)".into(), Give::On(*target), 'G')
                }
                Ud10Command::Retreat { path } => (
                    "Retreat (X)".into(),
                    Give::At {
                        cell: *path.last()?,
                        path: path.clone(),
                    },
                    'X',
                ),
                _ => return None,
            };
            Some(Offer {
                command: c.clone(),
                label,
                give,
                key: Some(OfferKey::Letter(key)),
            })
        })
        .collect();
    Offers {
        list,
        ..Offers::default()
    }
}
