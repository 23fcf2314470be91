//! §Mounts and vehicles in combat, and Fray's decisions for them.

use super::*;
use crate::rules::event::{DamageRolled, Dismounted, Mounted};
use crate::rulesets::zones::event::{AttackMade, TurnReserved};

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
    cmd(&mut e, rider, ZonesCommand::Activate { who: bay });
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
    assert!(!crate::rulesets::zones::check::eligible(e.world(), 0).contains(&rider));
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
    cmd(&mut e, bay, ZonesCommand::Activate { who: rider });
    let from = e.events().len();
    attack(&mut e, rider, b1, 0, MODE_STRIKE);
    cmd(&mut e, b1, Command::NoReaction);
    decline_guards(&mut e);
    assert_eq!(rolled(&since(&e, from)), vec![(b1, "1D4".to_string(), 3)]);
    assert_eq!(hp(&e, b1), 5);
    // Back to the horse: the rider acted, so no more than half speed, which
    // it has spent.
    cmd(&mut e, rider, ZonesCommand::Activate { who: bay });
    assert_eq!(crate::rulesets::zones::reach::remaining(e.world(), bay), 0);
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
    cmd(&mut e, bay, ZonesCommand::Activate { who: rider });
    // Not onto a cell away from the mount.
    let why = refused(
        &mut e,
        rider,
        ZonesCommand::Dismount {
            to: Cell::new(2, 0),
        },
    );
    assert!(why.contains("next to the mount"), "{why}");
    let from = e.events().len();
    cmd(
        &mut e,
        rider,
        ZonesCommand::Dismount {
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
    assert_eq!(
        crate::rulesets::zones::reach::remaining(e.world(), rider),
        1
    );
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
    let why = refused(&mut e, rider, ZonesCommand::Mount { mount: bay });
    assert!(why.contains("half a zone"), "{why}");
    // Next round, it gets on at once, and can still draw and strike.
    cmd(&mut e, rider, Command::EndTurn);
    next_round(&mut e);
    pass(&mut e);
    activate(&mut e, rider);
    cmd(&mut e, rider, ZonesCommand::Mount { mount: bay });
    assert_eq!(view::riding(e.world(), rider), Some(bay));
    assert_eq!(at(&e, rider), Cell::new(0, 0));
    assert!(e.events().iter().any(
        |ev| matches!(ev, BattleEvent::Mounted(Mounted { who, mount, .. }) if *who == rider && *mount == bay)
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
    cmd(&mut e, rider, ZonesCommand::Reserve);
    assert!(
        e.events()
            .iter()
            .any(|ev| matches!(ev.own::<ZonesEvent>(), Some(ZonesEvent::TurnReserved(TurnReserved { who, .. })) if *who == rider))
    );
    // The horse goes on and stands still.
    assert_eq!(prompt(&e), Prompt::Act { actor: bay });
    cmd(&mut e, bay, Command::EndTurn);
    assert!(!done(&e, rider));
    assert!(!crate::rulesets::zones::check::eligible(e.world(), 0).contains(&rider));
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
    cmd(&mut e, rider, ZonesCommand::Reserve);
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
        ZonesCommand::Maneuver {
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
    assert_eq!(
        crate::rulesets::zones::check::eligible(e.world(), 0).as_slice(),
        [mira]
    );
    activate(&mut e, mira);
    cmd(&mut e, mira, ZonesCommand::Mount { mount: wagon });
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
    let err = eng
        .start(&l, crate::rulesets::zones::ID, &opts)
        .err()
        .unwrap();
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
        eng.start(&level, crate::rulesets::zones::ID, &opts)
            .unwrap();
        eng.run(200_000);
        assert!(eng.outcome().is_some(), "seed {seed} did not end");
        for ev in eng.events() {
            if matches!(ev.own(), Some(ZonesEvent::TurnHandedOver(_))) {
                handed += 1;
            }
            if matches!(ev, BattleEvent::Dismounted(Dismounted { thrown: false, who, .. }) if view::steed(eng.world(), *who).is_none())
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
            if let Some(ZonesEvent::AttackMade(AttackMade { attacker: a, .. })) = ev.own() {
                attacker = Some(*a);
            }
            match ev {
                BattleEvent::DamageRolled(DamageRolled { roll, .. })
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
    assert_eq!(
        crate::rulesets::zones::query::standing_per_faction(e.world()),
        vec![1, 4]
    );
    let one = |f| crate::rulesets::zones::query::standing_in_faction(e.world(), f);
    assert_eq!((one(0), one(1), one(2)), (1, 4, 0));
    activate(&mut e, leader);
    cmd(
        &mut e,
        leader,
        ZonesCommand::Maneuver {
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
    let check = |e: &Engine, c: Command| crate::rulesets::zones::check::check(e.world(), bay, &c);
    assert!(
        check(
            &e,
            Command::from(ZonesCommand::Maneuver {
                target: leader,
                kind: Maneuver::Shove
            })
        )
        .is_ok()
    );
    for kind in [Maneuver::Grapple, Maneuver::Disarm { weapon: 0 }] {
        let why = check(
            &e,
            Command::from(ZonesCommand::Maneuver {
                target: leader,
                kind,
            }),
        )
        .unwrap_err();
        assert!(why.0.contains("neither grab nor disarm"), "{why}");
    }
    let why = check(
        &e,
        Command::Attack {
            target: leader,
            weapon: 0,
            mode: crate::rulesets::zones::modes::MODE_STUNT_SURRENDER,
        },
    )
    .unwrap_err();
    assert!(why.0.contains("offers no terms"), "{why}");
    let why = check(&e, Command::from(ZonesCommand::Surrender)).unwrap_err();
    assert!(why.0.contains("does not surrender"), "{why}");

    // A rider's counter rolls the saddle's d4: the leader's d8 rolls 2, the
    // rider's d4 rolls 4 (and would have been a d6 sword on foot).
    let l = mounted_level((0, 0), (1, 1), [(13, 0), (12, 0), (12, 1)]);
    let mut e = start(&l, &[2, 4]);
    let [rider, leader] = ["Rider", "Leader"].map(|n| cid(&e, n));
    activate(&mut e, leader);
    let from = e.events().len();
    attack(&mut e, leader, rider, 0, MODE_STRIKE);
    cmd(&mut e, rider, ZonesCommand::Counter { weapon: 0 });
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
    cmd(&mut e, rider, ZonesCommand::Activate { who: bay });
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
    assert!(!crate::rulesets::zones::query::can_react(
        e.world(),
        wagon,
        leader
    ));
    assert!(crate::rulesets::zones::query::can_react(
        e.world(),
        mira,
        leader
    ));
}
