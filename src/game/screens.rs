//! The title screen, battle setup and the results (egui).

use bevy::prelude::*;
use bevy_egui::{EguiPrimaryContextPass, egui};

use crate::game::battle::view::panels::{colour32, egui_ctx, root_ui};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Catalog, Screen, Session};
use crate::game::widgets::Tag;
use crate::rules::battle::Battle;
use crate::rules::components::{Cid, Controller, Health};
use crate::rules::event::BattleEvent;
use crate::rules::hooks::ActiveRuleset;
use crate::rules::log::BattleLog;
use crate::rules::roster::{Factions, Roster};

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            title.run_if(in_state(Screen::Title)),
            setup.run_if(in_state(Screen::Setup)),
            results.run_if(in_state(Screen::Results)),
        ),
    );
}

/// Send what the buttons asked for this frame.
fn send(world: &mut World, asked: Vec<ScreenIntent>) {
    for intent in asked {
        world.write_message(intent);
    }
}

fn big_button(ui: &mut egui::Ui, text: &str, kind: &str) -> bool {
    ui.add_sized(
        [300.0, 44.0],
        egui::Button::new(egui::RichText::new(text).size(20.0)),
    )
    .tag(kind)
    .clicked()
}

fn title(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let mut root = root_ui(&ctx, "title");
    let mut asked = Vec::new();
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.18);
            ui.label(
                egui::RichText::new("FRAY")
                    .size(96.0)
                    .strong()
                    .color(egui::Color32::from_rgb(230, 200, 120)),
            );
            ui.label(
                egui::RichText::new("tabletop combat rules, played out on a map")
                    .size(20.0)
                    .italics(),
            );
            ui.add_space(40.0);
            if big_button(ui, "Skirmish against the AI", "title: skirmish") {
                asked.push(ScreenIntent::Skirmish);
            }
            ui.add_space(8.0);
            if big_button(ui, "GM preview (AI against AI)", "title: preview") {
                asked.push(ScreenIntent::GmPreview);
            }
            ui.add_space(8.0);
            if big_button(ui, "Set up a battle…", "title: setup") {
                asked.push(ScreenIntent::Open(Screen::Setup));
            }
            ui.add_space(8.0);
            if big_button(ui, "Quit", "title: quit") {
                asked.push(ScreenIntent::Quit);
            }
            ui.add_space(30.0);
            ui.label(egui::RichText::new("F1 in battle lists every control").weak());
        });
    });
    send(world, asked);
}

fn setup(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let catalog = world.resource::<Catalog>().clone();
    let Some(session) = world.get_resource::<Session>().cloned() else {
        return;
    };
    let mut asked = Vec::new();
    let mut root = root_ui(&ctx, "setup");
    egui::CentralPanel::default().show(&mut root, |ui| {
        ui.heading(egui::RichText::new("Battle setup").size(30.0));
        ui.add_space(10.0);
        ui.columns(2, |cols| {
            cols[0].label(egui::RichText::new("Level").strong().size(18.0));
            egui::ScrollArea::vertical()
                .id_salt("levels")
                .show(&mut cols[0], |ui| {
                    for (path, level) in &catalog.levels {
                        match level {
                            Ok(l) => {
                                let chosen = *path == session.path;
                                let r = ui.selectable_label(
                                    chosen,
                                    egui::RichText::new(format!(
                                        "{}  ({}×{}, {} combatants)",
                                        l.name,
                                        l.map.width(),
                                        l.map.height(),
                                        l.combatants.len()
                                    ))
                                    .size(16.0),
                                );
                                let r = r.tag("setup: level");
                                if r.clicked() && !chosen {
                                    asked.push(ScreenIntent::PickLevel(path.clone()));
                                }
                                ui.label(egui::RichText::new(&l.description).weak());
                                ui.add_space(6.0);
                            }
                            Err(e) => {
                                ui.label(egui::RichText::new(e).color(egui::Color32::LIGHT_RED));
                            }
                        }
                    }
                });
            let ui = &mut cols[1];
            ui.label(egui::RichText::new("Ruleset").strong().size(18.0));
            ui.horizontal(|ui| {
                for r in crate::rulesets::KNOWN {
                    let supported = session.supported.contains(&r);
                    // Why a ruleset is greyed out: not built yet, or not
                    // for this level (the level's own words).
                    let why = if supported {
                        String::new()
                    } else {
                        match crate::rules::engine::validate(world, &session.level, r) {
                            Err(e) if e.message.contains("not implemented") => format!(
                                "{r} is not playable yet: its rules are still being built \
                                 into Fray (rule text: shared/rules/{r}.txt)"
                            ),
                            Err(e) => format!("Not for this level: {}", e.message),
                            Ok(()) => String::new(),
                        }
                    };
                    let resp = ui
                        .add_enabled(
                            supported,
                            egui::Button::selectable(session.ruleset == r, r.id()),
                        )
                        .tag("setup: ruleset")
                        .on_disabled_hover_text(why);
                    if resp.clicked() {
                        asked.push(ScreenIntent::PickRuleset(r));
                    }
                }
            });
            ui.label(
                egui::RichText::new(
                    "Greyed out: not playable yet, or not for this level (hover one to see why).",
                )
                .weak(),
            );
            ui.add_space(12.0);
            ui.label(
                egui::RichText::new("Who plays each faction")
                    .strong()
                    .size(18.0),
            );
            for (i, f) in session.level.factions.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.label(
                        egui::RichText::new(&f.name)
                            .color(colour32(f.colour))
                            .strong(),
                    );
                    let now = session.controls.get(i).copied();
                    for (c, label, tip) in [
                        (Controller::Human, "Human at this desk", "You give this faction's commands"),
                        (
                            Controller::EasyAi,
                            "AI: easy",
                            "The AI with a worse eye: one choice in two (where to move, whom to attack, who acts, how to meet an attack) goes elsewhere at random",
                        ),
                        (Controller::Ai, "AI: normal", "The tactical AI"),
                        (
                            Controller::HardAi,
                            "AI: hard",
                            "The tactical AI looking ahead: before each choice it plays the battle on from here for its own choice and a few others, and keeps the one that fared best (up to 0.2 s a decision)",
                        ),
                    ] {
                        if ui
                            .selectable_label(now == Some(c), label)
                            .on_hover_text(tip)
                            .tag("setup: control")
                            .clicked()
                        {
                            asked.push(ScreenIntent::Control(i, c));
                        }
                    }
                });
            }
            // What Start will begin, said before it is pressed.
            let humans = session
                .controls
                .iter()
                .filter(|c| **c == Controller::Human)
                .count();
            let start = match humans {
                0 => "Every side is played by the AI: Start opens a GM preview \
                      (you watch, pause and step)."
                    .to_string(),
                1 => "You play one side against the AI.".to_string(),
                n => format!("{n} humans at this desk: hotseat, each side in turn."),
            };
            ui.label(egui::RichText::new(start).strong());
            ui.add_space(12.0);
            ui.horizontal(|ui| {
                ui.label(egui::RichText::new("Seed").strong());
                let mut seed = session.seed;
                if ui
                    .add(egui::DragValue::new(&mut seed))
                    .tag("setup: seed")
                    .changed() {
                    asked.push(ScreenIntent::Seed(seed));
                }
            });
            ui.add_space(12.0);
            let pieces: Vec<Piece> = session
                .level
                .combatants
                .iter()
                .map(|c| Piece {
                    at: c.at,
                    colour: session
                        .level
                        .factions
                        .iter()
                        .find(|f| f.id == c.faction)
                        .map_or(egui::Color32::WHITE, |f| colour32(f.colour)),
                    fallen: false,
                })
                .collect();
            minimap(ui, &session.level.map, &pieces);
            ui.add_space(20.0);
            ui.horizontal(|ui| {
                if big_button(ui, "Start battle", "setup: start") {
                    asked.push(ScreenIntent::Start);
                }
                if ui.button("Back").tag("setup: back").clicked() {
                    asked.push(ScreenIntent::Open(Screen::Title));
                }
            });
        });
    });
    send(world, asked);
}

fn results(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let battle = world.resource::<Battle>().clone();
    let roster = world.resource::<Roster>().clone();
    let factions = world.resource::<Factions>().clone();
    let log = world.resource::<BattleLog>().clone();
    let map = world.resource::<crate::rules::map::Map>().clone();
    let seed = world.get_resource::<Session>().map_or(0, |s| s.seed);
    let mut asked = Vec::new();
    let mut root = root_ui(&ctx, "results");
    egui::CentralPanel::default().show(&mut root, |ui| {
        // A small window scrolls to the buttons and across the columns
        // rather than cutting them off.
        egui::ScrollArea::both()
            .id_salt("results_page")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(30.0);
                    let (headline, colour) = match battle.outcome.as_ref().and_then(|o| o.winner) {
                        Some(f) => {
                            let fac = &factions.0[f as usize];
                            // "Victory: Bandits" reads right for any name.
                            (format!("Victory: {}", fac.name), colour32(fac.colour))
                        }
                        None => ("A draw".to_string(), egui::Color32::WHITE),
                    };
                    ui.label(
                        egui::RichText::new(headline)
                            .size(48.0)
                            .strong()
                            .color(colour),
                    );
                    if let Some(o) = &battle.outcome {
                        let why = crate::rules::narrate::end_reason(&o.reason);
                        ui.label(
                            egui::RichText::new(format!("{why}, after {} rounds", o.rounds))
                                .size(20.0),
                        );
                    }
                    ui.add_space(20.0);
                });
                // Casualties per faction and every combatant's fate: what it dealt
                // and took, and whom it took out of the fight.
                let tally = Tally::of(&log, roster.len());
                ui.columns(factions.0.len().max(1), |cols| {
                    for (fi, f) in factions.0.iter().enumerate() {
                        let ui = &mut cols[fi];
                        let members: Vec<_> = roster
                            .cids()
                            .filter(|c| roster.factions.get(c.0 as usize) == Some(&(fi as u8)))
                            .collect();
                        let fallen = members
                            .iter()
                            .filter(|c| {
                                roster
                                    .place(**c)
                                    .is_some_and(|p| p.conditions.out_of_fight())
                            })
                            .count();
                        ui.label(
                            egui::RichText::new(&f.name)
                                .size(22.0)
                                .strong()
                                .color(colour32(f.colour)),
                        );
                        ui.label(format!("casualties: {fallen} of {}", members.len()));
                        // Six columns, the last (whom it took out, what the
                        // ruleset adds) wrapped at the faction's column: a
                        // list of names ran over the next faction's table.
                        egui::Grid::new(format!("fates{fi}"))
                            .striped(true)
                            .num_columns(6)
                            .show(ui, |ui| {
                                for c in members {
                                    let e = roster.entity(c);
                                    let h = e.and_then(|e| world.get::<Health>(e)).copied();
                                    let conds =
                                        roster.place(c).map(|p| p.conditions).unwrap_or_default();
                                    ui.label(roster.name(c));
                                    ui.label(h.map_or(String::new(), |h| {
                                        format!("HP {}/{}", h.hp, h.hp_max)
                                    }));
                                    ui.label(fate(conds));
                                    let i = c.0 as usize;
                                    let dealt = tally.dealt.get(i).copied().unwrap_or(0);
                                    ui.label(format!("dealt {dealt}"));
                                    let t = tally.taken.get(i).copied().unwrap_or(0);
                                    ui.label(if t > 0 {
                                        format!("took {t}")
                                    } else {
                                        "unhurt".to_string()
                                    });
                                    let out: Vec<&str> = tally
                                        .took_out
                                        .get(i)
                                        .map(|l| l.iter().map(|o| roster.name(*o)).collect())
                                        .unwrap_or_default();
                                    let mut last = Vec::new();
                                    if !out.is_empty() {
                                        last.push(format!("took out {}", out.join(", ")));
                                    }
                                    // What the ruleset adds (zones: the gear the
                                    // durability rolls wore out).
                                    let note = world
                                        .get_resource::<ActiveRuleset>()
                                        .and_then(|h| (h.0.after_note)(world, c));
                                    last.extend(note.filter(|n| !n.is_empty()));
                                    ui.add(egui::Label::new(last.join("; ")).wrap());
                                    ui.end_row();
                                }
                            });
                    }
                });
                ui.add_space(12.0);
                // The board as the battle left it.
                let board = egui::CollapsingHeader::new("The final board")
                    .default_open(true)
                    .show(ui, |ui| {
                        let pieces: Vec<Piece> = roster
                            .cids()
                            .filter_map(|c| {
                                let p = roster.place(c)?;
                                // Who left the field is not on it; riders sit on
                                // their mounts.
                                if p.conditions.has(crate::rules::components::Condition::Fled)
                                    || p.riding.is_some()
                                {
                                    return None;
                                }
                                let f = roster.factions.get(c.0 as usize).copied().unwrap_or(0);
                                Some(Piece {
                                    at: p.cell,
                                    colour: factions
                                        .0
                                        .get(f as usize)
                                        .map_or(egui::Color32::WHITE, |f| colour32(f.colour)),
                                    fallen: p.conditions.out_of_fight(),
                                })
                            })
                            .collect();
                        minimap(ui, &map, &pieces);
                    });
                board.header_response.tag("results: final board");
                ui.add_space(12.0);
                // The whole battle, line by line (as the battle screen's log:
                // silent events have no line).
                let lines: Vec<&crate::rules::event::BattleEvent> =
                    log.events.iter().filter(|e| !e.silent()).collect();
                let whole =
                    egui::CollapsingHeader::new(format!("The whole log ({} lines)", lines.len()))
                        .default_open(false)
                        .show(ui, |ui| {
                            let names = crate::rules::roster::Names {
                                roster: &roster,
                                factions: &factions,
                            };
                            egui::ScrollArea::vertical()
                                .max_height(260.0)
                                .auto_shrink([false, true])
                                .show_rows(ui, 16.0, lines.len(), |ui, range| {
                                    for e in &lines[range] {
                                        ui.label(
                                            egui::RichText::new(crate::rules::narrate::describe(
                                                &names, e,
                                            ))
                                            .monospace()
                                            .size(12.0),
                                        );
                                    }
                                });
                        });
                whole.header_response.tag("results: whole log");
                ui.add_space(12.0);
                ui.vertical_centered(|ui| {
                    if big_button(ui, "Play again (new seed)", "results: play again") {
                        asked.push(ScreenIntent::PlayAgain);
                    }
                    if big_button(ui, &format!("Replay this seed ({seed})"), "results: replay") {
                        asked.push(ScreenIntent::Replay);
                    }
                    if big_button(ui, "Battle setup", "results: setup") {
                        asked.push(ScreenIntent::Open(Screen::Setup));
                    }
                    if big_button(ui, "Title screen", "results: title") {
                        asked.push(ScreenIntent::Open(Screen::Title));
                    }
                });
            });
    });
    send(world, asked);
}

/// A small picture of the level: terrain, and each combatant as a dot in its
/// faction's colour.
/// A combatant on a miniature of the board: where it stands, its
/// faction's colour, and whether it has fallen there.
struct Piece {
    at: crate::rules::map::Cell,
    colour: egui::Color32,
    fallen: bool,
}

/// The board in miniature, with its pieces: the level as it starts (setup)
/// or the battle as it ended (results).
fn minimap(ui: &mut egui::Ui, map: &crate::rules::map::Map, pieces: &[Piece]) {
    use crate::rules::map::Terrain;
    let cell = (360.0 / map.width().max(map.height()) as f32).clamp(4.0, 18.0);
    let size = egui::vec2(map.width() as f32 * cell, map.height() as f32 * cell);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let grass = egui::Color32::from_rgb(104, 142, 74);
    for c in map.cells() {
        // As the board draws them: cover is an object on grass (crates a
        // brown box, trees a dark green fir), rough ground a darker,
        // speckled grass.
        let t = map.terrain(c);
        let col = match t {
            Terrain::Open | Terrain::LowCover | Terrain::HighCover => grass,
            Terrain::Wall => egui::Color32::from_rgb(120, 118, 124),
            Terrain::Difficult => egui::Color32::from_rgb(84, 112, 58),
            Terrain::Water => egui::Color32::from_rgb(52, 104, 170),
            Terrain::HighGround => egui::Color32::from_rgb(170, 156, 104),
            Terrain::Pit => egui::Color32::from_rgb(24, 18, 16),
        };
        let min = rect.min + egui::vec2(c.x as f32 * cell, c.y as f32 * cell);
        let r = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
        painter.rect_filled(r, 0.0, col);
        match t {
            Terrain::LowCover => {
                painter.rect_filled(
                    r.shrink(cell * 0.2),
                    1.0,
                    egui::Color32::from_rgb(150, 98, 48),
                );
            }
            // A tree as a small fir, not a disc: discs are the pieces.
            Terrain::HighCover => {
                let c = r.center();
                let d = cell * 0.38;
                painter.add(egui::Shape::convex_polygon(
                    vec![
                        c + egui::vec2(0.0, -d),
                        c + egui::vec2(d * 0.8, d),
                        c + egui::vec2(-d * 0.8, d),
                    ],
                    egui::Color32::from_rgb(34, 76, 34),
                    egui::Stroke::NONE,
                ));
            }
            Terrain::Difficult => {
                painter.circle_filled(
                    r.center(),
                    cell * 0.12,
                    egui::Color32::from_rgb(120, 104, 72),
                );
            }
            _ => {}
        }
    }
    // The fallen first, under anyone standing on their cell.
    let mut order: Vec<&Piece> = pieces.iter().collect();
    order.sort_by_key(|p| !p.fallen);
    for p in order {
        let centre =
            rect.min + egui::vec2((p.at.x as f32 + 0.5) * cell, (p.at.y as f32 + 0.5) * cell);
        let r = cell * 0.4;
        if p.fallen {
            // A faded disc, crossed out.
            painter.circle_filled(centre, r, p.colour.gamma_multiply(0.4));
            let d = r * 0.7;
            let black = egui::Stroke::new(1.5, egui::Color32::BLACK);
            painter.line_segment(
                [centre - egui::vec2(d, d), centre + egui::vec2(d, d)],
                black,
            );
            painter.line_segment(
                [centre + egui::vec2(-d, d), centre + egui::vec2(d, -d)],
                black,
            );
        } else {
            painter.circle_filled(centre, r, p.colour);
            painter.circle_stroke(centre, r, egui::Stroke::new(1.0, egui::Color32::BLACK));
        }
    }
}

/// What each combatant did and suffered, from the log: damage dealt and
/// taken, and whom it took out of the fight (the last to hurt a combatant
/// before it fell). Counted for the results screen; the battle's state is
/// not read.
#[derive(Default)]
struct Tally {
    dealt: Vec<i32>,
    taken: Vec<i32>,
    took_out: Vec<Vec<Cid>>,
}

impl Tally {
    fn of(log: &BattleLog, combatants: usize) -> Tally {
        use crate::rules::components::Condition;
        let mut t = Tally {
            dealt: vec![0; combatants],
            taken: vec![0; combatants],
            took_out: vec![Vec::new(); combatants],
        };
        let mut last_by: Vec<Option<Cid>> = vec![None; combatants];
        let mut down = vec![false; combatants];
        for e in &log.events {
            match e {
                BattleEvent::Damaged {
                    target,
                    by,
                    hp_loss,
                    ..
                } => {
                    if let Some(x) = t.taken.get_mut(target.0 as usize) {
                        *x += hp_loss;
                    }
                    if let Some(by) = by
                        && let Some(x) = t.dealt.get_mut(by.0 as usize)
                    {
                        *x += hp_loss;
                    }
                    if let Some(l) = last_by.get_mut(target.0 as usize) {
                        *l = *by;
                    }
                }
                BattleEvent::ConditionAdded {
                    who,
                    condition: Condition::Dead | Condition::Unconscious | Condition::Incapacitated,
                    ..
                } => {
                    let i = who.0 as usize;
                    if i < combatants && !down[i] {
                        down[i] = true;
                        if let Some(by) = last_by[i]
                            && let Some(list) = t.took_out.get_mut(by.0 as usize)
                        {
                            list.push(*who);
                        }
                    }
                }
                _ => {}
            }
        }
        t
    }
}

/// How a combatant's fight ended, in one word: the condition that took it
/// out (dead before unconscious before incapacitated, fled, surrendered),
/// else "standing".
fn fate(conds: crate::rules::components::Conditions) -> &'static str {
    use crate::rules::components::Condition;
    [
        Condition::Dead,
        Condition::Unconscious,
        Condition::Incapacitated,
        Condition::Fled,
        Condition::Surrendered,
    ]
    .into_iter()
    .find(|c| conds.has(*c))
    .map_or("standing", |c| c.name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::components::{Condition, Conditions};
    use crate::rules::event::BattleEvent;

    fn damaged(target: u16, by: Option<u16>, hp_loss: i32) -> BattleEvent {
        BattleEvent::Damaged {
            target: Cid(target),
            by: by.map(Cid),
            rolled: hp_loss,
            steps: Vec::new(),
            ep_loss: 0,
            hp_loss,
            hp_after: 0,
            ep_after: 0,
            rule: "test",
        }
    }

    fn fell(who: u16, condition: Condition) -> BattleEvent {
        BattleEvent::ConditionAdded {
            who: Cid(who),
            condition,
            rule: "test",
        }
    }

    /// The results count damage dealt and taken by who dealt it, and credit
    /// a fall to the last to hurt the fallen, once (dead after unconscious
    /// is the same fall); a fall with no one to blame credits nobody.
    #[test]
    fn the_tally_counts_who_dealt_what_and_who_took_whom_out() {
        let log = BattleLog {
            events: vec![
                damaged(1, Some(0), 3),
                damaged(1, Some(2), 4),
                fell(1, Condition::Unconscious),
                fell(1, Condition::Dead),
                damaged(0, Some(1), 2),
                damaged(2, None, 5),
                fell(2, Condition::Incapacitated),
            ],
            ..Default::default()
        };
        let t = Tally::of(&log, 3);
        assert_eq!(t.dealt, vec![3, 2, 4]);
        assert_eq!(t.taken, vec![2, 7, 5]);
        assert_eq!(t.took_out, vec![vec![], vec![], vec![Cid(1)]]);
    }

    /// One word for how the fight ended, the gravest first.
    #[test]
    fn a_fate_is_one_word() {
        let mut c = Conditions::default();
        assert_eq!(fate(c), "standing");
        c.insert(Condition::Steadfast);
        assert_eq!(fate(c), "standing");
        c.insert(Condition::Dead);
        assert_eq!(fate(c), "dead");
        let mut f = Conditions::default();
        f.insert(Condition::Broken);
        f.insert(Condition::Fled);
        assert_eq!(fate(f), "fled");
    }
}
