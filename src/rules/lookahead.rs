//! The hard AI: the tactical AI's own choice, weighed against a few others
//! by playing the battle on from forks of where it stands.
//!
//! For each candidate command (the tactical AI's choice, then every other
//! attack, reaction and ruleset choice such as who acts, and a move toward
//! each enemy) an engine restores a [`Snapshot`] of the battle, sends the
//! candidate, and lets the tactical AI play every side from there, for a
//! few rounds or to the end. Every candidate is played out with the same
//! random streams (so a difference is the candidate's, not the dice's), and
//! each playout is judged from the actor's side: a win, a loss, and how much
//! of each side's health is still standing. Another candidate replaces the
//! AI's own only when it is better on average by more than the playouts'
//! own noise: a look-ahead that trusted a few lucky playouts would play
//! worse than the AI it starts from.
//!
//! Deterministic in batch runs: the playouts' seeds come from the battle's
//! seed and how far it has gone, never from the clock, the battle's own
//! dice are not touched, and the number of playouts is fixed
//! ([`LookAhead`]), so a battle with a hard AI replays byte for byte from
//! its seed. The game adds a deadline, so that a decision never freezes the
//! screen for more than 200 ms; there a slow machine may weigh fewer
//! playouts, and the battle replays from its log of commands.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, CommandMsg};
use crate::rules::components::{Cid, Health};
use crate::rules::dice::stream_seed;
use crate::rules::engine::{Engine, assets_dir};
use crate::rules::fork::{Snapshot, snapshot};
use crate::rules::log::BattleLog;
use crate::rules::map::Map;
use crate::rules::roster::Roster;
use crate::rules::view;

/// How hard the hard AI looks. Set once per world (the game, `fray
/// simulate`); not part of a battle's state.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookAhead {
    /// Stop weighing once this much time has passed (the game: a decision
    /// must not freeze the screen), with as many playouts for every
    /// candidate. `None` in batch runs, so that a battle replays exactly.
    pub deadline: Option<Duration>,
    /// Playouts per candidate command.
    pub playouts: u32,
    /// Rounds a playout runs past the one the decision is taken in before
    /// it is judged by what stands (a playout that ends sooner is judged by
    /// its outcome).
    pub horizon: u32,
    /// Candidates weighed at most, the AI's own choice among them.
    pub candidates: usize,
}

impl Default for LookAhead {
    /// The budget of batch runs: up to 8 candidates × 64 playouts of two
    /// rounds a decision; in a release build on the project's 2-core
    /// machine, a median of 27-59 ms a decision on `mirror_duel` and
    /// `ruined_keep` under both rulesets, the slowest 5 % 85-145 ms.
    /// Fewer playouts measured weaker: on `mirror_duel` under zones, 32
    /// won 55 % of 200 battles against the normal AI, 64 and 96 (with up
    /// to 6 and 8 candidates) won 65 % and 71 % of 120.
    fn default() -> Self {
        LookAhead {
            deadline: None,
            playouts: 64,
            horizon: 2,
            candidates: 8,
        }
    }
}

impl LookAhead {
    /// The game's budget: as many playouts as fit in 180 ms (the rest of
    /// the 200 ms a decision may take goes to forking and listing the
    /// candidates), up to one and a half times the batch runs'.
    pub fn game() -> Self {
        let batch = LookAhead::default();
        LookAhead {
            deadline: Some(Duration::from_millis(180)),
            playouts: batch.playouts * 3 / 2,
            ..batch
        }
    }
}

/// Steps a playout may take at most (a guard, as [`crate::sim`]'s).
const PLAYOUT_STEPS: u64 = 20_000;

thread_local! {
    /// The engine this thread plays look-aheads in, made on first use
    /// (reading the rulesets' data takes longer than a decision).
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

/// The hard AI's command for `actor`: `planned` (the tactical AI's), or
/// the candidate that played out better by more than chance.
/// `legal_commands` is the ruleset's list of legal commands.
pub fn decide(
    world: &World,
    actor: Cid,
    planned: Command,
    legal_commands: fn(&World, Cid) -> Vec<Command>,
) -> Command {
    let started = Instant::now();
    let budget = view::get_resource::<LookAhead>(world)
        .copied()
        .unwrap_or_default();
    let candidates = candidates(world, actor, &planned, legal_commands, budget.candidates);
    if candidates.len() < 2 || budget.playouts == 0 {
        return planned;
    }
    let Some(side) = view::faction(world, actor) else {
        return planned;
    };
    let snap = snapshot(world);
    let battle = view::resource::<Battle>(world);
    let until = battle.round.saturating_add(budget.horizon.max(1));
    let logged = view::resource::<BattleLog>(world).events.len() as u64;
    let base = stream_seed(battle.seed ^ stream_seed(logged, 1) ^ u64::from(actor.0), 1);
    let scores = ENGINE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Engine::like(world).ok();
        }
        let engine = slot.as_mut()?;
        Some(weigh(
            engine,
            &snap,
            actor,
            side,
            &candidates,
            &budget,
            base,
            until,
            started,
        ))
    });
    let Some(scores) = scores else {
        warn_once(&assets_dir());
        return planned;
    };
    candidates
        .into_iter()
        .nth(choose(&scores))
        .unwrap_or(planned)
}

fn warn_once(dir: &std::path::Path) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        eprintln!(
            "fray: the hard AI plays as the normal one: no engine could read the rulesets in {}",
            dir.display()
        );
    });
}

/// Each candidate's score in each playout (`scores[c][j]`: candidate `c`,
/// random stream `j`, the same `j` for every candidate). Round by round:
/// stream `j` is played for every candidate before stream `j + 1`, so that
/// a deadline leaves every candidate with as many playouts.
#[allow(clippy::too_many_arguments)]
fn weigh(
    engine: &mut Engine,
    snap: &Snapshot,
    actor: Cid,
    side: u8,
    candidates: &[Command],
    budget: &LookAhead,
    base: u64,
    until: u32,
    started: Instant,
) -> Vec<Vec<f64>> {
    let mut scores = vec![Vec::new(); candidates.len()];
    for j in 0..u64::from(budget.playouts) {
        let seed = stream_seed(base, j + 1);
        for (command, score) in candidates.iter().zip(&mut scores) {
            let first = CommandMsg {
                actor,
                command: command.clone(),
            };
            engine.playout_with(snap, Some(first), seed, Some(until), PLAYOUT_STEPS);
            score.push(judge(engine.world(), side));
        }
        if budget.deadline.is_some_and(|d| started.elapsed() >= d) {
            break;
        }
    }
    scores
}

/// A playout's worth to `side`: the share of its health still standing
/// less the enemies' (each −1 … 1), and 1 more for a win, 1 less for a
/// loss.
pub fn judge(world: &World, side: u8) -> f64 {
    let roster = view::resource::<Roster>(world);
    let (mut own, mut own_max, mut foe, mut foe_max) = (0.0, 0.0, 0.0, 0.0);
    for (i, (f, p)) in roster.factions.iter().zip(roster.places()).enumerate() {
        let Some(h) = view::get::<Health>(world, Cid(i as u16)) else {
            continue;
        };
        let max = f64::from(h.hp_max.max(1));
        let now = if p.conditions.out_of_fight() {
            0.0
        } else {
            f64::from(h.hp.clamp(0, h.hp_max.max(1)))
        };
        if *f == side {
            own += now;
            own_max += max;
        } else {
            foe += now;
            foe_max += max;
        }
    }
    let share = |x: f64, m: f64| if m > 0.0 { x / m } else { 0.0 };
    let margin = share(own, own_max) - share(foe, foe_max);
    let outcome = match view::resource::<Battle>(world)
        .outcome
        .as_ref()
        .and_then(|o| o.winner)
    {
        Some(w) if w == side => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    };
    outcome + margin
}

/// Which candidate to play: the first (the AI's own) unless another beats
/// it, playout by playout, by more than one standard error of the
/// difference; of those that do, the best on average.
fn choose(scores: &[Vec<f64>]) -> usize {
    let Some(own) = scores.first() else {
        return 0;
    };
    let mut best = (0usize, 0.0f64);
    for (c, s) in scores.iter().enumerate().skip(1) {
        let n = s.len().min(own.len());
        if n < 2 {
            continue;
        }
        let d: Vec<f64> = s.iter().zip(own).map(|(a, b)| a - b).collect();
        let mean = d.iter().sum::<f64>() / n as f64;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let se = (var / n as f64).sqrt();
        if mean > se && mean > best.1 {
            best = (c, mean);
        }
    }
    best.0
}

/// The commands worth weighing, the AI's own first: an attack on each
/// enemy (with the weapon and mode the AI chose when it chose to attack,
/// else the first legal), every other ruleset choice, every answer to a
/// reaction prompt or to a prompt to pick who acts but passing, then for each enemy the legal move that ends nearest it; at
/// most `most`.
fn candidates(
    world: &World,
    actor: Cid,
    planned: &Command,
    legal_commands: fn(&World, Cid) -> Vec<Command>,
    most: usize,
) -> Vec<Command> {
    let mut out = vec![planned.clone()];
    let legal = legal_commands(world, actor);
    // Answering a reaction or choosing who acts: every legal answer.
    let reacting = !matches!(view::resource::<Battle>(world).prompt, Prompt::Act { .. });
    let push = |out: &mut Vec<Command>, c: &Command| {
        if out.len() < most && !out.contains(c) {
            out.push(c.clone());
        }
    };
    let enemies = view::enemies(world, actor);
    for e in &enemies {
        let on_e = |c: &&Command| matches!(c, Command::Attack { target, .. } if target == e);
        let like_planned = |c: &&Command| match (c, planned) {
            (
                Command::Attack { weapon, mode, .. },
                Command::Attack {
                    weapon: w, mode: m, ..
                },
            ) => weapon == w && mode == m,
            _ => false,
        };
        let pick = legal
            .iter()
            .filter(on_e)
            .find(like_planned)
            .or_else(|| legal.iter().find(on_e));
        if let Some(c) = pick {
            push(&mut out, c);
        }
    }
    for c in &legal {
        let reaction = reacting && !matches!(c, Command::Attack { .. }) && !c.is_pass();
        let own_choice =
            !matches!(c, Command::Move { .. } | Command::Attack { .. }) && c.choice().is_some();
        if reaction || own_choice {
            push(&mut out, c);
        }
    }
    if reacting {
        return out;
    }
    for e in &enemies {
        let Some(at) = view::cell(world, *e) else {
            continue;
        };
        let nearest = legal
            .iter()
            .filter_map(|c| match c {
                Command::Move { path } => path.last().map(|end| (c, *end, path.len())),
                _ => None,
            })
            .min_by_key(|(_, end, steps)| (Map::chebyshev(*end, at), *steps));
        if let Some((c, _, _)) = nearest {
            push(&mut out, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::components::Controller;
    use crate::rules::engine::Controls;
    use crate::testkit::{engine, play_shipped, start_shipped};

    /// Humans on both sides: the battle waits at each prompt for the test.
    fn humans() -> Controls {
        Controls::PerFaction(vec![Controller::Human, Controller::Human])
    }

    /// A small budget: the tests check what the look-ahead does, not how
    /// well it plays (`fray simulate --control hard,normal` measures that).
    const SMALL: LookAhead = LookAhead {
        deadline: None,
        playouts: 3,
        horizon: 1,
        candidates: 4,
    };

    fn hard_battle(ruleset: crate::rules::battle::RulesetId, seed: u64) -> Engine {
        let mut e = engine();
        e.world_mut().insert_resource(SMALL);
        let control = Controls::PerFaction(vec![Controller::HardAi, Controller::Ai]);
        start_shipped(&mut e, "mirror_duel", ruleset, seed, control);
        e.run(1_000_000);
        e
    }

    #[test]
    fn the_own_choice_stands_unless_another_is_better_beyond_the_noise() {
        // Better on average, but by less than its noise: the own choice.
        let noisy = vec![vec![0.0, 1.0, 0.0, 1.0], vec![1.0, 0.0, 1.0, 1.5]];
        assert_eq!(choose(&noisy), 0);
        // Better in every playout: taken.
        let clear = vec![vec![0.0, 0.5, 0.0, 0.2], vec![0.3, 0.9, 0.4, 0.5]];
        assert_eq!(choose(&clear), 1);
        // Of two clearly better, the better on average.
        let two = vec![
            vec![0.0, 0.5, 0.0, 0.2],
            vec![0.3, 0.9, 0.4, 0.5],
            vec![0.6, 1.1, 0.5, 0.9],
        ];
        assert_eq!(choose(&two), 2);
        // Worse: the own choice.
        let worse = vec![vec![1.0, 1.0, 1.0], vec![0.0, 0.1, 0.0]];
        assert_eq!(choose(&worse), 0);
        assert_eq!(choose(&[]), 0);
    }

    #[test]
    fn a_playout_is_judged_from_the_actors_side() {
        let e = play_shipped("mirror_duel", crate::rulesets::ud10::ID, 5);
        let winner = e.outcome().and_then(|o| o.winner).expect("a winner");
        let (won, lost) = (judge(e.world(), winner), judge(e.world(), 1 - winner));
        // A win and some health left, a loss and none.
        assert!(won > 1.0 && won <= 2.0, "{won}");
        assert!((-2.0..-1.0).contains(&lost), "{lost}");
        assert!((won + lost).abs() < 1e-9, "{won} {lost}");
    }

    /// The candidates start with the AI's own choice, hold no command
    /// twice, stay within the budget, and are all legal.
    #[test]
    fn candidates_are_the_ais_choice_then_legal_alternatives() {
        for ruleset in [
            crate::rulesets::ud10::ID,
            crate::rulesets::zones::ID,
            crate::rulesets::brp::ID,
        ] {
            let mut e = engine();
            start_shipped(&mut e, "mirror_duel", ruleset, 3, humans());
            let mut seen = 0;
            for _ in 0..40 {
                e.run(1_000);
                let world = e.world();
                let Some(actor) = view::resource::<Battle>(world).prompt.actor() else {
                    break;
                };
                let hooks = view::resource::<crate::rules::hooks::ActiveRuleset>(world).0;
                let planned = (hooks.decide)(world, actor);
                let list = candidates(world, actor, &planned, hooks.legal_commands, 5);
                assert_eq!(list.first(), Some(&planned));
                assert!(list.len() <= 5);
                for (i, c) in list.iter().enumerate() {
                    assert!(!list[..i].contains(c), "{c:?} twice");
                    assert!((hooks.check)(world, actor, c).is_ok(), "{c:?} is not legal");
                }
                seen += list.len();
                e.send(actor, planned);
            }
            assert!(
                seen > 40,
                "{ruleset:?}: only {seen} candidates in 40 decisions"
            );
        }
    }

    /// The hard AI plays whole battles under both rulesets, every command
    /// it sends legal, and a battle replays byte for byte: its playouts'
    /// seeds come from the battle, and it never rolls the battle's dice.
    #[test]
    fn a_hard_battle_is_legal_and_replays_exactly() {
        for ruleset in [
            crate::rulesets::ud10::ID,
            crate::rulesets::zones::ID,
            crate::rulesets::brp::ID,
        ] {
            let a = hard_battle(ruleset, 11);
            assert!(a.outcome().is_some(), "{ruleset:?}: no end");
            assert_eq!(a.rejection(), None, "{ruleset:?}");
            let b = hard_battle(ruleset, 11);
            assert_eq!(a.log_text(), b.log_text(), "{ruleset:?}");
        }
    }

    /// The game's deadline stops the weighing: a thousand playouts per
    /// candidate asked, a millisecond allowed, every candidate weighed on
    /// the same few streams.
    #[test]
    fn a_deadline_cuts_the_weighing_short() {
        let mut e = engine();
        start_shipped(
            &mut e,
            "mirror_duel",
            crate::rulesets::ud10::ID,
            4,
            humans(),
        );
        e.run(1_000);
        let world = e.world();
        let actor = view::resource::<Battle>(world)
            .prompt
            .actor()
            .expect("an actor");
        let hooks = view::resource::<crate::rules::hooks::ActiveRuleset>(world).0;
        let list = candidates(
            world,
            actor,
            &(hooks.decide)(world, actor),
            hooks.legal_commands,
            8,
        );
        assert!(list.len() > 1, "{list:?}");
        let budget = LookAhead {
            deadline: Some(Duration::from_millis(1)),
            playouts: 1_000,
            ..SMALL
        };
        let snap = snapshot(world);
        let mut engine = engine();
        let started = Instant::now();
        let scores = weigh(&mut engine, &snap, actor, 0, &list, &budget, 1, 3, started);
        let runs = scores[0].len();
        assert!((1..1_000).contains(&runs), "{runs} playouts");
        assert!(scores.iter().all(|s| s.len() == runs));
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// With the look-ahead's choices the hard AI's battle differs from the
    /// normal AI's: it does weigh, and sometimes picks another command.
    #[test]
    fn the_hard_ai_sometimes_plays_otherwise_than_the_normal_one() {
        let differs = (1..=6).any(|seed| {
            let hard = hard_battle(crate::rulesets::ud10::ID, seed);
            let normal = play_shipped("mirror_duel", crate::rulesets::ud10::ID, seed);
            hard.log_text() != normal.log_text()
        });
        assert!(differs);
    }
}
