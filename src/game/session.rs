//! Screens, the chosen battle (level, ruleset, who controls each faction,
//! seed) and the catalog of levels.

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::data::level::load_levels;
use crate::rules::battle::RulesetId;
use crate::rules::components::Controller;
use crate::rules::engine::supported_rulesets;
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
        let ruleset = wanted
            .filter(|r| supported.contains(r))
            .or_else(|| supported.first().copied())
            .ok_or_else(|| {
                format!(
                    "{}: no implemented ruleset plays this level",
                    path.display()
                )
            })?;
        if let Some(w) = wanted
            && w != ruleset
        {
            return Err(format!(
                "{}: the {w} ruleset cannot play this level",
                path.display()
            ));
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
    pub fn load(dir: &Path) -> Catalog {
        Catalog {
            levels: load_levels(dir)
                .into_iter()
                .map(|(p, r)| (p, r.map_err(|e| e.to_string())))
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
