//! How the game offers zones' own commands: who takes the faction's turn,
//! passing and handing the first turn over (§Initiative), non-lethal
//! attacks (§Non-lethal attacks), attacks sharing their dice, breaking
//! free and freeing an ally, words, items and powers (§Taking a turn,
//! main actions), mounts and riders, weapons on the ground, and surrender. Reads
//! only.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Ground, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Loadout};
use crate::rules::hooks::{Give, Offer, OfferKey, Offers};
use crate::rules::roster::Factions;
use crate::rules::view;
use crate::rulesets::zones::command::{Influence, Maneuver, ZonesCommand};

pub fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
    let mut list: Vec<(u8, Offer)> = legal
        .iter()
        .filter_map(|c| {
            let (rank, label, give, key) = offer(world, actor, c.own::<ZonesCommand>()?)?;
            Some((
                rank,
                Offer {
                    command: c.clone(),
                    label,
                    give,
                    key,
                },
            ))
        })
        .collect();
    // A steady order on the action bar: tools, then buttons, surrender last.
    list.sort_by_key(|(rank, _)| *rank);
    Offers {
        list: list.into_iter().map(|(_, o)| o).collect(),
        reaction: reaction(world, actor, legal),
        hint: matches!(view::resource::<Battle>(world).prompt, Prompt::Activate { .. }).then(|| {
            // §Reactions: a reaction takes the reacting character's turn.
            "A character who has not taken its turn can still react when attacked (it spends the turn).".into()
        }),
    }
}

/// An offer's place on the bar, label, how it is given, its key.
type Placed = (u8, String, Give, Option<OfferKey>);

/// How `c` is offered: the round's procedure in [`turn_offer`], the main
/// actions aimed at someone in [`aimed_offer`], the rest here.
fn offer(world: &World, actor: Cid, c: &ZonesCommand) -> Option<Placed> {
    let name = |who: &Cid| view::name(world, *who);
    Some(match c {
        ZonesCommand::Activate { .. } | ZonesCommand::Pass | ZonesCommand::FirstTurnTo { .. } => {
            return turn_offer(world, c);
        }
        ZonesCommand::Maneuver { .. }
        | ZonesCommand::Influence { .. }
        | ZonesCommand::UseItem { .. }
        | ZonesCommand::Invoke { .. } => return aimed_offer(world, actor, c),
        ZonesCommand::Dismount { to } => (
            4,
            "Get off".into(),
            Give::At {
                cell: *to,
                path: Vec::new(),
            },
            None,
        ),
        ZonesCommand::BreakFree => (5, "Break free".into(), Give::Button, None),
        ZonesCommand::SplitAttack { .. } => (
            5,
            super::preview::preview(world, actor, &Command::from(c.clone())).title,
            Give::Button,
            None,
        ),
        ZonesCommand::FreeAlly { who } => {
            (5, format!("Pull {} free", name(who)), Give::Button, None)
        }
        ZonesCommand::Mount { mount } => (6, format!("Get on {}", name(mount)), Give::Button, None),
        ZonesCommand::PickUp { item } => {
            let what = view::resource::<Ground>(world)
                .0
                .get(*item)
                .map_or(String::new(), |(_, w)| String::from(&*w.name));
            (6, format!("Pick up the {what}"), Give::Button, None)
        }
        ZonesCommand::Reserve => (7, "Keep turn to react".into(), Give::Button, None),
        ZonesCommand::Hide => (8, "Hide".into(), Give::Button, None),
        ZonesCommand::Surrender => (9, "Surrender".into(), Give::Apart, None),
        // Reactions: the reaction dialog lists them with their previews.
        _ => return None,
    })
}

/// §Combat procedure: taking the turn (a click on the one who takes it),
/// handing it over in a pair, passing, letting another faction go first.
fn turn_offer(world: &World, c: &ZonesCommand) -> Option<Placed> {
    let name = |who: &Cid| view::name(world, *who);
    let activating = matches!(
        view::resource::<Battle>(world).prompt,
        Prompt::Activate { .. }
    );
    Some(match c {
        ZonesCommand::Activate { who } if activating => (0, name(who), Give::Click(*who), None),
        ZonesCommand::Activate { who } => (
            6,
            format!("Give the turn to {}", name(who)),
            Give::Click(*who),
            None,
        ),
        ZonesCommand::Pass => (
            1,
            "Pass (Enter)".into(),
            Give::Button,
            Some(OfferKey::EndTurn),
        ),
        ZonesCommand::FirstTurnTo { faction } => {
            let f = view::resource::<Factions>(world);
            let f = f.0.get(*faction as usize).map_or("?", |f| f.name.as_str());
            (2, format!("Let {f} go first"), Give::Button, None)
        }
        _ => return None,
    })
}

/// The main actions aimed at someone (maneuvers, words, items, powers):
/// a click on the one aimed at.
fn aimed_offer(world: &World, actor: Cid, c: &ZonesCommand) -> Option<Placed> {
    Some(match c {
        ZonesCommand::Maneuver { target, kind } => {
            let label = match kind {
                Maneuver::Shove => "Shove",
                Maneuver::Grapple => "Grab",
                // The board's disarm takes the weapon in the target's hand.
                Maneuver::Disarm { weapon } => {
                    let in_hand = view::get::<Loadout>(world, *target).and_then(|l| l.ready);
                    if in_hand != Some(*weapon) {
                        return None;
                    }
                    "Disarm"
                }
            };
            (3, label.into(), Give::On(*target), None)
        }
        ZonesCommand::Influence { target, kind } => {
            let label = match kind {
                Influence::Intimidate => "Intimidate",
                Influence::Distract => "Distract",
                Influence::Taunt => "Taunt",
            };
            (4, label.into(), Give::On(*target), None)
        }
        ZonesCommand::UseItem { item, on } => {
            let name = super::query::stats(world, actor)
                .and_then(|s| s.items.get(*item))
                .map_or(String::new(), |i| i.name.clone());
            (5, format!("Use the {name}"), Give::On(*on), None)
        }
        ZonesCommand::Invoke { power, target } => {
            let name = super::query::stats(world, actor)
                .and_then(|s| s.powers.get(*power))
                .map_or(String::new(), |p| p.name.clone());
            (4, format!("Invoke {name}"), Give::On(*target), None)
        }
        _ => return None,
    })
}

/// The reaction dialog's title and question, when it is not about an
/// ordinary attack.
fn reaction(world: &World, actor: Cid, legal: &[Command]) -> Option<(String, String)> {
    let Prompt::React { attacker, .. } = view::resource::<Battle>(world).prompt else {
        return None;
    };
    let (them, me) = (view::name(world, attacker), view::name(world, actor));
    let own = |f: fn(&ZonesCommand) -> bool| legal.iter().any(|c| c.own().is_some_and(f));
    if own(|c| matches!(c, ZonesCommand::Opportunity { .. })) {
        Some((
            "An enemy moves away!".into(),
            format!("{them} moves away from {me}. Strike as it goes?"),
        ))
    } else if own(|c| matches!(c, ZonesCommand::Accept)) {
        Some((
            "Attacked, with an offer!".into(),
            format!("{them} attacks. How does {me} react?"),
        ))
    } else {
        None
    }
}
