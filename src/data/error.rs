//! Errors from loading data files, and the shared RON loader.

use std::path::Path;

use ron::Options;
use ron::extensions::Extensions;

use crate::rules::error::DataError;

/// Read and deserialize any RON file (the one loader levels, rulesets'
/// equipment and bestiaries all share), with the `IMPLICIT_SOME` extension.
/// IO errors are reported at line 0, column 0.
pub fn load_ron<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, DataError> {
    let text = read_capped(path)?;
    parse_ron(path, &text)
}

/// The largest data file Fray reads (a level, an equipment list, a
/// bestiary, settings): 1 MiB. The shipped ones are under 20 KiB; a bigger
/// file is refused before it is read whole (`/dev/zero` included).
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Read a data file as text, refusing one over [`MAX_FILE_BYTES`] or not
/// UTF-8.
pub fn read_capped(path: &Path) -> Result<String, DataError> {
    use std::io::Read;
    let cannot = |e: std::io::Error| DataError::new(path, (0, 0), format!("cannot read file: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(DataError::new(
            path,
            (0, 0),
            format!(
                "the file is over {} KiB; expected a data file under that",
                MAX_FILE_BYTES / 1024
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let text =
            String::from_utf8_lossy(&e.as_bytes()[..e.utf8_error().valid_up_to()]).to_string();
        DataError::new(
            path,
            line_col(&text, text.len()),
            "expected UTF-8 text but found bytes that are not",
        )
    })
}

/// Deserialize RON `text` that came from `file` (used in error messages).
pub fn parse_ron<T: serde::de::DeserializeOwned>(file: &Path, text: &str) -> Result<T, DataError> {
    Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| {
            let (line, column) = (e.span.start.line, e.span.start.col);
            let mut message = describe(&e.code);
            if matches!(e.code, ron::Error::ExpectedComma)
                && let Some(found) = found_at(text, line, column)
            {
                message = format!("{message} but found `{found}`");
            }
            DataError::new(file, (line, column), message)
        })
}

/// Back-quoted, comma-separated list: "`a`, `b`".
pub(crate) fn quoted_list<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(|s| format!("`{}`", s.as_ref()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A message for a RON error in the "expected … but found …" style.
fn describe(code: &ron::Error) -> String {
    use ron::Error as E;
    match code {
        E::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => {
            let what = outer
                .as_ref()
                .map(|o| format!(" for `{o}`"))
                .unwrap_or_default();
            format!(
                "expected one of {}{what} but found `{found}`",
                quoted_list(expected)
            )
        }
        E::NoSuchStructField {
            expected,
            found,
            outer,
        } => {
            let what = outer
                .as_ref()
                .map(|o| format!(" in `{o}`"))
                .unwrap_or_default();
            format!(
                "expected a field name{what} (one of {}) but found `{found}`",
                quoted_list(expected)
            )
        }
        E::MissingStructField { field, outer } => {
            let what = outer
                .as_ref()
                .map(|o| format!(" in `{o}`"))
                .unwrap_or_default();
            format!("expected field `{field}`{what} but it is missing")
        }
        E::DuplicateStructField { field, outer } => {
            let what = outer
                .as_ref()
                .map(|o| format!(" in `{o}`"))
                .unwrap_or_default();
            format!("field `{field}`{what} is given twice; expected it once")
        }
        E::ExpectedComma => "expected a comma `,` or a closing bracket".to_string(),
        other => {
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}

/// The word (or single character) at 1-based `line`/`column` of `text`.
fn found_at(text: &str, line: usize, column: usize) -> Option<String> {
    let rest: String = text
        .lines()
        .nth(line.checked_sub(1)?)?
        .chars()
        .skip(column.checked_sub(1)?)
        .collect();
    let first = rest.chars().next()?;
    if first.is_alphanumeric() || first == '_' {
        Some(
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect(),
        )
    } else {
        Some(first.to_string())
    }
}

/// 1-based line and column (in characters) of byte offset `at` in `text`.
/// Offsets past the end, or inside a character, are clamped back.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = 1 + before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = 1 + before[line_start..].chars().count();
    (line, column)
}

/// A bestiary's archetype must name only equipment its ruleset defines:
/// `items` are (kind, name, defined). The first undefined one is an error
/// at its place in the bestiary file (`text` is the file's contents).
pub fn check_archetype_equipment(
    file: &Path,
    text: &str,
    archetype: &str,
    items: &[(&str, &str, bool)],
) -> Result<(), DataError> {
    match items.iter().find(|(_, _, defined)| !defined) {
        None => Ok(()),
        Some((what, name, _)) => Err(DataError::new(
            file,
            locate(
                text,
                Some(&format!("\"{archetype}\"")),
                &format!("\"{name}\""),
            ),
            format!(
                "archetype `{archetype}` names {what} `{name}`, which equipment.ron does not define"
            ),
        )),
    }
}

/// For semantic errors found after parsing: the 1-based line and column of
/// the first occurrence of `needle` in `text` at or after the first
/// occurrence of `anchor`. A missing anchor searches from the start of the
/// file; a missing needle points at the anchor (or at 1:1).
pub fn locate(text: &str, anchor: Option<&str>, needle: &str) -> (usize, usize) {
    let from = anchor.and_then(|a| text.find(a)).unwrap_or(0);
    match text[from..].find(needle) {
        Some(i) => line_col(text, from + i),
        None => line_col(text, from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::collections::BTreeMap;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Sample {
        name: String,
        #[serde(default)]
        nick: Option<String>,
        kind: Kind,
        #[serde(default)]
        tags: BTreeMap<String, i32>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    enum Kind {
        Open,
        Wall,
    }

    fn p() -> &'static Path {
        Path::new("levels/x.ron")
    }

    #[test]
    fn parses_with_implicit_some() {
        let s: Sample = parse_ron(p(), "(name: \"a\", nick: \"b\", kind: Wall)").unwrap();
        assert_eq!(s.nick.as_deref(), Some("b"));
        assert_eq!(s.kind, Kind::Wall);
        let s: Sample = parse_ron(p(), "(name: \"a\", kind: Open, tags: {\"DEX\": 4})").unwrap();
        assert_eq!(s.nick, None);
        assert_eq!(s.tags.get("DEX"), Some(&4));
    }

    #[test]
    fn unknown_variant_position_and_message() {
        let text = "(\n    name: \"a\",\n    kind: Lava,\n)";
        let e = parse_ron::<Sample>(p(), text).unwrap_err();
        assert_eq!((e.line, e.column), (3, 11));
        assert_eq!(
            e.to_string(),
            "levels/x.ron:3:11: expected one of `Open`, `Wall` for `Kind` but found `Lava`"
        );
    }

    #[test]
    fn unknown_field_and_missing_field() {
        let e = parse_ron::<Sample>(p(), "(name: \"a\", kind: Open, colour: 3)").unwrap_err();
        assert_eq!((e.line, e.column), (1, 25));
        assert_eq!(
            e.message,
            "expected a field name in `Sample` (one of `name`, `nick`, `kind`, `tags`) but found `colour`"
        );
        let e = parse_ron::<Sample>(p(), "(name: \"a\")").unwrap_err();
        assert_eq!(
            e.message,
            "expected field `kind` in `Sample` but it is missing"
        );
        assert_eq!((e.line, e.column), (1, 11)); // the closing `)`
    }

    #[test]
    fn missing_comma_names_what_was_found() {
        let text = "(\n    name: \"a\"\n    kind: Open,\n)";
        let e = parse_ron::<Sample>(p(), text).unwrap_err();
        assert_eq!((e.line, e.column), (3, 5));
        assert_eq!(
            e.message,
            "expected a comma `,` or a closing bracket but found `kind`"
        );
        assert_eq!(found_at("ab\n  {x", 2, 3), Some("{".to_string()));
        assert_eq!(found_at("ab", 5, 1), None);
        assert_eq!(found_at("ab", 1, 9), None);
    }

    #[test]
    fn io_error_has_no_position() {
        let e = load_ron::<Sample>(Path::new("/nonexistent/dir/none.ron")).unwrap_err();
        assert_eq!((e.line, e.column), (0, 0));
        assert!(e.message.starts_with("cannot read file: "));
        assert!(
            e.to_string()
                .starts_with("/nonexistent/dir/none.ron: cannot read file")
        );
    }

    #[test]
    fn locate_and_line_col() {
        let text = "ab\ncd \"x\"\n  éé x\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(locate(text, None, "x"), (2, 5));
        assert_eq!(locate(text, Some("éé"), "x"), (3, 6));
        assert_eq!(locate(text, Some("cd"), "zz"), (2, 1));
        assert_eq!(locate(text, Some("nope"), "cd"), (2, 1));
        assert_eq!(locate(text, None, "nothing"), (1, 1));
        assert_eq!(line_col(text, 1000), (4, 1));
    }

    #[test]
    fn undefined_archetype_equipment_is_placed_in_the_bestiary() {
        let text = "{\n  \"archer\": (weapons: [\"bow\"]),\n  \"brute\": (weapons: [\"bow\", \"maul\"]),\n}\n";
        let f = Path::new("bestiary.ron");
        let ok = [("weapon", "bow", true)];
        assert!(check_archetype_equipment(f, text, "archer", &ok).is_ok());
        let items = [("weapon", "bow", true), ("weapon", "maul", false)];
        let e = check_archetype_equipment(f, text, "brute", &items).unwrap_err();
        assert_eq!((e.line, e.column), (3, 30));
        assert_eq!(
            e.message,
            "archetype `brute` names weapon `maul`, which equipment.ron does not define"
        );
    }
}
