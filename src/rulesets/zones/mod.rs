//! Zones (`../shared/rules/zones.txt`): factions alternate activating one
//! character or passing; movement counted in zones; attacks hit unless a
//! WIT save is asked for; reactions take the character's whole turn; group
//! morale. Fray's decisions where the text is silent are in
//! `docs/rulesets/zones.md`.
//!
//! The writers (handed a `Scene`), each importing only those before it:
//! `save` (the d20 save), `morale`, `gear`, `waiting` (what waits for a
//! reaction, offered and resumed), `blow` (the steps every attack shares),
//! `mounts`, `nonlethal`, `round`, `movement`, `opportunity` (and the end of
//! an attack: back to the move or the turn), `blast`, `stunt`, `attack` (an
//! attack's flow: declared, asked, hit), `reaction` (the answers), and
//! `execute` (one step per command). The readers below them: `turns` (who
//! takes part in the turn, who rides what) under `query`, then `numbers` (an action's numbers),
//! `reach`, `maneuvers`, `riders`, `influence`, `strike` (may this attacker
//! strike that target), `check`, `legal`, `preview`, `sheet`, `offers`, `ai`.
//! `src/sources.rs` fails on an import circle among them.

pub mod ai;
pub mod apply;
pub mod attack;
pub mod audit;
mod bestiary;
pub mod blast;
pub mod blow;
pub mod check;
pub mod command;
pub mod data;
mod equipment;
pub mod event;
pub mod execute;
pub mod gear;
pub mod influence;
pub mod legal;
pub mod maneuvers;
pub mod modes;
pub mod morale;
pub mod mounts;
pub mod movement;
pub mod narrate;
pub mod nonlethal;
pub mod numbers;
pub mod offers;
pub mod opportunity;
pub mod preview;
mod preview_procedure;
mod preview_reactions;
pub mod query;
pub mod reach;
pub mod reaction;
pub mod riders;
pub mod round;
pub mod save;
pub mod settings;
pub mod sheet;
pub mod state;
mod stats;
pub mod strike;
pub mod stunt;
pub mod turns;
mod waiting;
pub mod weapon;

use std::path::Path;

use bevy::prelude::*;

use crate::rules::scene::Scene;

use crate::rules::battle::RulesetId;
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::error::{DataError, DefError};
use crate::rules::event::BattleEvent;
use crate::rules::hooks::AuditFigure;
use crate::rules::hooks::{Offers, Preview};
use crate::rules::level::{CombatantDef, Level};
use crate::rulesets::skeleton::{self, Ruleset};

use crate::rules::fork::ForkRegistry;
use data::ZonesData;
use settings::ZonesSettings;
use state::Pending;
use state::ZonesRound;
use stats::ZonesStats;

pub const RULE_BONUS: &str = "zones §Taking a turn: bonus actions";

/// The id levels and the command line use.
pub const ID: RulesetId = RulesetId("zones");

/// The zones ruleset.
pub struct Zones;

impl Ruleset for Zones {
    const ID: RulesetId = ID;
    type Command = command::ZonesCommand;
    type Data = ZonesData;
    type Settings = ZonesSettings;
    type Round = ZonesRound;
    type Pending = Pending;

    fn load(dir: &Path) -> Result<ZonesData, DataError> {
        ZonesData::load(dir)
    }
    fn settings(data: &ZonesData) -> &ZonesSettings {
        &data.settings
    }
    fn check_combatant(data: &ZonesData, def: &CombatantDef) -> Result<(), DefError> {
        data.equip(def).map(|_| ())
    }
    fn carries(data: &ZonesData, def: &CombatantDef) -> u8 {
        data.bestiary
            .archetypes
            .get(&def.archetype)
            .map_or(0, |a| a.carries)
    }
    fn check_level(_data: &ZonesData, level: &Level) -> Result<(), DataError> {
        // §Taking a turn: movement is counted in zones; a map without them
        // leaves nobody a place to move to or a range to shoot across.
        if level.map.zones().is_empty() {
            return Err(level.error_at_field(
                "map",
                "zones plays on a map divided into zones, and this one has none; expected zone_legend and zone_rows",
            ));
        }
        // §Attacking: melee reaches "nearby" (the same zone), ranged attacks
        // a number of zones; §Taking a turn: moves count zones. A combatant
        // standing in no zone could be neither reached nor counted from.
        // (A rider stands on its mount's cell.)
        for (i, c) in level.combatants.iter().enumerate() {
            if level.map.zone_of(c.at).is_none() {
                return Err(level.error_at_combatant(
                    i,
                    &crate::rules::error::DefError::field(
                        "at",
                        format!(
                            "stands at {} outside every zone; expected a cell of a zone drawn in zone_rows",
                            c.at
                        ),
                    ),
                ));
            }
        }
        Ok(())
    }
    fn fork(registry: &mut ForkRegistry) {
        registry.component::<ZonesStats>();
        registry.component::<state::Swayed>();
    }
    type Check = check::Legality;
    fn execute(world: &mut Scene, actor: Cid, command: &Command) {
        execute::execute(world, actor, command)
    }
    fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
        legal::legal_commands(world, actor)
    }
    fn decide(world: &World, actor: Cid) -> crate::rules::command::Decision {
        ai::decision(world, actor)
    }
    fn preview(world: &World, actor: Cid, command: &Command) -> Preview {
        preview::preview(world, actor, command)
    }
    fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
        offers::offers(world, actor, legal)
    }
    fn sheet(world: &World, cid: Cid) -> Vec<(String, String)> {
        sheet::sheet(world, cid)
    }
    fn advance(world: &mut Scene) {
        round::advance(world)
    }
    const AUDIT: &'static [AuditFigure] = audit::FIGURES;
    fn sheet_tip(world: &World, cid: Cid, label: &str) -> Option<String> {
        sheet::tip(world, cid, label)
    }
    fn terrain_note(_world: &World, t: crate::rules::map::Terrain) -> Option<String> {
        sheet::terrain_note(t)
    }
    /// §Combat procedure, §Taking a turn, §Attacking, §Reacting to an
    /// attack.
    const ROUND: &'static [&'static str] = &[
        "Sides alternate: on your side's turn, pick one of your characters who has not acted this round (click it), or pass. The side holding the initiative may hand the first turn over.",
        "A character's turn: full speed (two zones, four sprinting), or half speed with a main action and a bonus action (or two bonus actions); the movement may be split around the actions.",
        "Attacks: melee at nearby enemies, ranged at visible ones in range; a WIT save when unseen, beyond half range or shooting on the move.",
        "Attacked, a character may react (dodge, counter, guard an ally, hide behind one): a reaction takes its whole turn this round.",
        "The round ends when every side passes in a row.",
    ];
    const HELP: &'static [(&'static str, &'static str)] = &[
        (
            "Click / Enter",
            "your side chooses who acts: click one of your highlighted characters; Enter passes",
        ),
        (
            "1 ... 9",
            "when attacked: the dialog's numbered answers (dodge, counter, guard, hide behind, take it); a reaction spends the character's turn",
        ),
        (
            "Action bar",
            "shove, grab, disarm, words, powers and items are tools: pick one, then click the target",
        ),
    ];
    fn audit(world: &World, first: usize, counts: &mut [u64]) {
        audit::audit(world, first, counts)
    }
    fn apply(world: &mut World, event: &BattleEvent) {
        apply::apply(world, event)
    }
    fn aftermath(world: &mut Scene) {
        gear::aftermath(world)
    }
    fn after_note(world: &World, cid: Cid) -> Option<String> {
        gear::after_note(world, cid)
    }
}

/// The zones ruleset plugin.
pub fn plugin(app: &mut App) {
    skeleton::plugin::<Zones>(app);
}

#[cfg(test)]
mod tests;
