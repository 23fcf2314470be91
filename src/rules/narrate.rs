//! Readable text for battle events: the `fray log` output and the game's
//! combat log. Every roll shows its dice, each modifier by name, the target
//! number and the rule.

use std::fmt::Write;

use crate::rules::components::{Cid, MoveMode};
use crate::rules::dice::DiceRoll;
use crate::rules::event::{BattleEvent, EndReason, Modifier};
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

/// One line (or a few) describing an event.
pub fn describe(n: &Names, e: &BattleEvent) -> String {
    match e {
        BattleEvent::BattleStarted { .. } => describe_battle_started(n, e),
        BattleEvent::RoundStarted { round: 0 } => {
            "=== Bonus round: only those lying in ambush act ===".to_string()
        }
        BattleEvent::RoundStarted { round } => format!("=== Round {round} ==="),
        BattleEvent::TurnOrder { .. } => describe_turn_order(n, e),
        BattleEvent::TurnStarted { .. } => describe_turn_started(n, e),
        BattleEvent::Moved { .. } => describe_moved(n, e),
        BattleEvent::MoveInterrupted { .. } => describe_move_interrupted(n, e),
        BattleEvent::ConditionAdded { .. } => describe_condition_added(n, e),
        BattleEvent::ConditionRemoved { .. } => describe_condition_removed(n, e),
        BattleEvent::Drew { .. } => describe_drew(n, e),
        BattleEvent::ReactionDeclined { .. } => describe_reaction_declined(n, e),
        BattleEvent::DamageRolled { .. } => describe_damage_rolled(n, e),
        BattleEvent::Damaged { .. } => describe_damaged(n, e),
        BattleEvent::Healed { .. } => describe_healed(n, e),
        BattleEvent::Fled { .. } => describe_fled(n, e),
        BattleEvent::TurnEnded { .. } => describe_turn_ended(n, e),
        BattleEvent::RoundEnded { .. } => describe_round_ended(n, e),
        BattleEvent::Count { ranks, rule } => {
            let ranks: Vec<String> = ranks
                .iter()
                .map(|(score, order)| format!("{score} ({})", groups(n, order)))
                .collect();
            format!("The count: {}  [{rule}]", ranks.join(", "))
        }
        BattleEvent::FallDeferred { who, rule } => format!(
            "{} falls once the simultaneous group has acted  [{rule}]",
            n.who(*who)
        ),
        BattleEvent::GroupActed { falls, rule } => {
            if falls.is_empty() {
                format!("The simultaneous group has acted: nobody falls  [{rule}]")
            } else {
                format!(
                    "The simultaneous group has acted: {} falls  [{rule}]",
                    names(n, falls)
                )
            }
        }
        BattleEvent::TargetChanged { .. } => describe_target_changed(n, e),
        BattleEvent::Grabbed { .. } => describe_grabbed(n, e),
        BattleEvent::Released { .. } => describe_released(n, e),
        BattleEvent::Disarmed { .. } => describe_disarmed(n, e),
        BattleEvent::Displaced { .. } => describe_displaced(n, e),
        BattleEvent::GearBroken { .. } => describe_gear_broken(n, e),
        BattleEvent::Mounted { .. } => describe_mounted(n, e),
        BattleEvent::Dismounted { .. } => describe_dismounted(n, e),
        BattleEvent::PickedUp { .. } => describe_picked_up(n, e),
        BattleEvent::BattleEnded { .. } => describe_battle_ended(n, e),
        BattleEvent::Ruleset(e) => e.describe(n),
    }
}

fn describe_battle_started(_n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::BattleStarted {
        level,
        ruleset,
        seed,
    } = e
    else {
        return String::new();
    };
    format!("Battle on {level} under {ruleset}, seed {seed}")
}

fn describe_turn_order(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::TurnOrder { order } = e else {
        return String::new();
    };
    format!("Turn order: {}", names(n, order))
}

fn describe_turn_started(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::TurnStarted { who } = e else {
        return String::new();
    };
    format!("-- {}'s turn --", n.who(*who))
}

fn describe_moved(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Moved {
        who,
        from,
        path,
        cost_dm,
        zones,
        mode,
        rule,
    } = e
    else {
        return String::new();
    };
    // A ruleset without kinds of movement (brp) moves with `None`.
    let how_far = if *cost_dm > 0 && *mode == MoveMode::None {
        format!("{:.1} m", *cost_dm as f64 / 10.0)
    } else if *cost_dm > 0 {
        format!("{:.1} m, {}", *cost_dm as f64 / 10.0, mode_text(*mode))
    } else if *zones > 0 {
        format!("{zones} zone{}", if *zones == 1 { "" } else { "s" })
    } else {
        "within the zone".to_string()
    };
    format!(
        "{} moves {} -> {} ({how_far})  [{rule}]",
        n.who(*who),
        from,
        path.last().copied().unwrap_or(*from),
    )
}

fn describe_move_interrupted(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::MoveInterrupted { who, at } = e else {
        return String::new();
    };
    format!("{}'s movement ends at {at}", n.who(*who))
}

fn describe_condition_added(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::ConditionAdded {
        who,
        condition,
        rule,
    } = e
    else {
        return String::new();
    };
    format!("{} is {}  [{rule}]", n.who(*who), condition.name())
}

fn describe_condition_removed(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::ConditionRemoved {
        who,
        condition,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} is no longer {}  [{rule}]",
        n.who(*who),
        condition.name()
    )
}

fn describe_drew(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Drew {
        who,
        weapon,
        cost,
        rule,
        ..
    } = e
    else {
        return String::new();
    };
    format!("{} draws the {weapon} ({cost})  [{rule}]", n.who(*who))
}

fn describe_reaction_declined(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::ReactionDeclined { who, forgoes } = e else {
        return String::new();
    };
    if forgoes.is_empty() {
        format!("{} does not react", n.who(*who))
    } else {
        format!("{} does not {forgoes}", n.who(*who))
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

fn describe_damage_rolled(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::DamageRolled { target, roll, rule } = e else {
        return String::new();
    };
    format!(
        "Damage to {}: {} = {}  [{rule}]",
        n.who(*target),
        dice_text(roll),
        roll.total
    )
}

fn describe_damaged(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Damaged {
        target,
        rolled,
        steps,
        ep_loss,
        hp_loss,
        hp_after,
        ep_after,
        rule,
        ..
    } = e
    else {
        return String::new();
    };
    // A blow the buffer took none of says nothing of EP ("EP -0").
    let ep = if *ep_loss != 0 {
        format!("EP -{ep_loss} (now {ep_after}), ")
    } else {
        String::new()
    };
    // Nothing got through: say so, not "HP -0".
    let hp = if *hp_loss == 0 {
        format!("no harm (HP {hp_after})")
    } else {
        format!("HP -{hp_loss} (now {hp_after})")
    };
    format!(
        "{} takes {rolled}{} -> {ep}{hp}  [{rule}]",
        n.who(*target),
        mods_text(steps)
    )
}

fn describe_healed(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Healed {
        target,
        by,
        gained,
        hp_after,
        rule,
    } = e
    else {
        return String::new();
    };
    let from = if by == target {
        String::new()
    } else {
        format!(" from {}", n.who(*by))
    };
    format!(
        "{} recovers {gained} health{from} (now {hp_after})  [{rule}]",
        n.who(*target)
    )
}

fn describe_fled(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Fled { who, rule } = e else {
        return String::new();
    };
    format!("{} flees the battle  [{rule}]", n.who(*who))
}

fn describe_turn_ended(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::TurnEnded { who } = e else {
        return String::new();
    };
    format!("{} ends the turn", n.who(*who))
}

fn describe_round_ended(_n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::RoundEnded { round } = e else {
        return String::new();
    };
    format!("End of round {round}")
}

fn describe_target_changed(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::TargetChanged {
        from,
        to,
        swapped,
        rule,
        ..
    } = e
    else {
        return String::new();
    };
    format!(
        "{} becomes the target instead of {}{}  [{rule}]",
        n.who(*to),
        n.who(*from),
        if *swapped {
            ", and they swap places"
        } else {
            ""
        }
    )
}

fn describe_grabbed(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Grabbed { by, who, rule } = e else {
        return String::new();
    };
    format!("{} grabs {}  [{rule}]", n.who(*by), n.who(*who))
}

fn describe_released(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Released { by, who, rule } = e else {
        return String::new();
    };
    format!("{} is free of {}'s grip  [{rule}]", n.who(*who), n.who(*by))
}

fn describe_disarmed(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Disarmed {
        who,
        weapon,
        taken_by,
        rule,
        ..
    } = e
    else {
        return String::new();
    };
    format!(
        "{} drops the {weapon}{}  [{rule}]",
        n.who(*who),
        match taken_by {
            Some((t, _)) => format!(", and {} takes it", n.who(*t)),
            None => " on the ground".to_string(),
        }
    )
}

fn describe_displaced(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Displaced {
        who, by, to, rule, ..
    } = e
    else {
        return String::new();
    };
    format!(
        "{} is moved by {} to ({}, {})  [{rule}]",
        n.who(*who),
        n.who(*by),
        to.x,
        to.y
    )
}

fn describe_gear_broken(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::GearBroken {
        who, item, rule, ..
    } = e
    else {
        return String::new();
    };
    format!("{}'s {item} breaks!  [{rule}]", n.who(*who))
}

fn describe_mounted(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Mounted { who, mount, rule } = e else {
        return String::new();
    };
    format!("{} gets on {}  [{rule}]", n.who(*who), n.who(*mount))
}

fn describe_dismounted(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::Dismounted {
        who,
        mount,
        to,
        thrown,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} {} {} to ({}, {})  [{rule}]",
        n.who(*who),
        if *thrown {
            "is thrown from"
        } else {
            "gets off"
        },
        n.who(*mount),
        to.x,
        to.y
    )
}

fn describe_picked_up(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::PickedUp {
        who, weapon, rule, ..
    } = e
    else {
        return String::new();
    };
    format!("{} picks up the {weapon}  [{rule}]", n.who(*who))
}

fn describe_battle_ended(n: &Names, e: &BattleEvent) -> String {
    let BattleEvent::BattleEnded { winner, reason } = e else {
        return String::new();
    };
    let why = end_reason(reason);
    match winner {
        Some(f) => format!("Battle over: {} wins ({why})", n.faction(*f)),
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
