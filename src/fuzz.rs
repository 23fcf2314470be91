//! Bad data never reaches a battle, checked by mutation: the shipped levels
//! and ruleset data, changed a token or a line at a time the way a careless
//! or hostile author would, must either be refused with an error at a line
//! and column, or give battles that run to their end. Loading never panics
//! and never hangs (a panic fails the property; the limits bound the time).
//!
//! The runs are seeded, so CI sees the same cases every time; the nastiest
//! cases found by hand are kept in `tests/data/regress/` (see
//! `regressions_are_refused_where_they_go_wrong`).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};

use crate::data::level::parse_level;
use crate::rules::engine::{Controls, Engine, StartOptions, Stop, supported_rulesets, validate};
use crate::rules::error::DataError;
use crate::sim::MAX_STEPS;
use crate::testkit::{assets, engine};

/// Numbers an author might write where a small one belongs.
const NUMBERS: [&str; 12] = [
    "0",
    "-1",
    "1",
    "2147483647",
    "-2147483648",
    "4294967295",
    "99999999999999999999",
    "1e309",
    "NaN",
    "-inf",
    "0.0",
    "300",
];

/// Strings an author might write where a name belongs.
const STRINGS: [&str; 10] = [
    "",
    "\\u{0}",
    "zones",
    "wyrm",
    "DEX",
    "HP",
    "longsword",
    "Ilsa",
    "#zzzzzz",
    "a\\nb",
];

/// One change to a data file's text.
#[derive(Clone, Debug)]
enum Mutation {
    /// The `n`-th number becomes `NUMBERS[v]`.
    Number(usize, usize),
    /// The `n`-th string's contents become `STRINGS[v]`.
    Text(usize, usize),
    /// The `n`-th line goes.
    DropLine(usize),
    /// The `n`-th line is written twice.
    DoubleLine(usize),
    /// The file ends at the `n`-th character.
    Cut(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), 0..NUMBERS.len()).prop_map(|(n, v)| Mutation::Number(n, v)),
        2 => (any::<usize>(), 0..STRINGS.len()).prop_map(|(n, v)| Mutation::Text(n, v)),
        2 => any::<usize>().prop_map(Mutation::DropLine),
        2 => any::<usize>().prop_map(Mutation::DoubleLine),
        1 => any::<usize>().prop_map(Mutation::Cut),
    ]
}

/// Byte ranges of the numbers in `text` (digits with an optional sign and
/// fraction), and of the contents of its strings.
/// Byte ranges in a text.
type Ranges = Vec<(usize, usize)>;

fn spans(text: &str) -> (Ranges, Ranges) {
    let b = text.as_bytes();
    let (mut numbers, mut strings) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                strings.push((start, i.min(b.len())));
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            c if c.is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) => {
                let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                numbers.push((start, i));
            }
            _ => i += 1,
        }
    }
    (numbers, strings)
}

fn apply(text: &str, m: &Mutation) -> String {
    let (numbers, strings) = spans(text);
    let splice = |(a, z): (usize, usize), with: &str| format!("{}{with}{}", &text[..a], &text[z..]);
    let lines: Vec<&str> = text.lines().collect();
    match *m {
        Mutation::Number(n, v) if !numbers.is_empty() => {
            splice(numbers[n % numbers.len()], NUMBERS[v])
        }
        Mutation::Text(n, v) if !strings.is_empty() => {
            splice(strings[n % strings.len()], STRINGS[v])
        }
        Mutation::DropLine(n) => {
            let k = n % lines.len().max(1);
            let mut l = lines.clone();
            if k < l.len() {
                l.remove(k);
            }
            l.join("\n")
        }
        Mutation::DoubleLine(n) => {
            let k = n % lines.len().max(1);
            let mut l = lines.clone();
            if let Some(line) = l.get(k).copied() {
                l.insert(k, line);
            }
            l.join("\n")
        }
        Mutation::Cut(n) => {
            let mut k = n % (text.len() + 1);
            while !text.is_char_boundary(k) {
                k -= 1;
            }
            text[..k].to_string()
        }
        _ => text.to_string(),
    }
}

/// A refusal must say where: a line and a column inside the file.
fn positioned(e: &DataError) -> Result<(), TestCaseError> {
    prop_assert!(e.line >= 1 && e.column >= 1, "no position: {e}");
    Ok(())
}

/// Every ruleset that accepts `level` plays it to the end; every one that
/// refuses it says where.
fn plays_or_refuses(
    e: &mut Engine,
    level: &crate::rules::level::Level,
) -> Result<(), TestCaseError> {
    for id in crate::rulesets::KNOWN {
        if let Err(err) = validate(e.world(), level, id)
            && e.world()
                .resource::<crate::rules::hooks::RulesetRegistry>()
                .get(id)
                .is_some()
        {
            positioned(&err)?;
        }
    }
    for id in supported_rulesets(e.world(), level) {
        let opts = StartOptions {
            seed: 7,
            script: Vec::new(),
            control: Controls::AllAi,
        };
        e.start(level, id, &opts).map_err(|err| {
            TestCaseError::fail(format!("{id} accepted but did not start: {err}"))
        })?;
        prop_assert_eq!(e.run(MAX_STEPS), Stop::Over, "under {}", id);
    }
    Ok(())
}

fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    })
}

fn shipped_levels() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels");
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .expect("levels/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a shipped level");
            (p, text)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn mutated_levels_are_refused_where_they_go_wrong_or_play_to_the_end() {
    let levels = shipped_levels();
    let e = std::cell::RefCell::new(engine());
    let strategy = (0..levels.len(), prop::collection::vec(mutation(), 1..3));
    runner(1500, 12)
        .run(&strategy, |(which, ms)| {
            let (path, text) = &levels[which];

            let text = ms.iter().fold(text.clone(), |t, m| apply(&t, m));
            match parse_level(path, &text) {
                Err(err) => positioned(&err),
                Ok(level) => plays_or_refuses(&mut e.borrow_mut(), &level),
            }
        })
        .unwrap_or_else(|err| panic!("{err}"));
}

/// Every data file of every implemented ruleset: (ruleset, file).
fn data_files() -> Vec<(&'static str, &'static str)> {
    let mut v = Vec::new();
    for id in ["ud10", "zones", "brp"] {
        for f in ["equipment.ron", "bestiary.ron", "settings.ron"] {
            v.push((id, f));
        }
    }
    // brp's standard values the text names without giving.
    v.push(("brp", "tables.ron"));
    v
}

/// A copy of the shipped ruleset data with one file changed.
fn data_with(ruleset: &str, file: &str, text: &str, tag: usize) -> PathBuf {
    let root = std::env::temp_dir().join(format!("fray-fuzz-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (id, f) in data_files() {
        let to = root.join("rulesets").join(id);
        std::fs::create_dir_all(&to).expect("temp dir");
        std::fs::copy(assets().join("rulesets").join(id).join(f), to.join(f)).expect("copy");
    }
    std::fs::write(root.join("rulesets").join(ruleset).join(file), text).expect("write");
    root
}

#[test]
fn mutated_ruleset_data_is_refused_where_it_goes_wrong_or_plays_to_the_end() {
    let files: Vec<(&str, &str, String)> = data_files()
        .into_iter()
        .map(|(id, f)| {
            let text = std::fs::read_to_string(assets().join("rulesets").join(id).join(f))
                .expect("shipped data");
            (id, f, text)
        })
        .collect();
    let level = crate::data::level::load_level(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/mirror_duel.ron"),
    )
    .expect("mirror_duel");
    let case = std::cell::Cell::new(0usize);
    runner(400, 34)
        .run(&(0..files.len(), mutation()), |(which, m)| {
            let (id, file, text) = &files[which];
            case.set(case.get() + 1);
            let root = data_with(id, file, &apply(text, &m), case.get());
            let result = match crate::rulesets::engine_with_assets(&root) {
                Err(err) => positioned(&err),
                Ok(mut e) => plays_or_refuses(&mut e, &level),
            };
            let _ = std::fs::remove_dir_all(&root);
            result
        })
        .unwrap_or_else(|err| panic!("{err}"));
}

#[test]
fn the_mutations_change_what_they_say() {
    let t = "(a: 12, b: \"x\", c: -3)\n(d: 4)";
    assert_eq!(
        apply(t, &Mutation::Number(0, 0)),
        "(a: 0, b: \"x\", c: -3)\n(d: 4)"
    );
    assert_eq!(
        apply(t, &Mutation::Number(1, 3)),
        "(a: 12, b: \"x\", c: 2147483647)\n(d: 4)"
    );
    assert_eq!(
        apply(t, &Mutation::Text(0, 4)),
        "(a: 12, b: \"DEX\", c: -3)\n(d: 4)"
    );
    assert_eq!(apply(t, &Mutation::DropLine(1)), "(a: 12, b: \"x\", c: -3)");
    assert_eq!(apply(t, &Mutation::Cut(3)), "(a:");
}

/// The nastiest cases found by hand (issue #12), kept as files: each is
/// refused, by the same validation `fray check` makes, where it goes wrong.
#[test]
fn regressions_are_refused_where_they_go_wrong() {
    let cases = [
        (
            "legend_key_twice",
            "5:41: legend has the key '#' twice; expected each key once",
        ),
        (
            "level_for_zones_played_by_default_under_ud10",
            "4:15: the level is made for zones only, not ud10",
        ),
        ("nine_factions", "10:15: 9 factions; expected at most 8"),
        (
            "nul_in_a_name",
            "16:66: the name \"B\\0\" holds a control character; expected printable text",
        ),
        (
            "survive_beyond_max_rounds",
            "18:47: victory after 21 rounds can never come: the battle is a draw after max_rounds 20; expected at most 20",
        ),
        (
            "two_combatants_one_name",
            "17:66: combatant 3 is named `A` like combatant 1; expected a name of its own",
        ),
        (
            "ud10_dex_at_the_i32_limit",
            "16:92: combatant 2 (B): DEX 2147483647 is out of range; expected -5 to 20",
        ),
        (
            "ud10_hp_zero",
            "16:92: combatant 2 (B): HP 0 is out of range; expected 1 to 999",
        ),
        (
            "ud10_no_weapons",
            "16:92: combatant 2 (B): carries no weapon; expected at least one (every ud10 attack is made with a weapon)",
        ),
        (
            "unknown_gear",
            "16:93: combatant 2 (B): ud10 has no weapon `laser`; expected one of `crossbow`, `dagger`, `greataxe`, `javelin`, `longsword`, `mace`, `net`, `repeating_crossbow`, `shortbow`, `spear`",
        ),
        (
            "zones_map_without_zones",
            "5:10: zones plays on a map divided into zones, and this one has none; expected zone_legend and zone_rows",
        ),
        (
            "zones_rider_on_a_swordsman",
            "17:69: combatant 3 (`spearman`): rides `A`, which carries nobody under zones; expected a mount or vehicle (or no `riding`)",
        ),
        (
            "zones_stat_of_ud10",
            "16:92: combatant 2 (B): zones has no stat `DEX`; expected one of STR, AGI, WIT, HEALTH, ARMOUR",
        ),
    ];
    let e = engine();
    let dir = Path::new("tests/data/regress");
    let files = std::fs::read_dir(dir).expect("tests/data/regress").count();
    assert_eq!(files, cases.len(), "every regression file has its case");
    for (name, want) in cases {
        let path = dir.join(format!("{name}.ron"));
        let refusal = match crate::data::level::load_level(&path) {
            Err(err) => err.to_string(),
            Ok(level) => {
                let id = crate::rulesets::parse(&level.default_ruleset).expect("a known ruleset");
                validate(e.world(), &level, id)
                    .expect_err("the level is refused")
                    .to_string()
            }
        };
        assert_eq!(refusal, format!("{}:{want}", path.display()));
    }
}
