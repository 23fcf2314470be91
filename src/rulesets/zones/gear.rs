//! §Combat gear degradation: "After a fight, make a durability roll for all
//! weapons and armour which were used at least once. This represents damage
//! to the equipment and depleting ammunition." Fray decides what a
//! durability roll is (docs/rulesets/zones.md §Gear): one die per item
//! (`durability_die`, a d6), a 1 damages it (destroys it if it was damaged
//! already). In the fight, "Damaged weapons and shields are destroyed if
//! used to attack and a 1 is rolled on the damage die. Damaged shields and
//! armour are destroyed by attacks inflicting at least 8 damage before
//! armour reduction (shields are destroyed first)."

use bevy::prelude::*;

use super::query::{broken, stats};

use crate::rules::components::{Cid, Loadout, Weapon};
use crate::rules::dice::DiceRoll;
use crate::rules::event::{BattleEvent, GearBroken};
use crate::rules::log::BattleLog;
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;
use crate::rulesets::zones::event::{GearOutcome, GearRolled, ZonesEvent};
use crate::rulesets::zones::weapon::ZonesGear;

use super::settings::ZonesSettings;
use crate::rulesets::zones::state::{GearUse, ZonesRound};

pub const RULE_GEAR: &str = "zones §Combat gear degradation";

/// The items each character used in the fight, in the order first used:
/// weapons it attacked with (not bare hands or natural weapons), and the
/// armour and shield of those who were hit.
pub fn used_items(world: &World) -> Vec<(Cid, String)> {
    let mut used: Vec<(Cid, String)> = Vec::new();
    // The name copied only when it is new: a fight uses the same few items
    // again and again.
    let mut add = |who: Cid, item: &str| {
        if !used.iter().any(|(w, i)| *w == who && i == item) {
            used.push((who, item.to_owned()));
        }
    };
    for gear in &view::resource::<ZonesRound>(world).gear_used {
        match gear {
            GearUse::Attack { attacker, weapon } => {
                let natural = view::get::<Loadout>(world, *attacker).is_some_and(|l| {
                    l.weapons
                        .iter()
                        .any(|w| *w.name == **weapon && w.hands == 0)
                });
                if !natural {
                    add(*attacker, weapon);
                }
            }
            GearUse::Hit { target } => {
                if let Some(s) = stats(world, *target) {
                    for a in &s.armor_names {
                        add(*target, a);
                    }
                }
            }
        }
    }
    used
}

/// Roll durability for everything used and not broken, once the battle is
/// over.
pub fn aftermath(world: &mut Scene) {
    let settings = view::resource::<ZonesSettings>(world).clone();
    if !settings.gear_degradation {
        return;
    }
    for (who, item) in used_items(world) {
        if broken(world, who, &item) {
            continue;
        }
        let sides = settings.durability_die.max(2);
        let r = world.dice().roll_die(sides);
        let outcome = match (r == 1, was_damaged(world, who, &item)) {
            (false, _) => GearOutcome::Fine,
            (true, false) => GearOutcome::Damaged,
            (true, true) => GearOutcome::Destroyed,
        };
        emit(
            world,
            ZonesEvent::GearRolled(GearRolled {
                who,
                item,
                roll: DiceRoll::one_die(sides, r),
                outcome,
                rule: RULE_GEAR,
            }),
        );
    }
}

/// Did `who` come into the fight with `item` damaged?
fn was_damaged(world: &World, who: Cid, item: &str) -> bool {
    let weapon = view::get::<Loadout>(world, who).is_some_and(|l| {
        l.weapons
            .iter()
            .any(|w| *w.name == *item && w.zones().damaged)
    });
    let piece =
        stats(world, who).is_some_and(|s| s.pieces.iter().any(|p| p.name == item && p.damaged));
    weapon || piece
}

/// What `who` wore out or lost in the fight: ("Sword", "damaged"),
/// ("Shield", "broken"), ...
pub fn gear_report(log: &BattleLog, who: Cid) -> Vec<(String, &'static str)> {
    log.events
        .iter()
        .filter_map(|ev| match (ev, ev.own()) {
            (
                _,
                Some(ZonesEvent::GearRolled(GearRolled {
                    who: w,
                    item,
                    outcome,
                    ..
                })),
            ) if *w == who => match outcome {
                GearOutcome::Fine => None,
                GearOutcome::Damaged => Some((item.clone(), "damaged")),
                GearOutcome::Destroyed => Some((item.clone(), "destroyed")),
            },
            (BattleEvent::GearBroken(GearBroken { who: w, item, .. }), _) if *w == who => {
                Some((item.clone(), "broken"))
            }
            _ => None,
        })
        .collect()
}

/// The results screen's line on `who`'s gear after the durability rolls:
/// what wore out, "gear intact", or nothing when no roll was made.
pub fn after_note(world: &World, who: Cid) -> Option<String> {
    let log = view::resource::<BattleLog>(world);
    let worn = gear_report(log, who);
    if !worn.is_empty() {
        return Some(
            worn.iter()
                .map(|(item, what)| format!("{item} {what}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    log.events
        .iter()
        .any(|ev| matches!(ev.own(), Some(ZonesEvent::GearRolled(GearRolled { who: w, .. })) if *w == who))
        .then(|| "gear intact".to_string())
}

/// "Damaged weapons ... are destroyed if used to attack and a 1 is rolled
/// on the damage die": after the roll the weapon breaks (the blow still
/// lands).
pub fn break_worn_weapon(world: &mut Scene, who: Cid, w: &Weapon, roll: &DiceRoll) {
    if !w.zones().damaged || roll.dice.first().is_none_or(|d| d.result != 1) {
        return;
    }
    let index = view::get::<Loadout>(world, who).and_then(|l| {
        l.weapons
            .iter()
            .position(|x| x.name == w.name && x.zones().damaged)
    });
    if let Some(index) = index {
        emit(
            world,
            BattleEvent::GearBroken(GearBroken {
                who,
                item: String::from(&*w.name),
                weapon_index: Some(index),
                rule: RULE_GEAR,
            }),
        );
    }
}

/// "Damaged shields and armour are destroyed by attacks inflicting at least
/// 8 damage before armour reduction (shields are destroyed first)": one
/// piece per attack; it still protects against that blow.
pub fn break_worn_armor(world: &mut Scene, who: Cid, before_armor: i32) {
    if before_armor < 8 {
        return;
    }
    let Some(s) = stats(world, who) else { return };
    let mut worn: Vec<(bool, String)> = s
        .pieces
        .iter()
        .filter(|p| p.damaged)
        .map(|p| (p.shield, p.name.clone()))
        .collect();
    // Shields first.
    worn.sort_by_key(|(shield, _)| !*shield);
    let Some((_, item)) = worn.into_iter().find(|(_, n)| !broken(world, who, n)) else {
        return;
    };
    emit(
        world,
        BattleEvent::GearBroken(GearBroken {
            who,
            item,
            weapon_index: None,
            rule: RULE_GEAR,
        }),
    );
}
