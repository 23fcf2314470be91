//! The narration of the other main actions (words, items, powers, pulling
//! a grabbed one free) and of getting back on one's feet.

use crate::rules::event::{Cue, Tone};
use crate::rules::roster::Names;
use crate::rulesets::zones::command::Influence;
use crate::rulesets::zones::event::{
    BackOnFeet, FreeTried, InfluenceTried, ItemUsed, PowerInvoked, Swayed,
};

use crate::rules::event::Narrate;

impl Narrate for InfluenceTried {
    fn describe(&self, n: &Names) -> String {
        let InfluenceTried {
            by,
            target,
            kind,
            rule,
        } = self;
        format!(
            "{} tries to {} {}  [{rule}]",
            n.who(*by),
            kind.name(),
            n.who(*target)
        )
    }

    fn cues(&self) -> Vec<Cue> {
        vec![Cue::Say {
            who: self.by,
            text: self.kind.name().to_string(),
            tone: Tone::Plain,
        }]
    }
}

impl Narrate for Swayed {
    fn describe(&self, n: &Names) -> String {
        let Swayed {
            target,
            by,
            kind,
            rule,
        } = self;
        match kind {
            Influence::Taunt => format!(
                "{} is taunted: it may attack only {} until its next turn ends  [{rule}]",
                n.who(*target),
                n.who(*by)
            ),
            _ => format!(
                "{} is distracted: it cannot react this round  [{rule}]",
                n.who(*target)
            ),
        }
    }

    fn cues(&self) -> Vec<Cue> {
        vec![Cue::Say {
            who: self.target,
            text: match self.kind {
                Influence::Taunt => "taunted".into(),
                _ => "distracted".into(),
            },
            tone: Tone::Reaction,
        }]
    }
}

impl Narrate for ItemUsed {
    fn describe(&self, n: &Names) -> String {
        let ItemUsed {
            who,
            on,
            name,
            rule,
            ..
        } = self;
        format!(
            "{} uses a {name} on {}  [{rule}]",
            n.who(*who),
            if who == on { "itself" } else { n.who(*on) },
        )
    }

    fn cues(&self) -> Vec<Cue> {
        vec![Cue::Say {
            who: self.who,
            text: self.name.to_lowercase(),
            tone: Tone::Plain,
        }]
    }
}

impl Narrate for FreeTried {
    fn describe(&self, n: &Names) -> String {
        let FreeTried { by, who, rule } = self;
        format!(
            "{} tries to pull {} free  [{rule}]",
            n.who(*by),
            n.who(*who)
        )
    }
}

impl Narrate for BackOnFeet {
    fn describe(&self, n: &Names) -> String {
        let BackOnFeet { who, rule } = self;
        format!(
            "{} is back on its feet (no turn this round)  [{rule}]",
            n.who(*who)
        )
    }
}

impl Narrate for PowerInvoked {
    fn describe(&self, n: &Names) -> String {
        let PowerInvoked {
            by,
            target,
            power,
            rule,
            ..
        } = self;
        format!(
            "{} invokes {power} at {}  [{rule}]",
            n.who(*by),
            if by == target {
                "itself"
            } else {
                n.who(*target)
            },
        )
    }

    fn cues(&self) -> Vec<Cue> {
        vec![Cue::Say {
            who: self.by,
            text: self.power.to_lowercase(),
            tone: Tone::Reaction,
        }]
    }
}
