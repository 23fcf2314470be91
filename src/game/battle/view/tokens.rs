//! Combatant tokens: a disc in the faction's colour with an icon for the
//! combatant's kind, a health bar (and endurance bar where the ruleset has
//! EP), marks for conditions, a nose on the rim the way it faces (where the
//! ruleset reads facing), and a rope from whoever holds it in a grab.

use bevy::prelude::*;

use crate::game::AppSystems;
use crate::game::session::Screen;
use crate::rules::battle::Ground;
use crate::rules::components::{Archetype, Cid, Condition};
use crate::rules::map::Map;
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

/// The rope drawn from a grabber to the one it holds (the held one's id).
#[derive(Component)]
struct Rope(Cid);

/// The line drawn from a combatant to the enemy it has said it will attack
/// this round (a statement of intent; the aimer's id).
#[derive(Component)]
struct Aim(Cid);

/// Who aims at whom this round, as the ruleset says (`RulesetHooks::aims_at`):
/// (aimer, target, the aimer's colour).
#[derive(Resource, Default, PartialEq)]
struct Aims(Vec<(Cid, Cid, [u8; 3])>);

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
    app.init_resource::<MarkArt>().init_resource::<Aims>();
    app.add_systems(
        OnEnter(Screen::Battle),
        spawn_tokens.in_set(AppSystems::View),
    )
    .add_systems(
        Update,
        // The ground exists before any battle (the core inits it), but a
        // condition runs even where its set's `in_state` fails, so it must
        // never require a resource only a battle brings.
        (
            sync_tokens,
            sync_noses,
            sync_ropes,
            (collect_aims, sync_aims).chain(),
            sync_ground.run_if(resource_exists_and_changed::<Ground>),
        )
            .in_set(AppSystems::View)
            .run_if(in_state(Screen::Battle)),
    );
}

/// A weapon lying on the ground, drawn small in a corner of its cell.
#[derive(Component)]
struct GroundItem;

/// The icon of a weapon, by its id.
pub fn weapon_icon(id: &str) -> &'static str {
    match id {
        "dagger" => "dagger",
        "axe" | "battleaxe" => "axe",
        "spear" => "spear",
        "bow" => "bow",
        "crossbow" | "musket" => "crossbow",
        "mace" | "giant_club" | "improvised" | "improvised_great" => "club",
        "javelin" => "javelin",
        _ => "sword",
    }
}

/// Redraw what lies on the ground whenever it changes.
fn sync_ground(
    mut commands: Commands,
    ground: Res<Ground>,
    map: Res<Map>,
    assets: Res<AssetServer>,
    old: Query<Entity, With<GroundItem>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    for (i, (cell, w)) in ground.0.iter().enumerate() {
        // Several on one cell fan out a little.
        let p = super::cell_to_world(&map, *cell)
            + Vec2::new(-TILE * 0.4 + 6.0 * i as f32, -TILE * 0.4);
        commands.spawn((
            GroundItem,
            Sprite {
                image: assets.load("tokens/disc.png"),
                color: Color::srgb(0.93, 0.87, 0.7),
                custom_size: Some(Vec2::splat(TILE * 0.4)),
                ..default()
            },
            // Over the token of whoever stands on it, so it is seen.
            Transform::from_xyz(p.x, p.y, 11.0),
            DespawnOnExit(Screen::Battle),
        ));
        commands.spawn((
            GroundItem,
            Sprite {
                image: assets.load(format!("tokens/{}.png", weapon_icon(&w.id))),
                custom_size: Some(Vec2::splat(TILE * 0.32)),
                ..default()
            },
            Transform::from_xyz(p.x, p.y + 1.0, 11.1),
            DespawnOnExit(Screen::Battle),
        ));
    }
}

fn colour(rgb: [u8; 3]) -> Color {
    Color::srgb_u8(rgb[0], rgb[1], rgb[2])
}

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
        commands
            .spawn((
                Token(cid),
                Transform::from_xyz(pos.x, pos.y, 10.0),
                Visibility::default(),
                DespawnOnExit(Screen::Battle),
            ))
            .with_children(|p| {
                p.spawn((
                    Disc(col),
                    Sprite {
                        image: disc.clone(),
                        color: col,
                        custom_size: Some(Vec2::splat(TILE * 0.9 * scale)),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 2.0, 0.0),
                ));
                p.spawn((
                    Sprite {
                        image: assets.load(format!("tokens/{}.png", icon_for(arch))),
                        custom_size: Some(Vec2::splat(TILE * 0.62 * scale)),
                        ..default()
                    },
                    Transform::from_xyz(-1.0, 5.0, 0.1),
                ));
                // Health bar: dark back, coloured fill anchored at the left.
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
            });
    }
}

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
        // A rider sits smaller, up and to the right on its mount's cell.
        let seat = match s.riding {
            Some(m) => {
                let before = shown.0[..(token.0.0 as usize).min(shown.0.len())]
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
        for child in children.iter() {
            if let Ok((disc, mut sprite)) = discs.get_mut(child) {
                let a = if out { 0.45 } else { 1.0 };
                // A hit flashes the disc red-white, then back to the faction's colour.
                let flash = (s.flash / 0.35).clamp(0.0, 1.0);
                let base = disc.0.to_srgba();
                let hot = Color::srgb(1.0, 0.45, 0.4).to_srgba();
                sprite.color = Color::srgba(
                    base.red + (hot.red - base.red) * flash,
                    base.green + (hot.green - base.green) * flash,
                    base.blue + (hot.blue - base.blue) * flash,
                    a,
                );
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
                let mut shown_marks: Vec<Condition> =
                    MARKED.iter().copied().filter(|c| s.conds.has(*c)).collect();
                // The fallen keep only what took them out (dead,
                // unconscious, fled...): no crouching or grabbed beside it.
                if out {
                    shown_marks.truncate(1);
                }
                match shown_marks.get(mark.0).and_then(|c| mark_art.get(*c)) {
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

/// A rope from each grabber to the one it holds (both as the board shows
/// them): who holds whom is otherwise only a mark on the held.
fn sync_ropes(
    mut commands: Commands,
    roster: Res<Roster>,
    shown: Res<Shown>,
    mut ropes: Query<(Entity, &Rope, &mut Transform, &mut Sprite)>,
) {
    let mut held: Vec<(Cid, Vec2, Vec2)> = Vec::new();
    for (i, place) in roster.places().iter().enumerate() {
        let cid = Cid(i as u16);
        if let Some(g) = place.held_by
            && let (Some(a), Some(b)) = (shown.get(g), shown.get(cid))
            && !a.conds.out_of_fight()
        {
            held.push((cid, a.pos + a.lunge, b.pos + b.lunge));
        }
    }
    for (e, rope, mut t, mut sprite) in &mut ropes {
        match held.iter().position(|(c, _, _)| *c == rope.0) {
            Some(i) => {
                let (_, a, b) = held.swap_remove(i);
                lay_rope(&mut t, &mut sprite, a, b);
            }
            None => commands.entity(e).despawn(),
        }
    }
    for (cid, a, b) in held {
        let mut t = Transform::default();
        let mut sprite = Sprite {
            color: Color::srgba(0.93, 0.8, 0.45, 0.9),
            ..default()
        };
        lay_rope(&mut t, &mut sprite, a, b);
        commands.spawn((Rope(cid), sprite, t, DespawnOnExit(Screen::Battle)));
    }
}

/// Who aims at whom, from the ruleset (it reads the world, so it runs
/// alone); kept only when it changes.
fn collect_aims(world: &mut World) {
    let Some(hooks) = world
        .get_resource::<crate::rules::hooks::ActiveRuleset>()
        .map(|h| h.0)
    else {
        return;
    };
    let Some(roster) = world.get_resource::<Roster>() else {
        return;
    };
    let colours: Vec<[u8; 3]> = world
        .get_resource::<Factions>()
        .map(|f| f.0.iter().map(|f| f.colour).collect())
        .unwrap_or_default();
    let aims: Vec<(Cid, Cid, [u8; 3])> = roster
        .cids()
        .filter(|c| crate::rules::view::standing(world, *c))
        .filter_map(|c| {
            let target = (hooks.aims_at)(world, c)?;
            let f = crate::rules::view::faction(world, c).unwrap_or(0) as usize;
            Some((
                c,
                target,
                colours.get(f).copied().unwrap_or([255, 255, 255]),
            ))
        })
        .collect();
    if world.resource::<Aims>().0 != aims {
        world.resource_mut::<Aims>().0 = aims;
    }
}

/// A thin line in the aimer's colour from each combatant to the enemy it
/// has stated it will attack, until its turn to act has passed.
fn sync_aims(
    mut commands: Commands,
    aims: Res<Aims>,
    shown: Res<Shown>,
    mut lines: Query<(Entity, &Aim, &mut Transform, &mut Sprite)>,
) {
    let mut want: Vec<(Cid, Vec2, Vec2, Color)> = aims
        .0
        .iter()
        .filter_map(|(a, t, c)| {
            let (from, to) = (shown.get(*a)?, shown.get(*t)?);
            let colour = Color::srgba_u8(c[0], c[1], c[2], 170);
            Some((*a, from.pos + from.lunge, to.pos + to.lunge, colour))
        })
        .collect();
    for (e, aim, mut t, mut sprite) in &mut lines {
        match want.iter().position(|(c, ..)| *c == aim.0) {
            Some(i) => {
                let (_, a, b, colour) = want.swap_remove(i);
                lay_aim(&mut t, &mut sprite, a, b);
                sprite.color = colour;
            }
            None => commands.entity(e).despawn(),
        }
    }
    for (cid, a, b, colour) in want {
        let mut t = Transform::default();
        let mut sprite = Sprite {
            color: colour,
            ..default()
        };
        lay_aim(&mut t, &mut sprite, a, b);
        commands.spawn((Aim(cid), sprite, t, DespawnOnExit(Screen::Battle)));
    }
}

/// A line from the aimer's rim towards the target's, under the tokens.
fn lay_aim(t: &mut Transform, sprite: &mut Sprite, a: Vec2, b: Vec2) {
    let d = b - a;
    let len = d.length();
    let dir = d.normalize_or_zero();
    // From rim to rim, shifted a little sideways so that two who aim at
    // each other show two lines.
    let side = Vec2::new(-dir.y, dir.x) * 4.0;
    let (from, to) = (a + dir * TILE * 0.45 + side, b - dir * TILE * 0.45 + side);
    let mid = (from + to) / 2.0;
    t.translation = Vec3::new(mid.x, mid.y, 9.5);
    t.rotation = Quat::from_rotation_z(d.y.atan2(d.x));
    sprite.custom_size = Some(Vec2::new((len - TILE * 0.9).max(0.0), 3.0));
}

/// Whom the board draws an aim from. (For tests of the board.)
#[cfg(test)]
pub fn aims(world: &mut World) -> Vec<Cid> {
    let mut q = world.query::<&Aim>();
    q.iter(world).map(|a| a.0).collect()
}

/// Stretch a rope's sprite from `a` to `b`, over the discs (two tokens side
/// by side would hide it) and under the marks.
fn lay_rope(t: &mut Transform, sprite: &mut Sprite, a: Vec2, b: Vec2) {
    let d = b - a;
    let mid = (a + b) / 2.0;
    t.translation = Vec3::new(mid.x, mid.y + 2.0, 10.25);
    t.rotation = Quat::from_rotation_z(d.y.atan2(d.x));
    sprite.custom_size = Some(Vec2::new(d.length() * 0.6, 5.0));
}

/// Is `e` a token's nose? (For tests of the board.)
#[cfg(test)]
pub fn is_nose(world: &World, e: Entity) -> bool {
    world.get::<Nose>(e).is_some()
}

/// Whose grabs the board draws a rope for. (For tests of the board.)
#[cfg(test)]
pub fn ropes(world: &mut World) -> Vec<Cid> {
    let mut q = world.query::<&Rope>();
    q.iter(world).map(|r| r.0).collect()
}
