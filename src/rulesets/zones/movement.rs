//! Zone movement (§Taking a turn) and opportunity attacks (§Opportunity
//! attacks).
//!
//! "Characters can either move their full speed (typically 2 zones, or 4
//! zones if sprinting), or move half their speed (1 zone, or 2 zones if
//! sprinting) and perform a bonus action and a main action". Fray decides:
//! moving between cells of one zone is free; crossing into an adjacent zone
//! costs 1; cells outside every zone cannot be entered.

use bevy::prelude::*;

use crate::rules::components::{Cid, MoveMode};
use crate::rules::event::{BattleEvent, Fled, MoveInterrupted, Moved};
use crate::rules::map::{Cell, Map};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;

use super::query::stats;
use super::reach::{Chase, RULE_CHASE, RULE_MOVE, chase, crossings, mode_after, opportunists};
use super::round::end_turn;
use super::state::{MoveState, Pending, Waiting};
use super::waiting::{offer, resume};

/// Walk `path`. Leaving a zone where enemies may strike interrupts the
/// move: it stops at the border and each of them is asked in turn; the
/// rest of the path waits in [`Pending`]. `resumed`: the first step was
/// already offered.
pub fn execute_move(world: &mut Scene, who: Cid, path: &[Cell], resumed: bool) {
    let Some(start) = view::cell(world, who) else {
        return;
    };
    // The zone of each cell on the way, the start's first.
    let zones_along: Vec<Option<usize>> = {
        let map = view::resource::<Map>(world);
        std::iter::once(start)
            .chain(path.iter().copied())
            .map(|c| map.zone_of(c))
            .collect()
    };
    let mut prev = start;
    let mut segment: Vec<Cell> = Vec::new();
    let mut seg_start = start;
    for (i, &c) in path.iter().enumerate() {
        let (za, zb) = (zones_along[i], zones_along[i + 1]);
        if za != zb
            && !(resumed && i == 0)
            && let Some(za) = za
        {
            let foes = opportunists(world, who, za);
            if !foes.is_empty() {
                emit_segment(world, who, seg_start, &mut segment);
                let first = foes[0];
                let waits = Waiting::Move(MoveState {
                    who,
                    rest: path[i..].to_vec(),
                    candidates: foes,
                });
                offer(world, first, who, waits);
                return;
            }
        }
        if segment.is_empty() {
            seg_start = prev;
        }
        segment.push(c);
        prev = c;
    }
    emit_segment(world, who, seg_start, &mut segment);
}

fn emit_segment(world: &mut Scene, who: Cid, from: Cell, segment: &mut Vec<Cell>) {
    if segment.is_empty() {
        return;
    }
    let zones = crossings(view::resource::<Map>(world), from, segment);
    let mode = mode_after(world, who, zones);
    let path = std::mem::take(segment);
    emit(
        world,
        BattleEvent::Moved(Moved {
            who,
            from,
            path: path.clone(),
            cost_dm: 0,
            zones,
            mode,
            rule: RULE_MOVE,
        }),
    );
    super::nonlethal::drag(world, who, from, &path);
    // "moving without sneaking" reveals: Fray decides that moving beyond
    // half speed (running) is not sneaking.
    if mode == MoveMode::Full {
        super::blow::reveal(world, who);
    }
    super::blow::reveal_seen(world);
    super::mounts::after_mount_moved(world, who);
}

/// After the opportunity attacks at a border: the move resumes if the mover
/// is still standing; otherwise its turn is over.
pub fn resume_move(world: &mut Scene) {
    let Some(m) = view::resource::<Pending>(world).moving.clone() else {
        return;
    };
    resume(world, Some(m.who));
    if !view::standing(world, m.who) {
        if let Some(at) = view::cell(world, m.who) {
            emit(
                world,
                BattleEvent::MoveInterrupted(MoveInterrupted { who: m.who, at }),
            );
        }
        end_turn(world, m.who);
        return;
    }
    execute_move(world, m.who, &m.rest, true);
}

/// Leave the map: escape, or make the AGI save of the chase; a failed save
/// means the pursuers reach the fugitive, who stays on the field, turn spent.
pub fn flee(world: &mut Scene, who: Cid) {
    if chase(world, who) == Chase::Save {
        let agi = stats(world, who).map_or(0, |s| s.agi);
        if !super::save::save(world, who, "AGI", agi, "to outrun the pursuers", RULE_CHASE) {
            return;
        }
    }
    // A mount carries its riders away.
    let riders = super::turns::standing_riders(world, who);
    for c in std::iter::once(who).chain(riders) {
        emit(
            world,
            BattleEvent::Fled(Fled {
                who: c,
                rule: RULE_CHASE,
            }),
        );
    }
}
