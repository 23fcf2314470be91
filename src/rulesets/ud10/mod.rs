//! UD10 (`../shared/rules/ud10.txt`): d10 + skill initiative; once a round a
//! movement, an action and a reaction; d10 + skill vs Defense; body zones,
//! armor, buffer; fleeing and retreat. Fray's decisions where the text is
//! silent are in `docs/rulesets/ud10.md`.

pub mod ai;
pub mod apply;
pub mod armor;
pub mod attack;
pub mod audit;
pub mod check;
pub mod command;
pub mod cover;
pub mod damage;
pub mod data;
pub mod event;
pub mod execute;
pub mod facing;
pub mod first_aid;
pub mod harm;
pub mod legal;
pub mod movement;
pub mod narrate;
pub mod numbers;
pub mod offers;
pub mod preview;
pub mod query;
pub mod reach;
pub mod round;
pub mod settings;
pub mod sheet;
pub mod state;
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
use crate::rules::level::CombatantDef;
use crate::rulesets::skeleton::{self, Ruleset};

use crate::rules::fork::ForkRegistry;
use data::{Ud10Data, Ud10Stats};
use numbers::PendingAttack;
use round::Ud10Round;
use settings::Ud10Settings;

pub const RULE_FREE_ACTIONS: &str = "ud10 §Free Actions";
pub const RULE_ACTIONS: &str = "ud10 §Performing Actions";

/// The id levels and the command line use.
pub const ID: RulesetId = RulesetId("ud10");

/// The UD10 ruleset.
pub struct Ud10;

impl Ruleset for Ud10 {
    const ID: RulesetId = ID;
    type Command = command::Ud10Command;
    type Data = Ud10Data;
    type Settings = Ud10Settings;
    type Round = Ud10Round;
    type Pending = PendingAttack;

    fn load(dir: &Path) -> Result<Ud10Data, DataError> {
        Ud10Data::load(dir)
    }
    fn settings(data: &Ud10Data) -> &Ud10Settings {
        &data.settings
    }
    fn check_combatant(data: &Ud10Data, def: &CombatantDef) -> Result<(), DefError> {
        data.equip(def).map(|_| ())
    }
    fn fork(registry: &mut ForkRegistry) {
        registry
            .component::<Ud10Stats>()
            .component::<armor::Armor>()
            .component::<armor::Shield>()
            .component::<state::Ud10Turn>();
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
    /// §Attacking: from behind (Fray decides) reads which way the defender
    /// faces.
    const FACING: bool = true;
    fn sheet_tip(world: &World, cid: Cid, label: &str) -> Option<String> {
        sheet::tip(world, cid, label)
    }
    fn terrain_note(world: &World, t: crate::rules::map::Terrain) -> Option<String> {
        sheet::terrain_note(world, t)
    }
    /// §Starting a Combat Round, §Courses of Action, §Movement,
    /// §Attacking, §Parrying and Dodging, §Determining The Damage.
    const ROUND: &'static [&'static str] = &[
        "Initiative: each combatant rolls d10 + its Initiative skill; the highest acts first, then the next (rolled once and kept, unless the table's setting says each round).",
        "A turn: a standard movement (5 m + STR) and one action, before or after moving; or a full movement, up to twice as far, and no action. Blue cells keep the action, amber ones are a full movement.",
        "An attack hits when d10 + skill + modifiers reaches the target's Defense (10 + DEX, shield, cover; no DEX or shield against a blow from behind, from an enemy straight behind you while another engages you). A move ends facing the nearest enemy; turning (T) is free.",
        "A melee hit may be answered once a round: a parry with a ready weapon, or a dodge, each needing a roll higher than the attack's. Missiles and unseen blows cannot be answered.",
        "Damage: the weapon's dice (a 10 rolls again), less armour, the buffer (taken as EP) and CON; what is left comes off HP.",
    ];
    const HELP: &'static [(&'static str, &'static str)] = &[
        ("Q", "take cover (crouch) / stand up"),
        ("R", "reload the weapon in hand"),
        (
            "G",
            "aim tool: click the target to aim at (spends the action)",
        ),
        ("X", "retreat tool: click where to back away to"),
        (
            "T",
            "face tool: click a cell beside you to turn that way (free; a move ends facing the nearest enemy)",
        ),
        ("V", "cut yourself free of a net (spends the action)"),
        (
            "H",
            "first aid on a fallen ally beside you (spends the action)",
        ),
        (
            "1, 2, 3",
            "when attacked: the dialog's answers (parry, dodge, take the hit)",
        ),
    ];
    fn audit(world: &World, first: usize, counts: &mut [u64]) {
        audit::audit(world, first, counts)
    }
    fn apply(world: &mut World, event: &BattleEvent) {
        apply::apply(world, event)
    }
}

/// The UD10 ruleset plugin.
pub fn plugin(app: &mut App) {
    skeleton::plugin::<Ud10>(app);
}

#[cfg(test)]
mod tests;
