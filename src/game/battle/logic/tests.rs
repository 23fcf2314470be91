//! The battle screen driven without a window (`MinimalPlugins` +
//! `StatesPlugin`): a human's clicks become the right commands, and an
//! all-AI battle runs from setup to the results.

use bevy::prelude::*;

use super::*;
use crate::game::session::{Screen, Session, Speed};
use crate::rules::command::Command;
use crate::rules::components::Controller;
use crate::rules::log::BattleLog;

/// The reaction dialog's answers come grouped by kind, the kinds in the
/// ruleset's order ("Counter: Shove ..." is a counter like "Counter
/// East swordsman with the Sword").
#[test]
fn reactions_are_grouped_by_kind() {
    let titles = [
        "Dodge: AGI save under 11",
        "Counter East swordsman with the Sword",
        "Guard Theobald",
        "Counter: Shove East swordsman",
        "Hide behind Sybilla",
        "Guard Sybilla",
    ];
    let kinds: Vec<String> = titles.iter().map(|t| reaction_kind(t)).collect();
    assert_eq!(kinds[3], "Counter");
    let order = grouped_by_kind((0..titles.len()).collect(), &kinds);
    assert_eq!(order, vec![0, 1, 3, 2, 5, 4]);
}

/// A move that ends where a fallen enemy lies says it steps over the
/// body (the fallen hold no cell); one that ends on open ground does not.
#[test]
fn a_move_onto_a_fallen_enemy_says_so() {
    use crate::rules::components::Condition;
    use crate::testkit::{cid, engine, set_condition, start};
    let l = level(
        &["......", "......"],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (0, 0), name: "A")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (2, 0), name: "B")"#,
            r#"(archetype: "swordsman", faction: "blue", at: (5, 1), name: "C")"#,
        ],
    );
    let mut e = engine();
    start(&mut e, &l, &[10, 1, 1]);
    let b = cid(&e, "B");
    set_condition(&mut e, b, Condition::Dead);
    let lines = |e: &crate::rules::engine::Engine, to: Cell| {
        preview(
            e.world(),
            &Command::Move {
                path: vec![Cell::new(1, 0), to],
            },
        )
        .expect("a preview")
        .lines
    };
    let onto = lines(&e, Cell::new(2, 0));
    assert!(
        onto.iter()
            .any(|l| l == "ends over the fallen B (the fallen do not hold their cells)"),
        "{onto:?}"
    );
    assert!(
        !lines(&e, Cell::new(2, 1))
            .iter()
            .any(|l| l.contains("fallen"))
    );
}

/// A click on a cell where a rider sits on its mount strikes the rider,
/// or the mount when the player picks "the mount".
#[test]
fn a_click_on_a_mounted_enemy_picks_rider_or_mount() {
    use crate::rules::engine::{Controls, StartOptions};
    use crate::testkit::{cid, engine};
    let level =
        crate::data::level::load_level(std::path::Path::new("levels/caravan_ambush.ron")).unwrap();
    let mut e = engine();
    let opts = StartOptions {
        seed: 1,
        script: Vec::new(),
        control: Controls::AsLevel,
    };
    e.start(&level, crate::rulesets::zones::ID, &opts).unwrap();
    let [hesk, varga, raven] = ["Hesk", "Chief Varga", "Raven"].map(|n| cid(&e, n));
    let at = view::cell(e.world(), raven).unwrap();
    assert_eq!(target_at(e.world(), at, hesk, false), Some(varga));
    assert_eq!(target_at(e.world(), at, hesk, true), Some(raven));
    // One's own side is no target.
    let wagon = view::cell(e.world(), hesk).unwrap();
    assert_eq!(target_at(e.world(), wagon, hesk, false), None);
}
use crate::rules::map::Cell;
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::zones::command::ZonesCommand;
use crate::testkit::{assets, level};

fn app(session: Session) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    crate::game::logic_plugins(&mut app);
    crate::rules::engine::load_rulesets(app.world_mut(), &assets()).expect("assets");
    app.insert_resource(session);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Battle);
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// The battle screen on `level` under ud10, red played at this desk
/// and blue by the AI, run until it is `who`'s turn (the AI may act
/// first, by initiative).
fn ud10_at_turn_of(level: crate::rules::level::Level, who: Cid) -> App {
    let session = Session {
        level,
        path: "test.ron".into(),
        ruleset: crate::rulesets::ud10::ID,
        supported: vec![crate::rulesets::ud10::ID],
        controls: vec![Controller::Human, Controller::Ai],
        seed: 3,
    };
    let mut app = app(session);
    for _ in 0..100 {
        app.update();
        if human_actor(app.world()) == Some(who) {
            break;
        }
    }
    assert_eq!(human_actor(app.world()), Some(who));
    app
}

/// A ruleset's board tool, as the player meets it: the ruleset offers
/// "Aim (G)" on the enemy in sight, the bar shows the tool, a click on
/// the enemy with it sends the aim, and the pointer goes back to moving.
#[test]
fn a_rulesets_board_tool_sends_its_command_on_a_click() {
    let l = level(
        &["..........", "..........", ".........."],
        &[
            r#"(archetype: "archer", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "swordsman", faction: "blue", at: (8, 1), name: "B", facing: W)"#,
        ],
    );
    let (a, b) = (Cid(0), Cid(1));
    let mut app = ud10_at_turn_of(l, a);
    // The options are read at the start of the next frame.
    app.update();
    let ui = app.world().resource::<TurnUi>();
    let aim = ui
        .options
        .tool_offers("Aim (G)")
        .next()
        .expect("the aim tool is offered")
        .clone();
    assert_eq!(aim.give, Give::On(b));
    assert_eq!(aim.key, Some(crate::rules::hooks::OfferKey::Letter('G')));
    let at_b = view::cell(app.world(), b).unwrap();
    app.world_mut()
        .write_message(UiIntent::Tool(Tool::Offer(aim.label.clone())));
    app.update();
    app.world_mut().write_message(UiIntent::Click(at_b));
    app.update();
    let sent: Vec<Command> = app
        .world()
        .resource::<BattleLog>()
        .commands
        .iter()
        .filter(|c| c.actor == a)
        .map(|c| c.command.clone())
        .collect();
    assert_eq!(
        sent.last().and_then(|c| c.own::<Ud10Command>()),
        Some(&Ud10Command::Aim {
            target: b,
            weapon: 0
        })
    );
    assert_eq!(app.world().resource::<TurnUi>().tool, Tool::Move);
}

/// Facing, as the player meets it (ud10): a move clicked away from the
/// near enemy ends facing it, not the last step's way; the "Face (T)"
/// tool offers the cells beside the mover, and a click on one turns it
/// that way, free (the action still there).
#[test]
fn a_player_ends_a_move_facing_the_nearest_enemy_and_turns_with_the_face_tool() {
    use crate::rules::components::Heading;
    use crate::rules::level::Facing;
    let l = level(
        &["..........", "..........", ".........."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (3, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 1), name: "B", facing: W)"#,
        ],
    );
    let a = Cid(0);
    let mut app = ud10_at_turn_of(l, a);
    let heading = |app: &App| view::get::<Heading>(app.world(), a).map(|h| h.0);
    app.world_mut()
        .write_message(UiIntent::Hover(Some(Cell::new(1, 1))));
    app.world_mut()
        .write_message(UiIntent::Click(Cell::new(1, 1)));
    app.update();
    assert_eq!(view::cell(app.world(), a), Some(Cell::new(1, 1)));
    assert_eq!(heading(&app), Some(Facing::E), "the last step went west");
    app.update();
    let cells: Vec<Cell> = app
        .world()
        .resource::<TurnUi>()
        .options
        .tool_offers("Face (T)")
        .map(|o| match &o.give {
            Give::At { cell, .. } => *cell,
            g => panic!("{g:?}"),
        })
        .collect();
    assert_eq!(cells.len(), 7, "eight ways but the one faced: {cells:?}");
    assert!(!cells.contains(&Cell::new(2, 1)));
    app.world_mut()
        .write_message(UiIntent::Tool(Tool::Offer("Face (T)".into())));
    app.update();
    app.world_mut()
        .write_message(UiIntent::Click(Cell::new(1, 0)));
    app.update();
    assert_eq!(heading(&app), Some(Facing::N));
    assert!(!crate::rulesets::ud10::query::action_used(app.world(), a));
    assert_eq!(app.world().resource::<TurnUi>().tool, Tool::Move);
}

#[test]
fn a_human_turn_of_clicks_reaches_the_core_as_commands() {
    // Red (the human) has a swordsman, blue (AI) an archer out of reach.
    let l = level(
        &["..........", "..........", ".........."],
        &[
            r#"(archetype: "swordsman", faction: "red", at: (1, 1), name: "A", facing: E)"#,
            r#"(archetype: "archer", faction: "blue", at: (5, 1), name: "B", facing: W)"#,
            r#"(archetype: "archer", faction: "blue", at: (9, 2), name: "C", facing: W)"#,
        ],
    );
    let a = Cid(0);
    let b = Cid(1);
    let mut app = ud10_at_turn_of(l, a);
    assert_eq!(screen(&app), Screen::Battle);
    let by_a = |app: &App| -> Vec<Command> {
        app.world()
            .resource::<BattleLog>()
            .commands
            .iter()
            .filter(|c| c.actor == a)
            .map(|c| c.command.clone())
            .collect()
    };
    // Click A itself: selects it, sends nothing.
    app.world_mut()
        .write_message(UiIntent::Click(Cell::new(1, 1)));
    app.update();
    assert_eq!(app.world().resource::<TurnUi>().selected, Some(a));
    assert!(by_a(&app).is_empty());
    // Hover and click a reachable cell: a move along the shown path.
    app.world_mut()
        .write_message(UiIntent::Hover(Some(Cell::new(4, 1))));
    app.world_mut()
        .write_message(UiIntent::Click(Cell::new(4, 1)));
    app.update();
    // Click the enemy: an attack with the weapon in hand.
    app.world_mut()
        .write_message(UiIntent::Click(Cell::new(5, 1)));
    app.update();
    // The archer may dodge: the AI answers, then it is A's again.
    for _ in 0..10 {
        if human_actor(app.world()) == Some(a) {
            break;
        }
        app.update();
    }
    // End the turn from the action bar.
    app.world_mut()
        .write_message(UiIntent::Command(Command::EndTurn));
    app.update();
    let cmds = by_a(&app);
    assert_eq!(
        cmds[..2],
        [
            Command::Move {
                path: vec![Cell::new(2, 1), Cell::new(3, 1), Cell::new(4, 1)]
            },
            Command::Attack {
                target: b,
                weapon: 0,
                mode: 0
            },
        ]
    );
    // The archer may dodge: the AI answers; then A ends the turn.
    assert_eq!(cmds.last(), Some(&Command::EndTurn));
}

/// The game's logic (no window) in a battle on the shipped level `name`
/// under `ruleset`, its first faction played by a human, at the speed
/// that shows nothing.
fn human_battle(name: &str, ruleset: crate::rules::battle::RulesetId, seed: u64) -> App {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("levels/{name}.ron"));
    let l = crate::data::level::load_level(&path).expect("level");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    crate::game::logic_plugins(&mut app);
    crate::rules::engine::load_rulesets(app.world_mut(), &assets()).expect("assets");
    let session = Session::new(app.world(), l, path, Some(ruleset), seed, false).expect("session");
    assert_eq!(session.controls[0], Controller::Human);
    app.insert_resource(session);
    app.world_mut().resource_mut::<Pacing>().speed = Speed::Instant;
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Battle);
    app
}

/// Zones: the human's faction is asked who acts; a click on one of its
/// characters gives it the turn, numbered reactions answer attacks, and
/// the skirmish is played to the results.
#[test]
fn a_zones_skirmish_is_played_to_the_end_by_clicks() {
    let mut app = human_battle("village_crossroads", crate::rulesets::zones::ID, 5);
    // The clicks a new player makes, as the screen-walk test makes them.
    let (mut activations, mut reactions, mut walked) = (0, 0, None);
    let mut frames = 0;
    // While choosing who acts, the player looks at an enemy's sheet;
    // once a character is activated, the sheet follows it.
    let (mut looked_at, mut followed) = (None, 0);
    while screen(&app) != Screen::Results && frames < 20_000 {
        frames += 1;
        let w = app.world();
        let prompt = w.resource::<Battle>().prompt;
        if let (Some(enemy), Prompt::Act { actor }) = (looked_at, prompt)
            && w.resource::<TurnUi>().options.actor == Some(actor)
            && w.resource::<TurnUi>().key.map(|k| k.0) == Some(prompt)
        {
            let selected = w.resource::<TurnUi>().selected;
            assert_ne!(selected, Some(enemy), "the sheet stayed on {enemy:?}");
            followed += 1;
            looked_at = None;
        }
        if let Some(i) = crate::game::tour::player::human_click(w, &mut walked) {
            match prompt {
                Prompt::Activate { .. } => {
                    activations += 1;
                    let enemy = view::enemies(w, Cid(0)).first().copied();
                    app.world_mut().write_message(UiIntent::Select(enemy));
                    app.update();
                    looked_at = enemy;
                }
                Prompt::React { .. } => reactions += 1,
                _ => {}
            }
            app.world_mut().write_message(i);
        }
        app.update();
    }
    assert!(followed > 0);
    assert_eq!(screen(&app), Screen::Results, "after {frames} frames");
    assert!(
        activations > 0 && reactions > 0,
        "{activations} {reactions}"
    );
    let log = app.world().resource::<BattleLog>();
    let by_human = |f: fn(&Command) -> bool| {
        log.commands
            .iter()
            .filter(|c| view::faction(app.world(), c.actor) == Some(0) && f(&c.command))
            .count()
    };
    assert!(by_human(|c| matches!(c.own(), Some(ZonesCommand::Activate { .. }))) > 0);
    assert!(by_human(|c| matches!(c, Command::Attack { .. })) > 0);
}

/// brp: the human states each character's intent by clicking an enemy,
/// moves, strikes on its DEX rank, answers attacks from the dialog, and
/// the skirmish is played to the results.
#[test]
fn a_brp_skirmish_is_played_to_the_end_by_clicks() {
    use crate::rulesets::brp::command::BrpCommand;
    let mut app = human_battle("open_field", crate::rulesets::brp::ID, 3);
    let (mut reactions, mut walked, mut frames) = (0, None, 0);
    while screen(&app) != Screen::Results && frames < 20_000 {
        frames += 1;
        let w = app.world();
        if let Some(i) = crate::game::tour::player::human_click(w, &mut walked) {
            if matches!(w.resource::<Battle>().prompt, Prompt::React { .. }) {
                reactions += 1;
            }
            app.world_mut().write_message(i);
        }
        app.update();
    }
    assert_eq!(screen(&app), Screen::Results, "after {frames} frames");
    let log = app.world().resource::<BattleLog>();
    let by_human = |f: fn(&Command) -> bool| {
        log.commands
            .iter()
            .filter(|c| view::faction(app.world(), c.actor) == Some(0) && f(&c.command))
            .count()
    };
    assert!(by_human(|c| matches!(c.own(), Some(BrpCommand::Declare(_)))) > 0);
    assert!(by_human(|c| matches!(c, Command::Move { .. })) > 0);
    assert!(by_human(|c| matches!(c, Command::Attack { .. })) > 0);
    assert!(reactions > 0, "no attack was answered");
}

#[test]
fn an_all_ai_battle_runs_from_setup_to_results() {
    all_ai_to_results(None);
}

/// The setup screen's "AI: easy" against "AI: normal": the game plays
/// it to the results as any preview.
#[test]
fn an_easy_ai_against_the_normal_one_runs_to_results() {
    all_ai_to_results(Some(vec![Controller::EasyAi, Controller::Ai]));
}

/// "AI: hard" against "AI: normal": the look-ahead plays within the
/// game's time budget, to the results.
#[test]
fn a_hard_ai_against_the_normal_one_runs_to_results() {
    all_ai_to_results(Some(vec![Controller::Ai, Controller::HardAi]));
}

fn all_ai_to_results(controls: Option<Vec<Controller>>) {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/mirror_duel.ron");
    let l = crate::data::level::load_level(&path).expect("level");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    crate::game::logic_plugins(&mut app);
    crate::rules::engine::load_rulesets(app.world_mut(), &assets()).expect("assets");
    let mut session = Session::new(app.world(), l, path, None, 7, true).expect("session");
    // The level other than the normal AI the setup asked for, if any.
    let other = controls
        .as_ref()
        .and_then(|c| c.iter().copied().find(|c| *c != Controller::Ai));
    if let Some(c) = controls {
        session.controls = c;
    }
    assert!(session.is_preview());
    app.insert_resource(session);
    app.world_mut().resource_mut::<Pacing>().speed = Speed::X4;
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Battle);
    let mut frames = 0;
    while screen(&app) != Screen::Results && frames < 5_000 {
        app.update();
        frames += 1;
    }
    assert_eq!(screen(&app), Screen::Results, "after {frames} frames");
    assert!(
        app.world()
            .resource::<crate::rules::battle::Battle>()
            .is_over()
    );
    if let Some(other) = other {
        let mut q = app.world_mut().query::<&Controller>();
        assert!(q.iter(app.world()).any(|c| *c == other), "{other:?} played");
    }
}
