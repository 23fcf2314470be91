//! The narration of saves, attacks (blasts, non-lethal ones, stunts),
//! reactions and the rolls for gear after the fight.

use crate::rules::narrate::dice_text;
use crate::rules::roster::Names;
use crate::rulesets::zones::event::{
    AttackMade, AttackMissed, BlastHits, BlowStopped, CounterOrder, GearOutcome, GearRolled,
    ManeuverMade, ReactionTaken, SaveRolled, StuntAccepted, StuntProposed,
};

use crate::rules::event::Narrate;

impl Narrate for SaveRolled {
    fn describe(&self, n: &Names) -> String {
        let SaveRolled {
            who,
            attribute,
            roll,
            target,
            pass,
            purpose,
            rule,
        } = self;
        format!(
            "{} makes {} {attribute} save {purpose}: {} = {} vs {attribute} {target} -> {}  [{rule}]",
            n.who(*who),
            article(attribute),
            dice_text(roll),
            roll.total,
            if *pass { "pass" } else { "FAIL" }
        )
    }

    /// "Theobald passes a STR save to avoid being grabbed (rolled 5,
    /// needed 14 or less)".
    fn plain(&self, n: &Names) -> Option<String> {
        let SaveRolled {
            who,
            attribute,
            roll,
            target,
            pass,
            purpose,
            ..
        } = self;
        Some(format!(
            "{} {} {} {attribute} save {purpose} (rolled {}, needed {target} or less)",
            n.who(*who),
            if *pass { "passes" } else { "fails" },
            article(attribute),
            roll.total,
        ))
    }
}

impl Narrate for AttackMade {
    fn describe(&self, n: &Names) -> String {
        let AttackMade {
            attacker,
            target,
            weapon,
            mode,
            reaction,
            rule,
            ..
        } = self;
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
}

impl Narrate for AttackMissed {
    fn describe(&self, n: &Names) -> String {
        let AttackMissed {
            attacker,
            target,
            rule,
        } = self;
        format!(
            "{}'s attack misses {}  [{rule}]",
            n.who(*attacker),
            n.who(*target)
        )
    }
}

impl Narrate for ReactionTaken {
    fn describe(&self, n: &Names) -> String {
        let ReactionTaken {
            who,
            kind,
            against,
            rule,
        } = self;
        format!(
            "{} reacts to {}: {}  [{rule}]",
            n.who(*who),
            n.who(*against),
            kind.name()
        )
    }
}

impl Narrate for ManeuverMade {
    fn describe(&self, n: &Names) -> String {
        let ManeuverMade {
            attacker,
            target,
            kind,
            reaction,
            rule,
        } = self;
        format!(
            "{} {}tries to {kind} {}  [{rule}]",
            n.who(*attacker),
            if *reaction { "strikes back: " } else { "" },
            n.who(*target)
        )
    }
}

impl Narrate for BlastHits {
    fn describe(&self, n: &Names) -> String {
        let BlastHits {
            attacker,
            zone,
            deviated,
            targets,
            rule,
        } = self;
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
}

impl Narrate for GearRolled {
    fn describe(&self, n: &Names) -> String {
        let GearRolled {
            who,
            item,
            roll,
            outcome,
            rule,
        } = self;
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
}

impl Narrate for StuntProposed {
    fn describe(&self, n: &Names) -> String {
        let StuntProposed {
            attacker,
            target,
            effect,
            rule,
        } = self;
        format!(
            "{} offers {} a way out instead of the blow: {effect}  [{rule}]",
            n.who(*attacker),
            n.who(*target)
        )
    }
}

impl Narrate for StuntAccepted {
    fn describe(&self, n: &Names) -> String {
        let StuntAccepted { who, effect, rule } = self;
        format!("{} accepts: {effect}  [{rule}]", n.who(*who))
    }
}

impl Narrate for CounterOrder {
    fn describe(&self, n: &Names) -> String {
        format!("{}  [{}]", self.order(n), self.rule)
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(self.order(n))
    }
}

impl CounterOrder {
    /// "Counter: Sybilla would suffer 7, Bandit leader 4: Sybilla is hit
    /// first"; on a tie, both at once.
    fn order(&self, n: &Names) -> String {
        let CounterOrder {
            first,
            then,
            suffers,
            then_suffers,
            tie,
            ..
        } = self;
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
}

impl Narrate for BlowStopped {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{}'s blow never lands: it is down first  [{}]",
            n.who(self.who),
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "{}'s blow never lands: it is down first",
            n.who(self.who)
        ))
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
