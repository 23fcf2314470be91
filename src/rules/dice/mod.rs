//! Dice expressions (`1D8+2`, `1D6+½db`, `D%`), rolling them, and the battle's
//! single seeded source of randomness.
//!
//! Rolling order is deterministic: terms left to right (a `db` term expands in
//! place into the damage bonus's own terms, left to right), the dice of a term
//! one after another, and an exploding die's extra rolls immediately after it.
//! With the same seed and script, the same expression always rolls the same.

mod expr;
mod odds;
mod parse;
mod roll;

use std::collections::VecDeque;
use std::fmt;

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

impl DiceExpr {
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
}

/// Whether a die of `sides` explodes when `explode_sides` is asked.
fn explodes(explode_sides: Option<u32>, sides: u32) -> bool {
    sides >= 2 && explode_sides == Some(sides)
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
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
