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

    let dir = broken_ud10(
        "equipment.ron",
        "Equipment(\n  weapons: {\n    \"club\": (name: \"Club\", kind: Melee, damage: \"1D\"),\n  },\n  armor: {},\n  shields: {},\n)\n",
    );
    let o = fray(&["check", dir.to_str().expect("utf-8 path")]);
    assert!(!o.status.success());
    let out = stdout(&o);
    assert!(out.contains("equipment.ron:3:"), "{out}");
    assert!(out.contains("expected a number of sides"), "{out}");
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
    assert_eq!(wins + one["draws"].as_u64().expect("draws"), 40);
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
    let o = fray(&["simulate", "levels/mirror_duel.ron", "--ruleset", "brp"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not implemented yet"), "{}", stderr(&o));
    let o = fray(&["simulate", "levels/mirror_duel.ron", "--set", "armour=off"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("ud10 has no setting `armour`"));
}
