//! Attacks (§5.5, §5.9), the parry or dodge that meets one that succeeds
//! (§5.6, §5.7, §5.11), the matrix (§5.8), damage with the damage bonus
//! (§5.9), special successes (§5.13), armor (§5.10), hit points and
//! unconsciousness (§5.12), and weapons damaged by parries.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Health, Loadout};
use crate::rules::dice::{DbShare, DiceExpr, DiceRoll, Die, RollOptions, Rolled};
use crate::rules::event::{
    BattleEvent, ConditionAdded, Damaged, Drew, FallDeferred, GearBroken, Modifier,
    ReactionDeclined,
};
use crate::rules::scene::Scene;
use crate::rules::scene::emit;
use crate::rules::view;

use super::chance::{Level, RULE_ATTACK, level};
use super::command::BrpCommand;
use super::data::Velocity;
use super::derived::{
    RULE_ARMOR, RULE_HIT_POINTS, RULE_SPECIAL, half_bonus, special_damage, through_armor,
};
use super::event::{
    AttackRolled, BrpEvent, DamageRolled, DefenseOffered, DefenseRolled, GearDamaged, Matrix,
    Thrown,
};
use super::matrix::{Defense, Harm, RULE_MATRIX, outcome};
use super::numbers::{AttackNumbers, attack_numbers, blow, defenses};
use super::query::settings;
use super::state::{Pending, PendingAttack};
use super::stats::{BrpShield, gear};

pub const RULE_DAMAGE: &str = "brp §5.9 Weapons and Damage";
pub const RULE_DEFENSE: &str = "brp §5.6 Parrying, §5.7 Dodging";

/// §5.5: roll D100 (1–100).
pub fn d100(world: &mut Scene) -> DiceRoll {
    let r = world.dice().roll_die(100);
    DiceRoll {
        expr: Rolled::dice(1, 100),
        dice: smallvec::smallvec![Die {
            sides: 100,
            result: r,
            exploded: false,
            negative: false,
        }],
        flat: 0,
        total: r as i32,
    }
}

/// The attacking weapon's name, magazine and own dice, and its gear's
/// damage bonus share, velocity and throw, as the attack reads them: taken
/// out before the world is written (not the whole weapon and its gear,
/// copied).
struct Held {
    name: String,
    magazine: u32,
    damage: DiceExpr,
    db: Option<DbShare>,
    velocity: Option<Velocity>,
    thrown: bool,
}

impl Held {
    /// What the attack reads of `who`'s carried weapon `index`.
    fn of(world: &World, who: Cid, index: usize) -> Option<Held> {
        let w = view::get::<Loadout>(world, who)?.weapons.get(index)?;
        let g = gear(w)?;
        Some(Held {
            name: String::from(&*w.name),
            magazine: w.magazine,
            damage: w.damage.without_db(),
            db: g.db,
            velocity: g.velocity,
            thrown: g.thrown,
        })
    }
}

/// §5.5: execute a legal attack: the weapon readied, the roll; a success is
/// met by the defender's parry or dodge (§5.6, §5.7) if it has one, else
/// goes through the matrix (§5.8) at once.
pub fn execute_attack(world: &mut Scene, attacker: Cid, target: Cid, index: usize) {
    let Some(from) = view::cell(world, attacker) else {
        return;
    };
    let Ok(n) = attack_numbers(world, attacker, from, target, index) else {
        return;
    };
    let Some(w) = Held::of(world, attacker, index) else {
        return;
    };
    ready(world, attacker, index, &w.name);
    let level = roll_attack(world, attacker, target, index, &n, &w);
    let pending = Pending {
        attacker,
        target,
        weapon_index: index,
        weapon: w.name,
        level,
        damage: w.damage,
        db: w.db,
        velocity: w.velocity,
        thrown: w.thrown,
    };
    offer_defense(world, pending);
}

/// Fray decides: readying a carried weapon is part of attacking with it
/// (the text has no rule for it): `who` draws weapon `index` unless it is
/// the one in hand.
fn ready(world: &mut Scene, who: Cid, index: usize, name: &str) {
    if view::get::<Loadout>(world, who).and_then(|l| l.ready) == Some(index) {
        return;
    }
    emit(
        world,
        BattleEvent::Drew(Drew {
            who,
            weapon: name.to_string(),
            index,
            // brp has no turn budget for the core to mark: the draw is
            // part of the attack, which spends the round's action.
            as_movement: false,
            cost: "part of the attack",
            rule: RULE_ATTACK,
        }),
    );
}

/// §5.5: the attack's percentile roll against its chance, and its level
/// of success.
fn roll_attack(
    world: &mut Scene,
    attacker: Cid,
    target: Cid,
    index: usize,
    n: &AttackNumbers,
    w: &Held,
) -> Level {
    let roll = d100(world);
    let lv = level(roll.total as u32, n.chance, settings(world).special);
    emit(
        world,
        BrpEvent::AttackRolled(AttackRolled {
            attacker,
            target,
            weapon: w.name.clone(),
            weapon_index: index,
            rating: n.rating,
            difficulty: n.difficulty,
            chance: n.chance,
            roll,
            level: lv,
            thrown: w.thrown,
            shot: w.magazine > 0,
            rule: RULE_ATTACK,
        }),
    );
    lv
}

/// §5.6, §5.7: an attack that succeeded waits on its target's parry or
/// dodge if it has one; else (or if it failed) it goes through the matrix
/// (§5.8) at once.
fn offer_defense(world: &mut Scene, pending: Pending) {
    // "If an attack fails, it does not need to be parried."
    let ways = if pending.level == Level::Failure {
        Vec::new()
    } else {
        ways_open(world, pending.target, &pending)
    };
    if ways.is_empty() {
        settle(world, &pending, None);
        return;
    }
    emit(
        world,
        BrpEvent::DefenseOffered(DefenseOffered {
            attack: pending,
            ways,
            rule: RULE_DEFENSE,
        }),
    );
}

/// §5.6, §5.7, §5.11: the defender answers: a parry (weapon or shield), a
/// dodge, or nothing; then the matrix (§5.8).
pub fn resolve_reaction(world: &mut Scene, who: Cid, command: &Command) {
    // Pending until the answer's event (a defence rolled or declined)
    // settles it and gives the attacker its turn back.
    let Some(p) = view::resource::<PendingAttack>(world).0.clone() else {
        return;
    };
    let choice = match (command, command.own::<BrpCommand>()) {
        (_, Some(BrpCommand::Parry { shield })) => Some((Defense::Parry, *shield)),
        (Command::Dodge, _) => Some((Defense::Dodge, false)),
        _ => None,
    };
    let option = choice.and_then(|(kind, shield)| {
        defenses(world, who, &p)
            .into_iter()
            .find(|o| o.kind == kind && o.shield == shield)
    });
    let Some(o) = option else {
        let kinds: Vec<String> = kinds_open(world, who, &p);
        let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
        let forgoes = crate::rules::narrate::either(&kinds);
        emit(
            world,
            BattleEvent::ReactionDeclined(ReactionDeclined { who, forgoes }),
        );
        settle(world, &p, None);
        return;
    };
    let with = o.with(world, who);
    let roll = d100(world);
    let lv = level(roll.total as u32, o.chance, settings(world).special);
    emit(
        world,
        BrpEvent::DefenseRolled(DefenseRolled {
            who,
            kind: o.kind,
            with,
            rating: o.rating,
            difficulty: o.difficulty,
            chance: o.chance,
            roll,
            level: lv,
            rule: o.rule,
        }),
    );
    settle(world, &p, Some((o.kind, o.shield, lv)));
}

/// The matrix (§5.8), then its damage and the weapons it wears down, then
/// the attacker's turn ends (one action a round).
fn settle(world: &mut Scene, p: &Pending, defense: Option<(Defense, bool, Level)>) {
    let o = outcome(p.level, defense.map(|(k, _, l)| (k, l)), p.melee());
    if p.level != Level::Failure {
        emit(
            world,
            BrpEvent::Matrix(Matrix {
                attacker: p.attacker,
                target: p.target,
                attack: p.level,
                defense: defense.map(|(k, _, l)| (k, l)),
                harm: o.harm,
                says: o.says,
                rule: RULE_MATRIX,
            }),
        );
    }
    if o.to_parrying_weapon > 0
        && let Some((_, shield, _)) = defense
    {
        wear(world, p.target, shield, o.to_parrying_weapon);
    }
    if o.to_attacking_weapon > 0 {
        wear_weapon(world, p.attacker, p.weapon_index, o.to_attacking_weapon);
    }
    if o.harm != Harm::None {
        damage(world, p, o.harm == Harm::Special);
    }
    // A thrown weapon is gone from the thrower's hand.
    if p.thrown {
        emit(
            world,
            BrpEvent::Thrown(Thrown {
                who: p.attacker,
                weapon_index: p.weapon_index,
                weapon: p.weapon.clone(),
                rule: RULE_DAMAGE,
            }),
        );
    }
    super::round::end_turn(world, p.attacker);
}

/// The parrying weapon in hand, or the shield, takes `points` (§5.8).
fn wear(world: &mut Scene, who: Cid, shield: bool, points: i32) {
    if shield {
        if let Some(s) = view::get::<BrpShield>(world, who) {
            let (name, hp) = (s.name.clone(), s.hp);
            wear_item(world, who, name, None, hp, points);
        }
    } else if let Some(i) = view::get::<Loadout>(world, who).and_then(|l| l.ready) {
        wear_weapon(world, who, i, points);
    }
}

/// §5.8: weapon `index` of `who` takes `points`. A weapon with no hit
/// points ("n/a" in §5.9's tables) takes none.
fn wear_weapon(world: &mut Scene, who: Cid, index: usize, points: i32) {
    if let Some((name, hp)) = view::get::<Loadout>(world, who)
        .and_then(|l| l.weapons.get(index))
        .and_then(|w| Some((String::from(&*w.name), gear(w)?.hp?)))
    {
        wear_item(world, who, name, Some(index), hp, points);
    }
}

/// A weapon (`index`) or the shield (`None`) with `hp` hit points takes
/// `points`; at 0 it breaks (§5.6: "can even break if their hit points are
/// overcome").
fn wear_item(
    world: &mut Scene,
    who: Cid,
    item: String,
    index: Option<usize>,
    hp: i32,
    points: i32,
) {
    let hp_left = hp - points;
    emit(
        world,
        BrpEvent::GearDamaged(GearDamaged {
            who,
            item: item.clone(),
            weapon_index: index,
            points,
            hp_left,
            rule: RULE_MATRIX,
        }),
    );
    if hp_left <= 0 {
        emit(
            world,
            BattleEvent::GearBroken(GearBroken {
                who,
                item,
                weapon_index: index,
                rule: RULE_MATRIX,
            }),
        );
    }
}

/// A blow's damage (§5.9), through the armor (§5.10) off the target's hit
/// points, and the fall it may cause (§5.12).
fn damage(world: &mut Scene, p: &Pending, special: bool) {
    let (total, ap) = roll_damage(world, p, special);
    let Some((through, hp_after)) = take_hit_points(world, p, total, ap) else {
        return;
    };
    if through > 0 {
        fall_unconscious(world, p.target, hp_after);
    }
}

/// §5.9, §5.13: roll a blow's damage: the weapon's dice (after their
/// maximum on a special success) and the damage bonus (halved and rounded
/// up for `½db`). The total, and the target's armor points against it.
fn roll_damage(world: &mut Scene, p: &Pending, special: bool) -> (i32, i32) {
    let b = blow(world, p.attacker, &p.damage, p.db, p.velocity, p.target);
    let (weapon, bonus) = {
        let mut dice = world.dice();
        let weapon = b.dice.roll(&mut dice, &RollOptions::default());
        let bonus = match &b.bonus {
            Some(db) if b.rolls_bonus() => Some(db.roll(&mut dice, &RollOptions::default())),
            _ => None,
        };
        (weapon, bonus)
    };
    let half = b.half;
    let bonus_added = bonus
        .as_ref()
        .map_or(0, |b| if half { half_bonus(b.total) } else { b.total });
    // §5.13: "the maximum damage the weapon can roll, and then add the
    // results of a normal damage roll to it. Add the damage modifier".
    let special_max = special.then(|| b.dice.max(None));
    let total = match special_max {
        Some(max) => special_damage(max, weapon.total, bonus_added),
        None => weapon.total + bonus_added,
    };
    emit(
        world,
        BrpEvent::DamageRolled(DamageRolled {
            target: p.target,
            weapon,
            special_max,
            bonus,
            half_bonus: half,
            bonus_added,
            total,
            rule: if special { RULE_SPECIAL } else { RULE_DAMAGE },
        }),
    );
    (total, b.ap)
}

/// §5.10: what of `total` is above the armor's `ap` points gets through and
/// comes off the target's hit points: what got through, and the hit
/// points left (none: the target has no health to lose).
fn take_hit_points(world: &mut Scene, p: &Pending, total: i32, ap: i32) -> Option<(i32, i32)> {
    let h = view::get::<Health>(world, p.target).copied()?;
    let through = through_armor(total, ap);
    let hp_after = h.hp - through;
    emit(
        world,
        BattleEvent::Damaged(Damaged {
            target: p.target,
            by: Some(p.attacker),
            rolled: total,
            steps: vec![Modifier::new("armor points", -ap, RULE_ARMOR)],
            ep_loss: 0,
            hp_loss: through,
            hp_after,
            ep_after: h.ep,
            rule: RULE_HIT_POINTS,
        }),
    );
    Some((through, hp_after))
}

/// §5.12: "If a character is reduced to 2 hit points, they fall
/// unconscious": `who`, hurt down to `hp_after`, falls (and off its
/// mount), unless it already lies; in a simultaneous group, when the group
/// is done.
fn fall_unconscious(world: &mut Scene, who: Cid, hp_after: i32) {
    let threshold = settings(world).unconscious_at_hp;
    if hp_after > threshold || view::conditions(world, who).has(Condition::Unconscious) {
        return;
    }
    // A simultaneous group acts as one: who it drops falls when it is
    // done (docs/rulesets/brp.md, "Simultaneous actions").
    let schedule = view::resource::<crate::rules::schedule::Schedule>(world);
    let together = schedule
        .group()
        .is_some_and(|g| g.len() > 1 && g.contains(&who));
    if together {
        if !schedule.falls.contains(&who) {
            emit(
                world,
                BattleEvent::FallDeferred(FallDeferred {
                    who,
                    rule: super::query::RULE_SIMULTANEOUS,
                }),
            );
        }
        return;
    }
    emit(
        world,
        BattleEvent::ConditionAdded(ConditionAdded {
            who,
            condition: Condition::Unconscious,
            rule: RULE_HIT_POINTS,
        }),
    );
    super::mounts::unseat(world, who);
}

/// The kinds of defence (parry, dodge) `who` may meet `p` with, each once.
fn kinds_open(world: &World, who: Cid, p: &Pending) -> Vec<String> {
    let mut kinds: Vec<String> = Vec::new();
    for o in defenses(world, who, p) {
        let w = match o.kind {
            Defense::Parry => "parry",
            Defense::Dodge => "dodge",
        };
        if !kinds.iter().any(|k| k == w) {
            kinds.push(w.to_string());
        }
    }
    kinds
}

/// The ways `who` may meet `p`: each parry by what parries (the weapon's
/// or the shield's name), and the dodge ("Dodge").
fn ways_open(world: &World, who: Cid, p: &Pending) -> Vec<String> {
    defenses(world, who, p)
        .into_iter()
        .map(|o| o.with(world, who))
        .collect()
}
