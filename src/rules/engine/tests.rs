use super::setup::member_of;
use super::*;
use crate::testkit::{engine, level};

/// A run steps the battle as the [`BattleStep`] schedule does: the
/// schedule holds the one system a run calls, and a battle run to its
/// end plays out as one stepped through the schedule, event for event
/// and change tick for change tick, under every ruleset.
#[test]
fn a_run_steps_the_battle_as_the_schedule_does() {
    use crate::testkit::start_shipped;
    let (mut run_whole, mut stepped) = (engine(), engine());
    let systems = run_whole
        .world()
        .resource::<Schedules>()
        .get(BattleStep)
        .map(|s| s.systems_len());
    assert_eq!(systems, Some(1), "run calls the step's one system itself");
    for ruleset in [
        crate::rulesets::ud10::ID,
        crate::rulesets::zones::ID,
        crate::rulesets::brp::ID,
    ] {
        start_shipped(&mut run_whole, "mirror_duel", ruleset, 5, Controls::AllAi);
        start_shipped(&mut stepped, "mirror_duel", ruleset, 5, Controls::AllAi);
        let ticks = |e: &mut Engine| e.world_mut().change_tick().get();
        let (t0, s0) = (ticks(&mut run_whole), ticks(&mut stepped));
        assert_eq!(run_whole.run(100_000), Stop::Over);
        let mut steps = 0;
        while !stepped.world().resource::<Battle>().is_over() {
            step(stepped.world_mut());
            steps += 1;
        }
        assert!(steps > 20, "{ruleset}: a battle of {steps} steps");
        assert_eq!(run_whole.log_text(), stepped.log_text(), "{ruleset}");
        assert_eq!(
            ticks(&mut run_whole) - t0,
            ticks(&mut stepped) - s0,
            "{ruleset}: one change tick a step"
        );
    }
}

/// Unnamed combatants are named for one member of their faction.
#[test]
fn an_unnamed_combatant_is_one_of_its_faction() {
    for (id, one) in [
        ("raiders", "Raider"),
        ("bandits", "Bandit"),
        ("bowmen", "Bowman"),
        ("garrison", "Garrison"),
        ("west", "West"),
        ("cult", "Cult"),
        ("hill_folk", "Hill folk"),
        ("bus", "Bus"),
        ("guards", "Guard"),
    ] {
        assert_eq!(member_of(id), one);
    }
}

/// A battle set up again from the one kept ([`StartKept`]) plays as one
/// set up from scratch, seed by seed, log line by log line: on levels
/// with archers, mounts and a wyrm, under both rulesets, after battles
/// of other seeds; and a setting changed in between is not lost.
#[test]
fn a_battle_started_again_plays_as_one_started_afresh() {
    use crate::testkit::start_shipped;
    let mut again = engine();
    for (name, ruleset) in [
        ("mirror_duel", crate::rulesets::ud10::ID),
        ("mirror_duel", crate::rulesets::zones::ID),
        ("caravan_ambush", crate::rulesets::zones::ID),
        ("wyrm_lair", crate::rulesets::zones::ID),
    ] {
        let mut before: Option<Vec<Entity>> = None;
        for seed in [3u64, 11, 12] {
            start_shipped(&mut again, name, ruleset, seed, Controls::AllAi);
            // Set up again, not afresh: the same entities, restored.
            let now = again.world().resource::<Roster>().entities.clone();
            if let Some(before) = &before {
                assert_eq!(before, &now, "{name} {ruleset} seed {seed}");
            }
            before = Some(now);
            again.run(1_000_000);
            let mut afresh = engine();
            start_shipped(&mut afresh, name, ruleset, seed, Controls::AllAi);
            afresh.run(1_000_000);
            assert_eq!(
                again.log_text(),
                afresh.log_text(),
                "{name} {ruleset} seed {seed}"
            );
        }
        assert!(again.world().contains_resource::<StartKept>());
    }
    // Body zones off: the next battle has no hit locations.
    let ud10 = crate::rulesets::ud10::ID;
    start_shipped(&mut again, "mirror_duel", ud10, 1, Controls::AllAi);
    again
        .configure(ud10, "body_zones", "false")
        .expect("a setting");
    start_shipped(&mut again, "mirror_duel", ud10, 1, Controls::AllAi);
    again.run(1_000_000);
    assert!(again.log_text().contains("Damage to"));
    assert!(!again.log_text().contains("Hit location"));
}

/// A batch's engine started again on its one level (`start_same`)
/// plays each seed as an engine started afresh, under each ruleset in
/// turn (another ruleset's battle is not the one kept), and a setting
/// changed between two battles holds for the next.
#[test]
fn a_batch_started_on_the_same_level_plays_as_battles_started_afresh() {
    use crate::testkit::start_shipped;
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/archer_hill.ron");
    let level = crate::data::level::load_level(&path).expect("archer_hill loads");
    let mut batch = engine();
    let mut restored = 0;
    for ruleset in [
        crate::rulesets::ud10::ID,
        crate::rulesets::zones::ID,
        crate::rulesets::brp::ID,
    ] {
        for seed in [3u64, 11] {
            let kept = batch.world().contains_resource::<StartKept>();
            let opts = StartOptions {
                seed,
                script: Vec::new(),
                control: Controls::AllAi,
            };
            batch.start_same(&level, ruleset, &opts).expect("starts");
            restored += usize::from(kept && seed == 11);
            batch.run(1_000_000);
            let mut afresh = engine();
            start_shipped(&mut afresh, "archer_hill", ruleset, seed, Controls::AllAi);
            afresh.run(1_000_000);
            assert_eq!(batch.log_text(), afresh.log_text(), "{ruleset} seed {seed}");
        }
    }
    assert_eq!(
        restored, 3,
        "the second battle of each ruleset was set up again"
    );
    let ud10 = crate::rulesets::ud10::ID;
    batch
        .configure(ud10, "body_zones", "false")
        .expect("a setting");
    let opts = StartOptions {
        seed: 1,
        script: Vec::new(),
        control: Controls::AllAi,
    };
    batch.start_same(&level, ud10, &opts).expect("starts");
    batch.run(1_000_000);
    assert!(batch.log_text().contains("Damage to"));
    assert!(!batch.log_text().contains("Hit location"));
}

/// A level that passed is not checked again, but a different level
/// (or the same under another ruleset) still is.
#[test]
fn a_level_passed_once_skips_the_check_but_another_does_not() {
    let mut e = engine();
    let good = level(
        &["....", "...."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "A")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (3, 1), name: "B")"#,
        ],
    );
    let opts = StartOptions {
        seed: 1,
        script: Vec::new(),
        control: Controls::AsLevel,
    };
    let ud10 = crate::rulesets::ud10::ID;
    assert!(e.start(&good, ud10, &opts).is_ok());
    assert!(e.start(&good, ud10, &opts).is_ok());
    // Only the check refuses this one: everything else about it is the
    // good level.
    let mut bad = good.clone();
    bad.rulesets = vec!["zones".into()];
    let err = e.start(&bad, ud10, &opts).expect_err("made for zones only");
    assert!(err.contains("zones only"), "{err}");
    // The good one passes again after the bad one.
    assert!(e.start(&good, ud10, &opts).is_ok());
}
