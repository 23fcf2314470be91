//! The numbers of an action: an attack's (§5.5, §5.9), each defence's
//! against it (§5.5–5.7, §5.11) and a blow's through armour (§5.9, §5.10):
//! one numbers struct for the check, the preview, the AI and the
//! execution, so they never disagree. Read only; over `query.rs` and the
//! numbers a stat block derives (`derived.rs`).

use bevy::prelude::*;

use crate::rules::command::{Illegal, illegal};
use crate::rules::components::{Cid, Condition, Loadout};
use crate::rules::map::Cell;
use crate::rules::view;

use crate::rules::dice::{DbShare, DiceExpr};

use super::chance::Difficulty;
use super::data::{BrpData, ShieldClass, Velocity};
use super::derived::half_bonus;
use super::matrix::Defense;
use super::query::{RULE_DODGE, RULE_PARRY, RULE_SHIELDS, reach, round, settings};
use super::state::Pending;
use super::stats::{BrpShield, BrpStats, gear, stats};

/// An attack's numbers (§5.5, §5.9): the wielder's rating and what the
/// range does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackNumbers {
    pub rating: i32,
    pub difficulty: Difficulty,
    pub chance: i32,
}

/// The numbers of `attacker`'s attack on `target` with carried weapon
/// `index` from `from`.
pub fn attack_numbers(
    world: &World,
    attacker: Cid,
    from: Cell,
    target: Cid,
    index: usize,
) -> Result<AttackNumbers, Illegal> {
    let Some(w) = view::get::<Loadout>(world, attacker).and_then(|l| l.weapons.get(index)) else {
        return illegal("no such weapon");
    };
    let Some(g) = gear(w) else {
        return illegal("not a brp weapon");
    };
    let difficulty = reach(world, from, target, g)?;
    Ok(AttackNumbers {
        rating: g.chance,
        difficulty,
        chance: difficulty.of(g.chance),
    })
}

/// A way to meet an attack that succeeded (§5.6, §5.7, §5.11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefenseOption {
    pub kind: Defense,
    /// Parrying with the shield rather than the weapon in hand.
    pub shield: bool,
    pub rating: i32,
    pub difficulty: Difficulty,
    pub chance: i32,
    pub rule: &'static str,
}

impl DefenseOption {
    /// What `who` meets the attack with: the shield's or the weapon in
    /// hand's name, or "Dodge" (looked up when shown or logged: the check
    /// and the AI ask for the options many times a round and never read
    /// it).
    pub fn with(&self, world: &World, who: Cid) -> String {
        match (self.kind, self.shield) {
            (Defense::Dodge, _) => "Dodge".into(),
            (Defense::Parry, true) => view::get::<BrpShield>(world, who)
                .map(|sh| sh.name.clone())
                .unwrap_or_default(),
            (Defense::Parry, false) => view::get::<Loadout>(world, who)
                .and_then(|l| l.ready_weapon())
                .map_or(String::new(), |w| String::from(&*w.name)),
        }
    }

    /// The hit points left in what `who` parries with (§5.8: the matrix
    /// wears it down); none for a dodge, or a weapon with none ("n/a" in
    /// §5.9's tables), which takes no wear.
    pub fn item_hp(&self, world: &World, who: Cid) -> Option<i32> {
        match (self.kind, self.shield) {
            (Defense::Dodge, _) => None,
            (Defense::Parry, true) => view::get::<BrpShield>(world, who).map(|sh| sh.hp),
            (Defense::Parry, false) => view::get::<Loadout>(world, who)
                .and_then(|l| l.ready_weapon())
                .and_then(|w| super::stats::gear(w)?.hp),
        }
    }
}

/// The hit points left in weapon `index` of `who`, if it has any (§5.9).
pub fn weapon_hp(world: &World, who: Cid, index: usize) -> Option<i32> {
    view::get::<Loadout>(world, who)
        .and_then(|l| l.weapons.get(index))
        .and_then(|w| super::stats::gear(w)?.hp)
}

/// The ways to meet an attack: three at most (a parry with the weapon in
/// hand, one with the shield, a dodge).
pub type DefenseOptions = smallvec::SmallVec<[DefenseOption; 3]>;

/// Every defence `who` has against `p`, with its chance (only those with
/// one). "To parry, the character must be aware of and able to see the
/// attack coming": a conscious defender sees every attack (brp has no
/// facing; docs/rulesets/brp.md, "Aware of the attack").
pub fn defenses(world: &World, who: Cid, p: &Pending) -> DefenseOptions {
    // In a reading scope of its own when asked outside one (the attack's
    // execution asks): what it reads twice is found once.
    view::reading(world, |world| defenses_in(world, who, p))
}

fn defenses_in(world: &World, who: Cid, p: &Pending) -> DefenseOptions {
    let mut out = DefenseOptions::new();
    if !can_defend(world, who) {
        return out;
    }
    let Some(s) = stats(world, who) else {
        return out;
    };
    let ready = view::get::<Loadout>(world, who).and_then(|l| l.ready_weapon());
    let one_hand_free = ready.is_none_or(|w| w.hands < 2);
    let data = view::get_resource::<BrpData>(world);
    let dodge_missiles = settings(world).dodge_thrown_and_arrows;
    match p.velocity {
        // "It is impossible to parry firearms or high-velocity weapons";
        // "impossible to dodge firearms or highvelocity weapons".
        Some(Velocity::High) => {}
        Some(Velocity::Low) => {
            // "low-velocity missile weapons ... can also be parried with a
            // shield": the straight chance of its class.
            if one_hand_free
                && let Some(sh) = view::get::<BrpShield>(world, who)
                && let Some(d) = data
            {
                let kneeling = view::conditions(world, who).has(Condition::Crouching)
                    && sh.class == ShieldClass::Large;
                let chance = d.tables.shield_vs_missiles.of(sh.class, kneeling);
                out.push(DefenseOption {
                    kind: Defense::Parry,
                    shield: true,
                    rating: chance,
                    difficulty: Difficulty::Normal,
                    chance,
                    rule: RULE_SHIELDS,
                });
            }
            if dodge_missiles {
                out.push(dodge(s, Difficulty::Difficult));
            }
        }
        None => {
            if let Some(w) = ready
                && let Some(g) = gear(w)
                && g.parries()
            {
                out.push(DefenseOption {
                    kind: Defense::Parry,
                    shield: false,
                    rating: g.chance,
                    difficulty: Difficulty::Normal,
                    chance: g.chance,
                    rule: RULE_PARRY,
                });
            }
            if one_hand_free && let Some(sh) = view::get::<BrpShield>(world, who) {
                out.push(DefenseOption {
                    kind: Defense::Parry,
                    shield: true,
                    rating: sh.chance,
                    difficulty: Difficulty::Normal,
                    chance: sh.chance,
                    rule: RULE_SHIELDS,
                });
            }
            out.push(dodge(s, Difficulty::Normal));
        }
    }
    out.retain(|o| o.chance > 0);
    out
}

/// The best chance `who` has to meet a successful attack of this velocity
/// (melee: `None`), as [`defenses`] would list it, found without building
/// the list (the AI asks it for every blow it weighs).
pub fn best_defense(world: &World, who: Cid, velocity: Option<Velocity>) -> i32 {
    if !can_defend(world, who) {
        return 0;
    }
    let Some(s) = stats(world, who) else {
        return 0;
    };
    let ready = view::get::<Loadout>(world, who).and_then(|l| l.ready_weapon());
    let one_hand_free = ready.is_none_or(|w| w.hands < 2);
    let shield = view::get::<BrpShield>(world, who).filter(|_| one_hand_free);
    match velocity {
        Some(Velocity::High) => 0,
        Some(Velocity::Low) => {
            let sh = match (shield, view::get_resource::<BrpData>(world)) {
                (Some(sh), Some(d)) => {
                    let kneeling = view::conditions(world, who).has(Condition::Crouching)
                        && sh.class == ShieldClass::Large;
                    d.tables.shield_vs_missiles.of(sh.class, kneeling)
                }
                _ => 0,
            };
            let dodge = if settings(world).dodge_thrown_and_arrows {
                Difficulty::Difficult.of(s.dodge)
            } else {
                0
            };
            sh.max(dodge)
        }
        None => {
            let weapon = ready
                .and_then(gear)
                .filter(|g| g.parries())
                .map_or(0, |g| g.chance);
            weapon.max(shield.map_or(0, |sh| sh.chance)).max(s.dodge)
        }
    }
}

/// §5.6, §5.7: can `who` meet an attack at all ("aware of and able to
/// see the attack coming"): standing, not surprised (Fray decides:
/// docs/rulesets/brp.md, "Aware of the attack"), not a vehicle, and (with
/// the setting `defences_per_round`) not out of the round's defences?
fn can_defend(world: &World, who: Cid) -> bool {
    let limit = settings(world).defences_per_round;
    let spent = round(world).slot(who).map_or(0, |s| s.defences);
    view::standing(world, who)
        && !view::conditions(world, who).has(Condition::Surprised)
        && !view::steed(world, who).is_some_and(|s| s.vehicle)
        && (limit == 0 || spent < limit)
}

fn dodge(s: &BrpStats, difficulty: Difficulty) -> DefenseOption {
    DefenseOption {
        kind: Defense::Dodge,
        shield: false,
        rating: s.dodge,
        difficulty,
        chance: difficulty.of(s.dodge),
        rule: RULE_DODGE,
    }
}

/// A blow's damage numbers (§5.9, §5.10, §5.13), shared by the execution
/// (which rolls them), the preview (its ranges) and the AI (its means), so
/// that they never disagree: the weapon's own dice, the damage bonus it
/// adds (all or half), and the armor points that stop it.
#[derive(Clone, Debug, PartialEq)]
pub struct Blow {
    /// The weapon's dice, its `db` term left out.
    pub dice: DiceExpr,
    /// The attacker's damage bonus, if the weapon adds any of it.
    pub bonus: Option<DiceExpr>,
    /// `½db`: the bonus is rolled and halved, rounding up.
    pub half: bool,
    /// The target's armor against this blow.
    pub ap: i32,
}

impl Blow {
    /// Is there a bonus to roll (none for a damage bonus of 0)?
    pub fn rolls_bonus(&self) -> bool {
        self.bonus
            .as_ref()
            .is_some_and(|b| b.max(None) != 0 || b.min(None) != 0)
    }

    /// The bonus's lowest and highest addition.
    fn bonus_range(&self) -> (i32, i32) {
        match &self.bonus {
            None => (0, 0),
            Some(b) if self.half => (half_bonus(b.min(None)), half_bonus(b.max(None))),
            Some(b) => (b.min(None), b.max(None)),
        }
    }

    /// The hit points a blow can take through armor, lowest and highest; a
    /// special success adds the weapon's maximum (§5.13).
    pub fn range(&self, special: bool) -> (i32, i32) {
        let (blo, bhi) = self.bonus_range();
        let extra = if special { self.dice.max(None) } else { 0 };
        let through = |x: i32| (x - self.ap).max(0);
        (
            through(extra + self.dice.min(None) + blo),
            through(extra + self.dice.max(None) + bhi),
        )
    }

    /// The mean hit points a blow takes through armor (the bonus's half
    /// taken as half its mean and a quarter for the rounding up).
    pub fn mean(&self, special: bool) -> f64 {
        self.through(self.rolled(), special)
    }

    /// What [`Blow::mean`] starts from, the same whoever the blow lands
    /// on: the mean rolled (§5.9's "½ damage bonus ... rounding up" taken as
    /// half the bonus's mean and a quarter) and the dice's most (§5.13). The AI weighs one
    /// weapon's blow against every enemy.
    pub fn rolled(&self) -> (f64, f64) {
        rolled_with(
            (self.dice.mean(None, None), self.dice.max(None)),
            self.bonus.as_ref(),
            self.half,
        )
    }

    /// [`Blow::mean`] from what [`Blow::rolled`] found: through this
    /// blow's armor, a special success adding the dice's most (§5.13).
    pub fn through(&self, rolled: (f64, f64), special: bool) -> f64 {
        mean_through_armor(rolled, self.ap, special)
    }
}

/// [`Blow::rolled`] from the weapon's own dice's mean and most, and the
/// damage bonus it adds: all of it, or half (§5.9's "½ damage bonus ...
/// rounding up" taken as half its mean and a quarter).
fn rolled_with((mean, most): (f64, i32), bonus: Option<&DiceExpr>, half: bool) -> (f64, f64) {
    let bonus = match bonus {
        None => 0.0,
        Some(b) if half => b.mean(None, None) / 2.0 + 0.25,
        Some(b) => b.mean(None, None),
    };
    (mean + bonus, f64::from(most))
}

/// [`Blow::through`]: what of a blow's `rolled` mean (and, for a special
/// success, the dice's most, §5.13) gets through `ap` armor points.
pub fn mean_through_armor((mean, most): (f64, f64), ap: i32, special: bool) -> f64 {
    let extra = if special { most } else { 0.0 };
    (extra + mean - f64::from(ap)).max(0.0)
}

/// [`Blow::rolled`] of [`blow_by`]`(world, attacker, damage.without_db(),
/// db)`, without making the blow (nor copying its dice and the damage
/// bonus's): the AI weighs every weapon at every statement of intent.
pub fn rolled_by(
    world: &World,
    attacker: Cid,
    damage: &DiceExpr,
    db: Option<DbShare>,
) -> (f64, f64) {
    let bonus = db.and_then(|_| stats(world, attacker)).map(|s| &s.db);
    rolled_with(
        damage.without_db_mean_max(),
        bonus,
        db == Some(DbShare::Half),
    )
}

/// The numbers of a blow by `attacker` with weapon damage `dice` (its `db`
/// term left out), adding the share `db` of the damage bonus, of this
/// `velocity` (melee: `None`), on `target`.
pub fn blow(
    world: &World,
    attacker: Cid,
    dice: &DiceExpr,
    db: Option<DbShare>,
    velocity: Option<Velocity>,
    target: Cid,
) -> Blow {
    let mut b = blow_by(world, attacker, dice.clone(), db);
    b.ap = armor_against(world, target, velocity);
    b
}

/// What of [`blow`] comes of the attacker and its weapon, the target's
/// armor left at 0: the AI weighs one weapon against every enemy. `dice`
/// is taken, not copied: the AI's is made for it (the weapon's damage
/// without its `db` term).
pub fn blow_by(world: &World, attacker: Cid, dice: DiceExpr, db: Option<DbShare>) -> Blow {
    Blow {
        dice,
        bonus: db.and_then(|_| stats(world, attacker).map(|s| s.db.clone())),
        half: db == Some(DbShare::Half),
        ap: 0,
    }
}

/// §5.10: `target`'s armor against a blow of this `velocity` (melee:
/// `None`; riot gear stops 12, but 6 of a high-velocity weapon's).
pub fn armor_against(world: &World, target: Cid, velocity: Option<Velocity>) -> i32 {
    view::get::<super::stats::BrpArmor>(world, target).map_or(0, |a| a.against(velocity))
}
