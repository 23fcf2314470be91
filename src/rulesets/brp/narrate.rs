//! brp's own events in the battle log and on the board.

use crate::rules::event::{Cue, OwnEvent, Tone};
use crate::rules::narrate::dice_text;
use crate::rules::narrate::groups;
use crate::rules::roster::Names;

use super::chance::{Difficulty, Level};
use super::command::Intent;
use super::event::{Band, BrpEvent, RoundPhase};
use super::matrix::{Defense, Harm};

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

impl OwnEvent for BrpEvent {
    fn describe(&self, n: &Names) -> String {
        match self {
            BrpEvent::PhaseBegan { phase, rule } => format!(
                "-- {} --  [{rule}]",
                match phase {
                    RoundPhase::Intent => "Statement of intent",
                    RoundPhase::Movement => "Movement",
                    RoundPhase::Actions => "Actions, DEX ranks counted down",
                    RoundPhase::Resolution => "Resolution",
                }
            ),
            BrpEvent::DexOrder { order, rule } => {
                format!("DEX order: {}  [{rule}]", groups(n, order))
            }
            BrpEvent::Declared {
                who,
                intent,
                weapon,
                rule,
            } => format!(
                "{} {}  [{rule}]",
                n.who(*who),
                intent_text(n, intent, weapon.as_deref())
            ),
            BrpEvent::Ranked {
                who,
                dex,
                moved_dm,
                band,
                rank,
                rule,
            } => format!(
                "{} moved {:.1} m: {} ({})  [{rule}]",
                n.who(*who),
                f64::from(*moved_dm) / 10.0,
                band_text(*band),
                if *band == Band::Run {
                    format!("DEX {dex}")
                } else {
                    format!("DEX {dex} -> rank {rank}")
                }
            ),
            BrpEvent::RankCalled { rank, order, rule } => {
                format!("DEX rank {rank}: {}  [{rule}]", groups(n, order))
            }
            BrpEvent::DefenseOffered { attack, ways, rule } => {
                let ways: Vec<String> = ways
                    .iter()
                    .map(|w| match w.as_str() {
                        "Dodge" => "dodge".to_string(),
                        parry => format!("parry with the {}", parry.to_lowercase()),
                    })
                    .collect();
                let ways: Vec<&str> = ways.iter().map(String::as_str).collect();
                format!(
                    "{} may {} against {}'s {}  [{rule}]",
                    n.who(attack.target),
                    crate::rules::narrate::either(&ways),
                    n.who(attack.attacker),
                    attack.weapon.to_lowercase()
                )
            }
            BrpEvent::AttackRolled {
                attacker,
                target,
                weapon,
                rating,
                difficulty,
                chance,
                roll,
                level,
                rule,
                ..
            } => format!(
                "{} attacks {} with the {}: {} vs {}: {}  [{rule}]",
                n.who(*attacker),
                n.who(*target),
                weapon.to_lowercase(),
                dice_text(roll),
                chance_text(*rating, *difficulty, *chance),
                level.name()
            ),
            BrpEvent::DefenseRolled {
                who,
                kind,
                with,
                rating,
                difficulty,
                chance,
                roll,
                level,
                rule,
            } => format!(
                "{} {}: {} vs {}: {}  [{rule}]",
                n.who(*who),
                match kind {
                    Defense::Parry => format!("parries with the {}", with.to_lowercase()),
                    Defense::Dodge => "dodges".into(),
                },
                dice_text(roll),
                chance_text(*rating, *difficulty, *chance),
                level.name()
            ),
            BrpEvent::Matrix {
                attack,
                defense,
                says,
                rule,
                ..
            } => format!(
                "{} against {}: {says}  [{rule}]",
                level_word(*attack),
                match defense {
                    None => "no defence".to_string(),
                    Some((k, l)) => format!(
                        "{} {}",
                        level_word(*l),
                        match k {
                            Defense::Parry => "parry",
                            Defense::Dodge => "dodge",
                        }
                    ),
                }
            ),
            BrpEvent::DamageRolled {
                target,
                weapon,
                special_max,
                bonus,
                half_bonus,
                bonus_added,
                total,
                rule,
            } => {
                let mut s = format!("Damage to {}: ", n.who(*target));
                if let Some(m) = special_max {
                    s.push_str(&format!("maximum {m} + "));
                }
                s.push_str(&dice_text(weapon));
                if let Some(b) = bonus {
                    let half = if *half_bonus {
                        format!(" halved up to {bonus_added}")
                    } else {
                        String::new()
                    };
                    s.push_str(&format!(" + damage bonus {}{half}", dice_text(b)));
                }
                format!("{s} = {total}  [{rule}]")
            }
            BrpEvent::GearDamaged {
                who,
                item,
                points,
                hp_left,
                rule,
                ..
            } => format!(
                "{}'s {} takes {points} point{} of damage ({} hit points left)  [{rule}]",
                n.who(*who),
                item.to_lowercase(),
                if *points == 1 { "" } else { "s" },
                hp_left.max(&0)
            ),
            BrpEvent::Thrown {
                who, weapon, rule, ..
            } => format!(
                "{}'s {} is thrown and gone  [{rule}]",
                n.who(*who),
                weapon.to_lowercase()
            ),
            BrpEvent::FirstAid {
                medic,
                patient,
                chance,
                roll,
                level,
                healed,
                rule,
            } => {
                let heals: Vec<String> = healed
                    .iter()
                    .map(|(i, r, g)| format!("wound {}: {} heals {g}", i + 1, dice_text(r)))
                    .collect();
                format!(
                    "{} gives {} First Aid: {} vs {chance}%: {}{}  [{rule}]",
                    n.who(*medic),
                    n.who(*patient),
                    dice_text(roll),
                    level.name(),
                    if heals.is_empty() {
                        " (bandaged, no better)".to_string()
                    } else {
                        format!("; {}", heals.join(", "))
                    }
                )
            }
            BrpEvent::Reloading {
                who, weapon, rule, ..
            } => format!(
                "{} reloads the {} (ready at the round's end)  [{rule}]",
                n.who(*who),
                weapon.to_lowercase()
            ),
            BrpEvent::Reloaded {
                who,
                weapon,
                loaded,
                rule,
                ..
            } => format!(
                "{}'s {} is loaded ({loaded})  [{rule}]",
                n.who(*who),
                weapon.to_lowercase()
            ),
        }
    }

    fn plain(&self, n: &Names) -> Option<String> {
        match self {
            BrpEvent::AttackRolled {
                attacker,
                target,
                weapon,
                chance,
                roll,
                level,
                ..
            } => Some(format!(
                "{}'s {} {} {} (rolled {}, needed {chance} or less)",
                n.who(*attacker),
                weapon.to_lowercase(),
                match level {
                    Level::Special => "strikes true at",
                    Level::Success => "finds",
                    Level::Failure => "misses",
                },
                n.who(*target),
                roll.total
            )),
            BrpEvent::DefenseRolled {
                who,
                kind,
                chance,
                roll,
                level,
                ..
            } => Some(format!(
                "{} {} (rolled {}, needed {chance} or less)",
                n.who(*who),
                match (kind, level) {
                    (Defense::Parry, Level::Failure) => "fails to parry",
                    (Defense::Parry, _) => "parries",
                    (Defense::Dodge, Level::Failure) => "fails to dodge",
                    (Defense::Dodge, _) => "dodges",
                },
                roll.total
            )),
            BrpEvent::Matrix { target, harm, .. } => Some(match harm {
                Harm::None => format!("{} is unharmed", n.who(*target)),
                Harm::Normal => format!("{} is struck", n.who(*target)),
                Harm::Special => format!("{} takes a special success", n.who(*target)),
            }),
            BrpEvent::Declared {
                who,
                intent,
                weapon,
                ..
            } => Some(format!(
                "{} {}",
                n.who(*who),
                intent_text(n, intent, weapon.as_deref())
            )),
            BrpEvent::RankCalled { rank, .. } => Some(format!("DEX rank {rank}")),
            _ => None,
        }
    }

    fn cues(&self) -> Vec<Cue> {
        match self {
            BrpEvent::AttackRolled {
                attacker,
                target,
                level,
                ..
            } => vec![Cue::Strike {
                attacker: *attacker,
                target: *target,
                text: match level {
                    Level::Special => "Special!".into(),
                    Level::Success => "Hit".into(),
                    Level::Failure => "Miss".into(),
                },
                landed: *level != Level::Failure,
            }],
            BrpEvent::DefenseRolled {
                who, kind, level, ..
            } => vec![Cue::Say {
                who: *who,
                text: match (kind, *level != Level::Failure) {
                    (Defense::Parry, true) => "Parried".into(),
                    (Defense::Parry, false) => "Parry fails".into(),
                    (Defense::Dodge, true) => "Dodged".into(),
                    (Defense::Dodge, false) => "Dodge fails".into(),
                },
                tone: Tone::Reaction,
            }],
            _ => Vec::new(),
        }
    }
}

fn level_word(l: Level) -> &'static str {
    match l {
        Level::Special => "Special",
        Level::Success => "Success",
        Level::Failure => "Failure",
    }
}
