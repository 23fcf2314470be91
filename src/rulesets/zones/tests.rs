//! Zones rule tests with scripted dice. Each test builds a tiny level, runs
//! the commands of a worked example or a rule, and checks the exact events,
//! with the numbers of `../shared/rules/zones.txt`.

use std::path::Path;

use crate::data::level::parse_level;
use crate::rules::battle::{Battle, Prompt, RulesetId};
use crate::rules::command::{Command, Maneuver};
use crate::rules::components::{Cid, Condition, Health, TurnState};
use crate::rules::engine::{Controls, Engine, StartOptions};
use crate::rules::event::{BattleEvent, GearOutcome, ReactionKind};
use crate::rules::level::Level;
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::testkit::{
    Scenario, at, cid, cmd, engine, has, hp, prompt, refused, since, start_ruleset,
};

use super::data::{MODE_DEATH_BLOW, MODE_HOLD_BACK, MODE_STRIKE};

/// Seven zones side by side, two columns each ("A" to "G"), two rows high;
/// `players` (first) and `bandits` (who started the fight).
fn level(rows: &[&str], combatants: &[&str]) -> Level {
    level_with(
        rows,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        combatants,
        true,
    )
}

fn level_with(rows: &[&str], zones: &[&str], combatants: &[&str], bandits_start: bool) -> Level {
    Scenario::zones(rows, zones)
        .with(combatants)
        .second_starts(bandits_start)
        .level()
}

/// Start a zones battle on `level` with these dice first.
fn start(level: &Level, script: &[u32]) -> Engine {
    let mut e = engine();
    start_ruleset(&mut e, level, RulesetId::Zones, script);
    e
}

const OPEN: [&str; 2] = ["..............", ".............."];

fn done(e: &Engine, c: Cid) -> bool {
    view::get::<TurnState>(e.world(), c).is_some_and(|t| t.done)
}

fn activate(e: &mut Engine, who: Cid) {
    let Prompt::Activate { speaker, .. } = prompt(e) else {
        panic!("expected an activation prompt, got {:?}", prompt(e));
    };
    cmd(e, speaker, Command::Activate { who });
}

fn pass(e: &mut Engine) {
    let Prompt::Activate { speaker, .. } = prompt(e) else {
        panic!("expected an activation prompt, got {:?}", prompt(e));
    };
    cmd(e, speaker, Command::Pass);
}

fn attack(e: &mut Engine, who: Cid, target: Cid, weapon: usize, mode: usize) {
    cmd(
        e,
        who,
        Command::Attack {
            target,
            weapon,
            mode,
        },
    );
}

/// Everyone asked about guarding says no.
fn decline_guards(e: &mut Engine) {
    while let Prompt::React { actor, .. } = prompt(e) {
        cmd(e, actor, Command::NoReaction);
    }
}

fn damaged(events: &[BattleEvent]) -> Vec<(Cid, i32, i32)> {
    events
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::Damaged {
                target,
                hp_loss,
                hp_after,
                ..
            } => Some((*target, *hp_loss, *hp_after)),
            _ => None,
        })
        .collect()
}

fn saves(events: &[BattleEvent]) -> Vec<(Cid, &'static str, i32, i32, bool)> {
    events
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::SaveRolled {
                who,
                attribute,
                roll,
                target,
                pass,
                ..
            } => Some((*who, *attribute, roll.total, *target, *pass)),
            _ => None,
        })
        .collect()
}

/// The bandits of the text's examples: a leader with a battleaxe (d8) and
/// three bandits (health 8, AGI 8) with axes and bows; the players'
/// Balthasar (sword d6), Sybilla (musket d8, dagger) and Theobald (spear d6,
/// shield and light armour: armour value 2).
fn party(bal: (i32, i32), syb: (i32, i32), theo: (i32, i32)) -> Vec<String> {
    vec![
        format!(
            r#"(archetype: "swordsman", faction: "players", at: {bal:?}, name: "Balthasar", overrides: (weapons: ["sword"], armor: [], shield: None))"#
        ),
        format!(
            r#"(archetype: "swordsman", faction: "players", at: {syb:?}, name: "Sybilla", overrides: (weapons: ["musket", "dagger"], armor: [], shield: None))"#
        ),
        format!(
            r#"(archetype: "spearman", faction: "players", at: {theo:?}, name: "Theobald", overrides: (weapons: ["spear", "dagger"], armor: ["light"], shield: "shield"))"#
        ),
    ]
}

fn bandits(leader: (i32, i32), b: [(i32, i32); 3]) -> Vec<String> {
    let mut v = vec![format!(
        r#"(archetype: "bandit", faction: "bandits", at: {leader:?}, name: "Leader", overrides: (weapons: ["battleaxe"], stats: {{"HEALTH": 8}}))"#
    )];
    for (i, p) in b.iter().enumerate() {
        v.push(format!(
            r#"(archetype: "bandit", faction: "bandits", at: {p:?}, name: "Bandit {}")"#,
            i + 1
        ));
    }
    v
}

fn example_level(
    bal: (i32, i32),
    syb: (i32, i32),
    theo: (i32, i32),
    leader: (i32, i32),
    b: [(i32, i32); 3],
) -> Level {
    let all: Vec<String> = party(bal, syb, theo)
        .into_iter()
        .chain(bandits(leader, b))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    level(&OPEN, &refs)
}

/// Everyone far apart: nobody can strike anybody.
fn apart() -> Level {
    example_level((0, 0), (0, 1), (1, 0), (13, 0), [(13, 1), (12, 0), (12, 1)])
}

#[test]
fn the_faction_that_started_the_fight_holds_the_initiative() {
    let e = start(&apart(), &[]);
    assert!(e.events().iter().any(|ev| matches!(
        ev,
        BattleEvent::InitiativeHeld {
            faction: 1,
            roll: None,
            ..
        }
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
        .skip_while(|ev| !matches!(ev, BattleEvent::TurnEnded { .. }))
        .collect();
    assert!(matches!(
        tail[1],
        BattleEvent::Passed {
            faction: 1,
            forced: true,
            ..
        }
    ));
    assert!(matches!(
        tail[2],
        BattleEvent::Passed {
            faction: 0,
            forced: true,
            ..
        }
    ));
    assert!(matches!(tail[3], BattleEvent::RoundEnded { round: 1 }));
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
    let why = refused(&mut e, speaker, Command::Activate { who: leader });
    assert!(why.contains("taken a turn"), "{why}");
}

#[test]
fn the_holder_may_give_the_first_turn_away_once() {
    let mut e = start(&apart(), &[]);
    let Prompt::Activate { speaker, .. } = prompt(&e) else {
        panic!()
    };
    cmd(&mut e, speaker, Command::FirstTurnTo { faction: 0 });
    let Prompt::Activate {
        faction: 0,
        speaker,
    } = prompt(&e)
    else {
        panic!("the players should be first: {:?}", prompt(&e));
    };
    // Not a pass, and only at the opening.
    assert_eq!(e.world().resource::<super::round::ZonesRound>().passes, 0);
    refused(&mut e, speaker, Command::FirstTurnTo { faction: 1 });
}

/// §Attacking, Example: "Balthasar attacks a nearby bandit with a sword (d6
/// damage) ... He rolls a 4, reducing his health from 8 to 4 and
/// incapacitating him. Sybilla later attacks the same bandit with a dagger.
/// Since he is nearby and incapacitated, she slits his throat."
#[test]
fn sword_blow_incapacitates_then_death_blow_kills() {
    let l = example_level((0, 0), (1, 1), (13, 0), (13, 1), [(1, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[4]);
    let [bal, syb, leader, b1] = ["Balthasar", "Sybilla", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, bal);
    attack(&mut e, bal, b1, 0, MODE_STRIKE);
    // The bandit has not acted: he is asked, and takes it.
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b1,
            attacker: bal
        }
    );
    let at = e.events().len();
    cmd(&mut e, b1, Command::NoReaction);
    assert_eq!(damaged(&since(&e, at)), vec![(b1, 4, 4)]);
    assert!(has(&e, b1, Condition::Incapacitated));
    cmd(&mut e, bal, Command::EndTurn);
    pass(&mut e); // the bandits
    activate(&mut e, syb);
    // The musket is in hand; the death blow is made with the dagger.
    cmd(&mut e, syb, Command::Draw { weapon: 1 });
    attack(&mut e, syb, b1, 1, MODE_DEATH_BLOW);
    assert!(has(&e, b1, Condition::Dead));
}

#[test]
fn a_death_blow_needs_a_nearby_incapacitated_target() {
    let l = example_level((0, 0), (1, 1), (13, 0), (13, 1), [(1, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[]);
    let [bal, leader, b1] = ["Balthasar", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, bal);
    let why = refused(
        &mut e,
        bal,
        Command::Attack {
            target: b1,
            weapon: 0,
            mode: MODE_DEATH_BLOW,
        },
    );
    assert!(why.contains("incapacitated"), "{why}");
}

/// §Attacking, Example: "A bandit shoots Balthasar with a bow (d6 damage,
/// range 8). They are at 5 zones of distance from each other, so the bandit
/// must pass a WIT save to hit. He rolls 5 on a d20, a pass, therefore
/// Balthasar takes d6 damage."
#[test]
fn a_bow_shot_beyond_half_range_needs_a_wit_save() {
    let l = example_level((0, 0), (0, 1), (1, 0), (13, 0), [(10, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[5, 3]);
    let [bal, b1] = ["Balthasar", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::Draw { weapon: 1 });
    let at = e.events().len();
    attack(&mut e, b1, bal, 1, MODE_STRIKE);
    cmd(&mut e, bal, Command::NoReaction);
    // Sybilla and Theobald, nearby, do not guard him.
    decline_guards(&mut e);
    let ev = since(&e, at);
    assert_eq!(saves(&ev), vec![(b1, "WIT", 5, 9, true)]);
    assert_eq!(damaged(&ev), vec![(bal, 3, 5)]);
}

#[test]
fn a_failed_wit_save_misses() {
    let l = example_level((0, 0), (0, 1), (1, 0), (13, 0), [(10, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[20]);
    let [bal, b1] = ["Balthasar", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::Draw { weapon: 1 });
    let at = e.events().len();
    attack(&mut e, b1, bal, 1, MODE_STRIKE);
    let ev = since(&e, at);
    assert_eq!(saves(&ev), vec![(b1, "WIT", 20, 9, false)]);
    assert!(
        ev.iter()
            .any(|x| matches!(x, BattleEvent::AttackMissed { .. }))
    );
    assert!(damaged(&ev).is_empty());
    // No reaction is asked for an attack that missed.
    assert_eq!(prompt(&e), Prompt::Act { actor: b1 });
}

/// "Theobald attacks a nearby bandit with his sword (d6 damage) in complete
/// darkness. Since he can't see, he must pass a WIT save to hit. He rolls a
/// 20 on the d20, a miss." Fray models "can't see" as no line of sight: here
/// a pillar inside the zone.
#[test]
fn a_melee_attack_on_an_unseen_target_needs_a_wit_save() {
    let rows = [".#............", ".#............"];
    let zones = ["aaabccddeeffgg", "aaabccddeeffgg"];
    let all: Vec<String> = party((13, 0), (13, 1), (0, 0))
        .into_iter()
        .chain(bandits((12, 0), [(2, 0), (12, 1), (11, 1)]))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level_with(&rows, &zones, &refs, true);
    let mut e = start(&l, &[20]);
    let [theo, leader, b1] = ["Theobald", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, theo);
    let at = e.events().len();
    attack(&mut e, theo, b1, 0, MODE_STRIKE);
    let ev = since(&e, at);
    assert_eq!(saves(&ev), vec![(theo, "WIT", 20, 10, false)]);
    assert!(damaged(&ev).is_empty());
}

#[test]
fn a_ranged_attack_needs_a_visible_target() {
    let rows = ["......#.......", "......#......."];
    let all: Vec<String> = party((0, 0), (2, 0), (1, 0))
        .into_iter()
        .chain(bandits((13, 0), [(13, 1), (8, 0), (12, 1)]))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level_with(&rows, &["aabbccddeeffgg", "aabbccddeeffgg"], &refs, false);
    let mut e = start(&l, &[1]);
    let [syb, b2] = ["Sybilla", "Bandit 2"].map(|n| cid(&e, n));
    activate(&mut e, syb);
    // The wall blocks sight of everyone beyond it.
    let why = refused(
        &mut e,
        syb,
        Command::Attack {
            target: b2,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("visible"), "{why}");
}

/// "ranged attacks can target visible enemies within range": a javelin
/// (range 3) reaches 3 zones, with a WIT save beyond half range, and no
/// further.
#[test]
fn a_ranged_attack_reaches_its_range_and_no_further() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "skirmisher", faction: "players", at: (0, 0), name: "S")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (8, 0), name: "Far")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (6, 0), name: "Near")"#,
        ],
    );
    let mut e = start(&l, &[4, 2]);
    let [s, far, near] = ["S", "Far", "Near"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, s);
    let why = refused(
        &mut e,
        s,
        Command::Attack {
            target: far,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("out of range: 4 zones, range 3"), "{why}");
    let at = e.events().len();
    attack(&mut e, s, near, 0, MODE_STRIKE);
    cmd(&mut e, near, Command::NoReaction);
    decline_guards(&mut e);
    let ev = since(&e, at);
    // 3 zones of range 3: beyond half range, a WIT save (11): 4 passes.
    assert_eq!(saves(&ev), vec![(s, "WIT", 4, 11, true)]);
    assert_eq!(damaged(&ev), vec![(near, 2, 6)]);
}

/// "For ranged attacks: when ... the attack is made while moving"; "It's
/// impossible to target a character beyond half range while moving".
#[test]
fn shooting_after_moving_needs_a_save_and_half_range() {
    let all: Vec<String> = party((0, 0), (2, 0), (1, 0))
        .into_iter()
        .chain(bandits((13, 0), [(13, 1), (8, 0), (12, 1)]))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level_with(&OPEN, &["aabbccddeeffgg", "aabbccddeeffgg"], &refs, false);
    // Holder die 1: players first. Then the WIT save 3 and the musket's 6.
    let mut e = start(&l, &[1, 3, 6]);
    let [syb, leader, b2] = ["Sybilla", "Leader", "Bandit 2"].map(|n| cid(&e, n));
    activate(&mut e, syb);
    cmd(
        &mut e,
        syb,
        Command::Move {
            path: vec![Cell::new(3, 0), Cell::new(4, 0)],
        },
    );
    // Musket range 6: the leader at 4 zones is beyond half range: refused
    // while moving.
    let why = refused(
        &mut e,
        syb,
        Command::Attack {
            target: leader,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("half range while moving"), "{why}");
    // Bandit 2 at 2 zones: within half range, but a WIT save for moving.
    let at = e.events().len();
    attack(&mut e, syb, b2, 0, MODE_STRIKE);
    cmd(&mut e, b2, Command::NoReaction);
    let ev = since(&e, at);
    assert_eq!(saves(&ev), vec![(syb, "WIT", 3, 10, true)]);
    assert_eq!(damaged(&ev), vec![(b2, 6, 2)]);
    assert!(has(&e, b2, Condition::Incapacitated));
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
    assert_eq!(super::movement::remaining(e.world(), leader), 0);
}

#[test]
fn an_action_limits_movement_to_half_speed() {
    let mut e = start(&apart(), &[]);
    let b1 = cid(&e, "Bandit 1");
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::Draw { weapon: 1 });
    assert_eq!(super::movement::remaining(e.world(), b1), 1);
    cmd(
        &mut e,
        b1,
        Command::Move {
            path: vec![Cell::new(12, 1), Cell::new(11, 1)],
        },
    );
    assert_eq!(super::movement::remaining(e.world(), b1), 0);
    assert_eq!(at(&e, b1), Cell::new(11, 1));
}

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
            .any(|x| matches!(x, BattleEvent::AttackMissed { .. }))
    );
    assert!(damaged(&ev).is_empty());
    // The reaction took the bandit's whole turn.
    assert!(done(&e, b1));
    cmd(&mut e, syb, Command::EndTurn);
    let Prompt::Activate { speaker, .. } = prompt(&e) else {
        panic!()
    };
    refused(&mut e, speaker, Command::Activate { who: b1 });
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
    cmd(&mut e, leader, Command::Counter { weapon: 0 });
    let ev = since(&e, at);
    assert!(ev.iter().any(|x| matches!(
        x,
        BattleEvent::ReactionTaken {
            kind: ReactionKind::Counter,
            ..
        }
    )));
    assert_eq!(damaged(&ev), vec![(leader, 4, 4)]);
    assert!(has(&e, leader, Condition::Incapacitated));
    assert_eq!(hp(&e, theo), 8);
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
    cmd(&mut e, leader, Command::Counter { weapon: 0 });
    let mut got = damaged(&since(&e, at));
    got.sort();
    assert_eq!(got, vec![(theo, 3, 5), (leader, 3, 5)]);

    // The axe's 8 (6 after armour, critical for Theobald's 8 health) lands
    // first: the spear's 2 never does.
    let mut e = start(&l, &[2, 8]);
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    activate(&mut e, theo);
    let at = e.events().len();
    attack(&mut e, theo, leader, 0, MODE_STRIKE);
    cmd(&mut e, leader, Command::Counter { weapon: 0 });
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
    cmd(&mut e, theo, Command::Guard);
    let ev = since(&e, at);
    assert!(ev.iter().any(|x| matches!(
        x,
        BattleEvent::TargetChanged {
            to,
            swapped: false,
            ..
        } if *to == theo
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
    cmd(&mut e, bal, Command::HideBehind { who: theo });
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
    refused(&mut e, theo, Command::HideBehind { who: bal });
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
    cmd(&mut e, leader, Command::Opportunity { weapon: 0 });
    let ev = since(&e, at_ev);
    assert_eq!(damaged(&ev), vec![(bal, 3, 5)]);
    assert_eq!(at(&e, bal), Cell::new(5, 0));
    assert_eq!(prompt(&e), Prompt::Act { actor: bal });
    assert!(done(&e, leader));
    // One zone crossed: the action is still there.
    assert_eq!(super::movement::remaining(e.world(), bal), 1);
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
    cmd(&mut e, leader, Command::Opportunity { weapon: 0 });
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

/// §Cover: "The target's armour value is increased by 1 (as usual never
/// above 3), unless the attack is powerful enough to penetrate the cover."
#[test]
fn cover_adds_one_armour_unless_penetrated_never_above_three() {
    let rows = ["c.............", ".............."];
    let all: Vec<String> = party((0, 0), (4, 0), (6, 0))
        .into_iter()
        .chain(bandits((13, 0), [(4, 1), (12, 0), (12, 1)]))
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level_with(&rows, &["aabbccddeeffgg", "aabbccddeeffgg"], &refs, true);
    let mut e = start(&l, &[4]);
    let [bal, b1] = ["Balthasar", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::Draw { weapon: 1 });
    let at = e.events().len();
    attack(&mut e, b1, bal, 1, MODE_STRIKE);
    cmd(&mut e, bal, Command::NoReaction);
    decline_guards(&mut e);
    // Bow 4 - cover 1 = 3.
    assert_eq!(damaged(&since(&e, at)), vec![(bal, 3, 5)]);

    let w = super::data::unarmed();
    let world = e.world();
    let (musket, _) = super::queries::armour(
        world,
        b1,
        bal,
        &super::queries::weapon(world, cid(&e, "Sybilla"), 0).expect("musket"),
    );
    assert_eq!(musket, 0, "a musket penetrates cover");
    // Melee: cover does not count.
    assert_eq!(super::queries::armour(world, b1, bal, &w).0, 0);
}

#[test]
fn armour_never_above_three() {
    let rows = ["c.............", ".............."];
    let l = level_with(
        &rows,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        &[
            r#"(archetype: "shieldbearer", faction: "players", at: (0, 0), name: "S")"#,
            r#"(archetype: "archer", faction: "bandits", at: (4, 0), name: "A")"#,
        ],
        true,
    );
    let e = start(&l, &[]);
    let [s, a] = ["S", "A"].map(|n| cid(&e, n));
    let bow = super::queries::weapon(e.world(), a, 0).expect("bow");
    let (armour, parts) = super::queries::armour(e.world(), a, s, &bow);
    assert_eq!(armour, 3);
    assert!(parts.iter().any(|m| m.name == "armour never above 3"));
}

/// "The attacker may choose to voluntarily hold back an attack to inflict
/// impaired damage"; "Unarmed attacks inflict d4 impaired damage."
#[test]
fn holding_back_and_fighting_unarmed_roll_a_d4() {
    let l = example_level((0, 0), (4, 0), (6, 0), (13, 0), [(1, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[4, 3]);
    let [bal, leader, b1] = ["Balthasar", "Leader", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, bal);
    let at = e.events().len();
    attack(&mut e, bal, b1, 0, MODE_HOLD_BACK);
    cmd(&mut e, b1, Command::NoReaction);
    let ev = since(&e, at);
    let rolled: Vec<String> = ev
        .iter()
        .filter_map(|x| match x {
            BattleEvent::DamageRolled { roll, .. } => Some(roll.expr.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(rolled, vec!["1D4".to_string()]);
    assert_eq!(damaged(&ev), vec![(b1, 4, 4)]);
    let w = super::data::unarmed();
    assert_eq!((w.damage.min(None), w.damage.max(None)), (1, 4));
}

/// §Effects of size in combat: "Larger characters double the number of
/// dice they roll"; "A human attacking a wyrm with a sword (d6 damage) would
/// halve damage: for example, a roll of 3 would only inflict 2 damage."
#[test]
fn size_doubles_dice_or_halves_damage() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), name: "Knight", overrides: (armor: [], shield: None))"#,
            r#"(archetype: "wyrm", faction: "bandits", at: (1, 0), name: "Wyrm", overrides: (armor: []))"#,
        ],
    );
    let mut e = start(&l, &[3, 5, 2]);
    let [knight, wyrm] = ["Knight", "Wyrm"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, knight);
    let at = e.events().len();
    attack(&mut e, knight, wyrm, 0, MODE_STRIKE);
    cmd(&mut e, wyrm, Command::NoReaction);
    assert_eq!(damaged(&since(&e, at)), vec![(wyrm, 2, 18)]);
    cmd(&mut e, knight, Command::EndTurn);
    activate(&mut e, wyrm);
    let at = e.events().len();
    attack(&mut e, wyrm, knight, 0, MODE_STRIKE);
    // The knight has taken its turn: it cannot react. 2d8: 5 + 2.
    assert_eq!(damaged(&since(&e, at)), vec![(knight, 7, 1)]);
    // Range: a bow (8) reaches 16 zones against the larger wyrm.
    let bow = e
        .world()
        .resource::<super::data::ZonesData>()
        .weapon("bow")
        .expect("bow");
    assert_eq!(
        super::queries::range_against(e.world(), knight, wyrm, &bow),
        16
    );
    assert_eq!(
        super::queries::range_against(e.world(), wyrm, knight, &bow),
        4
    );
}

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
    cmd(&mut e, b3, Command::Surrender);
    assert!(has(&e, b3, Condition::Surrendered));
    assert!(!view::standing(e.world(), b3));
}

#[test]
fn harming_a_surrendered_character_lets_them_fight_again() {
    let l = example_level((0, 0), (8, 0), (2, 0), (13, 0), [(1, 1), (3, 0), (12, 1)]);
    let mut e = start(&l, &[2]);
    let [bal, b1] = ["Balthasar", "Bandit 1"].map(|n| cid(&e, n));
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::Surrender);
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

/// A mirrored skirmish of three against three.
fn mirror() -> Level {
    level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (1, 0))"#,
            r#"(archetype: "spearman", faction: "players", at: (1, 1))"#,
            r#"(archetype: "archer", faction: "players", at: (0, 0))"#,
            r#"(archetype: "swordsman", faction: "bandits", at: (12, 0))"#,
            r#"(archetype: "spearman", faction: "bandits", at: (12, 1))"#,
            r#"(archetype: "archer", faction: "bandits", at: (13, 0))"#,
        ],
    )
}

#[test]
fn the_ai_beats_random_play() {
    use crate::rules::components::Controller;
    let l = mirror();
    let mut e = engine();
    let mut wins = 0;
    let n = 100;
    for i in 0..n {
        let ai = (i % 2) as u8;
        let mut control = vec![Controller::RandomAi, Controller::RandomAi];
        control[ai as usize] = Controller::Ai;
        let opts = StartOptions {
            seed: 1000 + i,
            script: Vec::new(),
            control: Controls::PerFaction(control),
        };
        e.start(&l, RulesetId::Zones, &opts).expect("starts");
        e.run(200_000);
        if e.outcome().and_then(|o| o.winner) == Some(ai) {
            wins += 1;
        }
    }
    assert!(wins * 100 > n * 80, "the AI won {wins} of {n}");
}

#[test]
fn the_same_seed_gives_the_same_battle() {
    let l = mirror();
    let run = |e: &mut Engine| {
        let opts = StartOptions {
            seed: 42,
            script: Vec::new(),
            control: Controls::AllAi,
        };
        e.start(&l, RulesetId::Zones, &opts).expect("starts");
        e.run(200_000);
        e.log_text()
    };
    let mut a = engine();
    let first = run(&mut a);
    let again = run(&mut a);
    let fresh = run(&mut engine());
    assert_eq!(first, again);
    assert_eq!(first, fresh);
    assert!(first.contains("Battle over"));
}

// ------------------------------------------------ non-lethal attacks

fn grab(e: &mut Engine, who: Cid, target: Cid) {
    cmd(
        e,
        who,
        Command::Maneuver {
            target,
            kind: Maneuver::Grapple,
        },
    );
}

/// Pass until the next round's first activation prompt.
fn next_round(e: &mut Engine) {
    let round = e.world().resource::<Battle>().round;
    for _ in 0..50 {
        if e.world().resource::<Battle>().round != round {
            return;
        }
        match prompt(e) {
            Prompt::Activate { .. } => pass(e),
            Prompt::None => e.step(),
            p => panic!("next_round: stuck at {p:?}"),
        }
    }
    panic!("next_round: the round does not end");
}

fn holder_of(e: &Engine, who: Cid) -> Option<Cid> {
    super::nonlethal::holder(e.world(), who)
}

/// §Non-lethal attacks, Example: "Theobald attempts to grab a bandit. The
/// bandit reacts by countering with his axe, inflicting d6 damage: he rolls
/// a 1, just a scratch! Since Theobald is still standing, the bandit must
/// now attempt a STR save to avoid being grabbed, but fails. On his next
/// turn, Theobald attacks the bandit with a dagger, inflicting d4 damage.
/// The bandit can't react since he is grabbed, but he is still alive and
/// conscious despite suffering damage. On his turn, he can only attempt to
/// break free by passing a STR save. He succeeds, however his turn has
/// already been consumed by the attempt to break free and he can't do
/// anything else."
#[test]
fn the_grapple_example() {
    let l = example_level(
        (10, 0),
        (10, 1),
        (1, 0),
        (13, 0),
        [(0, 0), (13, 1), (12, 0)],
    );
    // Axe 1; STR save 15 (fails against STR 10); dagger 3; STR save 5.
    let mut e = start(&l, &[1, 15, 3, 5]);
    let [theo, b1, b2] = ["Theobald", "Bandit 1", "Bandit 2"].map(|n| cid(&e, n));
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    activate(&mut e, theo);
    let at = e.events().len();
    grab(&mut e, theo, b1);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b1,
            attacker: theo
        }
    );
    cmd(&mut e, b1, Command::Counter { weapon: 0 });
    let ev = since(&e, at);
    // The axe's 1 against Theobald's armour 2: a scratch, and he stands.
    assert_eq!(damaged(&ev), vec![(theo, 0, 8)]);
    assert_eq!(saves(&ev), vec![(b1, "STR", 15, 10, false)]);
    assert_eq!(holder_of(&e, b1), Some(theo));
    assert!(has(&e, b1, Condition::Grabbed));
    cmd(&mut e, theo, Command::EndTurn);
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, theo);
    // Drawing the dagger (one-handed) keeps hold.
    cmd(&mut e, theo, Command::Draw { weapon: 1 });
    assert_eq!(holder_of(&e, b1), Some(theo));
    let at = e.events().len();
    attack(&mut e, theo, b1, 1, MODE_STRIKE);
    // No reaction prompt: a grabbed character can't react.
    assert_eq!(prompt(&e), Prompt::Act { actor: theo });
    assert_eq!(damaged(&since(&e, at)), vec![(b1, 3, 5)]);
    assert!(view::standing(e.world(), b1));
    assert_eq!(holder_of(&e, b1), Some(theo));
    cmd(&mut e, theo, Command::EndTurn);
    activate(&mut e, b1);
    let why = refused(
        &mut e,
        b1,
        Command::Attack {
            target: theo,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("grabbed"), "{why}");
    let at = e.events().len();
    cmd(&mut e, b1, Command::BreakFree);
    let ev = since(&e, at);
    assert_eq!(saves(&ev), vec![(b1, "STR", 5, 10, true)]);
    assert_eq!(holder_of(&e, b1), None);
    assert!(!has(&e, b1, Condition::Grabbed));
    // The attempt took the turn.
    assert!(done(&e, b1));
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 0, .. }));
}

/// "The grabbing character can keep hold while moving together with the
/// grabbed character ... hiding behind them as reaction to an attack ...
/// Any other action frees the grabbed character."
#[test]
fn a_grabber_drags_the_held_and_hides_behind_them_but_a_two_handed_blow_frees_them() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "brute", faction: "players", at: (1, 0), name: "Brute")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Held")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (9, 0), name: "Archer", overrides: (weapons: ["bow"]))"#,
        ],
    );
    // STR save 20 fails; then the archer's shot: d6 = 3.
    let mut e = start(&l, &[20, 3]);
    let [brute, held, archer] = ["Brute", "Held", "Archer"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, brute);
    grab(&mut e, brute, held);
    cmd(&mut e, held, Command::NoReaction);
    assert_eq!(holder_of(&e, held), Some(brute));
    // The main action is spent; half speed is 1 zone: into zone B.
    cmd(
        &mut e,
        brute,
        Command::Move {
            path: vec![Cell::new(2, 0), Cell::new(3, 0)],
        },
    );
    assert_eq!(at(&e, brute), Cell::new(3, 0));
    assert_eq!(at(&e, held), Cell::new(2, 0));
    assert_eq!(holder_of(&e, held), Some(brute));
    cmd(&mut e, brute, Command::EndTurn);
    // Next round, the archer shoots the brute (3 zones, within half range
    // of 8) before the brute has acted.
    next_round(&mut e);
    activate(&mut e, archer);
    attack(&mut e, archer, brute, 0, MODE_STRIKE);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: brute,
            attacker: archer
        }
    );
    let n = e.events().len();
    cmd(&mut e, brute, Command::HideBehind { who: held });
    let ev = since(&e, n);
    assert_eq!(damaged(&ev), vec![(held, 3, 5)]);
    assert_eq!(at(&e, held), Cell::new(3, 0));
    assert_eq!(at(&e, brute), Cell::new(2, 0));
    // Still side by side: still held.
    assert_eq!(holder_of(&e, held), Some(brute));
    cmd(&mut e, archer, Command::EndTurn);
    // Next round: the battleaxe is two-handed, and swinging it lets go.
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, brute);
    let n = e.events().len();
    attack(&mut e, brute, held, 0, MODE_STRIKE);
    cmd(&mut e, held, Command::NoReaction);
    let ev = since(&e, n);
    assert!(matches!(ev[0], BattleEvent::Released { by, who, .. } if by == brute && who == held));
}

/// "Allies can also spend a main action to attempt to free them with a STR
/// save."
#[test]
fn an_ally_pulls_a_grabbed_friend_free() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "brute", faction: "players", at: (1, 0), name: "Brute")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Held")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 1), name: "Friend")"#,
        ],
    );
    // STR save 20 fails; the friend's STR save 7 passes.
    let mut e = start(&l, &[20, 7]);
    let [brute, held, friend] = ["Brute", "Held", "Friend"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, brute);
    grab(&mut e, brute, held);
    cmd(&mut e, held, Command::NoReaction);
    cmd(&mut e, friend, Command::NoReaction); // no guard
    assert_eq!(holder_of(&e, held), Some(brute));
    cmd(&mut e, brute, Command::EndTurn);
    activate(&mut e, friend);
    let at = e.events().len();
    cmd(&mut e, friend, Command::FreeAlly { who: held });
    assert_eq!(saves(&since(&e, at)), vec![(friend, "STR", 7, 10, true)]);
    assert_eq!(holder_of(&e, held), None);
    // It was the friend's main action.
    let why = refused(
        &mut e,
        friend,
        Command::Attack {
            target: brute,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("main action"), "{why}");
}

/// Shove: "The target must pass a STR save or the attacker can force them
/// to move by half a zone, and eventually push them into a hazard". Fray:
/// half a zone is `shove_cells` (2) cells straight away; a pit kills.
#[test]
fn a_shove_pushes_half_a_zone_or_into_a_pit() {
    let rows = ["....o.........", ".............."];
    let l = level_with(
        &rows,
        &["aaaaaaaabcdefg", "aaaaaaaabcdefg"],
        &[
            r#"(archetype: "brute", faction: "players", at: (2, 0), name: "Brute")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (3, 0), name: "Brink")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (3, 1), name: "Other")"#,
        ],
        false,
    );
    // Holder die 1 (players); STR save 12 fails against STR 10.
    let mut e = start(&l, &[1, 12]);
    let [brute, brink] = ["Brute", "Brink"].map(|n| cid(&e, n));
    activate(&mut e, brute);
    cmd(
        &mut e,
        brute,
        Command::Maneuver {
            target: brink,
            kind: Maneuver::Shove,
        },
    );
    cmd(&mut e, brink, Command::NoReaction);
    decline_guards(&mut e);
    assert_eq!(at(&e, brink), Cell::new(4, 0));
    assert!(has(&e, brink, Condition::Dead));

    // Away from the pit: two cells east, from (3, 1) to (5, 1).
    let l2 = level_with(
        &rows,
        &["aaaaaaaabcdefg", "aaaaaaaabcdefg"],
        &[
            r#"(archetype: "brute", faction: "players", at: (2, 1), name: "Brute")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (3, 1), name: "Other")"#,
        ],
        false,
    );
    let mut e = start(&l2, &[1, 12]);
    let other = cid(&e, "Other");
    activate(&mut e, brute);
    cmd(
        &mut e,
        brute,
        Command::Maneuver {
            target: other,
            kind: Maneuver::Shove,
        },
    );
    cmd(&mut e, other, Command::NoReaction);
    assert_eq!(at(&e, other), Cell::new(5, 1));
    assert!(view::standing(e.world(), other));

    // A passed STR save: nothing happens.
    let mut e = start(&l2, &[1, 10]);
    activate(&mut e, brute);
    cmd(
        &mut e,
        brute,
        Command::Maneuver {
            target: other,
            kind: Maneuver::Shove,
        },
    );
    cmd(&mut e, other, Command::NoReaction);
    assert_eq!(at(&e, other), Cell::new(3, 1));
}

/// Disarm: "The target must pass a STR save or drop a weapon chosen by the
/// attacker. If the attacker has a free hand, they can grab the weapon."
#[test]
fn a_disarmed_weapon_is_dropped_and_caught_by_a_free_hand() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "Empty", overrides: (weapons: ["dagger"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Axeman")"#,
        ],
    );
    let mut e = start(&l, &[14]);
    let [empty, axeman] = ["Empty", "Axeman"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, empty);
    cmd(
        &mut e,
        empty,
        Command::Maneuver {
            target: axeman,
            kind: Maneuver::Disarm { weapon: 0 },
        },
    );
    cmd(&mut e, axeman, Command::NoReaction);
    let names = |e: &Engine, c: Cid| -> Vec<String> {
        view::get::<crate::rules::components::Loadout>(e.world(), c)
            .map(|l| l.weapons.iter().map(|w| w.name.clone()).collect())
            .unwrap_or_default()
    };
    // The axe is gone from the bandit (the bow and bare hands remain) and
    // in the dagger-man's free hand, before his bare hands.
    assert_eq!(names(&e, axeman), vec!["Bow", "Unarmed"]);
    assert_eq!(names(&e, empty), vec!["Dagger", "Axe", "Unarmed"]);
    // Bare hands can't be knocked away.
    let l2 = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "Empty")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Axeman")"#,
        ],
    );
    let mut e = start(&l2, &[]);
    pass(&mut e);
    activate(&mut e, empty);
    let why = refused(
        &mut e,
        empty,
        Command::Maneuver {
            target: axeman,
            kind: Maneuver::Disarm { weapon: 2 },
        },
    );
    assert!(why.contains("can't be dropped"), "{why}");
}

/// §Effects of size in combat, Non-lethal attacks and Shoving and grabbing:
/// no STR save against a larger attacker, no breaking free from one, no
/// grabbing a larger creature; a larger shover deals d4 direct damage and
/// pushes twice as far.
#[test]
fn size_rules_for_non_lethal_attacks() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "Bandit")"#,
            r#"(archetype: "wyrm", faction: "bandits", at: (0, 0), name: "Wyrm")"#,
        ],
    );
    let mut e = start(&l, &[2]);
    let [bandit, wyrm] = ["Bandit", "Wyrm"].map(|n| cid(&e, n));
    activate(&mut e, wyrm);
    let n = e.events().len();
    grab(&mut e, wyrm, bandit);
    cmd(&mut e, bandit, Command::NoReaction);
    // No STR save against a larger grabber.
    assert!(saves(&since(&e, n)).is_empty());
    assert_eq!(holder_of(&e, bandit), Some(wyrm));
    cmd(&mut e, wyrm, Command::EndTurn);
    activate(&mut e, bandit);
    let why = refused(&mut e, bandit, Command::BreakFree);
    assert!(why.contains("larger"), "{why}");
    let why = refused(
        &mut e,
        bandit,
        Command::Maneuver {
            target: wyrm,
            kind: Maneuver::Grapple,
        },
    );
    assert!(why.contains("grabbed"), "{why}");
    cmd(&mut e, bandit, Command::EndTurn);
    next_round(&mut e);
    // The wyrm shoves the bandit it holds (one hand holds, it may act):
    // d4 = 2 direct damage, no save, and a whole zone: 4 cells east, from
    // (1, 0) to (5, 0). The grip is lost.
    activate(&mut e, wyrm);
    let n = e.events().len();
    cmd(
        &mut e,
        wyrm,
        Command::Maneuver {
            target: bandit,
            kind: Maneuver::Shove,
        },
    );
    let ev = since(&e, n);
    assert!(saves(&ev).is_empty());
    assert_eq!(damaged(&ev), vec![(bandit, 2, 6)]);
    assert_eq!(at(&e, bandit), Cell::new(5, 0));
    assert_eq!(holder_of(&e, bandit), None);
    cmd(&mut e, wyrm, Command::EndTurn);
    activate(&mut e, bandit);
    let why = refused(
        &mut e,
        bandit,
        Command::Maneuver {
            target: wyrm,
            kind: Maneuver::Shove,
        },
    );
    assert!(why.contains("larger"), "{why}");
}

/// "If a normal attack is countered by a non-lethal attack, or viceversa,
/// the non-lethal attack is resolved last. If a non-lethal attack is
/// countered by a non-lethal attack, the counter is resolved last."
#[test]
fn non_lethal_attacks_resolve_last_and_a_non_lethal_counter_after_the_attack() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "A")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "B")"#,
        ],
    );
    // A strikes with the axe (d6 = 2); B counters with a grapple: the blow
    // lands first, then B's STR contest: A's save 20 fails.
    let mut e = start(&l, &[2, 20]);
    let [a, b] = ["A", "B"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, a);
    let n = e.events().len();
    attack(&mut e, a, b, 0, MODE_STRIKE);
    cmd(
        &mut e,
        b,
        Command::CounterManeuver {
            kind: Maneuver::Grapple,
        },
    );
    let ev = since(&e, n);
    let dmg = ev
        .iter()
        .position(|x| matches!(x, BattleEvent::Damaged { .. }))
        .expect("the blow lands");
    let grabbed = ev
        .iter()
        .position(|x| matches!(x, BattleEvent::Grabbed { .. }))
        .expect("the grab follows");
    assert!(dmg < grabbed);
    assert_eq!(holder_of(&e, a), Some(b));

    // Shove countered by a grapple: the shove first (B's save 20 fails:
    // pushed 2 cells west... from (0, 0) it cannot go), then the grapple
    // (A's save 20 fails).
    let mut e = start(&l, &[20, 20]);
    pass(&mut e);
    activate(&mut e, a);
    let n = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Maneuver {
            target: b,
            kind: Maneuver::Shove,
        },
    );
    cmd(
        &mut e,
        b,
        Command::CounterManeuver {
            kind: Maneuver::Grapple,
        },
    );
    let order: Vec<Cid> = saves(&since(&e, n)).iter().map(|s| s.0).collect();
    assert_eq!(order, vec![b, a]);
    assert_eq!(holder_of(&e, a), Some(b));
}

/// Non-lethal attacks "can be dodged".
#[test]
fn a_dodged_grapple_grabs_nobody() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "A")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "B")"#,
        ],
    );
    let mut e = start(&l, &[3]);
    let [a, b] = ["A", "B"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, a);
    grab(&mut e, a, b);
    cmd(&mut e, b, Command::Dodge);
    assert_eq!(holder_of(&e, b), None);
    assert!(done(&e, b));
}

// ------------------------------------------------------------ blasts

/// "Melee blast attacks hit the attacker's zone and don't target the
/// attacker themselves. They can't miss." Everyone in the zone and on its
/// borders, friend or foe; one damage roll; "Damage from blast attacks
/// isn't modified" by size.
#[test]
fn a_ranged_blast_hits_the_zone_and_its_borders() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "skirmisher", faction: "players", at: (4, 0), name: "Thrower")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "In1")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (1, 1), name: "In2")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (2, 0), name: "Border")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (3, 1), name: "Out")"#,
        ],
    );
    // 2 zones (range 2): beyond half range, a WIT save: 4 passes. d6 = 5.
    let mut e = start(&l, &[4, 5]);
    let [thrower, in1, in2, border, out] =
        ["Thrower", "In1", "In2", "Border", "Out"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, thrower);
    cmd(&mut e, thrower, Command::Draw { weapon: 2 });
    let n = e.events().len();
    attack(&mut e, thrower, in1, 2, MODE_STRIKE);
    for t in [in1, in2, border] {
        assert_eq!(
            prompt(&e),
            Prompt::React {
                actor: t,
                attacker: thrower
            }
        );
        cmd(&mut e, t, Command::NoReaction);
    }
    let ev = since(&e, n);
    assert!(ev.iter().any(|x| matches!(x, BattleEvent::BlastHits { deviated: None, targets, .. } if *targets == vec![in1, in2, border])));
    assert_eq!(damaged(&ev), vec![(in1, 5, 3), (in2, 5, 3), (border, 5, 3)]);
    assert_eq!(hp(&e, out), 8);
}

/// "If they miss, they are deviated and hit a random neighbouring zone.
/// Assign a number to each neighbouring zone and roll a die".
#[test]
fn a_missed_blast_strays_into_a_neighbouring_zone() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "skirmisher", faction: "players", at: (9, 0), name: "Thrower")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (4, 0), name: "Aimed")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (6, 1), name: "Lucky")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Far")"#,
        ],
    );
    // WIT save 18 fails; zone C's neighbours are B and D: d2 = 2 -> D.
    // d6 = 4.
    let mut e = start(&l, &[18, 2, 4]);
    let [thrower, aimed, lucky] = ["Thrower", "Aimed", "Lucky"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, thrower);
    cmd(&mut e, thrower, Command::Draw { weapon: 2 });
    let n = e.events().len();
    attack(&mut e, thrower, aimed, 2, MODE_STRIKE);
    cmd(&mut e, lucky, Command::NoReaction);
    let ev = since(&e, n);
    assert!(ev.iter().any(|x| matches!(x, BattleEvent::BlastHits { zone, deviated: Some(r), .. } if zone == "D" && r.total == 2)));
    assert_eq!(damaged(&ev), vec![(lucky, 4, 4)]);
    assert_eq!(hp(&e, aimed), 8);
}

/// "Attacks directed at multiple targets (such as blast attacks) can only
/// be countered by a single target."
#[test]
fn only_one_target_counters_a_blast() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "wyrm", faction: "players", at: (1, 0), name: "Wyrm")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "B1")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 1), name: "B2")"#,
        ],
    );
    // Fire breath, a melee blast: its own zone, sparing itself, no save.
    // The breath d6 = 6 (not doubled for size); B1 counters with the axe
    // (d6 = 1: halved, 1, against light armour 1).
    let mut e = start(&l, &[6, 1]);
    let [wyrm, b1, b2] = ["Wyrm", "B1", "B2"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, wyrm);
    cmd(&mut e, wyrm, Command::Draw { weapon: 1 });
    attack(&mut e, wyrm, b1, 1, MODE_STRIKE);
    cmd(&mut e, b1, Command::Counter { weapon: 0 });
    let why = refused(&mut e, b2, Command::Counter { weapon: 0 });
    assert!(why.contains("single target"), "{why}");
    let n = e.events().len();
    cmd(&mut e, b2, Command::NoReaction);
    let ev = since(&e, n);
    // The breath hurts B1 more (6 against 0): it lands first, and takes
    // B1 out, so the counter never lands.
    assert_eq!(damaged(&ev), vec![(b1, 6, 2), (b2, 6, 2)]);
    assert_eq!(hp(&e, wyrm), 20);
}

// ------------------------------------------------------------ stunts

/// §Attack stunts, Example: "Balthasar attacks a bandit with 3 health left
/// with his sword ... he proposes an attack stunt: instead of taking
/// damage, the bandit is disarmed and incapacitated until the end of the
/// stretch. Given his low health, the bandit happily accepts".
#[test]
fn the_stunt_example_and_a_refused_stunt() {
    let l = example_level(
        (1, 0),
        (10, 1),
        (10, 0),
        (13, 0),
        [(0, 0), (13, 1), (12, 0)],
    );
    let mut e = start(&l, &[]);
    let [bal, b1, b2] = ["Balthasar", "Bandit 1", "Bandit 2"].map(|n| cid(&e, n));
    let l1 = e
        .world()
        .resource::<crate::rules::battle::Roster>()
        .entity(b1)
        .unwrap();
    e.world_mut().get_mut::<Health>(l1).unwrap().hp = 3;
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    activate(&mut e, bal);
    let n = e.events().len();
    attack(&mut e, bal, b1, 0, super::data::MODE_STUNT_DISARM);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b1,
            attacker: bal
        }
    );
    cmd(&mut e, b1, Command::Accept);
    let ev = since(&e, n);
    assert!(damaged(&ev).is_empty());
    assert!(has(&e, b1, Condition::Incapacitated));
    assert!(
        ev.iter()
            .any(|x| matches!(x, BattleEvent::Disarmed { weapon, .. } if weapon == "Axe"))
    );
    // Accepting is not a reaction: the turn is not spent.
    assert!(!done(&e, b1));

    // Refused: the attack is resolved as normal, and the target may still
    // react (here it takes it: d6 = 2).
    let mut e = start(&l, &[2]);
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    activate(&mut e, bal);
    attack(&mut e, bal, b1, 0, super::data::MODE_STUNT_SURRENDER);
    let n = e.events().len();
    cmd(&mut e, b1, Command::NoReaction);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b1,
            attacker: bal
        }
    );
    cmd(&mut e, b1, Command::NoReaction);
    assert_eq!(damaged(&since(&e, n)), vec![(b1, 2, 6)]);
    assert!(!has(&e, b1, Condition::Surrendered));
}

// ---------------------------------------------------------- sneaking

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
            .any(|x| matches!(x, BattleEvent::RoundStarted { round: 0 }))
    );
    // Only the concealed may act.
    let why = refused(&mut e, lurker, Command::Activate { who: open });
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
    assert!(
        e.events()
            .iter()
            .all(|x| !matches!(x, BattleEvent::Activated { faction: 0, .. }))
    );
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
    let log = e.world().resource::<crate::rules::battle::BattleLog>();
    assert_eq!(
        super::gear::gear_report(log, theo),
        vec![("Light armour".to_string(), "damaged")]
    );
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

fn gear_rolls(e: &Engine) -> Vec<(Cid, String, i32, GearOutcome)> {
    e.events()
        .iter()
        .filter_map(|x| match x {
            BattleEvent::GearRolled {
                who,
                item,
                roll,
                outcome,
                ..
            } => Some((*who, item.clone(), roll.total, *outcome)),
            _ => None,
        })
        .collect()
}

fn broke(e: &Engine) -> Vec<(Cid, String)> {
    e.events()
        .iter()
        .filter_map(|x| match x {
            BattleEvent::GearBroken { who, item, .. } => Some((*who, item.clone())),
            _ => None,
        })
        .collect()
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
        .map(|l| l.weapons.iter().map(|w| w.name.clone()).collect())
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
fn worn_armour_breaks_under_a_heavy_blow_shield_first() {
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
    let data = super::data::ZonesData::load(Path::new("assets/rulesets/zones"))
        .unwrap_or_else(|e| panic!("{e}"));
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (1, 0), name: "A", overrides: (damaged: ["bow"]))"#,
            r#"(archetype: "swordsman", faction: "bandits", at: (0, 0), name: "B", overrides: (damaged: ["sword", "light", "shield"]))"#,
        ],
    );
    let err = data.equip(&l.combatants[0]).err().unwrap_or_default();
    assert!(err.contains("`damaged` names `bow`"), "{err}");
    let b = data
        .equip(&l.combatants[1])
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(b.loadout.weapons[0].damaged);
    assert!(b.stats.pieces.iter().all(|p| p.damaged));
}

/// §Effects of size in combat: "Massive characters can make melee attacks
/// up to range 1", and with two sizes of difference a massive attacker
/// rolls four times the dice against a medium target.
#[test]
fn a_massive_creature_strikes_one_zone_away() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (2, 0), name: "Near")"#,
            r#"(archetype: "bandit", faction: "players", at: (4, 0), name: "Far")"#,
            r#"(archetype: "giant", faction: "bandits", at: (0, 0), name: "Giant")"#,
        ],
    );
    let mut e = start(&l, &[1, 1, 1, 2]);
    let [near, far, giant] = ["Near", "Far", "Giant"].map(|n| cid(&e, n));
    activate(&mut e, giant);
    let why = refused(
        &mut e,
        giant,
        Command::Attack {
            target: far,
            weapon: 0,
            mode: 0,
        },
    );
    assert!(why.contains("nearby"), "{why}");
    let n = e.events().len();
    attack(&mut e, giant, near, 0, MODE_STRIKE);
    cmd(&mut e, near, Command::NoReaction);
    let ev = since(&e, n);
    let dice = ev.iter().find_map(|x| match x {
        BattleEvent::DamageRolled { roll, .. } => Some(roll.dice.len()),
        _ => None,
    });
    assert_eq!(dice, Some(4));
    assert_eq!(damaged(&ev), vec![(near, 5, 3)]);
}

/// §Effects of size in combat, Example: a wyrm's bite "could be targeted at
/// multiple smaller characters, for example: two medium-sized targets (d8
/// damage each), three small-sized characters (two suffering d8 damage, one
/// suffering 2d8 damage), a medium-sized and a small target (the former
/// taking d8 damage, the latter 2d8 damage)".
#[test]
fn a_larger_attacker_shares_its_dice_among_smaller_targets() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "Man")"#,
            r#"(archetype: "bandit", faction: "players", at: (1, 1), name: "Man 2")"#,
            r#"(archetype: "goblin", faction: "players", at: (0, 1), name: "Gob")"#,
            r#"(archetype: "wyrm", faction: "bandits", at: (0, 0), name: "Wyrm")"#,
        ],
    );
    // The medium's d8 = 5; the small's 2d8 = 3 + 4.
    let mut e = start(&l, &[5, 3, 4]);
    let [man, man2, gob, wyrm] = ["Man", "Man 2", "Gob", "Wyrm"].map(|n| cid(&e, n));
    activate(&mut e, wyrm);
    let split = |shares: Vec<(Cid, u32)>| Command::SplitAttack { weapon: 0, shares };
    let w = e.world();
    let legal = |c: &Command| super::check::check(w, wyrm, c);
    // The text's examples (with the one small target the level has).
    assert!(legal(&split(vec![(man, 1), (man2, 1)])).is_ok());
    assert!(legal(&split(vec![(man, 1), (gob, 2)])).is_ok());
    // Too much, or too little.
    assert!(legal(&split(vec![(man, 2), (gob, 1)])).is_err());
    assert!(legal(&split(vec![(man, 1), (gob, 1)])).is_err());
    let n = e.events().len();
    cmd(&mut e, wyrm, split(vec![(man, 1), (gob, 2)]));
    cmd(&mut e, man, Command::NoReaction);
    cmd(&mut e, gob, Command::NoReaction);
    let ev = since(&e, n);
    assert_eq!(damaged(&ev), vec![(man, 5, 3), (gob, 7, -2)]);
    assert!(has(&e, man, Condition::Incapacitated));
    assert!(has(&e, gob, Condition::Dead));
}

/// §Effects of size in combat, Example: "A human throwing a fire bomb (d6
/// damage, range 2, blast) would inflict full damage against the wyrm,
/// thanks to the blast property" (a sword's 3 would only inflict 2).
#[test]
fn a_fire_bomb_does_full_damage_to_a_wyrm() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "skirmisher", faction: "players", at: (4, 0), name: "Thrower")"#,
            r#"(archetype: "wyrm", faction: "bandits", at: (0, 0), name: "Wyrm", overrides: (armor: []))"#,
        ],
    );
    // 2 zones of range 2: a WIT save, 4 passes; d6 = 3.
    let mut e = start(&l, &[4, 3]);
    let [thrower, wyrm] = ["Thrower", "Wyrm"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, thrower);
    cmd(&mut e, thrower, Command::Draw { weapon: 2 });
    let n = e.events().len();
    attack(&mut e, thrower, wyrm, 2, MODE_STRIKE);
    cmd(&mut e, wyrm, Command::NoReaction);
    assert_eq!(damaged(&since(&e, n)), vec![(wyrm, 3, 17)]);
}

/// A stunt offered from concealment: refused, the attack goes on, and the
/// target, taken by surprise, still cannot react (§Sneaking in combat).
#[test]
fn a_refused_stunt_from_concealment_still_takes_the_target_by_surprise() {
    let all: Vec<String> = party((4, 0), (10, 1), (10, 0))
        .into_iter()
        .chain([
            r#"(archetype: "bandit", faction: "bandits", at: (5, 1), name: "Lurker", overrides: (concealed: true))"#.to_string(),
        ])
        .collect();
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let l = level(&OPEN, &refs);
    let mut e = start(&l, &[2]);
    let [bal, lurker] = ["Balthasar", "Lurker"].map(|n| cid(&e, n));
    activate(&mut e, lurker);
    attack(&mut e, lurker, bal, 0, super::data::MODE_STUNT_SURRENDER);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: bal,
            attacker: lurker
        }
    );
    let n = e.events().len();
    cmd(&mut e, bal, Command::NoReaction);
    // No dodge or counter offered: the axe lands at once (d6 = 2).
    assert_eq!(prompt(&e), Prompt::Act { actor: lurker });
    assert_eq!(damaged(&since(&e, n)), vec![(bal, 2, 6)]);
}

// ---------------------------------------------------------------------------
// §Mounts and vehicles in combat

/// A horse "Bay" (large, AGI 11, health 10, sprinting: 4 zones, half speed
/// 2) ridden by "Rider" (a swordsman with a sword, no armour, AGI 11,
/// health 8) at `pair`, and the example's bandits.
fn mounted_level(pair: (i32, i32), leader: (i32, i32), b: [(i32, i32); 3]) -> Level {
    let mut all = vec![
        format!(r#"(archetype: "horse", faction: "players", at: {pair:?}, name: "Bay")"#),
        format!(
            r#"(archetype: "swordsman", faction: "players", at: {pair:?}, name: "Rider", riding: Some("Bay"), overrides: (weapons: ["sword"], armor: [], shield: None))"#
        ),
    ];
    all.extend(bandits(leader, b));
    let refs: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    level(&OPEN, &refs)
}

fn rolled(events: &[BattleEvent]) -> Vec<(Cid, String, i32)> {
    events
        .iter()
        .filter_map(|ev| match ev {
            BattleEvent::DamageRolled { target, roll, .. } => {
                Some((*target, roll.expr.clone(), roll.total))
            }
            _ => None,
        })
        .collect()
}

/// "Mounts and riders ... take turn together"; "If the mount or vehicle
/// moves at full speed, riders and passengers can't take any action".
#[test]
fn a_mount_and_its_rider_take_their_turn_together() {
    let l = mounted_level((0, 0), (13, 0), [(7, 1), (12, 0), (12, 1)]);
    let mut e = start(&l, &[]);
    let [bay, rider, b1] = ["Bay", "Rider", "Bandit 1"].map(|n| cid(&e, n));
    assert_eq!(at(&e, rider), at(&e, bay));
    pass(&mut e);
    activate(&mut e, rider);
    assert_eq!(prompt(&e), Prompt::Act { actor: rider });
    // The rider does not walk: its mount carries it.
    let why = refused(
        &mut e,
        rider,
        Command::Move {
            path: vec![Cell::new(1, 0)],
        },
    );
    assert!(why.contains("riding Bay"), "{why}");
    // It hands the turn to the horse, which gallops three zones (A to D).
    cmd(&mut e, rider, Command::Activate { who: bay });
    assert_eq!(prompt(&e), Prompt::Act { actor: bay });
    cmd(
        &mut e,
        bay,
        Command::Move {
            path: (1..=6).map(|x| Cell::new(x, 0)).collect(),
        },
    );
    assert_eq!(at(&e, bay), Cell::new(6, 0));
    assert_eq!(at(&e, rider), Cell::new(6, 0));
    cmd(&mut e, bay, Command::EndTurn);
    // The turn comes back to the rider, who cannot act after a gallop.
    assert_eq!(prompt(&e), Prompt::Act { actor: rider });
    let why = refused(
        &mut e,
        rider,
        Command::Attack {
            target: b1,
            weapon: 0,
            mode: MODE_STRIKE,
        },
    );
    assert!(why.contains("carried at full speed"), "{why}");
    cmd(&mut e, rider, Command::EndTurn);
    assert!(done(&e, rider) && done(&e, bay));
    assert!(matches!(prompt(&e), Prompt::Activate { faction: 1, .. }));
    // Neither can be activated again this round.
    assert!(!super::round::eligible(e.world(), 0).contains(&rider));
}

/// "Attacks made by riders and passengers are impaired" (a d4, Fray's
/// impaired damage); a rider who acts keeps its mount to half speed.
#[test]
fn a_rider_strikes_impaired_and_keeps_its_mount_to_half_speed() {
    let l = mounted_level((0, 0), (13, 0), [(5, 1), (12, 0), (12, 1)]);
    // The rider's d4: 3.
    let mut e = start(&l, &[3]);
    let [bay, rider, b1] = ["Bay", "Rider", "Bandit 1"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, bay);
    // Two zones (A to C): half speed, the rider may still act.
    cmd(
        &mut e,
        bay,
        Command::Move {
            path: (1..=4).map(|x| Cell::new(x, 0)).collect(),
        },
    );
    cmd(&mut e, bay, Command::Activate { who: rider });
    let from = e.events().len();
    attack(&mut e, rider, b1, 0, MODE_STRIKE);
    cmd(&mut e, b1, Command::NoReaction);
    decline_guards(&mut e);
    assert_eq!(rolled(&since(&e, from)), vec![(b1, "1D4".to_string(), 3)]);
    assert_eq!(hp(&e, b1), 5);
    // Back to the horse: the rider acted, so no more than half speed, which
    // it has spent.
    cmd(&mut e, rider, Command::Activate { who: bay });
    assert_eq!(super::movement::remaining(e.world(), bay), 0);
    let why = refused(
        &mut e,
        bay,
        Command::Move {
            path: vec![Cell::new(5, 0), Cell::new(6, 0)],
        },
    );
    assert!(why.contains("more than the 0 left"), "{why}");
}

/// "Mounting or dismounting ... counts as moving half a zone. If the mount
/// or vehicle is moving, an AGI save is required to avoid falling,
/// suffering d4 direct damage."
#[test]
fn getting_off_a_moving_mount_takes_an_agi_save() {
    let l = mounted_level((0, 0), (13, 0), [(5, 1), (12, 0), (12, 1)]);
    // AGI save 15 against 11 fails; the fall's d4: 3; then the sword's d6: 4.
    let mut e = start(&l, &[15, 3, 4]);
    let [bay, rider, b1] = ["Bay", "Rider", "Bandit 1"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, bay);
    cmd(
        &mut e,
        bay,
        Command::Move {
            path: (1..=4).map(|x| Cell::new(x, 0)).collect(),
        },
    );
    cmd(&mut e, bay, Command::Activate { who: rider });
    // Not onto a cell away from the mount.
    let why = refused(
        &mut e,
        rider,
        Command::Dismount {
            to: Cell::new(2, 0),
        },
    );
    assert!(why.contains("next to the mount"), "{why}");
    let from = e.events().len();
    cmd(
        &mut e,
        rider,
        Command::Dismount {
            to: Cell::new(4, 1),
        },
    );
    let ev = since(&e, from);
    assert_eq!(saves(&ev), vec![(rider, "AGI", 15, 11, false)]);
    assert_eq!(damaged(&ev), vec![(rider, 3, 5)]);
    assert_eq!(at(&e, rider), Cell::new(4, 1));
    assert_eq!(view::riding(e.world(), rider), None);
    // Half a zone spent: it may still walk a zone, or strike, now with its
    // own weapon.
    assert_eq!(super::movement::remaining(e.world(), rider), 1);
    attack(&mut e, rider, b1, 0, MODE_STRIKE);
    cmd(&mut e, b1, Command::NoReaction);
    decline_guards(&mut e);
    assert_eq!(hp(&e, b1), 4);
}

#[test]
fn getting_on_counts_as_half_a_zone() {
    let all = [
        r#"(archetype: "horse", faction: "players", at: (0, 0), name: "Bay")"#,
        r#"(archetype: "swordsman", faction: "players", at: (1, 1), name: "Rider", overrides: (weapons: ["sword"], armor: [], shield: None))"#,
        r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "Leader")"#,
    ];
    let mut e = start(&level(&OPEN, &all), &[]);
    let [bay, rider] = ["Bay", "Rider"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, rider);
    // Out to zone B and back: full speed spent, no half zone left.
    cmd(
        &mut e,
        rider,
        Command::Move {
            path: vec![Cell::new(2, 1), Cell::new(1, 0)],
        },
    );
    let why = refused(&mut e, rider, Command::Mount { mount: bay });
    assert!(why.contains("half a zone"), "{why}");
    // Next round, it gets on at once, and can still draw and strike.
    cmd(&mut e, rider, Command::EndTurn);
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, rider);
    cmd(&mut e, rider, Command::Mount { mount: bay });
    assert_eq!(view::riding(e.world(), rider), Some(bay));
    assert_eq!(at(&e, rider), Cell::new(0, 0));
    assert!(e.events().iter().any(
        |ev| matches!(ev, BattleEvent::Mounted { who, mount, .. } if *who == rider && *mount == bay)
    ));
    // The horse has not moved: no save was needed.
    assert!(saves(e.events()).is_empty());
    // Mounted now, the pair's turn goes on with the horse.
    cmd(&mut e, rider, Command::EndTurn);
    assert_eq!(prompt(&e), Prompt::Act { actor: bay });
}

/// "Individual mounts, riders, and passengers can choose not to do anything
/// and reserve their turn to react"; at full speed, riders can't react.
#[test]
fn a_rider_may_keep_its_turn_to_react_unless_its_mount_gallops() {
    let l = mounted_level((6, 0), (7, 1), [(13, 0), (12, 0), (12, 1)]);
    // The rider's dodge: 4 against AGI 11 passes.
    let mut e = start(&l, &[4]);
    let [bay, rider, leader] = ["Bay", "Rider", "Leader"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, rider);
    cmd(&mut e, rider, Command::Reserve);
    assert!(
        e.events()
            .iter()
            .any(|ev| matches!(ev, BattleEvent::TurnReserved { who, .. } if *who == rider))
    );
    // The horse goes on and stands still.
    assert_eq!(prompt(&e), Prompt::Act { actor: bay });
    cmd(&mut e, bay, Command::EndTurn);
    assert!(!done(&e, rider));
    assert!(!super::round::eligible(e.world(), 0).contains(&rider));
    // The leader strikes the rider, who dodges with its kept turn.
    activate(&mut e, leader);
    attack(&mut e, leader, rider, 0, MODE_STRIKE);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: rider,
            attacker: leader
        }
    );
    cmd(&mut e, rider, Command::Dodge);
    assert_eq!(hp(&e, rider), 8);
    assert!(done(&e, rider));

    // Another round: the rider keeps its turn, but the horse gallops three
    // zones; the rider can no longer react.
    let l = mounted_level((0, 0), (7, 1), [(13, 0), (12, 0), (12, 1)]);
    // The leader's d8: 5.
    let mut e = start(&l, &[5]);
    let [bay, rider, leader] = ["Bay", "Rider", "Leader"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, rider);
    cmd(&mut e, rider, Command::Reserve);
    cmd(
        &mut e,
        bay,
        Command::Move {
            path: (1..=6).map(|x| Cell::new(x, 0)).collect(),
        },
    );
    cmd(&mut e, bay, Command::EndTurn);
    activate(&mut e, leader);
    attack(&mut e, leader, rider, 0, MODE_STRIKE);
    // No reaction prompt for the rider (nor for the horse, whose turn is
    // spent): the blow lands.
    assert_eq!(hp(&e, rider), 3);
}

/// Fray decides: a mount that goes down throws its riders (the AGI save
/// against the fall); mounts and riders are targeted individually.
#[test]
fn a_mount_that_goes_down_throws_its_rider() {
    let all = [
        r#"(archetype: "horse", faction: "players", at: (6, 0), name: "Bay", overrides: (stats: {"HEALTH": 4}))"#,
        r#"(archetype: "swordsman", faction: "players", at: (6, 0), name: "Rider", riding: Some("Bay"), overrides: (weapons: ["sword"], armor: [], shield: None))"#,
        r#"(archetype: "bandit", faction: "bandits", at: (7, 1), name: "Leader", overrides: (weapons: ["battleaxe"]))"#,
    ];
    // The battleaxe's d8: 6, halved against the larger horse: 3 (critical
    // for health 4); the rider's AGI save: 5 passes.
    let mut e = start(&level(&OPEN, &all), &[6, 5]);
    let [bay, rider, leader] = ["Bay", "Rider", "Leader"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    attack(&mut e, leader, bay, 0, MODE_STRIKE);
    cmd(&mut e, bay, Command::NoReaction);
    decline_guards(&mut e);
    assert!(has(&e, bay, Condition::Incapacitated));
    assert_eq!(view::riding(e.world(), rider), None);
    assert_ne!(at(&e, rider), Cell::new(6, 0));
    assert_eq!(Map::chebyshev(at(&e, rider), Cell::new(6, 0)), 1);
    assert_eq!(saves(e.events()), vec![(rider, "AGI", 5, 11, true)]);
    assert_eq!(hp(&e, rider), 8);
    assert!(!e.world().resource::<Battle>().is_over());
}

/// Fray decides: a shoved rider is pushed off its mount and falls; a
/// grabbed one is pulled down. A riderless horse does not keep its side in
/// the fight.
#[test]
fn a_shoved_rider_falls_and_a_riderless_mount_does_not_fight_on() {
    let l = mounted_level((6, 0), (7, 0), [(13, 0), (12, 0), (12, 1)]);
    // The rider's STR save 15 against 12 fails; the fall's AGI save 18
    // fails: d4 = 2.
    let mut e = start(&l, &[15, 18, 2]);
    let [bay, rider, leader] = ["Bay", "Rider", "Leader"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(
        &mut e,
        leader,
        Command::Maneuver {
            target: rider,
            kind: Maneuver::Shove,
        },
    );
    cmd(&mut e, rider, Command::NoReaction);
    decline_guards(&mut e);
    assert_eq!(view::riding(e.world(), rider), None);
    assert_eq!(at(&e, bay), Cell::new(6, 0));
    assert_eq!(at(&e, rider), Cell::new(4, 0));
    assert_eq!(hp(&e, rider), 6);
    // The rider dies: only the horse is left, and the bandits win.
    let all = [
        r#"(archetype: "horse", faction: "players", at: (6, 0), name: "Bay")"#,
        r#"(archetype: "swordsman", faction: "players", at: (6, 0), name: "Rider", riding: Some("Bay"), overrides: (stats: {"HEALTH": 1}, armor: [], shield: None))"#,
        r#"(archetype: "bandit", faction: "bandits", at: (7, 0), name: "Leader", overrides: (weapons: ["battleaxe"]))"#,
    ];
    let mut e = start(&level(&OPEN, &all), &[8]);
    let [rider, leader] = ["Rider", "Leader"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    attack(&mut e, leader, rider, 0, MODE_STRIKE);
    cmd(&mut e, rider, Command::NoReaction);
    decline_guards(&mut e);
    assert!(has(&e, rider, Condition::Dead));
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(1)));
}

/// A vehicle moves only with someone aboard and never attacks; passengers
/// get on and off as riders do.
#[test]
fn a_vehicle_moves_only_with_someone_aboard() {
    let all = [
        r#"(archetype: "wagon", faction: "players", at: (0, 0), name: "Wagon")"#,
        r#"(archetype: "archer", faction: "players", at: (1, 0), name: "Mira")"#,
        r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "Leader")"#,
    ];
    let mut e = start(&level(&OPEN, &all), &[]);
    let [wagon, mira] = ["Wagon", "Mira"].map(|n| cid(&e, n));
    pass(&mut e);
    // Nobody aboard: the wagon cannot take a turn.
    assert_eq!(super::round::eligible(e.world(), 0), vec![mira]);
    activate(&mut e, mira);
    cmd(&mut e, mira, Command::Mount { mount: wagon });
    cmd(&mut e, mira, Command::EndTurn);
    // Aboard, the wagon takes the rest of the pair's turn and rolls on.
    assert_eq!(prompt(&e), Prompt::Act { actor: wagon });
    let leader = cid(&e, "Leader");
    let why = refused(
        &mut e,
        wagon,
        Command::Attack {
            target: leader,
            weapon: 0,
            mode: MODE_STRIKE,
        },
    );
    assert!(why.contains("vehicle"), "{why}");
    cmd(
        &mut e,
        wagon,
        Command::Move {
            path: vec![Cell::new(1, 0), Cell::new(2, 0)],
        },
    );
    assert_eq!(at(&e, mira), Cell::new(2, 0));
}

#[test]
fn riders_are_checked_when_the_level_loads() {
    let bad = |combatants: &[&str]| {
        let text = Scenario::zones(&OPEN, &["aabbccddeeffgg", "aabbccddeeffgg"])
            .with(combatants)
            .second_starts(true)
            .source();
        match parse_level(Path::new("zones_test.ron"), &text) {
            Ok(_) => panic!("should not load"),
            Err(e) => e.to_string(),
        }
    };
    let bandit = r#"(archetype: "bandit", faction: "bandits", at: (13, 0))"#;
    let e = bad(&[
        r#"(archetype: "horse", faction: "players", at: (0, 0), name: "Bay")"#,
        r#"(archetype: "swordsman", faction: "players", at: (0, 0), riding: Some("Grey"))"#,
        bandit,
    ]);
    assert!(
        e.contains("rides `Grey`, which no combatant is named"),
        "{e}"
    );
    assert!(e.contains("zones_test.ron:"), "{e}");
    let e = bad(&[
        r#"(archetype: "horse", faction: "players", at: (0, 0), name: "Bay")"#,
        r#"(archetype: "swordsman", faction: "players", at: (1, 0), riding: Some("Bay"))"#,
        bandit,
    ]);
    assert!(e.contains("expected the mount's cell"), "{e}");
    let e = bad(&[
        r#"(archetype: "horse", faction: "bandits", at: (0, 0), name: "Bay")"#,
        r#"(archetype: "swordsman", faction: "players", at: (0, 0), riding: Some("Bay"))"#,
        bandit,
    ]);
    assert!(e.contains("of its own faction"), "{e}");
    // Two on a horse that carries one: refused when the battle starts.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "horse", faction: "players", at: (0, 0), name: "Bay")"#,
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), riding: Some("Bay"))"#,
            r#"(archetype: "archer", faction: "players", at: (0, 0), riding: Some("Bay"))"#,
            bandit,
        ],
    );
    let mut eng = engine();
    let opts = StartOptions {
        seed: 1,
        script: Vec::new(),
        control: Controls::AsLevel,
    };
    let err = eng.start(&l, RulesetId::Zones, &opts).err().unwrap();
    assert!(err.to_string().contains("carries 1 at most"), "{err}");
}

/// The AI plays the mounted caravan level to the end: pairs take their turn
/// together, riders strike impaired, and some get off to fight on foot.
#[test]
fn the_ai_plays_mounts_and_vehicles() {
    let level = crate::data::level::load_level(Path::new("levels/caravan_ambush.ron")).unwrap();
    let mut handed = 0;
    let mut saddle_blows = 0;
    let mut got_off = 0;
    let mut eng = engine();
    for seed in 1..=12 {
        let opts = StartOptions {
            seed,
            script: Vec::new(),
            control: Controls::AllAi,
        };
        eng.start(&level, RulesetId::Zones, &opts).unwrap();
        eng.run(200_000);
        assert!(eng.outcome().is_some(), "seed {seed} did not end");
        for ev in eng.events() {
            if matches!(ev, BattleEvent::TurnHandedOver { .. }) {
                handed += 1;
            }
            if matches!(ev, BattleEvent::Dismounted { thrown: false, who, .. } if view::steed(eng.world(), *who).is_none())
            {
                got_off += 1;
            }
        }
        let riders: Vec<Cid> = ["Captain Orlo", "Tamsin", "Chief Varga", "Hesk", "Mira"]
            .into_iter()
            .map(|n| cid(&eng, n))
            .collect();
        let mut attacker = None;
        for ev in eng.events() {
            match ev {
                BattleEvent::AttackMade { attacker: a, .. } => attacker = Some(*a),
                BattleEvent::DamageRolled { roll, .. }
                    if roll.expr == "1D4" && attacker.is_some_and(|a| riders.contains(&a)) =>
                {
                    saddle_blows += 1;
                }
                _ => {}
            }
        }
    }
    assert!(handed > 12, "pairs handed their turn on {handed} times");
    assert!(saddle_blows > 0, "no blow from the saddle");
    assert!(got_off > 0, "no rider got off to fight on foot");
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
        Command::Maneuver {
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
            .map(|(c, w)| (*c, w.name.clone()))
            .collect()
    };
    assert_eq!(ground(&e), vec![(Cell::new(0, 0), "Axe".to_string())]);
    cmd(&mut e, shielded, Command::EndTurn);
    // Someone in another zone can't reach it.
    activate(&mut e, far);
    let why = refused(&mut e, far, Command::PickUp { item: 0 });
    assert!(why.contains("nearby"), "{why}");
    cmd(&mut e, far, Command::EndTurn);
    // The players have nobody left to act; the bandit picks the axe up
    // again (a bonus action) and can still strike.
    activate(&mut e, axeman);
    cmd(&mut e, axeman, Command::PickUp { item: 0 });
    assert!(ground(&e).is_empty());
    let l = view::get::<crate::rules::components::Loadout>(e.world(), axeman).unwrap();
    assert_eq!(l.ready_weapon().map(|w| w.name.as_str()), Some("Axe"));
    assert_eq!(l.weapons.last().map(|w| w.name.as_str()), Some("Unarmed"));
    let why = refused(&mut e, axeman, Command::PickUp { item: 0 });
    assert!(why.contains("nothing lies there"), "{why}");
    let from = e.events().len();
    attack(&mut e, axeman, shielded, 0, MODE_STRIKE);
    assert!(
        since(&e, from)
            .iter()
            .any(|ev| matches!(ev, BattleEvent::AttackMade { weapon, .. } if weapon == "Axe"))
    );
}

/// Fray's decisions for mounts (docs/rulesets/zones.md §Mounts and
/// vehicles): a grabbed rider is pulled down; a mount shoves but neither
/// grabs, disarms nor offers terms; a rider's counter is impaired too; a
/// vehicle never reacts; mounts count for neither morale nor victory, and
/// one that leaves the map takes its rider.
#[test]
fn fray_decides_for_mounts_and_vehicles() {
    let l = mounted_level((0, 0), (1, 1), [(13, 0), (12, 0), (12, 1)]);
    // The rider's STR save 15 against 12 fails; its AGI save against the
    // fall, 5 against 11, passes.
    let mut e = start(&l, &[15, 5]);
    let [bay, rider, leader] = ["Bay", "Rider", "Leader"].map(|n| cid(&e, n));
    // Morale and victory count the rider, not the horse.
    assert_eq!(super::round::standing_per_faction(e.world()), vec![1, 4]);
    activate(&mut e, leader);
    cmd(
        &mut e,
        leader,
        Command::Maneuver {
            target: rider,
            kind: Maneuver::Grapple,
        },
    );
    cmd(&mut e, rider, Command::NoReaction);
    decline_guards(&mut e);
    assert_eq!(view::riding(e.world(), rider), None);
    assert!(has(&e, rider, Condition::Grabbed));
    assert_eq!(Map::chebyshev(at(&e, rider), Cell::new(0, 0)), 1);
    assert_eq!(
        saves(e.events()),
        vec![(rider, "STR", 15, 12, false), (rider, "AGI", 5, 11, true)]
    );
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, bay);
    let check = |e: &Engine, c: Command| super::check::check(e.world(), bay, &c);
    assert!(
        check(
            &e,
            Command::Maneuver {
                target: leader,
                kind: Maneuver::Shove
            }
        )
        .is_ok()
    );
    for kind in [Maneuver::Grapple, Maneuver::Disarm { weapon: 0 }] {
        let why = check(
            &e,
            Command::Maneuver {
                target: leader,
                kind,
            },
        )
        .unwrap_err();
        assert!(why.0.contains("neither grab nor disarm"), "{why}");
    }
    let why = check(
        &e,
        Command::Attack {
            target: leader,
            weapon: 0,
            mode: super::data::MODE_STUNT_SURRENDER,
        },
    )
    .unwrap_err();
    assert!(why.0.contains("offers no terms"), "{why}");
    let why = check(&e, Command::Surrender).unwrap_err();
    assert!(why.0.contains("does not surrender"), "{why}");

    // A rider's counter rolls the saddle's d4: the leader's d8 rolls 2, the
    // rider's d4 rolls 4 (and would have been a d6 sword on foot).
    let l = mounted_level((0, 0), (1, 1), [(13, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[2, 4]);
    let [rider, leader] = ["Rider", "Leader"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    let from = e.events().len();
    attack(&mut e, leader, rider, 0, MODE_STRIKE);
    cmd(&mut e, rider, Command::Counter { weapon: 0 });
    let r = rolled(&since(&e, from));
    assert!(r.contains(&(leader, "1D4".to_string(), 4)), "{r:?}");
    assert!(r.contains(&(rider, "1D8".to_string(), 2)), "{r:?}");

    // The horse gallops off the map's edge with its rider; the rider alone
    // may not flee, and a side left with nobody but horses has lost.
    let l = mounted_level((0, 0), (13, 0), [(13, 1), (12, 0), (12, 1)]);
    let mut e = start(&l, &[]);
    let [bay, rider] = ["Bay", "Rider"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, rider);
    let why = refused(&mut e, rider, Command::Flee);
    assert!(why.contains("the mount carries you"), "{why}");
    cmd(&mut e, rider, Command::Activate { who: bay });
    cmd(&mut e, bay, Command::Flee);
    assert!(has(&e, bay, Condition::Fled) && has(&e, rider, Condition::Fled));
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(1)));

    // A vehicle never reacts; its passenger may.
    let all = [
        r#"(archetype: "wagon", faction: "players", at: (0, 0), name: "Wagon")"#,
        r#"(archetype: "archer", faction: "players", at: (0, 0), name: "Mira", riding: Some("Wagon"))"#,
        r#"(archetype: "bandit", faction: "bandits", at: (1, 1), name: "Leader")"#,
    ];
    let e = start(&level(&OPEN, &all), &[]);
    let [wagon, mira, leader] = ["Wagon", "Mira", "Leader"].map(|n| cid(&e, n));
    assert!(!super::queries::can_react(e.world(), wagon, leader));
    assert!(super::queries::can_react(e.world(), mira, leader));
}
