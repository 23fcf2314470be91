//! How the game offers brp's own commands: the statement of intent (a
//! click on an enemy states an attack with the weapon in hand, a tool
//! states one with another weapon, a click on an ally First Aid,
//! buttons a reload or a round of only parries and dodges), First Aid and
//! reloading on the actor's rank, and the parries. Reads only.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::hooks::{Give, Offer, OfferKey, Offers};
use crate::rules::view;

use super::command::{BrpCommand, Intent};
use super::query::{move_left, round, settings};

pub fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
    let loadout = view::get::<Loadout>(world, actor);
    Offers {
        list: legal
            .iter()
            .filter_map(|c| offer(world, loadout, c))
            .collect(),
        hint: hint(world, actor),
        ..Offers::default()
    }
}

/// How the game offers one legal command of brp's own (of the actor with
/// this `loadout`): its label, how it is given, its key. None: not one of
/// brp's, or a parry (answered in the reaction dialog).
fn offer(world: &World, loadout: Option<&Loadout>, c: &Command) -> Option<Offer> {
    let ready = loadout.and_then(|l| l.ready);
    let weapon = |i: usize| {
        loadout
            .and_then(|l| l.weapons.get(i))
            .map_or("weapon".into(), |w| w.name.clone())
    };
    let (label, give, key) = match c.own::<BrpCommand>()? {
        // The weapon in hand: a click on the enemy with the plain pointer.
        BrpCommand::Declare(Intent::Attack { target, weapon: w }) if Some(*w) == ready => (
            format!(
                "State: attack {} ({})",
                view::name(world, *target),
                weapon(*w).to_lowercase()
            ),
            Give::Click(*target),
            None,
        ),
        BrpCommand::Declare(Intent::Attack { target, weapon: w }) => (
            format!("State: attack with the {}", weapon(*w)),
            Give::On(*target),
            None,
        ),
        BrpCommand::Declare(Intent::FirstAid { patient }) => {
            ("State: First Aid (H)".into(), Give::On(*patient), Some('H'))
        }
        BrpCommand::Declare(Intent::Reload { weapon: w }) => (
            format!("State: reload the {} (R)", weapon(*w)),
            Give::Button,
            Some('R'),
        ),
        BrpCommand::Declare(Intent::Defend) => (
            "State: only parry and dodge (V)".into(),
            Give::Button,
            Some('V'),
        ),
        BrpCommand::FirstAid { patient } => (
            format!("First Aid: {} (H)", view::name(world, *patient)),
            Give::Click(*patient),
            Some('H'),
        ),
        BrpCommand::Reload { weapon: w } => (
            format!("Reload the {} (R)", weapon(*w)),
            Give::Button,
            Some('R'),
        ),
        BrpCommand::Kneel => (
            "Kneel behind the shield (K)".into(),
            Give::Button,
            Some('K'),
        ),
        BrpCommand::Parry { .. } => return None,
    };
    Some(Offer {
        command: c.clone(),
        label,
        give,
        key: key.map(OfferKey::Letter),
    })
}

/// What the phase the battle is in asks of `actor`: the statement of
/// intent (§5.2), the metres left and what they do to its rank (§5.3), its
/// stated attack on its rank.
fn hint(world: &World, actor: Cid) -> Option<String> {
    match view::resource::<Battle>(world).phase {
        Phase::Intent => Some(
            "Statement of intent, in DEX order: click an enemy to state an attack with the weapon in hand (brp §5.2)"
                .to_string(),
        ),
        Phase::Movement => Some(format!(
            "Movement: {:.1} m left this round. Under 6 m keeps the full DEX rank, 6-15 m halves it, 16-29 m quarters it (§5.3). End the turn when done.",
            f64::from(move_left(world, actor)) / 10.0
        )),
        Phase::Actions => {
            let stated = round(world).declared(actor);
            Some(match (stated, settings(world).statement_of_intent) {
                (Some(Intent::Attack { target, .. }), true) => format!(
                    "Your rank: attack {} as stated (another enemy only if it cannot be struck)",
                    view::name(world, target)
                ),
                (_, _) => "Your rank: act, or end the turn".into(),
            })
        }
        _ => None,
    }
}
