//! §Taking a turn, main actions the text names without mechanics:
//! "distracting, intimidating, taunting, using a consumable item (a medicine
//! box, an antidote, etc.)". What Fray decides (docs/rulesets/zones.md,
//! "Main actions"): the target makes a WIT save (d20 under WIT); words reach
//! a visible enemy nearby or in the next zone.

use super::*;
use crate::rules::event::Healed;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::state::Swayed;
use crate::testkit::{set_condition, set_hp};

fn influence(target: Cid, kind: Influence) -> ZonesCommand {
    ZonesCommand::Influence { target, kind }
}

fn swayed(e: &Engine, who: Cid) -> Swayed {
    view::get::<Swayed>(e.world(), who)
        .cloned()
        .unwrap_or_default()
}

/// Balthasar and Sybilla (swords) in zone A, a bandit (WIT 9, health 8) in
/// zone B, another bandit far off in zone G. The players hold the
/// initiative (a d2 of 1), then come `script`'s dice.
fn words(script: &[u32]) -> (Engine, [Cid; 4]) {
    let l = level_with(
        &OPEN,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        &[
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), name: "Balthasar", overrides: (weapons: ["sword"]))"#,
            r#"(archetype: "swordsman", faction: "players", at: (1, 0), name: "Sybilla", overrides: (weapons: ["sword"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (2, 0), name: "Bandit", overrides: (weapons: ["axe"]))"#,
            r#"(archetype: "bandit", faction: "bandits", at: (13, 1), name: "Far bandit", overrides: (weapons: ["axe"]))"#,
        ],
        false,
    );
    let e = start(&l, &[&[1][..], script].concat());
    let who = ["Balthasar", "Sybilla", "Bandit", "Far bandit"].map(|n| cid(&e, n));
    (e, who)
}

#[test]
fn intimidation_breaks_a_shaken_enemy_who_fails_its_wit_save() {
    // The bandit's WIT save: 15 against WIT 9, a failure.
    let (mut e, [bal, _, bandit, far]) = words(&[15]);
    activate(&mut e, bal);
    // Unhurt, and its side whole: not shaken.
    let why = refused(&mut e, bal, influence(bandit, Influence::Intimidate));
    assert!(why.contains("not shaken"), "{why}");
    set_hp(&mut e, bandit, 4);
    // Words reach the next zone, no farther.
    let why = refused(&mut e, bal, influence(far, Influence::Taunt));
    assert!(why.contains("too far"), "{why}");
    let from = e.events().len();
    cmd(&mut e, bal, influence(bandit, Influence::Intimidate));
    let ev = since(&e, from);
    assert_eq!(saves(&ev), vec![(bandit, "WIT", 15, 9, false)]);
    assert!(has(&e, bandit, Condition::Broken));
    // It was the main action.
    let why = refused(&mut e, bal, influence(bandit, Influence::Distract));
    assert!(why.contains("main action"), "{why}");
}

#[test]
fn an_enemy_who_holds_against_intimidation_is_steadfast_and_the_fearless_are_immune() {
    // The save: 3 against WIT 9, a pass.
    let (mut e, [bal, syb, bandit, _]) = words(&[3]);
    set_hp(&mut e, bandit, 4);
    activate(&mut e, bal);
    cmd(&mut e, bal, influence(bandit, Influence::Intimidate));
    assert!(has(&e, bandit, Condition::Steadfast));
    assert!(!has(&e, bandit, Condition::Broken));
    // As after a morale check it passed: no longer subject to it.
    let why = crate::rulesets::zones::influence::check_influence(
        e.world(),
        syb,
        bandit,
        Influence::Intimidate,
    )
    .unwrap_err()
    .0;
    assert!(why.contains("steadfast"), "{why}");
}

#[test]
fn a_distracted_enemy_cannot_react_until_the_round_ends() {
    // The bandit's WIT save against the distraction: 12, a failure.
    let (mut e, [bal, syb, bandit, _]) = words(&[12]);
    activate(&mut e, bal);
    cmd(&mut e, bal, influence(bandit, Influence::Distract));
    assert!(swayed(&e, bandit).distracted);
    cmd(&mut e, bal, Command::EndTurn);
    // The bandits pass; Sybilla walks into zone B and strikes: no dodge, no
    // counter is asked of the bandit, who has not yet taken its turn.
    pass(&mut e);
    activate(&mut e, syb);
    cmd(
        &mut e,
        syb,
        Command::Move {
            path: vec![Cell::new(2, 1)],
        },
    );
    attack(&mut e, syb, bandit, 0, MODE_STRIKE);
    assert!(
        !matches!(prompt(&e), Prompt::React { actor, .. } if actor == bandit),
        "{:?}",
        prompt(&e)
    );
    // The round ends (everyone ends its turn or passes): the distraction
    // with it.
    for _ in 0..20 {
        if view::resource::<Battle>(e.world()).rounds_completed >= 1 {
            break;
        }
        assert!(swayed(&e, bandit).distracted);
        match prompt(&e) {
            Prompt::Activate { .. } => pass(&mut e),
            Prompt::Act { actor } => cmd(&mut e, actor, Command::EndTurn),
            Prompt::React { actor, .. } => cmd(&mut e, actor, Command::NoReaction),
            Prompt::None => e.step(),
        }
    }
    assert_eq!(view::resource::<Battle>(e.world()).rounds_completed, 1);
    assert!(!swayed(&e, bandit).distracted);
}

#[test]
fn a_taunted_enemy_may_attack_only_its_taunter_until_its_turn_ends() {
    // The WIT save against the taunt: 18, a failure.
    let (mut e, [bal, syb, bandit, _]) = words(&[18]);
    activate(&mut e, bal);
    cmd(
        &mut e,
        bal,
        Command::Move {
            path: vec![Cell::new(0, 1)],
        },
    );
    cmd(&mut e, bal, influence(bandit, Influence::Taunt));
    assert_eq!(swayed(&e, bandit).taunted_by, Some(bal));
    cmd(&mut e, bal, Command::EndTurn);
    // The bandit walks into zone A: Sybilla is refused it, Balthasar not.
    activate(&mut e, bandit);
    cmd(
        &mut e,
        bandit,
        Command::Move {
            path: vec![Cell::new(1, 1)],
        },
    );
    let why = refused(
        &mut e,
        bandit,
        Command::Attack {
            target: syb,
            weapon: 0,
            mode: MODE_STRIKE,
        },
    );
    assert!(why.contains("taunted by Balthasar"), "{why}");
    assert!(
        crate::rulesets::zones::check::check(
            e.world(),
            bandit,
            &Command::Attack {
                target: bal,
                weapon: 0,
                mode: MODE_STRIKE,
            }
        )
        .is_ok()
    );
    cmd(&mut e, bandit, Command::EndTurn);
    assert_eq!(swayed(&e, bandit).taunted_by, None);
}

/// The captain's medicine box (d6, one use) on a nearby incapacitated ally.
#[test]
fn a_medicine_box_heals_a_nearby_ally_and_stands_it_up() {
    let l = level_with(
        &OPEN,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        &[
            r#"(archetype: "captain", faction: "players", at: (0, 0), name: "Captain")"#,
            r#"(archetype: "swordsman", faction: "players", at: (1, 1), name: "Theobald")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (13, 1), name: "Bandit")"#,
        ],
        false,
    );
    // The d2 gives the players the initiative; the box's d6 rolls 4.
    let mut e = start(&l, &[1, 4]);
    let [cap, theo] = ["Captain", "Theobald"].map(|n| cid(&e, n));
    set_hp(&mut e, theo, 2);
    set_condition(&mut e, theo, Condition::Incapacitated);
    activate(&mut e, cap);
    let use_box = ZonesCommand::UseItem { item: 0, on: theo };
    let title =
        crate::rulesets::zones::preview::preview(e.world(), cap, &Command::from(use_box.clone()))
            .title;
    assert!(
        title.contains("Medicine box") && title.contains("heals 1D6"),
        "{title}"
    );
    // The AI, with no enemy in reach, patches him up.
    assert_eq!(
        crate::rulesets::zones::ai::decide(e.world(), cap),
        Command::from(use_box.clone())
    );
    let from = e.events().len();
    cmd(&mut e, cap, use_box.clone());
    let ev = since(&e, from);
    assert!(ev.iter().any(|x| matches!(
        x,
        BattleEvent::Healed(Healed { target, gained: 4, hp_after: 6, .. }) if *target == theo
    )));
    assert_eq!(hp(&e, theo), 6);
    assert!(!has(&e, theo, Condition::Incapacitated));
    assert!(view::standing(e.world(), theo));
    // Back on his feet, he takes no turn this round.
    assert!(done(&e, theo));
    cmd(&mut e, cap, Command::EndTurn);
    // One use: the box is spent.
    pass(&mut e);
    let why = crate::rulesets::zones::influence::check_item(e.world(), cap, 0, theo)
        .unwrap_err()
        .0;
    assert!(why.contains("used up"), "{why}");
}

#[test]
fn the_ai_intimidates_a_shaken_enemy_its_blow_would_barely_scratch() {
    // Balthasar with only a dagger (d4) beside a brute (health 12, light
    // armour) at half health: a blow takes about 1.5 and cannot take it
    // out; intimidation (WIT 8: a d20 of 9 or more fails) breaks it 60 % of
    // the time.
    let l = level_with(
        &OPEN,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        &[
            r#"(archetype: "swordsman", faction: "players", at: (0, 0), name: "Balthasar", overrides: (weapons: ["dagger"]))"#,
            r#"(archetype: "brute", faction: "bandits", at: (1, 1), name: "Brute")"#,
        ],
        false,
    );
    let mut e = start(&l, &[1]);
    let [bal, brute] = ["Balthasar", "Brute"].map(|n| cid(&e, n));
    set_hp(&mut e, brute, 6);
    activate(&mut e, bal);
    assert_eq!(
        crate::rulesets::zones::ai::decide(e.world(), bal),
        Command::from(influence(brute, Influence::Intimidate))
    );
    // Unhurt, it is not shaken: the AI strikes.
    set_hp(&mut e, brute, 12);
    assert!(matches!(
        crate::rulesets::zones::ai::decide(e.world(), bal),
        Command::Attack { target, .. } if target == brute
    ));
}

#[test]
fn a_level_gives_items_and_names_the_unknown_ones() {
    let ok = Scenario::zones(&OPEN, &["aabbccddeeffgg", "aabbccddeeffgg"]).with(&[
        r#"(archetype: "bandit", faction: "players", at: (0, 0), name: "A", overrides: (items: ["medicine_box", "medicine_box"]))"#,
        r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "B")"#,
    ]);
    let e = ok.start(&[1]);
    let a = cid(&e, "A");
    let items = crate::rulesets::zones::query::stats(e.world(), a).map(|s| s.items.len());
    assert_eq!(items, Some(2));
    let bad = Scenario::zones(&OPEN, &["aabbccddeeffgg", "aabbccddeeffgg"]).with(&[
        r#"(archetype: "bandit", faction: "players", at: (0, 0), name: "A", overrides: (items: ["antidote"]))"#,
        r#"(archetype: "bandit", faction: "bandits", at: (13, 0), name: "B")"#,
    ]);
    let mut e = engine();
    let err = e
        .start(
            &bad.level(),
            crate::rulesets::zones::ID,
            &StartOptions {
                seed: 1,
                script: vec![],
                control: Controls::AllAi,
            },
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("antidote") && err.contains("medicine_box"),
        "{err}"
    );
}

/// A cultist (WIT 13, a sickle; Curse of rot d6 at 2 zones, three uses;
/// Dread; Pall of night; Black mending) in zone A; a bandit (WIT 9, health 8)
/// in zone C and the fearless captain in zone D. The cultist's side holds
/// the initiative (a d2 of 1), then `script`.
fn cult(script: &[u32]) -> (Engine, [Cid; 3]) {
    let l = level_with(
        &OPEN,
        &["aabbccddeeffgg", "aabbccddeeffgg"],
        &[
            r#"(archetype: "cultist", faction: "players", at: (0, 0), name: "Cultist")"#,
            r#"(archetype: "bandit", faction: "bandits", at: (4, 0), name: "Bandit", overrides: (weapons: ["axe"]))"#,
            r#"(archetype: "captain", faction: "bandits", at: (6, 1), name: "Leader")"#,
        ],
        false,
    );
    let e = start(&l, &[&[1][..], script].concat());
    let who = ["Cultist", "Bandit", "Leader"].map(|n| cid(&e, n));
    (e, who)
}

fn invoke(power: usize, target: Cid) -> ZonesCommand {
    ZonesCommand::Invoke { power, target }
}

fn uses(e: &Engine, who: Cid, power: usize) -> u32 {
    crate::rulesets::zones::query::stats(e.world(), who)
        .and_then(|s| s.powers.get(power))
        .map_or(0, |p| p.uses)
}

#[test]
fn a_curse_of_rot_deals_direct_damage_on_a_failed_wit_save_and_reveals_the_invoker() {
    // The bandit's WIT save: 15 against 9, a failure; the d6: 5, critical
    // damage (half its 8) that incapacitates it, armour or not.
    let (mut e, [cultist, bandit, _]) = cult(&[15, 5]);
    set_condition(&mut e, cultist, Condition::Concealed);
    activate(&mut e, cultist);
    let from = e.events().len();
    cmd(&mut e, cultist, invoke(0, bandit));
    let ev = since(&e, from);
    assert_eq!(saves(&ev), vec![(bandit, "WIT", 15, 9, false)]);
    assert_eq!(damaged(&ev), vec![(bandit, 5, 3)]);
    assert!(has(&e, bandit, Condition::Incapacitated));
    // "invoking a power" reveals; a power is not an attack: no reaction.
    assert!(!has(&e, cultist, Condition::Concealed));
    assert!(
        !ev.iter()
            .any(|x| matches!(x.own::<ZonesEvent>(), Some(ZonesEvent::ReactionTaken(_))))
    );
    assert_eq!(uses(&e, cultist, 0), 2);
    let why = refused(&mut e, cultist, invoke(0, bandit));
    assert!(why.contains("main action"), "{why}");
}

#[test]
fn dread_reaches_one_zone_breaks_on_a_failed_save_and_is_spent_after_one_use() {
    // The bandit's save against Dread: 11, a failure.
    let (mut e, [cultist, bandit, leader]) = cult(&[11]);
    activate(&mut e, cultist);
    // Dread reaches one zone: the bandit is two away. Step into zone B.
    let why = refused(&mut e, cultist, invoke(1, bandit));
    assert!(why.contains("reach"), "{why}");
    cmd(
        &mut e,
        cultist,
        Command::Move {
            path: vec![Cell::new(1, 0), Cell::new(2, 0)],
        },
    );
    let why = crate::rulesets::zones::influence::check_invoke(e.world(), cultist, 1, leader)
        .unwrap_err()
        .0;
    assert!(why.contains("reach") || why.contains("fearless"), "{why}");
    cmd(&mut e, cultist, invoke(1, bandit));
    assert!(has(&e, bandit, Condition::Broken));
    assert_eq!(uses(&e, cultist, 1), 0);
    let why = crate::rulesets::zones::influence::check_invoke(e.world(), cultist, 1, bandit)
        .unwrap_err()
        .0;
    assert!(why.contains("spent"), "{why}");
}

#[test]
fn the_fearless_are_immune_to_dread_and_black_mending_heals_the_invoker() {
    let (mut e, [cultist, _, leader]) = cult(&[4]);
    // Put the leader in the cultist's zone.
    e.world_mut()
        .resource_mut::<crate::rules::roster::Roster>()
        .update_place(leader, |p| p.cell = Cell::new(1, 1))
        .expect("a combatant");
    let why = crate::rulesets::zones::influence::check_invoke(e.world(), cultist, 1, leader)
        .unwrap_err()
        .0;
    assert!(why.contains("fearless"), "{why}");
    // Unhurt, it has nothing to mend; at 2 of 7 the d6's 4 heals it to 6.
    activate(&mut e, cultist);
    let why = refused(&mut e, cultist, invoke(3, cultist));
    assert!(why.contains("not hurt"), "{why}");
    set_hp(&mut e, cultist, 2);
    cmd(&mut e, cultist, invoke(3, cultist));
    assert_eq!(hp(&e, cultist), 6);
}

#[test]
fn pall_of_night_dazes_an_enemy_who_fails_its_save() {
    // The bandit's save: 20, a failure (a natural 20 always fails).
    let (mut e, [cultist, bandit, _]) = cult(&[20]);
    activate(&mut e, cultist);
    cmd(
        &mut e,
        cultist,
        Command::Move {
            path: vec![Cell::new(1, 0), Cell::new(2, 0)],
        },
    );
    cmd(&mut e, cultist, invoke(2, bandit));
    assert!(swayed(&e, bandit).distracted);
}

#[test]
fn the_ai_curses_from_afar_rather_than_walk_up_to_strike() {
    // A curse: 55 % (a d20 over WIT 9) of d6 direct damage, half the time
    // taking the bandit out; closing in with its sickle is worth less.
    let (mut e, [cultist, bandit, _]) = cult(&[]);
    activate(&mut e, cultist);
    assert_eq!(
        crate::rulesets::zones::ai::decide(e.world(), cultist),
        Command::from(invoke(0, bandit))
    );
}
