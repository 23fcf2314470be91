//! Screens, the chosen battle (level, ruleset, who controls each faction,
//! seed) and the catalog of levels.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::data::level::load_levels;
use crate::rules::battle::RulesetId;
use crate::rules::components::Controller;
use crate::rules::engine::{supported_rulesets, validate};
use crate::rules::level::{Control, Level};

/// The game's screens.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Title,
    Setup,
    Battle,
    Results,
}

/// How fast AI turns play out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    #[default]
    X1,
    X2,
    X4,
    /// No animation: AI turns resolve at once.
    Instant,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::X1, Speed::X2, Speed::X4, Speed::Instant];
    pub fn factor(self) -> f32 {
        match self {
            Speed::X1 => 1.0,
            Speed::X2 => 2.0,
            Speed::X4 => 4.0,
            Speed::Instant => f32::INFINITY,
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Speed::X1 => "x1",
            Speed::X2 => "x2",
            Speed::X4 => "x4",
            Speed::Instant => "instant",
        }
    }
    pub fn parse(s: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|v| v.label() == s)
    }
}

/// The battle the player set up.
#[derive(Resource, Clone, Debug)]
pub struct Session {
    pub level: Level,
    pub path: PathBuf,
    pub ruleset: RulesetId,
    pub supported: Vec<RulesetId>,
    /// One controller per faction, in the level's order.
    pub controls: Vec<Controller>,
    pub seed: u64,
}

impl Session {
    /// A session on `level`: the requested ruleset (or the level's default),
    /// controllers as the level says (or all AI).
    pub fn new(
        world: &World,
        level: Level,
        path: PathBuf,
        ruleset: Option<RulesetId>,
        seed: u64,
        all_ai: bool,
    ) -> Result<Session, String> {
        let supported = supported_rulesets(world, &level);
        let wanted = ruleset.or_else(|| crate::rulesets::parse(&level.default_ruleset));
        // Why `wanted` cannot play the level: the one validation's answer,
        // at the line and column of what it refuses.
        let refusal = |w: RulesetId| match validate(world, &level, w) {
            Err(e) => e.to_string(),
            Ok(()) => format!("{}: the {w} ruleset cannot play this level", path.display()),
        };
        let ruleset = wanted
            .filter(|r| supported.contains(r))
            .or_else(|| supported.first().copied())
            .ok_or_else(|| {
                wanted.map(refusal).unwrap_or_else(|| {
                    format!(
                        "{}: no implemented ruleset plays this level",
                        path.display()
                    )
                })
            })?;
        if let Some(w) = wanted
            && w != ruleset
        {
            return Err(refusal(w));
        }
        let controls = level
            .factions
            .iter()
            .map(|f| match (all_ai, f.control) {
                (true, _) | (_, Control::Ai) => Controller::Ai,
                (false, Control::Human) => Controller::Human,
            })
            .collect();
        Ok(Session {
            level,
            path,
            ruleset,
            supported,
            controls,
            seed,
        })
    }

    /// Every faction is an AI: a GM preview.
    pub fn is_preview(&self) -> bool {
        self.controls.iter().all(|c| c.is_ai())
    }
}

/// Every level in `levels/`, loaded (or the error that stops it loading).
#[derive(Resource, Clone, Debug, Default)]
pub struct Catalog {
    pub levels: Vec<(PathBuf, Result<Level, String>)>,
}

impl Catalog {
    /// The levels of `dir`, each read and checked as `fray check` does: it
    /// must play under its default ruleset. A level that does not is listed
    /// with the reason, at its line and column.
    pub fn load(world: &World, dir: &Path) -> Catalog {
        let playable = |level: Level| -> Result<Level, String> {
            let id = crate::rulesets::parse(&level.default_ruleset).ok_or_else(|| {
                level
                    .error_at_field(
                        "default_ruleset",
                        format!("unknown ruleset `{}`", level.default_ruleset),
                    )
                    .to_string()
            })?;
            validate(world, &level, id).map_err(|e| e.to_string())?;
            Ok(level)
        };
        Catalog {
            levels: load_levels(dir)
                .into_iter()
                .map(|(p, r)| (p, r.map_err(|e| e.to_string()).and_then(playable)))
                .collect(),
        }
    }

    /// `open_field.ron` if present, else the first level that loads.
    pub fn default_level(&self) -> Option<(&PathBuf, &Level)> {
        let ok = || {
            self.levels
                .iter()
                .filter_map(|(p, l)| l.as_ref().ok().map(|l| (p, l)))
        };
        ok().find(|(p, _)| p.file_name().is_some_and(|n| n == "open_field.ron"))
            .or_else(|| ok().next())
    }
}

/// `levels/` in the working directory, else in the source tree.
pub fn levels_dir() -> PathBuf {
    let local = PathBuf::from("levels");
    if local.is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels")
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Catalog>();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The setup screen lists a level no ruleset of its plays with the
    /// reason `fray check` gives, at the same line and column.
    #[test]
    fn the_catalog_gives_the_reason_a_level_cannot_play() {
        let dir = std::env::temp_dir().join(format!("fray-catalog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let shipped = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/open_field.ron"),
        )
        .expect("shipped level");
        let bad = shipped.replacen("default_ruleset: \"ud10\"", "default_ruleset: \"zones\"", 1);
        assert_ne!(bad, shipped);
        let first_archetype = bad.find("archetype: \"").expect("a combatant");
        let bad = format!(
            "{}archetype: \"dragon{}",
            &bad[..first_archetype],
            &bad[first_archetype + "archetype: \"".len()..]
        );
        std::fs::write(dir.join("bad.ron"), &bad).expect("write");
        std::fs::write(dir.join("good.ron"), &shipped).expect("write");
        let e = crate::testkit::engine();
        let c = Catalog::load(e.world(), &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(c.levels.len(), 2);
        let why = c.levels[0]
            .1
            .as_ref()
            .expect_err("the bad level is refused");
        assert!(
            why.contains("bad.ron:") && why.contains("zones has no archetype `dragon"),
            "{why}"
        );
        assert!(c.levels[1].1.is_ok());
    }
}
