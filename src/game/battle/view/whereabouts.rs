//! Where everyone stood when each move was made, so the player's log names
//! places as the previews do ("Red spearman moves 5 m toward Blue archer",
//! "moves 1 zone to the Well"): the coordinates stay in the rules log.
//!
//! It follows the battle log, not the world: the world has moved on by the
//! time a line is drawn (the AI plays several turns a frame), so the places
//! are kept event by event from the level's start cells, by the events that
//! put someone somewhere else (a move, a push, a swap, getting on or off a
//! mount, fleeing) and those that take someone out of the fight or back.

use std::collections::HashMap;

use bevy::prelude::*;

use crate::game::AppSystems;
use crate::game::session::{Screen, Session};
use crate::rules::components::{Cid, Condition, Conditions, MoveMode};
use crate::rules::event::{
    BattleEvent, ConditionAdded, ConditionRemoved, Dismounted, Displaced, Fled, Mounted, Moved,
    TargetChanged,
};
use crate::rules::level::Level;
use crate::rules::log::BattleLog;
use crate::rules::map::{Cell, Map};
use crate::rules::roster::Roster;

pub fn plugin(app: &mut App) {
    app.init_resource::<Whereabouts>()
        .add_systems(OnEnter(Screen::Battle), |mut w: ResMut<Whereabouts>| {
            *w = Whereabouts::default()
        })
        .add_systems(
            Update,
            follow
                .in_set(AppSystems::View)
                .run_if(in_state(Screen::Battle)),
        );
}

/// The player's log lines of the events that move someone, by the event's
/// index in the battle log, and the places they were worked out from.
#[derive(Resource, Debug, Default)]
pub struct Whereabouts {
    /// Events read so far.
    seen: usize,
    /// Each combatant's cell, none once it has left the map.
    cells: Vec<Option<Cell>>,
    /// Out of the fight, as of the events read.
    conditions: Vec<Conditions>,
    /// Whom each combatant rides.
    riding: Vec<Option<Cid>>,
    lines: HashMap<usize, String>,
}

impl Whereabouts {
    /// The player's line for event `i`, if it moves someone.
    pub fn line(&self, i: usize) -> Option<&str> {
        self.lines.get(&i).map(String::as_str)
    }
}

fn follow(
    mut w: ResMut<Whereabouts>,
    log: Option<Res<BattleLog>>,
    session: Option<Res<Session>>,
    roster: Option<Res<Roster>>,
    map: Option<Res<Map>>,
) {
    let (Some(log), Some(session), Some(roster), Some(map)) = (log, session, roster, map) else {
        return;
    };
    // A new battle (restarted, or the log begun again): start over.
    if log.events.len() < w.seen || w.cells.len() != roster.len() {
        *w = Whereabouts::at_start(&session.level, roster.len());
    }
    if log.events.len() == w.seen {
        return;
    }
    let from = w.seen;
    for (i, e) in log.events.iter().enumerate().skip(from) {
        if let Some(line) = w.read(&roster, &map, e) {
            w.lines.insert(i, line);
        }
    }
    w.seen = log.events.len();
}

impl Whereabouts {
    /// Everyone where the level puts them (a combatant is the level's
    /// combatant of its index), nobody out of the fight.
    fn at_start(level: &Level, combatants: usize) -> Whereabouts {
        let mut cells: Vec<Option<Cell>> = level.combatants.iter().map(|c| Some(c.at)).collect();
        cells.resize(combatants, None);
        // Those the level hides in ambush start concealed (zones §Sneaking
        // in combat): the log does not name them until they are seen.
        let mut conditions = vec![Conditions::default(); combatants];
        for (c, def) in conditions.iter_mut().zip(&level.combatants) {
            if def.overrides.concealed {
                c.insert(Condition::Concealed);
            }
        }
        // Riders the level seats on their mounts go where the mount goes.
        let mut riding = vec![None; combatants];
        for (r, def) in riding.iter_mut().zip(&level.combatants) {
            *r = def.riding.as_ref().and_then(|m| {
                level
                    .combatants
                    .iter()
                    .position(|o| o.name.as_deref() == Some(m.as_str()))
                    .map(|i| Cid(i as u16))
            });
        }
        Whereabouts {
            cells,
            conditions,
            riding,
            ..Whereabouts::default()
        }
    }

    /// Take in one event; the player's line if it moves someone.
    fn read(&mut self, roster: &Roster, map: &Map, e: &BattleEvent) -> Option<String> {
        match e {
            BattleEvent::Moved(Moved {
                who,
                from,
                path,
                cost_dm,
                zones,
                mode,
                ..
            }) => {
                let to = *path.last()?;
                let verb = if *mode == MoveMode::Retreat {
                    "backs away"
                } else {
                    "moves"
                };
                let line = format!(
                    "{} {verb}{}{}",
                    roster.name(*who),
                    how_far(*cost_dm, *zones),
                    joined(
                        place(map, *from, to),
                        self.relation(roster, *who, *from, to)
                    ),
                );
                self.put(*who, Some(to));
                Some(line)
            }
            BattleEvent::Displaced(Displaced {
                who, by, from, to, ..
            }) => {
                let line = format!(
                    "{} is moved by {}{}",
                    roster.name(*who),
                    roster.name(*by),
                    joined(
                        place(map, *from, *to),
                        self.relation(roster, *who, *from, *to)
                    ),
                );
                self.put(*who, Some(*to));
                Some(line)
            }
            BattleEvent::TargetChanged(TargetChanged {
                from,
                to,
                swapped: true,
                ..
            }) => {
                let (a, b) = (self.cell(*from), self.cell(*to));
                self.put(*from, b);
                self.put(*to, a);
                None
            }
            BattleEvent::Mounted(Mounted { who, mount, .. }) => {
                self.mount(*who, Some(*mount), self.cell(*mount));
                None
            }
            BattleEvent::Dismounted(Dismounted {
                who,
                mount,
                to,
                thrown,
                ..
            }) => {
                self.mount(*who, None, Some(*to));
                Some(dismounted(roster, *who, *mount, *thrown))
            }
            _ => {
                self.note(e);
                None
            }
        }
    }

    /// `who` gets on `mount` (or off, with none) and is at `at`.
    fn mount(&mut self, who: Cid, mount: Option<Cid>, at: Option<Cell>) {
        self.set(who, at);
        if let Some(r) = self.riding.get_mut(who.0 as usize) {
            *r = mount;
        }
    }

    /// What an event without a line of its own changes in the places: a
    /// flight off the map, a condition added or removed.
    fn note(&mut self, e: &BattleEvent) {
        match e {
            BattleEvent::Fled(Fled { who, .. }) => self.set(*who, None),
            BattleEvent::ConditionAdded(ConditionAdded { who, condition, .. }) => {
                if let Some(c) = self.conditions.get_mut(who.0 as usize) {
                    c.insert(*condition);
                }
            }
            BattleEvent::ConditionRemoved(ConditionRemoved { who, condition, .. }) => {
                if let Some(c) = self.conditions.get_mut(who.0 as usize) {
                    c.remove(*condition);
                }
            }
            _ => {}
        }
    }

    fn cell(&self, c: Cid) -> Option<Cell> {
        self.cells.get(c.0 as usize).copied().flatten()
    }

    fn set(&mut self, c: Cid, at: Option<Cell>) {
        if let Some(slot) = self.cells.get_mut(c.0 as usize) {
            *slot = at;
        }
    }

    /// `c` and those who ride it go to `at`.
    fn put(&mut self, c: Cid, at: Option<Cell>) {
        self.set(c, at);
        let riders: Vec<Cid> = (0..self.riding.len())
            .filter(|&r| self.riding[r] == Some(c))
            .map(|r| Cid(r as u16))
            .collect();
        for r in riders {
            self.set(r, at);
        }
    }

    /// Where `who`, gone from `from` to `to`, stands to the nearest enemy
    /// still in the fight: " up to X" beside it, " toward X" or " away
    /// from X" as the distance went, nothing if it stayed the same.
    fn relation(&self, roster: &Roster, who: Cid, from: Cell, to: Cell) -> String {
        let mine = roster.factions.get(who.0 as usize);
        let nearest = roster
            .cids()
            .filter(|&e| roster.factions.get(e.0 as usize) != mine)
            .filter(|&e| {
                let c = self.conditions[e.0 as usize];
                !c.out_of_fight() && !c.has(Condition::Concealed)
            })
            .filter_map(|e| self.cell(e).map(|c| (e, c)))
            .min_by_key(|&(e, c)| {
                let (dx, dy) = (c.x - to.x, c.y - to.y);
                (Map::chebyshev(to, c), dx * dx + dy * dy, e.0)
            });
        let Some((e, at)) = nearest else {
            return String::new();
        };
        let (before, after) = (Map::chebyshev(from, at), Map::chebyshev(to, at));
        let name = roster.name(e);
        match after {
            1 => format!(" up to {name}"),
            _ if after < before => format!(" toward {name}"),
            _ if after > before => format!(" away from {name}"),
            _ => String::new(),
        }
    }
}

/// " to the Well": the zone the move ends in, named, if it left another.
fn place(map: &Map, from: Cell, to: Cell) -> String {
    match map.zone_of(to) {
        Some(z) if map.zone_of(from) != Some(z) => map
            .zones()
            .get(z)
            .map_or(String::new(), |z| format!(" to {}", the(&z.name))),
        _ => String::new(),
    }
}

/// " to the Well, toward X": the place and the enemy, a comma between.
fn joined(place: String, relation: String) -> String {
    if place.is_empty() || relation.is_empty() {
        place + &relation
    } else {
        format!("{place},{relation}")
    }
}

/// A zone's name as a place: "the Well", but "The Old Mill" as it is.
fn the(name: &str) -> String {
    if name.len() > 4 && name[..4].eq_ignore_ascii_case("the ") {
        name.to_string()
    } else {
        format!("the {name}")
    }
}

/// The line of `who` getting off `mount` (or thrown from it).
fn dismounted(roster: &Roster, who: Cid, mount: Cid, thrown: bool) -> String {
    let how = if thrown { "is thrown from" } else { "gets off" };
    format!("{} {how} {}", roster.name(who), roster.name(mount))
}

/// How far a move went, for its line: metres, else zones, else nothing.
fn how_far(cost_dm: u32, zones: u32) -> String {
    if cost_dm > 0 {
        format!(" {}", metres(cost_dm))
    } else if zones > 0 {
        format!(" {zones} zone{}", if zones == 1 { "" } else { "s" })
    } else {
        String::new()
    }
}

/// "4.5 m", "5 m".
fn metres(dm: u32) -> String {
    if dm.is_multiple_of(10) {
        format!("{} m", dm / 10)
    } else {
        format!("{:.1} m", dm as f64 / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::view;

    /// Whole battles under each ruleset on a level with zones: every move
    /// gets a line without coordinates; zones are named; enemies are named
    /// as moved toward, up to or away from; and the places kept from the
    /// events alone end where the world has everyone.
    #[test]
    fn the_player_s_log_names_places_and_keeps_up_with_the_battle() {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("levels/village_crossroads.ron");
        let level = crate::data::level::load_level(&path).expect("level");
        let mut all = Vec::new();
        for ruleset in [
            crate::rulesets::ud10::ID,
            crate::rulesets::zones::ID,
            crate::rulesets::brp::ID,
        ] {
            let e = crate::testkit::play_shipped("village_crossroads", ruleset, 2);
            let world = e.world();
            let (roster, map) = (world.resource::<Roster>(), world.resource::<Map>());
            let mut w = Whereabouts::at_start(&level, roster.len());
            let mut moves = 0;
            let mut lines = Vec::new();
            for ev in e.events() {
                let line = w.read(roster, map, ev);
                if matches!(ev, BattleEvent::Moved(Moved { .. })) {
                    moves += 1;
                    lines.push(line.expect("a move has a line"));
                }
            }
            assert!(moves >= 3, "{ruleset:?}: {moves} moves");
            for l in &lines {
                assert!(!l.contains('('), "{ruleset:?}: {l}");
            }
            assert!(
                lines.iter().any(|l| l.contains(" to the ")),
                "{ruleset:?}: no zone named in {lines:#?}"
            );
            assert!(
                lines.iter().any(|l| l.contains(" up to ")),
                "{ruleset:?}: {lines:#?}"
            );
            all.extend(lines);
            for c in roster.cids() {
                if !view::conditions(world, c).has(crate::rules::components::Condition::Fled) {
                    assert_eq!(
                        w.cell(c),
                        view::cell(world, c),
                        "{ruleset:?}: {}",
                        roster.name(c)
                    );
                }
            }
        }
        for word in [" toward ", " away from ", ", up to "] {
            assert!(all.iter().any(|l| l.contains(word)), "{word:?}: {all:#?}");
        }
        assert!(
            all.contains(&"Balthasar moves 2 zones to the Well, toward Bandit archer".to_string())
        );
    }

    /// Caravan Ambush under zones: the riders the level seats on the wagon
    /// and the horses go with them, and a bandit the level hides in ambush
    /// is not named while concealed (zones §Sneaking in combat), but is
    /// once seen.
    #[test]
    fn riders_go_with_their_mounts_and_a_concealed_enemy_is_not_named() {
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("levels/caravan_ambush.ron");
        let level = crate::data::level::load_level(&path).expect("level");
        let e = crate::testkit::play_shipped("caravan_ambush", crate::rulesets::zones::ID, 1);
        let world = e.world();
        let (roster, map) = (world.resource::<Roster>(), world.resource::<Map>());
        // The whole battle: the places kept end where the world has them.
        let mut w = Whereabouts::at_start(&level, roster.len());
        for ev in e.events() {
            w.read(roster, map, ev);
        }
        for c in roster.cids() {
            if !view::conditions(world, c).has(Condition::Fled) {
                assert_eq!(w.cell(c), view::cell(world, c), "{}", roster.name(c));
            }
        }
        // Tamsin (5) rides up beside the hidden bandit at (9, 1).
        let (tamsin, bandit) = (Cid(7), Cid(10));
        assert_eq!(level.combatants[10].at, Cell::new(9, 1));
        let ride = |w: &mut Whereabouts| {
            w.read(
                roster,
                map,
                &BattleEvent::Moved(Moved {
                    who: Cid(6),
                    from: Cell::new(3, 5),
                    path: vec![Cell::new(8, 2)],
                    cost_dm: 0,
                    zones: 1,
                    mode: MoveMode::Standard,
                    rule: "test",
                }),
            )
            .expect("a line")
        };
        let mut w = Whereabouts::at_start(&level, roster.len());
        let line = ride(&mut w);
        assert!(!line.contains(roster.name(bandit)), "{line}");
        assert_eq!(
            w.cell(tamsin),
            Some(Cell::new(8, 2)),
            "the rider goes along"
        );
        let mut w = Whereabouts::at_start(&level, roster.len());
        w.read(
            roster,
            map,
            &BattleEvent::ConditionRemoved(ConditionRemoved {
                who: bandit,
                condition: Condition::Concealed,
                rule: "test",
            }),
        );
        let line = ride(&mut w);
        assert!(
            line.ends_with(&format!("up to {}", roster.name(bandit))),
            "{line}"
        );
    }
}
