//! §5.9–5.10 in played blows with scripted dice: the half damage bonus of
//! missile weapons, armor against firearms.

use super::*;
use crate::rulesets::brp::event::DamageRolled;

/// A, at its rank, shoots at B, who takes it (if asked): B, and the index
/// of the first event of the shot.
fn shot(e: &mut Engine) -> (Cid, usize) {
    to_a_s_rank(e);
    let (a, b) = (cid(e, "A"), cid(e, "B"));
    let at = e.events().len();
    cmd(e, a, attack(b));
    if let Prompt::React { .. } = prompt(e) {
        cmd(e, b, Command::NoReaction);
    }
    (b, at)
}

#[test]
fn a_long_bow_adds_half_its_shooters_damage_bonus_rounded_up() {
    // §5.9: "“½ damage bonus” means roll and divide by 2, rounding up"; the
    // long bow deals 1D8+1+½db. A: STR 13 + SIZ 13 = 26, a damage bonus
    // of 1D4, which rolls 3: half is 1.5, so 2. The 1D8 rolls 5: 5 + 1 + 2
    // = 8 on B, who wears nothing and has 12 hit points.
    let mut e = battle(
        8,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", overrides: (stats: {"STR": 13, "SIZ": 13}))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", overrides: (armor: [], shield: None, stats: {"CON": 12, "SIZ": 12, "DEX": 8}))"#,
        ],
        &[30, 5, 3],
    );
    let (b, at) = shot(&mut e);
    let rolled = own(&e, at).into_iter().find_map(|ev| match ev {
        BrpEvent::DamageRolled(DamageRolled {
            half_bonus,
            bonus,
            bonus_added,
            total,
            ..
        }) => Some((half_bonus, bonus.map(|r| r.total), bonus_added, total)),
        _ => None,
    });
    assert_eq!(rolled, Some((true, Some(3), 2, 8)));
    assert_eq!(damaged(&e, at), vec![(b, 8, 8, 4)]);
}

#[test]
fn riot_gear_stops_6_of_a_rifles_damage_not_12() {
    // §5.10's armor table: riot gear "12/6", 12 points, 6 against firearms
    // (docs/rulesets/brp.md). A rifle (2D6) rolls 5 and 4: 9 damage, 3
    // through the gear; B, 12 hit points, keeps 9. (At 12 points nothing
    // would go through.)
    let mut e = battle(
        8,
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", overrides: (weapons: ["rifle"]))"#,
            r#"(archetype: "swordsman", faction: "blue", at: (6, 1), name: "B", overrides: (armor: ["riot_gear"], shield: None, stats: {"CON": 12, "SIZ": 12, "DEX": 8}))"#,
        ],
        &[10, 5, 4],
    );
    let (b, at) = shot(&mut e);
    assert_eq!(damaged(&e, at), vec![(b, 9, 3, 9)]);
}
