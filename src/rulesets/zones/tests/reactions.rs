//! §Reacting to an attack and §Guarding: dodge, counter, guard, hide behind, opportunity attacks.

use super::*;
use crate::rules::event::TargetChanged;
use crate::rulesets::zones::event::ReactionTaken;

/// §Reacting to an attack, Example: "Sybilla attacks a bandit (AGI 8) with
/// her musket (d8 damage). The bandit hasn't acted yet during this turn and
/// decides to dodge. He rolls a 2 on a d20, lower than their AGI, so the
/// attack misses."
#[test]
fn the_bandit_dodges_the_musket() {
    let l = example_level((0, 0), (0, 1), (1, 0), (13, 0), [(2, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[2]);
    let [syb, leader, b1] = ["Sybilla", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, syb);
    let at = e.events().len();
    attack(&mut e, syb, b1, 0, MODE_STRIKE);
    cmd(&mut e, b1, Command::Dodge);
    let ev = since(&e, at);
    assert_eq!(saves(&ev), vec![(b1, "AGI", 2, 8, true)]);
    assert!(
        ev.iter()
            .any(|x| matches!(x.own::<ZonesEvent>(), Some(ZonesEvent::AttackMissed(_))))
    );
    assert!(damaged(&ev).is_empty());
    // The reaction took the bandit's whole turn.
    assert!(done(&e, b1));
    cmd(&mut e, syb, Command::EndTurn);
    let Prompt::Activate { speaker, .. } = prompt(&e) else {
        panic!()
    };
    refused(&mut e, speaker, ZonesCommand::Activate { who: b1 });
}

/// §Reacting to an attack, Example: "Theobald attacks the bandit leader with
/// his spear (d6 damage). The bandit leader decides to counter with his
/// battleaxe (d8 damage). They both roll for damage: Theobald inflicts 4
/// damage, the bandit leader inflicts 5 damage. Theobald however is holding
/// a shield and wearing light armour, so he has an armour value of 2 and
/// would only suffer 3 damage. Because of this, the bandit leader is hit for
/// 4 damage first. This is enough to inflict critical damage and
/// incapacitate him, so Theobald suffers no damage at all!"
#[test]
fn the_leader_counters_the_spear_and_is_hit_first() {
    let l = example_level((4, 0), (4, 1), (1, 0), (0, 0), [(12, 1), (12, 0), (13, 1)]);
    let mut e = start(&l, &[4, 5]);
    let [theo, leader, b1] = ["Theobald", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, theo);
    let at = e.events().len();
    attack(&mut e, theo, leader, 0, MODE_STRIKE);
    cmd(&mut e, leader, ZonesCommand::Counter { weapon: 0 });
    let ev = since(&e, at);
    assert!(ev.iter().any(|x| matches!(
        x.own::<ZonesEvent>(),
        Some(ZonesEvent::ReactionTaken(ReactionTaken {
            kind: Reaction::Counter,
            ..
        }))
    )));
    assert_eq!(damaged(&ev), vec![(leader, 4, 4)]);
    assert!(has(&e, leader, Condition::Incapacitated));
    assert_eq!(hp(&e, theo), 8);
    // The log says who is hit first and why, and that the axe never lands.
    assert_eq!(
        plain_lines(&e, &ev, |x| matches!(
            x,
            ZonesEvent::CounterOrder(_) | ZonesEvent::BlowStopped(_)
        )),
        vec![
            "Counter: Leader would suffer 4, Theobald 3: Leader is hit first".to_string(),
            "Leader's blow never lands: it is down first".into(),
        ]
    );
    assert_eq!(prompt(&e), Prompt::Act { actor: theo });
}

#[test]
fn a_counter_tie_hits_both_and_a_bigger_counter_stops_the_attack() {
    let l = example_level((4, 0), (4, 1), (1, 0), (0, 0), [(12, 1), (12, 0), (13, 1)]);
    // Tie: the spear's 3 against no armour, the axe's 5 against 2.
    let mut e = start(&l, &[3, 5]);
    let [theo, leader, b1] = ["Theobald", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, theo);
    let at = e.events().len();
    attack(&mut e, theo, leader, 0, MODE_STRIKE);
    cmd(&mut e, leader, ZonesCommand::Counter { weapon: 0 });
    let ev = since(&e, at);
    let mut got = damaged(&ev);
    got.sort();
    assert_eq!(got, vec![(theo, 3, 5), (leader, 3, 5)]);
    assert_eq!(
        plain_lines(&e, &ev, |x| matches!(x, ZonesEvent::CounterOrder(_))),
        vec!["Counter: Leader and Theobald would each suffer 3: both are hit at once".to_string()]
    );

    // The axe's 8 (6 after armour, critical for Theobald's 8 health) lands
    // first: the spear's 2 never does.
    let mut e = start(&l, &[2, 8]);
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, theo);
    let at = e.events().len();
    attack(&mut e, theo, leader, 0, MODE_STRIKE);
    cmd(&mut e, leader, ZonesCommand::Counter { weapon: 0 });
    assert_eq!(damaged(&since(&e, at)), vec![(theo, 6, 2)]);
    assert!(has(&e, theo, Condition::Incapacitated));
    assert_eq!(hp(&e, leader), 8);
    // Theobald's turn is over: play passes to the bandits.
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 1, .. }));
}

/// §Guarding: "A character who is nearby the target of an attack can react
/// by guarding them. They become the new target of the attack."
#[test]
fn a_nearby_ally_guards_and_takes_the_blow() {
    let l = example_level((0, 0), (4, 0), (1, 0), (13, 0), [(0, 1), (12, 0), (12, 1)]);
    let mut e = start(&l, &[5]);
    let [bal, theo, b1] = ["Balthasar", "Theobald", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    let at = e.events().len();
    attack(&mut e, b1, bal, 0, MODE_STRIKE);
    cmd(&mut e, bal, Command::NoReaction);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: theo,
            attacker: b1
        }
    );
    cmd(&mut e, theo, ZonesCommand::Guard);
    let ev = since(&e, at);
    assert!(ev.iter().any(|x| matches!(
        x,
        BattleEvent::TargetChanged(TargetChanged {
            to,
            swapped: false,
            ..
        }) if *to == theo
    )));
    // The axe's 5 against Theobald's armour 2.
    assert_eq!(damaged(&ev), vec![(theo, 3, 5)]);
    assert_eq!(hp(&e, bal), 8);
    assert!(done(&e, theo));
    assert!(!done(&e, bal));
}

/// §Reacting to an attack: "Hide behind a nearby character. Choose a nearby
/// character who becomes the new target of the attack, swapping position
/// with the original target. They can perform their own reaction if they
/// haven't taken their turn yet."
#[test]
fn hiding_behind_an_ally_swaps_places_and_the_ally_may_react() {
    let l = example_level((0, 0), (4, 0), (1, 0), (13, 0), [(0, 1), (12, 0), (12, 1)]);
    let mut e = start(&l, &[14]);
    let [bal, theo, b1] = ["Balthasar", "Theobald", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    attack(&mut e, b1, bal, 0, MODE_STRIKE);
    cmd(&mut e, bal, ZonesCommand::HideBehind { who: theo });
    assert_eq!(at(&e, bal), Cell::new(1, 0));
    assert_eq!(at(&e, theo), Cell::new(0, 0));
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: theo,
            attacker: b1
        }
    );
    // Theobald may not pass it on again, but may dodge (AGI 10: 14 fails).
    refused(&mut e, theo, ZonesCommand::HideBehind { who: bal });
    let at = e.events().len();
    cmd(&mut e, theo, Command::Dodge);
    let ev = since(&e, at);
    assert_eq!(saves(&ev).len(), 1);
    assert_eq!(damaged(&ev).len(), 1);
    assert_eq!(damaged(&ev)[0].0, theo);
}

/// §Opportunity attacks: "The target's movement is interrupted and the
/// attack is resolved, after which their turn resumes if they are still
/// alive and conscious."
#[test]
fn moving_away_draws_an_opportunity_attack_then_the_move_resumes() {
    let l = example_level((3, 0), (0, 1), (0, 0), (2, 0), [(12, 1), (12, 0), (13, 1)]);
    let mut e = start(&l, &[3]);
    let [bal, leader, b1] = ["Balthasar", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, bal);
    cmd(
        &mut e,
        bal,
        Command::Move {
            path: vec![Cell::new(4, 0), Cell::new(5, 0)],
        },
    );
    // Stopped at the border of B: the leader is asked.
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: leader,
            attacker: bal
        }
    );
    assert_eq!(at(&e, bal), Cell::new(3, 0));
    let at_ev = e.events().len();
    cmd(&mut e, leader, ZonesCommand::Opportunity { weapon: 0 });
    let ev = since(&e, at_ev);
    assert_eq!(damaged(&ev), vec![(bal, 3, 5)]);
    assert_eq!(at(&e, bal), Cell::new(5, 0));
    assert_eq!(prompt(&e), Prompt::Act { actor: bal });
    assert!(done(&e, leader));
    // One zone crossed: the action is still there.
    assert_eq!(crate::rulesets::zones::reach::remaining(e.world(), bal), 1);
}

#[test]
fn an_opportunity_attack_that_downs_the_mover_ends_its_turn() {
    let l = example_level((3, 0), (0, 1), (0, 0), (2, 0), [(12, 1), (12, 0), (13, 1)]);
    let mut e = start(&l, &[8]);
    let [bal, leader, b1] = ["Balthasar", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, bal);
    cmd(
        &mut e,
        bal,
        Command::Move {
            path: vec![Cell::new(4, 0)],
        },
    );
    cmd(&mut e, leader, ZonesCommand::Opportunity { weapon: 0 });
    assert!(has(&e, bal, Condition::Dead));
    assert_eq!(at(&e, bal), Cell::new(3, 0));
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 1, .. }));
}

/// "Targets who are unaware of their attacker can't react"; "Enemies
/// attacked by a concealed character are taken by surprise and can't
/// react."
#[test]
fn a_concealed_attacker_gets_no_reaction() {
    let all: Vec<String> = party((0, 0), (4, 0), (6, 0))
        .into_iter()
        .chain([
            r#"(archetype: "bandit", faction: "bandits", at: (0, 1), name: "Leader", overrides: (concealed: true))"#.to_string(),
        ])
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level(&OPEN, &refs);
    let mut e = start(&l, &[4]);
    let [bal, leader] = ["Balthasar", "Leader"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    let at = e.events().len();
    attack(&mut e, leader, bal, 0, MODE_STRIKE);
    assert_eq!(damaged(&since(&e, at)), vec![(bal, 4, 4)]);
    assert_eq!(prompt(&e), Prompt::Act { actor: leader });
    // "Actions which might reveal a character include: attacking".
    assert!(!has(&e, leader, Condition::Concealed));
}

/// The reaction dialog states the stakes: a swordsman's blow (d6) on an
/// archer in light armour (1) deals 0-5, and 3 or more is critical damage
/// for its 6 health (§Health: half its health in one hit), so 50 % to take
/// it out; dodging or not, the archer's turn is the price (§Reacting to an
/// attack).
#[test]
fn a_reaction_preview_states_the_blow_it_meets() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "players", at: (6, 0), name: "Sybilla")"#,
            r#"(archetype: "swordsman", faction: "bandits", at: (7, 0), name: "Bandit")"#,
        ],
    );
    let mut e = start(&l, &[]);
    let (archer, bandit) = (cid(&e, "Sybilla"), cid(&e, "Bandit"));
    activate(&mut e, bandit);
    attack(&mut e, bandit, archer, 0, MODE_STRIKE);
    let preview = |c: &Command| crate::rulesets::zones::preview::preview(e.world(), archer, c);
    let stakes = "the blow, if it lands: 0-5 damage to you, 50% to take you out";
    for c in [Command::Dodge, Command::NoReaction] {
        let p = preview(&c);
        assert_eq!(p.damage, Some((0, 5)), "{c:?}");
        assert!(p.lines.iter().any(|l| l == stakes), "{c:?}: {:?}", p.lines);
    }
    assert!(
        preview(&Command::Dodge)
            .lines
            .iter()
            .any(|l| l.contains("takes the whole turn"))
    );
}

/// The player's log lines of the zones events in `ev` that `pick` picks.
fn plain_lines(e: &Engine, ev: &[BattleEvent], pick: impl Fn(&ZonesEvent) -> bool) -> Vec<String> {
    let n = crate::rules::roster::Names {
        roster: e.world().resource::<crate::rules::roster::Roster>(),
        factions: e.world().resource::<crate::rules::roster::Factions>(),
    };
    ev.iter()
        .filter(|x| x.own::<ZonesEvent>().is_some_and(&pick))
        .filter_map(|x| crate::rules::narrate::plain(&n, x))
        .collect()
}
