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
