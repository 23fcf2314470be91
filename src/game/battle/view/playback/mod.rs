//! Plays the battle log on screen: every event the rules core emitted, in
//! order, as movement along paths, lunges, floating numbers and hit flashes,
//! at the speed the player sets. What the tokens show (place, health,
//! conditions) follows the playback, so the screen never runs ahead of what
//! the player has seen happen.

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use crate::game::AppSystems;
use crate::game::battle::logic::{Pacing, Playback};
use crate::game::session::{Screen, Speed};
use crate::rules::components::{Cid, Conditions, Health};
use crate::rules::log::BattleLog;
use crate::rules::map::Map;
use crate::rules::roster::Roster;

mod stage;

use super::cell_to_world;

/// What the screen shows of one combatant.
#[derive(Clone, Debug, Default)]
pub struct ShownCombatant {
    pub pos: Vec2,
    /// Offset of a lunge in progress.
    pub lunge: Vec2,
    pub hp: i32,
    pub hp_max: i32,
    pub ep: i32,
    pub ep_max: i32,
    pub conds: Conditions,
    /// Seconds of hit flash left.
    pub flash: f32,
    /// The mount it sits on, as far as the playback has shown.
    pub riding: Option<Cid>,
}

/// What the screen shows, by combatant id.
#[derive(Resource, Clone, Debug, Default)]
pub struct Shown(pub Vec<ShownCombatant>);

impl Shown {
    pub fn get(&self, c: Cid) -> Option<&ShownCombatant> {
        self.0.get(c.0 as usize)
    }
    fn get_mut(&mut self, c: Cid) -> Option<&mut ShownCombatant> {
        self.0.get_mut(c.0 as usize)
    }
    /// Put `c` at `pos`, and whoever rides it with it.
    fn place(&mut self, c: Cid, pos: Vec2) {
        for (i, s) in self.0.iter_mut().enumerate() {
            if i == c.0 as usize || s.riding == Some(c) {
                s.pos = pos;
            }
        }
    }
}

enum Anim {
    Move { cid: Cid, points: Vec<Vec2> },
    Lunge { cid: Cid, dir: Vec2 },
    Wait,
}

/// Where the playback is in the log.
#[derive(Resource, Default)]
pub struct Timeline {
    cursor: usize,
    current: Option<(Anim, f32, f32)>,
    /// The combatant whose turn it is (as far as the playback has shown).
    pub focus: Option<Cid>,
    /// A turn started since the camera last looked.
    pub focus_new: bool,
}

/// How long a floating text stays: fully opaque for the first 60 %, then
/// fading.
const FLOAT_SECONDS: f32 = 2.6;
const FLOAT_BACK: Color = Color::srgba(0.0, 0.0, 0.0, 0.6);
/// Where a floating text starts, above the centre of its token: clear of
/// the token (half a tile) and its badges.
const FLOAT_RISE: f32 = super::TILE * 0.5 + 12.0;
/// The height of a line of floating text, and how near two must be across
/// to share a column (one stacks above the other).
const FLOAT_LINE: f32 = 24.0;
const FLOAT_COLUMN: f32 = 90.0;
/// How many floating texts a column keeps at once (the newest).
const FLOAT_KEPT: usize = 3;

/// A floating text that rises and fades.
#[derive(Component)]
pub struct Float {
    t: f32,
    dur: f32,
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Shown>()
        .init_resource::<Timeline>()
        .add_systems(OnEnter(Screen::Battle), reset.in_set(AppSystems::Playback))
        .add_systems(
            Update,
            (play, floats)
                .chain()
                .in_set(AppSystems::Playback)
                .run_if(in_state(Screen::Battle)),
        );
}

/// Start showing the battle as it stands.
pub fn reset(world: &mut World) {
    let roster = world.resource::<Roster>().clone();
    let map = world.resource::<Map>().clone();
    let mut shown = Vec::new();
    for cid in roster.cids() {
        let e = roster.entity(cid);
        let get_h = e.and_then(|e| world.get::<Health>(e)).copied();
        let place = roster.place(cid).copied().unwrap_or_default();
        let pos = cell_to_world(&map, place.cell);
        let conds = place.conditions;
        let riding = place.riding;
        let h = get_h.unwrap_or(Health {
            hp: 1,
            hp_max: 1,
            ep: 0,
            ep_max: 0,
        });
        shown.push(ShownCombatant {
            pos,
            lunge: Vec2::ZERO,
            hp: h.hp,
            hp_max: h.hp_max,
            ep: h.ep,
            ep_max: h.ep_max,
            conds,
            flash: 0.0,
            riding,
        });
    }
    world.insert_resource(Shown(shown));
    world.insert_resource(Timeline::default());
}

const MOVE_PER_CELL: f32 = 0.14;

/// Play the log on by this frame's time: the animation in progress
/// carried further, then the next events in turn (all at once at Instant
/// speed); the playback is busy while any is left.
#[allow(clippy::too_many_arguments)]
pub fn play(
    mut commands: Commands,
    log: Res<BattleLog>,
    map: Res<Map>,
    pacing: Res<Pacing>,
    time: Res<Time>,
    mut shown: ResMut<Shown>,
    mut tl: ResMut<Timeline>,
    mut playback: ResMut<Playback>,
) {
    let speed = pacing.speed.factor();
    let instant = pacing.speed == Speed::Instant;
    let mut dt = time.delta_secs() * if instant { 1000.0 } else { speed };
    for s in shown.0.iter_mut() {
        s.flash = (s.flash - time.delta_secs()).max(0.0);
    }
    loop {
        if !advance(&mut tl, &mut shown, &mut dt) {
            break;
        }
        // Take the next event.
        let Some(event) = log.events.get(tl.cursor).cloned() else {
            break;
        };
        tl.cursor += 1;
        let anim = stage::apply(&event, &map, &mut shown, &mut tl, &mut commands, !instant);
        if let Some((a, dur)) = anim
            && !instant
        {
            tl.current = Some((a, 0.0, dur));
        }
        if instant {
            continue;
        }
        if dt <= 0.0 && tl.current.is_some() {
            break;
        }
    }
    playback.busy = if tl.current.is_some() || tl.cursor < log.events.len() {
        1.0
    } else {
        0.0
    };
}

/// Carry the animation in progress `dt` seconds further (what it uses is
/// taken off `dt`); true once none is left running.
fn advance(tl: &mut Timeline, shown: &mut Shown, dt: &mut f32) -> bool {
    let Some((anim, t, dur)) = tl.current.as_mut() else {
        return true;
    };
    let step = dt.min(*dur - *t);
    *t += step;
    *dt -= step;
    let k = if *dur > 0.0 {
        (*t / *dur).clamp(0.0, 1.0)
    } else {
        1.0
    };
    pose(anim, k, shown);
    if *t < *dur {
        return false;
    }
    if let Anim::Lunge { cid, .. } = anim
        && let Some(s) = shown.get_mut(*cid)
    {
        s.lunge = Vec2::ZERO;
    }
    tl.current = None;
    true
}

/// The tokens as `anim` has them at `k` (0 to 1) of its length: along the
/// path of a move, out and back in a lunge.
fn pose(anim: &Anim, k: f32, shown: &mut Shown) {
    match anim {
        Anim::Move { cid, points } => {
            let n = points.len().saturating_sub(1).max(1) as f32;
            let f = k * n;
            let i = (f.floor() as usize).min(points.len().saturating_sub(2));
            let a = points[i];
            let b = *points.get(i + 1).unwrap_or(&a);
            let pos = a.lerp(b, (f - i as f32).clamp(0.0, 1.0));
            shown.place(*cid, pos);
        }
        Anim::Lunge { cid, dir } => {
            let amount = (k * std::f32::consts::PI).sin() * 14.0;
            if let Some(s) = shown.get_mut(*cid) {
                s.lunge = *dir * amount;
            }
        }
        Anim::Wait => {}
    }
}

/// Lay floating texts out so none covers another: oldest first, each one
/// that would overlap an earlier one in its column (closer than
/// [`FLOAT_COLUMN`] across and [`FLOAT_LINE`] up or down) goes a line above
/// it; of a burst (a melee of several blows at once) only the newest
/// [`FLOAT_KEPT`] of a column stay, so the stack never climbs off the
/// board. `texts` are (age, entity, position); the new heights of those
/// moved, and those to drop.
fn unstack(
    texts: &mut [(f32, Entity, Vec2)],
) -> (std::collections::HashMap<Entity, f32>, Vec<Entity>) {
    texts.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut moved = std::collections::HashMap::new();
    let near = |a: Vec2, b: Vec2| (a.x - b.x).abs() < FLOAT_COLUMN;
    let dropped: Vec<usize> = (0..texts.len())
        .filter(|&i| {
            texts[i + 1..]
                .iter()
                .filter(|t| near(t.2, texts[i].2))
                .count()
                >= FLOAT_KEPT
        })
        .collect();
    for i in 0..texts.len() {
        if dropped.contains(&i) {
            continue;
        }
        let mut p = texts[i].2;
        // Up past every earlier one it meets, in order of height.
        let mut below: Vec<Vec2> = texts[..i]
            .iter()
            .enumerate()
            .filter(|(j, t)| !dropped.contains(j) && near(t.2, p))
            .map(|(_, t)| t.2)
            .collect();
        below.sort_by(|a, b| a.y.total_cmp(&b.y));
        for q in below {
            if (q.y - p.y).abs() < FLOAT_LINE {
                p.y = q.y + FLOAT_LINE;
            }
        }
        if p != texts[i].2 {
            texts[i].2 = p;
            moved.insert(texts[i].1, p.y);
        }
    }
    (moved, dropped.into_iter().map(|i| texts[i].1).collect())
}

fn floats(
    mut commands: Commands,
    time: Res<Time>,
    mut q: Query<(
        Entity,
        &mut Float,
        &mut Transform,
        &mut TextColor,
        &mut TextBackgroundColor,
        &mut Text2dShadow,
    )>,
) {
    // Texts over one token at once stack, the newer above, instead of
    // printing over each other: they rise alike, so once apart they stay.
    let mut column: Vec<(f32, Entity, Vec2)> = q
        .iter()
        .map(|(e, f, tr, ..)| (f.t, e, tr.translation.truncate()))
        .collect();
    let (placed, dropped) = unstack(&mut column);
    for e in dropped {
        commands.entity(e).despawn();
    }
    for (e, mut f, mut tr, mut colour, mut back, mut shadow) in &mut q {
        if let Some(y) = placed.get(&e) {
            tr.translation.y = *y;
        }
        f.t += time.delta_secs();
        tr.translation.y += 18.0 * time.delta_secs();
        let a: f32 = ((1.0 - f.t / f.dur) / 0.4).clamp(0.0, 1.0);
        colour.0.set_alpha(a);
        back.0.set_alpha(FLOAT_BACK.alpha() * a);
        shadow.color.set_alpha(a);
        if f.t >= f.dur {
            commands.entity(e).despawn();
        }
    }
}

#[cfg(test)]
mod tests;
