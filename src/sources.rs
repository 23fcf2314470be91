//! The shape of the house, checked on the sources themselves
//! (`docs/architecture.md`, "The layering, checked"): the rules core names
//! nothing above it; its files, the board's and each ruleset's import one
//! another without a circle; a ruleset writes state only in its apply;
//! files and functions stay short enough to hold; every event is a struct,
//! applied and narrated through one match. (Each ruleset folder's
//! reading-never-imports-writing check: `rulesets::layering`.) Test code is
//! left out: a test of the core may play a shipped ruleset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (the rulesets' own layering checks use it
/// too).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's code without its test module and without comment lines.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The words of `s`, split at anything not part of a Rust name.
fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// The modules of `among` that `code` names: through `base` (a path such
/// as `crate::rules`) or `super`, alone or in a `use base::{..}` group.
fn named(code: &str, base: &str, among: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for prefix in [format!("{base}::"), "super::".to_string()] {
        let mut rest = code;
        while let Some(i) = rest.find(&prefix) {
            rest = &rest[i + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `use base::{a, b::C, c}`: the first word of each item.
                let inner = &group[..group.find('}').unwrap_or(group.len())];
                for item in inner.split(',') {
                    if let Some(w) = words(item).next() {
                        out.push(w.to_string());
                    }
                }
            } else if let Some(w) = words(rest).next() {
                out.push(w.to_string());
            }
        }
    }
    out.retain(|m| among.contains(m));
    out.sort();
    out.dedup();
    out
}

/// The import graph of the files of `dir` (a file in a subfolder counts
/// as the subfolder's module): each module and the modules it names.
fn graph(dir: &Path, base: &str) -> BTreeMap<String, Vec<String>> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    let module = |f: &Path| -> String {
        let rel = f.strip_prefix(dir).unwrap_or(f);
        let first = rel.components().next().map_or(String::new(), |c| {
            c.as_os_str().to_string_lossy().to_string()
        });
        first.trim_end_matches(".rs").to_string()
    };
    let mut code: BTreeMap<String, String> = BTreeMap::new();
    for f in &files {
        let m = module(f);
        if m == "mod" || m == "tests" || f.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("readable source");
        code.entry(m).or_default().push_str(&code_of(&text));
    }
    let mods: Vec<String> = code.keys().cloned().collect();
    code.iter()
        .map(|(m, c)| {
            let mut to = named(c, base, &mods);
            to.retain(|t| t != m);
            (m.clone(), to)
        })
        .collect()
}

/// The circles of a graph: each set of two or more modules that reach one
/// another (Tarjan's strongly connected components).
fn circles(g: &BTreeMap<String, Vec<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        g: &'a BTreeMap<String, Vec<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut walk = Walk {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out
}

/// What a file of the core names above it: `crate::x` for any `x` but
/// `rules`.
fn upward(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(w) = words(rest).next()
            && w != "rules"
        {
            out.push(w.to_string());
        }
    }
    out
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_core_names_nothing_above_it() {
    let mut files = Vec::new();
    rust_files(&src().join("rules"), &mut files);
    let mut bad = Vec::new();
    for f in files {
        if f.ends_with("tests.rs") || f.components().any(|c| c.as_os_str() == "tests") {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (n, line) in code_of(&text).lines().enumerate() {
            for up in upward(line) {
                bad.push(format!("{}:{}: names crate::{up}", f.display(), n + 1));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "the core names what is above it (the composition root, rulesets::add_rules, puts them together):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_core_s_files_import_one_another_without_a_circle() {
    let g = graph(&src().join("rules"), "crate::rules");
    assert!(g.len() > 15, "the core's files were found: {g:?}");
    assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{g:#?}");
}

#[test]
fn the_board_s_files_import_one_another_without_a_circle() {
    let dir = src().join("game/battle/view");
    let g = graph(&dir, "crate::game::battle::view");
    assert!(g.len() > 5, "the board's files were found: {g:?}");
    assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{g:#?}");
}

#[test]
fn a_ruleset_s_files_import_one_another_without_a_circle() {
    let root = src().join("rulesets");
    let mut seen = 0;
    for e in std::fs::read_dir(&root).expect("src/rulesets").flatten() {
        let dir = e.path();
        let Some(id) = dir.file_name().and_then(|n| n.to_str()).map(String::from) else {
            continue;
        };
        if !dir.is_dir() {
            continue;
        }
        let g = graph(&dir, &format!("crate::rulesets::{id}"));
        assert_eq!(circles(&g), Vec::<Vec<String>>::new(), "{id}: {g:#?}");
        seen += 1;
    }
    assert!(seen >= 3, "ud10, zones and brp at least");
}

#[test]
fn the_checks_see_a_planted_violation() {
    // An upward name, in a path and in a `use`.
    assert_eq!(
        upward("let x = crate::rulesets::plugin(app);"),
        ["rulesets"]
    );
    assert_eq!(upward("use crate::data::level::load_level;"), ["data"]);
    assert!(upward("use crate::rules::battle::Battle;").is_empty());
    // A circle through a group import and a path, and one through super.
    let mods: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    assert_eq!(
        named("use crate::rules::{b::X, c};", "crate::rules", &mods),
        ["b", "c"]
    );
    assert_eq!(named("super::a::f()", "crate::rules", &mods), ["a"]);
    let g: BTreeMap<String, Vec<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(circles(&g), vec![vec!["a", "b", "c"]]);
    // A file planted in a copy of the core that names the one above it.
    let dir = std::env::temp_dir().join(format!("fray-sources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("x.rs"), "use crate::rules::y::Y;\n").expect("written");
    std::fs::write(dir.join("y.rs"), "pub fn f() { super::x::g() }\n").expect("written");
    let planted = circles(&graph(&dir, "crate::rules"));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(planted, vec![vec!["x", "y"]]);
}

/// What in a ruleset's file reaches the world to write it, outside its
/// apply: a `&mut World`, a `resource_mut`. Its writers are handed a
/// [`crate::rules::scene::Scene`], which gives neither, so these would be a
/// way around it. `mod.rs` passes the world to the ruleset's `apply` and to
/// `equip` (a combatant's gear, set up before the battle, not a change in
/// it); nothing else there may.
fn writes_outside_apply(file: &str, text: &str) -> Vec<String> {
    let code = code_of(text);
    if file == "apply.rs" {
        return Vec::new();
    }
    let mut found = Vec::new();
    for line in code.lines() {
        let allowed = file == "mod.rs"
            && (line.trim_start().starts_with("fn equip(")
                || line.trim_start().starts_with("fn apply("));
        if (line.contains("&mut World") && !allowed)
            || line.contains("resource_mut")
            || line.contains("view::write")
        {
            found.push(format!("{file}: {}", line.trim()));
        }
    }
    found
}

#[test]
fn a_ruleset_writes_state_only_in_apply() {
    let mut found = Vec::new();
    for dir in std::fs::read_dir(src().join("rulesets")).expect("the rulesets folder") {
        let dir = dir.expect("a folder entry").path();
        if !dir.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        for f in files {
            if f.components().any(|c| c.as_os_str() == "tests") {
                continue;
            }
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let text = std::fs::read_to_string(&f).expect("readable source");
            found.extend(
                writes_outside_apply(name, &text)
                    .into_iter()
                    .map(|l| format!("{}/{l}", dir.display())),
            );
        }
    }
    assert!(found.is_empty(), "state written outside apply: {found:#?}");
    // Planted: an executor that takes the world, or writes a resource.
    assert_eq!(
        writes_outside_apply("attack.rs", "fn execute(world: &mut World) {}").len(),
        1
    );
    assert_eq!(
        writes_outside_apply(
            "round.rs",
            "fn f(w: &Scene) { view::resource_mut::<Battle>(w).phase = p; }\n"
        )
        .len(),
        1
    );
    assert_eq!(
        writes_outside_apply("mod.rs", "    fn advance(world: &mut World) {}\n").len(),
        1
    );
    assert!(writes_outside_apply("mod.rs", "    fn equip(world: &mut World) {}\n").is_empty());
}

/// The most lines a file of code may have (its inline test module
/// counted), and a function (from its `fn` line to its closing brace):
/// a file a reader can hold, a function a screen long.
const FILE_LINES: usize = 600;
const FN_LINES: usize = 80;

/// Files of tests (a `tests` folder, a `tests.rs`): not held to the
/// limits.
fn is_test_file(f: &Path) -> bool {
    f.components().any(|c| c.as_os_str() == "tests") || f.ends_with("tests.rs")
}

/// The functions of `text`'s code (its test module left out) longer than
/// `most` lines, with their lengths. A function is found by its `fn`
/// line; its signature runs to the line ending in `{` (or it is one line,
/// ending in `}`), and its body to the `}` at its own indent (the code is
/// rustfmt's).
fn long_functions(text: &str, most: usize) -> Vec<(String, usize)> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let lines: Vec<&str> = code.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let sig = [
            "fn ",
            "pub fn ",
            "pub(crate) fn ",
            "pub(super) fn ",
            "const fn ",
        ]
        .iter()
        .chain(&["unsafe fn ", "pub unsafe fn ", "pub(super) unsafe fn "])
        .find_map(|p| body.strip_prefix(p));
        let Some(sig) = sig else { continue };
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // The signature's last line: a declaration (`;`) or a one-liner.
        let Some(open) = (i..lines.len()).find(|&j| {
            let t = lines[j].trim_end();
            t.ends_with('{') || t.ends_with(';') || t.ends_with('}')
        }) else {
            continue;
        };
        if !lines[open].trim_end().ends_with('{') {
            continue;
        }
        let close = format!("{indent}}}");
        let Some(end) = (open + 1..lines.len()).find(|&j| lines[j].trim_end() == close) else {
            continue;
        };
        let n = end - i + 1;
        if n > most {
            long.push((name, n));
        }
    }
    long
}

#[test]
fn files_and_functions_a_reader_can_hold() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut over = Vec::new();
    for f in files.iter().filter(|f| !is_test_file(f)) {
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).expect("readable source");
        let n = text.lines().count();
        if n > FILE_LINES {
            over.push((rel.clone(), String::new(), n));
        }
        for (name, n) in long_functions(&text, FN_LINES) {
            over.push((rel.clone(), name, n));
        }
    }
    assert!(
        over.is_empty(),
        "over {FILE_LINES} lines a file or {FN_LINES} a function (split by responsibility): {over:#?}"
    );
}

#[test]
fn the_length_check_sees_a_long_function() {
    let body = "    let x = 1;\n".repeat(FN_LINES);
    let text = format!(
        "/// A long one.\npub fn long() {{\n{body}}}\n\nfn short() {{\n    1\n}}\n\nfn one() -> u8 {{ 1 }}\n\nimpl X {{\n    fn inner(&self) {{\n{body}    }}\n}}\n"
    );
    assert_eq!(
        long_functions(&text, FN_LINES),
        vec![
            ("long".to_string(), FN_LINES + 2),
            ("inner".to_string(), FN_LINES + 2)
        ]
    );
    assert!(is_test_file(Path::new("src/rules/view/tests.rs")));
    assert!(is_test_file(Path::new(
        "src/rulesets/zones/tests/mounts.rs"
    )));
    assert!(!is_test_file(Path::new("src/rules/view/scope.rs")));
}

/// What breaks the one style of events: a variant of an event enum with
/// fields of its own (`Moved { who, .. }`) rather than the event's struct
/// (`Moved(Moved)`), and, in a `narrate.rs` or an `apply.rs`, a second
/// match on the enum (`let BattleEvent::Moved(..) = event else`) or an
/// `unreachable!` closing a chain of partial matches. Each event's
/// function takes its event's struct, behind one exhaustive `match`.
fn event_style_breaks(file: &str, text: &str) -> Vec<String> {
    let code = code_of(text);
    let mut found = Vec::new();
    if file == "event.rs" {
        let mut in_enum = false;
        for line in code.lines() {
            if line.starts_with("pub enum ") && line.contains("Event {") {
                in_enum = true;
            } else if in_enum && line.starts_with('}') {
                in_enum = false;
            } else if in_enum
                && line.starts_with("    ")
                && !line.starts_with("     ")
                && line
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_uppercase())
                && line
                    .trim()
                    .split_once(' ')
                    .is_some_and(|(_, rest)| rest.starts_with('{'))
            {
                found.push(format!("{file}: a variant with fields: {}", line.trim()));
            }
        }
    }
    if file == "narrate.rs" || file == "apply.rs" {
        for line in code.lines() {
            let l = line.trim();
            let rematch = l.starts_with("let ")
                && l.split_whitespace()
                    .nth(1)
                    .is_some_and(|w| w.contains("Event::"));
            if rematch || l.contains("unreachable!") {
                found.push(format!("{file}: {l}"));
            }
        }
    }
    found
}

#[test]
fn every_event_is_a_struct_read_once() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !is_test_file(f)) {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let text = std::fs::read_to_string(f).expect("a source file");
        for b in event_style_breaks(name, &text) {
            found.push(format!("{}: {b}", f.display()));
        }
    }
    assert!(found.is_empty(), "events read in another style: {found:#?}");
}

#[test]
fn the_event_style_check_sees_a_planted_break() {
    let enum_with_fields = "pub enum ZonesEvent {\n    Moved { who: Cid },\n    Fled(Fled),\n}\n";
    assert_eq!(event_style_breaks("event.rs", enum_with_fields).len(), 1);
    let rematch = "fn f(e: &BattleEvent) {\n    let BattleEvent::Fled(Fled { who }) = e else {\n        return;\n    };\n}\n";
    assert_eq!(event_style_breaks("apply.rs", rematch).len(), 1);
    let chain =
        "fn f() {\n    match e {\n        other => unreachable!(\"{other:?}\"),\n    }\n}\n";
    assert_eq!(event_style_breaks("narrate.rs", chain).len(), 1);
    let fine = "pub enum BattleEvent {\n    Fled(Fled),\n    Ruleset(RulesetEvent),\n}\n";
    assert!(event_style_breaks("event.rs", fine).is_empty());
}

/// Names in the code spelled `armour` (the code spells `armor`; a data
/// file's key or a log line keeps its ruleset's word, in a string).
fn armour_names(text: &str) -> Vec<String> {
    // The code without its strings (which may span lines) and its
    // trailing comments.
    let mut code = String::new();
    let (mut in_str, mut in_comment) = (false, false);
    let text = code_of(text);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (in_str, in_comment, c) {
            (_, true, '\n') => {
                in_comment = false;
                code.push(c);
            }
            (_, true, _) => {}
            (true, _, '\\') => {
                chars.next();
            }
            (_, _, '"') => in_str = !in_str,
            (false, _, '/') if chars.peek() == Some(&'/') => in_comment = true,
            (false, _, c) => code.push(c),
            (true, _, _) => {}
        }
    }
    words(&code)
        .filter(|w| w.to_lowercase().contains("armour"))
        .map(String::from)
        .collect()
}

#[test]
fn the_code_spells_armor_one_way() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("a source file");
            armour_names(&text)
                .into_iter()
                .map(move |n| format!("{}: {n}", f.display()))
        })
        .collect();
    assert!(found.is_empty(), "spell it armor: {found:#?}");
    // Seen to fail on a planted name; strings and comments are left alone.
    assert_eq!(armour_names("let armour_total = 1;"), ["armour_total"]);
    assert!(armour_names("x(\"armour\"); // armour").is_empty());
}
