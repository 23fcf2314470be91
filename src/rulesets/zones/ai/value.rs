//! What the zones AI thinks an attack, a blast, a non-lethal attack or a
//! turn is worth, from the rules' own odds. Reads only.

use bevy::prelude::*;

use crate::rules::command::Command;
use crate::rules::components::{Cid, Condition, Health, Loadout, Weapon};
use crate::rules::map::Map;
use crate::rules::view;
use crate::rulesets::zones::check;
use crate::rulesets::zones::command::{Maneuver, ZonesCommand};
use crate::rulesets::zones::maneuvers::{
    check_any_maneuver, check_this_maneuver, holding, may_resist, shove_end,
};
use crate::rulesets::zones::modes::{MODE_STRIKE, MODE_STUNT_SURRENDER};
use crate::rulesets::zones::numbers::{damage_odds, split_odds};
use crate::rulesets::zones::query::{blast_targets, save_chance, stats, wit_save_reason, zone};
use crate::rulesets::zones::state::ZonesRound;
use crate::rulesets::zones::strike::{Strike, Striker, may_strike};
use crate::rulesets::zones::weapon::ZonesGear;

use super::react::ACCEPT_AT;

/// How much taking a character out of the fight is worth, in points of
/// damage.
pub(super) const DOWN: f64 = 8.0;

/// Expected value of a blow by `attacker` on `target` with `w`: mean damage
/// suffered plus [`DOWN`] times the chance it takes the target out, times
/// the chance to hit.
pub fn blow_value(world: &World, attacker: Cid, target: Cid, w: &Weapon, mode: usize) -> f64 {
    let p_hit = match wit_save_reason(world, attacker, target, w, false) {
        Some(_) => save_chance(world, stats(world, attacker).map_or(0, |s| s.wit)),
        None => 1.0,
    };
    if w.zones().blast {
        return p_hit * blast_value(world, attacker, target, w, mode);
    }
    let o = damage_odds(world, attacker, target, w, mode);
    p_hit * (o.mean + DOWN * o.p_down)
}

/// A blast aimed at `target`'s zone (or the attacker's own, in melee):
/// what it does to enemies, less what it does to friends.
pub(super) fn blast_value(
    world: &World,
    attacker: Cid,
    target: Cid,
    w: &Weapon,
    mode: usize,
) -> f64 {
    let z = if w.is_ranged() {
        zone(world, target)
    } else {
        zone(world, attacker)
    };
    let Some(z) = z else { return 0.0 };
    let me = view::faction(world, attacker);
    blast_targets(world, attacker, z, w.is_ranged())
        .into_iter()
        .map(|t| {
            let o = damage_odds(world, attacker, t, w, mode);
            let v = o.mean + DOWN * o.p_down;
            if view::faction(world, t) == me {
                -1.5 * v
            } else {
                v
            }
        })
        .sum()
}

/// The chance a non-lethal attack gets past the target's STR save.
pub(super) fn p_fails_str(world: &World, attacker: Cid, target: Cid) -> f64 {
    if !may_resist(world, attacker, target) {
        return 1.0;
    }
    1.0 - save_chance(world, stats(world, target).map_or(0, |s| s.str))
}

/// The best non-lethal attack `who` can make now, if any: value, command.
/// A shove into a pit is worth a kill (or its damage); a grapple takes an
/// enemy's coming turns away. Only one worth more than `floor` is of use
/// (the caller takes it only above the blow it could strike instead): a
/// grapple that could not be worth more even at [`turn_value_ceiling`] is
/// not weighed further. The best above the floor is the best of all when
/// any is above it, so the choice is the same.
pub(super) fn best_maneuver(world: &World, who: Cid, floor: f64) -> Option<(f64, Command)> {
    let mut best: Option<(f64, Command)> = None;
    let holds_nobody = holding(world, who).is_none();
    for t in view::enemies(world, who) {
        // None of the three on a target no maneuver may be tried on (not
        // nearby, say): each kind's check begins with this one.
        if check_any_maneuver(world, who, t).is_err() {
            continue;
        }
        // The target may strike back first (§Reacting to an attack:
        // Counter; "since Theobald is still standing, the bandit must now
        // attempt a STR save"): the maneuver then works only if I stand,
        // and the blow is taken whatever comes of it.
        // (Weighed only for a maneuver the rules allow.)
        let risk = std::cell::OnceCell::new();
        let risk = || *risk.get_or_init(|| counter_risk(world, who, t));
        let p = || p_fails_str(world, who, t) * (1.0 - risk().1);
        let tried = [
            shove_value(world, who, t, &p, &risk),
            disarm_value(world, who, t, &p, &risk),
            holds_nobody
                .then(|| grapple_value(world, who, t, floor, &p, &risk))
                .flatten(),
        ];
        for (v, kind) in tried.into_iter().flatten() {
            if best.as_ref().is_none_or(|b| v > b.0) {
                best = Some((v, Command::from(ZonesCommand::Maneuver { target: t, kind })));
            }
        }
    }
    best
}

/// What shoving `t` into a pit is worth to `who`, if it may: the fall (a
/// kill, or the pit's mean damage) when the shove gets through (`p`), less
/// the blow struck back (`risk`).
fn shove_value(
    world: &World,
    who: Cid,
    t: Cid,
    p: &dyn Fn() -> f64,
    risk: &dyn Fn() -> (f64, f64),
) -> Option<(f64, Maneuver)> {
    if check_this_maneuver(world, who, t, Maneuver::Shove).is_err()
        || shove_end(world, who, t).1.is_none()
    {
        return None;
    }
    let hp = view::get::<Health>(world, t).map_or(1, |h| h.hp);
    let fall = match &view::resource::<crate::rulesets::zones::settings::ZonesSettings>(world)
        .pit_damage
    {
        None => DOWN + f64::from(hp),
        Some(d) => f64::from(d.min(None) + d.max(None)) / 2.0,
    };
    Some((p() * fall - risk().0, Maneuver::Shove))
}

/// Knock away the weapon in `t`'s hand: worth what that weapon does
/// beyond its bare hands, for a round or two.
fn disarm_value(
    world: &World,
    who: Cid,
    t: Cid,
    p: &dyn Fn() -> f64,
    risk: &dyn Fn() -> (f64, f64),
) -> Option<(f64, Maneuver)> {
    let l = view::get::<Loadout>(world, t)?;
    let i = l.ready?;
    let (Some(w), Some(bare)) = (l.weapons.get(i), l.weapons.last()) else {
        return None;
    };
    let kind = Maneuver::Disarm { weapon: i };
    check_this_maneuver(world, who, t, kind).ok()?;
    let armed = damage_odds(world, t, who, w, MODE_STRIKE);
    let unarmed = damage_odds(world, t, who, bare, MODE_STRIKE);
    let gain = (armed.mean + DOWN * armed.p_down) - (unarmed.mean + DOWN * unarmed.p_down);
    Some((p() * gain * 1.5 - risk().0, kind))
}

/// Held, `t` loses its turns until it breaks free: worth about one of its
/// turns, more for those who fight from afar. None when `who` may not
/// grab it, or when even [`turn_value_ceiling`] would not lift it above
/// `floor`.
fn grapple_value(
    world: &World,
    who: Cid,
    t: Cid,
    floor: f64,
    p: &dyn Fn() -> f64,
    risk: &dyn Fn() -> (f64, f64),
) -> Option<(f64, Maneuver)> {
    if check_this_maneuver(world, who, t, Maneuver::Grapple).is_err() || !view::standing(world, t) {
        return None;
    }
    // (A product with a chance no less than 0 is no less with the larger
    // factor: the ceiling's bound holds in floating point.)
    let (p, r) = (p(), risk().0);
    if p >= 0.0 && p * turn_value_ceiling(world, t) * 0.8 - r <= floor {
        return None;
    }
    Some((p * turn_value(world, t) * 0.8 - r, Maneuver::Grapple))
}

/// What `t` striking back at a maneuver of `who` would cost `who` (the
/// blow's expected damage and the chance it takes `who` out, weighed as a
/// blow is), and that chance: nothing when `t` cannot react now.
fn counter_risk(world: &World, who: Cid, t: Cid) -> (f64, f64) {
    if !crate::rulesets::zones::query::can_react(world, t, who) {
        return (0.0, 0.0);
    }
    let Some(l) = view::get::<Loadout>(world, t) else {
        return (0.0, 0.0);
    };
    l.weapons
        .iter()
        .enumerate()
        .filter(|(i, _)| may_strike(world, t, reaction_strike(who, *i)))
        .map(|(_, w)| {
            let o = damage_odds(world, t, who, w, MODE_STRIKE);
            (o.mean + DOWN * o.p_down, o.p_down)
        })
        .fold((0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a })
}

/// A strike with weapon `index` on `target` as a reaction (a counter or
/// an opportunity attack: the weapon in hand, no action spent).
pub(super) fn reaction_strike(target: Cid, index: usize) -> Strike {
    Strike {
        target,
        index,
        mode: MODE_STRIKE,
        reaction: true,
        drawn: false,
    }
}

/// The best strike `who` could make from where it stands, if any: value,
/// weapon, target.
pub(super) fn best_strike_here(
    world: &World,
    who: Cid,
    reaction: bool,
) -> Option<(f64, usize, Cid)> {
    let striker = Striker::of(world, who)?;
    let mut best: Option<(f64, usize, Cid)> = None;
    let enemies = view::enemies(world, who);
    let drawable = can_draw(world, reaction);
    let l = striker.loadout();
    // Whether a blow reaches each enemy, found at the first weapon that
    // asks and read by the others.
    let mut reach: smallvec::SmallVec<[Option<bool>; 8]> = smallvec::smallvec![None; enemies.len()];
    for (i, w) in l.weapons.iter().enumerate() {
        // A weapon neither in hand nor to be drawn (the last, bare hands,
        // always is) fails the strike check against everyone: it is not
        // asked, nor its refusal written out, once per enemy.
        if !drawable && i + 1 != l.weapons.len() && l.ready != Some(i) {
            continue;
        }
        for (k, &t) in enemies.iter().enumerate() {
            let strike = Strike {
                target: t,
                index: i,
                mode: MODE_STRIKE,
                reaction,
                drawn: drawable,
            };
            let reaches = if w.is_ranged() {
                None
            } else {
                Some(*reach[k].get_or_insert_with(|| striker.reaches(world, t)))
            };
            if !striker.may_reaching(world, strike, reaches) {
                continue;
            }
            let v = blow_value(world, who, t, w, MODE_STRIKE);
            // Never a blow that does more harm to friends than to foes.
            if v > 0.0 && best.is_none_or(|b| v > b.0) {
                best = Some((v, i, t));
            }
        }
    }
    best
}

/// Can an ally of `who` (not `who` itself) still harm the enemy
/// ([`can_harm`])? With `broken_too` false, only the allies who are not
/// broken count: those still fighting.
pub fn ally_can_harm(world: &World, who: Cid, broken_too: bool) -> bool {
    view::allies(world, who).into_iter().any(|a| {
        (broken_too || !view::conditions(world, a).has(Condition::Broken)) && can_harm(world, a)
    })
}

/// Can `who` do any harm to any enemy with anything it carries (a ranged
/// weapon only with ammunition left)? An archer whose arrows are spent,
/// with nothing else that hurts a wyrm, once ran from it for twenty rounds.
pub fn can_harm(world: &World, who: Cid) -> bool {
    let Some(l) = view::get::<Loadout>(world, who) else {
        return false;
    };
    let enemies = view::enemies(world, who);
    l.weapons
        .iter()
        .filter(|w| !(w.is_ranged() && w.spare == Some(0)))
        .any(|w| {
            enemies
                .iter()
                .any(|&t| blow_value(world, who, t, w, MODE_STRIKE) > 0.0)
        })
}

/// Can a weapon not in hand be drawn for a strike now: not as a reaction,
/// and with a bonus action left. The strike check counts such a weapon as
/// drawn.
fn can_draw(world: &World, reaction: bool) -> bool {
    !reaction && view::resource::<ZonesRound>(world).turn.bonus_left() > 0
}

/// What a character's turn is worth now: its best strike, from here or after
/// a half-speed move.
pub fn turn_value(world: &World, who: Cid) -> f64 {
    turn_value_from(
        world,
        who,
        best_strike_here(world, who, false).map_or(0.0, |b| b.0),
    )
}

/// [`turn_value`], the best strike from here known (`here`: what
/// [`best_strike_here`] gives, not as a reaction, in this same state).
pub(super) fn turn_value_from(world: &World, who: Cid, here: f64) -> f64 {
    let Some(s) = stats(world, who) else {
        return here;
    };
    let Some(l) = view::get::<Loadout>(world, who) else {
        return here;
    };
    // A melee strike after moving into an enemy's zone: with a weapon in
    // hand that shoots nothing (else none, and no enemy is looked at).
    let mut after = 0.0f64;
    let Some(w) = l.ready_weapon().filter(|w| !w.is_ranged()) else {
        return here.max(after);
    };
    let my = zone(world, who);
    let map = view::resource::<Map>(world);
    for t in view::enemies(world, who) {
        let (Some(a), Some(b)) = (my, zone(world, t)) else {
            continue;
        };
        if map
            .zone_distance(a, b)
            .is_some_and(|d| d >= 1 && d <= s.half_speed())
        {
            after = after.max(blow_value(world, who, t, w, MODE_STRIKE) * 0.9);
        }
    }
    here.max(after)
}

/// No less than [`turn_value`] of `who`, from its weapons alone: a blow is
/// worth at most its mean damage plus [`DOWN`] times the chance it takes
/// the target out, the mean at most the dice's largest roll (or the
/// saddle's impaired die's), rolled twice as often for each size `who` is
/// larger than the smallest of its enemies. A hair over,
/// for the rounding of the odds' sums; unbounded for a blast, which may
/// strike many.
pub(super) fn turn_value_ceiling(world: &World, who: Cid) -> f64 {
    use crate::rulesets::zones::query::{mounted, size_rank};
    let Some(l) = view::get::<Loadout>(world, who) else {
        return 0.0;
    };
    // Its blows land on enemies only: larger than the smallest of them by
    // at most this many sizes.
    let rank = size_rank(world, who);
    let smallest = view::enemies(world, who)
        .iter()
        .map(|&e| size_rank(world, e))
        .min()
        .unwrap_or(rank);
    let times = f64::from(1u32 << (rank - smallest).clamp(0, 8));
    let saddle = if mounted(world, who) {
        f64::from(crate::rulesets::zones::modes::impaired().max(None))
    } else {
        0.0
    };
    let mut most = saddle;
    for w in &l.weapons {
        if w.zones().blast {
            return f64::INFINITY;
        }
        most = most.max(f64::from(w.mode_damage(MODE_STRIKE).max(None)));
    }
    (most.max(0.0) * times + DOWN) * 1.001 + 1e-6
}

/// What closing in is worth to a character who can strike nobody this
/// turn: this share of the blow it could strike once there.
const CLOSING: f64 = 0.5;

/// What a character's turn is worth when a reaction would spend it: the
/// strike it can make this turn ([`turn_value`]), or, when it can strike
/// nobody yet, what closing in is worth. A character who dodges every blow
/// at nothing lost never gets to fight.
pub fn turn_worth(world: &World, who: Cid) -> f64 {
    turn_worth_from(
        world,
        who,
        best_strike_here(world, who, false).map_or(0.0, |b| b.0),
    )
}

/// [`turn_worth`], the best strike from here known (`here`: what
/// [`best_strike_here`] gives, not as a reaction, in this same state): an
/// actor weighing its turn has found it already.
pub fn turn_worth_from(world: &World, who: Cid, here: f64) -> f64 {
    let now = turn_value_from(world, who, here);
    if now > 0.0 {
        return now;
    }
    let Some(l) = view::get::<Loadout>(world, who) else {
        return 0.0;
    };
    let mut best = 0.0f64;
    for t in view::enemies(world, who) {
        for w in &l.weapons {
            best = best.max(blow_value(world, who, t, w, MODE_STRIKE));
        }
    }
    CLOSING * best
}

/// The best sharing of the weapon in hand's dice among smaller enemies
/// (§Effects of size in combat), if any is legal: value, command.
pub(super) fn best_split(world: &World, actor: Cid) -> Option<(f64, Command)> {
    let w = view::get::<Loadout>(world, actor)?.ready_weapon()?;
    crate::rulesets::zones::legal::split_candidates(world, actor)
        .into_iter()
        .filter(|c| check::check(world, actor, c).is_ok())
        .map(|c| {
            let v = match (&c, c.own::<ZonesCommand>()) {
                (_, Some(ZonesCommand::SplitAttack { shares, .. })) => shares
                    .iter()
                    .map(|&(t, d)| {
                        let o = split_odds(world, actor, t, w, d);
                        o.mean + DOWN * o.p_down
                    })
                    .sum(),
                _ => 0.0,
            };
            (v, c)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Offer a sure surrender instead of a blow likely to take the target out
/// anyway (§Attack stunts): the AI target accepts such offers.
pub(super) fn stunt_or_strike(world: &World, actor: Cid, target: Cid, weapon: usize) -> usize {
    let Some(w) = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(weapon)) else {
        return MODE_STRIKE;
    };
    let stunt = Command::Attack {
        target,
        weapon,
        mode: MODE_STUNT_SURRENDER,
    };
    let o = damage_odds(world, actor, target, w, MODE_STRIKE);
    if o.p_down >= ACCEPT_AT && o.p_down < 1.0 && check::check(world, actor, &stunt).is_ok() {
        MODE_STUNT_SURRENDER
    } else {
        MODE_STRIKE
    }
}

/// What countering is worth: my blow on the attacker, plus the chance it
/// stops the attack (the blow that hurts more lands first).
pub(super) fn counter_value(
    world: &World,
    actor: Cid,
    attacker: Cid,
    incoming: &Weapon,
    mode: usize,
) -> Option<(f64, usize)> {
    let l = view::get::<Loadout>(world, actor)?;
    let inc = damage_odds(world, attacker, actor, incoming, mode);
    let (in_mean, in_down) = (inc.mean, inc.p_down);
    let mut best: Option<(f64, usize)> = None;
    for (i, w) in l.weapons.iter().enumerate() {
        if !may_strike(world, actor, reaction_strike(attacker, i)) {
            continue;
        }
        let mine = damage_odds(world, actor, attacker, w, MODE_STRIKE);
        let (my_mean, my_down) = (mine.mean, mine.p_down);
        // Rough odds that my blow is the bigger one and downs the attacker
        // first, so that theirs never lands.
        let first = if my_mean > in_mean {
            0.6
        } else if my_mean < in_mean {
            0.3
        } else {
            0.45
        };
        let v = my_mean + DOWN * my_down + first * my_down * (in_mean + DOWN * in_down)
            - (1.0 - first * my_down) * DOWN * in_down * 0.25;
        if best.is_none_or(|b| v > b.0) {
            best = Some((v, i));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::engine::Controls;
    use crate::testkit::{engine, start_shipped};

    /// What lets the AI skip weighing a grapple: at every step of whole
    /// all-AI battles on levels zones plays (a mounted raider, a wyrm and
    /// its breath, archers and brutes), no character's turn is worth more
    /// than [`turn_value_ceiling`] says.
    #[test]
    fn no_turn_is_worth_more_than_its_ceiling() {
        let mut e = engine();
        let mut weighed = 0;
        // Turns of a character larger than its smallest enemy, whose blows
        // the ceiling doubles per size of difference (§Effects of size in combat).
        let mut outsized = 0;
        for level in ["mirror_duel", "caravan_ambush", "wyrm_lair", "archer_hill"] {
            for seed in 1..=2 {
                start_shipped(
                    &mut e,
                    level,
                    crate::rulesets::zones::ID,
                    seed,
                    Controls::AllAi,
                );
                for _ in 0..2_000 {
                    if e.outcome().is_some() {
                        break;
                    }
                    view::reading(e.world(), |w| {
                        for c in view::standing_all(w) {
                            let (v, top) = (turn_value(w, c), turn_value_ceiling(w, c));
                            assert!(
                                v <= top,
                                "{level} seed {seed}: {c:?} worth {v}, ceiling {top}"
                            );
                            weighed += usize::from(v > 0.0);
                            let smallest = view::enemies(w, c)
                                .iter()
                                .map(|&e| crate::rulesets::zones::query::size_rank(w, e))
                                .min();
                            outsized += usize::from(
                                v > 0.0
                                    && top.is_finite()
                                    && smallest.is_some_and(|s| {
                                        s < crate::rulesets::zones::query::size_rank(w, c)
                                    }),
                            );
                        }
                    });
                    e.run(1);
                }
            }
        }
        assert!(weighed > 1_000, "only {weighed} turns worth anything");
        assert!(
            outsized > 100,
            "only {outsized} turns of a larger character"
        );
    }

    /// The ceiling's size factor is needed: a giant's club (d8) rolled four
    /// times against a man (two sizes smaller, §Effects of size in combat)
    /// is worth more than one roll's most could be, and no more than the
    /// ceiling.
    #[test]
    fn a_larger_character_s_ceiling_counts_its_size() {
        use crate::testkit::{Scenario, cid, start_ruleset};
        let l = Scenario::zones(&["....", "...."], &["aabb", "aabb"])
            .with(&[
                r#"(archetype: "giant", faction: "players", at: (0, 0), name: "Giant")"#,
                r#"(archetype: "swordsman", faction: "bandits", at: (1, 0), name: "Man", overrides: (armor: [], shield: None, stats: {"HEALTH": 40}))"#,
            ])
            .level();
        let mut e = engine();
        start_ruleset(&mut e, &l, crate::rulesets::zones::ID, &[]);
        let giant = cid(&e, "Giant");
        view::reading(e.world(), |w| {
            let (v, top) = (turn_value(w, giant), turn_value_ceiling(w, giant));
            let one_roll = (8.0 + DOWN) * 1.001 + 1e-6;
            assert!(v > one_roll, "worth {v}: the size factor is not needed");
            assert!(v <= top, "worth {v}, ceiling {top}");
        });
    }
}
