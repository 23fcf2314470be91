//! Combatant tokens: a disc in the faction's colour with an icon for the
//! combatant's kind, a health bar (and endurance bar where the ruleset has
//! EP), marks for conditions, a nose on the rim the way it faces (where the
//! ruleset reads facing); the lines between tokens (`lines.rs`: a rope
//! from whoever holds it in a grab, an aim at the enemy it will attack)
//! and what lies on the ground (`ground.rs`).

mod ground;
mod lines;

use bevy::prelude::*;

use crate::game::AppSystems;
use crate::game::session::Screen;
use crate::rules::components::{Archetype, Cid, Condition};
use crate::rules::roster::{Factions, Roster};

use super::TILE;
use super::playback::Shown;

#[derive(Component)]
pub struct Token(pub Cid);

/// The token's disc, with its faction's colour.
#[derive(Component)]
struct Disc(Color);

#[derive(Component)]
struct HpFill;

#[derive(Component)]
struct EpFill;

#[derive(Component)]
struct Mark(usize);

/// The nose on a token's rim, pointing the way the combatant faces (a dark
/// outline under a light fill).
#[derive(Component)]
struct Nose;

const BAR_W: f32 = TILE * 0.8;

/// The condition marks' images, loaded once.
#[derive(Resource, Default)]
struct MarkArt(Vec<(Condition, Handle<Image>)>);

impl MarkArt {
    fn get(&self, c: Condition) -> Option<Handle<Image>> {
        self.0.iter().find(|(k, _)| *k == c).map(|(_, h)| h.clone())
    }
}

/// Where the `i`-th rider of a mount sits on its cell, from the cell's
/// centre: the corners, top right first.
pub fn seat(i: usize) -> Vec2 {
    let (x, y) = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)][i % 4];
    Vec2::new(TILE * 0.34 * x, TILE * 0.3 * y)
}

/// The icon of an archetype.
pub fn icon_for(archetype: &str) -> &'static str {
    match archetype {
        "archer" => "bow",
        "spearman" => "spear",
        "brute" => "axe",
        "captain" => "crown",
        "crossbowman" => "crossbow",
        "shieldbearer" => "shield",
        "skirmisher" => "javelin",
        "wyrm" => "claws",
        "goblin" => "dagger",
        "giant" => "club",
        "horse" | "warhorse" => "hooves",
        "wagon" => "wheel",
        _ => "sword",
    }
}

/// Conditions shown as marks, most important first.
const MARKED: [Condition; 14] = [
    Condition::Dead,
    Condition::Incapacitated,
    Condition::Unconscious,
    Condition::Fled,
    Condition::Surrendered,
    Condition::Broken,
    Condition::Stunned,
    Condition::Prone,
    Condition::Immobilized,
    Condition::Surprised,
    Condition::Crouching,
    Condition::Concealed,
    Condition::Steadfast,
    Condition::Grabbed,
];

pub fn plugin(app: &mut App) {
    ground::plugin(app);
    lines::plugin(app);
    app.init_resource::<MarkArt>()
        .add_systems(
            OnEnter(Screen::Battle),
            spawn_tokens.in_set(AppSystems::View),
        )
        .add_systems(
            Update,
            (sync_tokens, sync_noses)
                .in_set(AppSystems::View)
                .run_if(in_state(Screen::Battle)),
        );
}

fn colour(rgb: [u8; 3]) -> Color {
    Color::srgb_u8(rgb[0], rgb[1], rgb[2])
}

/// A token for each combatant, where the screen shows it (the condition
/// marks' images loaded here, once).
#[allow(clippy::too_many_arguments)]
fn spawn_tokens(
    mut commands: Commands,
    mut mark_art: ResMut<MarkArt>,
    roster: Res<Roster>,
    factions: Res<Factions>,
    assets: Res<AssetServer>,
    shown: Res<Shown>,
    archetypes: Query<&Archetype>,
    sizes: Query<&crate::rules::components::Size>,
    steeds: Query<&crate::rules::components::Steed>,
) {
    use crate::rules::components::Size;
    let disc: Handle<Image> = assets.load("tokens/disc.png");
    mark_art.0 = MARKED
        .iter()
        .map(|c| (*c, assets.load(format!("marks/{}.png", c.name()))))
        .collect();
    for cid in roster.cids() {
        let Some(e) = roster.entity(cid) else {
            continue;
        };
        let arch = archetypes.get(e).map_or("swordsman", |a| a.0.as_str());
        // Bigger creatures, bigger tokens (they still stand on one cell).
        let scale = match sizes.get(e).copied().unwrap_or_default() {
            Size::Tiny => 0.7,
            Size::Small => 0.82,
            Size::Medium => 1.0,
            Size::Large => 1.3,
            Size::Massive => 1.6,
        };
        let f = roster.factions.get(cid.0 as usize).copied().unwrap_or(0);
        let col = factions
            .0
            .get(f as usize)
            .map_or(Color::WHITE, |f| colour(f.colour));
        // Mounts and vehicles in a darker shade: their riders stand out.
        let col = if steeds.get(e).is_ok() {
            let c = col.to_srgba();
            Color::srgb(c.red * 0.55, c.green * 0.55, c.blue * 0.55)
        } else {
            col
        };
        let pos = shown.get(cid).map_or(Vec2::ZERO, |s| s.pos);
        let has_ep = shown.get(cid).is_some_and(|s| s.ep_max > 0);
        let icon = assets.load(format!("tokens/{}.png", icon_for(arch)));
        commands
            .spawn((
                Token(cid),
                Transform::from_xyz(pos.x, pos.y, 10.0),
                Visibility::default(),
                DespawnOnExit(Screen::Battle),
            ))
            .with_children(|p| {
                spawn_disc(p, disc.clone(), icon, col, scale);
                spawn_bars(p, has_ep);
                spawn_nose(p);
                spawn_marks(p);
            });
    }
}

/// The token's disc in `col` and its kind's icon on it, at `scale`.
fn spawn_disc(
    p: &mut ChildSpawnerCommands,
    disc: Handle<Image>,
    icon: Handle<Image>,
    col: Color,
    scale: f32,
) {
    p.spawn((
        Disc(col),
        Sprite {
            image: disc,
            color: col,
            custom_size: Some(Vec2::splat(TILE * 0.9 * scale)),
            ..default()
        },
        Transform::from_xyz(0.0, 2.0, 0.0),
    ));
    p.spawn((
        Sprite {
            image: icon,
            custom_size: Some(Vec2::splat(TILE * 0.62 * scale)),
            ..default()
        },
        Transform::from_xyz(-1.0, 5.0, 0.1),
    ));
}

/// Health bar: dark back, coloured fill anchored at the left; the
/// endurance bar under it where the combatant has EP.
fn spawn_bars(p: &mut ChildSpawnerCommands, has_ep: bool) {
    let y = -TILE * 0.42;
    p.spawn((
        Sprite {
            color: Color::srgba(0.05, 0.05, 0.05, 0.85),
            custom_size: Some(Vec2::new(BAR_W + 4.0, if has_ep { 13.0 } else { 8.0 })),
            ..default()
        },
        Transform::from_xyz(0.0, if has_ep { y - 2.5 } else { y }, 0.2),
    ));
    p.spawn((
        HpFill,
        Sprite {
            color: Color::srgb(0.3, 0.85, 0.35),
            custom_size: Some(Vec2::new(BAR_W, 5.0)),
            ..default()
        },
        Transform::from_xyz(0.0, y, 0.3),
    ));
    if has_ep {
        p.spawn((
            EpFill,
            Sprite {
                color: Color::srgb(0.35, 0.6, 1.0),
                custom_size: Some(Vec2::new(BAR_W, 4.0)),
                ..default()
            },
            Transform::from_xyz(0.0, y - 5.5, 0.3),
        ));
    }
}

/// The nose (hidden until the token faces somewhere): a dark outline under
/// a light fill.
fn spawn_nose(p: &mut ChildSpawnerCommands) {
    for outline in [true, false] {
        let (size, shade, z) = if outline {
            (TILE * 0.24, Color::srgba(0.05, 0.05, 0.05, 0.9), 0.45)
        } else {
            (TILE * 0.16, Color::srgb(0.97, 0.95, 0.85), 0.46)
        };
        p.spawn((
            Nose,
            Sprite {
                color: shade,
                custom_size: Some(Vec2::splat(size)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, z)
                .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_4)),
            Visibility::Hidden,
        ));
    }
}

/// Three places for condition marks along the token's top, hidden until a
/// condition fills them.
fn spawn_marks(p: &mut ChildSpawnerCommands) {
    for i in 0..3 {
        p.spawn((
            Mark(i),
            Sprite {
                custom_size: Some(Vec2::splat(TILE * 0.32)),
                ..default()
            },
            Transform::from_xyz(TILE * 0.32 - i as f32 * TILE * 0.3, TILE * 0.32, 0.5),
            Visibility::Hidden,
        ));
    }
}

/// Each token where the screen shows its combatant, with its disc's
/// colour, its bars and its condition marks.
#[allow(clippy::type_complexity)]
fn sync_tokens(
    shown: Res<Shown>,
    mark_art: Res<MarkArt>,
    mut tokens: Query<(&Token, &mut Transform, &Children)>,
    mut discs: Query<(&Disc, &mut Sprite), (Without<HpFill>, Without<EpFill>, Without<Mark>)>,
    mut hp: Query<
        (&mut Sprite, &mut Transform),
        (
            With<HpFill>,
            Without<Token>,
            Without<Disc>,
            Without<EpFill>,
            Without<Mark>,
        ),
    >,
    mut ep: Query<
        (&mut Sprite, &mut Transform),
        (
            With<EpFill>,
            Without<Token>,
            Without<Disc>,
            Without<HpFill>,
            Without<Mark>,
        ),
    >,
    mut marks: Query<
        (&Mark, &mut Sprite, &mut Visibility),
        (Without<Disc>, Without<HpFill>, Without<EpFill>),
    >,
) {
    for (token, mut tr, children) in &mut tokens {
        let Some(s) = shown.get(token.0) else {
            continue;
        };
        let out = s.conds.out_of_fight();
        place_token(&mut tr, &shown, token.0);
        for child in children.iter() {
            if let Ok((disc, mut sprite)) = discs.get_mut(child) {
                sprite.color = disc_colour(disc.0, s.flash, out);
            }
            if let Ok((mut sprite, mut t)) = hp.get_mut(child) {
                let f = (s.hp.max(0) as f32 / s.hp_max.max(1) as f32).clamp(0.0, 1.0);
                sprite.custom_size = Some(Vec2::new(BAR_W * f, 5.0));
                t.translation.x = -BAR_W * (1.0 - f) / 2.0;
                sprite.color = if f > 0.5 {
                    Color::srgb(0.3, 0.85, 0.35)
                } else if f > 0.25 {
                    Color::srgb(0.95, 0.75, 0.2)
                } else {
                    Color::srgb(0.95, 0.3, 0.25)
                };
            }
            if let Ok((mut sprite, mut t)) = ep.get_mut(child) {
                let f = (s.ep.max(0) as f32 / s.ep_max.max(1) as f32).clamp(0.0, 1.0);
                sprite.custom_size = Some(Vec2::new(BAR_W * f, 4.0));
                t.translation.x = -BAR_W * (1.0 - f) / 2.0;
            }
            if let Ok((mark, mut sprite, mut vis)) = marks.get_mut(child) {
                match mark_image(&mark_art, &s.conds, out, mark.0) {
                    Some(h) => {
                        if sprite.image != h {
                            sprite.image = h;
                        }
                        *vis = Visibility::Inherited;
                    }
                    None => *vis = Visibility::Hidden,
                }
            }
        }
    }
}

/// Where `cid`'s token stands as the screen shows it (its lunge included),
/// how big, and over or under the others.
fn place_token(tr: &mut Transform, shown: &Shown, cid: Cid) {
    let Some(s) = shown.get(cid) else {
        return;
    };
    let out = s.conds.out_of_fight();
    // A rider sits smaller, up and to the right on its mount's cell.
    let seat = match s.riding {
        Some(m) => {
            let before = shown.0[..(cid.0 as usize).min(shown.0.len())]
                .iter()
                .filter(|o| o.riding == Some(m))
                .count();
            seat(before)
        }
        None => Vec2::ZERO,
    };
    tr.translation.x = s.pos.x + s.lunge.x + seat.x;
    tr.translation.y = s.pos.y + s.lunge.y + seat.y;
    tr.scale = Vec3::splat(if s.riding.is_some() { 0.62 } else { 1.0 });
    // The fallen lie under the standing; riders sit above their mounts.
    tr.translation.z = if out {
        5.0
    } else if s.riding.is_some() {
        12.0
    } else {
        10.0
    };
}

/// The disc's colour: a hit flashes it red-white, then back to the
/// faction's colour `base`; the fallen's faded.
fn disc_colour(base: Color, flash: f32, out: bool) -> Color {
    let a = if out { 0.45 } else { 1.0 };
    let flash = (flash / 0.35).clamp(0.0, 1.0);
    let base = base.to_srgba();
    let hot = Color::srgb(1.0, 0.45, 0.4).to_srgba();
    Color::srgba(
        base.red + (hot.red - base.red) * flash,
        base.green + (hot.green - base.green) * flash,
        base.blue + (hot.blue - base.blue) * flash,
        a,
    )
}

/// The image of the `i`-th condition mark, most important first, if the
/// combatant has that many. The fallen keep only what took them out
/// (dead, unconscious, fled...): no crouching or grabbed beside it.
fn mark_image(
    art: &MarkArt,
    conds: &crate::rules::components::Conditions,
    out: bool,
    i: usize,
) -> Option<Handle<Image>> {
    let mut shown_marks: Vec<Condition> =
        MARKED.iter().copied().filter(|c| conds.has(*c)).collect();
    if out {
        shown_marks.truncate(1);
    }
    shown_marks.get(i).and_then(|c| art.get(*c))
}

/// Each token's nose, on the rim the way its combatant faces now, where the
/// ruleset in force reads facing; hidden on the fallen and on riders (who
/// face as their mount does).
fn sync_noses(
    roster: Res<Roster>,
    active: Option<Res<crate::rules::hooks::ActiveRuleset>>,
    shown: Res<Shown>,
    headings: Query<&crate::rules::components::Heading>,
    tokens: Query<(&Token, &Children)>,
    mut noses: Query<(&mut Transform, &mut Visibility), With<Nose>>,
) {
    let facing = active.is_some_and(|a| a.0.facing);
    for (token, children) in &tokens {
        let heading = roster
            .entity(token.0)
            .and_then(|e| headings.get(e).ok())
            .map(|h| h.0);
        let standing = shown
            .get(token.0)
            .is_some_and(|s| !s.conds.out_of_fight() && s.riding.is_none());
        for child in children.iter() {
            let Ok((mut t, mut vis)) = noses.get_mut(child) else {
                continue;
            };
            match heading.filter(|_| facing && standing) {
                Some(h) => {
                    let (dx, dy) = h.delta();
                    // Grid rows grow downwards, the screen's y upwards.
                    let dir = Vec2::new(dx as f32, -(dy as f32)).normalize_or_zero();
                    let at = dir * TILE * 0.43;
                    t.translation.x = at.x;
                    t.translation.y = at.y + 2.0;
                    *vis = Visibility::Inherited;
                }
                None => *vis = Visibility::Hidden,
            }
        }
    }
}

/// Whom the board draws an aim from. (For tests of the board.)
#[cfg(test)]
pub fn aims(world: &mut World) -> Vec<Cid> {
    let mut q = world.query::<&lines::Aim>();
    q.iter(world).map(|a| a.0).collect()
}

/// Is `e` a token's nose? (For tests of the board.)
#[cfg(test)]
pub fn is_nose(world: &World, e: Entity) -> bool {
    world.get::<Nose>(e).is_some()
}

/// Whose grabs the board draws a rope for. (For tests of the board.)
#[cfg(test)]
pub fn ropes(world: &mut World) -> Vec<Cid> {
    let mut q = world.query::<&lines::Rope>();
    q.iter(world).map(|r| r.0).collect()
}
