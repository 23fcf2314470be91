//! brp's own events in the battle log and on the board: one [`Narrate`] per
//! event, each reading its own fields; its `OwnEvent::narration` is the one
//! match that picks it.

use crate::rules::event::{Cue, Narrate, OwnEvent, Tone};
use crate::rules::narrate::dice_text;
use crate::rules::narrate::groups;
use crate::rules::roster::Names;

use super::chance::{Difficulty, Level};
use super::command::Intent;
use super::event::{
    AttackRolled, Band, BrpEvent, DamageRolled, Declared, DefenseOffered, DefenseRolled, DexOrder,
    FirstAid, GearDamaged, Matrix, PhaseBegan, RankCalled, Ranked, Reloaded, Reloading, RoundPhase,
    Thrown,
};
use super::matrix::{Defense, Harm};

impl OwnEvent for BrpEvent {
    fn narration(&self) -> &dyn Narrate {
        match self {
            BrpEvent::PhaseBegan(e) => e,
            BrpEvent::DexOrder(e) => e,
            BrpEvent::Declared(e) => e,
            BrpEvent::Ranked(e) => e,
            BrpEvent::RankCalled(e) => e,
            BrpEvent::AttackRolled(e) => e,
            BrpEvent::DefenseOffered(e) => e,
            BrpEvent::DefenseRolled(e) => e,
            BrpEvent::Matrix(e) => e,
            BrpEvent::DamageRolled(e) => e,
            BrpEvent::GearDamaged(e) => e,
            BrpEvent::Thrown(e) => e,
            BrpEvent::FirstAid(e) => e,
            BrpEvent::Reloading(e) => e,
            BrpEvent::Reloaded(e) => e,
        }
    }
}

impl Narrate for PhaseBegan {
    fn describe(&self, _n: &Names) -> String {
        format!(
            "-- {} --  [{}]",
            match self.phase {
                RoundPhase::Intent => "Statement of intent",
                RoundPhase::Movement => "Movement",
                RoundPhase::Actions => "Actions, DEX ranks counted down",
                RoundPhase::Resolution => "Resolution",
            },
            self.rule
        )
    }
}

impl Narrate for DexOrder {
    fn describe(&self, n: &Names) -> String {
        format!("DEX order: {}  [{}]", groups(n, &self.order), self.rule)
    }
}

impl Narrate for Declared {
    fn describe(&self, n: &Names) -> String {
        format!("{}  [{}]", self.statement(n), self.rule)
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(self.statement(n))
    }
}

impl Declared {
    /// "Ana will attack Bo with the sword".
    fn statement(&self, n: &Names) -> String {
        format!(
            "{} {}",
            n.who(self.who),
            intent_text(n, &self.intent, self.weapon.as_deref())
        )
    }
}

impl Narrate for Ranked {
    fn describe(&self, n: &Names) -> String {
        let dex = self.dex;
        format!(
            "{} moved {:.1} m: {} ({})  [{}]",
            n.who(self.who),
            f64::from(self.moved_dm) / 10.0,
            band_text(self.band),
            if self.band == Band::Run {
                format!("DEX {dex}")
            } else {
                format!("DEX {dex} -> rank {}", self.rank)
            },
            self.rule
        )
    }
}

impl Narrate for RankCalled {
    fn describe(&self, n: &Names) -> String {
        format!(
            "DEX rank {}: {}  [{}]",
            self.rank,
            groups(n, &self.order),
            self.rule
        )
    }

    fn plain(&self, _n: &Names) -> Option<String> {
        Some(format!("DEX rank {}", self.rank))
    }
}

impl Narrate for AttackRolled {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} attacks {} with the {}: {} vs {}: {}  [{}]",
            n.who(self.attacker),
            n.who(self.target),
            self.weapon.to_lowercase(),
            dice_text(&self.roll),
            chance_text(self.rating, self.difficulty, self.chance),
            self.level.name(),
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "{}'s {} {} {} (rolled {}, needed {} or less)",
            n.who(self.attacker),
            self.weapon.to_lowercase(),
            match self.level {
                Level::Special => "strikes true at",
                Level::Success => "finds",
                Level::Failure => "misses",
            },
            n.who(self.target),
            self.roll.total,
            self.chance
        ))
    }

    fn cues(&self) -> Vec<Cue> {
        vec![Cue::Strike {
            attacker: self.attacker,
            target: self.target,
            text: match self.level {
                Level::Special => "Special!".into(),
                Level::Success => "Hit".into(),
                Level::Failure => "Miss".into(),
            },
            landed: self.level != Level::Failure,
        }]
    }
}

impl Narrate for DefenseOffered {
    fn describe(&self, n: &Names) -> String {
        let ways: Vec<String> = self
            .ways
            .iter()
            .map(|w| match w.as_str() {
                "Dodge" => "dodge".to_string(),
                parry => format!("parry with the {}", parry.to_lowercase()),
            })
            .collect();
        let ways: Vec<&str> = ways.iter().map(String::as_str).collect();
        format!(
            "{} may {} against {}'s {}  [{}]",
            n.who(self.attack.target),
            crate::rules::narrate::either(&ways),
            n.who(self.attack.attacker),
            self.attack.weapon.to_lowercase(),
            self.rule
        )
    }
}

impl Narrate for DefenseRolled {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} {}: {} vs {}: {}  [{}]",
            n.who(self.who),
            match self.kind {
                Defense::Parry => format!("parries with the {}", self.with.to_lowercase()),
                Defense::Dodge => "dodges".into(),
            },
            dice_text(&self.roll),
            chance_text(self.rating, self.difficulty, self.chance),
            self.level.name(),
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        Some(format!(
            "{} {} (rolled {}, needed {} or less)",
            n.who(self.who),
            match (self.kind, self.level) {
                (Defense::Parry, Level::Failure) => "fails to parry",
                (Defense::Parry, _) => "parries",
                (Defense::Dodge, Level::Failure) => "fails to dodge",
                (Defense::Dodge, _) => "dodges",
            },
            self.roll.total,
            self.chance
        ))
    }

    fn cues(&self) -> Vec<Cue> {
        vec![Cue::Say {
            who: self.who,
            text: match (self.kind, self.level != Level::Failure) {
                (Defense::Parry, true) => "Parried".into(),
                (Defense::Parry, false) => "Parry fails".into(),
                (Defense::Dodge, true) => "Dodged".into(),
                (Defense::Dodge, false) => "Dodge fails".into(),
            },
            tone: Tone::Reaction,
        }]
    }
}

impl Narrate for Matrix {
    fn describe(&self, _n: &Names) -> String {
        format!(
            "{} against {}: {}  [{}]",
            level_word(self.attack),
            match self.defense {
                None => "no defence".to_string(),
                Some((k, l)) => format!(
                    "{} {}",
                    level_word(l),
                    match k {
                        Defense::Parry => "parry",
                        Defense::Dodge => "dodge",
                    }
                ),
            },
            self.says,
            self.rule
        )
    }

    fn plain(&self, n: &Names) -> Option<String> {
        let target = n.who(self.target);
        Some(match self.harm {
            Harm::None => format!("{target} is unharmed"),
            Harm::Normal => format!("{target} is struck"),
            Harm::Special => format!("{target} takes a special success"),
        })
    }
}

impl Narrate for DamageRolled {
    fn describe(&self, n: &Names) -> String {
        let mut s = format!("Damage to {}: ", n.who(self.target));
        if let Some(m) = self.special_max {
            s.push_str(&format!("maximum {m} + "));
        }
        s.push_str(&dice_text(&self.weapon));
        if let Some(b) = &self.bonus {
            let half = if self.half_bonus {
                format!(" halved up to {}", self.bonus_added)
            } else {
                String::new()
            };
            s.push_str(&format!(" + damage bonus {}{half}", dice_text(b)));
        }
        format!("{s} = {}  [{}]", self.total, self.rule)
    }
}

impl Narrate for GearDamaged {
    fn describe(&self, n: &Names) -> String {
        let points = self.points;
        format!(
            "{}'s {} takes {points} point{} of damage ({} hit points left)  [{}]",
            n.who(self.who),
            self.item.to_lowercase(),
            if points == 1 { "" } else { "s" },
            self.hp_left.max(0),
            self.rule
        )
    }
}

impl Narrate for Thrown {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{}'s {} is thrown and gone  [{}]",
            n.who(self.who),
            self.weapon.to_lowercase(),
            self.rule
        )
    }
}

impl Narrate for FirstAid {
    fn describe(&self, n: &Names) -> String {
        let heals: Vec<String> = self
            .healed
            .iter()
            .map(|(i, r, g)| format!("wound {}: {} heals {g}", i + 1, dice_text(r)))
            .collect();
        format!(
            "{} gives {} First Aid: {} vs {}%: {}{}  [{}]",
            n.who(self.medic),
            n.who(self.patient),
            dice_text(&self.roll),
            self.chance,
            self.level.name(),
            if heals.is_empty() {
                " (bandaged, no better)".to_string()
            } else {
                format!("; {}", heals.join(", "))
            },
            self.rule
        )
    }
}

impl Narrate for Reloading {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{} reloads the {} (ready at the round's end)  [{}]",
            n.who(self.who),
            self.weapon.to_lowercase(),
            self.rule
        )
    }
}

impl Narrate for Reloaded {
    fn describe(&self, n: &Names) -> String {
        format!(
            "{}'s {} is loaded ({})  [{}]",
            n.who(self.who),
            self.weapon.to_lowercase(),
            self.loaded,
            self.rule
        )
    }
}

fn intent_text(n: &Names, i: &Intent, weapon: Option<&str>) -> String {
    let w = weapon.unwrap_or("weapon").to_lowercase();
    match i {
        Intent::Attack { target, .. } => {
            format!("will attack {} with the {w}", n.who(*target))
        }
        Intent::FirstAid { patient } => format!("will give {} First Aid", n.who(*patient)),
        Intent::Reload { .. } => format!("will reload the {w}"),
        Intent::Defend => "will only parry and dodge".into(),
    }
}

fn chance_text(rating: i32, difficulty: Difficulty, chance: i32) -> String {
    if difficulty == Difficulty::Normal {
        format!("{chance}%")
    } else {
        format!("{rating}% {} = {chance}%", difficulty.name())
    }
}

fn band_text(b: Band) -> &'static str {
    match b {
        Band::Full => "full DEX rank",
        Band::Half => "half DEX rank",
        Band::Quarter => "a quarter of DEX rank",
        Band::Run => "no action",
    }
}

fn level_word(l: Level) -> &'static str {
    match l {
        Level::Special => "Special",
        Level::Success => "Success",
        Level::Failure => "Failure",
    }
}
