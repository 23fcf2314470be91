//! Reading a dice expression from its text (`1D8+2`, `1D6+½db`, `D%`),
//! every error naming the position and what was expected.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer};

use super::{DiceExpr, DiceParseError, MAX_DICE_COUNT, MAX_DIE_SIDES, Term, Terms};

pub(super) const EXPECT_TERM: &str = "a dice term such as 1D6, a number, or db";
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
            Some(c) if c.is_ascii_digit() => self.numbered_term(negative),
            c if Self::is_d(c) => self.d_term(negative),
            _ => Err(self.error(self.pos, EXPECT_TERM)),
        }
    }

    /// A term that starts with a number: dice (`2D6`), half the damage
    /// bonus (`1/2db`), or a flat number; returns it and whether it was a
    /// bare number.
    fn numbered_term(&mut self, negative: bool) -> Result<(Term, bool), DiceParseError> {
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

    /// A term that starts with `d`: the damage bonus (`db`) or one die
    /// (`d6`, `D%`).
    fn d_term(&mut self, negative: bool) -> Result<(Term, bool), DiceParseError> {
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
}

impl FromStr for DiceExpr {
    type Err = DiceParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
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
