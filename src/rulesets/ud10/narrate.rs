//! UD10's own events in the battle log and on the board: each event's
//! struct says its own lines ([`Narrate`]); [`Ud10Event`] only picks the
//! struct.

use crate::rules::components::Cid;
use crate::rules::event::{Cue, Narrate, OwnEvent, Tone};
use crate::rules::narrate::{defense_text, dice_text, either, mods_text, names};
use crate::rules::roster::Names;
use crate::rulesets::ud10::event::{
    Aimed, AttackRolled, CutFree, Faced, FirstAid, HitLocation, InitiativeRolled, NoReaction,
    Reaction, ReactionOffered, ReactionRolled, Reloaded, TieBroken, Turned, Ud10Event,
    cannot_react,
};

impl OwnEvent for Ud10Event {
    fn narration(&self) -> &dyn Narrate {
        match self {
            Ud10Event::InitiativeRolled(e) => e,
            Ud10Event::TieBroken(e) => e,
            Ud10Event::Reloaded(e) => e,
            Ud10Event::Aimed(e) => e,
            Ud10Event::CutFree(e) => e,
            Ud10Event::FirstAid(e) => e,
            Ud10Event::AttackRolled(e) => e,
            Ud10Event::ReactionRolled(e) => e,
            Ud10Event::Turned(e) => e,
            Ud10Event::Faced(e) => e,
            Ud10Event::HitLocation(e) => e,
            Ud10Event::NoReaction(e) => e,
            Ud10Event::ReactionOffered(e) => e,
        }
    }
}

/// A floating word over `who`.
fn say(who: Cid, text: String) -> Vec<Cue> {
    vec![Cue::Say {
        who,
        text,
        tone: Tone::Plain,
    }]
}

impl Narrate for InitiativeRolled {
    fn describe(&self, n: &Names) -> String {
        format!(
            "Initiative: {} rolls {}{} = {}  [{}]",
            n.who(self.who),
            dice_text(&self.roll),
            mods_text(&self.modifiers),
            self.total,
            self.rule
        )
    }
}

impl Narrate for TieBroken {
    fn describe(&self, n: &Names) -> String {
        format!(
            "Initiative tie between {} broken by a roll-off: {}  [{}]",
            names(n, &self.between),
            names(n, &self.order),
            self.rule
        )
    }
}

impl Narrate for Reloaded {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} reloads the {} ({} loaded)  [{}]",
            n.who(self.who),
            self.weapon,
            self.loaded,
            self.rule
        )
    }

    fn cues(&self) -> Vec<Cue> {
        say(self.who, format!("reloads {}", self.weapon))
    }
}

impl Narrate for Aimed {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} takes aim at {} ({} round{})  [{}]",
            n.who(self.who),
            n.who(self.target),
            self.rounds,
            if self.rounds == 1 { "" } else { "s" },
            self.rule
        )
    }

    fn cues(&self) -> Vec<Cue> {
        say(self.who, format!("aims ({})", self.rounds))
    }
}

impl Narrate for CutFree {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} cuts itself free of the net  [{}]",
            n.who(self.who),
            self.rule
        )
    }

    fn cues(&self) -> Vec<Cue> {
        say(self.who, "cuts free".into())
    }
}

impl FirstAid {
    /// How it went, in the log's words.
    fn outcome(&self) -> &'static str {
        if self.success {
            "brought round"
        } else {
            "no use"
        }
    }
}

impl Narrate for FirstAid {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} gives {} first aid: {}{} = {} vs {}: {}  [{}]",
            n.who(self.medic),
            n.who(self.patient),
            dice_text(&self.roll),
            mods_text(&self.modifiers),
            self.total,
            self.difficulty,
            self.outcome(),
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "{} gives {} first aid: {}",
            n.who(self.medic),
            n.who(self.patient),
            self.outcome()
        ))
    }

    fn cues(&self) -> Vec<Cue> {
        say(self.medic, format!("first aid: {}", self.outcome()))
    }
}

impl Narrate for AttackRolled {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{}{} attacks {} with the {}{}: {}{} = {} vs Defense {} = {} -> {}  [{}]",
            if self.free { "Free attack: " } else { "" },
            n.who(self.attacker),
            n.who(self.target),
            self.weapon,
            if self.mode != "single" {
                format!(" ({})", self.mode)
            } else {
                String::new()
            },
            dice_text(&self.roll),
            mods_text(&self.modifiers),
            self.total,
            self.defense,
            defense_text(&self.defense_parts),
            if self.hit { "HIT" } else { "miss" },
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "{}{}'s {} {} {} (rolled {}, needed {})",
            if self.free { "Free attack: " } else { "" },
            n.who(self.attacker),
            self.weapon.to_lowercase(),
            if self.hit { "hits" } else { "misses" },
            n.who(self.target),
            self.total,
            self.defense
        ))
    }

    fn cues(&self) -> Vec<Cue> {
        let (total, defense) = (self.total, self.defense);
        vec![Cue::Strike {
            attacker: self.attacker,
            target: self.target,
            text: if self.hit {
                format!(
                    "{}HIT {total} vs {defense}",
                    if self.free { "free attack: " } else { "" }
                )
            } else {
                format!("miss {total} vs {defense}")
            },
            landed: self.hit,
        }]
    }
}

impl Narrate for ReactionRolled {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} tries to {}: {}{} = {} vs attack {} -> {}  [{}]",
            n.who(self.who),
            self.kind.name(),
            dice_text(&self.roll),
            mods_text(&self.modifiers),
            self.total,
            self.against,
            if self.success {
                "the attack does not go through"
            } else {
                "fails"
            },
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "{} {} (rolled {}, needed {})",
            n.who(self.who),
            match (self.kind, self.success) {
                (Reaction::Parry, true) => "parries the blow",
                (Reaction::Parry, false) => "fails to parry",
                (Reaction::Dodge, true) => "dodges the blow",
                (Reaction::Dodge, false) => "fails to dodge",
            },
            self.total,
            self.against + 1
        ))
    }

    fn cues(&self) -> Vec<Cue> {
        let (kind, total, against) = (self.kind.name(), self.total, self.against);
        vec![Cue::Say {
            who: self.who,
            text: if self.success {
                format!("{} {total} > {against}!", kind.to_uppercase())
            } else {
                format!("{kind} fails {total}")
            },
            tone: Tone::Reaction,
        }]
    }
}

impl Narrate for Turned {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} turns to face {}, the only enemy engaging it  [{}]",
            n.who(self.who),
            n.who(self.towards),
            self.rule
        )
    }
}

impl Narrate for Faced {
    fn describe(&self, n: &Names) -> String {
        match self.towards {
            Some(towards) => format!(
                "{} faces {}, the nearest enemy ({})  [{}]",
                n.who(self.who),
                n.who(towards),
                self.facing.name(),
                self.rule
            ),
            None => format!(
                "{} turns to face {}  [{}]",
                n.who(self.who),
                self.facing.name(),
                self.rule
            ),
        }
    }

    fn plain(&self, n: &Names) -> Option<String> {
        self.towards
            .is_none()
            .then(|| format!("{} turns to face {}", n.who(self.who), self.facing.name()))
    }
}

impl Narrate for HitLocation {
    fn describe(&self, n: &Names) -> String {
        format!(
            "Hit location on {}: d10 [{}] -> {}  [{}]",
            n.who(self.target),
            self.die,
            self.zone.name(),
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "The blow lands on {}'s {}",
            n.who(self.target),
            self.zone.name()
        ))
    }
}

impl Narrate for NoReaction {
    fn describe(&self, n: &Names) -> String {
        if self.parry == self.dodge {
            format!(
                "{} may not react: {}  [{}]",
                n.who(self.who),
                self.parry.why(Reaction::Parry),
                self.rule
            )
        } else {
            format!(
                "{} may not react: parry: {}; dodge: {}  [{}]",
                n.who(self.who),
                self.parry.why(Reaction::Parry),
                self.dodge.why(Reaction::Dodge),
                self.rule
            )
        }
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(cannot_react(n.who(self.who), &self.parry, &self.dodge))
    }
}

impl Narrate for ReactionOffered {
    fn describe(&self, n: &Names) -> String {
        let open: Vec<&str> = [("parry", self.parry), ("dodge", self.dodge)]
            .into_iter()
            .filter_map(|(w, open)| open.then_some(w))
            .collect();
        format!(
            "{} may {} against {}'s attack of {}  [{}]",
            n.who(self.attack.target),
            either(&open),
            n.who(self.attack.attacker),
            self.attack.total,
            self.rule
        )
    }
}
