use super::tally::{Tally, fate};
use crate::rules::components::Cid;
use crate::rules::components::{Condition, Conditions};
use crate::rules::event::{BattleEvent, ConditionAdded, Damaged};
use crate::rules::log::BattleLog;

fn damaged(target: u16, by: Option<u16>, hp_loss: i32) -> BattleEvent {
    BattleEvent::Damaged(Damaged {
        target: Cid(target),
        by: by.map(Cid),
        rolled: hp_loss,
        steps: Vec::new(),
        ep_loss: 0,
        hp_loss,
        hp_after: 0,
        ep_after: 0,
        rule: "test",
    })
}

fn fell(who: u16, condition: Condition) -> BattleEvent {
    BattleEvent::ConditionAdded(ConditionAdded {
        who: Cid(who),
        condition,
        rule: "test",
    })
}

/// The results count damage dealt and taken by who dealt it, and credit
/// a fall to the last to hurt the fallen, once (dead after unconscious
/// is the same fall); a fall with no one to blame credits nobody.
#[test]
fn the_tally_counts_who_dealt_what_and_who_took_whom_out() {
    let log = BattleLog {
        events: vec![
            damaged(1, Some(0), 3),
            damaged(1, Some(2), 4),
            fell(1, Condition::Unconscious),
            fell(1, Condition::Dead),
            damaged(0, Some(1), 2),
            damaged(2, None, 5),
            fell(2, Condition::Incapacitated),
        ],
        ..Default::default()
    };
    let t = Tally::of(&log, 3);
    assert_eq!(t.dealt, vec![3, 2, 4]);
    assert_eq!(t.taken, vec![2, 7, 5]);
    assert_eq!(t.took_out, vec![vec![], vec![], vec![Cid(1)]]);
}

/// One word for how the fight ended, the gravest first.
#[test]
fn a_fate_is_one_word() {
    let mut c = Conditions::default();
    assert_eq!(fate(c), "standing");
    c.insert(Condition::Steadfast);
    assert_eq!(fate(c), "standing");
    c.insert(Condition::Dead);
    assert_eq!(fate(c), "dead");
    let mut f = Conditions::default();
    f.insert(Condition::Broken);
    f.insert(Condition::Fled);
    assert_eq!(fate(f), "fled");
}
