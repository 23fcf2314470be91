//! §Attacking and §Determining the Damage: the whole pipeline, body zones, armor, buffer, penetration, knock-out.

use super::*;
use crate::rules::event::{ConditionAdded, DamageRolled, Damaged};
use crate::rulesets::ud10::event::{AttackRolled, Barred, HitLocation, NoReaction};

#[test]
fn whole_damage_pipeline_with_exploding_ten() {
    // A (swordsman, skill 8, longsword 1D10+4, penetration 1) attacks B
    // (archer: DEX 3, CON 1, HP 10, EP 10, leather: trunk 2, buffer 2).
    // initiative A 10, B 1; attack d10 5 (5 + 8 = 13 vs Defense 13: hits);
    // hit location 5 (trunk); damage 10 explodes, then 4.
    let (mut e, a, b) = duel(&[10, 1, 5, 5, 10, 4]);
    let at = e.events().len();
    strike(&mut e, a, b);
    // A dodge by DEX (d10 + 3, 13 at best) cannot beat 13: the archer is
    // not asked, and the blow lands at once (and ends the battle).
    assert!(!matches!(prompt(&e), Prompt::React { .. }));
    let ev = since(&e, at);
    match ev[0].own::<Ud10Event>() {
        Some(Ud10Event::AttackRolled(AttackRolled {
            total,
            defense,
            hit,
            ..
        })) => assert_eq!((*total, *defense, *hit), (13, 13, true)),
        other => panic!("{other:?}"),
    }
    // The log says why: no weapon that parries, and a dodge beyond reach.
    match ev[1].own::<Ud10Event>() {
        Some(Ud10Event::NoReaction(NoReaction { parry, dodge, .. })) => {
            assert!(matches!(parry, Barred::Weapon(Some(_))), "{parry:?}");
            assert_eq!(
                *dodge,
                Barred::Beyond {
                    against: 13,
                    name: "DEX",
                    bonus: 3
                }
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        ev[2].own::<Ud10Event>(),
        Some(Ud10Event::HitLocation(HitLocation {
            die: 5,
            zone: BodyZone::Trunk,
            ..
        }))
    ));
    match &ev[3] {
        BattleEvent::DamageRolled(DamageRolled { roll, .. }) => {
            // 10 + 4 (the ten rolled again) + 4 = 18.
            assert_eq!(roll.total, 18);
            assert_eq!(roll.dice.len(), 2);
            assert!(roll.dice[1].exploded);
        }
        other => panic!("{other:?}"),
    }
    match &ev[4] {
        BattleEvent::Damaged(Damaged {
            rolled,
            steps,
            ep_loss,
            hp_loss,
            hp_after,
            ep_after,
            ..
        }) => {
            // 18 - armor (2 - penetration 1 = 1) = 17; buffer (2 - 1 = 1) to
            // EP: 16; CON 1: 15 HP.
            assert_eq!(*rolled, 18);
            assert_eq!(
                names(steps),
                vec![
                    ("armor rating", -2),
                    ("armor penetration", 1),
                    ("buffer (to EP)", -2),
                    ("buffer lessened by penetration", 1),
                    ("CON", -1),
                ]
            );
            assert_eq!((*ep_loss, *hp_loss, *hp_after, *ep_after), (1, 15, -5, 9));
        }
        other => panic!("{other:?}"),
    }
    // -5 HP is death (Fray's setting dead_at_hp = -5).
    assert!(matches!(
        ev[5],
        BattleEvent::ConditionAdded(ConditionAdded {
            condition: Condition::Dead,
            ..
        })
    ));
    // The player's log tells it without the arithmetic (the rules log's
    // lines stay a hover away).
    let w = e.world();
    let names = crate::rules::roster::Names {
        roster: w.resource::<crate::rules::roster::Roster>(),
        factions: w.resource::<crate::rules::roster::Factions>(),
    };
    let plain: Vec<Option<String>> = ev[..5]
        .iter()
        .map(|x| crate::rules::narrate::plain(&names, x))
        .collect();
    assert_eq!(
        plain,
        vec![
            Some("A's longsword hits B (rolled 13, needed 13)".into()),
            Some(
                "B cannot parry (the short bow cannot parry) or dodge (13 is beyond 10 + DEX 3)"
                    .into()
            ),
            Some("The blow lands on B's trunk".into()),
            Some("Damage to B: 18".into()),
            Some("B loses 15 HP and 1 EP (-5 HP left)".into()),
        ]
    );
}

#[test]
fn one_below_defense_misses() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // attack d10 4: 4 + 8 = 12 < 13.
    start(&mut e, &l, &[10, 1, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    let ev = since(&e, at);
    assert_eq!(ev.len(), 1);
    assert!(matches!(
        ev[0].own::<Ud10Event>(),
        Some(Ud10Event::AttackRolled(AttackRolled {
            hit: false,
            total: 12,
            ..
        }))
    ));
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
}

/// The steps a damage line prints add up to the HP the blow takes, with
/// every optional rule on or off, whenever some gets through (a blow the
/// armour or the buffer stops whole reads "no harm").
#[test]
fn the_steps_of_a_blow_add_up_to_its_harm() {
    let mut checked = 0;
    for (buffer, penetration) in [(true, true), (true, false), (false, true), (false, false)] {
        let s = Ud10Settings {
            buffer,
            penetration,
            ..Ud10Settings::default()
        };
        for rating in 0..6 {
            for buf in 0..5 {
                for pen in 0..5 {
                    for rolled in 0..30 {
                        let prot = Protection {
                            rating,
                            buffer: buf,
                        };
                        let o = pipeline(rolled, prot, pen, 2, &s);
                        if o.hp_loss == 0 {
                            continue;
                        }
                        let sum: i32 = o.steps.iter().map(|m| m.value).sum();
                        assert_eq!(
                            rolled + sum,
                            o.hp_loss,
                            "{rolled} {prot:?} pen {pen} {s:?}: {:?}",
                            o.steps
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn damage_pipeline_with_and_without_each_optional_rule() {
    // §Summary: Taking Damage, Optional Rules Buffer and Armor Penetration.
    let prot = Protection {
        rating: 4,
        buffer: 3,
    };
    let all = Ud10Settings::default();
    let o = pipeline(15, prot, 1, 2, &all);
    // armor 4 - 1 = 3: 12 left; buffer 3 - 1 = 2 to EP: 10; CON 2: 8 HP.
    assert_eq!((o.ep_loss, o.hp_loss), (2, 8));

    let no_buffer = Ud10Settings {
        buffer: false,
        ..all
    };
    let o = pipeline(15, prot, 1, 2, &no_buffer);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 10));

    let no_pen = Ud10Settings {
        penetration: false,
        ..all
    };
    let o = pipeline(15, prot, 1, 2, &no_pen);
    // 15 - 4 = 11; buffer 3: 8; CON 2: 6.
    assert_eq!((o.ep_loss, o.hp_loss), (3, 6));

    let neither = Ud10Settings {
        buffer: false,
        penetration: false,
        ..all
    };
    let o = pipeline(15, prot, 1, 2, &neither);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 9));

    // The buffer absorbs up to and including its value; nothing reaches HP.
    let o = pipeline(5, prot, 1, 2, &all);
    assert_eq!((o.ep_loss, o.hp_loss), (2, 0));
    // Armor stops a weak blow entirely.
    let o = pipeline(3, prot, 0, 2, &all);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 0));
    // CON alone: no armor.
    let o = pipeline(7, Protection::default(), 0, 3, &all);
    assert_eq!((o.ep_loss, o.hp_loss), (0, 4));
    // Penetration beyond the armor's rating takes it to zero, not below.
    let o = pipeline(
        10,
        Protection {
            rating: 1,
            buffer: 0,
        },
        3,
        0,
        &all,
    );
    assert_eq!(o.hp_loss, 10);
}

#[test]
fn body_zone_table() {
    // "01: head 02: left arm 03: right arm 04-06: trunk 7/8: left leg 9/10:
    // right leg".
    use BodyZone::*;
    let want = [
        Head, LeftArm, RightArm, Trunk, Trunk, Trunk, LeftLeg, LeftLeg, RightLeg, RightLeg,
    ];
    for (i, z) in want.into_iter().enumerate() {
        assert_eq!(body_zone(i as u32 + 1), z, "d10 = {}", i + 1);
    }
}

#[test]
fn head_hit_uses_the_helmet() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // attack 10 (18 vs 14), location 1 = head, damage 6 -> 1D10+3 = 9.
    start(&mut e, &l, &[10, 1, 10, 1, 6]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    let ev = past_no_reaction(since(&e, at));
    // Missiles cannot be parried: damage follows at once.
    match &ev[3] {
        BattleEvent::Damaged(Damaged {
            steps,
            ep_loss,
            hp_loss,
            ..
        }) => {
            // helmet 3 (no penetration), buffer 1, CON 2: 9 - 3 - 1 - 2 = 3.
            assert_eq!(
                names(steps),
                vec![("armor rating", -3), ("buffer (to EP)", -1), ("CON", -2)]
            );
            assert_eq!((*ep_loss, *hp_loss), (1, 3));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn without_body_zones_armor_is_averaged() {
    // "When not using the body zones, armor protection is averaged from all
    // body zones into one single statistic." Swordsman: leather + helmet:
    // head 3, arms 1+1, trunk 2, legs 1+1 = 9 / 6 = 1.5 -> 2; buffers 1, 2,
    // 2, 2, 2, 2 = 11 / 6 -> 2.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    e.configure(crate::rulesets::ud10::ID, "body_zones", "false")
        .expect("setting");
    // attack 10, damage 6 -> 9.
    start(&mut e, &l, &[10, 1, 10, 6]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    let ev = past_no_reaction(since(&e, at));
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::HitLocation(_))))
    );
    match &ev[2] {
        BattleEvent::Damaged(Damaged {
            steps,
            ep_loss,
            hp_loss,
            ..
        }) => {
            assert_eq!(
                names(steps),
                vec![("armor rating", -2), ("buffer (to EP)", -2), ("CON", -2)]
            );
            assert_eq!((*ep_loss, *hp_loss), (2, 3));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn zero_hp_knocks_out_zero_ep_too() {
    // Fray decides (docs/rulesets/ud10.md): 0 HP or less is unconscious,
    // -5 or less dead; 0 EP is unconscious.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W, overrides: (stats: {"HP": 3}))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 2), name: "C", facing: W, overrides: (stats: {"EP": 1}))"#,
        ],
    );
    let mut e = engine();
    e.configure(crate::rulesets::ud10::ID, "body_zones", "false")
        .expect("setting");
    // A hits B for 9: 3 HP lost -> 0 HP: unconscious, not dead.
    start(&mut e, &l, &[10, 1, 1, 10, 6]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    strike(&mut e, a, b);
    let c = view::conditions(e.world(), b);
    assert!(c.has(Condition::Unconscious) && !c.has(Condition::Dead));

    // C has 1 EP: the buffer takes 2 EP -> 0 -> unconscious.
    let c_ = cid(&e, "C");
    start(&mut e, &l, &[10, 1, 1, 10, 6]);
    strike(&mut e, a, c_);
    assert!(view::conditions(e.world(), c_).has(Condition::Unconscious));
}
