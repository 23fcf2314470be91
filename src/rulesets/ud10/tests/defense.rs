//! §Defense: 10 + DEX, surprise, attacks from behind, shields.

use super::*;
use crate::rules::components::Heading;
use crate::rules::level::Facing;
use crate::rulesets::ud10::event::{AttackRolled, Turned};
use crate::testkit::at;

#[test]
fn defense_is_ten_plus_dex() {
    // §Attacking: "an opponent has a Defense rating 10 plus her DEX attribute".
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(
        names(&n.defense_parts),
        vec![("base Defense", 10), ("DEX", 3)]
    );
    assert_eq!(n.defense, 13);
    // d10 + hand-to-hand skill 8.
    assert_eq!(names(&n.modifiers), vec![("hand-to-hand skill", 8)]);
}

#[test]
fn dex_does_not_count_when_surprised_from_behind_or_immobilized() {
    // §Attacking: DEX "does not apply when the opponent is surprised,
    // attacked from behind"; §Defense Rating Modifiers: "immobilized: -2 and
    // DEX doesn't count".
    let mk = |facing: &str, surprised: bool| {
        level(
            &OPEN,
            &[
                r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
                &format!(
                    r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: {facing}, overrides: (surprised: {surprised}))"#
                ),
            ],
        )
    };
    let mut e = engine();
    start(&mut e, &mk("W", true), &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(n.defense, 10);
    assert!(!n.dex_counts);
    assert_eq!(n.defense_parts[1].name, "DEX does not count: surprised");

    // Attacked from behind (see `from_behind_takes_a_defender_busy_with_another_enemy`
    // for when): B faces away (east), A is straight behind it, and the
    // setting `from_behind = facing` counts the rear arc alone.
    e.configure(crate::rulesets::ud10::ID, "from_behind", "facing")
        .unwrap();
    start(&mut e, &mk("E", false), &[10, 1]);
    let n = numbers(&e, cid(&e, "A"), cid(&e, "B"));
    assert_eq!(n.defense, 10);
    assert_eq!(
        n.defense_parts[1].name,
        "DEX does not count: attacked from behind"
    );
    // The attack's preview says so first, as the board shows B's back.
    let attack = Command::Attack {
        target: cid(&e, "B"),
        weapon: 0,
        mode: 0,
    };
    let preview = crate::rulesets::skeleton::hooks::<crate::rulesets::ud10::Ud10>().preview;
    let from_behind = |e: &Engine| {
        preview(e.world(), cid(e, "A"), &attack)
            .lines
            .first()
            .is_some_and(|l| l.starts_with("FROM BEHIND: B's DEX and shield do not count"))
    };
    assert!(from_behind(&e));
    e.configure(crate::rulesets::ud10::ID, "from_behind", "busy")
        .unwrap();
    // From the side (B faces north, A is to its west) DEX counts.
    start(&mut e, &mk("N", false), &[10, 1]);
    assert_eq!(numbers(&e, cid(&e, "A"), cid(&e, "B")).defense, 13);
    assert!(!from_behind(&e));

    start(&mut e, &mk("W", false), &[10, 1]);
    let b = cid(&e, "B");
    set_condition(&mut e, b, Condition::Immobilized);
    let n = numbers(&e, cid(&e, "A"), b);
    // 10, no DEX, -2.
    assert_eq!(n.defense, 8);
    assert!(names(&n.defense_parts).contains(&("immobilized", -2)));
}

/// Fray decides (docs/rulesets/ud10.md, "From behind"): an attack comes
/// from behind when the attacker stands in the defender's rear arc while
/// another enemy engages the defender in melee. A defender fighting one
/// opponent turns to face it.
#[test]
fn from_behind_takes_a_defender_busy_with_another_enemy() {
    let mk = |with_c: bool| {
        let mut cs = vec![
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: E)"#,
        ];
        if with_c {
            cs.push(r#"(archetype: "spearman", faction: "red", at: (3, 1), name: "C", facing: W)"#);
        }
        level(&OPEN, &cs)
    };
    let mut e = engine();
    // A duel: A straight behind B, but B fights nobody else: DEX counts.
    start(&mut e, &mk(false), &[10, 1, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let n = numbers(&e, a, b);
    assert!(n.dex_counts);
    assert_eq!(n.defense, 13);
    // Attacking, A finds B turned to face it (a logged event), then rolls.
    let from = e.events().len();
    strike(&mut e, a, b);
    let ev = since(&e, from);
    let turned = ev.iter().position(|x| {
        matches!(
            x.own::<Ud10Event>(),
            Some(Ud10Event::Turned(Turned { who, towards, facing: Facing::W, .. })) if *who == b && *towards == a
        )
    });
    let rolled = ev.iter().position(|x| {
        matches!(
            x.own::<Ud10Event>(),
            Some(Ud10Event::AttackRolled(AttackRolled { defense: 13, .. }))
        )
    });
    assert!(turned.is_some() && turned < rolled, "{ev:?}");
    assert_eq!(
        view::get::<Heading>(e.world(), b).map(|h| h.0),
        Some(Facing::W)
    );

    // C engages B from the front: now A behind B attacks from behind.
    start(&mut e, &mk(true), &[10, 1, 5]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let n = numbers(&e, a, b);
    assert!(!n.dex_counts);
    assert_eq!(n.defense, 10);
    // And C, in front of B, is not behind it.
    assert!(numbers(&e, cid(&e, "C"), b).dex_counts);
}

/// A retreat backs away from the fight: the retreater keeps facing its
/// foe instead of turning its back with its last step.
#[test]
fn a_retreat_keeps_the_retreater_facing_the_fight() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (2, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (3, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let a = cid(&e, "A");
    cmd(
        &mut e,
        a,
        Ud10Command::Retreat {
            path: vec![Cell::new(1, 1), Cell::new(0, 1)],
        },
    );
    assert_eq!(at(&e, a), Cell::new(0, 1));
    assert_eq!(
        view::get::<Heading>(e.world(), a).map(|h| h.0),
        Some(Facing::E)
    );
}

#[test]
fn surprise_ends_with_the_first_turn() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W, overrides: (surprised: true))"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    assert!(view::conditions(e.world(), b).has(Condition::Surprised));
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
    assert!(!view::conditions(e.world(), b).has(Condition::Surprised));
    assert_eq!(numbers(&e, a, b).defense, 13);
}

#[test]
fn shield_large_and_small_modify_defense() {
    // §Defense Rating Modifiers: shield +2, large -1, small +1.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 0), name: "S", facing: W)"#,
            r#"(archetype: "brute", faction: "blue", at: (4, 1), name: "L", facing: W)"#,
            r#"(archetype: "skirmisher", faction: "blue", at: (4, 2), name: "K", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1, 1]);
    let a = cid(&e, "A");
    let s = numbers(&e, a, cid(&e, "S"));
    assert_eq!(
        names(&s.defense_parts),
        vec![("base Defense", 10), ("DEX", 2), ("has a shield", 2)]
    );
    assert_eq!(s.defense, 14);
    let l_ = numbers(&e, a, cid(&e, "L"));
    assert_eq!(
        names(&l_.defense_parts),
        vec![("base Defense", 10), ("DEX", 1), ("large in stature", -1)]
    );
    assert_eq!(l_.defense, 10);
    let k = numbers(&e, a, cid(&e, "K"));
    assert_eq!(
        names(&k.defense_parts),
        vec![("base Defense", 10), ("DEX", 4), ("small in stature", 1)]
    );
    assert_eq!(k.defense, 15);
}

#[test]
fn shield_does_not_count_with_a_two_handed_weapon_in_hand() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "captain", faction: "blue", at: (5, 1), name: "C", facing: W, overrides: (weapons: ["repeating_crossbow", "longsword"]))"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    // Captain: DEX 3, shield unusable with the two-handed crossbow.
    assert_eq!(numbers(&e, cid(&e, "A"), cid(&e, "C")).defense, 13);
}

/// §Defense Rating Modifiers: "immobilized: -2 and DEX doesn't count".
/// Fray's cause: a net. A hit deals no damage and holds the target where it
/// stands (no move, DEX lost, -2) until it spends its action cutting itself
/// free ("using or manipulating an item or tool").
#[test]
fn a_net_immobilizes_until_cut_free() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "skirmisher", faction: "red", at: (1, 1), name: "A", facing: E, overrides: (weapons: ["net", "dagger"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // Initiative A 10, B 1; the net's throw rolls 10 (a hit).
    start(&mut e, &l, &[10, 1, 10]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    assert_eq!(numbers(&e, a, b).defense, 14);
    let hp = view::get::<crate::rules::components::Health>(e.world(), b).map(|h| h.hp);
    strike(&mut e, a, b);
    assert!(view::conditions(e.world(), b).has(Condition::Immobilized));
    // No damage, no hit location.
    assert_eq!(
        view::get::<crate::rules::components::Health>(e.world(), b).map(|h| h.hp),
        hp
    );
    // Defense 10 + DEX 2 + shield 2 becomes 10 - 2 + shield 2.
    assert_eq!(numbers(&e, a, b).defense, 10);
    cmd(&mut e, a, Command::EndTurn);
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
    let why = refused(
        &mut e,
        b,
        Command::Move {
            path: vec![Cell::new(3, 1)],
        },
    );
    assert!(why.contains("immobilized"), "{why}");
    // The AI, with nobody to strike from where it stands, cuts itself free.
    assert_eq!(
        crate::rulesets::ud10::ai::decide(e.world(), b),
        Command::from(Ud10Command::CutFree)
    );
    cmd(&mut e, b, Ud10Command::CutFree);
    assert!(!view::conditions(e.world(), b).has(Condition::Immobilized));
    // Cutting free was the action; moving is free again.
    let why = refused(&mut e, b, Ud10Command::CutFree);
    assert!(why.contains("action"), "{why}");
    cmd(
        &mut e,
        b,
        Command::Move {
            path: vec![Cell::new(3, 1)],
        },
    );
    assert_eq!(view::cell(e.world(), b), Some(Cell::new(3, 1)));
}

/// The board's hover says what cover gives under ud10, with the setting's
/// own numbers (§Taking Cover: low cover +2, high +4 by default).
#[test]
fn hovering_cover_says_what_it_gives() {
    use crate::rules::map::Terrain;
    let mut e = engine();
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "archer", faction: "blue", at: (5, 1), name: "B")"#,
        ],
    );
    start(&mut e, &l, &[10, 1]);
    let note = crate::rulesets::skeleton::hooks::<crate::rulesets::ud10::Ud10>().terrain_note;
    let low = note(e.world(), Terrain::LowCover).expect("a note");
    assert!(low.starts_with("low cover: +2 Defense"), "{low}");
    let high = note(e.world(), Terrain::HighCover).expect("a note");
    assert!(high.starts_with("high cover: +4 Defense"), "{high}");
    assert_eq!(note(e.world(), Terrain::Open), None);
    e.configure(crate::rulesets::ud10::ID, "low_cover", "3")
        .unwrap();
    assert!(
        note(e.world(), Terrain::LowCover)
            .unwrap()
            .starts_with("low cover: +3")
    );
}

/// Every row of a ud10 sheet has a tooltip saying what it means (the
/// health row with the settings' thresholds); so does every zones row but
/// the ones that explain themselves.
#[test]
fn every_sheet_row_has_a_tip() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "archer", faction: "blue", at: (5, 1), name: "B")"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1]);
    let hooks = crate::rulesets::skeleton::hooks::<crate::rulesets::ud10::Ud10>();
    for who in ["A", "B"] {
        let c = cid(&e, who);
        for (label, _) in (hooks.sheet)(e.world(), c) {
            let tip = (hooks.sheet_tip)(e.world(), c, &label);
            assert!(tip.is_some(), "{who}'s {label} has no tip");
        }
    }
    let health = (hooks.sheet_tip)(e.world(), cid(&e, "A"), "Health").unwrap();
    assert!(
        health.contains("unconscious at 0 HP or less, dead at -5"),
        "{health}"
    );
    let zones = crate::rulesets::skeleton::hooks::<crate::rulesets::zones::Zones>();
    let mut z = engine();
    crate::testkit::start_shipped(
        &mut z,
        "village_crossroads",
        crate::rulesets::zones::ID,
        1,
        crate::rules::engine::Controls::AllAi,
    );
    let roster = z.world().resource::<crate::rules::roster::Roster>().clone();
    for c in roster.cids() {
        for (label, _) in (zones.sheet)(z.world(), c) {
            let tip = (zones.sheet_tip)(z.world(), c, &label);
            assert!(tip.is_some(), "zones {label} has no tip");
        }
    }
}

/// The rear arc (Fray decides, docs/rulesets/ud10.md): of a defender's
/// eight neighbours only the cell straight behind; farther off, a cell two
/// back and one aside (153°) is in it, one diagonally behind (135°) or
/// nine back and eight aside (138.4°) is not, eight back and seven aside
/// (138.8°) is. The whole-number test gives, for every cell a 64 × 64 map
/// can hold and every facing, the answer of the angle's cosine worked out
/// in floating point (no cell lies on the arc's edge, where the two could
/// differ).
#[test]
fn the_rear_arc_is_more_than_138_6_degrees_from_the_facing() {
    use crate::rulesets::ud10::numbers::is_behind;
    let at = Cell::new(0, 0);
    let behind = |facing, x, y| is_behind(at, facing, Cell::new(x, y));
    let around: Vec<(i32, i32)> = (-1..=1)
        .flat_map(|y| (-1..=1).map(move |x| (x, y)))
        .filter(|&(x, y)| behind(Facing::E, x, y))
        .collect();
    assert_eq!(around, vec![(-1, 0)]);
    let around_ne: Vec<(i32, i32)> = (-1..=1)
        .flat_map(|y| (-1..=1).map(move |x| (x, y)))
        .filter(|&(x, y)| behind(Facing::NE, x, y))
        .collect();
    assert_eq!(around_ne, vec![(-1, 1)]);
    assert!(behind(Facing::E, -2, 1));
    assert!(!behind(Facing::E, -2, 2));
    assert!(!behind(Facing::E, -9, 8));
    assert!(behind(Facing::E, -8, 7));
    assert!(!behind(Facing::E, 0, 0));
    for facing in Facing::ALL {
        let (hx, hy) = facing.delta();
        let (hx, hy) = (f64::from(hx), f64::from(hy));
        for y in -63..=63 {
            for x in -63..=63 {
                let (vx, vy) = (f64::from(x), f64::from(y));
                let norm = (hx * hx + hy * hy).sqrt() * (vx * vx + vy * vy).sqrt();
                let by_cosine = norm > 0.0 && (hx * vx + hy * vy) / norm < -0.75;
                assert_eq!(behind(facing, x, y), by_cosine, "{facing:?} ({x}, {y})");
            }
        }
    }
}
