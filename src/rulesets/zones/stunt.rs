//! §Attack stunts: the target accepts the offered effect, or refuses and
//! may then react.

use bevy::prelude::*;

use crate::rules::components::{Condition, Loadout};
use crate::rules::event::{BattleEvent, ConditionAdded, Disarmed};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::zones::event::{StuntAccepted, ZonesEvent};

use super::blow::tidy_holds;
use super::modes::MODE_STUNT_DISARM;
use super::query::stunt_effect;
use super::state::{AttackState, RULE_STUNT};

/// The target accepts the stunt: no damage, no reaction; the effect.
pub(super) fn accept_stunt(world: &mut Scene, state: &AttackState) {
    let who = state.target;
    let effect = stunt_effect(state.mode);
    emit(
        world,
        ZonesEvent::StuntAccepted(StuntAccepted {
            who,
            effect,
            rule: RULE_STUNT,
        }),
    );
    if state.mode == MODE_STUNT_DISARM {
        if let Some(l) = view::get::<Loadout>(world, who)
            && let Some(i) = l.ready
            && let Some(w) = l.weapons.get(i).filter(|w| w.hands > 0)
        {
            let weapon = String::from(&*w.name);
            emit(
                world,
                BattleEvent::Disarmed(Disarmed {
                    who,
                    index: i,
                    weapon,
                    taken_by: None,
                    rule: RULE_STUNT,
                }),
            );
        }
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who,
                condition: Condition::Incapacitated,
                rule: RULE_STUNT,
            }),
        );
    } else {
        emit(
            world,
            BattleEvent::ConditionAdded(ConditionAdded {
                who,
                condition: Condition::Surrendered,
                rule: RULE_STUNT,
            }),
        );
    }
    tidy_holds(world);
}
