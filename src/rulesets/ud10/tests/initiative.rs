//! §Starting a Combat Round: initiative; scripted dice.

use super::movement::engaged_level;
use super::*;
use crate::rules::event::RoundStarted;
use crate::rulesets::ud10::event::InitiativeRolled;

#[test]
fn initiative_is_d10_plus_skill_highest_first_and_kept() {
    // §Starting a Combat Round. Archer INI 4, swordsman INI 3.
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // A: 6 + 3 = 9; B: 4 + 4 = 8.
    start(&mut e, &l, &[6, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let totals: Vec<(Cid, i32)> = e
        .events()
        .iter()
        .filter_map(|ev| match ev.own::<Ud10Event>() {
            Some(Ud10Event::InitiativeRolled(InitiativeRolled { who, total, .. })) => {
                Some((*who, *total))
            }
            _ => None,
        })
        .collect();
    assert_eq!(totals, vec![(a, 9), (b, 8)]);
    assert_eq!(prompt(&e), Prompt::Act { actor: a });
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    let at = e.events().len();
    e.step();
    // Round 2 keeps the results: no new rolls, same order.
    let ev = since(&e, at);
    assert!(matches!(
        ev[0],
        BattleEvent::RoundStarted(RoundStarted { round: 2 })
    ));
    assert!(
        !ev.iter()
            .any(|e| matches!(e.own::<Ud10Event>(), Some(Ud10Event::InitiativeRolled(_))))
    );
    assert_eq!(prompt(&e), Prompt::Act { actor: a });

    // Re-rolled every round when the setting says so: B 10 + 4 beats A 1 + 3.
    e.configure(crate::rulesets::ud10::ID, "keep_initiative", "false")
        .expect("setting");
    start(&mut e, &l, &[6, 4, 1, 10]);
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    e.step();
    assert_eq!(prompt(&e), Prompt::Act { actor: b });
}

#[test]
fn scripted_die_outside_its_range_is_reported() {
    let l = engaged_level();
    let mut e = engine();
    start(&mut e, &l, &[11]);
    let err = e
        .world()
        .resource::<crate::rules::dice::Dice>()
        .error()
        .cloned()
        .expect("an error");
    assert_eq!((err.index, err.value, err.sides), (1, 11, 10));
}

// whole battles
