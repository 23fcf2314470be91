//! What a parry risks for the weapon or shield (§5.6: "Weapons and shields
//! occasionally take damage from being used to parry and can even break if
//! their hit points are overcome"; §5.8's matrix says how many points), as
//! the reaction dialog states it; what the log says when a defence is
//! declined; and why a draw is refused (a weapon is readied by attacking
//! with it).

use super::combat::matrix_duel;
use super::*;
use crate::rules::event::ReactionDeclined;
use crate::rulesets::brp::stats::BrpShield;

fn lines(e: &Engine, b: Cid, c: BrpCommand) -> Vec<String> {
    crate::rulesets::brp::preview::preview(e.world(), b, &Command::from(c)).lines
}

/// A special success (attack 05 at 60%) against B's broadsword (12 HP,
/// §5.9) and round shield (12 HP, §5.11): a parry that succeeds costs the
/// item 2 of its 12, one that is special costs nothing (§5.8); nothing can
/// break yet. Worn down to 2, the shield can break: the dialog says so
/// first.
#[test]
fn the_parry_dialog_states_each_items_hit_points_and_when_it_can_break() {
    let (mut e, _, b, _) = matrix_duel(&[5, 40, 4, 1]);
    let shield = lines(&e, b, BrpCommand::Parry { shield: true });
    assert_eq!(
        shield,
        vec![
            "50% to succeed, 9% a special success (§5.11 Shields)".to_string(),
            "On a special: no harm".into(),
            "On a success: normal damage, your round shield takes 2 (12 HP, 10 left)".into(),
            "On a failure: special damage".into(),
        ]
    );
    let weapon = lines(&e, b, BrpCommand::Parry { shield: false });
    assert_eq!(
        weapon[2],
        "On a success: normal damage, your broadsword takes 2 (12 HP, 10 left)"
    );
    let eb = crate::rules::view::entity(e.world(), b).expect("B");
    crate::rules::view::write::get_mut::<BrpShield>(e.world_mut(), eb)
        .expect("B's shield")
        .hp = 2;
    let shield = lines(&e, b, BrpCommand::Parry { shield: true });
    assert_eq!(
        shield[1],
        "The broadsword can break your round shield: 2 HP, 2 points on a success (§5.6, §5.8)"
    );
    assert_eq!(
        shield[3],
        "On a success: normal damage, your round shield takes 2 and breaks (2 HP)"
    );
    // A dodge wears nothing.
    assert!(
        lines(&e, b, BrpCommand::Parry { shield: false })
            .iter()
            .all(|l| !l.contains("can break"))
    );
    let dodge = crate::rulesets::brp::preview::preview(e.world(), b, &Command::Dodge).lines;
    assert!(dodge.iter().all(|l| !l.contains("takes")), "{dodge:?}");
}

/// Declining, the log says what was not done: "B does not parry or dodge".
#[test]
fn declining_says_what_was_not_done() {
    let (mut e, _, b, at) = matrix_duel(&[5, 40, 4, 1]);
    cmd(&mut e, b, Command::NoReaction);
    let line = since(&e, at).into_iter().find_map(|x| match x {
        BattleEvent::ReactionDeclined(ReactionDeclined { forgoes, .. }) => Some(forgoes),
        _ => None,
    });
    assert_eq!(line.as_deref(), Some("parry or dodge"));
}

/// brp has no draw of its own (docs/rulesets/brp.md, "Readying"): the
/// player's Tab hears why.
#[test]
fn a_draw_is_refused_with_the_reason() {
    let mut e = battle(
        6,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (4, 1), name: "B")"#,
        ],
        &[],
    );
    let actor = prompt(&e).actor().expect("someone states first");
    let why = crate::testkit::refused(&mut e, actor, Command::Draw { weapon: 1 });
    assert!(
        why.contains("readied as part of attacking with it"),
        "{why}"
    );
}
