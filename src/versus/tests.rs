use super::*;
use crate::sim::run_one;
use crate::testkit::{assets, engine};

const RULESETS: [RulesetId; 3] = [
    crate::rulesets::ud10::ID,
    crate::rulesets::zones::ID,
    crate::rulesets::brp::ID,
];

fn config(level: &str, ruleset: RulesetId, seeds: u64) -> VersusConfig {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("levels/{level}.ron"));
    VersusConfig {
        level: crate::data::level::load_level(&file).expect("level"),
        level_file: file,
        ruleset,
        seeds,
        seed: 5,
        threads: 1,
        settings: Vec::new(),
        assets: assets(),
        other: PathBuf::from("(this build)"),
    }
}

/// Played in lockstep, each side's AI in its own engine, a battle is
/// the very battle the AI plays on its own (`fray simulate`): the same
/// winner, rounds and casualties, whichever side this engine plays.
#[test]
fn a_build_against_itself_plays_the_battles_the_ai_plays_alone() {
    let mut mine = engine();
    let mut alone = engine();
    let mut other = Server::new(&assets()).expect("server");
    for ruleset in RULESETS {
        let cfg = config("mirror_duel", ruleset, 3);
        for i in 0..3 {
            let seed = battle_seed(cfg.seed, i);
            let expected =
                run_one(&mut alone, &cfg.level, ruleset, seed, &Controls::AllAi).expect("alone");
            assert_eq!(expected.end, End::Won, "{ruleset:?} seed {seed}");
            for side in 0..2 {
                let r = play_one(&mut mine, &mut other, &cfg, seed, side).expect("versus");
                assert_eq!(r, expected, "{ruleset:?} seed {seed}, side {side}");
                assert_eq!(mine.log_text(), alone.log_text(), "{ruleset:?} seed {seed}");
            }
        }
    }
}

/// The same AI on both sides of each pair of mirrored battles wins one
/// of the two: the report gives each build as many wins, per side too.
#[test]
fn the_report_counts_each_builds_wins_per_side() {
    let cfg = VersusConfig {
        threads: 2,
        ..config("mirror_duel", crate::rulesets::ud10::ID, 4)
    };
    let report = versus_with(&cfg, || {
        Ok(Box::new(Server::new(&assets())?) as Box<dyn Opponent>)
    })
    .expect("versus");
    assert_eq!(report.battles, 8);
    assert_eq!(report.this_won + report.other_won + report.undecided, 8);
    assert_eq!(report.this_won, report.other_won);
    assert!(report.this_won > 0);
    let played: u64 = report.by_side.iter().map(|s| s.1).sum();
    assert_eq!(played, 8);
    assert_eq!(report.by_side[0].1, 4);
    // This build won as each faction what the other won as the other.
    assert_eq!(report.by_side[0].2 + report.by_side[1].2, report.this_won);
    assert!(
        report.text().contains("this build won"),
        "{}",
        report.text()
    );
}

/// An opponent whose battle is not this one (here: another seed, as a
/// build with other rules would play) is found out at once.
#[test]
fn builds_whose_battles_part_are_refused() {
    struct OtherSeed(Server);
    impl Opponent for OtherSeed {
        fn ask(&mut self, request: &Value) -> Result<Value, String> {
            let mut r = request.clone();
            if let Some(s) = r.get_mut("start") {
                s["seed"] = json!(s["seed"].as_u64().unwrap_or(0) + 1);
            }
            Ok(self.0.answer(&r))
        }
    }
    let cfg = config("mirror_duel", crate::rulesets::ud10::ID, 1);
    let mut other = OtherSeed(Server::new(&assets()).expect("server"));
    let err = play_one(&mut engine(), &mut other, &cfg, 11, 0).expect_err("parted");
    assert!(err.contains("parted at event"), "{err}");
}

/// A command's kind: its variant's name.
fn kind(v: &Value) -> String {
    match v.get("core").or(v.get("own")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(m)) => m.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    }
}

/// Every command goes to JSON and back unchanged: the core's and each
/// ruleset's own, every kind the rules offer at the prompts of a
/// battle.
#[test]
fn commands_go_to_json_and_back() {
    let mut e = engine();
    for ruleset in RULESETS {
        let level = config("ruined_keep", ruleset, 1).level;
        start(&mut e, &level, ruleset, 3).expect("start");
        let hooks = e
            .world()
            .resource::<RulesetRegistry>()
            .get(ruleset)
            .expect("hooks");
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..300 {
            let world = e.world();
            let battle = world.resource::<Battle>();
            if battle.is_over() {
                break;
            }
            let Some(actor) = battle.prompt.actor() else {
                break;
            };
            for c in (hooks.legal_commands)(world, actor) {
                let v = command_to_json(&c);
                kinds.insert(kind(&v));
                assert_eq!(command_from_json(&e, ruleset, &v), Ok(c.clone()), "{v}");
            }
            let c = own_decision(&e, actor).expect("decision");
            e.send(actor, c);
            e.run(MAX_STEPS);
        }
        assert!(kinds.len() >= 5, "{ruleset:?}: {kinds:?}");
    }
    let bad = command_from_json(&e, crate::rulesets::ud10::ID, &json!({"own": "Fly"}));
    assert!(bad.is_err());
}
