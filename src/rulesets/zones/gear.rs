//! §Combat gear degradation: "After a fight, make a durability roll for all
//! weapons and armour which were used at least once. This represents damage
//! to the equipment and depleting ammunition." Fray decides what a
//! durability roll is (docs/rulesets/zones.md §Gear): one die per item
//! (`durability_die`, a d6), a 1 damages it.

use bevy::prelude::*;

use crate::rules::apply::emit;
use crate::rules::battle::BattleLog;
use crate::rules::components::{Cid, Loadout};
use crate::rules::dice::{Dice, DiceRoll};
use crate::rules::event::BattleEvent;
use crate::rules::view;

use super::check::stats;
use super::settings::ZonesSettings;

pub const RULE_GEAR: &str = "zones §Combat gear degradation";

/// The items each character used in the fight, in the order first used:
/// weapons it attacked with (not bare hands or natural weapons), and the
/// armour and shield of those who were hit.
pub fn used_items(world: &World) -> Vec<(Cid, String)> {
    let mut used: Vec<(Cid, String)> = Vec::new();
    let mut add = |who: Cid, item: String| {
        if !used.iter().any(|(w, i)| *w == who && *i == item) {
            used.push((who, item));
        }
    };
    for ev in &world.resource::<BattleLog>().events {
        match ev {
            BattleEvent::AttackMade {
                attacker, weapon, ..
            } => {
                let natural = view::get::<Loadout>(world, *attacker)
                    .is_some_and(|l| l.weapons.iter().any(|w| w.name == *weapon && w.hands == 0));
                if !natural {
                    add(*attacker, weapon.clone());
                }
            }
            BattleEvent::Damaged { target, .. } => {
                if let Some(s) = stats(world, *target) {
                    for a in &s.armour_names {
                        add(*target, a.clone());
                    }
                }
            }
            _ => {}
        }
    }
    used
}

/// Roll durability for everything used, once the battle is over.
pub fn aftermath(world: &mut World) {
    let settings = world.resource::<ZonesSettings>().clone();
    if !settings.gear_degradation {
        return;
    }
    for (who, item) in used_items(world) {
        let sides = settings.durability_die.max(2);
        let r = world.resource_mut::<Dice>().roll_die(sides);
        emit(
            world,
            BattleEvent::GearRolled {
                who,
                item,
                roll: DiceRoll::one_die(sides, r),
                damaged: r == 1,
                rule: RULE_GEAR,
            },
        );
    }
}

/// The items `who` came out of the fight with damaged.
pub fn damaged_items(log: &BattleLog, who: Cid) -> Vec<String> {
    log.events
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::GearRolled {
                who: w,
                item,
                damaged: true,
                ..
            } if *w == who => Some(item.clone()),
            _ => None,
        })
        .collect()
}
