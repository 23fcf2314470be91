//! §Blast attacks and §Attack stunts.

use super::*;
use crate::rules::event::Disarmed;
use crate::rulesets::zones::event::BlastHits;

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
    assert!(ev.iter().any(|x| matches!(x.own::<ZonesEvent>(), Some(ZonesEvent::BlastHits(BlastHits { deviated: None, targets, .. })) if *targets == vec![in1, in2, border])));
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
    assert!(ev.iter().any(|x| matches!(x.own::<ZonesEvent>(), Some(ZonesEvent::BlastHits(BlastHits { zone, deviated: Some(r), .. })) if zone == "D" && r.total == 2)));
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
    cmd(&mut e, b1, ZonesCommand::Counter { weapon: 0 });
    let why = refused(&mut e, b2, ZonesCommand::Counter { weapon: 0 });
    assert!(why.contains("single target"), "{why}");
    let n = e.events().len();
    cmd(&mut e, b2, Command::NoReaction);
    let ev = since(&e, n);
    // The breath hurts B1 more (6 against 0): it lands first, and takes
    // B1 out, so the counter never lands.
    assert_eq!(damaged(&ev), vec![(b1, 6, 2), (b2, 6, 2)]);
    assert_eq!(hp(&e, wyrm), 20);
}

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
        .resource::<crate::rules::roster::Roster>()
        .entity(b1)
        .unwrap();
    e.world_mut().get_mut::<Health>(l1).unwrap().hp = 3;
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    activate(&mut e, bal);
    let n = e.events().len();
    attack(
        &mut e,
        bal,
        b1,
        0,
        crate::rulesets::zones::modes::MODE_STUNT_DISARM,
    );
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b1,
            attacker: bal
        }
    );
    cmd(&mut e, b1, ZonesCommand::Accept);
    let ev = since(&e, n);
    assert!(damaged(&ev).is_empty());
    assert!(has(&e, b1, Condition::Incapacitated));
    assert!(
        incapacitated_row(&e, b1)
            .is_some_and(|r| r.starts_with("down since round 1: it gave in to an attack stunt;"))
    );
    assert!(
        ev.iter().any(
            |x| matches!(x, BattleEvent::Disarmed(Disarmed { weapon, .. }) if weapon == "Axe")
        )
    );
    // Accepting is not a reaction: the turn is not spent.
    assert!(!done(&e, b1));

    // Refused: the attack is resolved as normal, and the target may still
    // react (here it takes it: d6 = 2).
    let mut e = start(&l, &[2]);
    activate(&mut e, b2);
    cmd(&mut e, b2, Command::EndTurn);
    activate(&mut e, bal);
    attack(
        &mut e,
        bal,
        b1,
        0,
        crate::rulesets::zones::modes::MODE_STUNT_SURRENDER,
    );
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
    attack(
        &mut e,
        lurker,
        bal,
        0,
        crate::rulesets::zones::modes::MODE_STUNT_SURRENDER,
    );
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

// §Mounts and vehicles in combat
