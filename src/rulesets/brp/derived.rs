//! The numbers brp derives from a stat block and its gear: hit points
//! (§5.12), the chance a weapon gives (§5.5, §5.9), armor against a blow
//! (§5.10), the damage bonus halved (§5.9) and a special success's damage
//! (§5.13). A leaf: numbers only, shared by the preview, the AI and the
//! execution.

use std::collections::BTreeMap;

use super::chance::ceil_div;

pub const RULE_HIT_POINTS: &str = "brp §5.12 Damage and Injury";
pub const RULE_SPECIAL: &str = "brp §5.13 Special Successes";
pub const RULE_ARMOR: &str = "brp §5.10 Armor";

/// Hit points: "derived from the average of Constitution and Size", the
/// average rounded up (docs/rulesets/brp.md, "Hit points").
pub fn hit_points(con: i32, siz: i32) -> i32 {
    ceil_div(con + siz, 2)
}

/// Where a skill's chance came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The character's own rating in the specialty.
    Own,
    /// Untrained: the specialty's base chance.
    Base,
    /// §5.5: "a related specialty skill may be used as if Difficult (1/2
    /// chance)": this one, halved.
    Related(String),
}

/// A chance and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub chance: i32,
    pub source: Source,
}

/// The chance with a weapon of `specialty` (base chance `base`): the
/// character's rating in it; or, untrained, the better of its base chance
/// and half the best rating among `related` specialties (the others of the
/// same skill: docs/rulesets/brp.md, "Related specialties") when the
/// option is on.
pub fn weapon_rating<'a>(
    skills: &BTreeMap<String, i32>,
    specialty: &str,
    base: i32,
    related: impl IntoIterator<Item = &'a str>,
    allow_related: bool,
) -> Rating {
    if let Some(&own) = skills.get(specialty) {
        return Rating {
            chance: own,
            source: Source::Own,
        };
    }
    let mut best = Rating {
        chance: base,
        source: Source::Base,
    };
    if allow_related {
        for other in related {
            if other == specialty {
                continue;
            }
            if let Some(&r) = skills.get(other)
                && ceil_div(r, 2) > best.chance
            {
                best = Rating {
                    chance: ceil_div(r, 2),
                    source: Source::Related(other.to_string()),
                };
            }
        }
    }
    best
}

/// "½ damage bonus means roll and divide by 2, rounding up" (§5.9): of a
/// bonus that rolled `rolled` (rounding up a negative half too: −3 gives −1).
pub fn half_bonus(rolled: i32) -> i32 {
    -((-rolled).div_euclid(2))
}

/// A special success's damage (§5.13): "the maximum damage the weapon can
/// roll, and then add the results of a normal damage roll to it. Add the
/// damage modifier (if any) on top of that."
pub fn special_damage(weapon_max: i32, weapon_rolled: i32, bonus: i32) -> i32 {
    weapon_max + weapon_rolled + bonus
}

/// What gets through armor (§5.10: "Damage above and beyond the armor's
/// protection value bypasses the armor and is inflicted on the character").
pub fn through_armor(damage: i32, armor_points: i32) -> i32 {
    (damage - armor_points).max(0)
}
