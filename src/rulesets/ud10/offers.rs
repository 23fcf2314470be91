//! How the game offers UD10's own commands: taking cover and standing up
//! (§Free Actions), reloading, aiming (§Attack Modifiers) and the retreat
//! (§Optional Rule: Retreat). Reads only.

use bevy::prelude::*;

use crate::rules::battle::{Give, Offer, OfferKey, Offers};
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rulesets::ud10::command::Ud10Command;

use super::query::loadout;

pub fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
    let ready = loadout(world, actor).and_then(|l| l.ready);
    let list = legal
        .iter()
        .filter_map(|c| {
            let (label, give, key) = match c.own::<Ud10Command>()? {
                Ud10Command::CutFree => ("Cut free (V)", Give::Button, 'V'),
                Ud10Command::TakeCover => ("Take cover (Q)", Give::Button, 'Q'),
                Ud10Command::Stand => ("Stand (Q)", Give::Button, 'Q'),
                // The weapon in hand: the one the bar shows.
                Ud10Command::Reload { weapon } if Some(*weapon) == ready => {
                    ("Reload (R)", Give::Button, 'R')
                }
                Ud10Command::Aim { target, weapon } if Some(*weapon) == ready => {
                    ("Aim (G)", Give::On(*target), 'G')
                }
                Ud10Command::Retreat { path } => (
                    "Retreat (X)",
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
                label: label.to_string(),
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
