//! The battle screen's panels (egui): the round and whose turn it is, the
//! turn order, the combatant sheet, the combat log, the action bar with the
//! rules core's preview of the command under the cursor, the reaction
//! dialog, the GM preview controls, the help overlay and the pause menu.

use bevy::prelude::*;
use bevy_egui::{EguiContext, EguiPrimaryContextPass, PrimaryEguiContext, egui};

use crate::game::battle::logic::{
    Pacing, Tool, TurnUi, UiIntent, human_actor, preview, reaction_choices,
};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Session, Speed};
use crate::game::widgets::{Tag, command_kind};
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Controller, Loadout};
use crate::rules::event::{BattleEvent, Cue};
use crate::rules::hooks::{ActiveRuleset, Give};
use crate::rules::log::{BattleLog, LastRejection};
use crate::rules::narrate::describe;
use crate::rules::roster::Names;
use crate::rules::roster::{Factions, Roster};
use crate::rules::view;

use super::input::{HELP, HelpOpen, PanelCover};
use super::playback::Shown;

pub fn plugin(app: &mut App) {
    app.init_resource::<PrimerOpen>()
        .add_systems(OnEnter(Screen::Battle), |mut p: ResMut<PrimerOpen>| {
            p.0 = true
        })
        .add_systems(
            EguiPrimaryContextPass,
            battle_panels.run_if(in_state(Screen::Battle)),
        );
}

/// The primer on how a round goes is open (each battle's first round, until
/// dismissed).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PrimerOpen(pub bool);

/// The primary egui context, if there is a window.
pub fn egui_ctx(world: &mut World) -> Option<egui::Context> {
    let mut q = world.query_filtered::<&mut EguiContext, With<PrimaryEguiContext>>();
    q.single_mut(world).ok().map(|mut c| c.get_mut().clone())
}

/// A full-window `Ui` to lay panels into.
pub fn root_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        egui::Id::new(id),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}

pub fn colour32(rgb: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(rgb[0], rgb[1], rgb[2])
}

/// What the panels asked for this frame.
#[derive(Default)]
struct Asked {
    intents: Vec<UiIntent>,
    pacing: Option<Pacing>,
    help: Option<bool>,
    /// The pause menu's buttons.
    screens: Vec<ScreenIntent>,
    /// A button under the pointer whose command the panel previews.
    hover_preview: Option<Command>,
    /// Where the panels and windows were drawn this frame.
    covered: Vec<egui::Rect>,
    /// How far the docked panels reach in.
    edges: Option<super::input::PanelEdges>,
    /// The primer dismissed.
    primer_closed: bool,
    /// The pause menu's settings.
    follow: Option<bool>,
    zones: Option<bool>,
}

fn battle_panels(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let started = super::bench::Clock::now();
    let mut asked = Asked::default();
    draw(&ctx, world, &mut asked);
    if let Some(mut t) = world.get_resource_mut::<super::bench::PanelTime>() {
        t.0 += started.elapsed();
    }
    for i in asked.intents {
        world.write_message(i);
    }
    if let Some(p) = asked.pacing {
        world.insert_resource(p);
    }
    if let Some(h) = asked.help {
        world.resource_mut::<HelpOpen>().0 = h;
    }
    for intent in asked.screens {
        world.write_message(intent);
    }
    if asked.primer_closed {
        world.resource_mut::<PrimerOpen>().0 = false;
    }
    if let Some(f) = asked.follow {
        world.resource_mut::<super::camera::Follow>().0 = f;
    }
    if let Some(z) = asked.zones {
        world.resource_mut::<super::board::ShowZones>().0 = z;
    }
    if let Some(e) = asked.edges
        && *world.resource::<super::input::PanelEdges>() != e
    {
        world.insert_resource(e);
    }
    world.resource_mut::<PanelCover>().0 = asked
        .covered
        .iter()
        .map(|r| Rect::new(r.min.x, r.min.y, r.max.x, r.max.y))
        .collect();
}

fn faction_colour(world: &World, cid: Cid) -> egui::Color32 {
    let f = view::faction(world, cid).unwrap_or(0);
    world
        .resource::<Factions>()
        .0
        .get(f as usize)
        .map_or(egui::Color32::WHITE, |f| colour32(f.colour))
}

fn draw(ctx: &egui::Context, world: &World, asked: &mut Asked) {
    let mut root = root_ui(ctx, "battle");
    let battle = world.resource::<Battle>().clone();
    let roster = world.resource::<Roster>().clone();
    let pacing = world.resource::<Pacing>().clone();
    let ui_state = world.resource::<TurnUi>().clone();
    let session = world.get_resource::<Session>().cloned();
    let human = human_actor(world);

    // ---- Top bar: where the battle is.
    let top = egui::Panel::top("top").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.heading("Fray");
            ui.separator();
            if let Some(s) = &session {
                ui.label(format!("{}  ·  {}", s.level.name, s.ruleset));
                ui.label(egui::RichText::new(format!("seed {}", s.seed)).weak());
            }
            ui.separator();
            let round =
                if battle.round == 0 && battle.phase == crate::rules::battle::Phase::Activation {
                    "Bonus round (ambush)".to_string()
                } else if battle.round == 0 {
                    "Before the first round".to_string()
                } else {
                    format!("Round {}", battle.round)
                };
            ui.label(egui::RichText::new(round).strong());
            // The ruleset's word on where the round is (brp: its phase, the
            // DEX rank the count has reached).
            if let Some(note) = world
                .get_resource::<crate::rules::hooks::ActiveRuleset>()
                .and_then(|h| (h.0.round_note)(world))
            {
                ui.label(egui::RichText::new(note).strong());
            }
            ui.separator();
            let who = match battle.prompt {
                Prompt::Act { actor } => format!("{}'s turn", roster.name(actor)),
                Prompt::React { actor, attacker } => format!(
                    "{} reacts to {}'s attack",
                    roster.name(actor),
                    roster.name(attacker)
                ),
                Prompt::Activate { faction, .. } => format!(
                    "{}: choose who acts, or pass",
                    world
                        .resource::<Factions>()
                        .0
                        .get(faction as usize)
                        .map_or("?", |f| f.name.as_str())
                ),
                Prompt::None => "…".to_string(),
            };
            let col = battle
                .prompt
                .actor()
                .map_or(egui::Color32::WHITE, |a| faction_colour(world, a));
            ui.label(egui::RichText::new(who).color(col).strong());
            if let Some(a) = battle.prompt.actor() {
                let by = if human == Some(a) { "you" } else { "AI" };
                ui.label(format!("({by})"));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui.button("Menu (Esc)").tag("battle: menu").clicked() {
                    asked.screens.push(ScreenIntent::Menu(true));
                }
                if ui.button("Help (F1)").tag("battle: help").clicked() {
                    asked.help = Some(!world.resource::<HelpOpen>().0);
                }
            });
        });
    });
    asked.covered.push(top.response.rect);

    // ---- Bottom, the window's whole width (laid out before the side
    // panels, which end above it): actions and preview, then the log.
    let bottom = egui::Panel::bottom("bottom")
        .exact_size(280.0)
        .show(&mut root, |ui| {
            // The bar and the preview of what the pointer is on keep one
            // height (scrolled if a preview runs long), so the log below
            // never jumps as the mouse moves.
            egui::ScrollArea::vertical()
                .id_salt("bar_and_preview")
                .max_height(BAR_HEIGHT)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if let Some(actor) = human {
                        action_bar(ui, world, actor, &ui_state, asked);
                    } else if session.as_ref().is_some_and(|s| s.is_preview()) {
                        preview_controls(ui, &pacing, asked);
                    } else {
                        ui.label("The AI is acting…");
                    }
                });
            ui.separator();
            combat_log(ui, world);
        });
    asked.covered.push(bottom.response.rect);
    // ---- Left: the turn order of this round.
    let left = egui::Panel::left("order")
        .exact_size(260.0)
        .show(&mut root, |ui| {
            ui.heading("Turn order");
            turn_order(ui, world, &roster, asked);
        });
    asked.covered.push(left.response.rect);

    // ---- Right: the sheet of the selected (or acting) combatant.
    let right = egui::Panel::right("sheet")
        .exact_size(330.0)
        .show(&mut root, |ui| {
            // The selected combatant, else whoever acts; while a side
            // chooses who acts, the character under the pointer.
            let who = ui_state.selected.or(match battle.prompt {
                Prompt::Activate { .. } => ui_state.hover.and_then(|h| view::standing_at(world, h)),
                p => p.actor(),
            });
            match who {
                Some(c) => sheet(ui, world, c),
                None => {
                    ui.label("Click a combatant to see its sheet.");
                }
            }
        });
    asked.covered.push(right.response.rect);

    asked.edges = Some(super::input::PanelEdges {
        top: top.response.rect.height(),
        left: left.response.rect.width(),
        right: right.response.rect.width(),
        bottom: bottom.response.rect.height(),
    });

    // ---- Reaction dialog.
    if let (Some(actor), Prompt::React { attacker, .. }) = (human, battle.prompt) {
        reaction_dialog(ctx, world, actor, attacker, asked);
    }
    // ---- Giving up a character's part: asked first.
    if let Some(actor) = human {
        give_up_dialog(ctx, world, actor, &ui_state, asked);
    }

    if world.resource::<HelpOpen>().0 {
        let help = egui::Window::new("Controls")
            .order(egui::Order::Foreground)
            .collapsible(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                egui::Grid::new("help").striped(true).show(ui, |ui| {
                    for (keys, what) in HELP {
                        ui.label(egui::RichText::new(*keys).strong());
                        ui.label(*what);
                        ui.end_row();
                    }
                });
                // The ruleset's own keys and prompts, and its round.
                if let Some(hooks) = world.get_resource::<ActiveRuleset>().map(|h| h.0) {
                    if !hooks.round.is_empty() {
                        ui.separator();
                        ui.label(
                            egui::RichText::new(format!("A round under {}", hooks.id)).strong(),
                        );
                        for line in hooks.round {
                            ui.add(egui::Label::new(*line).wrap());
                        }
                    }
                    ui.separator();
                    ui.label(egui::RichText::new(format!("Under {}", hooks.id)).strong());
                    egui::Grid::new("help_ruleset")
                        .striped(true)
                        .show(ui, |ui| {
                            for (keys, what) in hooks.help {
                                ui.label(egui::RichText::new(*keys).strong());
                                ui.label(*what);
                                ui.end_row();
                            }
                        });
                }
                if ui.button("Close").tag("help: close").clicked() {
                    asked.help = Some(false);
                }
            });
        asked.covered.extend(help.map(|r| r.response.rect));
    }

    // How a round goes, on the battle's first round, until dismissed.
    if world.resource::<PrimerOpen>().0
        && battle.round <= 1
        && battle.outcome.is_none()
        && let Some(hooks) = world.get_resource::<ActiveRuleset>().map(|h| h.0)
        && !hooks.round.is_empty()
    {
        let primer = egui::Window::new(format!("How a round goes under {}", hooks.id))
            .collapsible(false)
            .resizable(false)
            .default_width(400.0)
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(275.0, 50.0))
            .show(ctx, |ui| {
                ui.set_max_width(400.0);
                for line in hooks.round {
                    ui.add(egui::Label::new(format!("• {line}")).wrap());
                }
                ui.label(egui::RichText::new("F1 shows this again, with every key.").weak());
                if ui.button("Got it").tag("primer: close").clicked() {
                    asked.primer_closed = true;
                }
            });
        asked.covered.extend(primer.map(|r| r.response.rect));
    }

    if pacing.menu {
        pause_menu(ctx, world, &pacing, session.as_ref(), asked);
    } else {
        ctx.data_mut(|d| d.remove::<u8>(egui::Id::new("pause_confirm")));
    }
}

/// The pause menu: the battle dimmed behind it, which battle this is (level,
/// ruleset, seed), the settings a player changes mid-battle, and the ways
/// out. Leaving a battle in progress asks first.
fn pause_menu(
    ctx: &egui::Context,
    world: &World,
    pacing: &Pacing,
    session: Option<&Session>,
    asked: &mut Asked,
) {
    // Dim the battle: an area above the panels and the other windows, below
    // the menu (in front of everything), that also takes the clicks meant
    // for the panels under it.
    let screen = ctx.viewport_rect();
    egui::Area::new(egui::Id::new("pause_dim"))
        .order(egui::Order::Middle)
        .fixed_pos(screen.min)
        .show(ctx, |ui| {
            ui.painter()
                .rect_filled(screen, 0.0, egui::Color32::from_black_alpha(200));
            ui.allocate_rect(screen, egui::Sense::click());
        });
    let confirm_id = egui::Id::new("pause_confirm");
    let confirming: Option<u8> = ctx.data(|d| d.get_temp(confirm_id));
    let over = world.resource::<Battle>().outcome.is_some();
    let menu = egui::Window::new("Paused")
        .order(egui::Order::Foreground)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.set_min_width(280.0);
            if let Some(s) = session {
                ui.label(format!("{}  ·  {}", s.level.name, s.ruleset));
                ui.label(egui::RichText::new(format!("Seed {}", s.seed)).weak());
            }
            ui.separator();
            // What leaving would throw away, asked before it is thrown.
            const EXITS: [(&str, &str, &str); 4] = [
                (
                    "Restart with a new seed",
                    "Restart this battle with a new seed?",
                    "menu: restart",
                ),
                (
                    "Back to battle setup",
                    "Leave this battle for the setup screen?",
                    "menu: to setup",
                ),
                (
                    "Title screen",
                    "Leave this battle for the title screen?",
                    "menu: to title",
                ),
                ("Quit", "Quit Fray?", "menu: quit"),
            ];
            let intent = |i: u8| match i {
                0 => ScreenIntent::PlayAgain,
                1 => ScreenIntent::Open(Screen::Setup),
                2 => ScreenIntent::Open(Screen::Title),
                _ => ScreenIntent::Quit,
            };
            if let Some(i) = confirming {
                ui.label(egui::RichText::new(EXITS[i as usize].1).strong());
                ui.label("The battle in progress will be lost.");
                ui.horizontal(|ui| {
                    if ui.button("Yes").tag("confirm: yes").clicked() {
                        ctx.data_mut(|d| d.remove::<u8>(confirm_id));
                        asked.screens.push(intent(i));
                    }
                    if ui.button("No, go back").tag("confirm: no").clicked() {
                        ctx.data_mut(|d| d.remove::<u8>(confirm_id));
                    }
                });
                return;
            }
            ui.vertical_centered_justified(|ui| {
                if ui.button("Resume (Esc)").tag("menu: resume").clicked() {
                    asked.screens.push(ScreenIntent::Menu(false));
                }
                for (i, (label, _, kind)) in EXITS.iter().enumerate() {
                    if ui.button(*label).tag(*kind).clicked() {
                        if over {
                            asked.screens.push(intent(i as u8));
                        } else {
                            ctx.data_mut(|d| d.insert_temp(confirm_id, i as u8));
                        }
                    }
                }
            });
            ui.separator();
            ui.label(egui::RichText::new("Settings").strong());
            let mut follow = world.resource::<super::camera::Follow>().0;
            if ui
                .checkbox(&mut follow, "Camera follows the acting combatant")
                .tag("menu: follow")
                .changed()
            {
                asked.follow = Some(follow);
            }
            let mut zones = world.resource::<super::board::ShowZones>().0;
            if ui
                .checkbox(&mut zones, "Show zone borders (Z)")
                .tag("menu: zones")
                .changed()
            {
                asked.zones = Some(zones);
            }
            ui.horizontal(|ui| {
                ui.label("AI and playback speed:");
                for sp in Speed::ALL {
                    if ui
                        .selectable_label(pacing.speed == sp, sp.label())
                        .tag("menu: speed")
                        .clicked()
                    {
                        let mut p = pacing.clone();
                        p.speed = sp;
                        asked.pacing = Some(p);
                    }
                }
            });
        });
    asked.covered.extend(menu.map(|r| r.response.rect));
}

fn turn_order(ui: &mut egui::Ui, world: &World, roster: &Roster, asked: &mut Asked) {
    let log = world.resource::<BattleLog>();
    // The latest order, and who has had a turn since it was announced.
    let mut order: Vec<Cid> = Vec::new();
    for e in log.events.iter().rev() {
        if let BattleEvent::TurnOrder { order: o } = e {
            order = o.clone();
            break;
        }
    }
    if let Prompt::Activate { faction, .. } = world.resource::<Battle>().prompt
        && let Some(f) = world.resource::<Factions>().0.get(faction as usize)
    {
        ui.label(egui::RichText::new(format!("{} to choose who acts", f.name)).strong());
    }
    ui.label(egui::RichText::new("▶ acting   + turn taken   x out").weak());
    // While a side chooses who acts, nobody acts yet.
    let acting = match world.resource::<Battle>().prompt {
        Prompt::Act { actor } | Prompt::React { actor, .. } => Some(actor),
        Prompt::Activate { .. } | Prompt::None => None,
    };
    let shown = world.resource::<Shown>();
    let rows: Vec<Cid> = if order.is_empty() {
        roster.cids().collect()
    } else {
        let mut r = order.clone();
        r.extend(roster.cids().filter(|c| !order.contains(c)));
        r
    };
    // Only the rows in view are laid out: a big battle has a hundred.
    let row_height = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical().show_rows(ui, row_height, rows.len(), |ui, range| {
        for &c in &rows[range] {
            let s = shown.get(c);
            let out = s.is_some_and(|s| s.conds.out_of_fight());
            let mark = if Some(c) == acting {
                "▶"
            } else if out {
                "x"
            } else if view::get::<crate::rules::components::TurnState>(world, c)
                .is_some_and(|t| t.done)
            {
                "+"
            } else {
                " "
            };
            let init = view::get::<crate::rules::components::TurnState>(world, c)
                .and_then(|t| t.initiative)
                .map_or(String::new(), |i| format!("{i:>3}"));
            let hp = s.map_or(String::new(), |s| format!("{}/{}", s.hp, s.hp_max));
            // The ruleset's word on the row (brp: DEX or rank, what it stated).
            let note = if out {
                None
            } else {
                world
                    .get_resource::<crate::rules::hooks::ActiveRuleset>()
                    .and_then(|h| (h.0.order_note)(world, c))
            };
            let mut text = egui::RichText::new(format!("{mark} {init}  {}", roster.name(c)))
                .color(faction_colour(world, c));
            if out {
                text = text.strikethrough().weak();
            }
            ui.horizontal(|ui| {
                let row = ui
                    .selectable_label(Some(c) == acting, text)
                    .tag("order: row");
                let row = match &note {
                    Some((_, long)) => row.on_hover_text(long),
                    None => row,
                };
                if row.clicked() {
                    asked.intents.push(UiIntent::Select(Some(c)));
                }
                if let Some((short, _)) = &note {
                    ui.label(egui::RichText::new(short).weak().small());
                }
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(egui::RichText::new(hp).monospace());
                });
            });
        }
    });
}

fn sheet(ui: &mut egui::Ui, world: &World, c: Cid) {
    let roster = world.resource::<Roster>();
    ui.heading(egui::RichText::new(roster.name(c)).color(faction_colour(world, c)));
    let f = view::faction(world, c).unwrap_or(0);
    if let Some(faction) = world.resource::<Factions>().0.get(f as usize) {
        let arch = view::get::<crate::rules::components::Archetype>(world, c)
            .map_or(String::new(), |a| a.0.clone());
        let ctl = match view::get::<Controller>(world, c) {
            Some(Controller::Human) => "human",
            Some(Controller::EasyAi) => "AI (easy)",
            Some(Controller::HardAi) => "AI (hard)",
            _ => "AI",
        };
        ui.label(format!("{} · {arch} · {ctl}", faction.name));
    }
    if let Some(s) = world.resource::<Shown>().get(c) {
        let hp = (s.hp.max(0) as f32 / s.hp_max.max(1) as f32).clamp(0.0, 1.0);
        ui.add(egui::ProgressBar::new(hp).text(format!("HP {}/{}", s.hp, s.hp_max)));
        if s.ep_max > 0 {
            let ep = (s.ep.max(0) as f32 / s.ep_max as f32).clamp(0.0, 1.0);
            ui.add(egui::ProgressBar::new(ep).text(format!("EP {}/{}", s.ep, s.ep_max)));
        }
        let conds: Vec<&str> = s.conds.iter().map(|c| c.name()).collect();
        if !conds.is_empty() {
            ui.label(egui::RichText::new(conds.join(", ")).italics());
        }
    }
    // Who holds whom in a grab, and (where the ruleset reads it) which way
    // it faces: on the board as a rope and a nose on the token.
    if let Some(by) = view::held_by(world, c) {
        ui.label(format!("held in a grab by {}", roster.name(by)));
    }
    if let Some(whom) = view::holding(world, c) {
        ui.label(format!("holding {} in a grab", roster.name(whom)));
    }
    let facing = world
        .get_resource::<ActiveRuleset>()
        .is_some_and(|a| a.0.facing);
    if facing
        && view::standing(world, c)
        && let Some(h) = view::get::<crate::rules::components::Heading>(world, c)
    {
        ui.label(format!("faces {}", h.0.name()));
    }
    ui.separator();
    if let Some(hooks) = world.get_resource::<ActiveRuleset>() {
        egui::Grid::new("sheet")
            .num_columns(2)
            .striped(true)
            .show(ui, |ui| {
                for (k, v) in (hooks.0.sheet)(world, c) {
                    // Each row says what it means on hover.
                    let tip = (hooks.0.sheet_tip)(world, c, &k);
                    let key = ui.label(egui::RichText::new(&k).strong());
                    let value = ui.add(egui::Label::new(v).wrap());
                    if let Some(tip) = tip {
                        key.on_hover_text(&tip);
                        value.on_hover_text(&tip);
                    }
                    ui.end_row();
                }
            });
    }
}

/// A menu's name for its buttons: the words their labels begin with
/// ("State: attack X", "State: only parry" -> "State"), else the command
/// kind as words.
fn group_name(labels: &[&str], kind: &str) -> String {
    let first = labels.first().copied().unwrap_or("");
    let mut common = first.len();
    for l in labels {
        common = common.min(
            first
                .char_indices()
                .zip(l.chars())
                .take_while(|((_, a), b)| a == b)
                .count(),
        );
    }
    let prefix: String = first.chars().take(common).collect();
    let prefix = prefix
        .rsplit_once(' ')
        .map_or(prefix.as_str(), |(head, _)| head)
        .trim_end_matches([':', ' ', ',']);
    if prefix.chars().count() >= 3 {
        prefix.to_string()
    } else {
        spaced(kind)
    }
}

/// A command kind as words: "UseItem" -> "Use item".
fn spaced(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The height of the bottom panel's action bar and preview.
const BAR_HEIGHT: f32 = 136.0;

/// A preview's detail line, readable: the size of the text around it, in
/// a light grey; what turns a fight (a blow from behind) in amber.
fn detail(line: &str) -> egui::RichText {
    let shouting = line
        .split_whitespace()
        .next()
        .is_some_and(|w| w.len() > 2 && w.chars().all(|c| c.is_ascii_uppercase()));
    let colour = if shouting {
        egui::Color32::from_rgb(250, 200, 110)
    } else {
        egui::Color32::from_gray(205)
    };
    egui::RichText::new(for_players(line))
        .size(13.0)
        .color(colour)
}

fn preview_lines(ui: &mut egui::Ui, world: &World, command: &Command) {
    let Some(p) = preview(world, command) else {
        return;
    };
    let mut title = p.title.clone();
    if let Some(ch) = p.chance {
        title.push_str(&format!("  —  {:.0}%", ch * 100.0));
    }
    if let Some((lo, hi)) = p.damage {
        title.push_str(&format!("  —  {lo}-{hi} HP"));
    }
    ui.label(egui::RichText::new(title).strong());
    if let Some(why) = &p.illegal {
        ui.label(egui::RichText::new(format!("not now: {why}")).color(egui::Color32::LIGHT_RED));
    }
    for l in &p.lines {
        ui.label(detail(l));
    }
}

fn action_bar(ui: &mut egui::Ui, world: &World, actor: Cid, st: &TurnUi, asked: &mut Asked) {
    let battle = world.resource::<Battle>();
    if matches!(battle.prompt, Prompt::React { .. }) {
        ui.label("Choose a reaction in the dialog (keys 1, 2, 3, ...).");
        return;
    }
    // Options laid out for another prompt (the frame before the screen
    // catches up) are not shown: their buttons would flash and vanish.
    if !st.is_current(world) || st.options.actor != Some(actor) {
        ui.label(egui::RichText::new("…").weak());
        return;
    }
    let legal = |c: &Command| st.options.legal.contains(c);
    if matches!(battle.prompt, Prompt::Activate { .. }) {
        activation_bar(ui, world, st, asked);
        return;
    }
    let bar = ui.horizontal_wrapped(|ui| {
        // A tool's tooltip: what its first target would get (the rules
        // core's preview, with what it costs), or what the tool does.
        let tool_button =
            |ui: &mut egui::Ui, t: Tool, label: &str, example: Option<&Command>, asked: &mut Asked| {
                let kind = match (&t, example) {
                    (Tool::Offer(_), Some(c)) => format!("tool: {}", command_kind(c)),
                    (Tool::Offer(name), None) => format!("tool: {name}"),
                    (Tool::Attack { .. }, _) => "tool: blow".to_string(),
                    (Tool::Move, _) => "tool: move".to_string(),
                };
                let r = ui.selectable_label(st.tool == t, label).tag(kind);
                let r = match example {
                    Some(c) => r.on_hover_ui(|ui| {
                        preview_lines(ui, world, c);
                        ui.label(egui::RichText::new("Pick this tool, then click on the map.").weak());
                    }),
                    None => r,
                };
                if r.clicked() {
                    asked.intents.push(UiIntent::Tool(t));
                }
            };
        let r = ui.selectable_label(st.tool == Tool::Move, "Move / attack").tag("tool: move").on_hover_text(
            "Click a highlighted cell to move there (blue cells keep your action, amber cells \
             are a full movement), or a ringed enemy to attack it with the weapon in hand.",
        );
        if r.clicked() {
            asked.intents.push(UiIntent::Tool(Tool::Move));
        }
        if let Some(l) = view::get::<Loadout>(world, actor)
            && let Some(ready) = l.ready
            && let Some(w) = l.weapons.get(ready)
        {
            // Only modes the rules allow on someone now (a vehicle has none).
            let usable = |mode: usize| {
                st.options.legal.iter().any(|c| {
                    matches!(c, Command::Attack { weapon, mode: m, .. } if *weapon == ready && *m == mode)
                })
            };
            let modes: Vec<usize> = (1..w.mode_count()).filter(|m| usable(*m)).collect();
            let example = |mode: usize| {
                st.options.legal.iter().find(|c| {
                    matches!(c, Command::Attack { weapon, mode: m, .. } if *weapon == ready && *m == mode)
                })
            };
            if modes.len() > 1 {
                // Several ways to strike: one menu, so the bar stays one line.
                let current = match st.tool {
                    Tool::Attack { weapon, mode } if weapon == ready => Some(mode),
                    _ => None,
                };
                let label = match current {
                    Some(m) => format!("{} ({})…", w.name, w.mode_name(m)),
                    None => format!("{}: other blows…", w.name),
                };
                let menu = ui.menu_button(label, |ui| {
                    for &mode in &modes {
                        let t = Tool::Attack {
                            weapon: ready,
                            mode,
                        };
                        let r = ui
                            .selectable_label(st.tool == t, w.mode_name(mode))
                            .tag("tool: blow");
                        let r = match example(mode) {
                            Some(c) => r.on_hover_ui(|ui| preview_lines(ui, world, c)),
                            None => r,
                        };
                        if r.clicked() {
                            asked.intents.push(UiIntent::Tool(t));
                            ui.close();
                        }
                    }
                });
                menu.response.tag("tool: blows menu");
            } else {
                for mode in modes {
                    tool_button(
                        ui,
                        Tool::Attack {
                            weapon: ready,
                            mode,
                        },
                        &format!("{} ({})", w.name, w.mode_name(mode)),
                        example(mode),
                        asked,
                    );
                }
            }
        }
        // The ruleset's board tools (aim, retreat, shove, get off, ...):
        // those of one kind of command (shove, grab and disarm; the
        // words) share one menu, as a weapon's blows do, so the bar stays
        // one line.
        let mut tools: Vec<(&str, String, &Command)> = Vec::new();
        for o in &st.options.offers.list {
            if matches!(o.give, Give::On(_) | Give::At { .. })
                && !tools.iter().any(|(l, _, _)| *l == o.label.as_str())
            {
                tools.push((&o.label, command_kind(&o.command), &o.command));
            }
        }
        let mut kinds: Vec<&str> = Vec::new();
        for (_, k, _) in &tools {
            if !kinds.contains(&k.as_str()) {
                kinds.push(k);
            }
        }
        for kind in kinds {
            let members: Vec<&(&str, String, &Command)> =
                tools.iter().filter(|(_, k, _)| k == kind).collect();
            if let [(name, _, example)] = members.as_slice() {
                tool_button(ui, Tool::Offer(name.to_string()), name, Some(example), asked);
                continue;
            }
            let current = members
                .iter()
                .find(|(name, _, _)| st.tool == Tool::Offer(name.to_string()));
            let label = match current {
                Some((name, _, _)) => format!("{name}…"),
                None => format!("{}…", spaced(kind)),
            };
            let menu = ui.menu_button(label, |ui| {
                for (name, _, example) in &members {
                    let t = Tool::Offer(name.to_string());
                    let r = ui
                        .selectable_label(st.tool == t, *name)
                        .tag(format!("tool: {kind}"))
                        .on_hover_ui(|ui| preview_lines(ui, world, example));
                    if r.clicked() {
                        asked.intents.push(UiIntent::Tool(t));
                        ui.close();
                    }
                }
            });
            menu.response.tag(format!("tool: {kind} menu"));
        }
        // Riders on their mounts: which of the two a click strikes.
        let riders_about = view::enemies(world, actor)
            .into_iter()
            .any(|e| view::riding(world, e).is_some());
        if riders_about {
            ui.separator();
            ui.label("On a mount, strike:");
            if ui
                .selectable_label(!st.strike_mounts, "the rider")
                .tag("tool: strike the rider")
                .clicked()
            {
                asked.intents.push(UiIntent::StrikeMounts(false));
            }
            if ui
                .selectable_label(st.strike_mounts, "the mount")
                .tag("tool: strike the mount")
                .clicked() {
                asked.intents.push(UiIntent::StrikeMounts(true));
            }
        }
        ui.separator();
        // Every button's tooltip is the rules core's preview of its
        // command: what it does and what it costs.
        let mut button = |ui: &mut egui::Ui, label: &str, kind: String, c: Command| {
            let r = ui
                .add_enabled(legal(&c), egui::Button::new(label))
                .tag(kind)
                .on_hover_ui(|ui| preview_lines(ui, world, &c))
                .on_disabled_hover_ui(|ui| preview_lines(ui, world, &c));
            if r.clicked() {
                asked.intents.push(UiIntent::Command(c));
            }
        };
        // A button picked from a menu of the ruleset's (sent below, once
        // the buttons' closures are done with the intents).
        let mut picked: Option<Command> = None;
        // One that gives up a character's part, to ask about first.
        let mut picked_ask: Option<Command> = None;
        // Only what the ruleset allows now (End turn always shows).
        let mut offer = |ui: &mut egui::Ui, label: &str, kind: String, c: Command| {
            if legal(&c) {
                button(ui, label, kind, c);
            }
        };
        if let Some(l) = view::get::<Loadout>(world, actor) {
            for (i, w) in l.weapons.iter().enumerate() {
                if Some(i) != l.ready {
                    offer(
                        ui,
                        &format!("Draw {}", w.name),
                        "action: draw".into(),
                        Command::Draw { weapon: i },
                    );
                }
            }
        }
        // The ruleset's own buttons (take cover, reload, break free, ...);
        // three or more of one kind of command (brp's statements, one a
        // target) share a menu, so the bar stays one line.
        let buttons: Vec<&crate::rules::hooks::Offer> = st
            .options
            .offers
            .list
            .iter()
            .filter(|o| matches!(o.give, Give::Button | Give::Click(_)) && legal(&o.command))
            .collect();
        let mut kinds: Vec<String> = Vec::new();
        for o in &buttons {
            let k = command_kind(&o.command);
            if !kinds.contains(&k) {
                kinds.push(k);
            }
        }
        for kind in &kinds {
            let members: Vec<&&crate::rules::hooks::Offer> = buttons
                .iter()
                .filter(|o| command_kind(&o.command) == *kind)
                .collect();
            if members.len() < 3 {
                for o in members {
                    offer(ui, &o.label, format!("offer: {kind}"), o.command.clone());
                }
                continue;
            }
            let labels: Vec<&str> = members.iter().map(|o| o.label.as_str()).collect();
            let menu = ui.menu_button(format!("{}…", group_name(&labels, kind)), |ui| {
                for o in &members {
                    let r = ui
                        .button(&o.label)
                        .tag(format!("offer: {kind}"))
                        .on_hover_ui(|ui| preview_lines(ui, world, &o.command));
                    if r.clicked() {
                        picked = Some(o.command.clone());
                        ui.close();
                    }
                }
            });
            menu.response.tag(format!("offer: {kind} menu"));
        }
        // Set apart: what gives up more than a turn (asked first), then
        // the turn's end.
        ui.separator();
        let mut apart: Vec<(String, String, Command)> =
            vec![("Flee (F)".into(), "action: flee".into(), Command::Flee)];
        for o in &st.options.offers.list {
            if o.give == Give::Apart {
                apart.push((
                    o.label.clone(),
                    format!("offer: {}", command_kind(&o.command)),
                    o.command.clone(),
                ));
            }
        }
        for (label, kind, c) in apart {
            if legal(&c)
                && ui
                    .button(label)
                    .tag(kind)
                    .on_hover_ui(|ui| preview_lines(ui, world, &c))
                    .clicked()
            {
                picked_ask = Some(c);
            }
        }
        button(ui, "End turn (Enter)", "action: end turn".into(), Command::EndTurn);
        if let Some(c) = picked {
            asked.intents.push(UiIntent::Command(c));
        }
        if let Some(c) = picked_ask {
            asked.intents.push(UiIntent::AskFirst(Some(c)));
        }
    });
    // How many rows the bar took: the screen walk holds it to one.
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    crate::game::widgets::note_rows(
        ui.ctx(),
        "action bar",
        (bar.response.rect.height() / row).round() as u32,
    );
    if let Some((_, why)) = world.resource::<LastRejection>().0.as_ref() {
        ui.label(egui::RichText::new(format!("Refused: {why}")).color(egui::Color32::LIGHT_RED));
    }
    // What a click would do.
    if let Some(h) = st.hover
        && let Some(c) = st.command_at(world, h)
    {
        preview_lines(ui, world, &c);
    } else if let Some(hint) = &st.options.offers.hint {
        // The ruleset's word on this prompt (brp: which phase of the round).
        ui.label(egui::RichText::new(hint).weak());
    } else {
        ui.label(egui::RichText::new(
            "Blue cells keep the action; amber cells are a full movement. Red rings: targets. Click an enemy to attack it.",
        ).weak());
    }
    terrain_line(ui, world, st.hover);
}

/// What the ground under the cursor means under the ruleset in force
/// (cover, cost to cross).
fn terrain_line(ui: &mut egui::Ui, world: &World, hover: Option<crate::rules::map::Cell>) {
    let (Some(h), Some(hooks)) = (hover, world.get_resource::<ActiveRuleset>()) else {
        return;
    };
    let t = world.resource::<crate::rules::map::Map>().terrain(h);
    if let Some(note) = (hooks.0.terrain_note)(world, t) {
        ui.label(egui::RichText::new(for_players(&note)).italics());
    }
}

/// Alternating activation: which of the faction's characters takes the
/// turn, or pass.
fn activation_bar(ui: &mut egui::Ui, world: &World, st: &TurnUi, asked: &mut Asked) {
    ui.label(
        egui::RichText::new(
            "Your faction's turn: click one of your highlighted characters to act with, or pass.",
        )
        .strong(),
    );
    ui.horizontal_wrapped(|ui| {
        for o in &st.options.offers.list {
            let (c, label) = (&o.command, o.label.clone());
            let b = ui.button(label).tag(format!("offer: {}", command_kind(c)));
            if b.hovered() {
                asked.hover_preview = Some(c.clone());
            }
            if b.clicked() {
                asked.intents.push(UiIntent::Command(c.clone()));
            }
        }
    });
    let shown = asked.hover_preview.clone().or_else(|| {
        st.hover.and_then(|h| st.command_at(world, h)).filter(|c| {
            st.options
                .offers
                .list
                .iter()
                .any(|o| o.command == *c && matches!(o.give, Give::Click(_)))
        })
    });
    match (shown, &st.options.offers.hint) {
        (Some(c), _) => preview_lines(ui, world, &c),
        (None, Some(hint)) => {
            ui.label(egui::RichText::new(hint).weak());
        }
        (None, None) => {}
    }
}

fn preview_controls(ui: &mut egui::Ui, pacing: &Pacing, asked: &mut Asked) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("GM preview").strong());
        let label = if pacing.paused {
            "▶ Play (P)"
        } else {
            "⏸ Pause (P)"
        };
        let kind = if pacing.paused {
            "preview: play"
        } else {
            "preview: pause"
        };
        if ui.button(label).tag(kind).clicked() {
            let mut p = pacing.clone();
            p.paused = !p.paused;
            asked.pacing = Some(p);
        }
        if ui
            .button("Step one action (Space)")
            .tag("preview: step")
            .clicked()
        {
            let mut p = pacing.clone();
            p.paused = true;
            p.step_once = true;
            asked.pacing = Some(p);
        }
        ui.separator();
        ui.label("Speed:");
        for s in Speed::ALL {
            if ui
                .selectable_label(pacing.speed == s, s.label())
                .tag("preview: speed")
                .clicked()
            {
                let mut p = pacing.clone();
                p.speed = s;
                asked.pacing = Some(p);
            }
        }
    });
}

/// Is `who`'s token in the upper half of the window?
fn reactor_in_upper_half(world: &World, who: Cid) -> bool {
    let Some(pos) = world
        .get_resource::<Shown>()
        .and_then(|s| s.get(who))
        .map(|s| s.pos)
    else {
        return false;
    };
    let Some(mut q) =
        world.try_query_filtered::<(&Transform, &Projection), With<super::MainCamera>>()
    else {
        return false;
    };
    let Some((t, p)) = q.iter(world).next() else {
        return false;
    };
    let scale = match p {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // World y above the camera centre is the upper half of the window.
    (pos.y - t.translation.y) / scale > 0.0
}

/// Before a command that gives up a character's part in the battle (a
/// surrender, a flight over the edge): what it does, then yes or no.
fn give_up_dialog(ctx: &egui::Context, world: &World, actor: Cid, st: &TurnUi, asked: &mut Asked) {
    let Some(c) = st.confirm.as_ref() else {
        return;
    };
    if !st.options.legal.contains(c) {
        return;
    }
    let name = world.resource::<Roster>().name(actor).to_string();
    let (title, says, yes) = match c {
        Command::Flee => (
            format!("{name} flees?"),
            format!(
                "{name} leaves the battle over the map's edge and takes no further part in it."
            ),
            "Yes, flee",
        ),
        _ => (
            format!("{name} gives up?"),
            format!("{name} takes no further part in the battle."),
            "Yes, give up",
        ),
    };
    let dialog = egui::Window::new(title)
        .id(egui::Id::new("give_up"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -80.0])
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(says).strong());
            preview_lines(ui, world, c);
            ui.horizontal(|ui| {
                if ui.button(yes).tag("give up: yes").clicked() {
                    asked.intents.push(UiIntent::Command(c.clone()));
                }
                if ui.button("No, fight on").tag("give up: no").clicked() {
                    asked.intents.push(UiIntent::AskFirst(None));
                }
            });
        });
    if let Some(d) = dialog {
        asked.covered.push(d.response.rect);
    }
}

fn reaction_dialog(
    ctx: &egui::Context,
    world: &World,
    actor: Cid,
    attacker: Cid,
    asked: &mut Asked,
) {
    let roster = world.resource::<Roster>();
    let choices = reaction_choices(world);
    // The ruleset says when the prompt is not about an ordinary attack.
    let (title, question) = world
        .get_resource::<ActiveRuleset>()
        .and_then(|h| (h.0.offers)(world, actor, &choices).reaction)
        .unwrap_or_else(|| {
            (
                "Attacked!".to_string(),
                format!(
                    "{} attacks. How does {} react?",
                    roster.name(attacker),
                    roster.name(actor)
                ),
            )
        });
    // Keep the dialog off the character it asks about: at the top of the
    // map, unless the character stands in the upper half of the window.
    let anchor = if reactor_in_upper_half(world, actor) {
        (egui::Align2::CENTER_BOTTOM, egui::vec2(0.0, -290.0))
    } else {
        (egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
    };
    // It starts there and can be dragged aside; each new prompt starts
    // afresh.
    let screen = ctx.viewport_rect();
    let start = match anchor.0 {
        egui::Align2::CENTER_BOTTOM => egui::pos2(screen.center().x, screen.max.y + anchor.1.y),
        _ => egui::pos2(screen.center().x, screen.min.y + anchor.1.y),
    };
    let round = world.resource::<Battle>().round;
    let dialog = egui::Window::new(title)
        .id(egui::Id::new(("reaction", actor, attacker, round)))
        .collapsible(false)
        .resizable(false)
        .pivot(anchor.0)
        .default_pos(start)
        .show(ctx, |ui| {
            ui.label(question);
            // What is at stake for the one hit, said once above the answers.
            if let Some(stakes) = choices
                .iter()
                .find_map(|c| preview(world, c).and_then(|p| p.stakes))
            {
                ui.label(
                    egui::RichText::new(stakes)
                        .strong()
                        .color(egui::Color32::from_rgb(255, 170, 150)),
                );
            }
            let mut kind = None;
            for (i, c) in choices.into_iter().enumerate() {
                let p = preview(world, &c).unwrap_or_default();
                // A rule between kinds of answer (dodges, counters, guards).
                let k = crate::game::battle::logic::reaction_kind(&p.title);
                if kind.as_ref().is_some_and(|prev| *prev != k) {
                    ui.separator();
                }
                kind = Some(k);
                let odds = p
                    .chance
                    .map_or(String::new(), |ch| format!(" — {:.0}%", ch * 100.0));
                let b = ui
                    .button(format!("{}: {}{odds}", i + 1, p.title))
                    .tag(format!("reaction: {}", command_kind(&c)));
                if b.hovered() {
                    for l in &p.lines {
                        ui.label(detail(l));
                    }
                }
                if b.clicked() {
                    asked.intents.push(UiIntent::React(i));
                }
            }
        });
    asked.covered.extend(dialog.map(|r| r.response.rect));
}

/// A rules log line as the game shows it: where it cites a call Fray makes
/// for the GM ("[Fray decides: docs/rulesets/brp.md, \"Resolution\"]"),
/// the call named for a player ("[Fray's ruling, where the text leaves it
/// to the GM: brp, Resolution]"), not a path into the source tree.
pub fn for_players(line: &str) -> String {
    const CITE: &str = "Fray decides: docs/rulesets/";
    let Some(at) = line.find(CITE) else {
        return line.to_string();
    };
    let rest = &line[at + CITE.len()..];
    let end = rest.find([']', ')']).unwrap_or(rest.len());
    let (id, section) = rest[..end].split_once(".md").unwrap_or((&rest[..end], ""));
    let section = section
        .trim_start_matches([',', ' ', '§'])
        .trim_matches('"')
        .trim();
    let call = if section.is_empty() {
        format!("Fray's ruling, where the text leaves it to the GM: {id}")
    } else {
        format!("Fray's ruling, where the text leaves it to the GM: {id}, {section}")
    };
    format!("{}{call}{}", &line[..at], &rest[end..])
}

fn combat_log(ui: &mut egui::Ui, world: &World) {
    let log = world.resource::<BattleLog>();
    let names = Names {
        roster: world.resource::<Roster>(),
        factions: world.resource::<Factions>(),
    };
    let places = world.get_resource::<super::whereabouts::Whereabouts>();
    // The lines a reader reads: a silent event (a question asked, a turn's
    // bookkeeping) has none.
    let shown: Vec<usize> = (0..log.events.len())
        .filter(|&i| !log.events[i].silent())
        .collect();
    let n = shown.len();
    // Scrolled up to read, the log stays put; new lines gather below and a
    // button says how many and takes the log back down to them.
    let id = egui::Id::new("combat_log_read_up_to");
    let read_up_to: Option<usize> = ui.data(|d| d.get_temp(id));
    let mut back_down = false;
    // The player's log by default; the rules log (each line's rule, and
    // where Fray decides, its docs) a tick away, or a hover on one line.
    let rules_id = egui::Id::new("combat_log_rules");
    let mut rules: bool = ui.data(|d| d.get_temp(rules_id)).unwrap_or(false);
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut rules, "Rules")
            .tag("log: rules")
            .on_hover_text("Show the rule behind every line (hover a line to see just its own)")
            .changed()
        {
            ui.data_mut(|d| d.insert_temp(rules_id, rules));
        }
        if let Some(seen) = read_up_to
            && n > seen
        {
            let new = n - seen;
            back_down = ui
                .button(
                    egui::RichText::new(format!(
                        "⬇ {new} new line{} below: back to the latest",
                        if new == 1 { "" } else { "s" }
                    ))
                    .strong(),
                )
                .tag("log: back to the latest")
                .clicked();
        }
    });
    let mut area = egui::ScrollArea::vertical()
        .id_salt("combat_log")
        .stick_to_bottom(true)
        .auto_shrink([false, false]);
    // Back down to the last line: the offset of the log's end, not a huge
    // number (egui counts rows from the offset, and f32::MAX's row count
    // overflowed).
    const ROW: f32 = 16.0;
    if back_down {
        let end = n as f32 * (ROW + ui.spacing().item_spacing.y);
        area = area.vertical_scroll_offset(end);
    }
    let out = area.show_rows(ui, ROW, n, |ui, range| {
        for &i in &shown[range] {
            let e = &log.events[i];
            let full = for_players(&describe(&names, e));
            // The player's log reads like the story ("the spearman's spear
            // misses Theobald (rolled 9, needed 12)"); the rules log's line,
            // every number and its rule ("  [ud10 §Attacking]"), is a hover
            // away, or every line's with Rules ticked.
            let (text, cited) = if rules {
                (full, None)
            } else {
                let bare = match full.rfind("  [") {
                    Some(i) if full.ends_with(']') => full[..i].to_string(),
                    _ => full.clone(),
                };
                // Where the one who moved went, by name (the places as
                // they were then); the coordinates stay in the rules log.
                let text = match places.and_then(|w| w.line(i)) {
                    Some(line) => line.to_string(),
                    None => crate::rules::narrate::plain(&names, e).unwrap_or(bare),
                };
                let more = full.ends_with(']') || text != full;
                (text, more.then_some(full))
            };
            let rich = match e {
                BattleEvent::RoundStarted { .. } | BattleEvent::BattleEnded { .. } => {
                    egui::RichText::new(text).strong()
                }
                BattleEvent::Damaged { .. } => {
                    egui::RichText::new(text).color(egui::Color32::from_rgb(255, 140, 120))
                }
                BattleEvent::Healed { .. } => {
                    egui::RichText::new(text).color(egui::Color32::from_rgb(140, 230, 150))
                }
                BattleEvent::Ruleset(own)
                    if own
                        .cues()
                        .iter()
                        .any(|c| matches!(c, Cue::Strike { landed: true, .. })) =>
                {
                    egui::RichText::new(text).color(egui::Color32::from_rgb(250, 220, 120))
                }
                _ => egui::RichText::new(text),
            };
            let r = ui.label(rich.monospace().size(12.0));
            if let Some(rule) = cited {
                r.on_hover_text(rule);
            }
        }
    });
    let at_bottom =
        back_down || out.state.offset.y + out.inner_rect.height() >= out.content_size.y - 4.0;
    ui.data_mut(|d| {
        if at_bottom {
            d.remove::<usize>(id);
        } else if read_up_to.is_none() {
            d.insert_temp(id, n);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::for_players;

    /// The game's log names Fray's calls for the GM by ruleset and section,
    /// never by a path into the docs.
    #[test]
    fn a_call_for_the_gm_is_named_not_pathed() {
        assert_eq!(
            for_players("A and B tie at 7  [Fray decides: docs/rulesets/brp.md, \"Resolution\"]"),
            "A and B tie at 7  [Fray's ruling, where the text leaves it to the GM: brp, Resolution]"
        );
        assert_eq!(
            for_players("B is dead  [Fray decides: docs/rulesets/ud10.md §Unconscious and dead]"),
            "B is dead  [Fray's ruling, where the text leaves it to the GM: ud10, Unconscious and dead]"
        );
        assert_eq!(
            for_players(
                "climbing over costs double (Fray decides: docs/rulesets/ud10.md §Movement)"
            ),
            "climbing over costs double (Fray's ruling, where the text leaves it to the GM: ud10, Movement)"
        );
        let plain = "A hits B  [ud10 §Attacking]";
        assert_eq!(for_players(plain), plain);
    }
}
