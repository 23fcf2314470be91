//! §Combat gear degradation and weapons on the ground.

use super::*;
use crate::rulesets::zones::event::AttackMade;
use crate::rulesets::zones::weapon::ZonesGear;

/// §Combat gear degradation: "After a fight, make a durability roll for all
/// weapons and armour which were used at least once." Fray: a d6 per item,
/// a 1 damages it; armour is used when its wearer is hit.
#[test]
fn after_the_fight_used_gear_rolls_for_durability() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "spearman", faction: "players", at: (1, 0), name: "Theobald", overrides: (weapons: ["spear"], armor: ["light"], shield: "shield"))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Bandit")"#,
        ],
    );
    // Axe 5; spear 6; then durability: axe 3, light armour 1, shield 2,
    // spear 4.
    let mut e = start(&l, &[5, 6, 3, 1, 2, 4]);
    let [theo, bandit] = ["Theobald", "Bandit"].map(|n| cid(&e, n));
    activate(&mut e, bandit);
    attack(&mut e, bandit, theo, 0, MODE_STRIKE);
    cmd(&mut e, theo, Command::NoReaction);
    cmd(&mut e, bandit, Command::EndTurn);
    activate(&mut e, theo);
    attack(&mut e, theo, bandit, 0, MODE_STRIKE);
    assert!(e.world().resource::<Battle>().is_over());
    assert_eq!(
        gear_rolls(&e),
        vec![
            (bandit, "Axe".to_string(), 3, GearOutcome::Fine),
            (theo, "Light armour".to_string(), 1, GearOutcome::Damaged),
            (theo, "Shield".to_string(), 2, GearOutcome::Fine),
            (theo, "Spear".to_string(), 4, GearOutcome::Fine),
        ]
    );
    let log = e.world().resource::<crate::rules::log::BattleLog>();
    assert_eq!(
        crate::rulesets::zones::gear::gear_report(log, theo),
        vec![("Light armour".to_string(), "damaged")]
    );
}

/// "Damaged weapons and shields are destroyed if used to attack and a 1 is
/// rolled on the damage die." Improvised weapons are "handled as if they
/// were already damaged". After the fight, a damaged item that rolls a 1 is
/// destroyed.
#[test]
fn a_damaged_weapon_breaks_on_a_one() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (1, 0), name: "Worn", overrides: (weapons: ["sword", "improvised"], damaged: ["sword"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Bandit")"#,
        ],
    );
    // Sword d6 = 1: the blow lands, the sword breaks. Next round the
    // improvised weapon: d6 = 6 (8 -> 1, out). Durability: improvised 1,
    // destroyed.
    let mut e = start(&l, &[1, 6, 1]);
    let [worn, bandit] = ["Worn", "Bandit"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, worn);
    attack(&mut e, worn, bandit, 0, MODE_STRIKE);
    cmd(&mut e, bandit, Command::NoReaction);
    assert_eq!(hp(&e, bandit), 7);
    assert_eq!(broke(&e), vec![(worn, "Sword".to_string())]);
    let names: Vec<String> = view::get::<crate::rules::components::Loadout>(e.world(), worn)
        .map(|l| l.weapons.iter().map(|w| String::from(&*w.name)).collect())
        .unwrap_or_default();
    assert_eq!(names, vec!["Improvised weapon", "Unarmed"]);
    cmd(&mut e, worn, Command::EndTurn);
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, worn);
    cmd(&mut e, worn, Command::Draw { weapon: 0 });
    attack(&mut e, worn, bandit, 0, MODE_STRIKE);
    cmd(&mut e, bandit, Command::NoReaction);
    assert!(e.world().resource::<Battle>().is_over());
    // The broken sword rolls no more; the improvised weapon, used and
    // "already damaged", is destroyed on a 1.
    assert_eq!(
        gear_rolls(&e),
        vec![(
            worn,
            "Improvised weapon".to_string(),
            1,
            GearOutcome::Destroyed
        )]
    );
}

/// "Damaged shields and armour are destroyed by attacks inflicting at least
/// 8 damage before armour reduction (shields are destroyed first)."
#[test]
fn worn_armor_breaks_under_a_heavy_blow_shield_first() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "spearman", faction: "players", at: (1, 0), name: "Theobald", overrides: (armor: ["light"], shield: "shield", damaged: ["light", "shield"], stats: {"HEALTH": 30}))"#,
            r#"(archetype: "wyrm", faction: "bandits", at: (0, 0), name: "Wyrm")"#,
        ],
    );
    // The bite: 2d8 against a medium target = 5 + 4 = 9: armour 2 -> 7
    // suffered, and the shield breaks. Next round 3 + 5 = 8: armour now 1
    // -> 7, and the light armour breaks.
    let mut e = start(&l, &[5, 4, 3, 5]);
    let [theo, wyrm] = ["Theobald", "Wyrm"].map(|n| cid(&e, n));
    activate(&mut e, wyrm);
    let n = e.events().len();
    attack(&mut e, wyrm, theo, 0, MODE_STRIKE);
    cmd(&mut e, theo, Command::NoReaction);
    assert_eq!(damaged(&since(&e, n)), vec![(theo, 7, 23)]);
    assert_eq!(broke(&e), vec![(theo, "Shield".to_string())]);
    cmd(&mut e, wyrm, Command::EndTurn);
    next_round(&mut e);
    activate(&mut e, wyrm);
    let n = e.events().len();
    attack(&mut e, wyrm, theo, 0, MODE_STRIKE);
    cmd(&mut e, theo, Command::NoReaction);
    assert_eq!(damaged(&since(&e, n)), vec![(theo, 7, 16)]);
    assert_eq!(
        broke(&e),
        vec![
            (theo, "Shield".to_string()),
            (theo, "Light armour".to_string())
        ]
    );
}

#[test]
fn damaged_gear_must_be_carried() {
    let data = crate::rulesets::zones::data::ZonesData::load(Path::new("assets/rulesets/zones"))
        .unwrap_or_else(|e| panic!("{e}"));
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (1, 0), name: "A", overrides: (damaged: ["bow"]))"#,
            r#"(archetype: "swordsman", faction: "bandits", at: (0, 0), name: "B", overrides: (damaged: ["sword", "light", "shield"]))"#,
        ],
    );
    let err = data
        .equip(&l.combatants[0])
        .err()
        .map(|e| e.message)
        .unwrap_or_default();
    assert!(err.contains("`damaged` names `bow`"), "{err}");
    let b = data
        .equip(&l.combatants[1])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(b.loadout.weapons[0].zones().damaged);
    assert!(b.stats.pieces.iter().all(|p| p.damaged));
}

/// "If the attacker has a free hand, they can grab the weapon"; otherwise it
/// falls to the ground, where anyone nearby may pick it up ("Bonus actions:
/// picking up or putting down something").
#[test]
fn a_dropped_weapon_lies_on_the_ground_until_picked_up() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (1, 0), name: "Shielded", overrides: (weapons: ["sword"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Axeman", overrides: (weapons: ["axe"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (6, 0), name: "Far")"#,
        ],
    );
    // The axeman's STR save: 14 fails against 10.
    let mut e = start(&l, &[14]);
    let [shielded, axeman, far] = ["Shielded", "Axeman", "Far"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, shielded);
    cmd(
        &mut e,
        shielded,
        ZonesCommand::Maneuver {
            target: axeman,
            kind: Maneuver::Disarm { weapon: 0 },
        },
    );
    cmd(&mut e, axeman, Command::NoReaction);
    decline_guards(&mut e);
    // Sword and shield: no free hand, so the axe falls where the bandit
    // stands.
    let ground = |e: &Engine| -> Vec<(Cell, String)> {
        e.world()
            .resource::<crate::rules::battle::Ground>()
            .0
            .iter()
            .map(|(c, w)| (*c, String::from(&*w.name)))
            .collect()
    };
    assert_eq!(ground(&e), vec![(Cell::new(0, 0), "Axe".to_string())]);
    cmd(&mut e, shielded, Command::EndTurn);
    // Someone in another zone can't reach it.
    activate(&mut e, far);
    let why = refused(&mut e, far, ZonesCommand::PickUp { item: 0 });
    assert!(why.contains("nearby"), "{why}");
    cmd(&mut e, far, Command::EndTurn);
    // The players have nobody left to act; the bandit picks the axe up
    // again (a bonus action) and can still strike.
    activate(&mut e, axeman);
    cmd(&mut e, axeman, ZonesCommand::PickUp { item: 0 });
    assert!(ground(&e).is_empty());
    let l = view::get::<crate::rules::components::Loadout>(e.world(), axeman).unwrap();
    assert_eq!(l.ready_weapon().map(|w| &*w.name), Some("Axe"));
    assert_eq!(l.weapons.last().map(|w| &*w.name), Some("Unarmed"));
    let why = refused(&mut e, axeman, ZonesCommand::PickUp { item: 0 });
    assert!(why.contains("nothing lies there"), "{why}");
    let from = e.events().len();
    attack(&mut e, axeman, shielded, 0, MODE_STRIKE);
    assert!(
        since(&e, from)
            .iter()
            .any(|ev| matches!(ev.own::<ZonesEvent>(), Some(ZonesEvent::AttackMade(AttackMade { weapon, .. })) if weapon == "Axe"))
    );
}
