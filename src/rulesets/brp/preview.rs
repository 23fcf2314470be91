//! What a brp command would do, in the rules' numbers, before it is sent:
//! an attack's chance, its special chance and range band, the damage
//! through armor; a parry's or dodge's chance and what each row of the
//! matrix would make of it; the rank a move leaves. Reads only; the same
//! numbers the execution uses (`query.rs`).

use bevy::prelude::*;

use crate::rules::battle::{Battle, Phase};
use crate::rules::command::Command;
use crate::rules::components::{Cid, Health, Loadout, MoveMode};
use crate::rules::hooks::Preview;
use crate::rules::map::Map;
use crate::rules::view;

use super::chance::{Difficulty, Level, special_up_to};
use super::command::{BrpCommand, Intent};
use super::event::Band;
use super::matrix::{Defense, Harm, Outcome, outcome};
use super::numbers::{AttackNumbers, DefenseOption, attack_numbers, blow, defenses};
use super::query::{band, rank, round, settings};
use super::state::{Pending, PendingAttack};
use super::stats::{gear, stats};

pub fn preview(world: &World, actor: Cid, command: &Command) -> Preview {
    let name = |c: Cid| view::name(world, c);
    match (command, command.own::<BrpCommand>()) {
        (Command::Attack { target, weapon, .. }, _) => attack(world, actor, *target, *weapon),
        (Command::Move { path }, _) => movement(world, actor, path),
        (Command::Dodge, _) => defense(world, actor, Defense::Dodge, false),
        (_, Some(BrpCommand::Parry { shield })) => {
            defense(world, actor, Defense::Parry, *shield)
        }
        (Command::NoReaction, _) => Preview {
            title: "Take the blow".into(),
            lines: vec!["The attack goes through the matrix unopposed (§5.8)".into()],
            stakes: view::resource::<PendingAttack>(world)
                .0
                .as_ref()
                .and_then(|p| stakes(world, p)),
            ..Preview::default()
        },
        (_, Some(BrpCommand::Declare(intent))) => declare(world, actor, intent),
        (_, Some(BrpCommand::FirstAid { patient })) => Preview {
            title: format!("First Aid on {}", name(*patient)),
            chance: stats(world, actor).map(|s| f64::from(s.first_aid.clamp(0, 100)) / 100.0),
            lines: vec![
                "Heals 1D3 per untreated injury, no more than each took; each injury is treated once (§5.14)".into(),
            ],
            ..Preview::default()
        },
        (_, Some(BrpCommand::Reload { weapon })) => Preview {
            title: format!("Reload the {}", weapon_name(world, actor, *weapon)),
            lines: vec!["Takes the round: loaded at its end (§5.9)".into()],
            ..Preview::default()
        },
        (_, Some(BrpCommand::Kneel)) => Preview {
            title: "Kneel behind the shield".into(),
            lines: vec![
                "Parries arrows and thrown weapons at 90% instead of 60% (§5.11); moving stands up".into(),
            ],
            ..Preview::default()
        },
        (Command::EndTurn, _) => Preview {
            title: match view::resource::<Battle>(world).phase {
                Phase::Movement => "Done moving".into(),
                _ => "Do nothing more this round".into(),
            },
            ..Preview::default()
        },
        _ => Preview::default(),
    }
}

fn weapon_name(world: &World, actor: Cid, index: usize) -> String {
    view::get::<Loadout>(world, actor)
        .and_then(|l| l.weapons.get(index))
        .map_or_else(|| "weapon".into(), |w| w.name.to_lowercase())
}

/// The damage a blow of this weapon does through `target`'s armor: normal
/// and special ranges.
fn damage_ranges(
    world: &World,
    actor: Cid,
    index: usize,
    target: Cid,
) -> Option<((i32, i32), (i32, i32))> {
    let w = view::get::<Loadout>(world, actor)?.weapons.get(index)?;
    let g = gear(w)?;
    stats(world, actor)?;
    let b = blow(
        world,
        actor,
        &w.damage.without_db(),
        g.db,
        g.velocity,
        target,
    );
    Some((b.range(false), b.range(true)))
}

/// What an attack would do: its chance (with its difficulty), the
/// weapon's range, its special chance (§5.5), its damage through armor
/// (§5.13), the target's hit points (§5.12), and what the target may
/// answer with.
fn attack(world: &World, actor: Cid, target: Cid, index: usize) -> Preview {
    let mut p = Preview {
        title: format!(
            "Attack {} with the {}",
            view::name(world, target),
            weapon_name(world, actor, index)
        ),
        ..Preview::default()
    };
    let Some(from) = view::cell(world, actor) else {
        return p;
    };
    let Ok(n) = attack_numbers(world, actor, from, target, index) else {
        return p;
    };
    p.chance = Some(f64::from(n.chance.clamp(0, 100)) / 100.0);
    p.lines.push(chance_line(&n));
    p.lines.extend(range_line(world, actor, target, index));
    p.lines.push(format!(
        "Special success on {} or less (§5.5)",
        special_up_to(n.chance, settings(world).special)
    ));
    if let Some((normal, special)) = damage_ranges(world, actor, index, target) {
        p.damage = Some(normal);
        p.lines.push(format!(
            "Through armor: {}-{} HP, {}-{} on a special success (§5.13)",
            normal.0, normal.1, special.0, special.1
        ));
    }
    if let Some(h) = view::get::<Health>(world, target) {
        p.lines.push(format!(
            "{} has {} HP; out at {} or fewer (§5.12)",
            view::name(world, target),
            h.hp,
            settings(world).unconscious_at_hp
        ));
    }
    p.lines.extend(answers_line(world, actor, target, index));
    p
}

/// The attack's chance: the skill's, or the skill's at its difficulty
/// (§5.9).
fn chance_line(n: &AttackNumbers) -> String {
    match n.difficulty {
        Difficulty::Normal => format!("Chance {}% (skill)", n.chance),
        d => format!(
            "Chance {}%: skill {}%, {} (§5.9)",
            n.chance,
            n.rating,
            d.name()
        ),
    }
}

/// A missile weapon's range to `target`, and the weapon's range bands
/// (§5.9). None: a melee weapon.
fn range_line(world: &World, actor: Cid, target: Cid, index: usize) -> Option<String> {
    let (a, t) = (view::cell(world, actor)?, view::cell(world, target)?);
    let (_, g) = super::stats::weapon(world, actor, index)?;
    g.is_missile().then(|| {
        format!(
            "Range {:.0} m; the weapon's range is {:.0} m (½ to {:.0} m, ¼ to {:.0} m)",
            Map::distance_m(a, t),
            g.range_m,
            2.0 * g.range_m,
            3.0 * g.range_m
        )
    })
}

/// What `target` may meet `actor`'s attack with weapon `index` with: its
/// parries and dodge at their chances (§5.6, §5.7), or that it has none.
fn answers_line(world: &World, actor: Cid, target: Cid, index: usize) -> Option<String> {
    let w = view::get::<Loadout>(world, actor)?.weapons.get(index)?;
    let g = gear(w)?;
    let pending = Pending {
        attacker: actor,
        target,
        weapon_index: index,
        weapon: String::from(&*w.name),
        level: Level::Success,
        damage: w.damage.without_db(),
        db: g.db,
        velocity: g.velocity,
        thrown: g.thrown,
    };
    let ds: Vec<String> = defenses(world, target, &pending)
        .iter()
        .map(|o| format!("{} {}%", o.with(world, target).to_lowercase(), o.chance))
        .collect();
    Some(if ds.is_empty() {
        "It cannot parry or dodge this".into()
    } else {
        format!("It may answer: {}", ds.join(", "))
    })
}

fn movement(world: &World, actor: Cid, path: &[crate::rules::map::Cell]) -> Preview {
    let Some(start) = view::cell(world, actor) else {
        return Preview::default();
    };
    let cost = view::resource::<Map>(world)
        .path_cost(start, path)
        .unwrap_or(0);
    let moved = round(world).slot(actor).map_or(0, |s| s.moved_dm) + cost;
    let b = band(moved);
    let dex = stats(world, actor).map_or(0, |s| s.dex);
    let rank_line = match rank(dex, b) {
        Some(r) if b == Band::Full => format!("Keeps its full DEX rank {r}"),
        Some(r) => format!("Acts on DEX rank {r} instead of {dex} (§5.3)"),
        None => "The 30-metre run: no action but parries and dodges this round (§5.3)".into(),
    };
    Preview {
        title: format!(
            "Move {:.1} m (this round: {:.1} m)",
            f64::from(cost) / 10.0,
            f64::from(moved) / 10.0
        ),
        lines: vec![rank_line],
        move_mode: Some(if b == Band::Run {
            MoveMode::Full
        } else {
            MoveMode::Standard
        }),
        ..Preview::default()
    }
}

/// What a parry or dodge of the pending attack would do: its chance and
/// special chance, what it risks breaking, and each row of the matrix
/// (§5.8) it may roll.
fn defense(world: &World, actor: Cid, kind: Defense, shield: bool) -> Preview {
    let Some(p) = view::resource::<PendingAttack>(world).0.as_ref() else {
        return Preview::default();
    };
    let Some(o) = defenses(world, actor, p)
        .into_iter()
        .find(|o| o.kind == kind && o.shield == shield)
    else {
        return Preview {
            title: match kind {
                Defense::Parry => "Parry".into(),
                Defense::Dodge => "Dodge".into(),
            },
            ..Preview::default()
        };
    };
    let special = special_up_to(o.chance, settings(world).special);
    let mine = o.with(world, actor).to_lowercase();
    // The chance itself is the preview's `chance` (the dialog adds it).
    let title = match kind {
        Defense::Parry => format!("Parry with the {mine} (special on {special} or less)"),
        Defense::Dodge => format!("Dodge (special on {special} or less)"),
    };
    let mut lines = vec![format!(
        "{}% to succeed, {}% a special success ({})",
        o.chance,
        special,
        // The option's own rule: §5.6 for a weapon, §5.11 for a shield,
        // §5.7 for a dodge.
        o.rule.trim_start_matches("brp ")
    )];
    // The risk to the parrying item first, where it is one: it can break.
    lines.extend(break_risk(world, actor, p, &o));
    lines.extend(matrix_lines(world, actor, p, &o));
    Preview {
        title,
        chance: Some(f64::from(o.chance.clamp(0, 100)) / 100.0),
        lines,
        stakes: stakes(world, p),
        ..Preview::default()
    }
}

/// The rows of the matrix (§5.8) defence `o` may roll against the attack
/// as it came: each level's words and its outcome.
fn matrix_rows(p: &Pending, o: &DefenseOption) -> [(&'static str, Outcome); 3] {
    [
        (Level::Special, "a special"),
        (Level::Success, "a success"),
        (Level::Failure, "a failure"),
    ]
    .map(|(lv, what)| (what, outcome(p.level, Some((o.kind, lv)), p.melee())))
}

/// §5.6, §5.8: the rows on which the attack breaks the item that parries
/// it (at 0 HP), in one line; none if it cannot.
fn break_risk(world: &World, actor: Cid, p: &Pending, o: &DefenseOption) -> Option<String> {
    let hp = o.item_hp(world, actor)?;
    let breaks: Vec<String> = matrix_rows(p, o)
        .iter()
        .filter(|(_, out)| out.to_parrying_weapon > 0 && out.to_parrying_weapon >= hp)
        .map(|(what, out)| format!("{} points on {what}", out.to_parrying_weapon))
        .collect();
    (!breaks.is_empty()).then(|| {
        format!(
            "The {} can break your {}: {hp} HP, {} (§5.6, §5.8)",
            p.weapon.to_lowercase(),
            o.with(world, actor).to_lowercase(),
            breaks.join(", ")
        )
    })
}

/// Each row of the matrix for the attack as it came (§5.8): the harm, and
/// what it does to the weapons (at 0 HP one breaks, §5.6).
fn matrix_lines(world: &World, actor: Cid, p: &Pending, o: &DefenseOption) -> Vec<String> {
    let mine = o.with(world, actor).to_lowercase();
    let my_hp = o.item_hp(world, actor);
    let their_hp = super::numbers::weapon_hp(world, p.attacker, p.weapon_index);
    let wear = |whose: &str, item: &str, hp: Option<i32>, points: i32| match hp {
        Some(hp) if points >= hp => format!(", {whose} {item} takes {points} and breaks ({hp} HP)"),
        Some(hp) => format!(
            ", {whose} {item} takes {points} ({hp} HP, {} left)",
            hp - points
        ),
        None => String::new(),
    };
    matrix_rows(p, o)
        .into_iter()
        .map(|(what, out)| {
            let harm = match out.harm {
                Harm::None => "no harm",
                Harm::Normal => "normal damage",
                Harm::Special => "special damage",
            };
            let mut s = format!("On {what}: {harm}");
            if out.to_parrying_weapon > 0 {
                s.push_str(&wear("your", &mine, my_hp, out.to_parrying_weapon));
            }
            if out.to_attacking_weapon > 0 {
                s.push_str(&wear(
                    "the attacker's",
                    &p.weapon.to_lowercase(),
                    their_hp,
                    out.to_attacking_weapon,
                ));
            }
            s
        })
        .collect()
}

/// What the pending blow does to its target if nothing stops it, in one
/// line: its quality (a special success rolls the weapon's maximum on top,
/// §5.13), what gets through armor (§5.10), and the chance it drops the
/// target to the unconscious line (§5.12), over every roll of the weapon
/// and the damage bonus.
fn stakes(world: &World, p: &Pending) -> Option<String> {
    let h = view::get::<Health>(world, p.target)?;
    let b = blow(world, p.attacker, &p.damage, p.db, p.velocity, p.target);
    let special = p.level == Level::Special;
    let weapon_max = b.dice.max(None);
    let bonus: Vec<(i32, f64)> = match &b.bonus {
        Some(db) if b.rolls_bonus() => db
            .distribution(None, None, 0)
            .into_iter()
            .map(|(v, q)| {
                (
                    if b.half {
                        super::derived::half_bonus(v)
                    } else {
                        v
                    },
                    q,
                )
            })
            .collect(),
        _ => vec![(0, 1.0)],
    };
    let line = settings(world).unconscious_at_hp;
    let (mut lo, mut hi, mut down) = (i32::MAX, i32::MIN, 0.0);
    for (w, qw) in b.dice.distribution(None, None, 0) {
        for (d, qd) in &bonus {
            let total = if special {
                super::derived::special_damage(weapon_max, w, *d)
            } else {
                w + d
            };
            let through = super::derived::through_armor(total, b.ap);
            lo = lo.min(through);
            hi = hi.max(through);
            if through > 0 && h.hp - through <= line {
                down += qw * qd;
            }
        }
    }
    Some(format!(
        "If the blow lands: a {} with the {}, {lo}-{hi} HP through armor, {:.0}% to put {} down (HP {})",
        if special {
            "special success"
        } else {
            "success"
        },
        p.weapon.to_lowercase(),
        down * 100.0,
        view::name(world, p.target),
        h.hp
    ))
}

fn declare(world: &World, actor: Cid, intent: &Intent) -> Preview {
    let dex = stats(world, actor).map_or(0, |s| s.dex);
    let ranks = format!(
        "Acts on DEX rank {dex} if it moves under 6 m, {} after 6-15 m, {} after 16-29 m (§5.3)",
        rank(dex, Band::Half).unwrap_or(0),
        rank(dex, Band::Quarter).unwrap_or(0)
    );
    let title = match intent {
        Intent::Attack { target, weapon } => format!(
            "State: attack {} with the {}",
            view::name(world, *target),
            weapon_name(world, actor, *weapon)
        ),
        Intent::FirstAid { patient } => {
            format!("State: First Aid on {}", view::name(world, *patient))
        }
        Intent::Reload { weapon } => {
            format!("State: reload the {}", weapon_name(world, actor, *weapon))
        }
        Intent::Defend => "State: only parry and dodge".into(),
    };
    let mut lines = vec![];
    // A stated attack's odds as they stand now (the attack itself comes on
    // the DEX rank, from wherever the Movement phase leaves the two).
    let mut chance = None;
    if let Intent::Attack { target, weapon } = intent {
        let now = attack(world, actor, *target, *weapon);
        chance = now.chance;
        if let Some(first) = now.lines.first() {
            lines.push(format!("{first}, from where both stand now"));
        }
    }
    if *intent == Intent::Defend {
        lines.push("May move the full 30 m if not next to an enemy (§5.3)".into());
    } else {
        lines.push(ranks);
    }
    lines.push("Parries and dodges need no statement (§5.2)".into());
    Preview {
        title,
        chance,
        lines,
        ..Preview::default()
    }
}
