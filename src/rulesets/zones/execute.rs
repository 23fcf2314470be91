//! Carrying out a checked zones command: each emits the events that say what
//! happened; `apply.rs` changes the state from them.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Ground, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition};
use crate::rules::event::{
    BattleEvent, ConditionAdded, ConditionRemoved, DamageRolled, Healed, PickedUp,
};
use crate::rules::scene::Scene;
use crate::rules::scene::{draw, emit};
use crate::rules::view;
use crate::rulesets::zones::command::{Influence, ZonesCommand};
use crate::rulesets::zones::event::{
    BackOnFeet, FirstTurnGiven, InfluenceTried, ItemUsed, Passed, PowerInvoked, Swayed, ZonesEvent,
};
use crate::rulesets::zones::stats::PowerEffect;

use super::state::RULE_MAIN_ACTIONS;
use super::{RULE_BONUS, attack, blow, morale, mounts, movement, nonlethal, reaction, round, save};

pub fn execute(world: &mut Scene, actor: Cid, command: &Command) {
    if !matches!(
        command.own::<ZonesCommand>(),
        Some(
            ZonesCommand::Activate { .. }
                | ZonesCommand::Pass
                | ZonesCommand::FirstTurnTo { .. }
                | ZonesCommand::Reserve
        )
    ) {
        nonlethal::let_go_unless_kept(world, actor, command);
    }
    execute_command(world, actor, command);
    mounts::tidy_riders(world);
    // Whoever holds the turn and is now out of the fight (thrown from a
    // falling mount as the turn came to it) ends it.
    if let Prompt::Act { actor: a } = view::resource::<Battle>(world).prompt
        && !view::standing(world, a)
    {
        round::end_turn(world, a);
    }
}

fn execute_command(world: &mut Scene, actor: Cid, command: &Command) {
    match (command, command.own::<ZonesCommand>()) {
        (_, Some(ZonesCommand::Activate { who })) => execute_activate(world, *who),
        (_, Some(ZonesCommand::Mount { mount })) => mounts::mount(world, actor, *mount),
        (_, Some(ZonesCommand::Dismount { to })) => mounts::dismount(world, actor, *to),
        (_, Some(ZonesCommand::Reserve)) => round::reserve(world, actor),
        (_, Some(ZonesCommand::PickUp { item })) => execute_pick_up(world, actor, *item),
        (_, Some(ZonesCommand::Pass)) => execute_pass(world),
        (_, Some(ZonesCommand::FirstTurnTo { faction })) => execute_first_turn_to(world, *faction),
        (Command::Move { path }, _) => movement::execute_move(world, actor, path, false),
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => attack::execute_attack(world, actor, *target, *weapon, *mode),
        (_, Some(ZonesCommand::Maneuver { target, kind })) => {
            attack::execute_maneuver(world, actor, *target, *kind);
        }
        (_, Some(ZonesCommand::SplitAttack { weapon, shares })) => {
            attack::execute_split(world, actor, *weapon, shares);
        }
        (_, Some(ZonesCommand::BreakFree)) => {
            nonlethal::break_free(world, actor);
            round::end_turn(world, actor);
        }
        (_, Some(ZonesCommand::FreeAlly { who })) => nonlethal::free_ally(world, actor, *who),
        (Command::Draw { weapon }, _) => execute_draw(world, actor, *weapon),
        (_, Some(ZonesCommand::Surrender)) => execute_surrender(world, actor),
        (_, Some(ZonesCommand::Hide)) => {
            emit(
                world,
                BattleEvent::ConditionAdded(ConditionAdded {
                    who: actor,
                    condition: Condition::Concealed,
                    rule: super::state::RULE_SNEAK,
                }),
            );
        }
        (_, Some(ZonesCommand::Influence { target, kind })) => {
            execute_influence(world, actor, *target, *kind);
        }
        (_, Some(ZonesCommand::UseItem { item, on })) => execute_use_item(world, actor, *item, *on),
        (_, Some(ZonesCommand::Invoke { power, target })) => {
            execute_invoke(world, actor, *power, *target);
        }
        (Command::Flee, _) => {
            movement::flee(world, actor);
            round::end_turn(world, actor);
        }
        (Command::EndTurn, _) => round::end_turn(world, actor),
        (c, _) if c.is_reaction() => reaction::resolve_reaction(world, actor, c),
        // Refused by the check.
        _ => {}
    }
}

/// §Procedure: the faction whose activation it is sends `who` into its
/// turn; during a pair's turn, the turn passes to the other member.
fn execute_activate(world: &mut Scene, who: Cid) {
    if let Prompt::Act { actor: from } = view::resource::<Battle>(world).prompt {
        mounts::hand_over(world, from, who);
        return;
    }
    let f = view::faction(world, who).unwrap_or(0);
    round::activate(world, f, who);
}

/// "Bonus actions: picking up or putting down something".
fn execute_pick_up(world: &mut Scene, actor: Cid, item: usize) {
    let weapon = view::resource::<Ground>(world)
        .0
        .get(item)
        .map_or(String::new(), |(_, w)| String::from(&*w.name));
    emit(
        world,
        BattleEvent::PickedUp(PickedUp {
            who: actor,
            item,
            weapon,
            rule: RULE_BONUS,
        }),
    );
}

/// §Procedure: the faction whose activation it is passes.
fn execute_pass(world: &mut Scene) {
    if let Prompt::Activate { faction, .. } = view::resource::<Battle>(world).prompt {
        emit(
            world,
            ZonesEvent::Passed(Passed {
                faction,
                forced: false,
                gone: false,
                rule: round::RULE_PROCEDURE,
            }),
        );
    }
}

/// §Procedure: the faction that won the first turn gives it to `to`.
fn execute_first_turn_to(world: &mut Scene, to: u8) {
    if let Prompt::Activate { faction, .. } = view::resource::<Battle>(world).prompt {
        emit(
            world,
            ZonesEvent::FirstTurnGiven(FirstTurnGiven {
                by: faction,
                to,
                rule: round::RULE_PROCEDURE,
            }),
        );
    }
}

/// Drawing a weapon: a bonus action.
fn execute_draw(world: &mut Scene, actor: Cid, weapon: usize) {
    draw(
        world,
        actor,
        weapon,
        false,
        "spends the bonus action",
        RULE_BONUS,
    );
}

/// §Morale: surrendering ends the turn.
fn execute_surrender(world: &mut Scene, actor: Cid) {
    emit(
        world,
        BattleEvent::ConditionAdded(ConditionAdded {
            who: actor,
            condition: Condition::Surrendered,
            rule: morale::RULE_SURRENDER,
        }),
    );
    round::end_turn(world, actor);
}

/// §Taking a turn, main actions: distracting, intimidating, taunting (Fray
/// decides what each does: docs/rulesets/zones.md, "Main actions"). Words
/// are noise: they reveal a concealed speaker (§Sneaking in combat:
/// "talking").
fn execute_influence(world: &mut Scene, by: Cid, target: Cid, kind: Influence) {
    emit(
        world,
        ZonesEvent::InfluenceTried(InfluenceTried {
            by,
            target,
            kind,
            rule: RULE_MAIN_ACTIONS,
        }),
    );
    blow::reveal(world, by);
    let wit = super::query::stats(world, target).map_or(0, |s| s.wit);
    let purpose = match kind {
        Influence::Intimidate => "against intimidation",
        Influence::Distract => "against a distraction",
        Influence::Taunt => "against a taunt",
    };
    let pass = save::save(world, target, "WIT", wit, purpose, RULE_MAIN_ACTIONS);
    match (kind, pass) {
        // As a morale check: those who pass "aren't subject to morale for
        // the remainder of the stretch".
        (Influence::Intimidate, _) => emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who: target,
                condition: if pass {
                    Condition::Steadfast
                } else {
                    Condition::Broken
                },
                rule: RULE_MAIN_ACTIONS,
            }),
        ),
        (_, true) => {}
        (_, false) => emit(
            world,
            ZonesEvent::Swayed(Swayed {
                target,
                by,
                kind,
                rule: RULE_MAIN_ACTIONS,
            }),
        ),
    }
}

/// "using a consumable item (a medicine box ...)": one use heals its die,
/// never above the character's health (Fray decides).
fn execute_use_item(world: &mut Scene, who: Cid, item: usize, on: Cid) {
    let Some(carried) = super::query::stats(world, who).and_then(|s| s.items.get(item).cloned())
    else {
        return;
    };
    emit(
        world,
        ZonesEvent::ItemUsed(ItemUsed {
            who,
            on,
            item,
            name: carried.name.clone(),
            rule: RULE_MAIN_ACTIONS,
        }),
    );
    mend(world, who, on, &carried.heals);
}

/// Heal `on` by a roll of `dice`, never above its health; an incapacitated
/// character lifted above 0 is back on its feet, with no turn this round
/// (Fray decides: docs/rulesets/zones.md, "Main actions").
fn mend(world: &mut Scene, by: Cid, on: Cid, dice: &crate::rules::dice::DiceExpr) {
    let roll = dice.roll(
        &mut world.dice(),
        &crate::rules::dice::RollOptions::default(),
    );
    let Some(h) = view::get::<crate::rules::components::Health>(world, on).copied() else {
        return;
    };
    let gain = roll.total.max(0);
    emit(
        world,
        BattleEvent::DamageRolled(DamageRolled {
            target: on,
            roll,
            rule: RULE_MAIN_ACTIONS,
        }),
    );
    let hp_after = (h.hp + gain).min(h.hp_max.max(h.hp));
    emit(
        world,
        BattleEvent::Healed(Healed {
            target: on,
            by,
            gained: hp_after - h.hp,
            hp_after,
            rule: RULE_MAIN_ACTIONS,
        }),
    );
    if view::conditions(world, on).has(Condition::Incapacitated) && hp_after > 0 {
        emit(
            world,
            BattleEvent::ConditionRemoved(ConditionRemoved {
                who: on,
                condition: Condition::Incapacitated,
                rule: RULE_MAIN_ACTIONS,
            }),
        );
        emit(
            world,
            ZonesEvent::BackOnFeet(BackOnFeet {
                who: on,
                rule: RULE_MAIN_ACTIONS,
            }),
        );
    }
}

/// §Taking a turn: "invoking a profane power" (Fray decides what powers
/// do: docs/rulesets/zones.md, "Main actions"). Invoking reveals a
/// concealed invoker (§Sneaking in combat: "invoking a power"). A power is
/// not an attack: it cannot be dodged nor countered; a hostile one is
/// resisted with a WIT save.
fn execute_invoke(world: &mut Scene, by: Cid, power: usize, target: Cid) {
    let Some(p) = super::query::stats(world, by).and_then(|s| s.powers.get(power).cloned()) else {
        return;
    };
    emit(
        world,
        ZonesEvent::PowerInvoked(PowerInvoked {
            by,
            target,
            index: power,
            power: p.name.clone(),
            rule: RULE_MAIN_ACTIONS,
        }),
    );
    blow::reveal(world, by);
    if let PowerEffect::Mend(d) = &p.effect {
        mend(world, by, target, d);
        return;
    }
    let wit = super::query::stats(world, target).map_or(0, |s| s.wit);
    if save::save(
        world,
        target,
        "WIT",
        wit,
        "against a power",
        RULE_MAIN_ACTIONS,
    ) {
        return;
    }
    match &p.effect {
        PowerEffect::Harm(d) => {
            super::blow::direct_damage(world, target, Some(by), d, RULE_MAIN_ACTIONS);
        }
        PowerEffect::Terrify => emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who: target,
                condition: Condition::Broken,
                rule: RULE_MAIN_ACTIONS,
            }),
        ),
        PowerEffect::Daze => emit(
            world,
            ZonesEvent::Swayed(Swayed {
                target,
                by,
                kind: Influence::Distract,
                rule: RULE_MAIN_ACTIONS,
            }),
        ),
        PowerEffect::Mend(_) => {}
    }
}
