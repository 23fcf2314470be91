//! The zones AI against random play, and determinism.

use super::*;

#[test]
fn the_ai_beats_random_play() {
    use crate::rules::components::Controller;
    let l = mirror();
    let mut e = engine();
    let mut wins = 0;
    let n = 100;
    for i in 0..n {
        let ai = (i % 2) as u8;
        let mut control = vec![Controller::RandomAi, Controller::RandomAi];
        control[ai as usize] = Controller::Ai;
        let opts = StartOptions {
            seed: 1000 + i,
            script: Vec::new(),
            control: Controls::PerFaction(control),
        };
        e.start(&l, crate::rulesets::zones::ID, &opts)
            .expect("starts");
        e.run(200_000);
        if e.outcome().and_then(|o| o.winner) == Some(ai) {
            wins += 1;
        }
    }
    assert!(wins * 100 > n * 80, "the AI won {wins} of {n}");
}

#[test]
fn the_same_seed_gives_the_same_battle() {
    let l = mirror();
    let run = |e: &mut Engine| {
        let opts = StartOptions {
            seed: 42,
            script: Vec::new(),
            control: Controls::AllAi,
        };
        e.start(&l, crate::rulesets::zones::ID, &opts)
            .expect("starts");
        e.run(200_000);
        e.log_text()
    };
    let mut a = engine();
    let first = run(&mut a);
    let again = run(&mut a);
    let fresh = run(&mut engine());
    assert_eq!(first, again);
    assert_eq!(first, fresh);
    assert!(first.contains("Battle over"));
}
