//! §Sneaking in combat, chases off the map, complete darkness.

use super::*;
use crate::rules::event::RoundStarted;
use crate::rulesets::zones::event::Activated;

/// §Sneaking in combat: "At the start of the fight, concealed characters
/// play a bonus round, during which only they can act." Enemies don't know
/// where a concealed character is (they can't target it); it is revealed
/// when an enemy who can see it shares its zone ("walking right in front
/// of the enemy"), or when it runs (Fray: beyond half speed is not
/// sneaking).
#[test]
fn an_ambush_gets_a_bonus_round_and_is_revealed_by_being_seen() {
    let all: Vec<String> = party((2, 0), (4, 1), (6, 0))
        .into_iter()
        .chain([
            r#"(archetype: "bandit", faction: "bandits", at: (0, 1), name: "Lurker", overrides: (concealed: true))"#.to_string(),
            r#"(archetype: "bandit", faction: "bandits", at: (13, 1), name: "Runner", overrides: (concealed: true))"#.to_string(),
            r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "Open")"#.to_string(),
        ])
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level(&OPEN, &refs);
    let mut e = start(&l, &[]);
    let [bal, lurker, runner, open] = ["Balthasar", "Lurker", "Runner", "Open"].map(|n| cid(&e, n));
    assert!(
        e.events()
            .iter()
            .any(|x| matches!(x, BattleEvent::RoundStarted(RoundStarted { round: 0 })))
    );
    // Only the concealed may act.
    let why = refused(&mut e, lurker, ZonesCommand::Activate { who: open });
    assert!(why.contains("ambush"), "{why}");
    // The runner crosses two zones (G to E): full speed, revealed.
    activate(&mut e, runner);
    cmd(
        &mut e,
        runner,
        Command::Move {
            path: vec![
                Cell::new(12, 1),
                Cell::new(11, 1),
                Cell::new(10, 1),
                Cell::new(9, 1),
            ],
        },
    );
    assert!(!has(&e, runner, Condition::Concealed));
    cmd(&mut e, runner, Command::EndTurn);
    // The players have nobody concealed: they pass by force, and so do the
    // bandits once the lurker is the only one left and chooses to wait.
    activate(&mut e, lurker);
    cmd(&mut e, lurker, Command::EndTurn);
    assert!(e.events().iter().all(|x| !matches!(
        x.own::<ZonesEvent>(),
        Some(ZonesEvent::Activated(Activated { faction: 0, .. }))
    )));
    next_round(&mut e);
    assert_eq!(e.world().resource::<Battle>().round, 1);
    pass(&mut e);
    activate(&mut e, bal);
    // Balthasar steps into the lurker's zone (B to A) and sees him.
    cmd(
        &mut e,
        bal,
        Command::Move {
            path: vec![Cell::new(1, 0)],
        },
    );
    assert!(!has(&e, lurker, Condition::Concealed));
    cmd(&mut e, bal, Command::EndTurn);
}

#[test]
fn a_concealed_character_cannot_be_targeted() {
    let all: Vec<String> = party((2, 0), (4, 1), (6, 0))
        .into_iter()
        .chain([
            r#"(archetype: "bandit", faction: "bandits", at: (0, 1), name: "Lurker", overrides: (concealed: true))"#.to_string(),
        ])
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level(&OPEN, &refs);
    let mut e = start(&l, &[]);
    let [syb, lurker] = ["Sybilla", "Lurker"].map(|n| cid(&e, n));
    activate(&mut e, lurker);
    cmd(&mut e, lurker, Command::EndTurn);
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, syb);
    let why = refused(
        &mut e,
        syb,
        Command::Attack {
            target: lurker,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("concealed"), "{why}");
}

/// §Chases: "the fleeing character making a group AGI save: those who pass
/// escape, those who fail are reached by the pursuers. If the fleeing
/// characters can move faster ... the save is not required. If the
/// opposite is true, escaping is impossible."
#[test]
fn fleeing_the_map_is_a_chase() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (0, 0), name: "Slow")"#,
            r#"(archetype: "skirmisher", faction: "players", at: (0, 1), name: "Quick")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "Pursuer")"#,
        ],
    );
    // Slow's AGI save (8): 15 fails, then (next round) 5 passes.
    let mut e = start(&l, &[15, 5]);
    let [slow, quick] = ["Slow", "Quick"].map(|n| cid(&e, n));
    pass(&mut e);
    // The skirmisher sprints (4 zones) past a pursuer of 2: no save.
    activate(&mut e, quick);
    let n = e.events().len();
    cmd(&mut e, quick, Command::Flee);
    assert!(saves(&since(&e, n)).is_empty());
    assert!(has(&e, quick, Condition::Fled));
    // As fast as the pursuer: an AGI save; failed, he is caught and stays.
    pass(&mut e);
    activate(&mut e, slow);
    let n = e.events().len();
    cmd(&mut e, slow, Command::Flee);
    assert_eq!(saves(&since(&e, n)), vec![(slow, "AGI", 15, 8, false)]);
    assert!(!has(&e, slow, Condition::Fled));
    assert!(done(&e, slow));
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, slow);
    cmd(&mut e, slow, Command::Flee);
    assert!(has(&e, slow, Condition::Fled));

    // Slower than the pursuer: escaping is impossible.
    let l2 = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (0, 0), name: "Slow")"#,
            r#"(archetype: "skirmisher", faction: "bandits", at: (13, 0), name: "Hound")"#,
        ],
    );
    let mut e = start(&l2, &[]);
    let slow = cid(&e, "Slow");
    pass(&mut e);
    activate(&mut e, slow);
    let why = refused(&mut e, slow, Command::Flee);
    assert!(why.contains("impossible"), "{why}");
}

/// §Attacking, Example: "Theobald attacks a nearby bandit with his sword
/// (d6 damage) in complete darkness. Since he can't see, he must pass a WIT
/// save to hit. He rolls a 20 on the d20, a miss, so the bandit takes no
/// damage." A level's `visibility: Dark` is complete darkness; ranged
/// attacks are then impossible ("a character who is not visible").
#[test]
fn in_complete_darkness_melee_needs_a_wit_save_and_shooting_is_impossible() {
    let mut l = example_level((4, 0), (4, 1), (1, 0), (13, 0), [(0, 0), (13, 1), (12, 0)]);
    l.visibility = crate::rules::level::Visibility::Dark;
    let mut e = start(&l, &[20]);
    let [theo, syb, b1, b2] = ["Theobald", "Sybilla", "Bandit 1", "Bandit 2"].map(|n| cid(&e, n));
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    activate(&mut e, theo);
    let n = e.events().len();
    attack(&mut e, theo, b1, 0, MODE_STRIKE);
    let ev = since(&e, n);
    assert_eq!(saves(&ev), vec![(theo, "WIT", 20, 10, false)]);
    assert!(damaged(&ev).is_empty());
    cmd(&mut e, theo, Command::EndTurn);
    pass(&mut e);
    activate(&mut e, syb);
    let why = refused(
        &mut e,
        syb,
        Command::Attack {
            target: b1,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("visible"), "{why}");
}

/// §Sneaking in combat: "Hiding later during the fight requires being out
/// of sight for a while". Fray: out of every enemy's sight, a character may
/// spend its main action hiding; it is then concealed as an ambusher is
/// (it cannot be targeted, and an enemy who comes into its zone and sees
/// it reveals it).
#[test]
fn out_of_sight_a_character_can_hide_again() {
    // A wall in the top row between zones C and D; the bottom row is open.
    let rows = ["......##......", ".............."];
    let zones = ["aabbcc  ddeeff", "aabbccxxddeeff"];
    let l = level_with(
        &rows,
        &zones,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (4, 1), name: "Balthasar")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (9, 1), name: "Bandit", overrides: (weapons: ["axe"]))"#,
        ],
        false,
    );
    // The d2 gives the players the initiative.
    let mut e = start(&l, &[1]);
    let [bal, bandit] = ["Balthasar", "Bandit"].map(|n| cid(&e, n));
    activate(&mut e, bal);
    // Seen across the open row: no hiding.
    let why = refused(&mut e, bal, ZonesCommand::Hide);
    assert!(why.contains("can see you"), "{why}");
    // Behind the wall, in the same zone.
    cmd(
        &mut e,
        bal,
        Command::Move {
            path: vec![Cell::new(5, 0)],
        },
    );
    let map = view::resource::<Map>(e.world());
    assert!(!map.line_of_sight(Cell::new(9, 1), Cell::new(5, 0)));
    cmd(&mut e, bal, ZonesCommand::Hide);
    assert!(has(&e, bal, Condition::Concealed));
    // Hiding was the turn's main action.
    let why = refused(&mut e, bal, ZonesCommand::Hide);
    assert!(why.contains("main action"), "{why}");
    cmd(&mut e, bal, Command::EndTurn);
    // The bandit cannot target him; walking into his zone, it sees him.
    activate(&mut e, bandit);
    let why = refused(
        &mut e,
        bandit,
        Command::Attack {
            target: bal,
            weapon: 0,
            mode: MODE_STRIKE,
        },
    );
    assert!(why.contains("concealed"), "{why}");
    cmd(
        &mut e,
        bandit,
        Command::Move {
            path: vec![
                Cell::new(8, 1),
                Cell::new(7, 1),
                Cell::new(6, 1),
                Cell::new(5, 1),
            ],
        },
    );
    assert!(!has(&e, bal, Condition::Concealed));
}
