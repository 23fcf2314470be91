//! Ammunition, reloading and firing modes.

use super::*;
use crate::rules::event::DamageRolled;
use crate::rulesets::ud10::event::AttackRolled;

#[test]
fn crossbow_needs_reloading_as_an_action() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "crossbowman", faction: "red", at: (0, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let shoot = Command::Attack {
        target: b,
        weapon: 0,
        mode: 0,
    };
    cmd(&mut e, a, shoot.clone());
    cmd(&mut e, a, Command::EndTurn);
    e.step();
    cmd(&mut e, b, Command::EndTurn);
    e.step();
    let why = refused(&mut e, a, shoot);
    assert_eq!(why, "Crossbow is not loaded (reload it)");
    cmd(&mut e, a, Ud10Command::Reload { weapon: 0 });
    let w = view::get::<Loadout>(e.world(), a).expect("loadout").weapons[0].clone();
    assert_eq!((w.loaded, w.spare), (1, Some(14)));
    assert!(
        view::get::<TurnState>(e.world(), a)
            .expect("turn")
            .action_used
    );
}

#[test]
fn volley_mode_uses_three_shots_and_its_own_damage_code() {
    // §Ranged Attacks: "Some ranged weapons can fire multiple shots during one
    // attack ... alternative firing modes and their damage codes".
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "captain", faction: "red", at: (0, 1), name: "A", facing: E, overrides: (weapons: ["repeating_crossbow", "longsword"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // attack 9: 9 + 7 - 2 = 14 vs 14 hits; location 5; damage 2D10+4: 3, 4.
    start(&mut e, &l, &[10, 1, 9, 5, 3, 4]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    let at = e.events().len();
    cmd(
        &mut e,
        a,
        Command::Attack {
            target: b,
            weapon: 0,
            mode: 1,
        },
    );
    let ev = past_no_reaction(since(&e, at));
    match ev[0].own::<Ud10Event>() {
        Some(Ud10Event::AttackRolled(AttackRolled {
            modifiers,
            shots,
            mode,
            total,
            ..
        })) => {
            assert_eq!(mode, "volley");
            assert_eq!(*shots, 3);
            assert_eq!(
                names(modifiers),
                vec![("Ranged Combat skill", 7), ("firing mode", -2)]
            );
            assert_eq!(*total, 14);
        }
        other => panic!("{other:?}"),
    }
    match &ev[2] {
        BattleEvent::DamageRolled(DamageRolled { roll, .. }) => {
            assert_eq!((roll.expr.to_string().as_str(), roll.total), ("2D10+4", 11))
        }
        other => panic!("{other:?}"),
    }
    let w = &view::get::<Loadout>(e.world(), a).expect("loadout").weapons[0];
    assert_eq!(w.loaded, 3);
}
