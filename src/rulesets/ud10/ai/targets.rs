//! What the ud10 AI weighs an attack by: per enemy, what a hit with the
//! weapon in hand is worth and what does not change from cell to cell
//! (`Targets`), and the best attack from a cell.

use bevy::prelude::*;

use crate::rules::components::{Cid, Health, Loadout, Weapon, WeaponKind};
use crate::rules::kept::{self, Kept};
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::ud10::armor::Armor;
use crate::rulesets::ud10::check;
use crate::rulesets::ud10::harm::hp_loss;
use crate::rulesets::ud10::numbers::{
    MELEE_KEYS, Sides, melee_key, reaction_chance as p_beat, shot_chance_bound, totals_from,
};
use crate::rulesets::ud10::query::{reaction_used, stats};
use crate::rulesets::ud10::settings::Ud10Settings;
use crate::rulesets::ud10::weapon::Ud10Gear;

/// Expected HP loss and chance to put the target down, per hit.
#[derive(Clone, Copy, Debug)]
struct HitValue {
    hp_loss: f64,
    p_down: f64,
}

fn hit_value(world: &World, weapon: &Weapon, mode: usize, target: Cid) -> HitValue {
    let s = view::resource::<Ud10Settings>(world);
    let prot = view::get::<Armor>(world, target)
        .map(|a| a.averaged())
        .unwrap_or_default();
    let con = stats(world, target).map_or(0, |s| s.con);
    let hp = view::get::<Health>(world, target).map_or(1, |h| h.hp);
    let expr = weapon.mode_damage(mode);
    let (lo, hi) = (expr.min(None).max(0), expr.max(None).max(0));
    let n = (hi - lo + 1).max(1) as f64;
    let (loss, down) = sums(Rolls {
        lo,
        hi,
        prot,
        penetration: weapon.ud10().penetration,
        con,
        hp,
        settings: *s,
    });
    // Exploding tens add about a tenth of a die's worth on average.
    let bonus = (expr.mean(None, Some(10)) - expr.mean(None, None)).max(0.0);
    HitValue {
        hp_loss: loss / n + bonus,
        p_down: down / n,
    }
}

/// What [`hit_value`] sums over a hit's damage rolls: the rolls from `lo`
/// to `hi`, the target's averaged protection, the weapon's penetration,
/// the target's CON and HP, and the battle's settings (the damage pipeline
/// reads them).
#[derive(Clone, Copy, PartialEq)]
struct Rolls {
    lo: i32,
    hi: i32,
    prot: crate::rulesets::ud10::armor::Protection,
    penetration: i32,
    con: i32,
    hp: i32,
    settings: Ud10Settings,
}

thread_local! {
    /// The sums [`sums`] worked out: the AI weighs the same few weapons
    /// against the same few enemies at every decision of a battle.
    static SUMS: Kept<Rolls, (f64, f64), 64> = const { Kept::new() };
}

/// The HP every roll takes, summed, and how many rolls put the target
/// down: remembered, a function of `r` alone.
fn sums(r: Rolls) -> (f64, f64) {
    let bits = kept::mix([
        r.lo,
        r.hi,
        r.prot.rating,
        r.prot.buffer,
        r.penetration,
        r.con,
        r.hp,
    ]);
    SUMS.with(|k| k.get_or(r, bits, sum_rolls))
}

/// [`sums`], worked out.
fn sum_rolls(r: &Rolls) -> (f64, f64) {
    let s = &r.settings;
    let (mut loss, mut down) = (0.0, 0.0);
    for x in r.lo..=r.hi {
        let hp_loss = hp_loss(x, r.prot, r.penetration, r.con, s);
        loss += hp_loss as f64;
        if r.hp - hp_loss <= s.unconscious_at_hp {
            down += 1.0;
        }
    }
    (loss, down)
}

/// How dangerous an enemy is: its best weapon's mean damage.
fn threat(world: &World, who: Cid) -> f64 {
    view::get::<Loadout>(world, who)
        .map(|l| {
            l.weapons
                .iter()
                .map(|w| w.damage.mean(None, Some(10)))
                .fold(0.0, f64::max)
        })
        .unwrap_or(1.0)
}

/// What does not change from cell to cell when the AI weighs attacks with
/// the weapon in hand: per enemy and firing mode, the expected effect of a
/// hit and how much the enemy matters.
pub(super) struct Targets<'w> {
    pub(super) weapon: usize,
    pub(super) rows: Vec<TargetRow<'w>>,
}

pub(super) struct TargetRow<'w> {
    pub(super) target: Cid,
    pub(super) cell: Cell,
    pub(super) mode: usize,
    /// What the attack's numbers read about the attacker and this target.
    pub(super) sides: Sides<'w>,
    /// Expected share of the target's HP a hit takes, plus the chance to drop it.
    pub(super) per_hit: f64,
    /// The bonus a foreseen melee hit must beat to be parried or dodged, if any.
    reaction: Option<i32>,
    /// The chance a blow with a weapon that is not ranged lands, per
    /// [`melee_key`] of the cell it is struck from (NaN: not worked out
    /// yet): the same from every cell with that key.
    melee_p: [std::cell::Cell<f64>; MELEE_KEYS],
    /// With a ranged weapon, the most a shot can hit from any cell
    /// ([`shot_chance_bound`]), from where the shooter stands and after a
    /// standard movement (-4) (NaN: not worked out yet).
    shot_p: [std::cell::Cell<f64>; 2],
    /// With a weapon that is not ranged, the most a blow can land from any
    /// cell within its reach of the target (NaN: not worked out yet).
    blow_p: std::cell::Cell<f64>,
}

/// The table for the weapon in hand. A melee weapon's table leaves out the
/// enemies farther than `steps` cells and its reach from the actor: no cell
/// it can strike from this turn (where it stands, or after a move that keeps
/// the action) reaches them, and every attack the AI weighs is from one.
pub(super) fn targets(world: &World, actor: Cid, steps: i32) -> Option<Targets<'_>> {
    let l = view::get::<Loadout>(world, actor)?;
    let wi = l.ready?;
    let w = l.weapons.get(wi)?;
    // The AI does not throw nets: it has no measure yet of what holding an
    // enemy is worth.
    if w.ud10().entangles {
        return None;
    }
    let here = view::cell(world, actor);
    let melee = w.kind == WeaponKind::Melee;
    let enemies = view::enemies(world, actor);
    // (A row is large: grown one by one, the list is copied each time.)
    let mut rows = Vec::with_capacity(enemies.len() * w.mode_count());
    // What the numbers read of the actor, read once (the first enemy's
    // sides, the others' made from them).
    let mut first: Option<Sides> = None;
    for e in enemies {
        let Some(cell) = view::cell(world, e) else {
            continue;
        };
        if melee && here.is_some_and(|h| Map::chebyshev(h, cell) > steps + w.reach) {
            continue;
        }
        let hp_max = view::get::<Health>(world, e).map_or(1, |h| h.hp_max.max(1)) as f64;
        let weight = 0.5 + threat(world, e) / 10.0;
        let reaction = if w.kind == WeaponKind::Melee && !reaction_used(world, e) {
            let def = stats(world, e);
            let can_parry = view::get::<Loadout>(world, e)
                .and_then(|l| l.ready_weapon())
                .is_some_and(|w| w.ud10().parry && w.kind == WeaponKind::Melee);
            def.map(|d| {
                if can_parry {
                    d.parry.unwrap_or(d.dex)
                } else {
                    d.dodge.unwrap_or(d.dex)
                }
            })
        } else {
            None
        };
        let sides = match &first {
            Some(f) => f.against(e),
            None => first.insert(Sides::of(world, actor, e, false)).clone(),
        };
        for mode in 0..w.mode_count() {
            if check::has_ammo(w, mode).is_err() {
                continue;
            }
            let hv = hit_value(world, w, mode, e);
            rows.push(TargetRow {
                target: e,
                cell,
                mode,
                sides: sides.clone(),
                per_hit: (hv.hp_loss / hp_max + 1.5 * hv.p_down) * weight,
                reaction,
                melee_p: std::array::from_fn(|_| std::cell::Cell::new(f64::NAN)),
                shot_p: std::array::from_fn(|_| std::cell::Cell::new(f64::NAN)),
                blow_p: std::cell::Cell::new(f64::NAN),
            });
        }
    }
    Some(Targets { weapon: wi, rows })
}

/// Best attack from `from` with the ready weapon: (value, target, mode).
/// `shift` is a modifier the numbers cannot know yet: −4 for shooting after
/// the standard movement that would take the shooter to `from`.
pub(super) fn best_attack_from(
    world: &World,
    actor: Cid,
    from: Cell,
    t: &Targets,
    shift: i32,
) -> Option<(f64, Cid, usize)> {
    let w = view::get::<Loadout>(world, actor)?.weapons.get(t.weapon)?;
    best_attack_with(view::resource::<Map>(world), w, from, t, shift, None)
}

/// [`best_attack_from`] with the weapon and the map already found (the AI
/// asks it for every reachable cell).
/// `beat`: only attacks worth more than this matter (the best found from
/// another cell): a target whose hit, landed for sure, is worth no more is
/// not weighed. Exact, as an attack is worth at most its `per_hit`.
pub(super) fn best_attack_with(
    map: &Map,
    w: &Weapon,
    from: Cell,
    t: &Targets,
    shift: i32,
    beat: Option<f64>,
) -> Option<(f64, Cid, usize)> {
    let mut best: Option<(f64, Cid, usize)> = None;
    for row in &t.rows {
        if let Some(b) = beat
            && (row.per_hit <= b || row.best_from_anywhere(map, w, shift) <= b)
        {
            continue;
        }
        if !check::reaches(map, from, row.cell, w) {
            continue;
        }
        let p = if !w.is_ranged() && shift == 0 {
            row.blow_chance(from, w)
        } else {
            landing_chance(row, from, w, shift)
        };
        let v = p * row.per_hit;
        debug_assert!(
            v <= row.best_from_anywhere(map, w, shift) + 1e-12,
            "an attack beat its bound"
        );
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, row.target, row.mode));
        }
    }
    best
}

impl TargetRow<'_> {
    /// At most what an attack with `w`, `shift` added, is worth from any
    /// cell: a shot's [`TargetRow::best_shot`]; a blow's
    /// [`TargetRow::best_blow`] (with no shift: the AI shifts only shots);
    /// else a hit landed for sure.
    pub(super) fn best_from_anywhere(&self, map: &Map, w: &Weapon, shift: i32) -> f64 {
        if w.is_ranged() {
            self.best_shot(w, shift)
        } else if shift == 0 {
            self.best_blow(map, w)
        } else {
            self.per_hit
        }
    }

    /// The chance a blow with `w` (not ranged) struck from `from` lands:
    /// the same from every cell of a [`melee_key`], worked out once per key.
    fn blow_chance(&self, from: Cell, w: &Weapon) -> f64 {
        let known = &self.melee_p[melee_key(&self.sides, from)];
        if known.get().is_nan() {
            known.set(landing_chance(self, from, w, 0));
        }
        known.get()
    }

    /// The most a blow with `w` (not ranged) can be worth from any cell:
    /// every cell it strikes the target from lies within its reach of it,
    /// and every cell with the same [`melee_key`] gives the same chance, so
    /// the best chance of the keys of those cells (on the map), times a
    /// hit's worth. Worked out once; the chances found serve the cells
    /// weighed later.
    fn best_blow(&self, map: &Map, w: &Weapon) -> f64 {
        if self.blow_p.get().is_nan() {
            let mut p: f64 = 0.0;
            for dy in -w.reach..=w.reach {
                for dx in -w.reach..=w.reach {
                    let from = Cell::new(self.cell.x + dx, self.cell.y + dy);
                    if (dx, dy) != (0, 0) && map.in_bounds(from) {
                        p = p.max(self.blow_chance(from, w));
                    }
                }
            }
            self.blow_p.set(p);
        }
        self.blow_p.get() * self.per_hit
    }

    /// The most a shot with `w` (ranged), `shift` added, can be worth from
    /// any cell: [`shot_chance_bound`] times a hit's worth, worked out once
    /// for a shot from where the shooter stands (0) and once after a
    /// standard movement (-4).
    fn best_shot(&self, w: &Weapon, shift: i32) -> f64 {
        let p = match shift {
            0 | -4 => {
                let known = &self.shot_p[usize::from(shift != 0)];
                if known.get().is_nan() {
                    known.set(shot_chance_bound(&self.sides, w, self.mode, shift));
                }
                known.get()
            }
            _ => shot_chance_bound(&self.sides, w, self.mode, shift),
        };
        p * self.per_hit
    }
}

/// The chance a blow on `row`'s target from `from` lands: it hits, and is
/// not parried or dodged.
fn landing_chance(row: &TargetRow, from: Cell, w: &Weapon, shift: i32) -> f64 {
    let n = totals_from(&row.sides, from, w, row.mode);
    let mut p = n.hit_chance_with(shift);
    // A melee hit the target can foresee may be parried or dodged.
    if let Some(bonus) = row.reaction
        && !n.ranged
        && n.dex_counts
    {
        let mut acc = 0.0;
        let mut hits = 0.0;
        for d in 1..=10 {
            let total = d + n.bonus + shift;
            if total >= n.defense {
                acc += 1.0 - p_beat(bonus, total);
                hits += 1.0;
            }
        }
        if hits > 0.0 {
            p *= acc / hits;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::ud10::tests::begun_with;
    use crate::testkit::level;

    /// A blow's bound ([`TargetRow::best_from_anywhere`]) is what the best
    /// cell within the weapon's reach of the target gives, and no cell
    /// gives more: a swordsman (Longsword, reach 1) weighing an archer who
    /// faces east, under `from_behind: facing` (§Attacking: from its rear
    /// arc, DEX does not count), strikes best from the west; the bound is
    /// that cell's, below a hit landed for sure.
    #[test]
    fn a_blows_bound_is_the_best_any_cell_within_reach_gives() {
        let l = level(
            &["......", "......", "......", "......", "......"],
            &[
                r#"(archetype: "swordsman", faction: "red", at: (0, 2), name: "A", facing: E)"#,
                r#"(archetype: "archer", faction: "blue", at: (3, 2), name: "B", facing: E)"#,
            ],
        );
        let (e, a, b) = begun_with(&l, "facing");
        view::reading(e.world(), |w| {
            let map = view::resource::<Map>(w);
            let table = targets(w, a, 4).expect("a sword in hand");
            let sword = &view::get::<Loadout>(w, a).unwrap().weapons[table.weapon];
            assert!(!sword.is_ranged() && sword.reach == 1);
            let row = &table.rows[0];
            assert_eq!(row.target, b);
            let bound = row.best_from_anywhere(map, sword, 0);
            let value = |from: Cell| {
                best_attack_with(map, sword, from, &table, 0, None).map_or(0.0, |(v, _, _)| v)
            };
            let mut best: f64 = 0.0;
            for from in map.cells().filter(|c| *c != row.cell) {
                let v = value(from);
                assert!(v <= bound, "{from} gives {v} over {bound}");
                best = best.max(v);
            }
            assert_eq!(best, bound);
            assert_eq!(value(Cell::new(2, 2)), bound, "from behind");
            assert!(value(Cell::new(4, 2)) < bound, "from the front");
            assert!(bound < row.per_hit);
        });
    }
}
