//! A round counted down by score, for rulesets whose initiative is per
//! action: brp's DEX ranks (§5.4) now; osr's countdown and spelljammer's
//! segments to come. Each score, highest first, holds its groups in acting
//! order; the members of one group act simultaneously, so whoever they drop
//! falls once the whole group has acted.
//!
//! The schedule is battle state, and only `apply` changes it: a
//! `RoundStarted` empties it, `Count` sets it, each `TurnStarted` moves it
//! past its member, `FallDeferred` and `GroupActed` keep who is to fall.
//! A ruleset's round walks it ([`Schedule::due`]) and emits those events.

use bevy::prelude::*;

use crate::rules::components::Cid;

/// Each score with its groups, highest first.
pub type Ranks = Vec<(i32, Vec<Vec<Cid>>)>;

/// The count of the round in progress.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// Each score, highest first, with its groups in acting order (each
    /// group's members act simultaneously).
    pub ranks: Ranks,
    /// Where the count is: score, group, member (past the member now
    /// acting).
    pub at: (usize, usize, usize),
    /// Those a member of the group now acting dropped: they fall when the
    /// group is done.
    pub falls: Vec<Cid>,
}

/// What the count meets next, walking on from a place in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    /// This member acts next.
    Member(Cid),
    /// The group just walked is done: those it dropped fall now.
    GroupDone,
    /// The score's groups are all done: the next score is reached.
    ScoreDone,
    /// The count is over.
    Over,
}

impl Schedule {
    /// The simultaneous group acting now, if the count has reached one.
    pub fn group(&self) -> Option<&[Cid]> {
        let (r, g, _) = self.at;
        self.ranks
            .get(r)
            .and_then(|(_, groups)| groups.get(g))
            .map(|g| g.as_slice())
    }

    /// The score the count is at, if any.
    pub fn score(&self) -> Option<i32> {
        self.ranks.get(self.at.0).map(|(s, _)| *s)
    }

    /// What comes at `at`, and where the walk goes on after it: a member,
    /// a group's end, a score's end, or the count's.
    pub fn due(&self, at: (usize, usize, usize)) -> (Due, (usize, usize, usize)) {
        let (ri, gi, mi) = at;
        let Some((_, groups)) = self.ranks.get(ri) else {
            return (Due::Over, at);
        };
        let Some(group) = groups.get(gi) else {
            return (Due::ScoreDone, (ri + 1, 0, 0));
        };
        match group.get(mi) {
            Some(&who) => (Due::Member(who), (ri, gi, mi + 1)),
            None => (Due::GroupDone, (ri, gi + 1, 0)),
        }
    }

    /// The score `at` opens, if it is a score's first place (where the
    /// score is called, before its first member acts): its index.
    pub fn opens(&self, at: (usize, usize, usize)) -> Option<usize> {
        (at.1 == 0 && at.2 == 0 && self.ranks.get(at.0).is_some()).then_some(at.0)
    }

    /// Has `who` had its turn in the count (its place is behind where the
    /// count is)?
    pub fn acted(&self, who: Cid) -> bool {
        for (i, (_, groups)) in self.ranks.iter().enumerate() {
            for (j, g) in groups.iter().enumerate() {
                if let Some(k) = g.iter().position(|c| *c == who) {
                    // The member now acting has not acted yet.
                    return (i, j, k + 1) < self.at;
                }
            }
        }
        false
    }

    /// The count moves past `who`, found on from where it is (those before
    /// it were passed over: they had fallen). For `apply` only.
    pub(crate) fn past(&mut self, who: Cid) {
        let (ri, gi, mi) = self.at;
        for (i, (_, groups)) in self.ranks.iter().enumerate().skip(ri) {
            for (j, g) in groups.iter().enumerate() {
                if (i, j) < (ri, gi) {
                    continue;
                }
                for (k, c) in g.iter().enumerate() {
                    if (i, j) == (ri, gi) && k < mi {
                        continue;
                    }
                    if *c == who {
                        self.at = (i, j, k + 1);
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: u16) -> Cid {
        Cid(n)
    }

    /// Score 12: A alone, then B and C together; score 6: D.
    fn count() -> Schedule {
        Schedule {
            ranks: vec![
                (12, vec![vec![c(0)], vec![c(1), c(2)]]),
                (6, vec![vec![c(3)]]),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn the_walk_calls_each_score_then_its_members_and_each_group_s_end() {
        let s = count();
        let mut at = (0, 0, 0);
        let mut seen = Vec::new();
        loop {
            if let Some(i) = s.opens(at) {
                seen.push(format!("score {}", s.ranks[i].0));
            }
            let (due, next) = s.due(at);
            seen.push(format!("{due:?}"));
            if due == Due::Over {
                break;
            }
            at = next;
        }
        assert_eq!(
            seen,
            [
                "score 12",
                "Member(Cid(0))",
                "GroupDone",
                "Member(Cid(1))",
                "Member(Cid(2))",
                "GroupDone",
                "ScoreDone",
                "score 6",
                "Member(Cid(3))",
                "GroupDone",
                "ScoreDone",
                "Over",
            ]
        );
    }

    #[test]
    fn a_started_turn_moves_the_count_past_its_member_and_no_further_back() {
        let mut s = count();
        s.past(c(2));
        assert_eq!(s.at, (0, 1, 2));
        assert_eq!(s.group(), Some(&[c(1), c(2)][..]));
        assert_eq!(s.score(), Some(12));
        // C acts now; A and B have; D has not.
        assert!(s.acted(c(0)) && s.acted(c(1)) && !s.acted(c(2)) && !s.acted(c(3)));
        // One already behind the count is not found again.
        s.past(c(0));
        assert_eq!(s.at, (0, 1, 2));
        s.past(c(3));
        assert_eq!((s.at, s.score()), ((1, 0, 1), Some(6)));
    }
}
