//! A ruleset's settings, one path for all: `settings.ron` and `--set
//! KEY=VALUE` both go through serde into the ruleset's settings struct, and
//! both are checked by the same [`RulesetSettings::check_ranges`]. Adding a
//! setting is a field (with its doc comment), its default, its line in
//! `settings.ron`, and its range if it has one.

use std::ops::RangeInclusive;
use std::path::Path;

use bevy::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::data::error::{load_ron, locate};
use crate::rules::error::DataError;

/// A setting out of its range: the setting and what it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutOfRange {
    pub key: &'static str,
    pub expected: String,
}

/// What every ruleset's settings struct is.
pub trait RulesetSettings:
    Resource
    + Component<Mutability = bevy::ecs::component::Mutable>
    + Clone
    + std::fmt::Debug
    + Default
    + Serialize
    + DeserializeOwned
    + PartialEq
{
    /// The ruleset's id, for messages.
    const RULESET: &'static str;

    /// Every setting with a range: the first one outside it.
    fn check_ranges(&self) -> Result<(), OutOfRange>;

    /// Words `--set` takes for a setting's value besides its own form
    /// (`kill` for a pit that kills, say): the value's RON or JSON text.
    fn alias(_key: &str, _value: &str) -> Option<&'static str> {
        None
    }
}

/// `key` must lie in `range`.
pub fn in_range<T: PartialOrd + std::fmt::Display>(
    key: &'static str,
    value: T,
    range: RangeInclusive<T>,
    what: &str,
) -> Result<(), OutOfRange> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(OutOfRange {
            key,
            expected: format!("{what} {}-{}", range.start(), range.end()),
        })
    }
}

/// The settings as a map from name to value.
fn fields<S: RulesetSettings>(s: &S) -> serde_json::Map<String, Value> {
    match serde_json::to_value(s) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

/// Every setting's name, in alphabetical order.
pub fn keys<S: RulesetSettings>() -> Vec<String> {
    fields(&S::default()).keys().cloned().collect()
}

/// `snake_case` or `lowercase` to `CamelCase`: the names of enum variants.
fn camel(v: &str) -> String {
    v.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// Change one setting from text, as `--set key=value` does: `true`/`on`/
/// `yes`, numbers, enum variants (`Incapacitated` or `incapacitated`),
/// `None`, dice (`2d6`), and the ruleset's own aliases. The result must be
/// within every range; nothing changes on an error.
pub fn set<S: RulesetSettings>(settings: &mut S, key: &str, value: &str) -> Result<(), String> {
    let mut map = fields(settings);
    if !map.contains_key(key) {
        return Err(format!(
            "{} has no setting `{key}`; expected one of {}",
            S::RULESET,
            keys::<S>().join(", ")
        ));
    }
    let v = value.trim();
    let common = match v {
        "on" | "yes" => Some("true"),
        "off" | "no" => Some("false"),
        "None" | "none" => Some("null"),
        _ => None,
    };
    let mut candidates: Vec<Value> = S::alias(key, v)
        .into_iter()
        .chain(common)
        .chain(std::iter::once(v))
        .filter_map(|t| serde_json::from_str(t).ok())
        .collect();
    candidates.push(Value::String(v.to_string()));
    candidates.push(Value::String(camel(v)));
    let mut why = String::new();
    for c in candidates {
        map.insert(key.to_string(), c);
        match serde_json::from_value::<S>(Value::Object(map.clone())) {
            Ok(new) => {
                return match new.check_ranges() {
                    Ok(()) => {
                        *settings = new;
                        Ok(())
                    }
                    Err(e) => Err(format!("{} expects {}, not `{value}`", e.key, e.expected)),
                };
            }
            Err(e) if why.is_empty() => why = e.to_string(),
            Err(_) => {}
        }
    }
    let why = why
        .replace("a boolean", "true or false")
        .replace("expected u32", "expected a whole number, 0 or more")
        .replace("expected i32", "expected a whole number");
    Err(format!("{key}: `{value}` is not a value it takes ({why})"))
}

/// Read `settings.ron` and check every range; an error names the file and
/// the line and column of the setting.
pub fn load<S: RulesetSettings>(path: &Path) -> Result<S, DataError> {
    let settings: S = load_ron(path)?;
    if let Err(e) = settings.check_ranges() {
        let text = crate::data::error::read_capped(path).unwrap_or_default();
        let value = fields(&settings)
            .get(e.key)
            .map(|v| v.to_string())
            .unwrap_or_default();
        return Err(DataError::new(
            path,
            locate(&text, None, &format!("{}:", e.key)),
            format!("`{}` expects {}, not {value}", e.key, e.expected),
        ));
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::DiceExpr;
    use crate::rulesets::ud10::settings::{InitiativeGrouping, Ud10Settings};
    use crate::rulesets::zones::settings::{ZeroHealth, ZonesSettings};

    #[test]
    fn set_takes_each_form_a_value_is_written_in() {
        let mut u = Ud10Settings::default();
        set(&mut u, "body_zones", "off").unwrap();
        set(&mut u, "fleeing", "false").unwrap();
        set(&mut u, "initiative_grouping", "per_ai_faction").unwrap();
        set(&mut u, "dead_at_hp", "-8").unwrap();
        assert!(!u.body_zones && !u.fleeing);
        assert_eq!(u.initiative_grouping, InitiativeGrouping::PerAiFaction);
        assert_eq!(u.dead_at_hp, -8);
        let mut z = ZonesSettings::default();
        set(&mut z, "zero_health", "Incapacitated").unwrap();
        set(&mut z, "pit_damage", "2d6").unwrap();
        assert_eq!(z.zero_health, ZeroHealth::Incapacitated);
        assert_eq!(z.pit_damage, Some("2d6".parse::<DiceExpr>().unwrap()));
        set(&mut z, "pit_damage", "kill").unwrap();
        assert_eq!(z.pit_damage, None);
    }

    #[test]
    fn set_refuses_what_is_out_of_range_or_unknown_and_changes_nothing() {
        let mut z = ZonesSettings::default();
        let before = z.clone();
        assert_eq!(
            set(&mut z, "critical_percent", "0"),
            Err("critical_percent expects a percentage 1-100, not `0`".into())
        );
        assert!(set(&mut z, "durability_die", "1").is_err());
        assert!(set(&mut z, "morale", "maybe").is_err());
        let e = set(&mut z, "zero_health", "asleep").unwrap_err();
        assert!(e.contains("`Dead` or `Incapacitated`"), "{e}");
        let e = set(&mut z, "armour", "2").unwrap_err();
        assert!(e.starts_with("zones has no setting `armour`"), "{e}");
        assert_eq!(z, before);
        // Ranges that depend on another setting.
        let mut u = Ud10Settings::default();
        assert!(set(&mut u, "dead_at_hp", "1").is_err());
        assert!(set(&mut u, "high_cover", "1").is_err());
    }

    #[test]
    fn a_settings_file_out_of_range_is_refused_at_its_line() {
        let dir = std::env::temp_dir().join(format!("fray-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("settings.ron");
        let shipped =
            std::fs::read_to_string("assets/rulesets/zones/settings.ron").expect("shipped");
        std::fs::write(
            &path,
            shipped.replace("durability_die: 6,", "durability_die: 0,"),
        )
        .unwrap();
        let e = load::<ZonesSettings>(&path).unwrap_err();
        let line = shipped
            .lines()
            .position(|l| l.contains("durability_die: 6"))
            .unwrap()
            + 1;
        assert_eq!((e.line, e.column), (line, 5), "{e}");
        assert_eq!(
            e.message,
            "`durability_die` expects the sides of a die, 2-100, not 0"
        );
        // The shipped files are within range.
        assert!(load::<ZonesSettings>(Path::new("assets/rulesets/zones/settings.ron")).is_ok());
        assert!(load::<Ud10Settings>(Path::new("assets/rulesets/ud10/settings.ron")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
