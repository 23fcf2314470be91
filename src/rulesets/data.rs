//! The one path by which every ruleset reads its folder under
//! `assets/rulesets/<id>/`: `equipment.ron`, `bestiary.ron` and
//! `settings.ron`, parsed with the shared RON loader, settings range-checked,
//! and every archetype's gear checked against the equipment (errors at the
//! gear's line and column in the bestiary).

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::data::error::{check_archetype_equipment, load_ron};
use crate::rules::error::DataError;
use crate::rulesets::settings::{self, RulesetSettings};

/// A ruleset's `equipment.ron`.
pub trait Equipment: DeserializeOwned {
    /// Does it define this item of this kind (`weapon`, `armour`, ...)?
    fn defines(&self, kind: &str, id: &str) -> bool;
}

/// A ruleset's `bestiary.ron`.
pub trait Bestiary: DeserializeOwned {
    /// Every archetype with the gear it names: (kind, item id).
    fn gear(&self) -> Vec<(&str, Vec<(&'static str, &str)>)>;
}

/// An archetype's gear as [`Bestiary::gear`] lists it: its weapons, its
/// pieces of armour (under the ruleset's own word for them), its shield.
pub fn archetype_gear<'a>(
    weapons: &'a [String],
    armour_kind: &'static str,
    armour: &'a [String],
    shield: Option<&'a String>,
) -> Vec<(&'static str, &'a str)> {
    let weapons = weapons.iter().map(|w| ("weapon", w.as_str()));
    let armour = armour.iter().map(move |p| (armour_kind, p.as_str()));
    let shield = shield.into_iter().map(|s| ("shield", s.as_str()));
    weapons.chain(armour).chain(shield).collect()
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
    let equipment: E = load_ron(&dir.join("equipment.ron"))?;
    let bestiary_file = dir.join("bestiary.ron");
    let bestiary: B = load_ron(&bestiary_file)?;
    let settings: S = settings::load(&dir.join("settings.ron"))?;
    let bestiary_text = std::fs::read_to_string(&bestiary_file).unwrap_or_default();
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
