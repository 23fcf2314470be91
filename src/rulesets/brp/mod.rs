//! brp (`../shared/rules/brp.txt`, §5.1–5.14): rounds in four phases in DEX
//! order, D100 roll-under with special successes, the parry and dodge
//! matrix, weapons and shields that break, First Aid against the end of the
//! round. Fray's decisions where the text leaves a call to the gamemaster
//! are in `docs/rulesets/brp.md`.

pub mod ai;
pub mod apply;
pub mod attack;
pub mod chance;
pub mod check;
pub mod command;
pub mod data;
pub mod derived;
pub mod equip;
pub mod event;
pub mod execute;
pub mod legal;
pub mod matrix;
pub mod mounts;
pub mod narrate;
pub mod numbers;
pub mod offers;
pub mod preview;
pub mod query;
pub mod round;
pub mod settings;
pub mod sheet;
pub mod state;
pub mod stats;

use std::path::Path;

use bevy::prelude::*;

use crate::rules::battle::RulesetId;
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::error::{DataError, DefError};
use crate::rules::event::BattleEvent;
use crate::rules::fork::ForkRegistry;
use crate::rules::hooks::{Offers, Preview};
use crate::rules::level::CombatantDef;
use crate::rules::scene::Scene;
use crate::rulesets::skeleton::{self, Ruleset};

use data::BrpData;
use settings::BrpSettings;
use state::{BrpRound, PendingAttack};
use stats::{BrpArmor, BrpShield, BrpStats, Wounds};

/// The id levels and the command line use.
pub const ID: RulesetId = RulesetId("brp");

/// The brp ruleset.
pub struct Brp;

impl Ruleset for Brp {
    const ID: RulesetId = ID;
    type Command = command::BrpCommand;
    type Data = BrpData;
    type Settings = BrpSettings;
    type Round = BrpRound;
    type Pending = PendingAttack;

    fn load(dir: &Path) -> Result<BrpData, DataError> {
        BrpData::load(dir)
    }
    fn settings(data: &BrpData) -> &BrpSettings {
        &data.settings
    }
    fn check_combatant(data: &BrpData, def: &CombatantDef) -> Result<(), DefError> {
        data.equip(def).map(|_| ())
    }
    fn carries(data: &BrpData, def: &CombatantDef) -> u8 {
        data.bestiary
            .archetypes
            .get(&def.archetype)
            .map_or(0, |a| a.carries)
    }
    fn fork(registry: &mut ForkRegistry) {
        registry
            .component::<BrpStats>()
            .component::<BrpArmor>()
            .component::<BrpShield>()
            .component::<Wounds>();
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
    fn sheet_tip(world: &World, cid: Cid, label: &str) -> Option<String> {
        sheet::tip(world, cid, label)
    }
    fn advance(world: &mut Scene) {
        round::advance(world)
    }
    fn round_note(world: &World) -> Option<String> {
        sheet::round_note(world)
    }
    fn order_note(world: &World, cid: Cid) -> Option<(String, String)> {
        sheet::order_note(world, cid)
    }
    fn aims_at(world: &World, cid: Cid) -> Option<Cid> {
        sheet::aims_at(world, cid)
    }
    fn apply(world: &mut World, event: &BattleEvent) {
        apply::apply(world, event)
    }
    /// §5.1 to §5.4, §5.13.
    const ROUND: &'static [&'static str] = &[
        "A round has four phases: Statement of Intent, Movement, Actions, Resolution.",
        "Statements: each character states what it will do, in DEX order, highest first (click an enemy to state an attack on it). Parries and dodges are not stated.",
        "Movement: up to 4.5 m keeps your DEX rank; 6-15 m acts at half of it, 16-29 m at a quarter; 30 m leaves only parries and dodges.",
        "Actions go by DEX rank, highest first. An attack rolls D100 under its skill (under a fifth: a special success); the defender may parry or dodge at the same rank, and a special needs a special to stop it.",
        "A weapon or shield that parries a blow takes damage from it, and can break.",
    ];
    const HELP: &'static [(&'static str, &'static str)] = &[
        (
            "click an enemy",
            "statement of intent: attack it with the weapon in hand; on your DEX rank: attack it",
        ),
        ("H", "First Aid on a wounded ally (state it, then give it)"),
        ("R", "reload a crossbow or firearm (takes the round)"),
        ("V", "state only parries and dodges (free to move 30 m)"),
        (
            "K",
            "kneel behind a large shield in the Movement phase (90% against missiles)",
        ),
        (
            "1, 2, 3",
            "when attacked: the dialog's answers (parry, dodge, take the blow)",
        ),
    ];
}

/// The brp ruleset plugin.
pub fn plugin(app: &mut App) {
    skeleton::plugin::<Brp>(app);
}

#[cfg(test)]
mod tests;
