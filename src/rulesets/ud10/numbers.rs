//! The numbers of an attack, all factors accounted for (§Attacking,
//! §Defense Rating Modifiers, §Attack Modifiers, §Ranged Attacks,
//! §Parrying and Dodging, §Taking Cover and the optional rules): one
//! struct the preview, the AI and the execution all read; a hit's damage
//! is `harm.rs`. Reads only; the attack waiting on a reaction lives here
//! too.

use bevy::prelude::*;

use crate::rules::battle::BattleRules;
use crate::rules::components::{
    Cid, Condition, Conditions, Heading, Loadout, MoveMode, Size, Weapon,
};
use crate::rules::event::{Modifier, total};
use crate::rules::level::Facing;
use crate::rules::map::{Cell, Map, Terrain};
use crate::rules::view;
use crate::rulesets::ud10::weapon::Ud10Gear;

use super::armor::{Shield, shield_bonus};
use super::cover::{RULE_COVER, cover, cover_near};
use super::data::Ud10Stats;
use super::state::Ud10Turn;

use super::settings::{FromBehind, Ud10Settings};

pub const RULE_ATTACK: &str = "ud10 §Attacking";
pub const RULE_DEFENSE: &str = "ud10 §Defense Rating Modifiers";
pub const RULE_ATTACK_MODS: &str = "ud10 §Attack Modifiers";
pub const RULE_RANGED: &str = "ud10 §Ranged Attacks";
pub const RULE_PARRY: &str = "ud10 §Parrying and Dodging";

/// An attack that hit and waits for the defender's reaction.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Pending {
    pub attacker: Cid,
    pub target: Cid,
    pub weapon: usize,
    pub mode: usize,
    /// The attack roll's result, which a parry must beat.
    pub total: i32,
    pub ranged: bool,
    pub dex_counts: bool,
}

#[derive(Resource, Clone, Debug, Default)]
pub struct PendingAttack(pub Option<Pending>);

/// Everything that goes into an attack roll and its target number.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AttackNumbers {
    /// Skill, weapon AM and situational modifiers, added to the d10.
    pub modifiers: Vec<Modifier>,
    /// Defense rating: 10, DEX where it counts, and its modifiers.
    pub defense_parts: Vec<Modifier>,
    pub defense: i32,
    pub dex_counts: bool,
    pub ranged: bool,
}

impl AttackNumbers {
    pub fn bonus(&self) -> i32 {
        total(&self.modifiers)
    }
    /// Chance that d10 + bonus reaches the defense.
    pub fn hit_chance(&self) -> f64 {
        self.hit_chance_with(0)
    }
    /// The same with one more modifier (the AI weighing a shot after a move).
    pub fn hit_chance_with(&self, extra: i32) -> f64 {
        let need = self.defense - self.bonus() - extra;
        (((11 - need).clamp(0, 10)) as f64) / 10.0
    }
}

/// Chance that a reaction check, d10 + `bonus`, is higher than the attack's
/// result `against` (§Parrying and Dodging).
pub fn reaction_chance(bonus: i32, against: i32) -> f64 {
    ((10 - (against - bonus)).clamp(0, 10)) as f64 / 10.0
}

/// Where Fray decides what immobilizes (the text's Defense table names the
/// condition, not its causes): a net's hit, until cut free.
pub const RULE_IMMOBILIZED: &str =
    "ud10 §Defense Rating Modifiers: immobilized (Fray decides: a net)";

/// Where Fray decides when an attack comes from behind.
pub const RULE_FROM_BEHIND: &str = "ud10 §Attacking: from behind (Fray decides)";

/// The Defense part that says an attack came from behind.
pub const DEX_BEHIND: &str = "DEX does not count: attacked from behind";

/// Is `from` in the rear arc of a combatant at `at` facing `facing`?
/// Fray decides (docs/rulesets/ud10.md): the rear arc is every direction
/// whose angle from the facing has a cosine below -3/4 (more than about
/// 138.6°) — of the eight neighbours, only the cell straight behind.
/// Worked out in whole numbers: the cosine is `dot / (|h| |v|)`, below
/// -3/4 exactly when `dot` is negative and `16 dot²` exceeds `9 |h|² |v|²`.
pub fn is_behind(at: Cell, facing: Facing, from: Cell) -> bool {
    let (hx, hy) = facing.delta();
    let (hx, hy) = (i64::from(hx), i64::from(hy));
    let (vx, vy) = (i64::from(from.x - at.x), i64::from(from.y - at.y));
    let dot = hx * vx + hy * vy;
    dot < 0 && 16 * dot * dot > 9 * (hx * hx + hy * hy) * (vx * vx + vy * vy)
}

/// The numbers of an attack by `attacker` standing at `from` on `target`
/// with weapon `weapon` in `mode`. `free`: a free attack on a fleeing
/// character, who has turned their back.
pub fn numbers(
    world: &World,
    attacker: Cid,
    from: Cell,
    target: Cid,
    weapon: &Weapon,
    mode: usize,
    free: bool,
) -> AttackNumbers {
    // Room for the modifiers an attack has: none grows as they are written.
    let mut out = AttackNumbers {
        modifiers: Vec::with_capacity(8),
        defense_parts: Vec::with_capacity(8),
        ..AttackNumbers::default()
    };
    numbers_into(&mut out, world, attacker, from, target, weapon, mode, free);
    out
}

/// [`numbers`] written into `out`, reusing its lists: the AI weighs one
/// attack per reachable cell and enemy, and need not allocate for each.
#[allow(clippy::too_many_arguments)]
pub fn numbers_into(
    out: &mut AttackNumbers,
    world: &World,
    attacker: Cid,
    from: Cell,
    target: Cid,
    weapon: &Weapon,
    mode: usize,
    free: bool,
) {
    let sides = Sides::of(world, attacker, target, free);
    numbers_from(out, &sides, from, weapon, mode);
}

/// Everything an attack's numbers read about who attacks whom, looked up
/// once: the AI weighs the same attacker and target from every cell it can
/// reach, and only the cell changes.
#[derive(Clone, Debug)]
pub struct Sides<'w> {
    target: Cid,
    /// Where the target stands.
    at: Cell,
    free: bool,
    map: &'w Map,
    settings: &'w Ud10Settings,
    bad_visibility: bool,
    attacker_stats: Option<&'w Ud10Stats>,
    attacker_turn: Option<&'w Ud10Turn>,
    target_conditions: Conditions,
    target_heading: Option<Facing>,
    target_stats: Option<&'w Ud10Stats>,
    /// The target's shield bonus, if its shield is usable.
    target_shield: Option<i32>,
    target_size: Size,
    /// Another enemy engages the target in melee: it cannot face the
    /// attacker as well ([`FromBehind::Busy`]). Found when first asked:
    /// only a blow from the target's rear asks, and the AI weighs many
    /// that are not.
    target_busy: std::cell::OnceCell<bool>,
    world: &'w World,
    attacker: Cid,
    /// Cover stands on or next to the target's cell: only then can a shot
    /// at it cross any ([`cover`] looks no further).
    cover_near: bool,
}

impl<'w> Sides<'w> {
    /// `free`: a free attack on a fleeing character, who has turned their
    /// back.
    pub fn of(world: &'w World, attacker: Cid, target: Cid, free: bool) -> Sides<'w> {
        // The attacker's side and the battle's, then the target's.
        Sides {
            target,
            at: Cell::default(),
            free,
            map: view::resource::<Map>(world),
            settings: view::resource::<Ud10Settings>(world),
            bad_visibility: view::get_resource::<BattleRules>(world)
                .is_some_and(|r| r.bad_visibility),
            attacker_stats: view::get::<Ud10Stats>(world, attacker),
            attacker_turn: view::get::<Ud10Turn>(world, attacker),
            target_conditions: Conditions::default(),
            target_heading: None,
            target_stats: None,
            target_shield: None,
            target_size: Size::default(),
            target_busy: std::cell::OnceCell::new(),
            world,
            attacker,
            cover_near: false,
        }
        .against(target)
    }

    /// [`Sides::of`] the same attacker (and `free`) against `target`: what
    /// it reads of the attacker and the battle taken from these sides, the
    /// target looked up (the AI's table of targets reads the attacker once).
    #[inline(always)]
    pub fn against(&self, target: Cid) -> Sides<'w> {
        let world = self.world;
        let place = view::place(world, target).copied().unwrap_or_default();
        Sides {
            target,
            at: place.cell,
            target_conditions: place.conditions,
            target_heading: view::get::<Heading>(world, target).map(|h| h.0),
            target_stats: view::get::<Ud10Stats>(world, target),
            target_shield: shield_bonus(
                view::get::<Shield>(world, target),
                view::get::<Loadout>(world, target),
            ),
            target_size: place.size,
            target_busy: std::cell::OnceCell::new(),
            cover_near: cover_near(self.map, place.cell),
            ..*self
        }
    }

    /// Is the target engaged in melee by an enemy other than the attacker
    /// ([`busy_elsewhere`])?
    fn target_busy(&self) -> bool {
        *self
            .target_busy
            .get_or_init(|| busy_elsewhere(self.world, self.target, self.attacker))
    }
}

/// Is `target` engaged in melee by an enemy other than `attacker`? Then it
/// cannot turn to face `attacker` (§Attacking: "attacked from behind";
/// Fray decides, docs/rulesets/ud10.md).
pub fn busy_elsewhere(world: &World, target: Cid, attacker: Cid) -> bool {
    let Some(at) = view::cell(world, target) else {
        return false;
    };
    let map = view::resource::<Map>(world);
    view::each_enemy(world, target)
        .any(|e| e != attacker && super::reach::threatens(world, map, e, at))
}

/// Does `target`, attacked in melee by `attacker`, turn to face it first?
/// Under [`FromBehind::Busy`] a combatant no other enemy engages faces the
/// one attacking it; the way it faces, if it must turn.
pub fn turns_to_face(world: &World, attacker: Cid, target: Cid) -> Option<Facing> {
    if view::resource::<Ud10Settings>(world).from_behind != FromBehind::Busy
        || busy_elsewhere(world, target, attacker)
    {
        return None;
    }
    let (from, at) = (view::cell(world, attacker)?, view::cell(world, target)?);
    let towards = Facing::from_delta(from.x - at.x, from.y - at.y)?;
    let now = view::get::<Heading>(world, target).map(|h| h.0);
    (now != Some(towards)).then_some(towards)
}

/// The numbers of the attack of `sides` from `from` with `weapon` in
/// `mode`, written into `out`.
pub fn numbers_from(
    out: &mut AttackNumbers,
    sides: &Sides,
    from: Cell,
    weapon: &Weapon,
    mode: usize,
) {
    let ranged = weapon.is_ranged();
    let swing = Swing { sides, from };
    out.modifiers.clear();
    skill_and_weapon(&swing, weapon, mode, &mut out.modifiers);
    if ranged {
        ranged_modifiers(&swing, weapon, &mut out.modifiers);
    } else {
        melee_modifiers(&swing, &mut out.modifiers);
    }
    out.defense_parts.clear();
    out.dex_counts = defense(&swing, ranged, &mut out.defense_parts);
    out.defense = total(&out.defense_parts);
    out.ranged = ranged;
}

/// The sums of an attack's numbers ([`AttackNumbers`] without the parts
/// that make them up): what the AI weighs for every cell and enemy.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct AttackTotals {
    pub bonus: i32,
    pub defense: i32,
    pub dex_counts: bool,
    pub ranged: bool,
}

impl AttackTotals {
    /// [`AttackNumbers::hit_chance_with`].
    pub fn hit_chance_with(&self, extra: i32) -> f64 {
        let need = self.defense - self.bonus - extra;
        (((11 - need).clamp(0, 10)) as f64) / 10.0
    }
}

/// All that [`totals_from`] reads of the cell an attack with a weapon that
/// is not ranged is struck from, as a number under [`MELEE_KEYS`]: whether
/// the target stands on higher ground than it (§Attack Modifiers), and
/// whether it lies in the target's rear arc (§Attacking: "attacked from
/// behind"). Two cells with the same
/// key give the same totals: the AI weighs the blows it could strike from
/// every cell it can reach, and works the totals out once per key.
pub fn melee_key(sides: &Sides, from: Cell) -> usize {
    usize::from(target_higher(sides, from)) | usize::from(from_rear(sides, from)) << 1
}

/// Does the target stand on higher ground than `from`?
fn target_higher(sides: &Sides, from: Cell) -> bool {
    sides.map.terrain(sides.at) == Terrain::HighGround
        && sides.map.terrain(from) != Terrain::HighGround
}

/// Is `from` behind the target, as it faces?
fn from_rear(sides: &Sides, from: Cell) -> bool {
    sides
        .target_heading
        .is_some_and(|h| is_behind(sides.at, h, from))
}

/// How many [`melee_key`]s there are.
pub const MELEE_KEYS: usize = 4;

/// The sums of [`numbers_from`]'s numbers, from the same rules, without
/// writing their parts down.
pub fn totals_from(sides: &Sides, from: Cell, weapon: &Weapon, mode: usize) -> AttackTotals {
    let ranged = weapon.is_ranged();
    let swing = Swing { sides, from };
    let mut bonus = Sum(0);
    skill_and_weapon(&swing, weapon, mode, &mut bonus);
    if ranged {
        ranged_modifiers(&swing, weapon, &mut bonus);
    } else {
        melee_modifiers(&swing, &mut bonus);
    }
    let mut defense_sum = Sum(0);
    let dex_counts = defense(&swing, ranged, &mut defense_sum);
    AttackTotals {
        bonus: bonus.0,
        defense: defense_sum.0,
        dex_counts,
        ranged,
    }
}

/// At most the chance a shot (an attack with a ranged weapon) on `sides`'
/// target hits from any cell, with `extra` added to the roll: the bonus of
/// a shot from the target's own cell (no range increment exceeded; every
/// other part of a shot's bonus is the same from every cell) against the
/// least Defense any cell gives (with or without DEX and shield, as the
/// cells in front of the target and behind it count them, and the least
/// cover the settings rate, where cover stands near): the rules of
/// §Attacking (DEX, "attacked from behind"), §Defense Rating Modifiers,
/// §Attack Modifiers, §Ranged Attacks (range increments) and §Taking
/// Cover, read through the same functions as [`totals_from`]. The AI
/// weighs it before a cell's own totals, which need the line of fire.
pub fn shot_chance_bound(sides: &Sides, weapon: &Weapon, mode: usize, extra: i32) -> f64 {
    debug_assert!(weapon.is_ranged());
    let from_target = Swing {
        sides,
        from: sides.at,
    };
    let mut bonus = Sum(0);
    skill_and_weapon(&from_target, weapon, mode, &mut bonus);
    ranged_modifiers(&from_target, weapon, &mut bonus);
    let uncovered = Sides {
        cover_near: false,
        ..sides.clone()
    };
    let defense_from = |from: Cell| {
        let mut sum = Sum(0);
        defense(
            &Swing {
                sides: &uncovered,
                from,
            },
            true,
            &mut sum,
        );
        sum.0
    };
    // The target's own cell is in front of it (no cell is behind itself).
    let mut least = defense_from(sides.at);
    if let Some(h) = sides.target_heading {
        let (dx, dy) = h.delta();
        least = least.min(defense_from(Cell::new(sides.at.x - dx, sides.at.y - dy)));
    }
    if sides.cover_near {
        least += 0
            .min(sides.settings.low_cover)
            .min(sides.settings.high_cover);
    }
    AttackTotals {
        bonus: bonus.0,
        defense: least,
        dex_counts: false,
        ranged: true,
    }
    .hit_chance_with(extra)
}

/// Where the parts of an attack's numbers go: the list the log and the
/// preview show, or only their sum.
trait Parts {
    fn add(&mut self, m: Modifier);
}

impl Parts for Vec<Modifier> {
    fn add(&mut self, m: Modifier) {
        self.push(m);
    }
}

/// The sum of the parts, nothing else kept.
struct Sum(i32);

impl Parts for Sum {
    fn add(&mut self, m: Modifier) {
        self.0 += m.value;
    }
}

/// Who attacks whom, and from where.
struct Swing<'s, 'w> {
    sides: &'s Sides<'w>,
    from: Cell,
}

/// §Attack: the attacker's skill, the weapon's AM and the firing mode.
fn skill_and_weapon(swing: &Swing, weapon: &Weapon, mode: usize, modifiers: &mut impl Parts) {
    let a = swing.sides.attacker_stats;
    let ranged = weapon.is_ranged();
    let skill = if ranged {
        a.map_or(0, |a| a.ranged)
    } else {
        a.map_or(0, |a| a.melee)
    };
    modifiers.add(Modifier::new(
        if ranged {
            "Ranged Combat skill"
        } else {
            "hand-to-hand skill"
        },
        skill,
        RULE_ATTACK,
    ));
    if weapon.ud10().attack_mod != 0 {
        modifiers.add(Modifier::new(
            "weapon attack modifier (AM)",
            weapon.ud10().attack_mod,
            RULE_ATTACK,
        ));
    }
    let mode_mod = weapon.mode_attack_mod(mode);
    if mode_mod != 0 {
        modifiers.add(Modifier::new("firing mode", mode_mod, RULE_RANGED));
    }
}

/// §Attack Modifiers in hand-to-hand: higher ground.
fn melee_modifiers(swing: &Swing, modifiers: &mut impl Parts) {
    if target_higher(swing.sides, swing.from) {
        modifiers.add(Modifier::new(
            "opponent on higher ground",
            -2,
            RULE_ATTACK_MODS,
        ));
    }
}

/// §Attack Modifiers and §Ranged Combat for a shot: aim, visibility, the
/// target crouching or moving, shooting while moving, range increments.
fn ranged_modifiers(swing: &Swing, weapon: &Weapon, modifiers: &mut impl Parts) {
    let sides = swing.sides;
    let tconds = sides.target_conditions;
    let t = sides.attacker_turn.cloned().unwrap_or_default();
    if let Some((aimed_at, rounds)) = t.aim
        && aimed_at == sides.target
        && !sides.free
    {
        match rounds {
            0 => {}
            1 => modifiers.add(Modifier::new("took aim for 1 round", 2, RULE_ATTACK_MODS)),
            _ => modifiers.add(Modifier::new("took aim for 2 rounds", 4, RULE_ATTACK_MODS)),
        }
    }
    if sides.bad_visibility {
        modifiers.add(Modifier::new("bad visibility", -2, RULE_ATTACK_MODS));
    }
    if tconds.has(Condition::Crouching) {
        modifiers.add(Modifier::new("opponent is crouching", -2, RULE_ATTACK_MODS));
    }
    if tconds.has(Condition::Moving) {
        modifiers.add(Modifier::new("opponent is moving", -2, RULE_ATTACK_MODS));
    }
    if matches!(t.movement, MoveMode::Standard | MoveMode::Full) {
        modifiers.add(Modifier::new("shooting while moving", -4, RULE_ATTACK_MODS));
    }
    if weapon.range_increment_m > 0.0 {
        let dist = Map::distance_m(swing.from, sides.at);
        let exceeded = ((dist - 1e-9) / weapon.range_increment_m).ceil() as i32 - 1;
        if exceeded > 0 {
            modifiers.add(Modifier::new(
                "range increment exceeded",
                -exceeded,
                RULE_RANGED,
            ));
        }
    }
}

/// §Attack and §Defense: the target's Defense, part by part, pushed onto
/// `defense_parts` (DEX unless attacked from behind, surprised or
/// immobilized; shield, stature, cover); whether DEX counted.
fn defense(swing: &Swing, ranged: bool, defense_parts: &mut impl Parts) -> bool {
    let sides = swing.sides;
    let tconds = sides.target_conditions;
    let rear = from_rear(sides, swing.from);
    let behind = sides.free
        || (rear && (sides.settings.from_behind == FromBehind::Facing || sides.target_busy()));
    let surprised = tconds.has(Condition::Surprised);
    let immobilized = tconds.has(Condition::Immobilized);
    let dex_counts = !(behind || surprised || immobilized);
    defense_parts.add(Modifier::new("base Defense", 10, RULE_ATTACK));
    let dex = sides.target_stats.map_or(0, |d| d.dex);
    if dex_counts {
        defense_parts.add(Modifier::new("DEX", dex, RULE_ATTACK));
    } else if dex != 0 {
        let why = if sides.free {
            "DEX does not count: fleeing, back turned"
        } else if surprised {
            "DEX does not count: surprised"
        } else if immobilized {
            "DEX does not count: immobilized"
        } else {
            DEX_BEHIND
        };
        defense_parts.add(Modifier::new(why, 0, RULE_ATTACK));
    }
    if !behind && let Some(bonus) = sides.target_shield {
        defense_parts.add(Modifier::new("has a shield", bonus, RULE_DEFENSE));
    }
    if immobilized {
        defense_parts.add(Modifier::new("immobilized", -2, RULE_DEFENSE));
    }
    match sides.target_size {
        Size::Large | Size::Massive => {
            defense_parts.add(Modifier::new("large in stature", -1, RULE_DEFENSE))
        }
        Size::Small | Size::Tiny => {
            defense_parts.add(Modifier::new("small in stature", 1, RULE_DEFENSE))
        }
        Size::Medium => {}
    }
    if ranged
        && sides.cover_near
        && let Some((name, value)) = cover(sides.map, sides.settings, swing.from, sides.at)
    {
        defense_parts.add(Modifier::new(name, value, RULE_COVER));
    }
    dex_counts
}
