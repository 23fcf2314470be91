//! The UD10 tactical AI. It issues the same commands a player does and only
//! ones the legality check accepts: it attacks, or shoots (aiming a long
//! shot first), picking targets by expected damage and the chance to finish
//! them, weighs the free attacks of every path, crouches against missiles,
//! parries or dodges when it has a chance, and retreats or flees (under the
//! optional rules) when its side is losing badly (`moves.rs`: where it goes),
//! and gives a fallen ally first aid when that is worth more than a blow
//! (`aid.rs`).

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Decision};
use crate::rules::components::{Cid, Condition, Health, Loadout, MoveMode, Weapon, WeaponKind};
use crate::rules::map::{Cell, Map, ReachTree};
use crate::rules::view;
use crate::rulesets::ud10::command::Ud10Command;

use super::check;
use super::numbers::{PendingAttack, reaction_chance as p_beat, totals_from};
use super::query::{Turn, stats, turn};
use super::reach::{
    Breakaways, engaged_enemies, engaging_weighed, reach, remaining_dm, remaining_dm_in,
    standard_dm,
};
use super::settings::Ud10Settings;

mod aid;
mod moves;
mod targets;
#[cfg(test)]
mod tests;
mod weapons;

use moves::{approach, give_up};
use targets::{Targets, best_attack_from, best_attack_with, targets};

/// The AI's command for `actor` now. Always legal; `EndTurn` or
/// `NoReaction` when nothing better is.
pub fn decide(world: &World, actor: Cid) -> Command {
    decision(world, actor).command
}

/// [`decide`], with the ruleset's check's answer on the command it
/// settles on: the core's verdict on it.
pub fn decision(world: &World, actor: Cid) -> Decision {
    let (cmd, verdict) = match view::resource::<Battle>(world).prompt {
        Prompt::React { .. } => {
            let cmd = react(world, actor);
            let verdict = check::check(world, actor, &cmd);
            (cmd, verdict)
        }
        Prompt::Act { .. } => {
            // The turn the decision reads is the one the check reads.
            let t = turn(world, actor);
            let cmd = act(world, actor, &t);
            let verdict = check::check_with_turn(world, actor, &cmd, &t);
            (cmd, verdict)
        }
        Prompt::None | Prompt::Activate { .. } => return Decision::unjudged(Command::EndTurn),
    };
    if verdict.is_ok() {
        Decision::legal(cmd)
    } else if matches!(view::resource::<Battle>(world).prompt, Prompt::React { .. }) {
        Decision::unjudged(Command::NoReaction)
    } else {
        Decision::unjudged(Command::EndTurn)
    }
}

/// What one decision works out once and reads many times: where the actor
/// can still go this turn (two trees: within a standard movement, which
/// keeps the action, and as far as it may still move; a budget reads the
/// smallest tree that holds it, as a search's costs and paths within a
/// budget never depend on how far beyond it the search went), whose free
/// attacks each path there draws, the table of targets for the weapon in
/// hand, and the best move to attack from.
struct Look<'w> {
    world: &'w World,
    actor: Cid,
    /// Where the actor stands.
    here: Cell,
    /// The enemies engaging it there ([`engaged_enemies`]), found when
    /// first asked.
    engaged: std::cell::OnceCell<view::Cids>,
    /// The budgets of the two trees: what is left of a standard movement,
    /// and of the whole turn's ([`remaining_dm`], read once a decision).
    near: u32,
    far: u32,
    /// What is left of a standard movement, the move that keeps the
    /// action (at most `far` only when the turn allows it).
    keeps_action: u32,
    /// How many cells from where it stands the actor can strike from
    /// before it acts: no move that keeps the action goes farther (a
    /// step costs at least [`ORTHO_DM`](crate::rules::map::ORTHO_DM) and
    /// goes one cell).
    strike_steps: i32,
    trees: [std::cell::OnceCell<Option<std::sync::Arc<ReachTree>>>; 2],
    breaks: std::cell::OnceCell<Option<Breakaways<'w>>>,
    table: std::cell::OnceCell<Option<Targets<'w>>>,
    /// The best move to attack from, found above a floor (none: the best
    /// at all), as [`best_move_to_attack`] worked it out.
    moved_best: std::cell::RefCell<Option<(Option<f64>, MoveToAttack)>>,
}

/// The best cell to move to and attack from: the attack's value there (less
/// the free attacks the way draws) and the path.
type MoveToAttack = Option<(f64, Vec<Cell>)>;

impl<'w> Look<'w> {
    fn new(world: &'w World, actor: Cid, here: Cell, t: &Turn) -> Look<'w> {
        let far = remaining_dm_in(world, actor, t);
        let keeps_action = standard_dm(world, actor).saturating_sub(t.moved_dm);
        Look {
            world,
            actor,
            here,
            engaged: Default::default(),
            strike_steps: (keeps_action / crate::rules::map::ORTHO_DM) as i32,
            near: keeps_action.min(far),
            far,
            keeps_action,
            trees: Default::default(),
            breaks: Default::default(),
            table: Default::default(),
            moved_best: Default::default(),
        }
    }

    /// The enemies engaging the actor where it stands.
    fn engaged(&self) -> &[Cid] {
        self.engaged
            .get_or_init(|| engaged_enemies(self.world, self.actor, self.here))
    }

    /// A tree holding every cell the actor can reach for `budget` (at
    /// most what is left of its movement this turn): read it
    /// [`ReachTree::within`] the budget.
    fn tree(&self, budget: u32) -> Option<&ReachTree> {
        debug_assert!(
            budget <= self.far,
            "no move goes beyond the turn's movement"
        );
        let (k, searched) = if budget <= self.near {
            (0, self.near)
        } else {
            (1, self.far)
        };
        self.trees[k]
            .get_or_init(|| reach(self.world, self.actor, searched))
            .as_deref()
    }

    /// Whose free attacks the paths of the actor's trees draw, when fleeing
    /// draws them (§Optional Rule: Fleeing From Battle): one answer per
    /// cell serves both trees, whose paths to a cell in both are the same.
    fn breaks(&self, tree: &ReachTree) -> Option<&Breakaways<'w>> {
        self.breaks
            .get_or_init(|| {
                let fleeing = view::resource::<Ud10Settings>(self.world).fleeing;
                fleeing.then(|| Breakaways::new(self.world, self.actor, tree, self.far))
            })
            .as_ref()
    }

    /// The targets of the weapon in hand ([`targets`]): with a melee
    /// weapon, only the enemies a cell within `strike_steps` can strike;
    /// ask it only about such cells.
    fn table(&self) -> Option<&Targets<'w>> {
        self.table
            .get_or_init(|| targets(self.world, self.actor, self.strike_steps))
            .as_ref()
    }
}

fn react(world: &World, actor: Cid) -> Command {
    let Some(p) = view::resource::<PendingAttack>(world).0.clone() else {
        return Command::NoReaction;
    };
    let Some(s) = stats(world, actor) else {
        return Command::NoReaction;
    };
    let mut best = (0.0, Command::NoReaction);
    if check::may_parry(world, actor) {
        let q = p_beat(s.parry.unwrap_or(s.dex), p.total);
        if q > best.0 {
            best = (q, Command::from(Ud10Command::Parry));
        }
    }
    if check::may_dodge(world, actor) {
        let q = p_beat(s.dodge.unwrap_or(s.dex), p.total);
        if q > best.0 {
            best = (q, Command::Dodge);
        }
    }
    // The reaction has no other use this round once an attack has hit.
    best.1
}

fn enemy_has_ranged(world: &World, actor: Cid) -> bool {
    view::each_enemy(world, actor).any(|e| {
        view::get::<Loadout>(world, e).is_some_and(|l| l.weapons.iter().any(|w| w.is_ranged()))
    })
}

/// The command for `actor`'s turn, `t` ([`turn`]'s answer).
fn act(world: &World, actor: Cid, t: &Turn) -> Command {
    let Some(here) = view::cell(world, actor) else {
        return Command::EndTurn;
    };
    if view::each_enemy(world, actor).next().is_none() {
        return Command::EndTurn;
    }
    let can_act = !t.action_used && t.movement != MoveMode::Full && t.movement != MoveMode::Retreat;
    let look = Look::new(world, actor, here, t);
    if let Some(cmd) = give_up(&look, t) {
        return cmd;
    }
    // Held by a net: strike from where it stands if it can, else spend the
    // action cutting itself free.
    if can_act && view::conditions(world, actor).has(Condition::Immobilized) {
        return match use_the_action(&look, here, t) {
            Some(attack @ Command::Attack { .. }) => attack,
            _ => Command::from(Ud10Command::CutFree),
        };
    }
    // Bring a fallen ally round when that is worth more than a blow.
    if can_act && let Some(cmd) = aid::first_aid(&look, here, t) {
        return cmd;
    }
    if can_act && let Some(cmd) = use_the_action(&look, here, t) {
        return cmd;
    }
    // Close in on the most valuable target when the action is still unused
    // (full movement) or the movement is.
    if look.far > 0
        && (can_act || !t.moved_before_action)
        && let Some(path) = approach(&look, can_act)
    {
        return Command::Move { path };
    }
    if !view::conditions(world, actor).has(Condition::Crouching) && enemy_has_ranged(world, actor) {
        return Command::from(Ud10Command::TakeCover);
    }
    Command::EndTurn
}

/// The action still free: reload an empty weapon in hand, attack from here
/// or after a move that keeps the action, or change weapons.
fn use_the_action(look: &Look, here: Cell, t: &Turn) -> Option<Command> {
    let (world, actor) = (look.world, look.actor);
    if let Some(l) = view::get::<Loadout>(world, actor)
        && let Some(wi) = l.ready
        && let Some(w) = l.weapons.get(wi)
        && w.magazine > 0
        && w.loaded == 0
    {
        let cmd = Command::from(Ud10Command::Reload { weapon: wi });
        if check::check(world, actor, &cmd).is_ok() {
            return Some(cmd);
        }
    }
    let table = look.table();
    let now = table.and_then(|t| best_attack_from(world, actor, here, t, 0));
    // Moving first: only cells within a standard movement keep the action,
    // and only a move worth more than a quarter more than striking from
    // here (and a little) is taken, so none worth less is looked for.
    let floor = now.map(|(v, _, _)| v * 1.25 + 0.02);
    let moved_best = match table {
        Some(_) if !(t.action_used || t.moved_before_action) => best_move_to_attack(look, floor),
        _ => None,
    };
    match (&now, &moved_best) {
        (Some((v, target, mode)), Some((mv, path))) => {
            if *mv > v * 1.25 + 0.02 {
                return Some(Command::Move { path: path.clone() });
            }
            return Some(aim_or_attack(look, table?, *target, *mode));
        }
        (Some((_, target, mode)), None) => {
            return Some(aim_or_attack(look, table?, *target, *mode));
        }
        (None, Some((_, path))) => return Some(Command::Move { path: path.clone() }),
        (None, None) => {}
    }
    // Nothing to hit with the weapon in hand: another weapon might.
    weapons::switch_weapon(world, actor, here)
}

/// Shoot, or take aim first (§Attack Modifiers: +2 after a round of aim,
/// +4 after two). Aiming spends this round's action for a better shot
/// next round, so it pays when the aimed chance is more than twice today's:
/// one aimed shot then beats a shot now and another then. Not while an
/// enemy engages the shooter, who would be struck while it aims.
fn aim_or_attack(look: &Look, table: &Targets, target: Cid, mode: usize) -> Command {
    let (world, actor, here) = (look.world, look.actor, look.here);
    let attack = attack_cmd(world, actor, target, mode);
    let Some(w) = view::get::<Loadout>(world, actor).and_then(|l| l.weapons.get(table.weapon))
    else {
        return attack;
    };
    if !w.is_ranged() || !look.engaged().is_empty() {
        return attack;
    }
    let aimed = match turn(world, actor).aim {
        Some((at, rounds)) if at == target => rounds,
        _ => 0,
    };
    if aimed >= 2 {
        return attack;
    }
    let Some(row) = table
        .rows
        .iter()
        .find(|r| r.target == target && r.mode == mode)
    else {
        return attack;
    };
    let n = totals_from(&row.sides, here, w, mode);
    let (now, aimed_next) = (n.hit_chance_with(0), n.hit_chance_with(2));
    let aim = Command::from(Ud10Command::Aim {
        target,
        weapon: table.weapon,
    });
    if aimed_next > 2.0 * now && check::check(world, actor, &aim).is_ok() {
        aim
    } else {
        attack
    }
}

/// The best cell within a standard movement to attack from, and the value
/// of the attack there, less the free attacks leaving melee draws; with a
/// `floor`, only if worth more than it (cells and targets that cannot beat
/// it are not weighed). What one decision found is kept for its later
/// questions: an answer found with a lower floor (or none) answers a
/// higher one, and a cell found above any floor answers every floor: it is
/// the best of all (the first of the best, in the tree's order, as a search
/// with no floor finds it: a floor only spares cells and targets worth no
/// more than it, and the pruning never passes over the first best cell).
fn best_move_to_attack(look: &Look, floor: Option<f64>) -> MoveToAttack {
    let above = |found: &MoveToAttack| {
        found
            .as_ref()
            .filter(|(v, _)| floor.is_none_or(|f| *v > f))
            .cloned()
    };
    if let Some((used, found)) = look.moved_best.borrow().as_ref()
        && (found.is_some() || used.is_none_or(|u| floor.is_some_and(|f| f >= u)))
    {
        return above(found);
    }
    let found = find_move_to_attack(look, floor);
    let answer = above(&found);
    *look.moved_best.borrow_mut() = Some((floor, found));
    answer
}

/// [`best_move_to_attack`], worked out: the best cell worth more than
/// `floor`, if any.
fn find_move_to_attack(look: &Look, floor: Option<f64>) -> MoveToAttack {
    let (world, actor) = (look.world, look.actor);
    let table = look.table()?;
    let budget = look.keeps_action;
    // The table leaves out the enemies no cell within `strike_steps`
    // reaches: a search over a larger budget would miss them.
    debug_assert!(
        (budget / crate::rules::map::ORTHO_DM) as i32 <= look.strike_steps,
        "a move to attack searched beyond the table's reach"
    );
    let map = view::resource::<Map>(world);
    let weapon = view::get::<Loadout>(world, actor)?
        .weapons
        .get(table.weapon)?;
    let w_ranged = view::get::<Loadout>(world, actor)
        .and_then(|l| l.ready_weapon())
        .is_some_and(|w| w.is_ranged());
    // No target to strike (a melee weapon's table holds only the enemies
    // a cell within this budget reaches): no cell will do, and the search
    // is spared.
    if table.rows.is_empty() {
        return None;
    }
    let melee = weapon.kind == WeaponKind::Melee;
    // No attack is worth more than its target's `per_hit` (a hit landed
    // for sure; never below 0, so a chance under 1 never raises it), nor
    // than the best chance any cell gives times that
    // (`TargetRow::best_from_anywhere`; with no shift, the most a shot
    // after a move has: -4 after more than one step only lowers it), and
    // free attacks only lower a cell's score: with every target's at or
    // under the floor, no cell beats it, and no tree is searched.
    if let Some(f) = floor
        && table
            .rows
            .iter()
            .all(|r| r.per_hit <= f || r.best_from_anywhere(map, weapon, 0) <= f)
    {
        return None;
    }
    // A shot after more than one step costs -4 (§Attack Modifiers, as
    // below): only the cells one step away are shot from without it, those
    // a step from here enters (passable, no wall's corner cut). With
    // every target's bound at -4 and every shot from such a cell at or
    // under the floor, no cell beats it either.
    if let Some(f) = floor
        && w_ranged
        && table
            .rows
            .iter()
            .all(|r| r.per_hit <= f || r.best_from_anywhere(map, weapon, -4) <= f)
        && crate::rules::map::STEP_ORDER.iter().all(|(dx, dy)| {
            let beside = Cell::new(look.here.x + dx, look.here.y + dy);
            map.step_cost(look.here, beside).is_none()
                || best_attack_with(map, weapon, beside, table, 0, Some(f))
                    .is_none_or(|(v, _, _)| v <= f)
        })
    {
        return None;
    }
    // A melee fighter engaged where it stands draws the free attack of
    // each enemy engaging it whose reach the cell it moves to is out of
    // (the way there leaves that reach at some step: §Optional Rule:
    // Fleeing From Battle), and every cell it can strike from lies within
    // its reach of a target and within `strike_steps` of here: with no
    // such cell worth more than the floor, less those free attacks, no
    // tree is searched.
    if let Some(f) = floor
        && melee
        && !look.engaged().is_empty()
        && view::resource::<Ud10Settings>(world).fleeing
        && !engaged_cells_beat(look, map, weapon, table, f)
    {
        return None;
    }
    let tree = look.tree(budget)?;
    // Whose free attacks each cell's path draws: every enemy whose reach
    // a step leaves, not only those engaged now or where the path ends.
    let breaks = look.breaks(tree);
    let mut moved_best: Option<(f64, Cell)> = None;
    // A melee weapon reaches no target from a cell farther from all of
    // them than its reach: only the cells around the targets are weighed,
    // in the tree's order, as walking every cell of it would find them.
    let around = melee.then(|| cells_within_reach(tree, budget, &table.rows, weapon.reach));
    let every = (!melee).then(|| tree.within(budget).map(|(c, _)| c));
    for cell in around
        .into_iter()
        .flatten()
        .chain(every.into_iter().flatten())
    {
        // More than a single step is a standard movement: shooting after it
        // costs -4 (§Attack Modifiers). A cell's path is longer than one
        // step when it comes from another cell than the start.
        let shift = if w_ranged && tree.parent(cell).is_some_and(|p| p != tree.start) {
            -4
        } else {
            0
        };
        // Free attacks only lower a cell's score: a cell whose attacks
        // cannot beat the best so far (or the floor) before them cannot
        // after.
        let beat = match (moved_best.map(|b| b.0), floor) {
            (Some(b), Some(f)) => Some(b.max(f)),
            (b, f) => b.or(f),
        };
        let Some((v, _, _)) = best_attack_with(map, weapon, cell, table, shift, beat) else {
            continue;
        };
        let mut score = v;
        // Leaving an enemy's reach draws its free attack.
        if let Some(b) = breaks {
            // A free attack from behind hits most of the time: weigh each
            // like a good blow taken.
            score -= 1.2 * f64::from(b.count(tree, cell));
        }
        if moved_best.as_ref().is_none_or(|b| score > b.0) && floor.is_none_or(|f| score > f) {
            moved_best = Some((score, cell));
        }
    }
    let (score, cell) = moved_best?;
    Some((score, tree.path_to(cell)?))
}

/// Can a melee fighter engaged where it stands strike from a cell other
/// than here, within `strike_steps` of it, for more than `floor` less 1.2
/// for each enemy engaging it whose reach that cell is out of (the free
/// attacks leaving their reach draws, weighed as [`find_move_to_attack`]
/// weighs them)? At least what any move to attack scores: its cell is
/// one of these, its blow no better, its free attacks no fewer.
fn engaged_cells_beat(
    look: &Look,
    map: &Map,
    weapon: &Weapon,
    table: &Targets,
    floor: f64,
) -> bool {
    let holds = engaging_weighed(look.world, look.actor, look.here, look.far);
    // (A move ends on a free cell it can enter: none other is weighed.)
    let held = view::occupied(look.world, Some(look.actor));
    let reach = weapon.reach;
    let worth = |r: &targets::TargetRow| {
        if r.per_hit > floor {
            r.best_from_anywhere(map, weapon, 0)
        } else {
            0.0
        }
    };
    // No blow is worth more than the best of the targets' bounds: a cell
    // out of an engaging enemy's reach is weighed only if that bound, less
    // its free attacks, beats the floor.
    let top = table.rows.iter().map(worth).fold(0.0, f64::max);
    table.rows.iter().filter(|r| worth(r) > floor).any(|r| {
        (r.cell.y - reach..=r.cell.y + reach).any(|y| {
            (r.cell.x - reach..=r.cell.x + reach).any(|x| {
                let c = Cell::new(x, y);
                if c == look.here
                    || Map::chebyshev(c, look.here) > look.strike_steps
                    || !map.in_bounds(c)
                    || !map.terrain(c).passable()
                    || held.binary_search(&c).is_ok()
                {
                    return false;
                }
                let left = 1.2 * holds.iter().filter(|t| !t.covers(map, c)).count() as f64;
                top - left > floor
                    && best_attack_with(map, weapon, c, table, 0, Some(floor))
                        .is_some_and(|(v, _, _)| v - left > floor)
            })
        })
    })
}

/// The cells of `tree` within `budget` but its start (those
/// [`ReachTree::within`] gives, in its row order) from which a weapon of
/// `reach` cells reaches the target of one of `rows`: only the squares
/// around the targets are looked at, each cell marked once in a set of the
/// tree's slots, which gives them back in row order.
fn cells_within_reach(
    tree: &ReachTree,
    budget: u32,
    rows: &[targets::TargetRow],
    reach: i32,
) -> smallvec::SmallVec<[Cell; 64]> {
    let mut marked: smallvec::SmallVec<[u64; 4]> =
        smallvec::smallvec![0; tree.cells().div_ceil(64)];
    for r in rows {
        for y in r.cell.y - reach..=r.cell.y + reach {
            for x in r.cell.x - reach..=r.cell.x + reach {
                let c = Cell::new(x, y);
                if c != tree.start
                    && tree.cost(c).is_some_and(|k| k <= budget)
                    && let Some(i) = tree.slot(c)
                {
                    marked[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }
    let mut cells = smallvec::SmallVec::new();
    for (k, word) in marked.iter().enumerate() {
        let mut bits = *word;
        while bits != 0 {
            cells.push(tree.cell_of_slot(k * 64 + bits.trailing_zeros() as usize));
            bits &= bits - 1;
        }
    }
    cells
}

fn attack_cmd(world: &World, actor: Cid, target: Cid, mode: usize) -> Command {
    let weapon = view::get::<Loadout>(world, actor)
        .and_then(|l| l.ready)
        .unwrap_or(0);
    Command::Attack {
        target,
        weapon,
        mode,
    }
}
