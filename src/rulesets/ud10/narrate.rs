//! UD10's own events in the battle log and on the board.

use crate::rules::event::{Cue, OwnEvent, Tone};
use crate::rules::narrate::{defense_text, dice_text, mods_text, names};
use crate::rules::roster::Names;
use crate::rulesets::ud10::event::{Reaction, Ud10Event, cannot_react};

impl OwnEvent for Ud10Event {
    fn describe(&self, n: &Names) -> String {
        let e = self;
        match e {
            Ud10Event::InitiativeRolled { .. } => describe_initiative_rolled(n, e),
            Ud10Event::TieBroken { .. } => describe_tie_broken(n, e),
            Ud10Event::Reloaded { .. } => describe_reloaded(n, e),
            Ud10Event::Aimed { .. } => describe_aimed(n, e),
            Ud10Event::CutFree { who, rule } => {
                format!("{} cuts itself free of the net  [{rule}]", n.who(*who))
            }
            Ud10Event::FirstAid {
                medic,
                patient,
                roll,
                modifiers,
                total,
                difficulty,
                success,
                rule,
            } => format!(
                "{} gives {} first aid: {}{} = {total} vs {difficulty}: {}  [{rule}]",
                n.who(*medic),
                n.who(*patient),
                dice_text(roll),
                mods_text(modifiers),
                if *success { "brought round" } else { "no use" }
            ),
            Ud10Event::AttackRolled { .. } => describe_attack_rolled(n, e),
            Ud10Event::ReactionRolled { .. } => describe_reaction_rolled(n, e),
            Ud10Event::HitLocation { .. } => describe_hit_location(n, e),
            Ud10Event::NoReaction {
                who,
                parry,
                dodge,
                rule,
            } if parry == dodge => format!(
                "{} may not react: {}  [{rule}]",
                n.who(*who),
                parry.why(Reaction::Parry)
            ),
            Ud10Event::NoReaction {
                who,
                parry,
                dodge,
                rule,
            } => format!(
                "{} may not react: parry: {}; dodge: {}  [{rule}]",
                n.who(*who),
                parry.why(Reaction::Parry),
                dodge.why(Reaction::Dodge)
            ),
            Ud10Event::ReactionOffered {
                attack,
                parry,
                dodge,
                rule,
            } => {
                let open: Vec<&str> = [("parry", *parry), ("dodge", *dodge)]
                    .into_iter()
                    .filter_map(|(w, open)| open.then_some(w))
                    .collect();
                format!(
                    "{} may {} against {}'s attack of {}  [{rule}]",
                    n.who(attack.target),
                    crate::rules::narrate::either(&open),
                    n.who(attack.attacker),
                    attack.total
                )
            }
            Ud10Event::Turned {
                who, towards, rule, ..
            } => format!(
                "{} turns to face {}, the only enemy engaging it  [{rule}]",
                n.who(*who),
                n.who(*towards)
            ),
            Ud10Event::Faced {
                who,
                towards: Some(towards),
                facing,
                rule,
            } => format!(
                "{} faces {}, the nearest enemy ({})  [{rule}]",
                n.who(*who),
                n.who(*towards),
                facing.name()
            ),
            Ud10Event::Faced {
                who,
                towards: None,
                facing,
                rule,
            } => format!("{} turns to face {}  [{rule}]", n.who(*who), facing.name()),
        }
    }

    fn plain(&self, n: &Names) -> Option<String> {
        match self {
            Ud10Event::AttackRolled {
                attacker,
                target,
                weapon,
                total,
                defense,
                hit,
                free,
                ..
            } => Some(format!(
                "{}{}'s {} {} {} (rolled {total}, needed {defense})",
                if *free { "Free attack: " } else { "" },
                n.who(*attacker),
                weapon.to_lowercase(),
                if *hit { "hits" } else { "misses" },
                n.who(*target),
            )),
            Ud10Event::ReactionRolled {
                who,
                kind,
                total,
                against,
                success,
                ..
            } => Some(format!(
                "{} {} (rolled {total}, needed {})",
                n.who(*who),
                match (kind, success) {
                    (Reaction::Parry, true) => "parries the blow",
                    (Reaction::Parry, false) => "fails to parry",
                    (Reaction::Dodge, true) => "dodges the blow",
                    (Reaction::Dodge, false) => "fails to dodge",
                },
                against + 1
            )),
            Ud10Event::NoReaction {
                who, parry, dodge, ..
            } => Some(cannot_react(n.who(*who), parry, dodge)),
            Ud10Event::Faced {
                who,
                towards: None,
                facing,
                ..
            } => Some(format!("{} turns to face {}", n.who(*who), facing.name())),
            Ud10Event::HitLocation { target, zone, .. } => Some(format!(
                "The blow lands on {}'s {}",
                n.who(*target),
                zone.name()
            )),
            Ud10Event::FirstAid {
                medic,
                patient,
                success,
                ..
            } => Some(format!(
                "{} gives {} first aid: {}",
                n.who(*medic),
                n.who(*patient),
                if *success { "brought round" } else { "no use" }
            )),
            _ => None,
        }
    }

    fn cues(&self) -> Vec<Cue> {
        match self {
            Ud10Event::AttackRolled {
                attacker,
                target,
                total,
                defense,
                hit,
                free,
                ..
            } => vec![Cue::Strike {
                attacker: *attacker,
                target: *target,
                text: if *hit {
                    format!(
                        "{}HIT {total} vs {defense}",
                        if *free { "free attack: " } else { "" }
                    )
                } else {
                    format!("miss {total} vs {defense}")
                },
                landed: *hit,
            }],
            Ud10Event::ReactionRolled {
                who,
                kind,
                success,
                total,
                against,
                ..
            } => vec![Cue::Say {
                who: *who,
                text: if *success {
                    format!("{} {total} > {against}!", kind.name().to_uppercase())
                } else {
                    format!("{} fails {total}", kind.name())
                },
                tone: Tone::Reaction,
            }],
            Ud10Event::CutFree { who, .. } => vec![Cue::Say {
                who: *who,
                text: "cuts free".into(),
                tone: Tone::Plain,
            }],
            Ud10Event::FirstAid { medic, success, .. } => vec![Cue::Say {
                who: *medic,
                text: if *success {
                    "first aid: brought round".into()
                } else {
                    "first aid: no use".into()
                },
                tone: Tone::Plain,
            }],
            Ud10Event::Reloaded { who, weapon, .. } => vec![Cue::Say {
                who: *who,
                text: format!("reloads {weapon}"),
                tone: Tone::Plain,
            }],
            Ud10Event::Aimed { who, rounds, .. } => vec![Cue::Say {
                who: *who,
                text: format!("aims ({rounds})"),
                tone: Tone::Plain,
            }],
            _ => Vec::new(),
        }
    }
}

fn describe_initiative_rolled(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::InitiativeRolled {
        who,
        roll,
        modifiers,
        total,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "Initiative: {} rolls {}{} = {total}  [{rule}]",
        n.who(*who),
        dice_text(roll),
        mods_text(modifiers)
    )
}

fn describe_tie_broken(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::TieBroken {
        between,
        order,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "Initiative tie between {} broken by a roll-off: {}  [{rule}]",
        names(n, between),
        names(n, order)
    )
}

fn describe_reloaded(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::Reloaded {
        who,
        weapon,
        loaded,
        rule,
        ..
    } = e
    else {
        return String::new();
    };
    format!(
        "{} reloads the {weapon} ({loaded} loaded)  [{rule}]",
        n.who(*who)
    )
}

fn describe_aimed(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::Aimed {
        who,
        target,
        rounds,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "{} takes aim at {} ({rounds} round{})  [{rule}]",
        n.who(*who),
        n.who(*target),
        if *rounds == 1 { "" } else { "s" }
    )
}

fn describe_attack_rolled(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::AttackRolled {
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
    } = e
    else {
        return String::new();
    };
    format!(
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
    )
}

fn describe_reaction_rolled(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::ReactionRolled {
        who,
        kind,
        roll,
        modifiers,
        total,
        against,
        success,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
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
    )
}

fn describe_hit_location(n: &Names, e: &Ud10Event) -> String {
    let Ud10Event::HitLocation {
        target,
        die,
        zone,
        rule,
    } = e
    else {
        return String::new();
    };
    format!(
        "Hit location on {}: d10 [{die}] -> {}  [{rule}]",
        n.who(*target),
        zone.name()
    )
}
