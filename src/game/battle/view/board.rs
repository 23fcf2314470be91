//! The map as a tile map, zone borders, and the highlights of the human's
//! options: reachable cells by movement mode, the path under the cursor,
//! valid targets.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use crate::game::battle::logic::{Tool, TurnUi};
use crate::game::session::Screen;
use crate::rules::command::Command;
use crate::rules::components::{Cid, MoveMode};
use crate::rules::hooks::Give;
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;

use super::{TILE, cell_to_world};

/// Index of a terrain kind in `assets/tiles/terrain.png`, which holds the
/// kinds in their order ([`Terrain::ordinal`]).
pub fn tile_index(t: Terrain) -> u32 {
    u32::from(t.ordinal())
}

/// Show zone borders (the zones ruleset uses them; a toggle elsewhere).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ShowZones(pub bool);

pub fn plugin(app: &mut App) {
    app.init_resource::<ShowZones>()
        .add_systems(
            OnEnter(Screen::Battle),
            spawn_board.in_set(crate::game::AppSystems::View),
        )
        .init_resource::<Highlights>()
        .add_systems(
            Update,
            (zone_borders, compute_highlights, draw_highlights)
                .chain()
                .in_set(crate::game::AppSystems::View)
                .run_if(in_state(Screen::Battle)),
        );
}

fn spawn_board(
    mut commands: Commands,
    map: Res<Map>,
    assets: Res<AssetServer>,
    array_texture_loader: Res<ArrayTextureLoader>,
) {
    let texture: Handle<Image> = assets.load("tiles/terrain.png");
    let size = TilemapSize {
        x: map.width() as u32,
        y: map.height() as u32,
    };
    let tilemap = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for c in map.cells() {
        let pos = TilePos {
            x: c.x as u32,
            y: (map.height() - 1 - c.y) as u32,
        };
        let tile = commands
            .spawn((
                TileBundle {
                    position: pos,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(tile_index(map.terrain(c))),
                    ..default()
                },
                DespawnOnExit(Screen::Battle),
            ))
            .id();
        storage.set(&pos, tile);
    }
    let tile_size = TilemapTileSize { x: TILE, y: TILE };
    commands.entity(tilemap).insert((
        TilemapBundle {
            grid_size: tile_size.into(),
            map_type: TilemapType::Square,
            size,
            storage,
            texture: TilemapTexture::Single(texture.clone()),
            tile_size,
            anchor: TilemapAnchor::Center,
            ..default()
        },
        DespawnOnExit(Screen::Battle),
    ));
    array_texture_loader.add(TilemapArrayTexture {
        texture: TilemapTexture::Single(texture),
        tile_size,
        ..default()
    });
}

fn zone_borders(show: Res<ShowZones>, map: Res<Map>, mut gizmos: Gizmos) {
    if !show.0 || map.zones().is_empty() {
        return;
    }
    let colour = Color::srgba(1.0, 0.95, 0.6, 0.8);
    for c in map.cells() {
        let z = map.zone_of(c);
        let p = cell_to_world(&map, c);
        let h = TILE / 2.0;
        // Right and lower neighbours: draw the shared edge where zones differ.
        let right = Cell::new(c.x + 1, c.y);
        if map.in_bounds(right) && map.zone_of(right) != z {
            gizmos.line_2d(p + Vec2::new(h, -h), p + Vec2::new(h, h), colour);
        }
        let down = Cell::new(c.x, c.y + 1);
        if map.in_bounds(down) && map.zone_of(down) != z {
            gizmos.line_2d(p + Vec2::new(-h, -h), p + Vec2::new(h, -h), colour);
        }
    }
}

/// Shapes to draw over the map this frame.
#[derive(Resource, Default)]
pub struct Highlights {
    rects: Vec<(Vec2, Vec2, Color)>,
    circles: Vec<(Vec2, f32, Color)>,
    lines: Vec<(Vec2, Vec2, Color)>,
}

fn draw_highlights(h: Res<Highlights>, mut gizmos: Gizmos) {
    for (p, size, c) in &h.rects {
        gizmos.rect_2d(Isometry2d::from_translation(*p), *size, *c);
    }
    for (p, r, c) in &h.circles {
        gizmos.circle_2d(Isometry2d::from_translation(*p), *r, *c);
    }
    for (a, b, c) in &h.lines {
        gizmos.line_2d(*a, *b, *c);
    }
}

/// Reachable cells (blue: keeps the action; amber: full movement), the path
/// under the cursor, and the targets of the current tool.
fn compute_highlights(world: &mut World) {
    let mut h = Highlights::default();
    shapes(world, &mut h);
    world.insert_resource(h);
}

/// The shapes over the map at a human's prompt, in the order they are
/// drawn: the cells the tool reaches, the characters a click picks, the
/// targets' rings, the acting combatant's frame, and what is under the
/// cursor.
fn shapes(world: &World, out: &mut Highlights) {
    let Some(ui) = world.get_resource::<TurnUi>() else {
        return;
    };
    let Some(actor) = ui.options.actor else {
        return;
    };
    let mut gizmos = Shapes(out);
    tool_cells(&mut gizmos, world, ui);
    click_picks(&mut gizmos, world, ui);
    target_rings(&mut gizmos, world, ui, actor);
    acting_frame(&mut gizmos, world, actor);
    if let Some(hover) = ui.hover {
        under_cursor(&mut gizmos, world, ui, actor, hover);
    }
}

/// The cells the tool reaches: a ruleset's board tool, the cells it names;
/// else the moves (blue: keeps the action; amber: full movement). None
/// for a blow.
fn tool_cells(gizmos: &mut Shapes, world: &World, ui: &TurnUi) {
    let map = world.resource::<Map>();
    let size = Vec2::splat(TILE - 6.0);
    let cells: Vec<(Cell, Color)> = match &ui.tool {
        // A ruleset's board tool: the cells it names.
        Tool::Offer(name) => ui
            .options
            .tool_offers(name)
            .filter_map(|o| match o.give {
                Give::At { cell, .. } => Some((cell, Color::srgba(0.75, 0.55, 1.0, 0.9))),
                _ => None,
            })
            .collect(),
        _ => ui
            .options
            .moves
            .iter()
            .map(|(c, (_, mode))| {
                let col = match mode {
                    MoveMode::Full => Color::srgba(1.0, 0.7, 0.2, 0.85),
                    _ => Color::srgba(0.35, 0.75, 1.0, 0.9),
                };
                (*c, col)
            })
            .collect(),
    };
    if !matches!(ui.tool, Tool::Attack { .. }) {
        for (c, col) in &cells {
            gizmos.rect_2d(
                Isometry2d::from_translation(cell_to_world(map, *c)),
                size,
                *col,
            );
        }
    }
}

/// The characters a click picks (who takes the faction's turn, say): a
/// double green frame.
fn click_picks(gizmos: &mut Shapes, world: &World, ui: &TurnUi) {
    let map = world.resource::<Map>();
    for o in &ui.options.offers.list {
        if let Give::Click(who) = o.give
            && let Some(cell) = view::cell(world, who)
        {
            let p = cell_to_world(map, cell);
            gizmos.rect_2d(
                Isometry2d::from_translation(p),
                Vec2::splat(TILE - 4.0),
                Color::srgb(0.3, 1.0, 0.45),
            );
            gizmos.rect_2d(
                Isometry2d::from_translation(p),
                Vec2::splat(TILE - 8.0),
                Color::srgb(0.3, 1.0, 0.45),
            );
        }
    }
}

/// Targets: every enemy the current tool can legally strike (or a board
/// tool names), in a double red ring.
fn target_rings(gizmos: &mut Shapes, world: &World, ui: &TurnUi, actor: Cid) {
    let map = world.resource::<Map>();
    let attacks = ui.options.legal.iter().filter_map(|c| match (&ui.tool, c) {
        (
            Tool::Move,
            Command::Attack {
                target,
                weapon,
                mode: 0,
            },
        ) => {
            let ready =
                view::get::<crate::rules::components::Loadout>(world, actor).and_then(|l| l.ready);
            (ready == Some(*weapon)).then_some(*target)
        }
        (
            Tool::Attack { weapon, mode },
            Command::Attack {
                target,
                weapon: w,
                mode: m,
            },
        ) if w == weapon && m == mode => Some(*target),
        _ => None,
    });
    let tool_targets = match &ui.tool {
        Tool::Offer(name) => ui
            .options
            .tool_offers(name)
            .filter_map(|o| match o.give {
                Give::On(who) => Some(who),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    for t in attacks.chain(tool_targets) {
        let Some(cell) = view::cell(world, t) else {
            continue;
        };
        // A rider's ring sits on its seat, smaller.
        let (p, k) = if let Some(m) = view::riding(world, t) {
            let i = view::riders(world, m)
                .iter()
                .position(|r| *r == t)
                .unwrap_or(0);
            (cell_to_world(map, cell) + super::tokens::seat(i), 0.62)
        } else {
            (cell_to_world(map, cell), 1.0)
        };
        gizmos.circle_2d(
            Isometry2d::from_translation(p),
            TILE * 0.48 * k,
            Color::srgb(1.0, 0.25, 0.2),
        );
        gizmos.circle_2d(
            Isometry2d::from_translation(p),
            TILE * 0.44 * k,
            Color::srgb(1.0, 0.25, 0.2),
        );
    }
}

/// The acting combatant's yellow frame (not the one who merely speaks for
/// its faction).
fn acting_frame(gizmos: &mut Shapes, world: &World, actor: Cid) {
    let activating = matches!(
        world.resource::<crate::rules::battle::Battle>().prompt,
        crate::rules::battle::Prompt::Activate { .. }
    );
    if !activating && let Some(cell) = view::cell(world, actor) {
        let p = cell_to_world(world.resource::<Map>(), cell);
        gizmos.rect_2d(
            Isometry2d::from_translation(p),
            Vec2::splat(TILE - 2.0),
            Color::srgb(1.0, 1.0, 0.4),
        );
    }
}

/// Under the cursor at `hover`: the path there, the cell's frame, and
/// where the board tool's command sends its target.
fn under_cursor(gizmos: &mut Shapes, world: &World, ui: &TurnUi, actor: Cid, hover: Cell) {
    let map = world.resource::<Map>();
    let path = match &ui.tool {
        Tool::Move => ui.options.moves.get(&hover).map(|(p, _)| p.clone()),
        Tool::Offer(name) => ui.options.tool_offers(name).find_map(|o| match &o.give {
            Give::At { cell, path } if *cell == hover && !path.is_empty() => Some(path.clone()),
            _ => None,
        }),
        _ => None,
    };
    if let (Some(path), Some(start)) = (path, view::cell(world, actor)) {
        let mut prev = cell_to_world(map, start);
        for c in path {
            let p = cell_to_world(map, c);
            gizmos.line_2d(prev, p, Color::WHITE);
            gizmos.circle_2d(Isometry2d::from_translation(p), 5.0, Color::WHITE);
            prev = p;
        }
    }
    gizmos.rect_2d(
        Isometry2d::from_translation(cell_to_world(map, hover)),
        Vec2::splat(TILE),
        Color::srgba(1.0, 1.0, 1.0, 0.7),
    );
    if let Tool::Offer(name) = &ui.tool {
        landing_arrows(gizmos, world, ui, name, hover);
    }
}

/// Where the tool's command under the cursor sends its target (a shove):
/// an arrow from the target to the cell it lands on.
fn landing_arrows(gizmos: &mut Shapes, world: &World, ui: &TurnUi, name: &str, hover: Cell) {
    let map = world.resource::<Map>();
    let under = ui.options.tool_offers(name).find(|o| match o.give {
        Give::On(who) => view::cell(world, who) == Some(hover),
        _ => false,
    });
    let lands = under
        .and_then(|o| crate::game::battle::logic::preview(world, &o.command))
        .map(|p| p.lands)
        .unwrap_or_default();
    let orange = Color::srgb(1.0, 0.6, 0.15);
    for cell in lands {
        let (a, b) = (cell_to_world(map, hover), cell_to_world(map, cell));
        gizmos.line_2d(a, b, orange);
        let d = (b - a).normalize_or_zero();
        let side = Vec2::new(-d.y, d.x);
        let tip = b - d * TILE * 0.2;
        gizmos.line_2d(tip, tip - d * 10.0 + side * 7.0, orange);
        gizmos.line_2d(tip, tip - d * 10.0 - side * 7.0, orange);
        gizmos.rect_2d(
            Isometry2d::from_translation(b),
            Vec2::splat(TILE - 10.0),
            orange,
        );
    }
}

/// Records shapes with the same calls as `Gizmos`.
struct Shapes<'a>(&'a mut Highlights);

impl Shapes<'_> {
    fn rect_2d(&mut self, iso: Isometry2d, size: Vec2, c: Color) {
        self.0.rects.push((iso.translation, size, c));
    }
    fn circle_2d(&mut self, iso: Isometry2d, r: f32, c: Color) {
        self.0.circles.push((iso.translation, r, c));
    }
    fn line_2d(&mut self, a: Vec2, b: Vec2, c: Color) {
        self.0.lines.push((a, b, c));
    }
}
