//! The one path by which every ruleset reads its folder under
//! `assets/rulesets/<id>/`: `equipment.ron`, `bestiary.ron` and
//! `settings.ron`, parsed with the shared RON loader, settings range-checked,
//! and every archetype's gear checked against the equipment (errors at the
//! gear's line and column in the bestiary).

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::data::error::{check_archetype_equipment, parse_ron, read_capped};
use crate::rules::error::{DataError, DefError};
use crate::rulesets::settings::{self, RulesetSettings};

/// A ruleset's `equipment.ron`.
pub trait Equipment: DeserializeOwned {
    /// Does it define this item of this kind (`weapon`, `armour`, ...)?
    fn defines(&self, kind: &str, id: &str) -> bool;
    /// Every number of every item against Fray's range for it.
    fn ranges(&self, r: &mut Ranges);
}

/// A ruleset's `bestiary.ron`.
pub trait Bestiary: DeserializeOwned {
    /// Every archetype with the gear it names: (kind, item id).
    fn gear(&self) -> Vec<(&str, Vec<(&'static str, &str)>)>;
    /// Every number of every stat block against Fray's range for it.
    fn ranges(&self, r: &mut Ranges);
}

/// The first number of a data file found outside Fray's range for it: the
/// ranges are wide enough for anything the rule texts describe and narrow
/// enough that no sum of them overflows.
#[derive(Default)]
pub struct Ranges {
    first: Option<(String, &'static str, String)>,
}

impl Ranges {
    fn fail(&mut self, entry: &str, field: &'static str, message: String) {
        if self.first.is_none() {
            self.first = Some((entry.to_string(), field, message));
        }
    }
    /// A whole number of `entry`'s `field`.
    pub fn int(
        &mut self,
        entry: &str,
        field: &'static str,
        value: impl Into<i64>,
        range: std::ops::RangeInclusive<i64>,
    ) {
        let v = value.into();
        if !range.contains(&v) {
            self.fail(
                entry,
                field,
                format!(
                    "`{entry}` has {field} {v}; expected {} to {}",
                    range.start(),
                    range.end()
                ),
            );
        }
    }
    /// A measure (metres) of `entry`'s `field`: a finite number in range.
    pub fn real(
        &mut self,
        entry: &str,
        field: &'static str,
        value: f64,
        range: std::ops::RangeInclusive<f64>,
    ) {
        if !value.is_finite() || !range.contains(&value) {
            self.fail(
                entry,
                field,
                format!(
                    "`{entry}` has {field} {value}; expected {} to {}",
                    range.start(),
                    range.end()
                ),
            );
        }
    }
    /// A damage expression of `entry`: at most 10,000 at its highest (far
    /// beyond any weapon of the texts, and far from overflowing a sum),
    /// never below -1,000 at its lowest. Exploding dice are bounded apart.
    pub fn damage(&mut self, entry: &str, field: &'static str, d: &crate::rules::dice::DiceExpr) {
        let (lo, hi) = (d.min(None), d.max(None));
        if hi > 10_000 || lo < -1000 {
            self.fail(
                entry,
                field,
                format!("`{entry}` has {field} {d} ({lo} to {hi}); expected at most 10000 and at least -1000"),
            );
        }
    }
    /// Something else wrong with `entry`'s `field`.
    pub fn check(&mut self, ok: bool, entry: &str, field: &'static str, message: String) {
        if !ok {
            self.fail(entry, field, message);
        }
    }
    /// The first number out of range in `text` (read from `file`), as an
    /// error at the field's line and column inside its entry.
    fn error(self, file: &Path, text: &str) -> Result<(), DataError> {
        match self.first {
            None => Ok(()),
            Some((entry, field, message)) => Err(DataError::new(
                file,
                crate::data::error::locate(
                    text,
                    Some(&format!("\"{entry}\"")),
                    &format!("{field}:"),
                ),
                message,
            )),
        }
    }
}

/// An archetype's gear as [`Bestiary::gear`] lists it: its weapons, its
/// pieces of armour (under the ruleset's own word for them), its shield.
pub fn archetype_gear<'a>(
    weapons: &'a [String],
    armor_kind: &'static str,
    armor: &'a [String],
    shield: Option<&'a String>,
) -> Vec<(&'static str, &'a str)> {
    let weapons = weapons.iter().map(|w| ("weapon", w.as_str()));
    let armor = armor.iter().map(move |p| (armor_kind, p.as_str()));
    let shield = shield.into_iter().map(|s| ("shield", s.as_str()));
    weapons.chain(armor).chain(shield).collect()
}

/// A ruleset's data folder, read and checked.
pub struct Files<E, B, S> {
    pub equipment: E,
    pub bestiary: B,
    pub settings: S,
    /// The bestiary's path and text, for the ruleset's own checks' errors.
    pub bestiary_file: PathBuf,
    pub bestiary_text: String,
}

/// Read and check a ruleset's data folder.
pub fn load<E: Equipment, B: Bestiary, S: RulesetSettings>(
    dir: &Path,
) -> Result<Files<E, B, S>, DataError> {
    let equipment_file = dir.join("equipment.ron");
    let equipment_text = read_capped(&equipment_file)?;
    let equipment: E = parse_ron(&equipment_file, &equipment_text)?;
    let mut r = Ranges::default();
    equipment.ranges(&mut r);
    r.error(&equipment_file, &equipment_text)?;
    let bestiary_file = dir.join("bestiary.ron");
    let bestiary_text = read_capped(&bestiary_file)?;
    let bestiary: B = parse_ron(&bestiary_file, &bestiary_text)?;
    let mut r = Ranges::default();
    bestiary.ranges(&mut r);
    r.error(&bestiary_file, &bestiary_text)?;
    let settings: S = settings::load(&dir.join("settings.ron"))?;
    for (id, gear) in bestiary.gear() {
        let items: Vec<(&str, &str, bool)> = gear
            .iter()
            .map(|(kind, item)| (*kind, *item, equipment.defines(kind, item)))
            .collect();
        check_archetype_equipment(&bestiary_file, &bestiary_text, id, &items)?;
    }
    Ok(Files {
        equipment,
        bestiary,
        settings,
        bestiary_file,
        bestiary_text,
    })
}

/// A stat a level may set for one combatant (`stats: {"HP": 20}`), with the
/// values Fray accepts for it: the range is Fray's, wide enough for any
/// character the text describes and narrow enough that no sum overflows.
pub type StatRange = (&'static str, std::ops::RangeInclusive<i32>);

/// The range of stat `key` in `known`, for the bestiary's stat blocks (an
/// unknown key allows only 0).
pub fn stat_range(known: &[StatRange], key: &str) -> std::ops::RangeInclusive<i64> {
    known
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(0..=0, |(_, r)| i64::from(*r.start())..=i64::from(*r.end()))
}

/// What a stat override's key means to `ruleset`: the stat it sets (`None`:
/// the override is another ruleset's). A level tuned per ruleset writes
/// `"zones.HEALTH"`: the ruleset's id, a dot, the stat; a key with no
/// ruleset named is for every ruleset.
pub fn stat_key<'k>(ruleset: &str, key: &'k str) -> Option<&'k str> {
    match key.split_once('.') {
        Some((id, stat)) if id == ruleset => Some(stat),
        Some((id, _)) if crate::rulesets::parse(id).is_some() => None,
        _ => Some(key),
    }
}

/// A combatant's stat overrides as `ruleset` reads them ([`stat_key`]).
pub fn stats_for(
    ruleset: &str,
    stats: &std::collections::BTreeMap<String, i32>,
) -> std::collections::BTreeMap<String, i32> {
    stats
        .iter()
        .filter_map(|(k, v)| Some((stat_key(ruleset, k)?.to_string(), *v)))
        .collect()
}

/// Check a combatant's stat overrides: every key meant for the ruleset
/// ([`stat_key`]) one it knows, every value in its range. The error points
/// at the key as written.
pub fn check_stat_overrides(
    ruleset: &str,
    stats: &std::collections::BTreeMap<String, i32>,
    known: &[StatRange],
) -> Result<(), DefError> {
    for (written, value) in stats {
        let Some(key) = stat_key(ruleset, written) else {
            continue;
        };
        let Some((_, range)) = known.iter().find(|(k, _)| *k == key) else {
            let keys: Vec<&str> = known.iter().map(|(k, _)| *k).collect();
            return Err(DefError::value(
                written.clone(),
                format!(
                    "{ruleset} has no stat `{key}`; expected one of {}",
                    keys.join(", ")
                ),
            ));
        };
        if !range.contains(value) {
            return Err(DefError::value(
                written.clone(),
                format!(
                    "{key} {value} is out of range; expected {} to {}",
                    range.start(),
                    range.end()
                ),
            ));
        }
    }
    Ok(())
}

/// An item a combatant names that the ruleset's equipment lacks: the error
/// points at the name and lists what there is.
pub fn unknown_item<'a>(
    ruleset: &str,
    kind: &str,
    id: &str,
    known: impl Iterator<Item = &'a String>,
) -> DefError {
    let known: Vec<&str> = known.map(String::as_str).collect();
    DefError::value(
        id,
        format!(
            "{ruleset} has no {kind} `{id}`; expected one of {}",
            crate::data::error::quoted_list(&known)
        ),
    )
}

/// An archetype the ruleset's bestiary lacks: the error points at it.
pub fn unknown_archetype<'a>(
    ruleset: &str,
    id: &str,
    known: impl Iterator<Item = &'a String>,
) -> DefError {
    let known: Vec<&str> = known.map(String::as_str).collect();
    DefError::field(
        "archetype",
        format!(
            "{ruleset} has no archetype `{id}`; expected one of {}",
            crate::data::error::quoted_list(&known)
        ),
    )
}
