//! The zones AI against random play, and determinism.

use super::*;

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
        e.start(&l, crate::rulesets::zones::ID, &opts)
            .expect("starts");
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
        e.start(&l, crate::rulesets::zones::ID, &opts)
            .expect("starts");
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

/// Two melee fighters far from three archers: nobody of theirs can strike
/// this turn while the archers can. Holding the initiative, the AI gives
/// the first turn away; later it passes, keeping their turns to dodge,
/// until the archers have shot (§Combat procedure: a faction may pass).
#[test]
fn the_ai_waits_while_it_cannot_strike_and_the_enemy_can() {
    let l = level_with(
        &OPEN,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        &[
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), name: "Balthasar", overrides: (weapons: ["sword"]))"#,
            r#"(archetype: "swordsman", faction: "players", at: (0, 1), name: "Theobald", overrides: (weapons: ["spear"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "Bandit 1", overrides: (weapons: ["bow", "axe"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (13, 1), name: "Bandit 2", overrides: (weapons: ["bow", "axe"]))"#,
        ],
        false,
    );
    // The d2 gives the players the initiative.
    let mut e = start(&l, &[1]);
    let Prompt::Activate {
        faction: 0,
        speaker,
    } = prompt(&e)
    else {
        panic!("{:?}", prompt(&e));
    };
    assert_eq!(
        crate::rulesets::zones::ai::decide(e.world(), speaker),
        Command::from(ZonesCommand::FirstTurnTo { faction: 1 })
    );
    cmd(&mut e, speaker, ZonesCommand::FirstTurnTo { faction: 1 });
    // A bandit takes its turn (here, ending it at once).
    let b1 = cid(&e, "Bandit 1");
    activate(&mut e, b1);
    cmd(&mut e, b1, Command::EndTurn);
    // Back to the players: the other bandit can still shoot; they pass.
    let Prompt::Activate {
        faction: 0,
        speaker,
    } = prompt(&e)
    else {
        panic!("{:?}", prompt(&e));
    };
    assert_eq!(
        crate::rulesets::zones::ai::decide(e.world(), speaker),
        Command::from(ZonesCommand::Pass)
    );
    // With both bandits done, there is nobody to wait for: they close in.
    let b2 = cid(&e, "Bandit 2");
    pass(&mut e);
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    let Prompt::Activate { speaker, .. } = prompt(&e) else {
        panic!("{:?}", prompt(&e));
    };
    assert!(matches!(
        crate::rulesets::zones::ai::decide(e.world(), speaker).own::<ZonesCommand>(),
        Some(ZonesCommand::Activate { .. })
    ));
}

/// `fray audit` under zones: activations, the idle ones, voluntary passes,
/// counted on the text's example round.
#[test]
fn the_audit_counts_activations_idle_turns_and_passes() {
    use crate::rulesets::zones::audit::{FIGURES, audit};
    let mut e = start(&apart(), &[]);
    let syb = cid(&e, "Sybilla");
    let [leader, b2] = ["Leader", "Bandit 2"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    cmd(&mut e, leader, Command::EndTurn);
    activate(&mut e, syb);
    cmd(&mut e, syb, Command::EndTurn);
    activate(&mut e, b2);
    cmd(
        &mut e,
        b2,
        Command::Move {
            path: vec![Cell::new(11, 0)],
        },
    );
    cmd(&mut e, b2, Command::EndTurn);
    pass(&mut e);
    let mut counts = vec![0; FIGURES.len()];
    audit(e.world(), 0, &mut counts);
    let got: Vec<(&str, u64)> = FIGURES.iter().map(|f| f.name).zip(counts).collect();
    let of = |name: &str| got.iter().find(|(n, _)| *n == name).map(|(_, c)| *c);
    assert_eq!(of("activations"), Some(3), "{got:?}");
    // The leader and Sybilla did nothing; the bandit moved.
    assert_eq!(of("idle"), Some(2), "{got:?}");
    assert_eq!(of("passes"), Some(1), "{got:?}");
    assert_eq!(of("attacks"), Some(0), "{got:?}");
}

/// A cave: walls all round, no way off the map.
const CAVE: [&str; 4] = [
    "################",
    "#..............#",
    "#..............#",
    "################",
];
const CAVE_ZONES: [&str; 4] = [
    "                ",
    " aabbccddeeffgg ",
    " aabbccddeeffgg ",
    "                ",
];

/// Broken (§Morale: "surrender or retreat") with no way off the map:
/// with `ally` beside it still fighting, the AI keeps away from the enemy;
/// alone, it surrenders (Fray decides; it once ran round a cave from a
/// wyrm until the round limit).
fn broken_in_a_cave(ally: bool) -> Command {
    let mut who = vec![
        r#"(archetype: "swordsman", faction: "players", at: (7, 1), name: "Balthasar")"#,
        r#"(archetype: "bandit", faction: "bandits", at: (13, 1), name: "Bandit")"#,
    ];
    if ally {
        who.push(r#"(archetype: "swordsman", faction: "players", at: (7, 2), name: "Theobald")"#);
    }
    let l = level_with(&CAVE, &CAVE_ZONES, &who, false);
    // The d2 gives the players the initiative.
    let mut e = start(&l, &[1]);
    let bal = cid(&e, "Balthasar");
    e.world_mut()
        .resource_mut::<crate::rules::roster::Roster>()
        .update_place(bal, |p| p.conditions.insert(Condition::Broken))
        .expect("a combatant");
    activate(&mut e, bal);
    crate::rulesets::zones::ai::decide(e.world(), bal)
}

#[test]
fn the_broken_keep_away_in_a_cave_while_an_ally_fights() {
    let c = broken_in_a_cave(true);
    let Command::Move { path } = c else {
        panic!("{c:?}");
    };
    // Away from the bandit, to the west.
    assert!(path.last().is_some_and(|c| c.x < 7), "{path:?}");
}

#[test]
fn the_last_broken_fighter_in_a_cave_surrenders() {
    assert_eq!(
        broken_in_a_cave(false),
        Command::from(ZonesCommand::Surrender)
    );
}

/// Battles of shipped levels that ran to the round limit before the AI
/// learned to leave a lost fight: each now has a winner.
#[test]
fn battles_that_once_ran_to_the_round_limit_end() {
    for (name, seed) in [
        ("wyrm_lair", 13_375_629_700_178_501_366),
        ("ruined_keep", 5_714_501_032_672_518_832),
        ("village_crossroads", 3_109_774_756_986_323_040),
    ] {
        let e = crate::testkit::play_shipped(name, crate::rulesets::zones::ID, seed);
        assert!(
            e.outcome().and_then(|o| o.winner).is_some(),
            "{name}, seed {seed}: no winner"
        );
    }
}

/// A swordsman strikes an archer at 1 HP (§Reactions: a dodge spends the
/// archer's turn). With an ally who can still hurt the bandit, the dodge is
/// worth it: the ally fights on meanwhile. Alone, it is not (Fray decides):
/// the bandit would lose nothing while the archer dodged, and the same blow
/// would come the next round. Village Crossroads once ran to the round limit
/// so.
fn dodges_at_one_hp(ally: bool) -> Command {
    let mut who = vec![
        r#"(archetype: "archer", faction: "players", at: (6, 0), name: "Sybilla")"#,
        r#"(archetype: "swordsman", faction: "bandits", at: (7, 0), name: "Bandit")"#,
    ];
    if ally {
        who.push(r#"(archetype: "swordsman", faction: "players", at: (0, 1), name: "Theobald")"#);
    }
    let l = level(&OPEN, &who);
    let mut e = start(&l, &[]);
    let (archer, bandit) = (cid(&e, "Sybilla"), cid(&e, "Bandit"));
    crate::testkit::set_hp(&mut e, archer, 1);
    activate(&mut e, bandit);
    attack(&mut e, bandit, archer, 0, MODE_STRIKE);
    let Prompt::React { actor, .. } = prompt(&e) else {
        panic!("expected a reaction prompt, got {:?}", prompt(&e));
    };
    assert_eq!(actor, archer);
    crate::rulesets::zones::ai::decide(e.world(), archer)
}

#[test]
fn the_last_fighter_of_a_side_keeps_its_turn_instead_of_dodging() {
    assert_eq!(dodges_at_one_hp(true), Command::Dodge);
    assert_ne!(dodges_at_one_hp(false), Command::Dodge);
}

/// An ambusher who can strike nobody in the bonus round creeps closer at
/// half speed and stays concealed: running would reveal it for nothing
/// (§Sneaking in combat: "moving without sneaking").
#[test]
fn an_ambusher_out_of_reach_sneaks_instead_of_running() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), name: "Balthasar")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "Lurker", overrides: (concealed: true, weapons: ["axe"]))"#,
        ],
    );
    let mut e = start(&l, &[]);
    let lurker = cid(&e, "Lurker");
    activate(&mut e, lurker);
    let from = view::cell(e.world(), lurker).expect("on the map");
    for _ in 0..10 {
        let c = crate::rulesets::zones::ai::decide(e.world(), lurker);
        let end = c == Command::EndTurn;
        cmd(&mut e, lurker, c);
        if end {
            break;
        }
    }
    let to = view::cell(e.world(), lurker).expect("on the map");
    let map = view::resource::<Map>(e.world());
    let (a, b) = (map.zone_of(from), map.zone_of(to));
    assert!(
        a.zip(b).and_then(|(a, b)| map.zone_distance(a, b)) == Some(1),
        "{from} -> {to}"
    );
    assert!(view::conditions(e.world(), lurker).has(Condition::Concealed));
}

/// A skirmisher beside a shieldbearer: the grab (worth one of its turns)
/// beats a javelin that its armour and shield mostly stop, unless the
/// shieldbearer can still strike back first (§Reacting to an attack:
/// Counter; the grab follows only if the grabber stands): then the AI
/// strikes instead of grabbing into the blow.
#[test]
fn the_ai_weighs_the_counter_before_grabbing() {
    let decide = |target_done: bool| {
        let l = level_with(
            &OPEN,
            &["aabbccddeeffgg", "aabbccddeeffgg"],
            &[
                r#"(archetype: "skirmisher", faction: "players", at: (6, 0), name: "Skirmisher")"#,
                r#"(archetype: "shieldbearer", faction: "bandits", at: (7, 0), name: "Shieldbearer")"#,
            ],
            false,
        );
        // The d2 gives the players the initiative.
        let mut e = start(&l, &[1]);
        let (me, them) = (cid(&e, "Skirmisher"), cid(&e, "Shieldbearer"));
        if target_done {
            let ent = view::entity(e.world(), them).expect("entity");
            e.world_mut()
                .get_mut::<TurnState>(ent)
                .expect("turn state")
                .done = true;
        }
        activate(&mut e, me);
        crate::rulesets::zones::ai::decide(e.world(), me)
    };
    let grab = |c: &Command| {
        matches!(
            c.own::<ZonesCommand>(),
            Some(ZonesCommand::Maneuver {
                kind: Maneuver::Grapple,
                ..
            })
        )
    };
    let c = decide(true);
    assert!(grab(&c), "{c:?}");
    let c = decide(false);
    assert!(matches!(c, Command::Attack { .. }), "{c:?}");
}

/// The easy AI's slips (`rules/decide.rs`) take another answer to the same
/// choice: which character acts is one, passing is not.
#[test]
fn which_character_acts_is_a_choice_the_easy_ai_can_get_wrong() {
    assert_eq!(
        Command::from(ZonesCommand::Activate { who: Cid(3) }).choice(),
        Some("activate")
    );
    assert_eq!(Command::from(ZonesCommand::Pass).choice(), None);
    assert_eq!(Command::Dodge.choice(), None);
    assert_eq!(Command::EndTurn.choice(), None);
    assert_eq!(Command::Move { path: vec![] }.choice(), Some("move"));
}
