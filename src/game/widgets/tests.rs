use super::*;

/// The string literals of a Rust source (comments skipped): what can
/// reach the screen from the code.
fn rust_strings(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = src.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            // A char literal ('x', '\n', '▶'); a lifetime has no
            // closing quote two or three characters on.
            '\'' if !prev.is_alphanumeric() => {
                let rest: String = chars.clone().take(3).collect();
                if let Some(end) = rest.find('\'').filter(|e| *e > 0) {
                    let lit: String = rest[..end].to_string();
                    for _ in 0..lit.chars().count() + 1 {
                        chars.next();
                    }
                    out.push(lit);
                }
            }
            // A raw string: r"..." or r#"..."# (its quotes are text).
            'r' if !prev.is_alphanumeric()
                && prev != '_'
                && matches!(chars.peek(), Some('#') | Some('"')) =>
            {
                let mut hashes = 0;
                while chars.peek() == Some(&'#') {
                    chars.next();
                    hashes += 1;
                }
                if chars.peek() == Some(&'"') {
                    chars.next();
                    let close: String = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let mut s = String::new();
                    for c in chars.by_ref() {
                        s.push(c);
                        if s.ends_with(&close) {
                            s.truncate(s.len() - close.len());
                            break;
                        }
                    }
                    out.push(s);
                }
            }
            '"' => {
                let mut s = String::new();
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                    s.push(c);
                }
                out.push(s);
            }
            _ => {}
        }
        prev = c;
    }
    out
}

/// The string literals of a RON file (comments skipped).
fn ron_strings(src: &str) -> Vec<String> {
    rust_strings(src)
}

fn files(dir: &std::path::Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Every character outside ASCII in the code's strings and the data's
/// (level names, descriptions, weapons) is one the game's fonts draw:
/// a glyph they lack shows as an empty box ("▼" did, on the log's
/// button).
#[test]
fn every_glyph_the_ui_writes_is_in_its_fonts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("src"), "rs", &mut paths);
    let rust = paths.len();
    files(&root.join("levels"), "ron", &mut paths);
    files(&root.join("assets"), "ron", &mut paths);
    assert!(rust > 100 && paths.len() > rust + 10, "{}", paths.len());
    let mut missing = Vec::new();
    let mut checked = 0;
    for (i, p) in paths.iter().enumerate() {
        let src = std::fs::read_to_string(p).expect("a source file");
        let strings = if i < rust {
            rust_strings(&src)
        } else {
            ron_strings(&src)
        };
        for s in strings {
            checked += s.chars().filter(|c| !c.is_ascii()).count();
            for c in missing_glyphs(&s) {
                missing.push(format!(
                    "{c:?} (U+{:04X}) in {}: {s:?}",
                    c as u32,
                    p.display()
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} characters outside ASCII found"
    );
    assert!(
        missing.is_empty(),
        "glyphs the fonts lack:\n{}",
        missing.join("\n")
    );
}

fn seen(kind: Option<&str>, role: egui::accesskit::Role, at: bool, enabled: bool) -> Seen {
    Seen {
        id: egui::Id::new((kind, at, enabled)),
        kind: kind.map(str::to_string),
        at: at.then(|| egui::pos2(10.0, 10.0)),
        enabled,
        clipped: false,
        role: Some(role),
        label: Some("Label".into()),
    }
}

/// The count fails on a kind drawn and never clicked, and on a control
/// drawn without a kind; a greyed-out kind, a covered one and egui's
/// own furniture (a scroll bar) are not owed a click.
#[test]
fn the_count_fails_on_what_was_drawn_and_not_clicked() {
    use egui::accesskit::Role;
    let mut a = Audit::default();
    let pass = [
        seen(Some("menu: resume"), Role::Button, true, true),
        seen(Some("log: rules"), Role::CheckBox, true, true),
        seen(Some("action: end turn"), Role::Button, true, false),
        seen(Some("battle: help"), Role::Button, false, true),
        seen(None, Role::ScrollBar, true, true),
        seen(None, Role::Button, true, true),
    ];
    // A flash of one pass is not counted.
    a.observe(
        "battle",
        &[seen(Some("tool: flash"), Role::Button, true, true)],
    );
    a.observe("battle", &pass);
    assert!(a.drawn.is_empty(), "{:?}", a.drawn);
    a.observe("battle", &pass);
    a.clicked.insert("menu: resume".into());
    let (report, fails) = a.report();
    assert!(report.starts_with("widgets: 2 kinds drawn, 1 clicked; 1 only greyed out"));
    assert_eq!(
        fails,
        vec![
            "log: rules: drawn, never clicked".to_string(),
            "a Button \"Label\" on the battle screen has no kind (Tag::tag)".to_string(),
        ]
    );
}

/// The scanner finds strings and characters, not comments.
#[test]
fn the_string_scanner_skips_comments() {
    // (Written with escapes: this file's own strings are scanned too.)
    let src = "// a \u{25BC} comment\nlet a = \"\u{25B6} x\"; /* \u{25C6} */ let b = '\u{23F8}'; \
               fn f<'a>(x: &'a str) {}\nlet c = \"q\\\"\u{25BC}\"; \
               let r = r#\"(a: \"\u{B7}\")\"#; let t = tr;";
    assert_eq!(
        rust_strings(src),
        vec!["\u{25B6} x", "\u{23F8}", "q\\\"\u{25BC}", "(a: \"\u{B7}\")"]
    );
}
