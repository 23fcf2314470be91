//! The steps of setting a battle up from a level: the last battle
//! cleared, the factions and their controllers, the victory rule, the
//! combatants spawned (named, facing, equipped by the ruleset) and the
//! riders seated.

use bevy::ecs::message::Messages;
use bevy::prelude::*;

use crate::rules::battle::{Battle, BattleRules, RulesetId, VictoryRule};
use crate::rules::command::CommandMsg;
use crate::rules::components::{
    Archetype, Cid, CombatantName, Condition, Conditions, Controller, FactionId, Heading, Size,
    Steed, TurnState,
};
use crate::rules::dice::Dice;
use crate::rules::hooks::{ActiveRuleset, RulesetHooks};
use crate::rules::level::{Control, Level};
use crate::rules::log::{BattleLog, LastRejection};
use crate::rules::map::Cell;
use crate::rules::roster::{Faction, Place, Roster};
use crate::rules::view;

use super::{Controls, StartOptions, put};

/// Clear the previous battle: its combatants, pending commands and state;
/// the dice reseeded and the level's map in place.
pub(super) fn clear_previous(
    world: &mut World,
    hooks: &'static RulesetHooks,
    ruleset: RulesetId,
    level: &Level,
    opts: &StartOptions,
) {
    crate::rules::roster::despawn_combatants(world);
    view::write::resource_mut::<Messages<CommandMsg>>(world).clear();
    (hooks.reset)(world);
    put(world, ActiveRuleset(hooks));
    put(
        world,
        Battle {
            ruleset: Some(ruleset),
            seed: opts.seed,
            ..default()
        },
    );
    put(world, BattleLog::default());
    put(world, crate::rules::battle::Ground::default());
    put(world, LastRejection::default());
    {
        let mut dice = view::write::resource_mut::<Dice>(world);
        dice.reseed(opts.seed);
        dice.set_script(opts.script.clone());
    }
    // The same level's map again (a batch) is left where it is.
    if view::get_resource::<crate::rules::map::Map>(world) != Some(&level.map) {
        put(world, level.map.clone());
    }
}

/// The level's factions, with who controls each.
pub(super) fn factions_of(level: &Level, opts: &StartOptions) -> Vec<Faction> {
    level
        .factions
        .iter()
        .enumerate()
        .map(|(i, f)| Faction {
            id: f.id.clone(),
            name: f.name.clone(),
            colour: f.colour,
            control: match &opts.control {
                Controls::AsLevel => match f.control {
                    Control::Human => Controller::Human,
                    Control::Ai => Controller::Ai,
                },
                Controls::AllAi => Controller::Ai,
                Controls::PerFaction(v) => v.get(i).copied().unwrap_or(Controller::Ai),
            },
            starts_fight: f.starts_fight,
        })
        .collect()
}

fn faction_index(factions: &[Faction], id: &str) -> Option<usize> {
    factions.iter().position(|f| f.id == id)
}

/// The level's victory condition, limits and visibility.
pub(super) fn battle_rules(level: &Level, factions: &[Faction]) -> Result<BattleRules, String> {
    let faction_index = |id: &str| faction_index(factions, id);
    let victory = match &level.victory {
        crate::rules::level::Victory::LastStanding => VictoryRule::LastStanding,
        crate::rules::level::Victory::Survive { faction, rounds } => VictoryRule::Survive {
            faction: faction_index(faction).ok_or("unknown faction in victory")? as u8,
            rounds: *rounds,
        },
        crate::rules::level::Victory::HoldZone {
            faction,
            zone,
            rounds,
        } => VictoryRule::HoldZone {
            faction: faction_index(faction).ok_or("unknown faction in victory")? as u8,
            zone: level
                .map
                .zone_index(zone)
                .ok_or("unknown zone in victory")?,
            rounds: *rounds,
        },
    };
    Ok(BattleRules {
        level: level.name.clone(),
        victory,
        max_rounds: level.max_rounds,
        bad_visibility: matches!(
            level.visibility,
            crate::rules::level::Visibility::Bad | crate::rules::level::Visibility::Dark
        ),
        dark: level.visibility == crate::rules::level::Visibility::Dark,
        held_rounds: 0,
    })
}

/// Spawn the level's combatants with the ruleset's components. Names:
/// "<Faction id> <archetype>", numbered when a faction has several.
pub(super) fn spawn_combatants(
    world: &mut World,
    level: &Level,
    factions: &[Faction],
    hooks: &'static RulesetHooks,
    opts: &StartOptions,
) -> Result<Roster, String> {
    let faction_index = |id: &str| faction_index(factions, id);
    let mut roster = Roster::default();
    let mut count: std::collections::BTreeMap<(usize, &str), u32> = Default::default();
    let mut seen: std::collections::BTreeMap<(usize, &str), u32> = Default::default();
    for c in &level.combatants {
        let f = faction_index(&c.faction).ok_or("unknown faction")?;
        *count.entry((f, c.archetype.as_str())).or_default() += 1;
    }
    for (i, c) in level.combatants.iter().enumerate() {
        let f = faction_index(&c.faction).ok_or("unknown faction")?;
        let n = seen.entry((f, c.archetype.as_str())).or_default();
        *n += 1;
        let name = c.name.clone().unwrap_or_else(|| {
            let base = format!("{} {}", member_of(&factions[f].id), c.archetype);
            if count[&(f, c.archetype.as_str())] > 1 {
                format!("{base} {n}")
            } else {
                base
            }
        });
        let control = match (&opts.control, c.overrides.control) {
            (Controls::AsLevel, Some(Control::Human)) => Controller::Human,
            (Controls::AsLevel, Some(Control::Ai)) => Controller::Ai,
            _ => factions[f].control,
        };
        let facing = c
            .facing
            .unwrap_or_else(|| default_facing(level, c.at, &c.faction));
        let mut conds = Conditions::default();
        if c.overrides.surprised || level.factions[f].surprised {
            conds.insert(Condition::Surprised);
        }
        if c.overrides.concealed {
            conds.insert(Condition::Concealed);
        }
        let e = world
            .spawn((
                Cid(i as u16),
                CombatantName(name.clone()),
                Archetype(c.archetype.clone()),
                FactionId(f as u8),
                Heading(facing),
                control,
                TurnState::default(),
            ))
            .id();
        (hooks.equip)(world, e, c).map_err(|err| level.error_at_combatant(i, &err).to_string())?;
        let place = Place {
            cell: c.at,
            conditions: conds,
            riding: None,
            // The ruleset's equipment says what can be ridden.
            steed: world.get::<Steed>(e).copied(),
            size: world.get::<Size>(e).copied().unwrap_or_default(),
            held_by: None,
        };
        roster.push(e, name, f as u8, place);
    }
    Ok(roster)
}

/// Riders (zones §Mounts and vehicles in combat): the level names each
/// one's mount; the ruleset says what can carry whom.
pub(super) fn seat_riders(
    level: &Level,
    roster: &mut Roster,
    ruleset: RulesetId,
) -> Result<(), String> {
    for (i, c) in level.combatants.iter().enumerate() {
        let Some(mount) = &c.riding else { continue };
        let m = roster
            .names
            .iter()
            .position(|n| n == mount)
            .ok_or_else(|| format!("{}: rides unknown `{mount}`", roster.names[i]))?;
        let Some(steed) = roster.places()[m].steed else {
            return Err(format!(
                "{} rides {mount}, which carries nobody under {}",
                roster.names[i],
                ruleset.id()
            ));
        };
        let aboard = level
            .combatants
            .iter()
            .filter(|o| o.riding.as_deref() == Some(mount.as_str()))
            .count();
        if aboard > usize::from(steed.carries) {
            return Err(format!(
                "{aboard} ride {mount}, which carries {} at most",
                steed.carries
            ));
        }
        roster.update_place(Cid(i as u16), |p| p.riding = Some(Cid(m as u16)));
    }
    Ok(())
}

/// Face the centre of the enemies.
fn default_facing(level: &Level, at: Cell, faction: &str) -> crate::rules::level::Facing {
    let enemies: Vec<Cell> = level
        .combatants
        .iter()
        .filter(|c| c.faction != faction)
        .map(|c| c.at)
        .collect();
    if enemies.is_empty() {
        return crate::rules::level::Facing::N;
    }
    let n = enemies.len() as f64;
    let cx = enemies.iter().map(|c| c.x as f64).sum::<f64>() / n - at.x as f64;
    let cy = enemies.iter().map(|c| c.y as f64).sum::<f64>() / n - at.y as f64;
    let angle = cy.atan2(cx);
    let oct = ((angle / std::f64::consts::FRAC_PI_4).round() as i32).rem_euclid(8);
    let (dx, dy) = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ][oct as usize];
    crate::rules::level::Facing::from_delta(dx, dy).unwrap_or(crate::rules::level::Facing::N)
}

/// One member of a faction, from its id: "raiders" -> "Raider", "bowmen"
/// -> "Bowman", "garrison" -> "Garrison". A combatant the level leaves
/// unnamed is "Raider swordsman", not "Raiders swordsman".
pub(super) fn member_of(faction_id: &str) -> String {
    let id = faction_id.replace(['_', '-'], " ");
    let one = if let Some(stem) = id.strip_suffix("men") {
        format!("{stem}man")
    } else if id.ends_with('s') && !id.ends_with("ss") && id.len() > 3 {
        id[..id.len() - 1].to_string()
    } else {
        id
    };
    capitalised(&one)
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
