//! The lines between tokens: a rope from whoever holds a combatant in a
//! grab, and a thin line from a combatant to the enemy it has stated it
//! will attack.

use bevy::prelude::*;

use crate::game::AppSystems;
use crate::game::battle::view::TILE;
use crate::game::battle::view::playback::Shown;
use crate::game::session::Screen;
use crate::rules::components::Cid;
use crate::rules::roster::{Factions, Roster};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Aims>().add_systems(
        Update,
        (sync_ropes, (collect_aims, sync_aims).chain())
            .in_set(AppSystems::View)
            .run_if(in_state(Screen::Battle)),
    );
}

/// The rope drawn from a grabber to the one it holds (the held one's id).
#[derive(Component)]
pub(super) struct Rope(pub(super) Cid);

/// The line drawn from a combatant to the enemy it has said it will attack
/// this round (a statement of intent; the aimer's id).
#[derive(Component)]
pub(super) struct Aim(pub(super) Cid);

/// Who aims at whom this round, as the ruleset says (`RulesetHooks::aims_at`):
/// (aimer, target, the aimer's colour).
#[derive(Resource, Default, PartialEq)]
struct Aims(Vec<(Cid, Cid, [u8; 3])>);

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

/// Stretch a rope's sprite from `a` to `b`, over the discs (two tokens side
/// by side would hide it) and under the marks.
fn lay_rope(t: &mut Transform, sprite: &mut Sprite, a: Vec2, b: Vec2) {
    let d = b - a;
    let mid = (a + b) / 2.0;
    t.translation = Vec3::new(mid.x, mid.y + 2.0, 10.25);
    t.rotation = Quat::from_rotation_z(d.y.atan2(d.x));
    sprite.custom_size = Some(Vec2::new(d.length() * 0.6, 5.0));
}
