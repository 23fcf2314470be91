//! Building and combining dice expressions, and writing them out.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{DbShare, DiceExpr, Term, Terms};

impl DiceExpr {
    /// `count` dice of `sides` ("1D10").
    pub fn dice(count: u32, sides: u32) -> DiceExpr {
        DiceExpr {
            terms: smallvec::smallvec![Term::Dice {
                count,
                sides,
                negative: false,
            }],
        }
    }

    /// A constant expression.
    pub fn flat(n: i32) -> DiceExpr {
        DiceExpr {
            terms: smallvec::smallvec![Term::Flat(n)],
        }
    }

    /// Whether the expression has a `db` or `½db` term.
    pub fn uses_db(&self) -> bool {
        self.terms.iter().any(|t| matches!(t, Term::Db { .. }))
    }

    /// The share of the damage bonus the expression adds, for a ruleset
    /// that rolls the bonus apart (brp §5.9: "½ damage bonus means roll and
    /// divide by 2, rounding up"): its first `db` term, if any, and whether
    /// that term is subtracted.
    pub fn db_share(&self) -> Option<(DbShare, bool)> {
        self.terms.iter().find_map(|t| match *t {
            Term::Db { half, negative } => {
                Some((if half { DbShare::Half } else { DbShare::Full }, negative))
            }
            _ => None,
        })
    }

    /// How many `db` terms the expression has (a ruleset's data may allow
    /// only one).
    pub fn db_terms(&self) -> usize {
        self.terms
            .iter()
            .filter(|t| matches!(t, Term::Db { .. }))
            .count()
    }

    /// The sum of two expressions, like dice merged (`4D6` plus `1D6` is
    /// `5D6`, `1D4+1` plus `2` is `1D4+3`).
    pub fn plus(&self, other: &DiceExpr) -> DiceExpr {
        let mut terms = self.terms.clone();
        for t in &other.terms {
            let merged = terms.iter_mut().any(|have| match (have, t) {
                (
                    Term::Dice {
                        count,
                        sides,
                        negative,
                    },
                    Term::Dice {
                        count: c,
                        sides: s,
                        negative: n,
                    },
                ) if sides == s && negative == n => {
                    *count = count.saturating_add(*c);
                    true
                }
                (Term::Flat(a), Term::Flat(b)) => {
                    *a = a.saturating_add(*b);
                    true
                }
                _ => false,
            });
            if !merged {
                terms.push(*t);
            }
        }
        // A zero left beside dice says nothing.
        if terms.len() > 1 {
            terms.retain(|t| *t != Term::Flat(0));
        }
        DiceExpr { terms }
    }

    /// The expression with its `db` terms left out: the weapon's own dice.
    pub fn without_db(&self) -> DiceExpr {
        let terms: Terms = self
            .terms
            .iter()
            .copied()
            .filter(|t| !matches!(t, Term::Db { .. }))
            .collect();
        if terms.is_empty() {
            DiceExpr::flat(0)
        } else {
            DiceExpr { terms }
        }
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, term) in self.terms.iter().enumerate() {
            let negative = match *term {
                Term::Dice { negative, .. } | Term::Db { negative, .. } => negative,
                Term::Flat(n) => n < 0,
            };
            if negative {
                f.write_str("-")?;
            } else if i > 0 {
                f.write_str("+")?;
            }
            match *term {
                Term::Dice { count, sides, .. } => write!(f, "{count}D{sides}")?,
                Term::Flat(n) => write!(f, "{}", n.unsigned_abs())?,
                Term::Db { half: true, .. } => f.write_str("½db")?,
                Term::Db { half: false, .. } => f.write_str("db")?,
            }
        }
        Ok(())
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
