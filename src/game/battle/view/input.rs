//! Every binding of the game in one place (keyboard, mouse, gamepad), the
//! help overlay's list of them, and the systems that turn input into the
//! battle screen's intents.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use leafwing_input_manager::prelude::*;

use crate::game::battle::logic::{Pacing, Tool, TurnUi, UiIntent};
use crate::game::session::{Screen, Speed};
use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::Command;
use crate::rules::components::{Controller, Loadout};
use crate::rules::hooks::{Give, OfferKey};
use crate::rules::map::{Cell, Map};
use crate::rules::roster::Roster;

use super::MainCamera;
use super::board::ShowZones;
use super::world_to_cell;

/// Everything a player can do with a key, button or stick.
#[derive(Actionlike, PartialEq, Eq, Clone, Copy, Hash, Debug, Reflect)]
pub enum UiAction {
    /// Act on the cell under the cursor: move, attack, aim, select.
    Select,
    /// Back to the plain move tool; clear the selection.
    Cancel,
    EndTurn,
    #[actionlike(DualAxis)]
    Pan,
    #[actionlike(Axis)]
    Zoom,
    ZoomIn,
    ZoomOut,
    /// Hold to drag the map.
    Drag,
    /// Centre the camera on the acting combatant.
    Centre,
    /// The whole map in view again.
    FitMap,
    Help,
    Menu,
    /// Gamepad cursor, one cell at a time.
    CursorUp,
    CursorDown,
    CursorLeft,
    CursorRight,
    /// Draw the next carried weapon.
    SwitchWeapon,
    Flee,
    /// Reaction prompt: the first, second, ... answer of the dialog.
    React1,
    React2,
    React3,
    React4,
    React5,
    React6,
    React7,
    React8,
    React9,
    /// GM preview: pause or resume, one action, speeds.
    PreviewPause,
    PreviewStep,
    SpeedUp,
    SpeedDown,
    ToggleZones,
}

/// The entity that holds the input map.
#[derive(Component)]
pub struct Player;

/// The bindings every ruleset shares, as the help overlay lists them (keys,
/// what they do); the ruleset's own follow (`RulesetHooks::help`).
pub const HELP: &[(&str, &str)] = &[
    (
        "Left click / gamepad A",
        "move to a highlighted cell, attack a marked enemy, select",
    ),
    (
        "Right click / Backspace / gamepad B",
        "back to the move tool; clear the selection",
    ),
    ("Enter, E / gamepad Y", "end the turn"),
    ("WASD, arrows / left stick / screen edge", "pan the map"),
    ("Middle mouse drag", "drag the map"),
    ("Mouse wheel, + and - / triggers", "zoom"),
    ("C / left stick click", "centre on the acting combatant"),
    ("M, Home", "the whole map in view"),
    ("Gamepad d-pad", "move the cell cursor"),
    (
        "Tab",
        "draw the next weapon (its button's tooltip says the cost; brp readies a weapon by attacking with it)",
    ),
    (
        "F",
        "flee over the map's edge (from an edge cell; asks first)",
    ),
    ("Space / gamepad X", "GM preview: one action"),
    ("P", "GM preview: pause or resume"),
    ("] and [", "faster / slower (x1, x2, x4, instant)"),
    ("Z", "show zone borders (levels that draw zones)"),
    ("F1, ?", "this help"),
    ("Esc / gamepad Start", "pause menu"),
];

use UiAction::*;

/// Keyboard bindings (with [`MOUSE`], [`PAD`] and the axes in
/// [`input_map`], every binding there is).
pub const KEYS: &[(UiAction, KeyCode)] = &[
    (Cancel, KeyCode::Backspace),
    (EndTurn, KeyCode::Enter),
    (EndTurn, KeyCode::KeyE),
    (ZoomIn, KeyCode::Equal),
    (ZoomIn, KeyCode::NumpadAdd),
    (ZoomOut, KeyCode::Minus),
    (ZoomOut, KeyCode::NumpadSubtract),
    (Centre, KeyCode::KeyC),
    (FitMap, KeyCode::KeyM),
    (FitMap, KeyCode::Home),
    (Help, KeyCode::F1),
    (Help, KeyCode::Slash),
    (Menu, KeyCode::Escape),
    (SwitchWeapon, KeyCode::Tab),
    (Flee, KeyCode::KeyF),
    (React1, KeyCode::Digit1),
    (React2, KeyCode::Digit2),
    (React3, KeyCode::Digit3),
    (React4, KeyCode::Digit4),
    (React5, KeyCode::Digit5),
    (React6, KeyCode::Digit6),
    (React7, KeyCode::Digit7),
    (React8, KeyCode::Digit8),
    (React9, KeyCode::Digit9),
    (PreviewPause, KeyCode::KeyP),
    (PreviewStep, KeyCode::Space),
    (SpeedUp, KeyCode::BracketRight),
    (SpeedDown, KeyCode::BracketLeft),
    (ToggleZones, KeyCode::KeyZ),
];

/// Mouse button bindings.
pub const MOUSE: &[(UiAction, MouseButton)] = &[
    (Select, MouseButton::Left),
    (Cancel, MouseButton::Right),
    (Drag, MouseButton::Middle),
];

/// Gamepad button bindings.
pub const PAD: &[(UiAction, GamepadButton)] = &[
    (Select, GamepadButton::South),
    (Cancel, GamepadButton::East),
    (EndTurn, GamepadButton::North),
    (ZoomIn, GamepadButton::RightTrigger2),
    (ZoomOut, GamepadButton::LeftTrigger2),
    (Centre, GamepadButton::LeftThumb),
    (Menu, GamepadButton::Start),
    (CursorUp, GamepadButton::DPadUp),
    (CursorDown, GamepadButton::DPadDown),
    (CursorLeft, GamepadButton::DPadLeft),
    (CursorRight, GamepadButton::DPadRight),
    (PreviewStep, GamepadButton::West),
];

/// The input map: [`KEYS`], [`MOUSE`], [`PAD`], and the pan and zoom axes
/// (WASD, arrows, left stick; mouse wheel).
pub fn input_map() -> InputMap<UiAction> {
    let mut m = InputMap::default();
    for (a, k) in KEYS {
        m.insert(*a, *k);
    }
    for (a, b) in MOUSE {
        m.insert(*a, *b);
    }
    for (a, b) in PAD {
        m.insert(*a, *b);
    }
    m.insert_dual_axis(Pan, VirtualDPad::wasd())
        .insert_dual_axis(Pan, VirtualDPad::arrow_keys())
        .insert_dual_axis(Pan, GamepadStick::LEFT)
        .insert_axis(Zoom, MouseScrollAxis::Y);
    m
}

/// Was `a` pressed this frame? The action state, or — for a key or button
/// pressed and released within one slow frame, which the action state can
/// miss — the devices' own record of the same bindings.
pub fn tapped(
    a: UiAction,
    action: &ActionState<UiAction>,
    keys: &ButtonInput<KeyCode>,
    mouse: &ButtonInput<MouseButton>,
) -> bool {
    action.just_pressed(&a)
        || KEYS.iter().any(|(x, k)| *x == a && keys.just_pressed(*k))
        || MOUSE.iter().any(|(x, b)| *x == a && mouse.just_pressed(*b))
}

/// Where the battle screen's panels and windows were last drawn (logical
/// pixels from the window's top left). The panels lie on egui's background
/// layer, which egui does not count as "over egui", so the game keeps their
/// rectangles itself.
#[derive(Resource, Clone, Debug, Default)]
pub struct PanelCover(pub Vec<Rect>);

/// How far the four docked panels reach into the window (logical pixels:
/// the top bar's height, the turn order's width, the sheet's width, the
/// bottom panel's height), as last drawn: the map is framed in what they
/// leave free.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct PanelEdges {
    pub top: f32,
    pub left: f32,
    pub right: f32,
    pub bottom: f32,
}

impl Default for PanelEdges {
    /// The panels' sizes before they are first drawn.
    fn default() -> Self {
        PanelEdges {
            top: 36.0,
            left: 260.0,
            right: 330.0,
            bottom: 280.0,
        }
    }
}

impl PanelCover {
    /// Is this window position over a panel or a window?
    pub fn covers(&self, at: Vec2) -> bool {
        self.0.iter().any(|r| r.contains(at))
    }
}

/// Is the pointer free of the egui panels and windows: may the wheel zoom
/// the map and a click reach it?
pub fn pointer_free(
    w: Option<&bevy_egui::input::EguiWantsInput>,
    cover: &PanelCover,
    cursor: Option<Vec2>,
) -> bool {
    w.is_none_or(|w| !w.is_pointer_over_area() && !w.wants_pointer_input())
        && cursor.is_none_or(|c| !cover.covers(c))
}

/// The battle's keys belong to the game. egui would move its keyboard
/// focus with Tab (onto the top bar's buttons) and press the focused
/// button with Enter or Space, the keys that draw a weapon, end the turn
/// and step a preview; the arrows would move the focus too. So these never
/// reach egui on the battle screen (its panels have no text to type in).
fn keep_game_keys_from_egui(mut inputs: Query<&mut bevy_egui::EguiInput>) {
    use bevy_egui::egui::{Event, Key};
    for mut input in &mut inputs {
        input.events.retain(|e| {
            !matches!(
                e,
                Event::Key {
                    key: Key::Tab
                        | Key::Enter
                        | Key::Space
                        | Key::ArrowUp
                        | Key::ArrowDown
                        | Key::ArrowLeft
                        | Key::ArrowRight,
                    ..
                }
            )
        });
    }
}

/// The help overlay is open.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct HelpOpen(pub bool);

pub fn plugin(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<UiAction>::default())
        .init_resource::<HelpOpen>()
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn((input_map(), Player));
        })
        .init_resource::<PanelCover>()
        .init_resource::<PanelEdges>()
        .add_systems(
            PreUpdate,
            keep_game_keys_from_egui
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass)
                .run_if(in_state(Screen::Battle)),
        )
        .add_systems(
            Update,
            (pointer, keys)
                .in_set(crate::game::AppSystems::Input)
                .run_if(in_state(Screen::Battle)),
        );
}

/// The pointer (or the gamepad's cell cursor) over the map.
#[allow(clippy::too_many_arguments)]
fn pointer(
    action: Single<&ActionState<UiAction>, With<Player>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<MainCamera>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    cover: Res<PanelCover>,
    map: Res<Map>,
    ui: Res<TurnUi>,
    pacing: Res<Pacing>,
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut pad_cursor: Local<Option<Cell>>,
    mut intents: MessageWriter<UiIntent>,
) {
    if pacing.menu {
        return;
    }
    let free = pointer_free(egui.as_deref(), &cover, window.cursor_position());
    let (cam, cam_tr) = *camera;
    let mut hover = None;
    if free
        && let Some(c) = window.cursor_position()
        && let Ok(p) = cam.viewport_to_world_2d(cam_tr, c)
    {
        hover = world_to_cell(&map, p);
        *pad_cursor = None;
    }
    // The gamepad's d-pad moves a cell cursor.
    let mut moved = false;
    for (a, dx, dy) in [
        (UiAction::CursorUp, 0, -1),
        (UiAction::CursorDown, 0, 1),
        (UiAction::CursorLeft, -1, 0),
        (UiAction::CursorRight, 1, 0),
    ] {
        if action.just_pressed(&a) {
            let base = pad_cursor
                .or(ui.hover)
                .unwrap_or(Cell::new(map.width() / 2, map.height() / 2));
            let next = Cell::new(base.x + dx, base.y + dy);
            if map.in_bounds(next) {
                *pad_cursor = Some(next);
            }
            moved = true;
        }
    }
    if pad_cursor.is_some() {
        hover = *pad_cursor;
    }
    if hover != ui.hover || moved {
        intents.write(UiIntent::Hover(hover));
    }
    // The Select binding; a click pressed and released within one frame
    // (slow frames) is still seen through the mouse's own record.
    let select = tapped(UiAction::Select, &action, &keys, &mouse);
    if select
        && (free || pad_cursor.is_some())
        && let Some(c) = hover
    {
        intents.write(UiIntent::Click(c));
    }
}

/// Keyboard and gamepad shortcuts: the window's own (menu, help, zones),
/// then, with the menu closed, the pacing's, then at a human's prompt its
/// reaction or its turn's keys.
#[allow(clippy::too_many_arguments)]
fn keys(
    battle: Res<Battle>,
    roster: Res<Roster>,
    combatants: Query<(&Controller, Option<&Loadout>)>,
    action: Single<&ActionState<UiAction>, With<Player>>,
    keyboard: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    mut intents: MessageWriter<UiIntent>,
    mut pacing: ResMut<Pacing>,
    mut help: ResMut<HelpOpen>,
    mut zones: ResMut<ShowZones>,
    turn: Res<TurnUi>,
) {
    let tap = |a: UiAction| tapped(a, &action, &keyboard, &mouse);
    window_keys(&tap, &mut pacing, &mut help, &mut zones);
    if pacing.menu {
        return;
    }
    pacing_keys(&tap, &mut pacing);
    let Some((_, loadout)) = battle
        .prompt
        .actor()
        .and_then(|a| roster.entity(a))
        .and_then(|e| combatants.get(e).ok())
        .filter(|(c, _)| **c == Controller::Human)
    else {
        return;
    };
    let reacting = matches!(battle.prompt, Prompt::React { .. });
    if reacting {
        for (i, a) in [
            React1, React2, React3, React4, React5, React6, React7, React8, React9,
        ]
        .into_iter()
        .enumerate()
        {
            if tap(a) {
                intents.write(UiIntent::React(i));
            }
        }
        return;
    }
    for i in turn_keys(&tap, &keyboard, &turn, loadout) {
        intents.write(i);
    }
    if tap(UiAction::Cancel) {
        intents.write(UiIntent::Tool(Tool::Move));
        intents.write(UiIntent::Select(None));
    }
}

/// The menu (Esc closes the help first), the help, the zone borders.
fn window_keys(
    tap: &impl Fn(UiAction) -> bool,
    pacing: &mut ResMut<Pacing>,
    help: &mut ResMut<HelpOpen>,
    zones: &mut ResMut<ShowZones>,
) {
    if tap(UiAction::Menu) {
        if help.0 {
            help.0 = false;
        } else {
            pacing.menu = !pacing.menu;
        }
    }
    if tap(UiAction::Help) {
        help.0 = !help.0;
    }
    if tap(UiAction::ToggleZones) {
        zones.0 = !zones.0;
    }
}

/// The GM preview's pause and step, and the speed up or down.
fn pacing_keys(tap: &impl Fn(UiAction) -> bool, pacing: &mut ResMut<Pacing>) {
    if tap(UiAction::PreviewPause) {
        pacing.paused = !pacing.paused;
    }
    if tap(UiAction::PreviewStep) {
        pacing.paused = true;
        pacing.step_once = true;
    }
    let i = Speed::ALL
        .iter()
        .position(|s| *s == pacing.speed)
        .unwrap_or(0);
    if tap(UiAction::SpeedUp) {
        pacing.speed = Speed::ALL[(i + 1).min(Speed::ALL.len() - 1)];
    }
    if tap(UiAction::SpeedDown) {
        pacing.speed = Speed::ALL[i.saturating_sub(1)];
    }
}

/// What a human's turn keys ask for, in order: end the turn, flee, switch
/// weapons, the ruleset's letter keys.
fn turn_keys(
    tap: &impl Fn(UiAction) -> bool,
    keyboard: &ButtonInput<KeyCode>,
    turn: &TurnUi,
    loadout: Option<&Loadout>,
) -> Vec<UiIntent> {
    let mut out = Vec::new();
    let send = |c: Command| UiIntent::Command(c);
    let offers = &turn.options.offers.list;
    if tap(UiAction::EndTurn) {
        // Where a turn cannot be ended (an activation), the ruleset's offer
        // on the end-turn key: passing.
        match offers.iter().find(|o| o.key == Some(OfferKey::EndTurn)) {
            Some(o) => out.push(send(o.command.clone())),
            None => out.push(send(Command::EndTurn)),
        }
    }
    // Flight gives up the character's part: asked first (when it is legal;
    // else sent, for the reason it is refused).
    if tap(UiAction::Flee) {
        if turn.options.legal.contains(&Command::Flee) {
            out.push(UiIntent::AskFirst(Some(Command::Flee)));
        } else {
            out.push(send(Command::Flee));
        }
    }
    if tap(UiAction::SwitchWeapon)
        && let Some(l) = loadout
        && !l.weapons.is_empty()
    {
        let next = l.ready.map_or(0, |r| (r + 1) % l.weapons.len());
        out.push(send(Command::Draw { weapon: next }));
    }
    // The ruleset's letter keys: a button's command, or a board tool.
    if let Some(o) = offers.iter().find(|o| match o.key {
        Some(OfferKey::Letter(c)) => letter(c).is_some_and(|k| keyboard.just_pressed(k)),
        _ => false,
    }) {
        match o.give {
            Give::Button | Give::Click(_) => out.push(send(o.command.clone())),
            Give::Apart => out.push(UiIntent::AskFirst(Some(o.command.clone()))),
            Give::On(_) | Give::At { .. } => out.push(UiIntent::Tool(Tool::Offer(o.label.clone()))),
        }
    }
    out
}

/// The key of a letter a ruleset gives an offer.
fn letter(c: char) -> Option<KeyCode> {
    use KeyCode::*;
    const LETTERS: [KeyCode; 26] = [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ];
    let i = (c.to_ascii_uppercase() as u32).checked_sub('A' as u32)?;
    LETTERS.get(i as usize).copied()
}
