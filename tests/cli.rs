//! The `fray` command line, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fray(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("fray runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_accepts_the_shipped_levels_and_data() {
    let o = fray(&["check", "levels", "assets/rulesets/ud10"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    for level in ["open_field", "courtyard", "archer_hill", "mirror_duel"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with("ok") && l.contains(&format!("{level}.ron"))),
            "{out}"
        );
    }
}

#[test]
fn check_names_file_line_and_column_of_bad_levels() {
    let o = fray(&["check", "tests/data/bad_level_unknown_terrain.ron"]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("tests/data/bad_level_unknown_terrain.ron:11:17: expected a terrain character from the legend"),
        "{out}"
    );
    let o = fray(&["check", "tests/data/bad_level_syntax.ron"]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("tests/data/bad_level_syntax.ron:14:52: expected a comma"),
        "{out}"
    );
}

/// A copy of the UD10 data folder with one file replaced.
fn broken_ud10(file: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fray-cli-test-{}-{file}", std::process::id()));
    let ud10 = dir.join("rulesets").join("ud10");
    std::fs::create_dir_all(&ud10).expect("temp dir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/rulesets/ud10");
    for f in ["equipment.ron", "bestiary.ron", "settings.ron"] {
        std::fs::copy(src.join(f), ud10.join(f)).expect("copy");
    }
    std::fs::write(ud10.join(file), text).expect("write");
    ud10
}

/// Remove the copy [`broken_ud10`] made (its root, two folders up).
fn remove_copy(ud10: &Path) {
    if let Some(root) = ud10.ancestors().nth(2) {
        std::fs::remove_dir_all(root).ok();
    }
}

#[test]
fn check_names_file_line_and_column_of_bad_ruleset_data() {
    let dir = broken_ud10(
        "settings.ron",
        "Ud10Settings(\n    keep_initiative: true,\n    body_zone: true,\n)\n",
    );
    let o = fray(&["check", dir.to_str().expect("utf-8 path")]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("settings.ron:3:5:"), "{out}");
    assert!(out.contains("body_zone"), "{out}");
    remove_copy(&dir);

    let dir = broken_ud10(
        "equipment.ron",
        "Equipment(\n  weapons: {\n    \"club\": (name: \"Club\", kind: Melee, damage: \"1D\"),\n  },\n  armor: {},\n  shields: {},\n)\n",
    );
    let o = fray(&["check", dir.to_str().expect("utf-8 path")]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("equipment.ron:3:"), "{out}");
    assert!(out.contains("expected a number of sides"), "{out}");
    remove_copy(&dir);
}

#[test]
fn log_is_byte_identical_for_the_same_seed() {
    let a = fray(&["log", "levels/mirror_duel.ron", "--seed", "11"]);
    let b = fray(&["log", "levels/mirror_duel.ron", "--seed", "11"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let c = fray(&["log", "levels/mirror_duel.ron", "--seed", "12"]);
    assert_ne!(a.stdout, c.stdout);
    let text = stdout(&a);
    assert!(text.starts_with("Battle on Mirror Duel under ud10, seed 11"));
    assert!(text.contains("Battle over: "), "{text}");
    assert!(text.contains("vs Defense"), "{text}");
}

#[test]
fn log_takes_dice_before_the_rng_and_checks_them() {
    let o = fray(&[
        "log",
        "levels/mirror_duel.ron",
        "--seed",
        "1",
        "--dice",
        "10,1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let inits: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Initiative:"))
        .take(2)
        .collect();
    assert!(inits[0].contains("1D10 [10]"), "{inits:?}");
    assert!(inits[1].contains("1D10 [1]"), "{inits:?}");
    assert!(text.contains("(2 of 2 scripted dice used)"));

    let o = fray(&[
        "log",
        "levels/mirror_duel.ron",
        "--seed",
        "1",
        "--dice",
        "12",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("scripted die #1 is 12, which a d10 cannot show"),
        "{}",
        stderr(&o)
    );
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = fray(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("json")
}

#[test]
fn simulate_reports_rates_and_does_not_depend_on_threads() {
    let one = json(&[
        "simulate",
        "levels/mirror_duel.ron",
        "--battles",
        "40",
        "--seed",
        "3",
        "--json",
        "--threads",
        "1",
    ]);
    let two = json(&[
        "simulate",
        "levels/mirror_duel.ron",
        "--battles",
        "40",
        "--seed",
        "3",
        "--json",
        "--threads",
        "2",
    ]);
    assert_eq!(one["battles"], 40);
    assert_eq!(one["factions"], two["factions"]);
    assert_eq!(one["mean_rounds"], two["mean_rounds"]);
    let wins: u64 = one["factions"]
        .as_array()
        .expect("factions")
        .iter()
        .map(|f| f["wins"].as_u64().expect("wins"))
        .sum();
    let stalemates = one["stalemates"].as_u64().expect("stalemates");
    assert_eq!(
        wins + one["draws"].as_u64().expect("draws") + stalemates,
        40
    );
    let f0 = &one["factions"][0];
    let rate = f0["win_rate"].as_f64().expect("rate");
    assert!(f0["win_rate_low"].as_f64().expect("low") <= rate);
    assert!(f0["win_rate_high"].as_f64().expect("high") >= rate);
}

#[test]
fn simulate_refuses_unknown_rulesets_and_settings() {
    let o = fray(&["simulate", "levels/mirror_duel.ron", "--ruleset", "gurps"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("unknown ruleset `gurps`"));
    let o = fray(&["simulate", "levels/mirror_duel.ron", "--ruleset", "osr"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not implemented yet"), "{}", stderr(&o));
    let o = fray(&["simulate", "levels/mirror_duel.ron", "--set", "armour=off"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("ud10 has no setting `armour`"));
}

/// `fray log LEVEL | head`: the reader goes away early; fray ends quietly
/// and with success.
#[test]
fn a_closed_pipe_ends_fray_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["log", "levels/courtyard.ron", "--seed", "3"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("fray runs");
    // The reader is gone before fray writes a line (it takes a moment to
    // load the rules), so its first write meets the closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("fray ends");
    assert!(out.status.success(), "{:?} {}", out.status, stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn zero_battles_or_threads_are_refused_in_one_line() {
    for (args, why) in [
        (
            ["--battles", "0"],
            "fray: --battles expects at least 1 battle, not 0\n",
        ),
        (
            ["--threads", "0"],
            "fray: --threads expects at least 1 thread, not 0\n",
        ),
    ] {
        let mut all = vec!["simulate", "levels/open_field.ron"];
        all.extend(args);
        let o = fray(&all);
        assert!(!o.status.success());
        assert_eq!(stderr(&o), why);
    }
}

/// `check`, `simulate` and `log` give one answer: a level made for zones
/// and brp is refused under ud10 by all three, at the line of its
/// `rulesets`.
#[test]
fn the_entry_points_agree_on_what_a_level_plays_under() {
    let why = "levels/wyrm_lair.ron:2:15: the level is made for zones and brp only, not ud10";
    let o = fray(&[
        "simulate",
        "levels/wyrm_lair.ron",
        "--ruleset",
        "ud10",
        "--battles",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains(why), "{}", stderr(&o));
    let o = fray(&[
        "log",
        "levels/wyrm_lair.ron",
        "--seed",
        "1",
        "--ruleset",
        "ud10",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains(why), "{}", stderr(&o));
    let o = fray(&["check", "levels/wyrm_lair.ron"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("plays under zones, brp)"),
        "{}",
        stdout(&o)
    );
}

/// Two sides a wall apart can never meet: every battle ends at the round
/// limit, and simulate says so (not "draws") with a seed to look at.
#[test]
fn simulate_counts_stalemates_apart_from_draws() {
    let dir = std::env::temp_dir().join(format!("fray-cli-stalemate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let level = dir.join("walled.ron");
    std::fs::write(
        &level,
        r##"Level(
    name: "Walled",
    default_ruleset: "ud10",
    map: (
        legend: { '.': Open, '#': Wall },
        rows: [ "..#..", "..#..", "..#.." ],
    ),
    factions: [
        (id: "red", name: "Red", colour: "#c0392b", control: Ai),
        (id: "blue", name: "Blue", colour: "#2e86de", control: Ai),
    ],
    combatants: [
        (archetype: "swordsman", faction: "red", at: (0, 1)),
        (archetype: "swordsman", faction: "blue", at: (4, 1)),
    ],
    victory: LastStanding,
    max_rounds: 5,
)
"##,
    )
    .expect("level written");
    let path = level.to_string_lossy().to_string();
    let o = fray(&["simulate", &path, "--battles", "4", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(r["draws"], 0);
    assert_eq!(r["stalemates"], 4);
    assert_eq!(r["round_limit"], 4);
    assert_eq!(r["step_limit"], 0);
    let seed = r["stalemate_seed"].as_u64().expect("a seed to look at");
    let o = fray(&["simulate", &path, "--battles", "4"]);
    let text = stdout(&o);
    assert!(
        text.contains(&format!(
            "stalemates 100.0%: 4 at the round limit, 0 at the step limit; look at one: fray log {path} --ruleset ud10 --seed {seed}"
        )),
        "{text}"
    );
    // The seed given replays a battle that ends at the round limit.
    let o = fray(&["log", &path, "--seed", &seed.to_string()]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("round limit"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of a shipped ruleset data folder with `from` replaced by `to` in
/// one of its files.
fn edited(ruleset: &str, file: &str, from: &str, to: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fray-cli-range-{}-{ruleset}-{}",
        std::process::id(),
        to.len()
    ));
    let folder = dir.join("rulesets").join(ruleset);
    std::fs::create_dir_all(&folder).expect("temp dir");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/rulesets")
        .join(ruleset);
    for f in ["equipment.ron", "bestiary.ron", "settings.ron"] {
        let text = std::fs::read_to_string(src.join(f)).expect("shipped");
        let text = if f == file {
            assert!(text.contains(from), "{from}");
            text.replacen(from, to, 1)
        } else {
            text
        };
        std::fs::write(folder.join(f), text).expect("write");
    }
    folder
}

#[test]
fn ruleset_numbers_out_of_range_are_refused_at_their_line() {
    for (ruleset, file, from, to, want) in [
        (
            "ud10",
            "bestiary.ron",
            "hp: 12, ep: 12",
            "hp: 0, ep: 12",
            "bestiary.ron:8:56: `swordsman` has hp 0; expected 1 to 999",
        ),
        (
            "ud10",
            "equipment.ron",
            "range_increment: 15.0",
            "range_increment: inf",
            "equipment.ron:21:74: `shortbow` has range_increment inf; expected 0 to 1000",
        ),
        (
            "ud10",
            "equipment.ron",
            "damage: \"1D10+3\", range_increment: 15.0",
            "damage: \"2147483647\", range_increment: 15.0",
            "equipment.ron:21:56: `shortbow` has damage 2147483647 (2147483647 to 2147483647); expected at most 10000 and at least -1000",
        ),
        (
            "zones",
            "bestiary.ron",
            "str: 12, agi: 11",
            "str: 12, agi: 2147483647",
            "bestiary.ron:9:41: `swordsman` has agi 2147483647; expected 1 to 20",
        ),
    ] {
        let dir = edited(ruleset, file, from, to);
        let o = fray(&["check", dir.to_str().expect("utf-8 path")]);
        assert!(!o.status.success());
        assert!(stdout(&o).contains(want), "{}", stdout(&o));
        let _ = std::fs::remove_dir_all(dir.parent().and_then(Path::parent).expect("temp"));
    }
}

/// `fray bench` measures every ruleset a level plays under, against another
/// build when asked (here the same build: A/B near 1).
#[test]
fn bench_prints_battles_per_second_side_by_side() {
    let exe = env!("CARGO_BIN_EXE_fray");
    let o = fray(&[
        "bench",
        "--battles",
        "20",
        "--runs",
        "1",
        "--level",
        "levels/mirror_duel.ron",
        "--vs",
        exe,
        "--playouts",
        "10",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let all: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    // The fork figure: playouts of the duel from its third round.
    let forks = all["forks"].as_array().expect("fork rows");
    for ruleset in ["ud10", "zones"] {
        let r = forks
            .iter()
            .find(|r| r["ruleset"] == ruleset)
            .expect("a fork row per ruleset");
        assert_eq!(r["playouts"], 10);
        assert!(r["a_ms"].as_f64().expect("a_ms") > 0.0);
        assert!(r["b_ms"].as_f64().expect("b_ms") > 0.0);
    }
    let rows = all["battles"].as_array().expect("rows");
    for ruleset in ["ud10", "zones"] {
        let r = rows
            .iter()
            .find(|r| r["ruleset"] == ruleset && r["threads"] == 1)
            .expect("a one-thread row per ruleset");
        assert_eq!(r["level"], "Mirror Duel");
        assert!(r["a"].as_f64().expect("a") > 0.0);
        assert!(r["b"].as_f64().expect("b") > 0.0);
        let q = r["ratio"].as_f64().expect("ratio");
        assert!(q > 0.2 && q < 5.0, "{q}");
    }
    let o = fray(&[
        "bench",
        "--battles",
        "20",
        "--runs",
        "1",
        "--level",
        "levels/wyrm_lair.ron",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("| level | ruleset | threads | battles/s |"),
        "{text}"
    );
    assert!(text.contains("| Wyrm's Lair | zones | 1 |"), "{text}");
    assert!(!text.contains("ud10"), "{text}");
}

/// `fray odds`: each side's chances from the start of a round of a seeded
/// battle, the same on one thread and on two; a battle over before that
/// round has nothing to play out.
#[test]
fn odds_plays_a_battle_out_from_the_middle() {
    let run = |threads: &str| {
        let o = fray(&[
            "odds",
            "levels/mirror_duel.ron",
            "--ruleset",
            "zones",
            "--round",
            "2",
            "--playouts",
            "40",
            "--threads",
            threads,
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        v
    };
    let (one, two) = (run("1"), run("2"));
    assert_eq!(one["round"], 2);
    assert_eq!(one["odds"]["playouts"], 40);
    let wins = |v: &serde_json::Value| -> Vec<u64> {
        v["odds"]["sides"]
            .as_array()
            .expect("sides")
            .iter()
            .map(|s| s["wins"].as_u64().expect("wins"))
            .collect()
    };
    assert_eq!(wins(&one), wins(&two), "the odds do not depend on threads");
    let all: u64 = wins(&one).iter().sum::<u64>() + one["odds"]["draws"].as_u64().expect("draws");
    assert_eq!(all, 40);
    let o = fray(&[
        "odds",
        "levels/mirror_duel.ron",
        "--round",
        "2",
        "--playouts",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with(
            "Mirror Duel under ud10, battle 1 at the start of round 2 (standing: West Band "
        ),
        "{text}"
    );
    assert!(text.contains("10 playouts (seed 1) in"), "{text}");
    let o = fray(&["odds", "levels/mirror_duel.ron", "--round", "150"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("before round 150: nothing left to play out"),
        "{}",
        stderr(&o)
    );
    let o = fray(&["odds", "levels/mirror_duel.ron", "--playouts", "0"]);
    assert!(!o.status.success());
}

/// `fray audit` counts the AI's plays per level; figures name what they count.
#[test]
fn audit_counts_the_ais_plays() {
    let o = fray(&[
        "audit",
        "levels/mirror_duel.ron",
        "--ruleset",
        "ud10",
        "--battles",
        "6",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "| level | battles | round limit | mean rounds | melee attacks | from behind |"
        ),
        "{text}"
    );
    assert!(text.contains("| Mirror Duel | 6 | "), "{text}");
    assert!(
        text.contains("- wasted: of those, drawn by a mover"),
        "{text}"
    );
    // Battles that run to the round limit are named by seed, to replay.
    let o = fray(&[
        "audit",
        "tests/data/walled_apart.ron",
        "--ruleset",
        "ud10",
        "--battles",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("| Walled Apart | 3 | 3 | 3.0 |"), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("- Walled Apart ran out of time in battles seeded "))
        .unwrap_or_else(|| panic!("{text}"));
    let seeds: Vec<&str> = line
        .trim_start_matches("- Walled Apart ran out of time in battles seeded ")
        .split(" (see")
        .next()
        .unwrap_or("")
        .split(", ")
        .collect();
    assert_eq!(seeds.len(), 3, "{line}");
    let o = fray(&[
        "log",
        "tests/data/walled_apart.ron",
        "--ruleset",
        "ud10",
        "--seed",
        seeds[0],
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Battle over: a draw (the round limit (3))"),
        "{}",
        stdout(&o)
    );
    let o = fray(&["audit", "levels/caravan_ambush.ron", "--ruleset", "ud10"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("made for zones and brp only"),
        "{}",
        stderr(&o)
    );
    let o = fray(&["audit", "levels/mirror_duel.ron", "--set", "dodge=false"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--set needs --ruleset"),
        "{}",
        stderr(&o)
    );
}

/// `--control` names who plays each faction: the AI (`ai` or `normal`), its
/// easy or hard level, or random play; `simulate` and `log` take it.
#[test]
fn control_chooses_the_ai_level_per_faction() {
    let o = fray(&[
        "simulate",
        "levels/mirror_duel.ron",
        "--ruleset",
        "ud10",
        "--control",
        "normal,easy",
        "--battles",
        "20",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("West Band"), "{}", stdout(&o));
    let o = fray(&[
        "simulate",
        "levels/mirror_duel.ron",
        "--control",
        "normal,cunning",
        "--battles",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o)
            .contains("--control expects ai (or normal), easy, hard or random, not `cunning`"),
        "{}",
        stderr(&o)
    );
    // The hard level, in one logged battle: it plays to the end, and the
    // same seed gives the same log.
    let args = [
        "log",
        "levels/mirror_duel.ron",
        "--seed",
        "3",
        "--control",
        "hard,normal",
    ];
    let (a, b) = (fray(&args), fray(&args));
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(stdout(&a).contains("wins"), "{}", stdout(&a));
    assert_eq!(stdout(&a), stdout(&b));
    // The game window takes it too, with a human among the controllers;
    // a wrong name is refused before any window opens.
    let o = fray(&["play", "levels/mirror_duel.ron", "--control", "human,bogus"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o)
            .contains("--control expects human, ai (or normal), easy, hard or random, not `bogus`"),
        "{}",
        stderr(&o)
    );
    let o = fray(&[
        "simulate",
        "levels/mirror_duel.ron",
        "--control",
        "human,hard",
    ]);
    assert!(!o.status.success(), "simulate has no human to wait for");
    let o = fray(&[
        "log",
        "levels/mirror_duel.ron",
        "--seed",
        "3",
        "--control",
        "hard",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--control names 1 factions; the level has 2"),
        "{}",
        stderr(&o)
    );
}

/// `fray versus` against itself: the same AI on both sides of each
/// mirrored pair wins one battle of the two, so each build wins as many;
/// a program that does not answer is refused in one line.
#[test]
fn versus_pits_two_builds_ais_in_mirrored_battles() {
    let exe = env!("CARGO_BIN_EXE_fray");
    let r = json(&[
        "versus",
        "levels/mirror_duel.ron",
        "--ruleset",
        "zones",
        "--vs",
        exe,
        "--seeds",
        "3",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(r["battles"], 6, "{r}");
    assert_eq!(r["this_won"], r["other_won"], "{r}");
    assert!(r["this_won"].as_u64().is_some_and(|n| n > 0), "{r}");
    assert_eq!(r["by_side"][0][1], 3, "{r}");
    if !Path::new("/bin/true").exists() {
        return;
    }
    let o = fray(&[
        "versus",
        "levels/mirror_duel.ron",
        "--vs",
        "/bin/true",
        "--seeds",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("serve-ai"), "{}", stderr(&o));
}
