//! Where things are in a level file: the tokens' positions, found after
//! serde has accepted the file, so that every error names a line and column.

use std::path::Path;

use crate::data::error::line_col;
use crate::rules::error::DataError;
use crate::rules::level::EntrySpans;

use super::tokens::{Kind, Tok, tokenize};

/// Where an error points: a token, optionally a character inside a string token.
#[derive(Clone, Copy, Debug)]
pub(super) enum At {
    Tok(Option<usize>),
    Char(Option<usize>, usize),
}

/// The tokens of a file that serde has already accepted.
pub(super) struct Locator<'a> {
    text: &'a str,
    toks: Vec<Tok>,
}

impl<'a> Locator<'a> {
    /// The tokens of `text`, ready to be asked where things are.
    pub(super) fn new(text: &'a str) -> Self {
        Locator {
            text,
            toks: tokenize(text),
        }
    }

    pub(super) fn kind(&self, t: usize) -> Option<Kind> {
        self.toks.get(t).map(|t| t.kind)
    }

    pub(super) fn is_open(&self, t: usize) -> bool {
        matches!(self.kind(t), Some(Kind::Punct('(' | '[' | '{')))
    }

    pub(super) fn is_close(&self, t: usize) -> bool {
        matches!(self.kind(t), Some(Kind::Punct(')' | ']' | '}')))
    }

    /// The opening `(` of the top-level value, after any `#![...]` attributes
    /// and an optional struct name.
    pub(super) fn root(&self) -> Option<usize> {
        let mut t = 0;
        while self.kind(t) == Some(Kind::Punct('#')) {
            while self.kind(t).is_some() && self.kind(t) != Some(Kind::Punct('[')) {
                t += 1;
            }
            t = self.matching(t)? + 1;
        }
        self.open_of(t)
    }

    /// The token closing the bracket opened at `open`.
    pub(super) fn matching(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for t in open..self.toks.len() {
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(t);
                }
            }
        }
        None
    }

    /// For a value starting at `t` that is `(…)` or `Name(…)`, the `(`.
    pub(super) fn open_of(&self, t: usize) -> Option<usize> {
        match self.kind(t)? {
            Kind::Punct('(') => Some(t),
            Kind::Ident if self.kind(t + 1) == Some(Kind::Punct('(')) => Some(t + 1),
            _ => None,
        }
    }

    /// First tokens of the elements directly inside the bracket at `open`
    /// (for a map, its keys).
    pub(super) fn items(&self, open: usize) -> Vec<usize> {
        let mut out = Vec::new();
        if !self.is_open(open) {
            return out;
        }
        let mut depth = 0usize;
        let mut expect = true;
        for t in open + 1..self.toks.len() {
            if depth == 0 {
                if self.is_close(t) {
                    break;
                }
                if self.kind(t) == Some(Kind::Punct(',')) {
                    expect = true;
                    continue;
                }
                if expect {
                    out.push(t);
                    expect = false;
                }
            }
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth -= 1;
            }
        }
        out
    }

    /// The first token of the value of field `name` directly inside the
    /// struct opened at `open`.
    pub(super) fn field(&self, open: usize, name: &str) -> Option<usize> {
        let close = self.matching(open)?;
        let mut depth = 0usize;
        for t in open + 1..close {
            if depth == 0
                && self.kind(t) == Some(Kind::Ident)
                && self.kind(t + 1) == Some(Kind::Punct(':'))
                && self.slice(t) == name
            {
                return Some(t + 2);
            }
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth = depth.saturating_sub(1);
            }
        }
        None
    }

    /// The names of the fields directly inside the struct opened at `open`.
    pub(super) fn field_names(&self, open: usize) -> Vec<String> {
        let Some(close) = self.matching(open) else {
            return Vec::new();
        };
        let mut depth = 0usize;
        let mut out = Vec::new();
        for t in open + 1..close {
            if depth == 0
                && self.kind(t) == Some(Kind::Ident)
                && self.kind(t + 1) == Some(Kind::Punct(':'))
            {
                out.push(self.slice(t).to_string());
            }
            if self.is_open(t) {
                depth += 1;
            } else if self.is_close(t) {
                depth = depth.saturating_sub(1);
            }
        }
        out
    }

    /// Where the entry opened at `open` is, and the fields and strings in it.
    pub(super) fn entry_spans(&self, open: usize) -> EntrySpans {
        let mut out = EntrySpans {
            at: Some(
                self.pos_opt(
                    Some(open.saturating_sub(1))
                        .filter(|t| self.kind(*t) == Some(Kind::Ident))
                        .or(Some(open)),
                ),
            ),
            ..EntrySpans::default()
        };
        let close = self.matching(open).unwrap_or(open);
        for t in open + 1..close {
            match self.kind(t) {
                Some(Kind::Ident) if self.kind(t + 1) == Some(Kind::Punct(':')) => {
                    out.fields
                        .entry(self.slice(t).to_string())
                        .or_insert_with(|| self.pos_opt(Some(t + 2)));
                }
                Some(Kind::Str | Kind::PlainStr) => {
                    let text = self.slice(t);
                    let inner = text
                        .strip_prefix('"')
                        .and_then(|x| x.strip_suffix('"'))
                        .unwrap_or(text);
                    out.strings.push((inner.to_string(), self.pos_opt(Some(t))));
                }
                _ => {}
            }
        }
        out
    }

    pub(super) fn slice(&self, t: usize) -> &'a str {
        self.toks
            .get(t)
            .and_then(|t| self.text.get(t.start..t.end))
            .unwrap_or("")
    }

    /// The character of a `'c'` literal token without escapes.
    pub(super) fn char_value(&self, t: usize) -> Option<char> {
        if self.kind(t) != Some(Kind::Char) {
            return None;
        }
        let inner = self.slice(t).strip_prefix('\'')?.strip_suffix('\'')?;
        let mut chars = inner.chars();
        let c = chars.next()?;
        (chars.next().is_none() && c != '\\').then_some(c)
    }

    /// Line and column of a token, or 1:1 when unknown.
    pub(super) fn pos_opt(&self, t: Option<usize>) -> (usize, usize) {
        t.and_then(|t| self.toks.get(t))
            .map_or((1, 1), |tok| line_col(self.text, tok.start))
    }

    /// Line and column of an error location; a character inside a plain
    /// string points at that character.
    pub(super) fn pos_in(&self, at: At) -> (usize, usize) {
        match at {
            At::Tok(t) => self.pos_opt(t),
            At::Char(Some(t), index) if self.kind(t) == Some(Kind::PlainStr) => {
                let (line, column) = self.pos_opt(Some(t));
                (line, column + 1 + index)
            }
            At::Char(t, _) => self.pos_opt(t),
        }
    }
}

/// A check's complaint: the token it points at (the file's start when
/// unknown) and what was expected.
pub(super) type Found = (Option<usize>, String);

/// What every step of reading a level shares: the file's name, where its
/// tokens are, and its top-level value.
pub(super) struct Source<'a> {
    file: &'a Path,
    pub(super) loc: Locator<'a>,
    /// The `(` of the level's top-level value.
    pub(super) root: Option<usize>,
}

impl<'a> Source<'a> {
    /// The positions of `text`, read from `file`.
    pub(super) fn new(file: &'a Path, text: &'a str) -> Self {
        let loc = Locator::new(text);
        let root = loc.root();
        Source { file, loc, root }
    }

    /// An error pointing at token `t` (the file's start when unknown).
    pub(super) fn error(&self, t: Option<usize>, msg: String) -> DataError {
        DataError::new(self.file, self.loc.pos_opt(t), msg)
    }

    /// An error pointing at a check's complaint.
    pub(super) fn found(&self, (t, msg): Found) -> DataError {
        self.error(t, msg)
    }

    /// An error pointing at `at`, maybe a character inside a string.
    pub(super) fn error_in(&self, at: At, msg: String) -> DataError {
        DataError::new(self.file, self.loc.pos_in(at), msg)
    }

    /// The first token of the value of the top-level field `name`.
    pub(super) fn field(&self, name: &str) -> Option<usize> {
        self.root.and_then(|r| self.loc.field(r, name))
    }

    /// The `(` of each entry of the list whose `[` is `list`.
    pub(super) fn entries(&self, list: Option<usize>) -> Vec<Option<usize>> {
        list.map(|t| self.loc.items(t))
            .unwrap_or_default()
            .into_iter()
            .map(|t| self.loc.open_of(t))
            .collect()
    }

    /// Field `name` of entry `i` of a list, else the entry itself, else
    /// `list`.
    pub(super) fn entry_field(
        &self,
        entries: &[Option<usize>],
        i: usize,
        name: &str,
        list: Option<usize>,
    ) -> Option<usize> {
        let obj = entries.get(i).copied().flatten();
        obj.and_then(|o| self.loc.field(o, name)).or(obj).or(list)
    }
}
