use super::*;

/// Three texts spawned over one token at once (a hit, its damage, a
/// fall) and one over a neighbour two tiles off: the three stack a line
/// apart, oldest lowest; the neighbour's stays where it is.
#[test]
fn floating_texts_over_one_token_stack_instead_of_overlapping() {
    let e = |i: u32| Entity::from_raw_u32(i).unwrap();
    let at = Vec2::new(0.0, FLOAT_RISE);
    let mut texts = vec![
        (0.0, e(3), at),
        (0.2, e(2), at),
        (0.3, e(1), at),
        (0.0, e(4), at + Vec2::new(2.0 * super::super::TILE, 0.0)),
    ];
    let (moved, dropped) = unstack(&mut texts);
    assert!(dropped.is_empty());
    let y = |i| moved.get(&e(i)).copied().unwrap_or(at.y);
    assert_eq!(y(1), at.y);
    assert_eq!(y(2), at.y + FLOAT_LINE);
    assert_eq!(y(3), at.y + 2.0 * FLOAT_LINE);
    assert!(!moved.contains_key(&e(4)));
    // Laid out again a frame later, nothing moves.
    assert!(unstack(&mut texts).0.is_empty());
    // A fourth over the same token: the oldest goes, the rest stay.
    texts.push((0.0, e(5), at));
    let (_, dropped) = unstack(&mut texts);
    assert_eq!(dropped, vec![e(1)]);
}
