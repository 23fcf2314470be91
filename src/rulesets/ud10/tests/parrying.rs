//! §Parrying and Dodging.

use super::*;
use crate::rules::event::{Damaged, ReactionDeclined};
use crate::rulesets::ud10::event::{ReactionOffered, ReactionRolled};

fn parry_level() -> crate::rules::level::Level {
    level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A1", facing: E)"#,
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A2", facing: W)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", facing: N)"#,
        ],
    )
}

#[test]
fn parry_is_a_comparative_check_once_a_round() {
    // §Parrying and Dodging: "only one Parry attempt per combat round";
    // "If the parry check's result is higher than the attack roll's result,
    // the attack did not go through."
    let mut e = engine();
    // initiative A1 10, A2 9, B 1; A1's attack 6 (14 vs 14: hit); B's parry
    // 9 (9 + 6 = 15 > 14); A2's attack 6 (hit); location 5; damage 3.
    start(&mut e, &parry_level(), &[10, 9, 1, 6, 9, 6, 5, 3]);
    let (a1, a2, b) = (cid(&e, "A1"), cid(&e, "A2"), cid(&e, "B"));
    let attack = |t| Command::Attack {
        target: t,
        weapon: 0,
        mode: 0,
    };
    let at = e.events().len();
    cmd(&mut e, a1, attack(b));
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a1
        }
    );
    cmd(&mut e, b, Ud10Command::Parry);
    let ev = since(&e, at);
    // The hit waits on B's answer, in the log: the pending attack and the
    // prompt are what that event's apply made them.
    match ev[1].own::<Ud10Event>() {
        Some(Ud10Event::ReactionOffered(ReactionOffered { attack, parry, .. })) => {
            assert_eq!((attack.attacker, attack.target, attack.total), (a1, b, 14));
            assert!(*parry);
        }
        other => panic!("{other:?}"),
    }
    match ev[2].own::<Ud10Event>() {
        Some(Ud10Event::ReactionRolled(ReactionRolled {
            total,
            against,
            success,
            modifiers,
            ..
        })) => {
            assert_eq!((*total, *against, *success), (15, 14, true));
            assert_eq!(names(modifiers), vec![("Parry skill", 6)]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(ev.len(), 3, "a parried attack does no damage");
    assert_eq!(prompt(&e), Prompt::Act { actor: a1 });
    cmd(&mut e, a1, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: a2 });
    let at = e.events().len();
    cmd(&mut e, a2, attack(b));
    // No second parry this round: the damage lands at once.
    assert_eq!(prompt(&e), Prompt::Act { actor: a2 });
    let ev = since(&e, at);
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::ReactionRolled(_))))
    );
    match ev.last() {
        // 3 + 4 = 7; trunk 2 - pen 1 = 1: 6; buffer 2 - 1 = 1: 5; CON 2: 3.
        Some(BattleEvent::Damaged(Damaged {
            hp_loss, ep_loss, ..
        })) => {
            assert_eq!((*ep_loss, *hp_loss), (1, 3))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_parry_equal_to_the_attack_fails() {
    let mut e = engine();
    // A1 attack 6 -> 14; B's parry 8 -> 14: not higher; location 5, damage 3.
    start(&mut e, &parry_level(), &[10, 9, 1, 6, 8, 5, 3]);
    let (a1, b) = (cid(&e, "A1"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a1, b);
    cmd(&mut e, b, Ud10Command::Parry);
    let ev = since(&e, at);
    assert!(matches!(
        ev[2].own::<Ud10Event>(),
        Some(Ud10Event::ReactionRolled(ReactionRolled {
            total: 14,
            against: 14,
            success: false,
            ..
        }))
    ));
    assert!(matches!(
        ev.last(),
        Some(BattleEvent::Damaged(Damaged { hp_loss: 3, .. }))
    ));
}

#[test]
fn a_reaction_that_cannot_win_is_not_offered() {
    // "a character who does not have this skill can try to Parry by rolling
    // an untrained check against his DEX rating", and the parry must be
    // *higher* than the attack. A hit on the archer (DEX 3, Defense 13)
    // totals 13 or more; its untrained parry is 13 at best: it cannot win,
    // and Fray does not offer it (docs/rulesets/ud10.md).
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W, overrides: (weapons: ["dagger", "shortbow"]))"#,
        ],
    );
    let mut e = engine();
    // attack 10 -> 18.
    start(&mut e, &l, &[10, 1, 10, 5, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    // Neither the parry nor the dodge by DEX can beat 18: no prompt.
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    assert!(
        since(&e, at)
            .iter()
            .all(|ev| !matches!(ev.own::<Ud10Event>(), Some(Ud10Event::ReactionRolled(_))))
    );
}

#[test]
fn a_reaction_that_can_win_is_offered_and_rolled() {
    // The brute is large (Defense 10 + DEX 1 - 1 = 10) and parries with
    // skill 3: against a hit of 10, d10 + 3 can be higher.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "brute", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // initiative; attack 2 -> 10 vs 10: hits; parry 8 -> 11 > 10.
    start(&mut e, &l, &[10, 1, 2, 8]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    strike(&mut e, a, b);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a
        }
    );
    cmd(&mut e, b, Ud10Command::Parry);
    let rolled = since(&e, at)
        .iter()
        .find_map(|ev| match ev.own::<Ud10Event>() {
            Some(Ud10Event::ReactionRolled(ReactionRolled {
                modifiers,
                total,
                success,
                ..
            })) => Some((names(modifiers), *total, *success)),
            _ => None,
        });
    assert_eq!(rolled, Some((vec![("Parry skill", 3)], 11, true)));
}

#[test]
fn no_parry_without_a_ready_melee_weapon() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "skirmisher", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // The skirmisher (Defense 10 + DEX 4 + small 1 = 15) is hit by 7 + 8;
    // it may dodge (d10 + 7), not parry with the javelin in hand.
    start(&mut e, &l, &[10, 1, 7]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    strike(&mut e, a, b);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a
        }
    );
    let why = refused(&mut e, b, Ud10Command::Parry);
    assert_eq!(why, "cannot parry with the Javelin");
}

/// §Parrying and Dodging: the reaction must be *higher* than the attack;
/// one that cannot be, even with a ten, is refused with its numbers written
/// out (Fray decides, docs/rulesets/ud10.md: a hopeless roll is not
/// offered); `may_dodge` and `may_parry`, which an attack's execution and
/// the AI ask, answer as the check does without writing them.
#[test]
fn a_hopeless_reaction_is_refused_with_its_numbers() {
    use crate::rulesets::ud10::check;
    use crate::rulesets::ud10::numbers::{Pending, PendingAttack};
    let (mut e, a, b) = duel(&[10, 1]);
    // The archer dodges by DEX: d10 + 3, 13 at best.
    for (total, offered) in [(13, false), (12, true)] {
        e.world_mut().resource_mut::<PendingAttack>().0 = Some(Pending {
            attacker: a,
            target: b,
            weapon: 0,
            mode: 0,
            total,
            ranged: false,
            dex_counts: true,
        });
        view::reading(e.world(), |w| {
            let dodge = check::can_dodge(w, b, a);
            assert_eq!(dodge.is_ok(), offered, "against {total}");
            assert_eq!(check::may_dodge(w, b), offered, "against {total}");
            if !offered {
                assert_eq!(
                    dodge.unwrap_err().to_string(),
                    "cannot beat the attack's 13: a dodge is 10 + DEX 3 = 13 at best"
                );
            }
            // A bow parries nothing, whatever the roll.
            assert!(!check::may_parry(w, b));
            let parry = check::can_parry(w, b, a).unwrap_err().to_string();
            assert!(parry.starts_with("cannot parry with the "), "{parry}");
        });
    }
}

/// The plain log line of `e`'s event of this kind, if one was logged
/// since `at`.
fn no_reaction_line(e: &Engine, at: usize) -> Option<String> {
    let w = e.world();
    let names = crate::rules::roster::Names {
        roster: w.resource::<crate::rules::roster::Roster>(),
        factions: w.resource::<crate::rules::roster::Factions>(),
    };
    since(e, at)
        .iter()
        .find(|x| matches!(x.own::<Ud10Event>(), Some(Ud10Event::NoReaction(_))))
        .and_then(|x| crate::rules::narrate::plain(&names, x))
}

/// §Parrying and Dodging: "If the parry check's result is higher than the
/// attack roll's result": a hit of 17 is beyond what B's parry (10 +
/// Parry skill 6 at best) or dodge (10 + DEX 2) could beat, so no prompt
/// comes, and the log says why in one plain line; a second hit in the
/// round finds the reaction spent.
#[test]
fn a_hit_that_cannot_be_answered_says_why() {
    let mut e = engine();
    // initiative A1 10, A2 9, B 1; A1's attack 9 (9 + 8 = 17 vs 14: hit);
    // location 5; damage 3.
    start(&mut e, &parry_level(), &[10, 9, 1, 9, 5, 3]);
    let (a1, b) = (cid(&e, "A1"), cid(&e, "B"));
    let at = e.events().len();
    cmd(
        &mut e,
        a1,
        Command::Attack {
            target: b,
            weapon: 0,
            mode: 0,
        },
    );
    assert_eq!(prompt(&e), Prompt::Act { actor: a1 }, "no reaction prompt");
    assert_eq!(
        no_reaction_line(&e, at).as_deref(),
        Some("B cannot parry (17 is beyond 10 + Parry 6) or dodge (17 is beyond 10 + DEX 2)")
    );
}

/// With dodging off, only the parry's reason is said. "Only one Parry
/// attempt per combat round": the attack preview promises B a parry until
/// B has parried, then says it is spent, and the next hit's log line says
/// why no parry came.
#[test]
fn a_spent_reaction_is_said_in_the_preview_and_the_log() {
    let mut e = engine();
    e.world_mut().resource_mut::<Ud10Settings>().dodge = false;
    // initiative A1 10, A2 9, B 1; A1's attack 6 (14 vs 14: hit); B's parry
    // 9 (9 + 6 = 15 > 14); A2's attack 6 (hit); location 5; damage 3.
    start(&mut e, &parry_level(), &[10, 9, 1, 6, 9, 6, 5, 3]);
    let (a1, a2, b) = (cid(&e, "A1"), cid(&e, "A2"), cid(&e, "B"));
    let attack = |t| Command::Attack {
        target: t,
        weapon: 0,
        mode: 0,
    };
    let preview_lines = |e: &Engine, actor: Cid| {
        let hooks = e.world().resource::<crate::rules::hooks::ActiveRuleset>().0;
        (hooks.preview)(e.world(), actor, &attack(b)).lines
    };
    let says = |e: &Engine, actor: Cid, line: &str| {
        let lines = preview_lines(e, actor);
        assert!(
            lines.iter().any(|l| l.starts_with(line)),
            "{line:?} not in {lines:?}"
        );
    };
    says(&e, a1, "B may parry a hit (a roll above the attack's)");
    cmd(&mut e, a1, attack(b));
    cmd(&mut e, b, Ud10Command::Parry);
    cmd(&mut e, a1, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: a2 });
    says(&e, a2, "B cannot parry: this round's reaction is spent");
    let at = e.events().len();
    cmd(&mut e, a2, attack(b));
    assert_eq!(prompt(&e), Prompt::Act { actor: a2 });
    assert_eq!(
        no_reaction_line(&e, at).as_deref(),
        Some("B cannot parry: this round's reaction is spent")
    );
}

/// The reaction dialog's stakes (§Summary: Taking Damage, §Optional Rule:
/// Body Zones): a longsword (1D10+4, penetration 1, tens explode) on B, a
/// swordsman (HP 12, CON 2; leather: arms 1, trunk 2, legs 1, buffer 2;
/// helmet: head 3, buffer 1), knocked out at 0 HP. With penetration the
/// head and trunk take rolled - 4 HP, the arms and legs rolled - 3; so 12
/// HP falls to a roll of 16 or more (head, trunk: 0.09, a ten and a second
/// roll above 1) or 15 or more (arms, legs: 0.1, any ten): 0.1 x 0.09 + 0.2
/// x 0.1 + 0.3 x 0.09 + 0.4 x 0.1 = 9.6 %. At 3 HP a roll of 7 or more
/// (head, trunk: 0.8) or 6 or more (arms, legs: 0.9) does it: 0.4 x 0.8 +
/// 0.6 x 0.9 = 86 %.
#[test]
fn the_stakes_say_how_likely_the_blow_takes_the_defender_out() {
    let mut e = engine();
    // initiative A1 10, A2 9, B 1; A1's attack 6 (14 vs 14: hit).
    start(&mut e, &parry_level(), &[10, 9, 1, 6]);
    let (a1, b) = (cid(&e, "A1"), cid(&e, "B"));
    cmd(
        &mut e,
        a1,
        Command::Attack {
            target: b,
            weapon: 0,
            mode: 0,
        },
    );
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a1
        }
    );
    let hooks = e.world().resource::<crate::rules::hooks::ActiveRuleset>().0;
    let stakes = |e: &Engine| {
        (hooks.preview)(e.world(), b, &Command::NoReaction)
            .stakes
            .expect("stakes")
    };
    let w = view::get::<Loadout>(e.world(), a1)
        .expect("loadout")
        .weapons[0]
        .clone();
    let full = super::super::preview::chance_down(e.world(), b, &w, 0);
    assert!((full - 0.096).abs() < 1e-9, "{full}");
    assert!(
        stakes(&e).starts_with("If the blow lands: "),
        "{}",
        stakes(&e)
    );
    assert!(
        stakes(&e).contains("to take B out (HP 12)"),
        "{}",
        stakes(&e)
    );
    set_hp(&mut e, b, 3);
    let hurt = super::super::preview::chance_down(e.world(), b, &w, 0);
    assert!((hurt - 0.86).abs() < 1e-9, "{hurt}");
    assert!(
        stakes(&e).ends_with("86% to take B out (HP 3)"),
        "{}",
        stakes(&e)
    );
}

/// Declining, the log says what was not done: what the defender could
/// still do against this blow: B's parry (10 + Parry skill) can beat A1's
/// 14, its dodge (10 + DEX 2 = 12 at best) cannot: "B does not parry".
#[test]
fn declining_says_what_was_not_done() {
    let mut e = engine();
    // initiative A1 10, A2 9, B 1; A1's attack 6 (14 vs 14: hit).
    start(&mut e, &parry_level(), &[10, 9, 1, 6]);
    let (a1, b) = (cid(&e, "A1"), cid(&e, "B"));
    strike(&mut e, a1, b);
    assert_eq!(
        prompt(&e),
        Prompt::React {
            actor: b,
            attacker: a1
        }
    );
    let from = e.events().len();
    cmd(&mut e, b, Command::NoReaction);
    let forgoes = since(&e, from).into_iter().find_map(|x| match x {
        BattleEvent::ReactionDeclined(ReactionDeclined { forgoes, .. }) => Some(forgoes),
        _ => None,
    });
    assert_eq!(forgoes.as_deref(), Some("parry"));
}
