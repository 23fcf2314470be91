//! zones' own events in the battle log.

use crate::rules::components::Cid;
use crate::rules::dice::DiceRoll;
use crate::rules::event::{Cue, OwnEvent, Rule, Tone};
use crate::rules::narrate::dice_text;
use crate::rules::roster::Names;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::event::{GearOutcome, Reaction, ZonesEvent};
use crate::rulesets::zones::state::Waiting;

impl OwnEvent for ZonesEvent {
    fn describe(&self, n: &Names) -> String {
        let e = self;
        match e {
            ZonesEvent::SaveRolled {
                who,
                attribute,
                roll,
                target,
                pass,
                purpose,
                rule,
            } => describe_save_rolled(n, who, attribute, roll, (target, pass), purpose, rule),
            ZonesEvent::AttackMade {
                attacker,
                target,
                weapon,
                mode,
                reaction,
                rule,
                ..
            } => describe_attack_made(n, attacker, target, weapon, mode, reaction, rule),
            ZonesEvent::AttackMissed {
                attacker,
                target,
                rule,
            } => describe_attack_missed(n, attacker, target, rule),
            ZonesEvent::ReactionTaken {
                who,
                kind,
                against,
                rule,
            } => describe_reaction_taken(n, who, kind, against, rule),
            ZonesEvent::ManeuverMade {
                attacker,
                target,
                kind,
                reaction,
                rule,
            } => describe_maneuver_made(n, attacker, target, kind, reaction, rule),
            ZonesEvent::BlastHits {
                attacker,
                zone,
                deviated,
                targets,
                rule,
            } => describe_blast_hits(n, attacker, zone, deviated, targets, rule),
            ZonesEvent::GearRolled {
                who,
                item,
                roll,
                outcome,
                rule,
            } => describe_gear_rolled(n, who, item, roll, outcome, rule),
            ZonesEvent::StuntProposed {
                attacker,
                target,
                effect,
                rule,
            } => describe_stunt_proposed(n, attacker, target, effect, rule),
            ZonesEvent::StuntAccepted { who, effect, rule } => {
                describe_stunt_accepted(n, who, effect, rule)
            }
            ZonesEvent::CounterOrder {
                first,
                then,
                suffers,
                then_suffers,
                tie,
                rule,
            } => format!(
                "{}  [{rule}]",
                counter_order(n, first, then, suffers, then_suffers, tie)
            ),
            ZonesEvent::BlowStopped { who, rule } => format!(
                "{}'s blow never lands: it is down first  [{rule}]",
                n.who(*who)
            ),
            other => describe_actions(n, other),
        }
    }

    fn plain(&self, n: &Names) -> Option<String> {
        match self {
            ZonesEvent::CounterOrder {
                first,
                then,
                suffers,
                then_suffers,
                tie,
                ..
            } => Some(counter_order(n, first, then, suffers, then_suffers, tie)),
            ZonesEvent::BlowStopped { who, .. } => Some(format!(
                "{}'s blow never lands: it is down first",
                n.who(*who)
            )),
            // "Theobald passes a STR save to avoid being grabbed (rolled 5,
            // needed 14 or less)".
            ZonesEvent::SaveRolled {
                who,
                attribute,
                roll,
                target,
                pass,
                purpose,
                ..
            } => Some(format!(
                "{} {} {} {attribute} save {purpose} (rolled {}, needed {target} or less)",
                n.who(*who),
                if *pass { "passes" } else { "fails" },
                article(attribute),
                roll.total,
            )),
            _ => None,
        }
    }

    fn silent(&self) -> bool {
        matches!(
            self,
            ZonesEvent::ActivationOffered { .. }
                | ZonesEvent::ReactionOffered { .. }
                | ZonesEvent::TurnResumed { .. }
                | ZonesEvent::PlayGoesTo { .. }
                | ZonesEvent::PairTurn { .. }
                | ZonesEvent::JoinsTurn { .. }
                | ZonesEvent::HalfZoneSpent { .. }
        )
    }

    fn cues(&self) -> Vec<Cue> {
        match self {
            ZonesEvent::InfluenceTried { by, kind, .. } => vec![Cue::Say {
                who: *by,
                text: kind.name().to_string(),
                tone: Tone::Plain,
            }],
            ZonesEvent::Swayed { target, kind, .. } => vec![Cue::Say {
                who: *target,
                text: match kind {
                    Influence::Taunt => "taunted".into(),
                    _ => "distracted".into(),
                },
                tone: Tone::Reaction,
            }],
            ZonesEvent::PowerInvoked { by, power, .. } => vec![Cue::Say {
                who: *by,
                text: power.to_lowercase(),
                tone: Tone::Reaction,
            }],
            ZonesEvent::ItemUsed { who, name, .. } => vec![Cue::Say {
                who: *who,
                text: name.to_lowercase(),
                tone: Tone::Plain,
            }],
            _ => Vec::new(),
        }
    }
}

fn describe_initiative_held(
    n: &Names,
    faction: &u8,
    roll: &Option<DiceRoll>,
    rule: &Rule,
) -> String {
    match roll {
        Some(r) => format!(
            "{} holds the initiative (rolled {})  [{rule}]",
            n.faction(*faction),
            dice_text(r)
        ),
        None => format!(
            "{} started the fight and holds the initiative  [{rule}]",
            n.faction(*faction)
        ),
    }
}

fn describe_first_turn_given(n: &Names, by: &u8, to: &u8, rule: &Rule) -> String {
    format!(
        "{} lets {} act first  [{rule}]",
        n.faction(*by),
        n.faction(*to)
    )
}

fn describe_activated(n: &Names, faction: &u8, who: &Cid, rule: &Rule) -> String {
    format!(
        "{} take their turn with {}  [{rule}]",
        n.faction(*faction),
        n.who(*who)
    )
}

fn describe_passed(n: &Names, faction: &u8, forced: &bool, gone: &bool, rule: &Rule) -> String {
    format!(
        "{} {}  [{rule}]",
        n.faction(*faction),
        if *gone {
            "pass: nobody of them stands"
        } else if *forced {
            "must pass: nobody left to take a turn"
        } else {
            "pass"
        }
    )
}

fn describe_save_rolled(
    n: &Names,
    who: &Cid,
    attribute: &&'static str,
    roll: &DiceRoll,
    (target, pass): (&i32, &bool),
    purpose: &&'static str,
    rule: &Rule,
) -> String {
    format!(
        "{} makes {} {attribute} save {purpose}: {} = {} vs {attribute} {target} -> {}  [{rule}]",
        n.who(*who),
        article(attribute),
        dice_text(roll),
        roll.total,
        if *pass { "pass" } else { "FAIL" }
    )
}

fn describe_attack_made(
    n: &Names,
    attacker: &Cid,
    target: &Cid,
    weapon: &str,
    mode: &str,
    reaction: &bool,
    rule: &Rule,
) -> String {
    format!(
        "{} {} {} with the {weapon}{}  [{rule}]",
        n.who(*attacker),
        if *reaction { "strikes at" } else { "attacks" },
        n.who(*target),
        if mode != "strike" {
            format!(" ({mode})")
        } else {
            String::new()
        }
    )
}

fn describe_attack_missed(n: &Names, attacker: &Cid, target: &Cid, rule: &Rule) -> String {
    format!(
        "{}'s attack misses {}  [{rule}]",
        n.who(*attacker),
        n.who(*target)
    )
}

fn describe_reaction_taken(
    n: &Names,
    who: &Cid,
    kind: &Reaction,
    against: &Cid,
    rule: &Rule,
) -> String {
    format!(
        "{} reacts to {}: {}  [{rule}]",
        n.who(*who),
        n.who(*against),
        kind.name()
    )
}

fn describe_maneuver_made(
    n: &Names,
    attacker: &Cid,
    target: &Cid,
    kind: &&'static str,
    reaction: &bool,
    rule: &Rule,
) -> String {
    format!(
        "{} {}tries to {kind} {}  [{rule}]",
        n.who(*attacker),
        if *reaction { "strikes back: " } else { "" },
        n.who(*target)
    )
}

fn describe_blast_hits(
    n: &Names,
    attacker: &Cid,
    zone: &str,
    deviated: &Option<DiceRoll>,
    targets: &[Cid],
    rule: &Rule,
) -> String {
    format!(
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
    )
}

fn describe_gear_rolled(
    n: &Names,
    who: &Cid,
    item: &str,
    roll: &DiceRoll,
    outcome: &GearOutcome,
    rule: &Rule,
) -> String {
    format!(
        "After the fight, {}'s {item}: durability {} = {} -> {}  [{rule}]",
        n.who(*who),
        dice_text(roll),
        roll.total,
        match outcome {
            GearOutcome::Fine => "fine",
            GearOutcome::Damaged => "DAMAGED",
            GearOutcome::Destroyed => "DESTROYED",
        }
    )
}

fn describe_stunt_proposed(
    n: &Names,
    attacker: &Cid,
    target: &Cid,
    effect: &&'static str,
    rule: &Rule,
) -> String {
    format!(
        "{} offers {} a way out instead of the blow: {effect}  [{rule}]",
        n.who(*attacker),
        n.who(*target)
    )
}

fn describe_stunt_accepted(n: &Names, who: &Cid, effect: &&'static str, rule: &Rule) -> String {
    format!("{} accepts: {effect}  [{rule}]", n.who(*who))
}

fn describe_turn_handed_over(n: &Names, from: &Cid, to: &Cid, rule: &Rule) -> String {
    format!(
        "{} goes on with {}'s turn  [{rule}]",
        n.who(*to),
        n.who(*from)
    )
}

fn describe_turn_reserved(n: &Names, who: &Cid, rule: &Rule) -> String {
    format!("{} keeps its turn to react  [{rule}]", n.who(*who))
}

/// The other main actions (words, items, powers, pulling a grabbed one
/// free) and getting back on one's feet: the rest of `describe`.
fn describe_actions(n: &Names, e: &ZonesEvent) -> String {
    match e {
        ZonesEvent::InfluenceTried {
            by,
            target,
            kind,
            rule,
        } => format!(
            "{} tries to {} {}  [{rule}]",
            n.who(*by),
            kind.name(),
            n.who(*target)
        ),
        ZonesEvent::Swayed {
            target,
            by,
            kind,
            rule,
        } => match kind {
            Influence::Taunt => format!(
                "{} is taunted: it may attack only {} until its next turn ends  [{rule}]",
                n.who(*target),
                n.who(*by)
            ),
            _ => format!(
                "{} is distracted: it cannot react this round  [{rule}]",
                n.who(*target)
            ),
        },
        ZonesEvent::ItemUsed {
            who,
            on,
            name,
            rule,
            ..
        } => format!(
            "{} uses a {name} on {}  [{rule}]",
            n.who(*who),
            if who == on { "itself" } else { n.who(*on) },
        ),
        ZonesEvent::FreeTried { by, who, rule } => format!(
            "{} tries to pull {} free  [{rule}]",
            n.who(*by),
            n.who(*who)
        ),
        ZonesEvent::BackOnFeet { who, rule } => format!(
            "{} is back on its feet (no turn this round)  [{rule}]",
            n.who(*who)
        ),
        ZonesEvent::PowerInvoked {
            by,
            target,
            power,
            rule,
            ..
        } => format!(
            "{} invokes {power} at {}  [{rule}]",
            n.who(*by),
            if by == target {
                "itself"
            } else {
                n.who(*target)
            },
        ),
        procedure => describe_procedure(n, procedure),
    }
}

/// The procedure of a round (who holds the initiative, who acts, who
/// passes, who keeps or hands over a turn): the rest of `describe_actions`.
fn describe_procedure(n: &Names, e: &ZonesEvent) -> String {
    match e {
        ZonesEvent::InitiativeHeld {
            faction,
            roll,
            rule,
        } => describe_initiative_held(n, faction, roll, rule),
        ZonesEvent::FirstTurnGiven { by, to, rule } => describe_first_turn_given(n, by, to, rule),
        ZonesEvent::Activated { faction, who, rule } => describe_activated(n, faction, who, rule),
        ZonesEvent::Passed {
            faction,
            forced,
            gone,
            rule,
        } => describe_passed(n, faction, forced, gone, rule),
        ZonesEvent::TurnHandedOver { from, to, rule } => {
            describe_turn_handed_over(n, from, to, rule)
        }
        ZonesEvent::TurnReserved { who, rule } => describe_turn_reserved(n, who, rule),
        keeping => describe_turn_keeping(n, keeping),
    }
}

/// "an AGI save", "a STR save".
fn article(attribute: &str) -> &'static str {
    if attribute.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    }
}

/// "Counter: Sybilla would suffer 7, Bandit leader 4: Sybilla is hit
/// first"; on a tie, both at once.
fn counter_order(
    n: &Names,
    first: &Cid,
    then: &Cid,
    suffers: &i32,
    then_suffers: &i32,
    tie: &bool,
) -> String {
    if *tie {
        format!(
            "Counter: {} and {} would each suffer {suffers}: both are hit at once",
            n.who(*first),
            n.who(*then)
        )
    } else {
        format!(
            "Counter: {} would suffer {suffers}, {} {then_suffers}: {} is hit first",
            n.who(*first),
            n.who(*then),
            n.who(*first)
        )
    }
}

/// The turn's questions and bookkeeping (silent in the readable log but for
/// riders carried fast): what the rules log would say of them; the rest
/// of `describe_procedure`.
fn describe_turn_keeping(n: &Names, e: &ZonesEvent) -> String {
    match e {
        ZonesEvent::ActivationOffered {
            faction,
            speaker,
            rule,
        } => format!(
            "{} may take a turn ({} first) or pass  [{rule}]",
            n.faction(*faction),
            n.who(*speaker)
        ),
        ZonesEvent::ReactionOffered {
            who,
            by,
            waits,
            rule,
        } => {
            let what = match waits {
                Waiting::Attack(_) => "attack",
                Waiting::Blast(_) => "attack on several",
                Waiting::Move(_) => "move away",
            };
            format!(
                "{} may react to {}'s {what}  [{rule}]",
                n.who(*who),
                n.who(*by)
            )
        }
        ZonesEvent::TurnResumed {
            who: Some(who),
            rule,
        } => format!("{}'s turn goes on  [{rule}]", n.who(*who)),
        ZonesEvent::TurnResumed { who: None, rule } => format!("The battle goes on  [{rule}]"),
        ZonesEvent::PlayGoesTo { faction, rule } => {
            format!("Play goes to {}  [{rule}]", n.faction(*faction))
        }
        ZonesEvent::PairTurn { acting, rule, .. } => match acting.who {
            Some(who) => format!("{} acts for its pair  [{rule}]", n.who(who)),
            None => format!("Nobody of the pair acts  [{rule}]"),
        },
        ZonesEvent::JoinsTurn { who, rule } => {
            format!("{} takes this turn with its rider  [{rule}]", n.who(*who))
        }
        ZonesEvent::HalfZoneSpent { who, rule } => {
            format!("{} spends half a zone of movement  [{rule}]", n.who(*who))
        }
        ZonesEvent::CarriedFast { riders, rule } => {
            format!(
                "{}: carried at full speed, no action nor reaction this round  [{rule}]",
                crate::rules::narrate::names(n, riders)
            )
        }
        other => {
            unreachable!("describe, describe_actions and describe_procedure narrate {other:?}")
        }
    }
}
