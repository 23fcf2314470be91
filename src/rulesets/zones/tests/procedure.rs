//! §Combat procedure and §Taking a turn: initiative, activation, one turn a round, movement and actions.

use super::*;
use crate::rules::event::{RoundEnded, TurnEnded};
use crate::rulesets::zones::event::{InitiativeHeld, Passed};

#[test]
fn the_faction_that_started_the_fight_holds_the_initiative() {
    let e = start(&apart(), &[]);
    assert!(e.events().iter().any(|ev| matches!(
        ev.own::<ZonesEvent>(),
        Some(ZonesEvent::InitiativeHeld(InitiativeHeld {
            faction: 1,
            roll: None,
            ..
        }))
    )));
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 1, .. }));
}

#[test]
fn with_no_starter_a_die_picks_the_holder() {
    let all: Vec<String> = party((0, 0), (0, 1), (1, 0))
        .into_iter()
        .chain(bandits((13, 0), [(13, 1), (12, 0), (12, 1)]))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level_with(&OPEN, &["aabbccddeeffgg", "aabbccddeeffgg"], &refs, false);
    // d2: 1 -> the first faction (players).
    let e = start(&l, &[1]);
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 0, .. }));
    let e = start(&l, &[2]);
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 1, .. }));
}

/// §Combat procedure, Example: the round of Balthasar, Sybilla and Theobald
/// against the three bandits and their leader, step by step.
#[test]
fn the_bandit_round_of_the_example() {
    let mut e = start(&apart(), &[]);
    let [bal, syb, theo] = ["Balthasar", "Sybilla", "Theobald"].map(|n| cid(&e, n));
    let [leader, b1, b2, b3] = ["Leader", "Bandit 1", "Bandit 2", "Bandit 3"].map(|n| cid(&e, n));
    let turn = |e: &mut Engine, who: Cid| {
        activate(e, who);
        assert_eq!(prompt(e), Prompt::Act { actor: who });
        cmd(e, who, Command::EndTurn);
    };
    // "The GM decides to take turn with the bandit leader first."
    turn(&mut e, leader);
    // "The Players decide to take turn with Sybilla."
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 0, .. }));
    turn(&mut e, syb);
    // "The GM takes turn with a bandit."
    turn(&mut e, b1);
    // "The Players decide to pass, rather than activating."
    pass(&mut e);
    // "The GM takes turn with another bandit. Since he didn't pass, play
    // goes back to the players."
    turn(&mut e, b2);
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 0, .. }));
    // "The Players take turn with Balthasar."
    turn(&mut e, bal);
    // "The GM takes turn with the last bandit."
    turn(&mut e, b3);
    // "The players take turn with Theobald."
    let at = e.events().len();
    turn(&mut e, theo);
    // "The GM must pass because all bandits have taken their turn. The
    // Players must pass as well. Since all factions have passed
    // consecutively, the round ends."
    let ev = since(&e, at);
    let tail: Vec<&BattleEvent> = ev
        .iter()
        .skip_while(|ev| !matches!(ev, BattleEvent::TurnEnded(TurnEnded { .. })))
        // The turn's bookkeeping (play going on) is not the example's.
        .filter(|ev| !ev.silent())
        .collect();
    assert!(matches!(
        tail[1].own::<ZonesEvent>(),
        Some(ZonesEvent::Passed(Passed {
            faction: 1,
            forced: true,
            ..
        }))
    ));
    assert!(matches!(
        tail[2].own::<ZonesEvent>(),
        Some(ZonesEvent::Passed(Passed {
            faction: 0,
            forced: true,
            ..
        }))
    ));
    assert!(matches!(
        tail[3],
        BattleEvent::RoundEnded(RoundEnded { round: 1 })
    ));
    // Round 2 opens with the bandits again.
    e.step();
    assert_eq!(e.world().resource::<Battle>().round, 2);
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 1, .. }));
}

#[test]
fn a_character_takes_one_turn_a_round() {
    let mut e = start(&apart(), &[]);
    let leader = cid(&e, "Leader");
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    pass(&mut e);
    let Prompt::Activate { speaker, .. } = prompt(&e) else {
        panic!("expected the bandits' activation");
    };
    let why = refused(&mut e, speaker, ZonesCommand::Activate { who: leader });
    assert!(why.contains("taken a turn"), "{why}");
}

#[test]
fn the_holder_may_give_the_first_turn_away_once() {
    let mut e = start(&apart(), &[]);
    let Prompt::Activate { speaker, .. } = prompt(&e) else {
        panic!()
    };
    cmd(&mut e, speaker, ZonesCommand::FirstTurnTo { faction: 0 });
    let Prompt::Activate {
        faction: 0,
        speaker,
    } = prompt(&e)
    else {
        panic!("the players should be first: {:?}", prompt(&e));
    };
    // Not a pass, and only at the opening.
    assert_eq!(
        e.world()
            .resource::<crate::rulesets::zones::state::ZonesRound>()
            .passes,
        0
    );
    refused(&mut e, speaker, ZonesCommand::FirstTurnTo { faction: 1 });
}

/// §Taking a turn: "move their full speed (typically 2 zones ...), or move
/// half their speed (1 zone ...) and perform a bonus action and a main
/// action".
#[test]
fn full_speed_leaves_no_action_half_speed_keeps_them() {
    let mut e = start(&apart(), &[]);
    let leader = cid(&e, "Leader");
    activate(&mut e, leader);
    // Three zones is too far.
    let why = refused(
        &mut e,
        leader,
        Command::Move {
            path: (7..=12).rev().map(|x| Cell::new(x, 0)).collect(),
        },
    );
    assert!(why.contains("more than the 2 left"), "{why}");
    // Two zones: allowed, but then no attack.
    cmd(
        &mut e,
        leader,
        Command::Move {
            path: (9..=12).rev().map(|x| Cell::new(x, 0)).collect(),
        },
    );
    let bal = cid(&e, "Balthasar");
    let why = refused(
        &mut e,
        leader,
        Command::Attack {
            target: bal,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("full speed"), "{why}");
    assert_eq!(
        crate::rulesets::zones::reach::remaining(e.world(), leader),
        0
    );
}

#[test]
fn an_action_limits_movement_to_half_speed() {
    let mut e = start(&apart(), &[]);
    let b1 = cid(&e, "Bandit 1");
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::Draw { weapon: 1 });
    assert_eq!(crate::rulesets::zones::reach::remaining(e.world(), b1), 1);
    cmd(
        &mut e,
        b1,
        Command::Move {
            path: vec![Cell::new(12, 1), Cell::new(11, 1)],
        },
    );
    assert_eq!(crate::rulesets::zones::reach::remaining(e.world(), b1), 0);
    assert_eq!(at(&e, b1), Cell::new(11, 1));
}

/// Who may take the faction's turn, asked of one character (the check of
/// an activation, `is_eligible`) or only for the first (the round's next
/// speaker, `first_eligible`), answers as the whole list does, at every
/// step of whole battles on levels with an ambush (the bonus round), mounts
/// and vehicles (`caravan_ambush`) and without (`mirror_duel`).
#[test]
fn one_characters_eligibility_is_the_lists() {
    use crate::rulesets::zones::check::{eligible, first_eligible, is_eligible};
    let mut asked = 0;
    for (level, seeds) in [("mirror_duel", 1..=3), ("caravan_ambush", 1..=3)] {
        for seed in seeds {
            let mut e = engine();
            crate::testkit::start_shipped(
                &mut e,
                level,
                crate::rulesets::zones::ID,
                seed,
                Controls::AllAi,
            );
            let mut steps = 0;
            while e.outcome().is_none() && steps < 2_000 {
                view::reading(e.world(), |w| {
                    let factions = view::resource::<crate::rules::roster::Factions>(w).0.len();
                    for f in 0..factions as u8 {
                        let list = eligible(w, f);
                        assert_eq!(
                            first_eligible(w, f),
                            list.first().copied(),
                            "{level} {seed}"
                        );
                        for c in view::all(w) {
                            assert_eq!(
                                is_eligible(w, f, c),
                                list.contains(&c),
                                "{level} seed {seed} step {steps}: {c:?} of faction {f}"
                            );
                            asked += 1;
                        }
                    }
                });
                e.run(1);
                steps += 1;
            }
        }
    }
    assert!(asked > 1_000, "asked {asked} times");
}
