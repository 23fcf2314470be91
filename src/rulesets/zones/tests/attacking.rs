//! §Attacking, §Cover, §Effects of size in combat: saves to hit, ranges, death blows, armour, size.

use super::*;
use crate::rules::event::DamageRolled;

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
    // The sheet says what happened, not what the word means.
    assert_eq!(
        incapacitated_row(&e, b1).as_deref(),
        Some(
            "down since round 1: a blow of 4 from Balthasar, critical damage (half its health: \
             4 or more); it cannot act or react, and a nearby enemy can finish it with a death blow"
        )
    );
    assert!(
        crate::rulesets::zones::sheet::sheet(e.world(), b1)
            .iter()
            .all(|(k, _)| k != "This round"),
        "no turn to take while down"
    );
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
            .any(|x| matches!(x.own::<ZonesEvent>(), Some(ZonesEvent::AttackMissed(_))))
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

/// §Cover: "The target's armour value is increased by 1 (as usual never
/// above 3), unless the attack is powerful enough to penetrate the cover."
#[test]
fn cover_adds_one_armor_unless_penetrated_never_above_three() {
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

    let w = crate::rulesets::zones::data::unarmed();
    let world = e.world();
    let (musket, _) = crate::rulesets::zones::query::armor(
        world,
        b1,
        bal,
        &crate::rulesets::zones::query::weapon(world, cid(&e, "Sybilla"), 0).expect("musket"),
    );
    assert_eq!(musket, 0, "a musket penetrates cover");
    // Melee: cover does not count.
    assert_eq!(
        crate::rulesets::zones::query::armor(world, b1, bal, &w).0,
        0
    );
}

#[test]
fn armor_never_above_three() {
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
    let bow = crate::rulesets::zones::query::weapon(e.world(), a, 0).expect("bow");
    let (armor, parts) = crate::rulesets::zones::query::armor(e.world(), a, s, &bow);
    assert_eq!(armor, 3);
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
            BattleEvent::DamageRolled(DamageRolled { roll, .. }) => Some(roll.expr.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(rolled, vec!["1D4".to_string()]);
    assert_eq!(damaged(&ev), vec![(b1, 4, 4)]);
    let w = crate::rulesets::zones::data::unarmed();
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
        .resource::<crate::rulesets::zones::data::ZonesData>()
        .weapon("bow")
        .expect("bow");
    assert_eq!(
        crate::rulesets::zones::query::range_against(e.world(), knight, wyrm, &bow),
        16
    );
    assert_eq!(
        crate::rulesets::zones::query::range_against(e.world(), wyrm, knight, &bow),
        4
    );
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
        BattleEvent::DamageRolled(DamageRolled { roll, .. }) => Some(roll.dice.len()),
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
    let split =
        |shares: Vec<(Cid, u32)>| Command::from(ZonesCommand::SplitAttack { weapon: 0, shares });
    let w = e.world();
    let legal = |c: &Command| crate::rulesets::zones::check::check(w, wyrm, c);
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
