//! What an expression can give: its least, its most, its mean and the
//! chance of each total, read without rolling.

use super::{Atom, DiceExpr, Term, clamp_i32, explodes};

impl DiceExpr {
    /// The mean and the highest total of [`DiceExpr::without_db`] (as its
    /// `mean(None, None)` and `max(None)` give them), without making it:
    /// with no damage bonus given, a `db` term adds nothing, and the other
    /// terms are read in the same order. The AI weighs a weapon's damage
    /// at every statement of intent.
    pub fn without_db_mean_max(&self) -> (f64, i32) {
        if self.terms.iter().all(|t| matches!(t, Term::Db { .. })) {
            let none = DiceExpr::flat(0);
            return (none.mean(None, None), none.max(None));
        }
        (self.mean(None, None), self.max(None))
    }

    fn sum_by(&self, db: Option<&DiceExpr>, per_die: impl Fn(u32, bool) -> i64) -> i32 {
        let total = self.atoms(db).fold(0i64, |acc, atom| match atom {
            Atom::Dice {
                count,
                sides,
                negative,
            } => {
                let v = i64::from(count).saturating_mul(per_die(sides, negative));
                acc.saturating_add(if negative { -v } else { v })
            }
            Atom::Flat(n) => acc.saturating_add(n),
        });
        clamp_i32(total)
    }

    /// Lowest possible total (no explosions).
    pub fn min(&self, db: Option<&DiceExpr>) -> i32 {
        self.sum_by(
            db,
            |sides, negative| {
                if negative { i64::from(sides) } else { 1 }
            },
        )
    }

    /// Highest possible total without explosions.
    pub fn max(&self, db: Option<&DiceExpr>) -> i32 {
        self.sum_by(
            db,
            |sides, negative| {
                if negative { 1 } else { i64::from(sides) }
            },
        )
    }

    /// Exact expected total. With `explode_on: Some(s)`, dice of `s` sides
    /// explode on their maximum as with [`RollOptions::explode_sides`]; each
    /// such die's mean is `((s+1)/2) / (1 - 1/s)` (the explosion cap ignored).
    pub fn mean(&self, db: Option<&DiceExpr>, explode_on: Option<u32>) -> f64 {
        self.atoms(db)
            .map(|atom| match atom {
                Atom::Dice {
                    count,
                    sides,
                    negative,
                } => {
                    let s = f64::from(sides);
                    let mut per_die = (s + 1.0) / 2.0;
                    if explodes(explode_on, sides) {
                        per_die /= 1.0 - 1.0 / s;
                    }
                    let v = f64::from(count) * per_die;
                    if negative { -v } else { v }
                }
                Atom::Flat(n) => n as f64,
            })
            .sum()
    }

    /// Every total and its chance, exactly but for explosions: with
    /// `explode_on: Some(s)`, dice of `s` sides explode on their maximum
    /// (as [`DiceExpr::mean`] has them) up to `chain` extra rolls a die,
    /// the chance beyond that (at most `(1/s)^(chain+1)` a die) given to
    /// the last roll's maximum. Totals in order; chances sum to 1. For a
    /// preview's odds (how likely a blow takes someone out), not rolling.
    pub fn distribution(
        &self,
        db: Option<&DiceExpr>,
        explode_on: Option<u32>,
        chain: u32,
    ) -> Vec<(i32, f64)> {
        use std::collections::BTreeMap;
        let mut dist: BTreeMap<i64, f64> = BTreeMap::from([(0, 1.0)]);
        let add = |dist: &BTreeMap<i64, f64>, die: &[(i64, f64)]| {
            let mut out: BTreeMap<i64, f64> = BTreeMap::new();
            for (a, pa) in dist {
                for (b, pb) in die {
                    *out.entry(a + b).or_default() += pa * pb;
                }
            }
            out
        };
        for atom in self.atoms(db) {
            match atom {
                Atom::Dice {
                    count,
                    sides,
                    negative,
                } => {
                    // One die's faces, an exploding maximum rolled again.
                    let s = i64::from(sides.max(1));
                    let p = 1.0 / s as f64;
                    let mut die: Vec<(i64, f64)> = Vec::new();
                    let exploding = explodes(explode_on, sides) && s > 1;
                    let (mut base, mut weight) = (0i64, 1.0);
                    for depth in 0..=chain {
                        for face in 1..s {
                            die.push((base + face, weight * p));
                        }
                        if !exploding || depth == chain {
                            die.push((base + s, weight * p));
                            break;
                        }
                        base += s;
                        weight *= p;
                    }
                    let sign = if negative { -1 } else { 1 };
                    let die: Vec<(i64, f64)> =
                        die.into_iter().map(|(v, q)| (sign * v, q)).collect();
                    for _ in 0..count.min(64) {
                        dist = add(&dist, &die);
                    }
                }
                Atom::Flat(n) => dist = dist.into_iter().map(|(v, q)| (v + n, q)).collect(),
            }
        }
        dist.into_iter().map(|(v, q)| (clamp_i32(v), q)).collect()
    }
}
