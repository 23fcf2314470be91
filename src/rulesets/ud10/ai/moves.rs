//! Where the ud10 AI moves: closing in, shooters finding a firing
//! position, and leaving a lost fight by the way off the map.

use super::*;
use crate::rules::map::Distances;

pub(super) fn side_strength(world: &World, actor: Cid) -> (f64, f64) {
    let f = view::faction(world, actor);
    let mut ours = 0.0;
    let mut theirs = 0.0;
    for c in view::standing_all(world) {
        let h = view::get::<Health>(world, c)
            .map_or(0.0, |h| h.hp.max(0) as f64 / h.hp_max.max(1) as f64);
        if view::faction(world, c) == f {
            ours += h;
        } else {
            theirs += h;
        }
    }
    (ours, theirs)
}

/// A hopeless fight: retreat from melee (§Optional Rule: Retreat), or leave
/// the field.
pub(super) fn give_up(look: &Look, t: &Turn) -> Option<Command> {
    let (world, actor) = (look.world, look.actor);
    // Only the badly hurt give up; the sides are weighed for them alone.
    let hurt = view::get::<Health>(world, actor).is_some_and(|h| h.hp * 10 < h.hp_max * 4);
    if !hurt {
        return None;
    }
    let (ours, theirs) = side_strength(world, actor);
    if !(theirs > 0.0 && ours / theirs < 0.3) {
        return None;
    }
    // On the map's edge: leave, even past the free attacks of those engaging
    // it. A retreat its pursuers catch up with every round leads nowhere
    // (two AIs once chased each other that way until the round limit).
    if check::check(world, actor, &Command::Flee).is_ok() {
        return Some(Command::Flee);
    }
    if view::resource::<Ud10Settings>(world).retreat
        && !look.engaged().is_empty()
        && t.movement == MoveMode::None
        && !t.action_used
        && let Some(path) = retreat_path(world, actor, standard_dm(world, actor))
    {
        let cmd = Command::from(Ud10Command::Retreat { path });
        if check::check(world, actor, &cmd).is_ok() {
            return Some(cmd);
        }
    }
    // Once a turn, at its start: a combatant who walked off and then came
    // back to strike within one turn once paced between two cells for the
    // rest of the battle. With no way off the map it fights on.
    if look.engaged().is_empty()
        && t.movement == MoveMode::None
        && let Some(path) = toward_edge(world, actor)
    {
        return Some(Command::Move { path });
    }
    None
}

/// Move towards the best target: the reachable cell closest to it (by a
/// distance field around the target) drawing the fewest free attacks; a
/// shooter who can see no enemy, to a firing position first.
pub(super) fn approach(look: &Look, full: bool) -> Option<Vec<Cell>> {
    let c = Closing::new(look)?;
    if c.no_way_in() {
        return None;
    }
    // The whole turn's movement, or only what keeps the action.
    let budget = if full { look.far } else { look.near };
    // One reach tree: every cell weighed, the path built for the one chosen.
    let tree = look.tree(budget)?;
    let breaks = look.breaks(tree);
    if c.seek
        && let Some(w) = c.ready
        && let Some(cell) = firing_position(look, &c, w, tree, breaks, budget)
    {
        return tree.path_to(cell);
    }
    close_in(look, &c, tree, breaks, budget)
}

/// What [`approach`] weighs, read once: the actor's ready weapon, the enemy
/// it closes in on and the distances to it from where the actor stands.
struct Closing<'w> {
    map: &'w Map,
    enemies: view::Cids,
    ready: Option<&'w Weapon>,
    ranged: bool,
    /// The target's cell.
    goal: Cell,
    /// The way's distances to the goal, as far out as `here`.
    field: Distances<'w>,
    /// `here`'s distance to the goal.
    here_d: u32,
    /// A shooter who can shoot no enemy from here: it seeks a firing
    /// position.
    seek: bool,
}

impl<'w> Closing<'w> {
    /// The target picked (closest by straight distance), and whether the
    /// actor shoots and can from here; none if it is nowhere or no enemy is.
    fn new(look: &Look<'w>) -> Option<Closing<'w>> {
        let (world, actor) = (look.world, look.actor);
        let here = view::cell(world, actor)?;
        let map = view::resource::<Map>(world);
        let enemies = view::enemies(world, actor);
        let ready = view::get::<Loadout>(world, actor).and_then(|l| l.ready_weapon());
        let ranged = ready.as_ref().is_some_and(|w| w.is_ranged());
        // Pick the target: closest by straight distance, weighted by value.
        let target = enemies
            .iter()
            .filter_map(|e| view::cell(world, *e).map(|c| (Map::distance_m(here, c), *e, c)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))?;
        let goal = target.2;
        // Only cells nearer the goal than `here` can be chosen: the distances
        // beyond it are not needed.
        let field = map.distances(goal, here);
        let here_d = field.cost(here).unwrap_or(u32::MAX);
        // Can the archer shoot someone from here already?
        let shoots_here = ranged
            && ready.as_ref().is_some_and(|w| {
                enemies
                    .iter()
                    .any(|e| view::cell(world, *e).is_some_and(|c| check::reaches(map, here, c, w)))
            });
        Some(Closing {
            map,
            enemies,
            ready,
            ranged,
            goal,
            field,
            here_d,
            seek: ranged && !shoots_here,
        })
    }

    /// No cell the actor may close in to is nearer than here: no search.
    fn no_way_in(&self) -> bool {
        // An archer who can shoot from here closes in no nearer than its
        // range increment (see `close_in`), and a cell nearer the goal than
        // here by the way there is nearer by the straight line too: one
        // whose way is shorter than here's by a step's worth at least (the
        // costs are whole decimetres) lies within `(here_d - 1) /
        // LEAST_DM_PER_METRE` metres. When that is within the increment, no
        // cell nearer than here is far enough, and there is no way in.
        if self.ranged
            && !self.seek
            && let Some(w) = self.ready
            && f64::from(self.here_d.saturating_sub(1))
                <= w.range_increment_m.max(3.0) * crate::rules::map::LEAST_DM_PER_METRE
        {
            return true;
        }
        // Every way to the goal ends with a step from a cell beside it: no
        // cell is nearer than the nearest of those, so from one as near no
        // move closes in.
        if !self.seek {
            let goal = self.goal;
            let beside = crate::rules::map::STEP_ORDER
                .iter()
                .filter_map(|(dx, dy)| self.field.cost(Cell::new(goal.x + dx, goal.y + dy)))
                .min()
                .unwrap_or(u32::MAX);
            if self.here_d <= beside {
                return true;
            }
        }
        false
    }
}

/// Out of sight of every enemy (a wall between, say): a cell from which one
/// can be shot with `w`, in range and in sight, not beside any enemy,
/// reached without a free attack; within the weapon's range increment if
/// possible, then the shortest way. (Two crossbowmen in range of each other
/// but for a wall once ended their turns until the round limit.)
fn firing_position(
    look: &Look,
    c: &Closing,
    w: &Weapon,
    tree: &ReachTree,
    breaks: Option<&Breakaways>,
    budget: u32,
) -> Option<Cell> {
    let cells: Vec<Cell> = c
        .enemies
        .iter()
        .filter_map(|e| view::cell(look.world, *e))
        .collect();
    let mut best: Option<((bool, u32), Cell)> = None;
    for (cell, cost) in tree.within(budget) {
        if breaks.is_some_and(|b| b.count(tree, cell) > 0) {
            continue;
        }
        let Some(nearest) = cells
            .iter()
            .filter(|e| check::reaches(c.map, cell, **e, w))
            .map(|e| Map::distance_m(cell, *e))
            .min_by(f64::total_cmp)
        else {
            continue;
        };
        if cells.iter().any(|e| Map::chebyshev(cell, *e) <= 1) {
            continue;
        }
        let far = nearest > w.range_increment_m.max(3.0);
        let key = (far, cost);
        if best.as_ref().is_none_or(|b| key < b.0) {
            best = Some((key, cell));
        }
    }
    best.map(|(_, cell)| cell)
}

/// Close in: of the cells nearer the goal than here, the one drawing the
/// fewest free attacks on the way, then the nearest; never running from a
/// fight already joined, and a shooter no nearer than it shoots from.
fn close_in(
    look: &Look,
    c: &Closing,
    tree: &ReachTree,
    breaks: Option<&Breakaways>,
    budget: u32,
) -> Option<Vec<Cell>> {
    // Closing in never means running from a fight already joined (asked
    // only now: most calls end before, an engaged fighter beside its
    // target after its blow).
    let engaged: &[Cid] = if view::resource::<Ud10Settings>(look.world).fleeing {
        look.engaged()
    } else {
        &[]
    };
    let goal = c.goal;
    let mut best: Option<((u32, u32), Cell)> = None;
    tree.each_within_field(budget, &c.field, |cell, d| {
        // Once a cell drawing no free attack is found, only a nearer one
        // can beat it: the free attacks of one no nearer are not counted.
        if best.is_some_and(|((drawn, near), _)| drawn == 0 && d >= near) {
            return;
        }
        let drawn = match breaks {
            // Closing in never means running from a fight already joined.
            Some(b) if engaged.iter().any(|e| b.draws_from(tree, cell, *e)) => return,
            Some(b) => b.count(tree, cell),
            None => 0,
        };
        if let Some(w) = c.ready.filter(|_| c.ranged) {
            // Archers who can shoot from here close in no nearer than their
            // range increment; those with no firing position in reach close
            // in, but not to melee.
            let too_near = if c.seek {
                Map::chebyshev(cell, goal) <= 1
            } else {
                Map::distance_m(cell, goal) <= w.range_increment_m.max(3.0)
            };
            if too_near {
                return;
            }
        }
        if best.as_ref().is_none_or(|b| (drawn, d) < b.0) {
            best = Some(((drawn, d), cell));
        }
    });
    let ((_, d), cell) = best?;
    if d < c.here_d {
        tree.path_to(cell)
    } else {
        None
    }
}

/// Where a retreat goes: towards the way off the map, to leave the battle
/// from there; of the cells as near it, the farthest from the enemies,
/// then the shortest path, then the last in row order. None when no cell
/// in reach is nearer the way off than here.
pub(super) fn retreat_path(world: &World, actor: Cid, budget: u32) -> Option<Vec<Cell>> {
    let enemies: Vec<Cell> = view::enemies(world, actor)
        .into_iter()
        .filter_map(|e| view::cell(world, e))
        .collect();
    let exits = view::resource::<Map>(world).exit_distances();
    let here_exit = exits.cost(view::cell(world, actor)?)?;
    let tree = reach(world, actor, budget)?;
    let (std::cmp::Reverse(to_exit), _, _, cell) = tree
        .reached()
        .map(|(c, _)| {
            let d = enemies
                .iter()
                .map(|e| Map::chebyshev(c, *e))
                .min()
                .unwrap_or(0);
            let to_exit = exits.cost(c).unwrap_or(u32::MAX);
            (
                std::cmp::Reverse(to_exit),
                d,
                tree.steps_to(c).unwrap_or(0),
                c,
            )
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(&a.2)))?;
    // A retreat that gets no nearer the way out (an enemy stands in it)
    // only gives the pursuer free blows: fight on instead. (A captain
    // once backed away round after round from a dagger in the doorway.)
    (to_exit < here_exit).then(|| tree.path_to(cell)).flatten()
}

pub(super) fn toward_edge(world: &World, actor: Cid) -> Option<Vec<Cell>> {
    let exits = view::resource::<Map>(world).exit_distances();
    let here = view::cell(world, actor)?;
    let here_d = exits.cost(here)?;
    let budget = remaining_dm(world, actor);
    let tree = reach(world, actor, budget)?;
    // Nearest the way off the map, then the shortest path.
    let (d, cell) = tree
        .reached()
        .filter_map(|(c, _)| exits.cost(c).map(|d| (d, c)))
        .min_by_key(|(d, c)| (*d, tree.steps_to(*c).unwrap_or(0)))?;
    (d < here_d).then(|| tree.path_to(cell)).flatten()
}
