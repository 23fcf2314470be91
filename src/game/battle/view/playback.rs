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
use crate::rules::components::{Cid, Condition, Conditions, Health};
use crate::rules::event::{BattleEvent, Cue, Tone};
use crate::rules::log::BattleLog;
use crate::rules::map::{Cell, Map};
use crate::rules::roster::Roster;

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
        // Advance the animation in progress.
        if let Some((anim, t, dur)) = tl.current.as_mut() {
            let step = dt.min(*dur - *t);
            *t += step;
            dt -= step;
            let k = if *dur > 0.0 {
                (*t / *dur).clamp(0.0, 1.0)
            } else {
                1.0
            };
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
            if *t >= *dur {
                if let (Anim::Lunge { cid, .. }, _, _) = tl
                    .current
                    .as_ref()
                    .map_or((&Anim::Wait, 0.0, 0.0), |(a, t, d)| (a, *t, *d))
                    && let Some(s) = shown.get_mut(*cid)
                {
                    s.lunge = Vec2::ZERO;
                }
                tl.current = None;
            } else {
                break;
            }
        }
        // Take the next event.
        let Some(event) = log.events.get(tl.cursor).cloned() else {
            break;
        };
        tl.cursor += 1;
        let anim = apply(&event, &map, &mut shown, &mut tl, &mut commands, !instant);
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

/// Show one event; the animation it plays, with its length in seconds at x1.
fn apply(
    e: &BattleEvent,
    map: &Map,
    shown: &mut Shown,
    tl: &mut Timeline,
    commands: &mut Commands,
    floats: bool,
) -> Option<(Anim, f32)> {
    let mut stage = Stage {
        map,
        shown,
        commands,
        floats,
    };
    match e {
        BattleEvent::TurnStarted { who } => {
            tl.focus = Some(*who);
            tl.focus_new = true;
            Some((Anim::Wait, 0.12))
        }
        BattleEvent::RoundStarted { .. } => Some((Anim::Wait, 0.3)),
        BattleEvent::Moved {
            who, from, path, ..
        } => Some(stage.moved(*who, *from, path)),
        // Pushed, dragged or swapped: moved by someone else.
        BattleEvent::Displaced { who, from, to, .. } => Some(stage.displaced(*who, *from, *to)),
        BattleEvent::TargetChanged {
            from,
            to,
            swapped: true,
            ..
        } => Some(stage.swapped(*from, *to)),
        BattleEvent::Mounted { who, mount, .. } => Some(stage.mounted(*who, *mount)),
        BattleEvent::Dismounted {
            who, to, thrown, ..
        } => Some(stage.dismounted(*who, *to, *thrown)),
        // A ruleset's own event: what its cues say.
        BattleEvent::Ruleset(own) => own.cues().into_iter().map(|c| stage.cue(c)).last(),
        BattleEvent::Damaged {
            target,
            hp_loss,
            ep_loss,
            hp_after,
            ep_after,
            ..
        } => Some(stage.damaged(*target, (*hp_loss, *ep_loss), (*hp_after, *ep_after))),
        BattleEvent::Healed {
            target,
            gained,
            hp_after,
            ..
        } => Some(stage.healed(*target, *gained, *hp_after)),
        BattleEvent::ConditionAdded { who, condition, .. } => {
            stage.condition_added(*who, *condition)
        }
        BattleEvent::ConditionRemoved { who, condition, .. } => {
            if let Some(s) = stage.shown.get_mut(*who) {
                s.conds.remove(*condition);
            }
            None
        }
        // A grab marks the held (the core's apply sets the condition with
        // the grab itself, not by a condition event).
        BattleEvent::Grabbed { who, .. } => stage.condition_added(*who, Condition::Grabbed),
        BattleEvent::Released { who, .. } => {
            if let Some(s) = stage.shown.get_mut(*who) {
                s.conds.remove(Condition::Grabbed);
            }
            None
        }
        BattleEvent::Fled { who, .. } => Some(stage.fled(*who)),
        BattleEvent::Drew { who, weapon, .. } => {
            stage.say(*who, format!("draws {weapon}"), Tone::Plain);
            Some((Anim::Wait, 0.25))
        }
        BattleEvent::BattleEnded { .. } => Some((Anim::Wait, 0.6)),
        _ => None,
    }
}

/// What playing an event back touches: the board's shown state and the
/// floating text it spawns.
struct Stage<'a, 'w, 's> {
    map: &'a Map,
    shown: &'a mut Shown,
    commands: &'a mut Commands<'w, 's>,
    /// Animate (floating text, movement) rather than jump to the end.
    floats: bool,
}

impl Stage<'_, '_, '_> {
    fn at(&self, c: Cid) -> Vec2 {
        self.shown.get(c).map_or(Vec2::ZERO, |s| s.pos)
    }

    fn float(&mut self, pos: Vec2, text: String, colour: Color, size: f32) {
        if self.floats {
            self.commands.spawn((
                Text2d::new(text),
                TextFont {
                    font_size: bevy::text::FontSize::Px(size),
                    ..default()
                },
                TextColor(colour),
                // Dark behind every colour, so that red reads on red tokens
                // and grey on grass.
                TextBackgroundColor(FLOAT_BACK),
                Text2dShadow {
                    offset: Vec2::new(1.5, -1.5),
                    color: Color::BLACK,
                },
                // Above the token and its badges (the cell's top edge is
                // half a tile up), over everything on the board.
                Transform::from_xyz(pos.x, pos.y + FLOAT_RISE, 50.0),
                Float {
                    t: 0.0,
                    dur: FLOAT_SECONDS,
                },
                DespawnOnExit(Screen::Battle),
            ));
        }
    }

    /// A line over `who`: white for something done, blue for a reaction.
    fn say(&mut self, who: Cid, text: String, tone: Tone) {
        match tone {
            Tone::Plain => self.float(self.at(who), text, Color::WHITE, 16.0),
            Tone::Reaction => self.float(
                self.at(who) + Vec2::new(0.0, 18.0),
                text,
                Color::srgb(0.6, 0.85, 1.0),
                18.0,
            ),
        }
    }

    fn moved(&mut self, who: Cid, from: Cell, path: &[Cell]) -> (Anim, f32) {
        let mut points = vec![cell_to_world(self.map, from)];
        points.extend(path.iter().map(|c| cell_to_world(self.map, *c)));
        let dur = MOVE_PER_CELL * path.len() as f32;
        if let Some(last) = points.last()
            && !self.floats
        {
            self.shown.place(who, *last);
        }
        (Anim::Move { cid: who, points }, dur)
    }

    fn displaced(&mut self, who: Cid, from: Cell, to: Cell) -> (Anim, f32) {
        let points = vec![cell_to_world(self.map, from), cell_to_world(self.map, to)];
        if !self.floats {
            self.shown.place(who, points[1]);
        }
        (Anim::Move { cid: who, points }, MOVE_PER_CELL * 2.0)
    }

    fn swapped(&mut self, from: Cid, to: Cid) -> (Anim, f32) {
        let (a, b) = (self.at(from), self.at(to));
        self.shown.place(from, b);
        self.shown.place(to, a);
        (Anim::Wait, 0.3)
    }

    fn mounted(&mut self, who: Cid, mount: Cid) -> (Anim, f32) {
        let p = self.at(mount);
        if let Some(s) = self.shown.get_mut(who) {
            s.riding = Some(mount);
            s.pos = p;
        }
        self.float(p, "mounts".into(), Color::WHITE, 16.0);
        (Anim::Wait, 0.3)
    }

    fn dismounted(&mut self, who: Cid, to: Cell, thrown: bool) -> (Anim, f32) {
        let p = cell_to_world(self.map, to);
        if let Some(s) = self.shown.get_mut(who) {
            s.riding = None;
            s.pos = p;
        }
        if thrown {
            self.float(p, "THROWN".into(), Color::srgb(1.0, 0.6, 0.4), 18.0);
        }
        (Anim::Wait, 0.3)
    }

    fn cue(&mut self, cue: Cue) -> (Anim, f32) {
        match cue {
            Cue::Strike {
                attacker,
                target,
                text,
                landed,
            } => {
                let (a, t) = (self.at(attacker), self.at(target));
                let col = if landed {
                    Color::srgb(1.0, 0.85, 0.3)
                } else {
                    Color::srgb(0.8, 0.8, 0.85)
                };
                self.float(t, text, col, 20.0);
                let dir = (t - a).normalize_or_zero();
                (Anim::Lunge { cid: attacker, dir }, 0.45)
            }
            Cue::Say { who, text, tone } => {
                self.say(who, text, tone);
                let wait = match tone {
                    Tone::Plain => 0.25,
                    Tone::Reaction => 0.4,
                };
                (Anim::Wait, wait)
            }
        }
    }

    /// `loss` and `after`: (HP, EP).
    fn damaged(&mut self, target: Cid, loss: (i32, i32), after: (i32, i32)) -> (Anim, f32) {
        let p = self.at(target);
        if let Some(s) = self.shown.get_mut(target) {
            (s.hp, s.ep) = after;
            s.flash = if loss.0 > 0 { 0.35 } else { 0.0 };
        }
        let text = match loss {
            (0, 0) => "no damage".to_string(),
            (h, 0) => format!("-{h} HP"),
            (0, e) => format!("-{e} EP"),
            (h, e) => format!("-{h} HP  -{e} EP"),
        };
        self.float(
            p + Vec2::new(0.0, -26.0),
            text,
            Color::srgb(1.0, 0.45, 0.4),
            24.0,
        );
        (Anim::Wait, 0.5)
    }

    fn healed(&mut self, target: Cid, gained: i32, hp_after: i32) -> (Anim, f32) {
        let p = self.at(target);
        if let Some(s) = self.shown.get_mut(target) {
            s.hp = hp_after;
        }
        self.float(
            p + Vec2::new(0.0, -26.0),
            format!("+{gained} HP"),
            Color::srgb(0.45, 1.0, 0.5),
            24.0,
        );
        (Anim::Wait, 0.5)
    }

    fn condition_added(&mut self, who: Cid, condition: Condition) -> Option<(Anim, f32)> {
        if let Some(s) = self.shown.get_mut(who) {
            s.conds.insert(condition);
        }
        if !matches!(
            condition,
            Condition::Dead | Condition::Unconscious | Condition::Surrendered
        ) {
            return None;
        }
        self.float(
            self.at(who) + Vec2::new(0.0, 8.0),
            condition.name().to_uppercase(),
            Color::srgb(1.0, 0.6, 0.55),
            22.0,
        );
        Some((Anim::Wait, 0.45))
    }

    fn fled(&mut self, who: Cid) -> (Anim, f32) {
        if let Some(s) = self.shown.get_mut(who) {
            s.conds.insert(Condition::Fled);
        }
        self.float(
            self.at(who),
            "FLED".into(),
            Color::srgb(0.6, 1.0, 0.6),
            22.0,
        );
        (Anim::Wait, 0.4)
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
mod tests {
    use super::*;

    /// Three texts spawned over one token at once (a hit, its damage, a
    /// fall) and one over a neighbour two tiles off: the three stack a line
    /// apart, oldest lowest; the neighbour's stays where it is.
    #[test]
    fn floating_texts_over_one_token_stack_instead_of_overlapping() {
        let e = |i: u32| Entity::from_raw_u32(i).unwrap();
        let at = Vec2::new(0.0, FLOAT_RISE);
        let mut texts = vec![
            (0.0, e(3), at),
            (0.2, e(2), at),
            (0.3, e(1), at),
            (0.0, e(4), at + Vec2::new(2.0 * super::super::TILE, 0.0)),
        ];
        let (moved, dropped) = unstack(&mut texts);
        assert!(dropped.is_empty());
        let y = |i| moved.get(&e(i)).copied().unwrap_or(at.y);
        assert_eq!(y(1), at.y);
        assert_eq!(y(2), at.y + FLOAT_LINE);
        assert_eq!(y(3), at.y + 2.0 * FLOAT_LINE);
        assert!(!moved.contains_key(&e(4)));
        // Laid out again a frame later, nothing moves.
        assert!(unstack(&mut texts).0.is_empty());
        // A fourth over the same token: the oldest goes, the rest stay.
        texts.push((0.0, e(5), at));
        let (_, dropped) = unstack(&mut texts);
        assert_eq!(dropped, vec![e(1)]);
    }
}
