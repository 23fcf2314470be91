//! §Morale: group and lone-character saves, surrender.

use super::*;

/// §Morale: the bandits fall from 4 to 2 in a round: a group WIT save at
/// the end of the round; who fails is broken (surrender or retreat), who
/// passes is steadfast.
#[test]
fn a_group_halved_in_a_round_makes_a_morale_save() {
    let l = example_level((0, 0), (8, 0), (2, 0), (13, 0), [(1, 1), (3, 0), (12, 1)]);
    let mut e = start(&l, &[6, 6, 3, 15]);
    let [bal, theo] = ["Balthasar", "Theobald"].map(|n| cid(&e, n));
    let [leader, b1, b2, b3] = ["Leader", "Bandit 1", "Bandit 2", "Bandit 3"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, bal);
    attack(&mut e, bal, b1, 0, MODE_STRIKE);
    cmd(&mut e, b1, Command::NoReaction);
    cmd(&mut e, bal, Command::EndTurn);
    activate(&mut e, b3);
    cmd(&mut e, b3, Command::EndTurn);
    activate(&mut e, theo);
    attack(&mut e, theo, b2, 0, MODE_STRIKE);
    cmd(&mut e, b2, Command::NoReaction);
    cmd(&mut e, theo, Command::EndTurn);
    // The bandits must pass; the players pass: the round ends.
    let at = e.events().len();
    pass(&mut e);
    let ev = since(&e, at);
    assert_eq!(
        saves(&ev),
        vec![(leader, "WIT", 3, 9, true), (b3, "WIT", 15, 9, false)]
    );
    assert!(has(&e, leader, Condition::Steadfast));
    assert!(has(&e, b3, Condition::Broken));
    // Round 2: the broken bandit may not attack, only surrender or get away.
    e.step();
    activate(&mut e, b3);
    let why = refused(
        &mut e,
        b3,
        Command::Attack {
            target: bal,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("broken"), "{why}");
    cmd(&mut e, b3, ZonesCommand::Surrender);
    assert!(has(&e, b3, Condition::Surrendered));
    assert!(!view::standing(e.world(), b3));
}

#[test]
fn harming_a_surrendered_character_lets_them_fight_again() {
    let l = example_level((0, 0), (8, 0), (2, 0), (13, 0), [(1, 1), (3, 0), (12, 1)]);
    let mut e = start(&l, &[2]);
    let [bal, b1] = ["Balthasar", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, ZonesCommand::Surrender);
    assert!(has(&e, b1, Condition::Surrendered));
    activate(&mut e, bal);
    attack(&mut e, bal, b1, 0, MODE_STRIKE);
    assert_eq!(hp(&e, b1), 6);
    assert!(!has(&e, b1, Condition::Surrendered));
    assert!(view::standing(e.world(), b1));
}

/// "Characters fighting alone must make a morale check if they were reduced
/// to half or less their maximum health in the past round."
#[test]
fn a_lone_character_halved_in_health_makes_a_morale_save() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), name: "Knight", overrides: (armor: [], shield: None, stats: {"HEALTH": 6}))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (1, 0), name: "B1")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (1, 1), name: "B2")"#,
        ],
    );
    // Two blows of 2 (each below the critical 3): 6 -> 4 -> 2. Then the
    // WIT save (10): 12 fails.
    let mut e = start(&l, &[2, 2, 12]);
    let [knight, b1, b2] = ["Knight", "B1", "B2"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    attack(&mut e, b1, knight, 0, MODE_STRIKE);
    cmd(&mut e, knight, Command::NoReaction);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, knight);
    cmd(&mut e, knight, Command::EndTurn);
    activate(&mut e, b2);
    let at = e.events().len();
    attack(&mut e, b2, knight, 0, MODE_STRIKE);
    cmd(&mut e, b2, Command::EndTurn);
    let ev = since(&e, at);
    assert_eq!(hp(&e, knight), 2);
    assert_eq!(saves(&ev), vec![(knight, "WIT", 12, 10, false)]);
    assert!(has(&e, knight, Condition::Broken));
}
