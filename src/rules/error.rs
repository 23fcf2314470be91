//! The error every set-up of a battle reports: a data file's problem with
//! its file, line and column (1-based) and what was expected. The core's
//! hooks return it; `src/data/` makes it from what it reads.

use std::fmt;
use std::path::{Path, PathBuf};

/// A loading error that names the file, line and column (1-based) and what
/// was expected. Line and column are 0 when the file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl DataError {
    /// An error at `(line, column)` of `file`.
    pub fn new(file: &Path, (line, column): (usize, usize), message: impl Into<String>) -> Self {
        DataError {
            file: file.to_path_buf(),
            line,
            column,
            message: message.into(),
        }
    }
}

impl fmt::Display for DataError {
    /// `file:line:column: message`, or `file: message` without a position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.column,
                self.message
            )
        }
    }
}

impl std::error::Error for DataError {}

/// What a ruleset finds wrong with a combatant a level defines (an unknown
/// archetype, stat or piece of gear; a start it cannot play), and what in
/// the level's entry it is about, so the error can point there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefError {
    pub at: DefAt,
    pub message: String,
}

/// What in a combatant's entry an error is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefAt {
    /// The entry as a whole.
    Entry,
    /// The value of a field (`archetype`, `weapons`, `stats`).
    Field(&'static str),
    /// A string written in the entry (`"DEX"`, `"longsword"`).
    Value(String),
}

impl DefError {
    pub fn entry(message: impl Into<String>) -> Self {
        DefError {
            at: DefAt::Entry,
            message: message.into(),
        }
    }
    pub fn field(field: &'static str, message: impl Into<String>) -> Self {
        DefError {
            at: DefAt::Field(field),
            message: message.into(),
        }
    }
    pub fn value(value: impl Into<String>, message: impl Into<String>) -> Self {
        DefError {
            at: DefAt::Value(value.into()),
            message: message.into(),
        }
    }
}

impl fmt::Display for DefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
