//! The battle screen's panels (egui): the round and whose turn it is, the
//! turn order, the combatant sheet, the combat log, the action bar with the
//! rules core's preview of the command under the cursor, the reaction
//! dialog, the GM preview controls, the help overlay and the pause menu.
//! One file per panel; this one lays them out and carries out what they
//! asked for.

mod action_bar;
mod combat_log;
mod give_up_dialog;
mod help;
mod pause_menu;
mod preview;
mod preview_controls;
mod reaction_dialog;
mod sheet;
mod top_bar;
mod turn_order;

use bevy::prelude::*;
use bevy_egui::{EguiContext, EguiPrimaryContextPass, PrimaryEguiContext, egui};

use crate::game::battle::logic::{Pacing, TurnUi, UiIntent, human_actor};
use crate::game::flow::ScreenIntent;
use crate::game::session::{Screen, Session};
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::Cid;
use crate::rules::roster::{Factions, Roster};
use crate::rules::view;

use super::input::{HelpOpen, PanelCover};

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

/// The panels system: draw them all (timed for the bench), then carry out
/// what they asked for.
fn battle_panels(world: &mut World) {
    let Some(ctx) = egui_ctx(world) else { return };
    let started = super::bench::Clock::now();
    let mut asked = Asked::default();
    draw(&ctx, world, &mut asked);
    if let Some(mut t) = world.get_resource_mut::<super::bench::PanelTime>() {
        t.0 += started.elapsed();
    }
    carry_out(world, asked);
}

/// What the panels asked for, sent on: the intents and screen buttons as
/// messages, the settings into their resources, where the panels lie into
/// `PanelEdges` and `PanelCover`.
fn carry_out(world: &mut World, asked: Asked) {
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

/// The colour of `cid`'s faction (white if it has none).
fn faction_colour(world: &World, cid: Cid) -> egui::Color32 {
    let f = view::faction(world, cid).unwrap_or(0);
    world
        .resource::<Factions>()
        .0
        .get(f as usize)
        .map_or(egui::Color32::WHITE, |f| colour32(f.colour))
}

/// Every panel and window of the battle screen, in the order egui lays
/// them out: the docked panels (top, bottom, left, right), then the
/// dialogs, the help, the primer and the pause menu over them.
fn draw(ctx: &egui::Context, world: &World, asked: &mut Asked) {
    let mut root = root_ui(ctx, "battle");
    let battle = world.resource::<Battle>().clone();
    let roster = world.resource::<Roster>().clone();
    let pacing = world.resource::<Pacing>().clone();
    let ui_state = world.resource::<TurnUi>().clone();
    let session = world.get_resource::<Session>().cloned();
    let human = human_actor(world);

    let top = top_bar::top_bar(
        &mut root,
        world,
        &battle,
        &roster,
        human,
        session.as_ref(),
        asked,
    );
    asked.covered.push(top);
    let bottom = bottom_panel(
        &mut root,
        world,
        human,
        &ui_state,
        &pacing,
        session.as_ref(),
        asked,
    );
    asked.covered.push(bottom);
    let left = turn_order::order_panel(&mut root, world, &roster, asked);
    asked.covered.push(left);
    let right = sheet::sheet_panel(&mut root, world, &battle, &ui_state);
    asked.covered.push(right);
    asked.edges = Some(super::input::PanelEdges {
        top: top.height(),
        left: left.width(),
        right: right.width(),
        bottom: bottom.height(),
    });

    if let (Some(actor), Prompt::React { attacker, .. }) = (human, battle.prompt) {
        reaction_dialog::reaction_dialog(ctx, world, actor, attacker, asked);
    }
    // Giving up a character's part: asked first.
    if let Some(actor) = human {
        give_up_dialog::give_up_dialog(ctx, world, actor, &ui_state, asked);
    }
    if world.resource::<HelpOpen>().0 {
        help::help_window(ctx, world, asked);
    }
    help::primer(ctx, world, &battle, asked);
    if pacing.menu {
        pause_menu::pause_menu(ctx, world, &pacing, session.as_ref(), asked);
    } else {
        pause_menu::forget_confirm(ctx);
    }
}

/// The bottom panel, the window's whole width (laid out before the side
/// panels, which end above it): actions and preview, then the log.
fn bottom_panel(
    root: &mut egui::Ui,
    world: &World,
    human: Option<Cid>,
    ui_state: &TurnUi,
    pacing: &Pacing,
    session: Option<&Session>,
    asked: &mut Asked,
) -> egui::Rect {
    let bottom = egui::Panel::bottom("bottom")
        .exact_size(280.0)
        .show(root, |ui| {
            // The bar and the preview of what the pointer is on keep one
            // height (scrolled if a preview runs long), so the log below
            // never jumps as the mouse moves.
            egui::ScrollArea::vertical()
                .id_salt("bar_and_preview")
                .max_height(action_bar::BAR_HEIGHT)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    if let Some(actor) = human {
                        action_bar::action_bar(ui, world, actor, ui_state, asked);
                    } else if session.is_some_and(|s| s.is_preview()) {
                        preview_controls::preview_controls(ui, pacing, asked);
                    } else {
                        ui.label("The AI is acting…");
                    }
                });
            ui.separator();
            combat_log::combat_log(ui, world);
        });
    bottom.response.rect
}
