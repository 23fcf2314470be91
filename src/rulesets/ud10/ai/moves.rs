//! Where the ud10 AI moves: closing in, shooters finding a firing
//! position, and leaving a lost fight by the way off the map.

use super::*;

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
    // The whole turn's movement, or only what keeps the action.
    let budget = if full { look.far } else { look.near };
    let here_d = field.cost(here).unwrap_or(u32::MAX);
    // Can the archer shoot someone from here already?
    let shoots_here = ranged
        && ready.as_ref().is_some_and(|w| {
            enemies
                .iter()
                .any(|e| view::cell(world, *e).is_some_and(|c| check::reaches(map, here, c, w)))
        });
    let seek = ranged && !shoots_here;
    // An archer who can shoot from here closes in no nearer than its
    // range increment (below), and a cell nearer the goal than here by
    // the way there is nearer by the straight line too: one whose way is
    // shorter than here's by a step's worth at least (the costs are whole
    // decimetres) lies within `(here_d - 1) / LEAST_DM_PER_METRE` metres.
    // When that is within the increment, no cell nearer than here is far
    // enough, and there is no way in: no search.
    if ranged
        && !seek
        && let Some(w) = &ready
        && f64::from(here_d.saturating_sub(1))
            <= w.range_increment_m.max(3.0) * crate::rules::map::LEAST_DM_PER_METRE
    {
        return None;
    }
    // Every way to the goal ends with a step from a cell beside it: no
    // cell is nearer than the nearest of those, so from one as near no
    // move closes in, and no search is needed.
    if !seek {
        let beside = crate::rules::map::STEP_ORDER
            .iter()
            .filter_map(|(dx, dy)| field.cost(Cell::new(goal.x + dx, goal.y + dy)))
            .min()
            .unwrap_or(u32::MAX);
        if here_d <= beside {
            return None;
        }
    }
    // Closing in never means running from a fight already joined (asked
    // only now: most calls end above, an engaged fighter beside its
    // target after its blow).
    let engaged: &[Cid] = if view::resource::<Ud10Settings>(world).fleeing {
        look.engaged()
    } else {
        &[]
    };
    // One reach tree: every cell weighed, the path built for the one chosen.
    let tree = look.tree(budget)?;
    let breaks = look.breaks(tree);
    // Out of sight of every enemy (a wall between, say): go to a cell from
    // which one can be shot, in range and in sight, not beside any enemy,
    // reached without a free attack; within the weapon's range increment
    // if possible, then the shortest way. (Two crossbowmen in range of each
    // other but for a wall once ended their turns until the round limit.)
    if seek && let Some(w) = &ready {
        let cells: Vec<Cell> = enemies
            .iter()
            .filter_map(|e| view::cell(world, *e))
            .collect();
        let mut best: Option<((bool, u32), Cell)> = None;
        for (cell, cost) in tree.within(budget) {
            if breaks.is_some_and(|b| b.count(tree, cell) > 0) {
                continue;
            }
            let Some(nearest) = cells
                .iter()
                .filter(|c| check::reaches(map, cell, **c, w))
                .map(|c| Map::distance_m(cell, *c))
                .min_by(f64::total_cmp)
            else {
                continue;
            };
            if cells.iter().any(|c| Map::chebyshev(cell, *c) <= 1) {
                continue;
            }
            let far = nearest > w.range_increment_m.max(3.0);
            let key = (far, cost);
            if best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, cell));
            }
        }
        if let Some((_, cell)) = best {
            return tree.path_to(cell);
        }
    }
    // Fewest free attacks drawn on the way, then nearest the target.
    let mut best: Option<((u32, u32), Cell)> = None;
    tree.each_within_field(budget, &field, |cell, d| {
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
        if let Some(w) = ready.as_ref().filter(|_| ranged) {
            // Archers who can shoot from here close in no nearer than their
            // range increment; those with no firing position in reach close
            // in, but not to melee.
            let too_near = if seek {
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
    if d < here_d { tree.path_to(cell) } else { None }
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
