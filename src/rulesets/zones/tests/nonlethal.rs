//! §Non-lethal attacks: grapples, shoves, disarms, size.

use super::*;
use crate::rules::event::{Damaged, Grabbed, Released};

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
    cmd(&mut e, b1, ZonesCommand::Counter { weapon: 0 });
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
    cmd(&mut e, b1, ZonesCommand::BreakFree);
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
    cmd(&mut e, brute, ZonesCommand::HideBehind { who: held });
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
    assert!(
        matches!(ev[0], BattleEvent::Released(Released { by, who, .. }) if by == brute && who == held)
    );
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
    cmd(&mut e, friend, ZonesCommand::FreeAlly { who: held });
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
        ZonesCommand::Maneuver {
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
        ZonesCommand::Maneuver {
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
        ZonesCommand::Maneuver {
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
        ZonesCommand::Maneuver {
            target: axeman,
            kind: Maneuver::Disarm { weapon: 0 },
        },
    );
    cmd(&mut e, axeman, Command::NoReaction);
    let names = |e: &Engine, c: Cid| -> Vec<String> {
        view::get::<crate::rules::components::Loadout>(e.world(), c)
            .map(|l| l.weapons.iter().map(|w| String::from(&*w.name)).collect())
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
        ZonesCommand::Maneuver {
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
    let why = refused(&mut e, bandit, ZonesCommand::BreakFree);
    assert!(why.contains("larger"), "{why}");
    let why = refused(
        &mut e,
        bandit,
        ZonesCommand::Maneuver {
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
        ZonesCommand::Maneuver {
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
        ZonesCommand::Maneuver {
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
        ZonesCommand::CounterManeuver {
            kind: Maneuver::Grapple,
        },
    );
    let ev = since(&e, n);
    let dmg = ev
        .iter()
        .position(|x| matches!(x, BattleEvent::Damaged(Damaged { .. })))
        .expect("the blow lands");
    let grabbed = ev
        .iter()
        .position(|x| matches!(x, BattleEvent::Grabbed(Grabbed { .. })))
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
        ZonesCommand::Maneuver {
            target: b,
            kind: Maneuver::Shove,
        },
    );
    cmd(
        &mut e,
        b,
        ZonesCommand::CounterManeuver {
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

/// The board's Disarm tool takes the weapon in the target's hand: one offer
/// per target, for that weapon, whatever else it carries.
#[test]
fn the_disarm_offered_on_the_board_is_of_the_weapon_in_hand() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "bandit", faction: "players", at: (1, 0), name: "Empty", overrides: (weapons: ["dagger"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (0, 0), name: "Axeman")"#,
        ],
    );
    let mut e = start(&l, &[]);
    let [empty, axeman] = ["Empty", "Axeman"].map(|n| cid(&e, n));
    pass(&mut e);
    activate(&mut e, empty);
    let disarms = |e: &Engine| -> Vec<Command> {
        let legal = crate::rulesets::zones::legal::legal_commands(e.world(), empty);
        crate::rulesets::zones::offers::offers(e.world(), empty, &legal)
            .list
            .into_iter()
            .filter(|o| o.label == "Disarm")
            .map(|o| o.command)
            .collect()
    };
    // The axe (0) in hand; the bow (1) is carried too.
    let carried = view::get::<crate::rules::components::Loadout>(e.world(), axeman)
        .map_or(0, |l| l.weapons.len());
    assert!(carried >= 3, "axe, bow, fists");
    assert_eq!(
        disarms(&e),
        vec![Command::from(ZonesCommand::Maneuver {
            target: axeman,
            kind: Maneuver::Disarm { weapon: 0 },
        })]
    );
}

/// The shove preview says where the target ends up as a player reads the
/// map: "half a zone" is 2 cells (setting `shove_cells`), from zone D over
/// the border into zone E.
#[test]
fn the_shove_preview_names_how_far_and_into_which_zone() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (6, 0), name: "Balthasar")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (7, 0), name: "Bandit")"#,
        ],
    );
    let e = start(&l, &[]);
    let (me, them) = (cid(&e, "Balthasar"), cid(&e, "Bandit"));
    let shove = Command::from(ZonesCommand::Maneuver {
        target: them,
        kind: Maneuver::Shove,
    });
    let p = crate::rulesets::zones::preview::preview(e.world(), me, &shove);
    assert!(
        p.lines.iter().any(|l| l == "pushed back 2 cells, into E"),
        "{:?}",
        p.lines
    );
    // The board marks where it lands: two cells on, straight away.
    assert_eq!(p.lands, vec![Cell::new(9, 0)]);
    // And what it costs (§Taking a turn: attacking is a main action).
    assert!(
        p.lines
            .iter()
            .any(|l| l == "spends the main action  (zones §Taking a turn)"),
        "{:?}",
        p.lines
    );
}

/// §Non-lethal attacks: "Any other action frees the grabbed character."
/// Holding a bandit, the swordsman's preview warns before an action that
/// lets go (fleeing), and not before one that keeps hold (ending the turn,
/// moving together).
#[test]
fn the_preview_warns_before_an_action_lets_go_of_a_grab() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "players", at: (6, 0), name: "Balthasar")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (7, 0), name: "Bandit")"#,
        ],
    );
    let mut e = start(&l, &[]);
    let (me, them) = (cid(&e, "Balthasar"), cid(&e, "Bandit"));
    e.world_mut()
        .resource_mut::<crate::rules::roster::Roster>()
        .update_place(them, |p| p.held_by = Some(me))
        .expect("a combatant");
    let warns = |e: &Engine, c: Command| {
        crate::rulesets::zones::preview::preview(e.world(), me, &c)
            .lines
            .iter()
            .any(|l| l.starts_with("this lets go of Bandit"))
    };
    assert!(warns(&e, Command::Flee));
    assert!(!warns(&e, Command::EndTurn));
}
