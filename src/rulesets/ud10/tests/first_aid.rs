//! §Performing Actions: "performing a skill action that can be completed
//! within the combat round". Fray's: first aid on an unconscious ally next
//! to the medic, d10 + First Aid (or DEX untrained) against the setting
//! `first_aid_difficulty` (10); a success brings it round with 1 HP, acting
//! from the next round, once a battle.

use super::*;
use crate::rules::components::Health;
use crate::rules::event::Healed;
use crate::rulesets::ud10::event::FirstAid;

const ROWS: [&str; 3] = ["............", "............", "............"];

/// Red's medic M next to P, whom `fall` leaves unconscious at -2 HP; blue's
/// B far off. Initiative M 10, P 5, B 1 (P rolled before it fell).
fn fallen(medic_overrides: &str, script: &[u32]) -> (Engine, Cid, Cid, Cid) {
    let l = level(
        &ROWS,
        &[
            &format!(
                r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "M", facing: E{medic_overrides})"#
            ),
            r#"(archetype: "spearman", faction: "red", at: (2, 1), name: "P", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (11, 2), name: "B", facing: W, overrides: (weapons: ["dagger"]))"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, script);
    let (m, p, b) = (cid(&e, "M"), cid(&e, "P"), cid(&e, "B"));
    set_condition(&mut e, p, Condition::Unconscious);
    set_hp(&mut e, p, -2);
    (e, m, p, b)
}

fn hp(e: &Engine, c: Cid) -> i32 {
    view::get::<Health>(e.world(), c).map_or(0, |h| h.hp)
}

#[test]
fn first_aid_brings_an_unconscious_ally_round_with_one_hp() {
    // Initiative M 10, P 5, B 1; M's check: d10 8 + DEX 2 = 10, reaching 10.
    let (mut e, m, p, b) = fallen("", &[10, 5, 1, 8]);
    assert_eq!(prompt(&e), Prompt::Act { actor: m });
    let from = e.events().len();
    cmd(&mut e, m, Ud10Command::FirstAid { patient: p });
    let ev = since(&e, from);
    assert!(ev.iter().any(|x| matches!(
        x.own::<Ud10Event>(),
        Some(Ud10Event::FirstAid(FirstAid { total: 10, difficulty: 10, success: true, modifiers, .. }))
            if names(modifiers) == [("untrained (DEX)", 2)]
    )));
    assert!(ev.iter().any(|x| matches!(
        x,
        BattleEvent::Healed(Healed { target, gained: 3, hp_after: 1, .. }) if *target == p
    )));
    assert_eq!(hp(&e, p), 1);
    assert!(view::standing(e.world(), p));
    // It was the round's action.
    let why = refused(&mut e, m, Ud10Command::FirstAid { patient: p });
    assert!(why.contains("action"), "{why}");
    // Brought round, P comes to itself slowly: its turn this round is gone.
    cmd(&mut e, m, Command::EndTurn);
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
}

#[test]
fn a_failed_check_spends_the_action_and_leaves_the_ally_down() {
    // M's check: d10 7 + DEX 2 = 9, short of 10.
    let (mut e, m, p, _) = fallen("", &[10, 5, 1, 7]);
    cmd(&mut e, m, Ud10Command::FirstAid { patient: p });
    assert!(view::conditions(e.world(), p).has(Condition::Unconscious));
    assert_eq!(hp(&e, p), -2);
    assert!(refused(&mut e, m, Ud10Command::FirstAid { patient: p }).contains("action"));
}

#[test]
fn a_trained_medic_adds_its_skill_and_the_preview_gives_the_odds() {
    // First Aid 5: d10 5 + 5 = 10.
    let (mut e, m, p, _) = fallen(r#", overrides: (stats: {"FIRST_AID": 5})"#, &[10, 5, 1, 5]);
    let n = crate::rulesets::ud10::first_aid::numbers(e.world(), m);
    assert_eq!(n.bonus(), 5);
    // A d10 of 5 or more: 60 %.
    assert!((n.chance() - 0.6).abs() < 1e-9);
    let title = crate::rulesets::ud10::preview::preview(
        e.world(),
        m,
        &Command::from(Ud10Command::FirstAid { patient: p }),
    )
    .title;
    assert!(
        title.contains("60 %") && title.contains("spends the action"),
        "{title}"
    );
    cmd(&mut e, m, Ud10Command::FirstAid { patient: p });
    assert_eq!(hp(&e, p), 1);
}

#[test]
fn first_aid_is_refused_to_the_dead_the_distant_enemies_and_a_second_fall() {
    let (mut e, m, p, b) = fallen("", &[10, 5, 1, 10]);
    // Only allies, only the unconscious.
    let why = refused(&mut e, m, Ud10Command::FirstAid { patient: b });
    assert!(why.contains("allies"), "{why}");
    // Only next to the medic.
    cmd(
        &mut e,
        m,
        Command::Move {
            path: vec![Cell::new(0, 1)],
        },
    );
    let why = refused(&mut e, m, Ud10Command::FirstAid { patient: p });
    assert!(why.contains("next to you"), "{why}");
    cmd(
        &mut e,
        m,
        Command::Move {
            path: vec![Cell::new(1, 1)],
        },
    );
    cmd(&mut e, m, Ud10Command::FirstAid { patient: p });
    // Down again: beyond first aid this battle.
    set_condition(&mut e, p, Condition::Unconscious);
    let why = crate::rulesets::ud10::first_aid::check(e.world(), m, p)
        .unwrap_err()
        .0;
    assert!(why.contains("already brought round"), "{why}");
    // The dead are beyond help.
    set_condition(&mut e, p, Condition::Dead);
    let why = crate::rulesets::ud10::first_aid::treatable(e.world(), m, p)
        .unwrap_err()
        .0;
    assert!(why.contains("dead"), "{why}");
}

#[test]
fn the_ai_gives_first_aid_when_it_has_nobody_to_strike() {
    let (e, m, p, _) = fallen("", &[10, 5, 1]);
    assert_eq!(
        crate::rulesets::ud10::ai::decide(e.world(), m),
        Command::from(Ud10Command::FirstAid { patient: p })
    );
}

#[test]
fn the_ai_strikes_a_nearby_enemy_rather_than_try_an_untrained_first_aid() {
    let l = level(
        &ROWS,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "M", facing: E)"#,
            r#"(archetype: "spearman", faction: "red", at: (0, 1), name: "P", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: W, overrides: (weapons: ["dagger"]))"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 5, 1]);
    let (m, p, b) = (cid(&e, "M"), cid(&e, "P"), cid(&e, "B"));
    set_condition(&mut e, p, Condition::Unconscious);
    assert!(matches!(
        crate::rulesets::ud10::ai::decide(e.world(), m),
        Command::Attack { target, .. } if target == b
    ));
}

/// ud10's "using or manipulating an item" is the net, a weapon: a level
/// that hands a ud10 combatant consumables is refused, not silently obeyed.
#[test]
fn ud10_refuses_consumable_items() {
    let l = level(
        &ROWS,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "M", overrides: (items: ["medicine_box"]))"#,
            r#"(archetype: "archer", faction: "blue", at: (11, 2), name: "B")"#,
        ],
    );
    let mut e = engine();
    let err = e
        .start(
            &l,
            crate::rulesets::ud10::ID,
            &crate::rules::engine::StartOptions {
                seed: 1,
                script: vec![],
                control: crate::rules::engine::Controls::AllAi,
            },
        )
        .unwrap_err()
        .to_string();
    assert!(err.contains("no consumable items"), "{err}");
}
