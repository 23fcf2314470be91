//! What `fray audit` counts of a battle's plays (`audit.rs`), on scripted
//! plays whose counts are known.

use super::*;
use crate::rulesets::ud10::audit::{FIGURES, audit};

fn counts(e: &Engine) -> Vec<(&'static str, u64)> {
    let mut c = vec![0; FIGURES.len()];
    audit(e.world(), 0, &mut c);
    FIGURES.iter().map(|f| f.name).zip(c).collect()
}

fn count(e: &Engine, name: &str) -> u64 {
    counts(e)
        .into_iter()
        .find(|(n, _)| *n == name)
        .map_or(u64::MAX, |(_, c)| c)
}

/// A walks round B: the step out of B's reach draws B's free attack, and
/// A then attacks B, the enemy it walked past: a free attack wasted.
#[test]
fn a_free_attack_drawn_and_then_the_attack_on_its_giver_is_wasted() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 1), name: "B", facing: W)"#,
        ],
    );
    let mut e = engine();
    // Initiative A 10, B 1; B's free attack misses (1); A's attack misses (1).
    start(&mut e, &l, &[10, 1, 1, 1]);
    let (a, b) = (cid(&e, "A"), cid(&e, "B"));
    cmd(
        &mut e,
        a,
        Command::Move {
            path: vec![Cell::new(0, 0), Cell::new(1, 0)],
        },
    );
    assert_eq!(count(&e, "free attacks"), 1);
    assert_eq!(count(&e, "wasted"), 0);
    strike(&mut e, a, b);
    assert_eq!(count(&e, "melee attacks"), 1);
    assert_eq!(count(&e, "wasted"), 1);
    assert_eq!(count(&e, "from behind"), 0);
    assert_eq!(count(&e, "shots"), 0);
}

/// With C engaging B from the front, A's attack from B's rear arc is from
/// behind; C's is not.
#[test]
fn attacks_from_behind_are_counted() {
    let l = level(
        &OPEN,
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (2, 1), name: "B", facing: E)"#,
            r#"(archetype: "spearman", faction: "red", at: (3, 1), name: "C", facing: W)"#,
        ],
    );
    let mut e = engine();
    // Initiative A 10, B 1, C 5: A attacks (miss), ends; C attacks (miss).
    start(&mut e, &l, &[10, 1, 5, 1, 1]);
    let (a, b, c) = (cid(&e, "A"), cid(&e, "B"), cid(&e, "C"));
    strike(&mut e, a, b);
    cmd(&mut e, a, Command::EndTurn);
    assert_eq!(prompt(&e), Prompt::Act { actor: c });
    strike(&mut e, c, b);
    assert_eq!(count(&e, "melee attacks"), 2);
    assert_eq!(count(&e, "from behind"), 1);
}
