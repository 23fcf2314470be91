//! How each event looks played back: the board's shown state changed
//! (a token moved, its health, its conditions), the floating text over a
//! token, and the animation it plays with its length.

use bevy::prelude::*;
use bevy::sprite::Text2dShadow;

use crate::game::session::Screen;
use crate::rules::components::{Cid, Condition};
use crate::rules::event::{
    BattleEnded, BattleEvent, ConditionAdded, ConditionRemoved, Cue, Drew, Fled, Grabbed, Released,
    RoundStarted, Tone, TurnStarted,
};
use crate::rules::map::{Cell, Map};

use super::super::cell_to_world;
use super::{Anim, FLOAT_BACK, FLOAT_RISE, FLOAT_SECONDS, Float, MOVE_PER_CELL, Shown, Timeline};

/// Show one event; the animation it plays, with its length in seconds at x1.
pub(super) fn apply(
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
        BattleEvent::TurnStarted(TurnStarted { who }) => {
            tl.focus = Some(*who);
            tl.focus_new = true;
            Some((Anim::Wait, 0.12))
        }
        BattleEvent::RoundStarted(RoundStarted { .. }) => Some((Anim::Wait, 0.3)),
        BattleEvent::Moved(e) => Some(stage.moved(e.who, e.from, &e.path)),
        // Pushed, dragged or swapped: moved by someone else.
        BattleEvent::Displaced(e) => Some(stage.displaced(e.who, e.from, e.to)),
        BattleEvent::TargetChanged(e) if e.swapped => Some(stage.swapped(e.from, e.to)),
        BattleEvent::Mounted(e) => Some(stage.mounted(e.who, e.mount)),
        BattleEvent::Dismounted(e) => Some(stage.dismounted(e.who, e.to, e.thrown)),
        // A ruleset's own event: what its cues say.
        BattleEvent::Ruleset(own) => own.cues().into_iter().map(|c| stage.cue(c)).last(),
        BattleEvent::Damaged(e) => {
            let (loss, after) = ((e.hp_loss, e.ep_loss), (e.hp_after, e.ep_after));
            Some(stage.damaged(e.target, loss, after))
        }
        BattleEvent::Healed(e) => Some(stage.healed(e.target, e.gained, e.hp_after)),
        BattleEvent::ConditionAdded(ConditionAdded { who, condition, .. }) => {
            stage.condition_added(*who, *condition)
        }
        BattleEvent::ConditionRemoved(ConditionRemoved { who, condition, .. }) => {
            if let Some(s) = stage.shown.get_mut(*who) {
                s.conds.remove(*condition);
            }
            None
        }
        // A grab marks the held (the core's apply sets the condition with
        // the grab itself, not by a condition event).
        BattleEvent::Grabbed(Grabbed { who, .. }) => {
            stage.condition_added(*who, Condition::Grabbed)
        }
        BattleEvent::Released(Released { who, .. }) => {
            if let Some(s) = stage.shown.get_mut(*who) {
                s.conds.remove(Condition::Grabbed);
            }
            None
        }
        BattleEvent::Fled(Fled { who, .. }) => Some(stage.fled(*who)),
        BattleEvent::Drew(Drew { who, weapon, .. }) => {
            stage.say(*who, format!("draws {weapon}"), Tone::Plain);
            Some((Anim::Wait, 0.25))
        }
        BattleEvent::BattleEnded(BattleEnded { .. }) => Some((Anim::Wait, 0.6)),
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
