//! UD10 (`../shared/rules/ud10.txt`): d10 + skill initiative; once a round a
//! movement, an action and a reaction; d10 + skill vs Defense; body zones,
//! armor, buffer; fleeing and retreat. Fray's decisions where the text is
//! silent are in `docs/rulesets/ud10.md`.

pub mod ai;
pub mod apply;
pub mod armor;
pub mod attack;
pub mod check;
pub mod command;
pub mod damage;
pub mod data;
pub mod event;
pub mod movement;
pub mod narrate;
pub mod numbers;
pub mod offers;
pub mod preview;
pub mod query;
pub mod reach;
pub mod round;
pub mod settings;
pub mod turn;
pub mod weapon;

use std::path::Path;

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::{Battle, Offers, Preview, Prompt, RulesetId};
use crate::rules::command::{Command, Illegal};
use crate::rules::components::{Cid, Condition, Loadout, MoveMode};
use crate::rules::error::DataError;
use crate::rules::event::BattleEvent;
use crate::rules::level::CombatantDef;
use crate::rules::view;
use crate::rulesets::skeleton::{self, Ruleset};
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::event::Ud10Event;

use data::Ud10Data;
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
    fn defines(data: &Ud10Data, archetype: &str) -> bool {
        data.bestiary.archetypes.contains_key(archetype)
    }
    fn equip(world: &mut World, entity: Entity, def: &CombatantDef) -> Result<(), String> {
        equip(world, entity, def)
    }
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
        check::check(world, actor, command)
    }
    fn execute(world: &mut World, actor: Cid, command: &Command) {
        execute(world, actor, command)
    }
    fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
        legal_commands(world, actor)
    }
    fn decide(world: &mut World, actor: Cid) -> Command {
        ai::decide(world, actor)
    }
    fn preview(world: &World, actor: Cid, command: &Command) -> Preview {
        preview::preview(world, actor, command)
    }
    fn offers(world: &World, actor: Cid, legal: &[Command]) -> Offers {
        offers::offers(world, actor, legal)
    }
    fn sheet(world: &World, cid: Cid) -> Vec<(String, String)> {
        preview::sheet(world, cid)
    }
    fn advance(world: &mut World) {
        round::advance(world)
    }
    fn apply(world: &mut World, event: &BattleEvent) {
        apply::apply(world, event)
    }
}

/// The UD10 ruleset plugin.
pub fn plugin(app: &mut App) {
    skeleton::plugin::<Ud10>(app);
}

fn equip(world: &mut World, entity: Entity, def: &CombatantDef) -> Result<(), String> {
    let data = world
        .get_resource::<Ud10Data>()
        .ok_or("ud10 data is not loaded")?;
    let b = data.equip(def)?;
    let mut e = world.entity_mut(entity);
    e.insert((
        b.stats,
        b.size,
        b.health,
        b.loadout,
        b.armor,
        turn::Ud10Turn::default(),
    ));
    if let Some(s) = b.shield {
        e.insert(s);
    }
    Ok(())
}

fn execute(world: &mut World, actor: Cid, command: &Command) {
    match (command, command.own::<Ud10Command>()) {
        (Command::Move { path }, _) => {
            if let Ok((mode, _)) = reach::check_move(world, actor, path) {
                movement::execute_move(world, actor, path, mode);
            }
        }
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => attack::execute_attack(world, actor, *target, *weapon, *mode, false),
        (_, Some(Ud10Command::Aim { target, .. })) => {
            let t = query::turn(world, actor);
            let rounds = match t.aim {
                Some((at, r)) if at == *target => (r + 1).min(2),
                _ => 1,
            };
            emit(
                world,
                Ud10Event::Aimed {
                    who: actor,
                    target: *target,
                    rounds,
                    rule: numbers::RULE_ATTACK_MODS,
                },
            );
        }
        (_, Some(Ud10Command::Reload { weapon })) => {
            let Some(w) = query::loadout(world, actor).and_then(|l| l.weapons.get(*weapon)) else {
                return;
            };
            let room = w.magazine - w.loaded;
            let add = w.spare.map_or(room, |s| s.min(room));
            let (name, loaded) = (w.name.clone(), w.loaded + add);
            emit(
                world,
                Ud10Event::Reloaded {
                    who: actor,
                    weapon: name,
                    index: *weapon,
                    loaded,
                    rule: RULE_ACTIONS,
                },
            );
        }
        (Command::Draw { weapon }, _) => {
            let t = query::turn(world, actor);
            let Some(w) = query::loadout(world, actor).and_then(|l| l.weapons.get(*weapon)) else {
                return;
            };
            let as_movement = check::draw_as_movement(&t, w);
            let name = w.name.clone();
            emit(
                world,
                BattleEvent::Drew {
                    who: actor,
                    weapon: name,
                    index: *weapon,
                    as_movement,
                    rule: if as_movement {
                        reach::RULE_MOVEMENT
                    } else {
                        RULE_ACTIONS
                    },
                },
            );
        }
        (_, Some(Ud10Command::TakeCover)) => emit(
            world,
            BattleEvent::ConditionAdded {
                who: actor,
                condition: Condition::Crouching,
                rule: RULE_FREE_ACTIONS,
            },
        ),
        (_, Some(Ud10Command::Stand)) => emit(
            world,
            BattleEvent::ConditionRemoved {
                who: actor,
                condition: Condition::Crouching,
                rule: RULE_FREE_ACTIONS,
            },
        ),
        (_, Some(Ud10Command::Retreat { path })) => {
            movement::execute_retreat(world, actor, path);
            end_turn(world, actor);
        }
        (Command::Flee, _) => {
            movement::execute_flee(world, actor);
            end_turn(world, actor);
        }
        (Command::EndTurn, _) => end_turn(world, actor),
        (_, Some(Ud10Command::Parry)) | (Command::Dodge, _) | (Command::NoReaction, _) => {
            attack::resolve_reaction(world, actor, command);
        }
        // Refused by the check: not part of a ud10 round.
        _ => {}
    }
    // A combatant struck down during its own turn (a free attack while
    // fleeing) has no more turn.
    if let Prompt::Act { actor: a } = world.resource::<Battle>().prompt
        && !view::standing(world, a)
        && !matches!(
            (command, command.own::<Ud10Command>()),
            (Command::EndTurn, _) | (Command::Flee, _) | (_, Some(Ud10Command::Retreat { .. }))
        )
    {
        end_turn(world, a);
    }
}

fn end_turn(world: &mut World, who: Cid) {
    if world.resource::<Battle>().prompt == (Prompt::Act { actor: who }) {
        emit(world, BattleEvent::TurnEnded { who });
        world.resource_mut::<Battle>().prompt = Prompt::None;
    }
}

/// A representative list of legal commands for the actor now.
pub fn legal_commands(world: &World, actor: Cid) -> Vec<Command> {
    let mut out = Vec::new();
    let prompt = world.resource::<Battle>().prompt;
    if let Prompt::React { .. } = prompt {
        for c in [
            Command::from(Ud10Command::Parry),
            Command::Dodge,
            Command::NoReaction,
        ] {
            if check::check(world, actor, &c).is_ok() {
                out.push(c);
            }
        }
        return out;
    }
    if prompt != (Prompt::Act { actor }) {
        return out;
    }
    let mut push = |c: Command| {
        if check::check(world, actor, &c).is_ok() {
            out.push(c);
        }
    };
    push(Command::EndTurn);
    for (_, path, _) in reach::reach_paths(world, actor, reach::remaining_dm(world, actor)) {
        push(Command::Move { path });
    }
    let t = query::turn(world, actor);
    if t.movement == MoveMode::None && !t.action_used {
        let std_dm = reach::standard_dm(world, actor);
        for (_, path, _) in reach::reach_paths(world, actor, std_dm) {
            push(Command::from(Ud10Command::Retreat { path }));
        }
    }
    if let Some(l) = view::get::<Loadout>(world, actor) {
        for (i, w) in l.weapons.iter().enumerate() {
            for target in view::enemies(world, actor) {
                for mode in 0..w.mode_count() {
                    push(Command::Attack {
                        target,
                        weapon: i,
                        mode,
                    });
                }
                push(Command::from(Ud10Command::Aim { target, weapon: i }));
            }
            push(Command::from(Ud10Command::Reload { weapon: i }));
            push(Command::Draw { weapon: i });
        }
    }
    push(Command::from(Ud10Command::TakeCover));
    push(Command::from(Ud10Command::Stand));
    push(Command::Flee);
    out
}

#[cfg(test)]
mod tests;
