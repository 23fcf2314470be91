//! A forgiving RON tokenizer used only to find where things are, after
//! serde has already accepted the file. Skips whitespace and comments.

/// Kinds of token the locator distinguishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Ident,
    Str,
    /// A plain string without escapes: its characters map 1:1 onto the file.
    PlainStr,
    Char,
    Punct(char),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Tok {
    pub(super) kind: Kind,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// The tokens of `text`, in order, without whitespace and comments.
pub(super) fn tokenize(text: &str) -> Vec<Tok> {
    let mut scan = Scan {
        chars: text.char_indices().collect(),
        len: text.len(),
        i: 0,
    };
    let mut toks = Vec::new();
    while let Some(c) = scan.at(0) {
        let start = scan.i;
        if c.is_whitespace() {
            scan.i += 1;
            continue;
        }
        if c == '/' && scan.at(1) == Some('/') {
            scan.line_comment();
            continue;
        }
        if c == '/' && scan.at(1) == Some('*') {
            scan.block_comment();
            continue;
        }
        let kind = scan.token(c);
        toks.push(Tok {
            kind,
            start: scan.offset(start),
            end: scan.offset(scan.i),
        });
    }
    toks
}

/// A cursor over the file's characters.
struct Scan {
    chars: Vec<(usize, char)>,
    /// The file's length in bytes: the offset past its last character.
    len: usize,
    /// The character the cursor is on.
    i: usize,
}

impl Scan {
    /// The character `k` after the cursor.
    fn at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).map(|&(_, c)| c)
    }

    /// The byte offset of character `i`.
    fn offset(&self, i: usize) -> usize {
        self.chars.get(i).map_or(self.len, |&(o, _)| o)
    }

    /// Skips a `//` comment up to its line break.
    fn line_comment(&mut self) {
        while self.at(0).is_some_and(|c| c != '\n') {
            self.i += 1;
        }
    }

    /// Skips a `/* … */` comment, nested ones included.
    fn block_comment(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.at(0) {
            if c == '/' && self.at(1) == Some('*') {
                depth += 1;
                self.i += 2;
            } else if c == '*' && self.at(1) == Some('/') {
                depth -= 1;
                self.i += 2;
                if depth == 0 {
                    break;
                }
            } else {
                self.i += 1;
            }
        }
    }

    /// Reads the token starting with `c` and says its kind.
    fn token(&mut self, c: char) -> Kind {
        if c == '"' {
            self.string()
        } else if c == 'r' && matches!(self.at(1), Some('"' | '#')) {
            self.raw_string()
        } else if c == '\'' {
            self.char_literal()
        } else if c.is_alphanumeric() || c == '_' {
            while self
                .at(0)
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            {
                self.i += 1;
            }
            Kind::Ident
        } else {
            self.i += 1;
            Kind::Punct(c)
        }
    }

    /// A `"…"` string: plain when it holds no escape.
    fn string(&mut self) -> Kind {
        self.i += 1;
        let mut plain = true;
        while let Some(c) = self.at(0) {
            self.i += 1;
            if c == '\\' {
                plain = false;
                self.i += 1;
            } else if c == '"' {
                break;
            }
        }
        if plain { Kind::PlainStr } else { Kind::Str }
    }

    /// A raw string `r#"…"#`, with any number of `#`.
    fn raw_string(&mut self) -> Kind {
        let mut hashes = 0;
        self.i += 1;
        while self.at(0) == Some('#') {
            hashes += 1;
            self.i += 1;
        }
        self.i += 1; // opening quote
        while let Some(c) = self.at(0) {
            self.i += 1;
            if c == '"' && (0..hashes).all(|k| self.at(k) == Some('#')) {
                self.i += hashes;
                break;
            }
        }
        Kind::Str
    }

    /// A `'c'` character literal, escaped or not.
    fn char_literal(&mut self) -> Kind {
        self.i += 1;
        if self.at(0) == Some('\\') {
            self.i += 2;
            while self.at(0).is_some_and(|c| c != '\'') {
                self.i += 1;
            }
        } else {
            self.i += 1;
        }
        self.i += 1; // closing quote
        Kind::Char
    }
}
