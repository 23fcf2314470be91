//! Dice expressions (`1D8+2`, `1D6+½db`, `D%`), rolling them, and the battle's
//! single seeded source of randomness.
//!
//! Rolling order is deterministic: terms left to right (a `db` term expands in
//! place into the damage bonus's own terms, left to right), the dice of a term
//! one after another, and an exploding die's extra rolls immediately after it.
//! With the same seed and script, the same expression always rolls the same.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Most dice one term may roll (`1000D6`).
pub const MAX_DICE_COUNT: u32 = 1000;
/// Most sides a die may have.
pub const MAX_DIE_SIDES: u32 = 1_000_000;
/// Most extra rolls one exploding die may chain (a safety net; reaching it
/// with a real RNG is astronomically unlikely).
pub const MAX_EXPLOSIONS: u32 = 100;

/// One die result in a roll, for the battle log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub sides: u32,
    pub result: u32,
    /// This die was an extra roll caused by an explosion.
    pub exploded: bool,
    /// This die belongs to a subtracted term.
    pub negative: bool,
}

/// One signed term of an expression, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Term {
    Dice {
        count: u32,
        sides: u32,
        negative: bool,
    },
    /// A signed constant.
    Flat(i32),
    /// The damage bonus placeholder, `db` or (`half`) `½db`.
    Db { half: bool, negative: bool },
}

/// A term after the damage bonus has been substituted.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Atom {
    Dice {
        count: u32,
        sides: u32,
        negative: bool,
    },
    Flat(i64),
}

/// A term as an [`Atom`], halved (`½db`) and signed (`-db`) as the damage
/// bonus term it stands in for says; a damage bonus term is none (a damage
/// bonus cannot itself refer to a damage bonus, and with no bonus given
/// it adds nothing).
#[inline]
fn atom(term: &Term, half: bool, negative: bool) -> Option<Atom> {
    match *term {
        Term::Dice {
            count,
            sides,
            negative: inner_negative,
        } => Some(Atom::Dice {
            count,
            sides: if half { (sides / 2).max(1) } else { sides },
            negative: negative != inner_negative,
        }),
        Term::Flat(n) => {
            let n = i64::from(n);
            let n = if half { n / 2 } else { n };
            Some(Atom::Flat(if negative { -n } else { n }))
        }
        Term::Db { .. } => None,
    }
}

/// [`DiceExpr::atoms`]: the terms as they are, or with a damage bonus
/// substituted.
enum Atoms<P, S> {
    Plain(P),
    WithDb(S),
}

impl<P: Iterator<Item = Atom>, S: Iterator<Item = Atom>> Iterator for Atoms<P, S> {
    type Item = Atom;

    #[inline]
    fn next(&mut self) -> Option<Atom> {
        match self {
            Atoms::Plain(p) => p.next(),
            Atoms::WithDb(s) => s.next(),
        }
    }

    #[inline]
    fn fold<B, F: FnMut(B, Atom) -> B>(self, init: B, f: F) -> B {
        match self {
            Atoms::Plain(p) => p.fold(init, f),
            Atoms::WithDb(s) => s.fold(init, f),
        }
    }
}

/// A parsed dice expression: sums of terms like `1D8+2`, `2D6+2`, `d4`, `3D6`,
/// `2D10+3`, `1D6+½db`, `1D6+1/2db`, `1D8+2+db`, `1D3-1`, `5`, `d100`, `D%`
/// (=d100), case-insensitive `d`/`D`, optional leading sign, spaces allowed
/// around `+`/`-`.
///
/// `db` is a placeholder for a damage bonus supplied at roll time (itself a
/// `DiceExpr` such as `+1D4`, `-1D4`, `+2D6` or `0`); without one it counts as 0,
/// and a `db` inside the bonus itself counts as 0. `½db` / `1/2db` means half
/// of it: each die of the bonus halves its sides rounding down, at least 1
/// (1D4→1D2, 1D6→1D3, 2D6→2D3), flat parts halve rounding toward zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    /// Kept inline for up to three terms (every expression the rules'
    /// data writes): weapons, blows and their odds copy expressions
    /// thousands of times a battle, without a heap allocation each.
    terms: Terms,
}

type Terms = smallvec::SmallVec<[Term; 3]>;

/// How much of the damage bonus a `db` term adds: all of it (`db`) or half
/// (`½db`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DbShare {
    Full,
    Half,
}

/// How to roll a [`DiceExpr`].
#[derive(Clone, Debug, Default)]
pub struct RollOptions<'a> {
    /// The damage bonus that `db` / `½db` stand for.
    pub db: Option<&'a DiceExpr>,
    /// Exploding dice: whenever a die of `explode_sides` sides shows its
    /// maximum, roll it again and add (repeats while it keeps showing the max,
    /// at most [`MAX_EXPLOSIONS`] times). Applies to every die of that size,
    /// damage bonus and subtracted dice included; never to a d1. UD10 damage:
    /// `Some(10)`.
    pub explode_sides: Option<u32>,
}

/// The dice of a [`DiceRoll`]; serialised as a list.
pub type RolledDice = smallvec::SmallVec<[Die; 2]>;

/// The outcome of rolling a [`DiceExpr`], for the battle log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceRoll {
    /// The expression rolled, written in canonical text (`db` left
    /// unsubstituted).
    pub expr: Rolled,
    /// Every die rolled, in rolling order (kept inline up to two: most
    /// rolls are one die or two).
    pub dice: RolledDice,
    /// Sum of the constant parts (damage bonus included).
    pub flat: i32,
    /// Dice (subtracted ones negative) plus `flat`.
    pub total: i32,
}

/// What a [`DiceRoll`] rolled: an expression, or one rolled `times` times
/// and added up (written "2 x 1D8"). Kept as the expression and written
/// out only when the log is read or saved: a battle rolls hundreds of
/// times, and a simulation reads none of it. Its text, serialised, is the
/// same as [`DiceExpr`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rolled {
    Expr(DiceExpr),
    Times(u32, DiceExpr),
}

impl Rolled {
    /// `count` dice of `sides` (a check's d10, a d100).
    pub fn dice(count: u32, sides: u32) -> Rolled {
        Rolled::Expr(DiceExpr::dice(count, sides))
    }
}

impl fmt::Display for Rolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rolled::Expr(e) => e.fmt(f),
            Rolled::Times(n, e) => write!(f, "{n} x {e}"),
        }
    }
}

/// Is what was rolled written `text`? (Compared as it is written out,
/// without building the text.)
impl PartialEq<str> for Rolled {
    fn eq(&self, text: &str) -> bool {
        struct Against<'t>(Option<&'t str>);
        impl fmt::Write for Against<'_> {
            fn write_str(&mut self, part: &str) -> fmt::Result {
                self.0 = self.0.and_then(|rest| rest.strip_prefix(part));
                Ok(())
            }
        }
        let mut against = Against(Some(text));
        fmt::Write::write_fmt(&mut against, format_args!("{self}")).is_ok() && against.0 == Some("")
    }
}

impl PartialEq<&str> for Rolled {
    fn eq(&self, text: &&str) -> bool {
        *self == **text
    }
}

impl Serialize for Rolled {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rolled {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let expr = |e: &str| e.parse::<DiceExpr>().map_err(serde::de::Error::custom);
        match text.split_once(" x ") {
            Some((n, e)) => Ok(Rolled::Times(
                n.parse().map_err(serde::de::Error::custom)?,
                expr(e)?,
            )),
            None => expr(&text).map(Rolled::Expr),
        }
    }
}

impl DiceRoll {
    /// One die of `sides` that came up `result` (a save, a pick among
    /// options), for the log.
    pub fn one_die(sides: u32, result: u32) -> DiceRoll {
        DiceRoll {
            expr: Rolled::dice(1, sides),
            dice: smallvec::smallvec![Die {
                sides,
                result,
                exploded: false,
                negative: false,
            }],
            flat: 0,
            total: result as i32,
        }
    }
}

/// Why a dice expression could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceParseError {
    /// The whole text that was parsed.
    pub text: String,
    /// 0-based char index of the problem (Display shows it 1-based).
    pub position: usize,
    /// What was expected there.
    pub expected: String,
}

impl fmt::Display for DiceParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad dice expression `{}`: at character {} expected {}",
            self.text,
            self.position + 1,
            self.expected
        )
    }
}

impl std::error::Error for DiceParseError {}

const EXPECT_TERM: &str = "a dice term such as 1D6, a number, or db";
const EXPECT_SIDES: &str = "a number of sides";
const EXPECT_DB: &str = "db";

struct Parser<'t> {
    text: &'t str,
    chars: Vec<char>,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn error(&self, position: usize, expected: impl Into<String>) -> DiceParseError {
        DiceParseError {
            text: self.text.to_string(),
            position,
            expected: expected.into(),
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Reads a run of ASCII digits (at least one is present), saturating.
    fn number(&mut self) -> u64 {
        let mut value: u64 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value.saturating_mul(10).saturating_add(u64::from(d));
            self.pos += 1;
        }
        value
    }

    fn is_d(c: Option<char>) -> bool {
        matches!(c, Some('d' | 'D'))
    }

    fn is_b(c: Option<char>) -> bool {
        matches!(c, Some('b' | 'B'))
    }

    fn expect_db(&mut self) -> Result<(), DiceParseError> {
        if Self::is_d(self.peek()) && Self::is_b(self.peek_at(1)) {
            self.pos += 2;
            Ok(())
        } else {
            Err(self.error(self.pos, EXPECT_DB))
        }
    }

    /// Parses the sides after a consumed `d`.
    fn sides(&mut self) -> Result<u32, DiceParseError> {
        match self.peek() {
            Some('%') => {
                self.pos += 1;
                Ok(100)
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                let n = self.number();
                if (1..=u64::from(MAX_DIE_SIDES)).contains(&n) {
                    Ok(n as u32)
                } else {
                    Err(self.error(
                        start,
                        format!("a number of sides from 1 to {MAX_DIE_SIDES}"),
                    ))
                }
            }
            _ => Err(self.error(self.pos, EXPECT_SIDES)),
        }
    }

    /// Parses one term; returns it and whether it was a bare number.
    fn term(&mut self, negative: bool) -> Result<(Term, bool), DiceParseError> {
        match self.peek() {
            Some('½') => {
                self.pos += 1;
                self.expect_db()?;
                Ok((
                    Term::Db {
                        half: true,
                        negative,
                    },
                    false,
                ))
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                let n = self.number();
                if Self::is_d(self.peek()) {
                    self.pos += 1;
                    if !(1..=u64::from(MAX_DICE_COUNT)).contains(&n) {
                        return Err(self.error(
                            start,
                            format!("a number of dice from 1 to {MAX_DICE_COUNT}"),
                        ));
                    }
                    let sides = self.sides()?;
                    Ok((
                        Term::Dice {
                            count: n as u32,
                            sides,
                            negative,
                        },
                        false,
                    ))
                } else if n == 1 && self.peek() == Some('/') {
                    self.pos += 1;
                    if self.peek() != Some('2') {
                        return Err(self.error(self.pos, "`2` (as in 1/2db)"));
                    }
                    self.pos += 1;
                    self.expect_db()?;
                    Ok((
                        Term::Db {
                            half: true,
                            negative,
                        },
                        false,
                    ))
                } else {
                    let limit = if negative {
                        u64::from(i32::MIN.unsigned_abs())
                    } else {
                        i32::MAX as u64
                    };
                    if n > limit {
                        return Err(self.error(start, "a number that fits in 32 bits"));
                    }
                    let signed = if negative { -(n as i64) } else { n as i64 };
                    Ok((Term::Flat(signed as i32), true))
                }
            }
            c if Self::is_d(c) => {
                self.pos += 1;
                if Self::is_b(self.peek()) {
                    self.pos += 1;
                    Ok((
                        Term::Db {
                            half: false,
                            negative,
                        },
                        false,
                    ))
                } else {
                    let sides = self.sides()?;
                    Ok((
                        Term::Dice {
                            count: 1,
                            sides,
                            negative,
                        },
                        false,
                    ))
                }
            }
            _ => Err(self.error(self.pos, EXPECT_TERM)),
        }
    }

    fn expr(&mut self) -> Result<DiceExpr, DiceParseError> {
        let mut terms = Terms::new();
        self.skip_space();
        let mut negative = match self.peek() {
            Some('+') => {
                self.pos += 1;
                false
            }
            Some('-') => {
                self.pos += 1;
                true
            }
            _ => false,
        };
        loop {
            self.skip_space();
            let (term, bare_number) = self.term(negative)?;
            terms.push(term);
            let glued = self.pos;
            self.skip_space();
            negative = match self.peek() {
                None => break,
                Some('+') => false,
                Some('-') => true,
                Some(_) => {
                    let expected = if bare_number && glued == self.pos {
                        "`D`, `+`, `-` or the end of the expression"
                    } else {
                        "`+`, `-` or the end of the expression"
                    };
                    return Err(self.error(self.pos, expected));
                }
            };
            self.pos += 1;
        }
        Ok(DiceExpr { terms })
    }
}

impl DiceExpr {
    /// Parses an expression such as `2D6+2` or `1D6+½db`.
    pub fn parse(text: &str) -> Result<DiceExpr, DiceParseError> {
        Parser {
            text,
            chars: text.chars().collect(),
            pos: 0,
        }
        .expr()
    }

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

    /// The terms with the damage bonus substituted, in rolling order, one
    /// at a time (the AI weighs damage thousands of times a battle: no list
    /// is built). With no damage bonus given, the terms are read as they
    /// are (a `db` term adds nothing), without the substitution's nested
    /// iteration.
    fn atoms<'a>(&'a self, db: Option<&'a DiceExpr>) -> impl Iterator<Item = Atom> + 'a {
        match db {
            None => Atoms::Plain(self.terms.iter().filter_map(|t| atom(t, false, false))),
            Some(db) => Atoms::WithDb(self.terms.iter().flat_map(move |term| {
                // A term of its own, or the damage bonus's terms (halved
                // and signed as the term says) in its place.
                let (terms, half, negative): (&[Term], bool, bool) = match *term {
                    Term::Db { half, negative } => (db.terms.as_slice(), half, negative),
                    _ => (std::slice::from_ref(term), false, false),
                };
                terms
                    .iter()
                    .filter_map(move |inner| atom(inner, half, negative))
            })),
        }
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

    /// Rolls the expression; see the module docs for the rolling order.
    pub fn roll(&self, dice: &mut Dice, opts: &RollOptions) -> DiceRoll {
        let mut rolled = RolledDice::new();
        let mut dice_sum: i64 = 0;
        let mut flat: i64 = 0;
        for atom in self.atoms(opts.db) {
            match atom {
                Atom::Dice {
                    count,
                    sides,
                    negative,
                } => {
                    let sign = if negative { -1 } else { 1 };
                    for _ in 0..count {
                        let mut result = dice.roll_die(sides);
                        let mut exploded = false;
                        let mut extra = 0;
                        loop {
                            rolled.push(Die {
                                sides,
                                result,
                                exploded,
                                negative,
                            });
                            dice_sum = dice_sum.saturating_add(sign * i64::from(result));
                            if !(explodes(opts.explode_sides, sides)
                                && result == sides
                                && extra < MAX_EXPLOSIONS)
                            {
                                break;
                            }
                            extra += 1;
                            exploded = true;
                            result = dice.roll_die(sides);
                        }
                    }
                }
                Atom::Flat(n) => flat = flat.saturating_add(n),
            }
        }
        DiceRoll {
            expr: Rolled::Expr(self.clone()),
            dice: rolled,
            flat: clamp_i32(flat),
            total: clamp_i32(dice_sum.saturating_add(flat)),
        }
    }
}

fn explodes(explode_sides: Option<u32>, sides: u32) -> bool {
    sides >= 2 && explode_sides == Some(sides)
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
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

impl FromStr for DiceExpr {
    type Err = DiceParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

impl Serialize for DiceExpr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DiceExpr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = DiceExpr;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a dice expression such as \"1D10+2\"")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<DiceExpr, E> {
                DiceExpr::parse(v).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

/// A scripted die result that the die it was used for cannot show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// 1-based position in the script.
    pub index: usize,
    pub value: u32,
    pub sides: u32,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scripted die #{} is {}, which a d{} cannot show",
            self.index, self.value, self.sides
        )
    }
}

impl std::error::Error for ScriptError {}

/// The `i`-th seed of a family seeded with `seed` (SplitMix64): well
/// spread, and the same on every machine. Batch runs seed battle `i` with
/// it, the hard AI its playouts.
pub fn stream_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The one source of randomness in a battle: a seeded ChaCha8 RNG plus an
/// optional script of die results that are used first, in order (tests, and a
/// GM entering physical dice).
#[derive(Clone, Debug, bevy::prelude::Resource)]
pub struct Dice {
    rng: ChaCha8Rng,
    script: VecDeque<u32>,
    /// Scripted results taken since the script was set.
    consumed: usize,
    error: Option<ScriptError>,
}

impl Dice {
    /// RNG only, no script.
    pub fn seeded(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            script: VecDeque::new(),
            consumed: 0,
            error: None,
        }
    }

    /// Seeded RNG with `script` used first.
    pub fn with_script(seed: u64, script: Vec<u32>) -> Dice {
        let mut dice = Dice::seeded(seed);
        dice.set_script(script);
        dice
    }

    /// Resets the RNG to `seed` and clears the script and any error (batch
    /// simulation reuses one `Dice`).
    pub fn reseed(&mut self, seed: u64) {
        *self = Dice::seeded(seed);
    }

    /// Nothing drawn since the dice were seeded: no roll made, no scripted
    /// result taken.
    pub(crate) fn untouched(&self) -> bool {
        self.rng.get_word_pos() == 0 && self.consumed == 0 && self.error.is_none()
    }

    /// Replaces the script; numbering (for [`ScriptError::index`]) restarts at
    /// 1 and any recorded error is cleared. The RNG is untouched.
    pub fn set_script(&mut self, script: Vec<u32>) {
        self.script = script.into();
        self.consumed = 0;
        self.error = None;
    }

    /// Roll one die with `sides` sides (1..=sides). Takes the next scripted
    /// result if any; a scripted result outside 1..=sides records a
    /// ScriptError (first one only) and the RNG is used instead. `sides == 0`
    /// returns 0 and uses nothing.
    pub fn roll_die(&mut self, sides: u32) -> u32 {
        if sides == 0 {
            return 0;
        }
        if let Some(value) = self.script.pop_front() {
            self.consumed += 1;
            if (1..=sides).contains(&value) {
                return value;
            }
            if self.error.is_none() {
                self.error = Some(ScriptError {
                    index: self.consumed,
                    value,
                    sides,
                });
            }
        }
        self.rng.random_range(1..=sides)
    }

    /// The first scripted result that did not fit its die, if any.
    pub fn error(&self) -> Option<&ScriptError> {
        self.error.as_ref()
    }

    /// Scripted results not used yet.
    pub fn script_left(&self) -> usize {
        self.script.len()
    }

    /// Uniform index in 0..n from the RNG only (never from the script): for AI
    /// choices and shuffles. n==0 returns 0.
    pub fn pick(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.rng.random_range(0..n)
        }
    }

    /// Uniform f64 in [0,1) from the RNG only.
    pub fn unit(&mut self) -> f64 {
        self.rng.random::<f64>()
    }
}

#[cfg(test)]
mod tests;
