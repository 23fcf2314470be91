//! The one legality check for UD10 commands. The resolver, the AI and the UI
//! all ask it; nothing illegal reaches execution.

use bevy::prelude::*;

use crate::rules::battle::{Battle, Prompt};
use crate::rules::command::{Command, Illegal, illegal};
use crate::rules::components::{Cid, Condition, Heading, MoveMode, ReloadCost, Weapon, WeaponKind};
use crate::rules::level::Facing;
use crate::rules::map::{Cell, Map};
use crate::rules::view;
use crate::rulesets::ud10::command::Ud10Command;
use crate::rulesets::ud10::event::{Barred, Reaction};
use crate::rulesets::ud10::weapon::Ud10Gear;

use super::armor::{Shield, shield_bonus};
use super::query::{Turn, loadout, stats, turn};
use super::settings::Ud10Settings;

/// [`check`] as a type: what the core asks (`Ruleset::Check`) and the AI
/// asks of the command it settles on, one answer for both
/// (`command::Decision`).
pub struct Legality;

impl crate::rules::command::LegalityCheck for Legality {
    fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
        check(world, actor, command)
    }
}

/// Is the command legal for `actor` now?
pub fn check(world: &World, actor: Cid, command: &Command) -> Result<(), Illegal> {
    check_in(world, actor, command, None)
}

/// [`check`], the actor's turn read already (`t`, [`turn`]'s answer in
/// this same world): the AI's decision has read it, and the check asks
/// again what it read (every decision's command is checked).
pub fn check_with_turn(
    world: &World,
    actor: Cid,
    command: &Command,
    t: &Turn,
) -> Result<(), Illegal> {
    debug_assert_eq!(*t, turn(world, actor), "the turn given is the actor's");
    check_in(world, actor, command, Some(t))
}

/// [`check`], with the actor's turn if read already.
fn check_in(world: &World, actor: Cid, command: &Command, t: Option<&Turn>) -> Result<(), Illegal> {
    let battle = view::resource::<Battle>(world);
    if battle.is_over() {
        return illegal("the battle is over");
    }
    match battle.prompt {
        Prompt::React {
            actor: defender,
            attacker,
        } => {
            if actor != defender {
                return illegal(format!(
                    "waiting for {} to react",
                    view_name(world, defender)
                ));
            }
            check_reaction(world, actor, attacker, command)
        }
        Prompt::Act { actor: acting } => {
            if actor != acting {
                return illegal(format!("it is {}'s turn", view_name(world, acting)));
            }
            if command.is_reaction() {
                return illegal("there is no attack to react to");
            }
            check_turn(world, actor, command, t)
        }
        Prompt::None | Prompt::Activate { .. } => illegal("the battle is between turns"),
    }
}

fn view_name(world: &World, cid: Cid) -> String {
    view::resource::<crate::rules::roster::Roster>(world)
        .name(cid)
        .to_string()
}

/// A command in `actor`'s own turn (its turn `t` if read already): each
/// kind's own check.
fn check_turn(
    world: &World,
    actor: Cid,
    command: &Command,
    t: Option<&Turn>,
) -> Result<(), Illegal> {
    if !view::standing(world, actor) {
        return illegal("out of the fight");
    }
    let read;
    let t = match t {
        Some(t) => t,
        None => {
            read = turn(world, actor);
            &read
        }
    };
    match (command, command.own::<Ud10Command>()) {
        (Command::EndTurn, _) => Ok(()),
        (Command::Move { path }, _) => check_move_command(world, actor, t, path),
        (_, Some(Ud10Command::Retreat { path })) => {
            super::reach::check_retreat(world, actor, path).map(|_| ())
        }
        (Command::Flee, _) => super::reach::check_flee(world, actor),
        (
            Command::Attack {
                target,
                weapon,
                mode,
            },
            _,
        ) => check_attack_in(world, actor, t, *target, *weapon, *mode),
        (_, Some(Ud10Command::Aim { target, weapon })) => {
            check_aim(world, actor, t, *target, *weapon)
        }
        (_, Some(Ud10Command::Reload { weapon })) => check_reload(world, actor, t, *weapon),
        (Command::Draw { weapon }, _) => check_draw(world, actor, t, *weapon),
        (_, Some(Ud10Command::CutFree)) => check_cut_free(world, actor, t),
        (_, Some(Ud10Command::FirstAid { patient })) => check_first_aid(world, actor, t, *patient),
        (_, Some(Ud10Command::TakeCover)) => check_take_cover(world, actor),
        (_, Some(Ud10Command::Stand)) => check_stand(world, actor),
        (_, Some(Ud10Command::Face { facing })) => check_face(world, actor, t, *facing),
        (c, _) if c.is_reaction() || *c == Command::NoReaction => {
            illegal("there is no attack to react to")
        }
        _ => illegal("not part of a ud10 round"),
    }
}

/// §Movement: a move command, unless a retreat takes the whole round; the
/// path itself is `reach::check_move_in`'s to check.
fn check_move_command(world: &World, actor: Cid, t: &Turn, path: &[Cell]) -> Result<(), Illegal> {
    if t.movement == MoveMode::Retreat {
        return illegal("retreating takes the whole round");
    }
    super::reach::check_move_in(world, actor, t, path).map(|_| ())
}

/// First aid takes the action (§Performing Actions, a skill action), then
/// its own check (`first_aid.rs`).
fn check_first_aid(world: &World, actor: Cid, t: &Turn, patient: Cid) -> Result<(), Illegal> {
    action_available(t, t.movement == MoveMode::Retreat)?;
    super::first_aid::check(world, actor, patient)
}

/// §Attack Modifiers, aiming: the action, at a target in range of a ready
/// ranged weapon.
fn check_aim(
    world: &World,
    actor: Cid,
    t: &Turn,
    target: Cid,
    weapon: usize,
) -> Result<(), Illegal> {
    action_available(t, t.movement == MoveMode::Retreat)?;
    let w = ready_weapon(world, actor, weapon)?;
    if !w.is_ranged() {
        return illegal("only ranged weapons are aimed");
    }
    target_in_range(world, actor, target, w)
}

/// §Performing Actions: cutting free of a net takes the action, and a net
/// holding the actor.
fn check_cut_free(world: &World, actor: Cid, t: &Turn) -> Result<(), Illegal> {
    action_available(t, t.movement == MoveMode::Retreat)?;
    if !view::conditions(world, actor).has(Condition::Immobilized) {
        return illegal("nothing holds you");
    }
    Ok(())
}

/// §Free Actions: crouching, if not crouching already.
fn check_take_cover(world: &World, actor: Cid) -> Result<(), Illegal> {
    if view::conditions(world, actor).has(Condition::Crouching) {
        return illegal("already crouching");
    }
    Ok(())
}

/// §Free Actions: standing up, from a crouch.
fn check_stand(world: &World, actor: Cid) -> Result<(), Illegal> {
    if !view::conditions(world, actor).has(Condition::Crouching) {
        return illegal("not crouching");
    }
    Ok(())
}

/// Turning to face a new way (Fray decides: docs/rulesets/ud10.md, "From
/// behind"); a retreat keeps its facing.
fn check_face(world: &World, actor: Cid, t: &Turn, facing: Facing) -> Result<(), Illegal> {
    if t.movement == MoveMode::Retreat {
        return illegal("a retreat keeps its facing");
    }
    if view::get::<Heading>(world, actor).map(|h| h.0) == Some(facing) {
        return illegal(format!("already facing {}", facing.name()));
    }
    Ok(())
}

/// §Performing Actions: reloading needs room in the magazine and spare
/// ammunition, and the action unless the weapon reloads freely.
fn check_reload(world: &World, actor: Cid, t: &Turn, weapon: usize) -> Result<(), Illegal> {
    let l = loadout(world, actor).ok_or_else(|| Illegal("no weapons".into()))?;
    let w = l
        .weapons
        .get(weapon)
        .ok_or_else(|| Illegal("no such weapon".into()))?;
    if w.magazine == 0 {
        return illegal(format!("{} needs no reloading", w.name));
    }
    if w.loaded >= w.magazine {
        return illegal(format!("{} is loaded", w.name));
    }
    if w.spare == Some(0) {
        return illegal(format!("no ammunition left for {}", w.name));
    }
    if w.reload == ReloadCost::Action {
        action_available(t, t.movement == MoveMode::Retreat)?;
    }
    Ok(())
}

/// Drawing a weapon not in hand: the action, or part of a standard
/// movement for a small one.
fn check_draw(world: &World, actor: Cid, t: &Turn, weapon: usize) -> Result<(), Illegal> {
    let l = loadout(world, actor).ok_or_else(|| Illegal("no weapons".into()))?;
    let w = l
        .weapons
        .get(weapon)
        .ok_or_else(|| Illegal("no such weapon".into()))?;
    if l.ready == Some(weapon) {
        return illegal(format!("{} is already in hand", w.name));
    }
    if draw_as_movement(t, w) {
        return Ok(());
    }
    action_available(t, t.movement == MoveMode::Retreat)
}

/// Drawing a small weapon is part of a standard movement (§Movement) when
/// the movement is still unused.
pub fn draw_as_movement(t: &Turn, w: &Weapon) -> bool {
    w.ud10().small && t.movement == MoveMode::None
}

fn action_available(t: &Turn, retreating: bool) -> Result<(), Illegal> {
    if retreating {
        return illegal("retreating takes the whole round");
    }
    if t.action_used {
        return illegal("the action of this round is spent");
    }
    if t.movement == MoveMode::Full {
        return illegal("full movement leaves no action this round");
    }
    Ok(())
}

fn ready_weapon(world: &World, actor: Cid, weapon: usize) -> Result<&Weapon, Illegal> {
    let l = loadout(world, actor).ok_or_else(|| Illegal("no weapons".into()))?;
    let w = l
        .weapons
        .get(weapon)
        .ok_or_else(|| Illegal("no such weapon".into()))?;
    if l.ready != Some(weapon) {
        return illegal(format!("{} is not in hand (draw it first)", w.name));
    }
    Ok(w)
}

fn target_in_range(world: &World, actor: Cid, target: Cid, w: &Weapon) -> Result<(), Illegal> {
    if !view::standing(world, target) {
        return illegal("the target is out of the fight");
    }
    if view::faction(world, target) == view::faction(world, actor) {
        return illegal("that is an ally");
    }
    let (Some(a), Some(b)) = (view::cell(world, actor), view::cell(world, target)) else {
        return illegal("not on the map");
    };
    in_reach(view::resource::<Map>(world), a, b, w)
}

/// Can a weapon reach from `a` to `b`? (The AI's quick form of [`in_reach`].)
pub fn reaches(map: &Map, a: Cell, b: Cell, w: &Weapon) -> bool {
    match w.kind {
        WeaponKind::Melee => {
            let d = Map::chebyshev(a, b);
            d <= w.reach && (d <= 1 || map.line_of_sight(a, b))
        }
        WeaponKind::Missile | WeaponKind::Thrown => {
            Map::distance_m(a, b) <= w.max_range_m && map.line_of_sight(a, b)
        }
    }
}

/// Can a weapon reach from `a` to `b`? If not, why not.
pub fn in_reach(map: &Map, a: Cell, b: Cell, w: &Weapon) -> Result<(), Illegal> {
    match w.kind {
        WeaponKind::Melee => {
            let d = Map::chebyshev(a, b);
            if d > w.reach {
                return illegal(format!("out of reach of the {}", w.name));
            }
            if d > 1 && !map.line_of_sight(a, b) {
                return illegal("no line of sight");
            }
            Ok(())
        }
        WeaponKind::Missile | WeaponKind::Thrown => {
            if !map.line_of_sight(a, b) {
                return illegal("no line of sight");
            }
            if Map::distance_m(a, b) > w.max_range_m {
                return illegal(format!(
                    "beyond the {}'s range of {} m",
                    w.name, w.max_range_m
                ));
            }
            Ok(())
        }
    }
}

/// Ammunition check for an attack with `w` in `mode`.
pub fn has_ammo(w: &Weapon, mode: usize) -> Result<(), Illegal> {
    if !w.is_ranged() {
        return Ok(());
    }
    let shots = w.shots(mode);
    if w.magazine > 0 {
        if w.loaded < shots {
            return illegal(format!("{} is not loaded (reload it)", w.name));
        }
    } else if let Some(s) = w.spare
        && s < shots
    {
        return illegal(format!("no ammunition left for {}", w.name));
    }
    Ok(())
}

pub fn check_attack(
    world: &World,
    actor: Cid,
    target: Cid,
    weapon: usize,
    mode: usize,
) -> Result<(), Illegal> {
    check_attack_in(world, actor, &turn(world, actor), target, weapon, mode)
}

/// [`check_attack`] with the actor's turn read already (`t`).
fn check_attack_in(
    world: &World,
    actor: Cid,
    t: &Turn,
    target: Cid,
    weapon: usize,
    mode: usize,
) -> Result<(), Illegal> {
    action_available(t, t.movement == MoveMode::Retreat)?;
    let w = ready_weapon(world, actor, weapon)?;
    if mode >= w.mode_count() {
        return illegal(format!("{} has no firing mode {mode}", w.name));
    }
    has_ammo(w, mode)?;
    target_in_range(world, actor, target, w)
}

fn check_reaction(
    world: &World,
    actor: Cid,
    attacker: Cid,
    command: &Command,
) -> Result<(), Illegal> {
    match (command, command.own::<Ud10Command>()) {
        (Command::NoReaction, _) => Ok(()),
        (_, Some(Ud10Command::Parry)) => can_parry(world, actor, attacker),
        (Command::Dodge, _) => can_dodge(world, actor, attacker),
        _ => illegal("answer the attack first: parry, dodge or take it"),
    }
}

fn reaction_common(world: &World, actor: Cid) -> Result<super::numbers::Pending, Barred> {
    if super::query::reaction_used(world, actor) {
        return Err(Barred::Spent);
    }
    let pending = view::get_resource::<super::numbers::PendingAttack>(world)
        .and_then(|p| p.0.clone())
        .ok_or(Barred::NothingPending)?;
    reaction_against(world, actor, &pending)?;
    Ok(pending)
}

/// What bars any reaction of `actor` to the attack `pending`.
fn reaction_against(
    world: &World,
    actor: Cid,
    pending: &super::numbers::Pending,
) -> Result<(), Barred> {
    if super::query::reaction_used(world, actor) {
        return Err(Barred::Spent);
    }
    if !pending.dex_counts {
        return Err(Barred::Unforeseen);
    }
    if pending.ranged {
        return Err(Barred::Missile);
    }
    Ok(())
}

/// What a reaction adds to its d10 (§Parrying and Dodging): the Parry or
/// Dodge skill, or DEX untrained ("an untrained check against his DEX
/// rating"); its name for the log.
pub fn reaction_bonus(world: &World, who: Cid, kind: Reaction) -> (&'static str, i32) {
    match (kind, stats(world, who)) {
        (Reaction::Parry, Some(s)) => match s.parry {
            Some(v) => ("Parry skill", v),
            None => ("untrained: DEX", s.dex),
        },
        (Reaction::Dodge, Some(s)) => match s.dodge {
            Some(v) => ("Dodge skill", v),
            None => ("DEX", s.dex),
        },
        _ => ("none", 0),
    }
}

/// A reaction must roll *higher* than the attack; one that cannot, even
/// with a ten, is not offered (Fray decides, docs/rulesets/ud10.md:
/// offering a hopeless roll only misleads).
fn can_beat(world: &World, who: Cid, kind: Reaction, against: i32) -> Result<(), Barred> {
    let (name, bonus) = reaction_bonus(world, who, kind);
    if 10 + bonus <= against {
        return Err(Barred::Beyond {
            against,
            name,
            bonus,
        });
    }
    Ok(())
}

/// Parry: an appropriate weapon ready, once per round (§Parrying and Dodging).
pub fn can_parry(world: &World, actor: Cid, _attacker: Cid) -> Result<(), Illegal> {
    parry_barred(world, actor).map_err(|b| Illegal(b.why(Reaction::Parry).into()))
}

/// Dodge (§Parrying and Dodging: "maybe possible to dodge the attack"):
/// as a parry, with no weapon needed, when the game's settings allow it.
pub fn can_dodge(world: &World, actor: Cid, _attacker: Cid) -> Result<(), Illegal> {
    dodge_barred(world, actor).map_err(|b| Illegal(b.why(Reaction::Dodge).into()))
}

/// May `actor` parry the pending attack? [`can_parry`]'s answer, its
/// reason not written out.
pub fn may_parry(world: &World, actor: Cid) -> bool {
    parry_barred(world, actor).is_ok()
}

/// May `actor` dodge the pending attack? [`can_dodge`]'s answer, its
/// reason not written out.
pub fn may_dodge(world: &World, actor: Cid) -> bool {
    dodge_barred(world, actor).is_ok()
}

/// Why `actor` may not parry the pending attack, if it may not.
pub fn parry_barred(world: &World, actor: Cid) -> Result<(), Barred> {
    let pending = reaction_common(world, actor)?;
    parry_barred_against(world, actor, &pending)
}

/// Why `actor` may not parry the attack `pending` (the one just rolled,
/// before it is pending), if it may not.
pub fn parry_barred_against(
    world: &World,
    actor: Cid,
    pending: &super::numbers::Pending,
) -> Result<(), Barred> {
    reaction_against(world, actor, pending)?;
    parry_weapon(world, actor)?;
    can_beat(world, actor, Reaction::Parry, pending.total)
}

/// Why `actor` may not dodge the pending attack, if it may not.
pub fn dodge_barred(world: &World, actor: Cid) -> Result<(), Barred> {
    if !view::resource::<Ud10Settings>(world).dodge {
        return Err(Barred::DodgeOff);
    }
    let pending = reaction_common(world, actor)?;
    dodge_barred_against(world, actor, &pending)
}

/// Why `actor` may not dodge the attack `pending`, if it may not.
pub fn dodge_barred_against(
    world: &World,
    actor: Cid,
    pending: &super::numbers::Pending,
) -> Result<(), Barred> {
    if !view::resource::<Ud10Settings>(world).dodge {
        return Err(Barred::DodgeOff);
    }
    reaction_against(world, actor, pending)?;
    can_beat(world, actor, Reaction::Dodge, pending.total)
}

/// "To Parry, a character has to have an appropriate weapon ready".
fn parry_weapon(world: &World, actor: Cid) -> Result<(), Barred> {
    let ready = loadout(world, actor).and_then(|l| l.ready_weapon());
    match ready {
        Some(w) if w.ud10().parry && w.kind == WeaponKind::Melee => Ok(()),
        Some(w) => Err(Barred::Weapon(Some(w.name.to_string()))),
        None => Err(Barred::Weapon(None)),
    }
}

/// What an attack's preview may promise of the target's reactions before
/// the roll: whether it could parry or dodge a hit at all (its round's
/// reaction, a weapon to parry with, an attack it can see coming, dodging
/// allowed), the roll it would have to beat aside.
pub fn reactions_open(
    world: &World,
    target: Cid,
    ranged: bool,
    dex_counts: bool,
) -> (Result<(), Barred>, Result<(), Barred>) {
    let common = if super::query::reaction_used(world, target) {
        Err(Barred::Spent)
    } else if !dex_counts {
        Err(Barred::Unforeseen)
    } else if ranged {
        Err(Barred::Missile)
    } else {
        Ok(())
    };
    let parry = common.clone().and_then(|_| parry_weapon(world, target));
    let dodge = if view::resource::<Ud10Settings>(world).dodge {
        common
    } else {
        Err(Barred::DodgeOff)
    };
    (parry, dodge)
}

/// The shield counts while no two-handed weapon is in hand.
pub fn shield_usable(world: &World, cid: Cid) -> Option<i32> {
    shield_bonus(view::get::<Shield>(world, cid), loadout(world, cid))
}
