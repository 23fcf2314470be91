//! Who did what in a battle, counted from its log for the results screen.

use crate::rules::components::Cid;
use crate::rules::event::{BattleEvent, ConditionAdded, Damaged};
use crate::rules::log::BattleLog;

/// What each combatant did and suffered, from the log: damage dealt and
/// taken, and whom it took out of the fight (the last to hurt a combatant
/// before it fell). Counted for the results screen; the battle's state is
/// not read.
#[derive(Default)]
pub(super) struct Tally {
    pub(super) dealt: Vec<i32>,
    pub(super) taken: Vec<i32>,
    pub(super) took_out: Vec<Vec<Cid>>,
}

impl Tally {
    /// The tally of `log`, for a battle of `combatants` combatants.
    pub(super) fn of(log: &BattleLog, combatants: usize) -> Tally {
        use crate::rules::components::Condition;
        let mut t = Tally {
            dealt: vec![0; combatants],
            taken: vec![0; combatants],
            took_out: vec![Vec::new(); combatants],
        };
        let mut last_by: Vec<Option<Cid>> = vec![None; combatants];
        let mut down = vec![false; combatants];
        for e in &log.events {
            match e {
                BattleEvent::Damaged(Damaged {
                    target,
                    by,
                    hp_loss,
                    ..
                }) => {
                    if let Some(x) = t.taken.get_mut(target.0 as usize) {
                        *x += hp_loss;
                    }
                    if let Some(by) = by
                        && let Some(x) = t.dealt.get_mut(by.0 as usize)
                    {
                        *x += hp_loss;
                    }
                    if let Some(l) = last_by.get_mut(target.0 as usize) {
                        *l = *by;
                    }
                }
                BattleEvent::ConditionAdded(ConditionAdded {
                    who,
                    condition: Condition::Dead | Condition::Unconscious | Condition::Incapacitated,
                    ..
                }) => {
                    let i = who.0 as usize;
                    if i < combatants && !down[i] {
                        down[i] = true;
                        if let Some(by) = last_by[i]
                            && let Some(list) = t.took_out.get_mut(by.0 as usize)
                        {
                            list.push(*who);
                        }
                    }
                }
                _ => {}
            }
        }
        t
    }
}

/// How a combatant's fight ended, in one word: the condition that took it
/// out (dead before unconscious before incapacitated, fled, surrendered),
/// else "standing".
pub(super) fn fate(conds: crate::rules::components::Conditions) -> &'static str {
    use crate::rules::components::Condition;
    [
        Condition::Dead,
        Condition::Unconscious,
        Condition::Incapacitated,
        Condition::Fled,
        Condition::Surrendered,
    ]
    .into_iter()
    .find(|c| conds.has(*c))
    .map_or("standing", |c| c.name())
}
