//! Readable text for battle events: the `fray log` output and the game's
//! combat log. Every roll shows its dice, each modifier by name, the target
//! number and the rule.

use std::fmt::Write;

use crate::rules::battle::{Factions, Roster};
use crate::rules::components::{Cid, MoveMode};
use crate::rules::dice::DiceRoll;
use crate::rules::event::{BattleEvent, EndReason, GearOutcome, Modifier};

/// What narration needs to name things.
pub struct Names<'a> {
    pub roster: &'a Roster,
    pub factions: &'a Factions,
}

impl Names<'_> {
    fn who(&self, c: Cid) -> &str {
        self.roster.name(c)
    }
    fn faction(&self, f: u8) -> &str {
        self.factions
            .0
            .get(f as usize)
            .map_or("?", |f| f.name.as_str())
    }
}

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

fn defense_text(parts: &[Modifier]) -> String {
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
        BattleEvent::BattleStarted {
            level,
            ruleset,
            seed,
        } => format!("Battle on {level} under {ruleset}, seed {seed}"),
        BattleEvent::RoundStarted { round: 0 } => {
            "=== Bonus round: only those lying in ambush act ===".to_string()
        }
        BattleEvent::RoundStarted { round } => format!("=== Round {round} ==="),
        BattleEvent::InitiativeRolled {
            who,
            roll,
            modifiers,
            total,
            rule,
        } => format!(
            "Initiative: {} rolls {}{} = {total}  [{rule}]",
            n.who(*who),
            dice_text(roll),
            mods_text(modifiers)
        ),
        BattleEvent::TieBroken {
            between,
            order,
            rule,
        } => format!(
            "Initiative tie between {} broken by a roll-off: {}  [{rule}]",
            names(n, between),
            names(n, order)
        ),
        BattleEvent::TurnOrder { order } => format!("Turn order: {}", names(n, order)),
        BattleEvent::TurnStarted { who } => format!("-- {}'s turn --", n.who(*who)),
        BattleEvent::Moved {
            who,
            from,
            path,
            cost_dm,
            zones,
            mode,
            rule,
        } => {
            let how_far = if *cost_dm > 0 {
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
        BattleEvent::Drew {
            who,
            weapon,
            as_movement,
            rule,
            ..
        } => format!(
            "{} draws the {weapon}{}  [{rule}]",
            n.who(*who),
            if *as_movement { " (as movement)" } else { "" }
        ),
        BattleEvent::Reloaded {
            who,
            weapon,
            loaded,
            rule,
            ..
        } => format!(
            "{} reloads the {weapon} ({loaded} loaded)  [{rule}]",
            n.who(*who)
        ),
        BattleEvent::Aimed {
            who,
            target,
            rounds,
            rule,
        } => format!(
            "{} takes aim at {} ({rounds} round{})  [{rule}]",
            n.who(*who),
            n.who(*target),
            if *rounds == 1 { "" } else { "s" }
        ),
        BattleEvent::AttackRolled {
            attacker,
            target,
            weapon,
            mode,
            roll,
            modifiers,
            total,
            defense,
            defense_parts,
            hit,
            free,
            rule,
            ..
        } => format!(
            "{}{} attacks {} with the {weapon}{}: {}{} = {total} vs Defense {defense} = {} -> {}  [{rule}]",
            if *free { "Free attack: " } else { "" },
            n.who(*attacker),
            n.who(*target),
            if mode != "single" {
                format!(" ({mode})")
            } else {
                String::new()
            },
            dice_text(roll),
            mods_text(modifiers),
            defense_text(defense_parts),
            if *hit { "HIT" } else { "miss" }
        ),
        BattleEvent::ReactionRolled {
            who,
            kind,
            roll,
            modifiers,
            total,
            against,
            success,
            rule,
        } => format!(
            "{} tries to {}: {}{} = {total} vs attack {against} -> {}  [{rule}]",
            n.who(*who),
            kind.name(),
            dice_text(roll),
            mods_text(modifiers),
            if *success {
                "the attack does not go through"
            } else {
                "fails"
            }
        ),
        BattleEvent::ReactionDeclined { who } => {
            format!("{} does not react", n.who(*who))
        }
        BattleEvent::HitLocation {
            target,
            die,
            zone,
            rule,
        } => format!(
            "Hit location on {}: d10 [{die}] -> {}  [{rule}]",
            n.who(*target),
            zone.name()
        ),
        BattleEvent::DamageRolled { target, roll, rule } => format!(
            "Damage to {}: {} = {}  [{rule}]",
            n.who(*target),
            dice_text(roll),
            roll.total
        ),
        BattleEvent::Damaged {
            target,
            rolled,
            steps,
            ep_loss,
            hp_loss,
            hp_after,
            ep_after,
            rule,
        } => {
            let ep = if *ep_loss != 0 || *ep_after != 0 {
                format!("EP -{ep_loss} (now {ep_after}), ")
            } else {
                String::new()
            };
            format!(
                "{} takes {rolled}{} -> {ep}HP -{hp_loss} (now {hp_after})  [{rule}]",
                n.who(*target),
                mods_text(steps)
            )
        }
        BattleEvent::Fled { who, rule } => format!("{} flees the battle  [{rule}]", n.who(*who)),
        BattleEvent::TurnEnded { who } => format!("{} ends the turn", n.who(*who)),
        BattleEvent::RoundEnded { round } => format!("End of round {round}"),
        BattleEvent::InitiativeHeld {
            faction,
            roll,
            rule,
        } => match roll {
            Some(r) => format!(
                "{} holds the initiative (rolled {})  [{rule}]",
                n.faction(*faction),
                dice_text(r)
            ),
            None => format!(
                "{} started the fight and holds the initiative  [{rule}]",
                n.faction(*faction)
            ),
        },
        BattleEvent::FirstTurnGiven { by, to, rule } => format!(
            "{} lets {} act first  [{rule}]",
            n.faction(*by),
            n.faction(*to)
        ),
        BattleEvent::Activated { faction, who, rule } => format!(
            "{} take their turn with {}  [{rule}]",
            n.faction(*faction),
            n.who(*who)
        ),
        BattleEvent::Passed {
            faction,
            forced,
            rule,
        } => format!(
            "{} {}  [{rule}]",
            n.faction(*faction),
            if *forced {
                "must pass: nobody left to take a turn"
            } else {
                "pass"
            }
        ),
        BattleEvent::SaveRolled {
            who,
            attribute,
            roll,
            target,
            pass,
            purpose,
            rule,
        } => format!(
            "{} makes {} {attribute} save {purpose}: {} = {} vs {attribute} {target} -> {}  [{rule}]",
            n.who(*who),
            if attribute.starts_with(['A', 'E', 'I', 'O', 'U']) {
                "an"
            } else {
                "a"
            },
            dice_text(roll),
            roll.total,
            if *pass { "pass" } else { "FAIL" }
        ),
        BattleEvent::AttackMade {
            attacker,
            target,
            weapon,
            mode,
            reaction,
            rule,
            ..
        } => format!(
            "{} {} {} with the {weapon}{}  [{rule}]",
            n.who(*attacker),
            if *reaction { "strikes at" } else { "attacks" },
            n.who(*target),
            if mode != "strike" {
                format!(" ({mode})")
            } else {
                String::new()
            }
        ),
        BattleEvent::AttackMissed {
            attacker,
            target,
            rule,
        } => format!(
            "{}'s attack misses {}  [{rule}]",
            n.who(*attacker),
            n.who(*target)
        ),
        BattleEvent::ReactionTaken {
            who,
            kind,
            against,
            rule,
        } => format!(
            "{} reacts to {}: {}  [{rule}]",
            n.who(*who),
            n.who(*against),
            kind.name()
        ),
        BattleEvent::TargetChanged {
            from,
            to,
            swapped,
            rule,
            ..
        } => format!(
            "{} becomes the target instead of {}{}  [{rule}]",
            n.who(*to),
            n.who(*from),
            if *swapped {
                ", and they swap places"
            } else {
                ""
            }
        ),
        BattleEvent::ManeuverMade {
            attacker,
            target,
            kind,
            reaction,
            rule,
        } => format!(
            "{} {}tries to {kind} {}  [{rule}]",
            n.who(*attacker),
            if *reaction { "strikes back: " } else { "" },
            n.who(*target)
        ),
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
        } => format!(
            "{} drops the {weapon}{}  [{rule}]",
            n.who(*who),
            match taken_by {
                Some((t, _)) => format!(", and {} takes it", n.who(*t)),
                None => " on the ground".to_string(),
            }
        ),
        BattleEvent::Displaced {
            who, by, to, rule, ..
        } => format!(
            "{} is moved by {} to ({}, {})  [{rule}]",
            n.who(*who),
            n.who(*by),
            to.x,
            to.y
        ),
        BattleEvent::BlastHits {
            attacker,
            zone,
            deviated,
            targets,
            rule,
        } => format!(
            "{}'s blast {}hits {zone}: {}  [{rule}]",
            n.who(*attacker),
            match deviated {
                Some(r) => format!("goes astray ({} = {}) and ", dice_text(r), r.total),
                None => String::new(),
            },
            if targets.is_empty() {
                "nobody".to_string()
            } else {
                targets
                    .iter()
                    .map(|t| n.who(*t))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        BattleEvent::GearRolled {
            who,
            item,
            roll,
            outcome,
            rule,
        } => format!(
            "After the fight, {}'s {item}: durability {} = {} -> {}  [{rule}]",
            n.who(*who),
            dice_text(roll),
            roll.total,
            match outcome {
                GearOutcome::Fine => "fine",
                GearOutcome::Damaged => "DAMAGED",
                GearOutcome::Destroyed => "DESTROYED",
            }
        ),
        BattleEvent::GearBroken {
            who, item, rule, ..
        } => {
            format!("{}'s {item} breaks!  [{rule}]", n.who(*who))
        }
        BattleEvent::StuntProposed {
            attacker,
            target,
            effect,
            rule,
        } => format!(
            "{} offers {} a way out instead of the blow: {effect}  [{rule}]",
            n.who(*attacker),
            n.who(*target)
        ),
        BattleEvent::StuntAccepted { who, effect, rule } => {
            format!("{} accepts: {effect}  [{rule}]", n.who(*who))
        }
        BattleEvent::Mounted { who, mount, rule } => {
            format!("{} gets on {}  [{rule}]", n.who(*who), n.who(*mount))
        }
        BattleEvent::Dismounted {
            who,
            mount,
            to,
            thrown,
            rule,
        } => format!(
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
        ),
        BattleEvent::TurnHandedOver { from, to, rule } => format!(
            "{} goes on with {}'s turn  [{rule}]",
            n.who(*to),
            n.who(*from)
        ),
        BattleEvent::PickedUp {
            who, weapon, rule, ..
        } => format!("{} picks up the {weapon}  [{rule}]", n.who(*who)),
        BattleEvent::TurnReserved { who, rule } => {
            format!("{} keeps its turn to react  [{rule}]", n.who(*who))
        }
        BattleEvent::BattleEnded { winner, reason } => {
            let why = end_reason(reason);
            match winner {
                Some(f) => format!("Battle over: {} wins ({why})", n.faction(*f)),
                None => format!("Battle over: a draw ({why})"),
            }
        }
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

fn names(n: &Names, cids: &[Cid]) -> String {
    cids.iter()
        .map(|c| n.who(*c))
        .collect::<Vec<_>>()
        .join(", ")
}
