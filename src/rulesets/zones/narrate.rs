//! zones' own events in the battle log.

use crate::rules::event::{Cue, OwnEvent, Tone};
use crate::rules::narrate::dice_text;
use crate::rules::roster::Names;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::event::{GearOutcome, ZonesEvent};
use crate::rulesets::zones::state::Waiting;

impl OwnEvent for ZonesEvent {
    fn describe(&self, n: &Names) -> String {
        let e = self;
        match e {
            ZonesEvent::InitiativeHeld { .. } => describe_initiative_held(n, e),
            ZonesEvent::FirstTurnGiven { .. } => describe_first_turn_given(n, e),
            ZonesEvent::Activated { .. } => describe_activated(n, e),
            ZonesEvent::Passed { .. } => describe_passed(n, e),
            ZonesEvent::SaveRolled { .. } => describe_save_rolled(n, e),
            ZonesEvent::AttackMade { .. } => describe_attack_made(n, e),
            ZonesEvent::AttackMissed { .. } => describe_attack_missed(n, e),
            ZonesEvent::ReactionTaken { .. } => describe_reaction_taken(n, e),
            ZonesEvent::ManeuverMade { .. } => describe_maneuver_made(n, e),
            ZonesEvent::BlastHits { .. } => describe_blast_hits(n, e),
            ZonesEvent::GearRolled { .. } => describe_gear_rolled(n, e),
            ZonesEvent::StuntProposed { .. } => describe_stunt_proposed(n, e),
            ZonesEvent::StuntAccepted { .. } => describe_stunt_accepted(n, e),
            ZonesEvent::TurnHandedOver { .. } => describe_turn_handed_over(n, e),
            ZonesEvent::TurnReserved { .. } => describe_turn_reserved(n, e),
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
            ZonesEvent::CounterOrder { rule, .. } => {
                format!("{}  [{rule}]", counter_order(n, self))
            }
            ZonesEvent::BlowStopped { who, rule } => format!(
                "{}'s blow never lands: it is down first  [{rule}]",
                n.who(*who)
            ),
            ZonesEvent::BackOnFeet { who, rule } => format!(
                "{} is back on its feet (no turn this round)  [{rule}]",
                n.who(*who)
            ),
            ZonesEvent::ActivationOffered { .. }
            | ZonesEvent::ReactionOffered { .. }
            | ZonesEvent::TurnResumed { .. }
            | ZonesEvent::PlayGoesTo { .. }
            | ZonesEvent::PairTurn { .. }
            | ZonesEvent::JoinsTurn { .. }
            | ZonesEvent::HalfZoneSpent { .. }
            | ZonesEvent::CarriedFast { .. } => describe_turn_keeping(n, self),
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
        }
    }

    fn plain(&self, n: &Names) -> Option<String> {
        match self {
            ZonesEvent::CounterOrder { .. } => Some(counter_order(n, self)),
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

fn describe_initiative_held(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::InitiativeHeld {
        faction,
        roll,
        rule,
    } = e
    else {
        return String::new();
    };
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

fn describe_first_turn_given(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::FirstTurnGiven { by, to, rule } = e else {
        return String::new();
    };
    format!(
        "{} lets {} act first  [{rule}]",
        n.faction(*by),
        n.faction(*to)
    )
}

fn describe_activated(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::Activated { faction, who, rule } = e else {
        return String::new();
    };
    format!(
        "{} take their turn with {}  [{rule}]",
        n.faction(*faction),
        n.who(*who)
    )
}

fn describe_passed(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::Passed {
        faction,
        forced,
        gone,
        rule,
    } = e
    else {
        return String::new();
    };
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

fn describe_save_rolled(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::SaveRolled {
        who,
        attribute,
        roll,
        target,
        pass,
        purpose,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} makes {} {attribute} save {purpose}: {} = {} vs {attribute} {target} -> {}  [{rule}]",
        n.who(*who),
        article(attribute),
        dice_text(roll),
        roll.total,
        if *pass { "pass" } else { "FAIL" }
    )
}

fn describe_attack_made(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::AttackMade {
        attacker,
        target,
        weapon,
        mode,
        reaction,
        rule,
        ..
    } = e
    else {
        return String::new();
    };
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

fn describe_attack_missed(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::AttackMissed {
        attacker,
        target,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{}'s attack misses {}  [{rule}]",
        n.who(*attacker),
        n.who(*target)
    )
}

fn describe_reaction_taken(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::ReactionTaken {
        who,
        kind,
        against,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} reacts to {}: {}  [{rule}]",
        n.who(*who),
        n.who(*against),
        kind.name()
    )
}

fn describe_maneuver_made(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::ManeuverMade {
        attacker,
        target,
        kind,
        reaction,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} {}tries to {kind} {}  [{rule}]",
        n.who(*attacker),
        if *reaction { "strikes back: " } else { "" },
        n.who(*target)
    )
}

fn describe_blast_hits(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::BlastHits {
        attacker,
        zone,
        deviated,
        targets,
        rule,
    } = e
    else {
        return String::new();
    };
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

fn describe_gear_rolled(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::GearRolled {
        who,
        item,
        roll,
        outcome,
        rule,
    } = e
    else {
        return String::new();
    };
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

fn describe_stunt_proposed(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::StuntProposed {
        attacker,
        target,
        effect,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} offers {} a way out instead of the blow: {effect}  [{rule}]",
        n.who(*attacker),
        n.who(*target)
    )
}

fn describe_stunt_accepted(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::StuntAccepted { who, effect, rule } = e else {
        return String::new();
    };
    format!("{} accepts: {effect}  [{rule}]", n.who(*who))
}

fn describe_turn_handed_over(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::TurnHandedOver { from, to, rule } = e else {
        return String::new();
    };
    format!(
        "{} goes on with {}'s turn  [{rule}]",
        n.who(*to),
        n.who(*from)
    )
}

fn describe_turn_reserved(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::TurnReserved { who, rule } = e else {
        return String::new();
    };
    format!("{} keeps its turn to react  [{rule}]", n.who(*who))
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
fn counter_order(n: &Names, e: &ZonesEvent) -> String {
    let ZonesEvent::CounterOrder {
        first,
        then,
        suffers,
        then_suffers,
        tie,
        ..
    } = e
    else {
        return String::new();
    };
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
/// riders carried fast): what the rules log would say of them.
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
        _ => String::new(),
    }
}
