//! Readable text for battle events: the `fray log` output and the game's
//! combat log. Every roll shows its dice, each modifier by name, the target
//! number and the rule.

use std::fmt::Write;

use crate::rules::components::{Cid, MoveMode};
use crate::rules::dice::DiceRoll;
use crate::rules::event::{BattleEvent, EndReason, Modifier, Rule};
use crate::rules::map::Cell;
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

/// One line (or a few) describing an event: the battle's frame (its start
/// and end, rounds, turns, the count) here, a change to state the core owns
/// in [`describe_change`], a ruleset's own event by the ruleset.
pub fn describe(n: &Names, e: &BattleEvent) -> String {
    match e {
        BattleEvent::BattleStarted {
            level,
            ruleset,
            seed,
        } => format!("Battle on {level} under {ruleset}, seed {seed}"),
        BattleEvent::RoundStarted { round: 0 } => {
            "=== Bonus round: only those lying in ambush act ===".to_string()
        }
        BattleEvent::RoundStarted { round } => format!("=== Round {round} ==="),
        BattleEvent::TurnOrder { order } => format!("Turn order: {}", names(n, order)),
        BattleEvent::TurnStarted { who } => format!("-- {}'s turn --", n.who(*who)),
        BattleEvent::TurnEnded { who } => format!("{} ends the turn", n.who(*who)),
        BattleEvent::RoundEnded { round } => format!("End of round {round}"),
        BattleEvent::Count { ranks, rule } => describe_count(n, ranks, rule),
        BattleEvent::FallDeferred { who, rule } => format!(
            "{} falls once the simultaneous group has acted  [{rule}]",
            n.who(*who)
        ),
        BattleEvent::GroupActed { falls, rule } => describe_group_acted(n, falls, rule),
        BattleEvent::BattleEnded { winner, reason } => describe_battle_ended(n, *winner, reason),
        BattleEvent::Ruleset(e) => e.describe(n),
        change => describe_change(n, change),
    }
}

/// A change to state the core owns (place, conditions, health; holds, gear
/// and riders in [`describe_gear`]): the rest of [`describe`].
fn describe_change(n: &Names, e: &BattleEvent) -> String {
    match e {
        BattleEvent::Moved {
            who,
            from,
            path,
            cost_dm,
            zones,
            mode,
            rule,
        } => describe_moved(
            n,
            *who,
            *from,
            path,
            &how_far(*cost_dm, *zones, *mode),
            rule,
        ),
        BattleEvent::MoveInterrupted { who, at } => {
            format!("{}'s movement ends at {at}", n.who(*who))
        }
        BattleEvent::ConditionAdded {
            who,
            condition,
            rule,
        } => format!("{} is {}  [{rule}]", n.who(*who), condition.name()),
        BattleEvent::ConditionRemoved {
            who,
            condition,
            rule,
        } => format!(
            "{} is no longer {}  [{rule}]",
            n.who(*who),
            condition.name()
        ),
        BattleEvent::ReactionDeclined { who, forgoes } => {
            describe_reaction_declined(n, *who, forgoes)
        }
        BattleEvent::DamageRolled { target, roll, rule } => {
            let total = roll.total;
            format!(
                "Damage to {}: {} = {total}  [{rule}]",
                n.who(*target),
                dice_text(roll)
            )
        }
        BattleEvent::Damaged {
            target,
            rolled,
            steps,
            ep_loss,
            hp_loss,
            hp_after,
            ep_after,
            rule,
            ..
        } => {
            let (ep, hp) = ((*ep_loss, *ep_after), (*hp_loss, *hp_after));
            describe_damaged(n, *target, *rolled, steps, ep, hp, rule)
        }
        BattleEvent::Healed {
            target,
            by,
            gained,
            hp_after,
            rule,
        } => describe_healed(n, *target, *by, *gained, *hp_after, rule),
        BattleEvent::Fled { who, rule } => format!("{} flees the battle  [{rule}]", n.who(*who)),
        gear => describe_gear(n, gear),
    }
}

/// Holds, gear and riders (who holds whom, what is drawn, dropped, broken
/// or picked up, who rides what): the rest of [`describe_change`].
fn describe_gear(n: &Names, e: &BattleEvent) -> String {
    match e {
        BattleEvent::Drew {
            who,
            weapon,
            cost,
            rule,
            ..
        } => format!("{} draws the {weapon} ({cost})  [{rule}]", n.who(*who)),
        BattleEvent::TargetChanged {
            from,
            to,
            swapped,
            rule,
            ..
        } => describe_target_changed(n, *from, *to, *swapped, rule),
        BattleEvent::Grabbed { by, who, rule } => {
            format!("{} grabs {}  [{rule}]", n.who(*by), n.who(*who))
        }
        BattleEvent::Released { by, who, rule } => {
            format!("{} is free of {}'s grip  [{rule}]", n.who(*who), n.who(*by))
        }
        BattleEvent::Disarmed {
            who,
            weapon,
            taken_by,
            rule,
            ..
        } => describe_disarmed(n, *who, weapon, *taken_by, rule),
        BattleEvent::Displaced {
            who, by, to, rule, ..
        } => describe_displaced(n, *who, *by, *to, rule),
        BattleEvent::GearBroken {
            who, item, rule, ..
        } => format!("{}'s {item} breaks!  [{rule}]", n.who(*who)),
        BattleEvent::Mounted { who, mount, rule } => {
            format!("{} gets on {}  [{rule}]", n.who(*who), n.who(*mount))
        }
        BattleEvent::Dismounted {
            who,
            mount,
            to,
            thrown,
            rule,
        } => describe_dismounted(n, *who, *mount, *to, *thrown, rule),
        BattleEvent::PickedUp {
            who, weapon, rule, ..
        } => format!("{} picks up the {weapon}  [{rule}]", n.who(*who)),
        other => unreachable!("describe and describe_change narrate {other:?}"),
    }
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

/// `Moved`: from where to where, how far, under which rule.
fn describe_moved(
    n: &Names,
    who: Cid,
    from: Cell,
    path: &[Cell],
    how_far: &str,
    rule: Rule,
) -> String {
    format!(
        "{} moves {} -> {} ({how_far})  [{rule}]",
        n.who(who),
        from,
        path.last().copied().unwrap_or(from),
    )
}

/// `ReactionDeclined`: what the combatant forgoes, if it is named.
fn describe_reaction_declined(n: &Names, who: Cid, forgoes: &str) -> String {
    if forgoes.is_empty() {
        format!("{} does not react", n.who(who))
    } else {
        format!("{} does not {forgoes}", n.who(who))
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
        BattleEvent::DamageRolled { target, roll, .. } => {
            Some(format!("Damage to {}: {}", n.who(*target), roll.total))
        }
        BattleEvent::Damaged {
            target,
            ep_loss,
            hp_loss,
            hp_after,
            ep_after,
            ..
        } => {
            let who = n.who(*target);
            Some(match (*hp_loss, *ep_loss) {
                (0, 0) => format!("{who} comes to no harm (HP {hp_after})"),
                (0, ep) => format!("{who} loses {ep} EP (EP {ep_after} left)"),
                (hp, 0) => format!("{who} loses {hp} HP ({hp_after} left)"),
                (hp, ep) => format!("{who} loses {hp} HP and {ep} EP ({hp_after} HP left)"),
            })
        }
        BattleEvent::MoveInterrupted { who, .. } => {
            Some(format!("{}'s movement ends there", n.who(*who)))
        }
        BattleEvent::Ruleset(own) => own.plain(n),
        _ => None,
    }
}

/// `Damaged`: the damage rolled, each step that changed it, then what the
/// buffer (`ep`) and the health (`hp`) lost, each as (loss, what is left).
fn describe_damaged(
    n: &Names,
    target: Cid,
    rolled: i32,
    steps: &[Modifier],
    (ep_loss, ep_after): (i32, i32),
    (hp_loss, hp_after): (i32, i32),
    rule: Rule,
) -> String {
    // A blow the buffer took none of says nothing of EP ("EP -0").
    let ep = if ep_loss != 0 {
        format!("EP -{ep_loss} (now {ep_after}), ")
    } else {
        String::new()
    };
    // Nothing got through: say so, not "HP -0".
    let hp = if hp_loss == 0 {
        format!("no harm (HP {hp_after})")
    } else {
        format!("HP -{hp_loss} (now {hp_after})")
    };
    format!(
        "{} takes {rolled}{} -> {ep}{hp}  [{rule}]",
        n.who(target),
        mods_text(steps)
    )
}

/// `Healed`: how much, from whom (unless the target healed itself).
fn describe_healed(
    n: &Names,
    target: Cid,
    by: Cid,
    gained: i32,
    hp_after: i32,
    rule: Rule,
) -> String {
    let from = if by == target {
        String::new()
    } else {
        format!(" from {}", n.who(by))
    };
    format!(
        "{} recovers {gained} health{from} (now {hp_after})  [{rule}]",
        n.who(target)
    )
}

/// `Count`: each score of the count with the groups that act on it.
fn describe_count(n: &Names, ranks: &[(i32, Vec<Vec<Cid>>)], rule: Rule) -> String {
    let ranks: Vec<String> = ranks
        .iter()
        .map(|(score, order)| format!("{score} ({})", groups(n, order)))
        .collect();
    format!("The count: {}  [{rule}]", ranks.join(", "))
}

/// `GroupActed`: who falls now that the simultaneous group has acted.
fn describe_group_acted(n: &Names, falls: &[Cid], rule: Rule) -> String {
    if falls.is_empty() {
        format!("The simultaneous group has acted: nobody falls  [{rule}]")
    } else {
        format!(
            "The simultaneous group has acted: {} falls  [{rule}]",
            names(n, falls)
        )
    }
}

/// `TargetChanged`: who is struck instead, and whether they swap places.
fn describe_target_changed(n: &Names, from: Cid, to: Cid, swapped: bool, rule: Rule) -> String {
    format!(
        "{} becomes the target instead of {}{}  [{rule}]",
        n.who(to),
        n.who(from),
        if swapped {
            ", and they swap places"
        } else {
            ""
        }
    )
}

/// `Disarmed`: the weapon dropped, and who took it if anyone did.
fn describe_disarmed(
    n: &Names,
    who: Cid,
    weapon: &str,
    taken_by: Option<(Cid, usize)>,
    rule: Rule,
) -> String {
    format!(
        "{} drops the {weapon}{}  [{rule}]",
        n.who(who),
        match taken_by {
            Some((t, _)) => format!(", and {} takes it", n.who(t)),
            None => " on the ground".to_string(),
        }
    )
}

/// `Displaced`: moved by someone else, to where.
fn describe_displaced(n: &Names, who: Cid, by: Cid, to: Cell, rule: Rule) -> String {
    format!(
        "{} is moved by {} to ({}, {})  [{rule}]",
        n.who(who),
        n.who(by),
        to.x,
        to.y
    )
}

/// `Dismounted`: getting off (or being thrown from) a mount, and where to.
fn describe_dismounted(
    n: &Names,
    who: Cid,
    mount: Cid,
    to: Cell,
    thrown: bool,
    rule: Rule,
) -> String {
    format!(
        "{} {} {} to ({}, {})  [{rule}]",
        n.who(who),
        if thrown { "is thrown from" } else { "gets off" },
        n.who(mount),
        to.x,
        to.y
    )
}

/// `BattleEnded`: the winner (or a draw) and why.
fn describe_battle_ended(n: &Names, winner: Option<u8>, reason: &EndReason) -> String {
    let why = end_reason(reason);
    match winner {
        Some(f) => format!("Battle over: {} wins ({why})", n.faction(f)),
        None => format!("Battle over: a draw ({why})"),
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
