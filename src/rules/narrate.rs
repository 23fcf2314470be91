//! Readable text for battle events: the `fray log` output and the game's
//! combat log. Every roll shows its dice, each modifier by name, the target
//! number and the rule.

use std::fmt::Write;

use crate::rules::components::{Cid, MoveMode};
use crate::rules::dice::DiceRoll;
use crate::rules::event::{self, BattleEvent, EndReason, Modifier};
use crate::rules::roster::Names;

/// The dice of a roll: `1D10 [7]`, `1D10+2 [10!, 3] +2`.
pub fn dice_text(r: &DiceRoll) -> String {
    let mut s = format!("{} [", r.expr);
    for (i, d) in r.dice.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        if d.negative {
            s.push('-');
        }
        let _ = write!(s, "{}", d.result);
        if d.exploded {
            s.push_str(" (explosion)");
        }
    }
    s.push(']');
    s
}

fn signed(v: i32) -> String {
    if v < 0 {
        format!("- {}", -v)
    } else {
        format!("+ {v}")
    }
}

/// ` + Ranged Combat skill 5 - range increment exceeded 1`.
pub fn mods_text(mods: &[Modifier]) -> String {
    let mut s = String::new();
    for m in mods {
        let _ = write!(s, " {} ({})", signed(m.value), m.name);
    }
    s
}

/// A defense and its parts: `10 (base) + 2 (DEX), from behind`.
pub fn defense_text(parts: &[Modifier]) -> String {
    let mut s = String::new();
    for (i, m) in parts.iter().enumerate() {
        if i == 0 {
            let _ = write!(s, "{} ({})", m.value, m.name);
        } else if m.value == 0 {
            let _ = write!(s, ", {}", m.name);
        } else {
            let _ = write!(s, " {} ({})", signed(m.value), m.name);
        }
    }
    s
}

fn mode_text(m: MoveMode) -> &'static str {
    match m {
        MoveMode::None => "no movement",
        MoveMode::Step => "a single step",
        MoveMode::Standard => "standard movement",
        MoveMode::Full => "full movement",
        MoveMode::Retreat => "retreat",
    }
}

/// One line (or a few) describing an event: each event's own function
/// below, a ruleset's own event by the ruleset.
pub fn describe(n: &Names, e: &BattleEvent) -> String {
    match e {
        BattleEvent::BattleStarted(e) => battle_started(e),
        BattleEvent::RoundStarted(e) => round_started(e),
        BattleEvent::TurnOrder(e) => format!("Turn order: {}", names(n, &e.order)),
        BattleEvent::TurnStarted(e) => format!("-- {}'s turn --", n.who(e.who)),
        BattleEvent::Moved(e) => moved(n, e),
        BattleEvent::MoveInterrupted(e) => move_interrupted(n, e),
        BattleEvent::ConditionAdded(e) => condition_added(n, e),
        BattleEvent::ConditionRemoved(e) => condition_removed(n, e),
        BattleEvent::Drew(e) => drew(n, e),
        BattleEvent::ReactionDeclined(e) => reaction_declined(n, e),
        BattleEvent::DamageRolled(e) => damage_rolled(n, e),
        BattleEvent::Damaged(e) => damaged(n, e),
        BattleEvent::Healed(e) => healed(n, e),
        BattleEvent::Fled(e) => format!("{} flees the battle  [{}]", n.who(e.who), e.rule),
        BattleEvent::TurnEnded(e) => format!("{} ends the turn", n.who(e.who)),
        BattleEvent::RoundEnded(e) => format!("End of round {}", e.round),
        BattleEvent::Count(e) => count(n, e),
        BattleEvent::FallDeferred(e) => fall_deferred(n, e),
        BattleEvent::GroupActed(e) => group_acted(n, e),
        BattleEvent::BattleEnded(e) => battle_ended(n, e),
        BattleEvent::TargetChanged(e) => target_changed(n, e),
        BattleEvent::Grabbed(e) => grabbed(n, e),
        BattleEvent::Released(e) => released(n, e),
        BattleEvent::Disarmed(e) => disarmed(n, e),
        BattleEvent::Displaced(e) => displaced(n, e),
        BattleEvent::GearBroken(e) => gear_broken(n, e),
        BattleEvent::Mounted(e) => mounted(n, e),
        BattleEvent::Dismounted(e) => dismounted(n, e),
        BattleEvent::PickedUp(e) => picked_up(n, e),
        BattleEvent::Ruleset(e) => e.describe(n),
    }
}

fn battle_started(e: &event::BattleStarted) -> String {
    let event::BattleStarted {
        level,
        ruleset,
        seed,
    } = e;
    format!("Battle on {level} under {ruleset}, seed {seed}")
}

fn round_started(e: &event::RoundStarted) -> String {
    match e.round {
        0 => "=== Bonus round: only those lying in ambush act ===".to_string(),
        round => format!("=== Round {round} ==="),
    }
}

/// `Moved`: from where to where, how far, under which rule.
fn moved(n: &Names, e: &event::Moved) -> String {
    format!(
        "{} moves {} -> {} ({})  [{}]",
        n.who(e.who),
        e.from,
        e.path.last().copied().unwrap_or(e.from),
        how_far(e.cost_dm, e.zones, e.mode),
        e.rule
    )
}

fn move_interrupted(n: &Names, e: &event::MoveInterrupted) -> String {
    format!("{}'s movement ends at {}", n.who(e.who), e.at)
}

fn condition_added(n: &Names, e: &event::ConditionAdded) -> String {
    let name = e.condition.name();
    format!("{} is {name}  [{}]", n.who(e.who), e.rule)
}

fn condition_removed(n: &Names, e: &event::ConditionRemoved) -> String {
    let name = e.condition.name();
    format!("{} is no longer {name}  [{}]", n.who(e.who), e.rule)
}

fn drew(n: &Names, e: &event::Drew) -> String {
    let (weapon, cost, rule) = (&e.weapon, e.cost, e.rule);
    format!("{} draws the {weapon} ({cost})  [{rule}]", n.who(e.who))
}

/// `ReactionDeclined`: what the combatant forgoes, if it is named.
fn reaction_declined(n: &Names, e: &event::ReactionDeclined) -> String {
    if e.forgoes.is_empty() {
        format!("{} does not react", n.who(e.who))
    } else {
        format!("{} does not {}", n.who(e.who), e.forgoes)
    }
}

fn damage_rolled(n: &Names, e: &event::DamageRolled) -> String {
    let (total, rule) = (e.roll.total, e.rule);
    format!(
        "Damage to {}: {} = {total}  [{rule}]",
        n.who(e.target),
        dice_text(&e.roll)
    )
}

/// `Damaged`: the damage rolled, each step that changed it, then what the
/// buffer (EP) and the health (HP) lost, each with what is left.
fn damaged(n: &Names, e: &event::Damaged) -> String {
    // A blow the buffer took none of says nothing of EP ("EP -0").
    let ep = if e.ep_loss != 0 {
        format!("EP -{} (now {}), ", e.ep_loss, e.ep_after)
    } else {
        String::new()
    };
    // Nothing got through: say so, not "HP -0".
    let hp = if e.hp_loss == 0 {
        format!("no harm (HP {})", e.hp_after)
    } else {
        format!("HP -{} (now {})", e.hp_loss, e.hp_after)
    };
    format!(
        "{} takes {}{} -> {ep}{hp}  [{}]",
        n.who(e.target),
        e.rolled,
        mods_text(&e.steps),
        e.rule
    )
}

/// `Healed`: how much, from whom (unless the target healed itself).
fn healed(n: &Names, e: &event::Healed) -> String {
    let from = if e.by == e.target {
        String::new()
    } else {
        format!(" from {}", n.who(e.by))
    };
    format!(
        "{} recovers {} health{from} (now {})  [{}]",
        n.who(e.target),
        e.gained,
        e.hp_after,
        e.rule
    )
}

/// `Count`: each score of the count with the groups that act on it.
fn count(n: &Names, e: &event::Count) -> String {
    let ranks: Vec<String> = e
        .ranks
        .iter()
        .map(|(score, order)| format!("{score} ({})", groups(n, order)))
        .collect();
    format!("The count: {}  [{}]", ranks.join(", "), e.rule)
}

fn fall_deferred(n: &Names, e: &event::FallDeferred) -> String {
    format!(
        "{} falls once the simultaneous group has acted  [{}]",
        n.who(e.who),
        e.rule
    )
}

/// `GroupActed`: who falls now that the simultaneous group has acted.
fn group_acted(n: &Names, e: &event::GroupActed) -> String {
    let rule = e.rule;
    if e.falls.is_empty() {
        format!("The simultaneous group has acted: nobody falls  [{rule}]")
    } else {
        format!(
            "The simultaneous group has acted: {} falls  [{rule}]",
            names(n, &e.falls)
        )
    }
}

/// `BattleEnded`: the winner (or a draw) and why.
fn battle_ended(n: &Names, e: &event::BattleEnded) -> String {
    let why = end_reason(&e.reason);
    match e.winner {
        Some(f) => format!("Battle over: {} wins ({why})", n.faction(f)),
        None => format!("Battle over: a draw ({why})"),
    }
}

/// `TargetChanged`: who is struck instead, and whether they swap places.
fn target_changed(n: &Names, e: &event::TargetChanged) -> String {
    format!(
        "{} becomes the target instead of {}{}  [{}]",
        n.who(e.to),
        n.who(e.from),
        if e.swapped {
            ", and they swap places"
        } else {
            ""
        },
        e.rule
    )
}

fn grabbed(n: &Names, e: &event::Grabbed) -> String {
    format!("{} grabs {}  [{}]", n.who(e.by), n.who(e.who), e.rule)
}

fn released(n: &Names, e: &event::Released) -> String {
    format!(
        "{} is free of {}'s grip  [{}]",
        n.who(e.who),
        n.who(e.by),
        e.rule
    )
}

/// `Disarmed`: the weapon dropped, and who took it if anyone did.
fn disarmed(n: &Names, e: &event::Disarmed) -> String {
    format!(
        "{} drops the {}{}  [{}]",
        n.who(e.who),
        e.weapon,
        match e.taken_by {
            Some((t, _)) => format!(", and {} takes it", n.who(t)),
            None => " on the ground".to_string(),
        },
        e.rule
    )
}

/// `Displaced`: moved by someone else, to where.
fn displaced(n: &Names, e: &event::Displaced) -> String {
    format!(
        "{} is moved by {} to ({}, {})  [{}]",
        n.who(e.who),
        n.who(e.by),
        e.to.x,
        e.to.y,
        e.rule
    )
}

fn gear_broken(n: &Names, e: &event::GearBroken) -> String {
    format!("{}'s {} breaks!  [{}]", n.who(e.who), e.item, e.rule)
}

fn mounted(n: &Names, e: &event::Mounted) -> String {
    format!("{} gets on {}  [{}]", n.who(e.who), n.who(e.mount), e.rule)
}

/// `Dismounted`: getting off (or being thrown from) a mount, and where to.
fn dismounted(n: &Names, e: &event::Dismounted) -> String {
    format!(
        "{} {} {} to ({}, {})  [{}]",
        n.who(e.who),
        if e.thrown {
            "is thrown from"
        } else {
            "gets off"
        },
        n.who(e.mount),
        e.to.x,
        e.to.y,
        e.rule
    )
}

fn picked_up(n: &Names, e: &event::PickedUp) -> String {
    format!("{} picks up the {}  [{}]", n.who(e.who), e.weapon, e.rule)
}

/// How far a move went: metres (and the kind of movement, where the
/// ruleset has kinds), zone borders crossed, or "within the zone".
fn how_far(cost_dm: u32, zones: u32, mode: MoveMode) -> String {
    // A ruleset without kinds of movement (brp) moves with `None`.
    if cost_dm > 0 && mode == MoveMode::None {
        format!("{:.1} m", cost_dm as f64 / 10.0)
    } else if cost_dm > 0 {
        format!("{:.1} m, {}", cost_dm as f64 / 10.0, mode_text(mode))
    } else if zones > 0 {
        format!("{zones} zone{}", if zones == 1 { "" } else { "s" })
    } else {
        "within the zone".to_string()
    }
}

/// Words as a choice: "parry", "parry or dodge", "dodge, counter or guard".
pub fn either(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// An event's line in the player's log: the story without the arithmetic
/// ("Red spearman loses 5 HP (4 left)"), where the rules log's line
/// ([`describe`]) has more; none: that line, without its rule. The full
/// line stays a hover away.
pub fn plain(n: &Names, e: &BattleEvent) -> Option<String> {
    match e {
        BattleEvent::DamageRolled(event::DamageRolled { target, roll, .. }) => {
            Some(format!("Damage to {}: {}", n.who(*target), roll.total))
        }
        BattleEvent::Damaged(event::Damaged {
            target,
            ep_loss,
            hp_loss,
            hp_after,
            ep_after,
            ..
        }) => {
            let who = n.who(*target);
            Some(match (*hp_loss, *ep_loss) {
                (0, 0) => format!("{who} comes to no harm (HP {hp_after})"),
                (0, ep) => format!("{who} loses {ep} EP (EP {ep_after} left)"),
                (hp, 0) => format!("{who} loses {hp} HP ({hp_after} left)"),
                (hp, ep) => format!("{who} loses {hp} HP and {ep} EP ({hp_after} HP left)"),
            })
        }
        BattleEvent::MoveInterrupted(event::MoveInterrupted { who, .. }) => {
            Some(format!("{}'s movement ends there", n.who(*who)))
        }
        BattleEvent::Ruleset(own) => own.plain(n),
        _ => None,
    }
}

/// Why a battle ended, in words.
pub fn end_reason(reason: &EndReason) -> String {
    match reason {
        EndReason::LastStanding => "the last faction standing".to_string(),
        EndReason::NoneStanding => "nobody is left standing".to_string(),
        EndReason::Survived { rounds } => format!("survived {rounds} rounds"),
        EndReason::HeldZone { zone, rounds } => format!("held {zone} for {rounds} rounds"),
        EndReason::RoundLimit { rounds } => format!("the round limit ({rounds})"),
    }
}

/// A list of combatants' names.
pub fn names(n: &Names, cids: &[Cid]) -> String {
    cids.iter()
        .map(|c| n.who(*c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Groups in order, the members of one group joined: `A = B, C`.
pub fn groups(n: &Names, order: &[Vec<Cid>]) -> String {
    order
        .iter()
        .map(|g| g.iter().map(|c| n.who(*c)).collect::<Vec<_>>().join(" = "))
        .collect::<Vec<_>>()
        .join(", ")
}
