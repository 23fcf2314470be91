//! The components a combatant entity carries. They are ruleset-neutral: a
//! ruleset adds its own stat block component (for example `Ud10Stats`).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::rules::dice::DiceExpr;
use crate::rules::level::Facing;

/// Stable id of a combatant within one battle: its index in spawn order.
/// Events and commands name combatants by `Cid`, never by `Entity`, so that a
/// battle log is the same byte for byte whatever the ECS allocates.
#[derive(
    Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Cid(pub u16);

/// Display name of a combatant ("Aldo", "Swordsman 2").
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct CombatantName(pub String);

/// The ruleset-free archetype the combatant was built from (`swordsman`).
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Archetype(pub String);

/// Index of the combatant's faction in [`crate::rules::roster::Factions`].
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FactionId(pub u8);

/// Which way the combatant faces; attacks from the rear arc come "from behind".
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heading(pub Facing);

/// Stature, smallest first (zones counts "sizes of difference" in this
/// order; ud10 knows only small, medium and large).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Size {
    Tiny,
    Small,
    #[default]
    Medium,
    Large,
    Massive,
}

/// Hit points and, where the ruleset has them, endurance points.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Health {
    pub hp: i32,
    pub hp_max: i32,
    pub ep: i32,
    /// 0 when the ruleset has no endurance points.
    pub ep_max: i32,
}

/// Who answers this combatant's prompts.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// A person at this desk: the battle waits for their command.
    Human,
    /// The ruleset's tactical AI.
    Ai,
    /// An opponent that picks uniformly among legal commands (a baseline).
    RandomAi,
    /// The tactical AI with a weaker hand ("easy"): one choice in two (where
    /// to move, whom to attack, a ruleset's own such as who acts, how to
    /// meet an attack) goes to another legal answer, at random
    /// (`decide.rs`).
    EasyAi,
    /// The tactical AI looking ahead ("hard"): its choice weighed against
    /// a few others by playing the battle on from forks of where it stands
    /// (`lookahead.rs`).
    HardAi,
    /// An AI outside this battle's process: another build's, its commands
    /// sent in as a player's are (`fray versus`). The rules count it an AI
    /// (ud10's initiative per AI faction, say); the battle waits for its
    /// command as for a human's.
    Remote,
}

impl Controller {
    pub fn is_ai(self) -> bool {
        !matches!(self, Controller::Human)
    }

    /// Does the battle wait for this controller's command, sent from
    /// outside (a person, or a remote AI)?
    pub fn waits(self) -> bool {
        matches!(self, Controller::Human | Controller::Remote)
    }
}

/// A condition a combatant can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Condition {
    Prone,
    Crouching,
    Immobilized,
    Surprised,
    Stunned,
    Unconscious,
    Dead,
    Fled,
    Surrendered,
    Concealed,
    /// Made a standard or full movement in its latest turn (ranged attacks at it suffer).
    Moving,
    /// Retreating this round: disengaging without free attacks.
    Retreating,
    /// Down and helpless but alive (zones: critical damage).
    Incapacitated,
    /// Failed a morale check: must surrender or get away.
    Broken,
    /// Passed a morale check: not subject to morale for the rest of the fight.
    Steadfast,
    /// Held by an enemy (who: its [`Place`](crate::rules::roster::Place)'s
    /// `held_by`): can only try to break free.
    Grabbed,
}

impl Condition {
    pub const ALL: [Condition; 16] = [
        Condition::Prone,
        Condition::Crouching,
        Condition::Immobilized,
        Condition::Surprised,
        Condition::Stunned,
        Condition::Unconscious,
        Condition::Dead,
        Condition::Fled,
        Condition::Surrendered,
        Condition::Concealed,
        Condition::Moving,
        Condition::Retreating,
        Condition::Incapacitated,
        Condition::Broken,
        Condition::Steadfast,
        Condition::Grabbed,
    ];

    fn bit(self) -> u32 {
        1 << (self as u32)
    }

    pub fn name(self) -> &'static str {
        match self {
            Condition::Prone => "prone",
            Condition::Crouching => "crouching",
            Condition::Immobilized => "immobilized",
            Condition::Surprised => "surprised",
            Condition::Stunned => "stunned",
            Condition::Unconscious => "unconscious",
            Condition::Dead => "dead",
            Condition::Fled => "fled",
            Condition::Surrendered => "surrendered",
            Condition::Concealed => "concealed",
            Condition::Moving => "moving",
            Condition::Retreating => "retreating",
            Condition::Incapacitated => "incapacitated",
            Condition::Broken => "broken",
            Condition::Steadfast => "steadfast",
            Condition::Grabbed => "grabbed",
        }
    }
}

/// A mount (a horse) or a vehicle (a cart): others can ride it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steed {
    /// Riders or passengers it carries at most.
    pub carries: u8,
    /// A vehicle: moves only with someone aboard, never attacks nor reacts.
    pub vehicle: bool,
}

/// The set of conditions a combatant is in (kept in its
/// [`Place`](crate::rules::roster::Place)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Conditions(u32);

impl Conditions {
    pub fn has(self, c: Condition) -> bool {
        self.0 & c.bit() != 0
    }
    pub fn insert(&mut self, c: Condition) {
        self.0 |= c.bit();
    }
    pub fn remove(&mut self, c: Condition) {
        self.0 &= !c.bit();
    }
    /// Out of the fight for good or for now: dead, unconscious,
    /// incapacitated, fled or surrendered.
    pub fn out_of_fight(self) -> bool {
        self.has(Condition::Dead)
            || self.has(Condition::Unconscious)
            || self.has(Condition::Incapacitated)
            || self.has(Condition::Fled)
            || self.has(Condition::Surrendered)
    }
    pub fn iter(self) -> impl Iterator<Item = Condition> {
        Condition::ALL.into_iter().filter(move |c| self.has(*c))
    }
}

/// Melee, missile (shot or loosed) or thrown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponKind {
    Melee,
    Missile,
    Thrown,
}

/// What reloading a ranged weapon costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ReloadCost {
    /// Part of the attack (nocking an arrow).
    #[default]
    Free,
    /// Takes the round's action (spanning a crossbow).
    Action,
}

/// An alternative firing mode of a ranged weapon (UD10 "Ranged Attacks").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireMode {
    pub name: String,
    /// Rounds of ammunition one attack in this mode uses.
    pub shots: u32,
    pub damage: DiceExpr,
    #[serde(default)]
    pub attack_mod: i32,
}

/// A weapon as carried in a battle: what every ruleset reads of one (its
/// name, damage, hands, reach and range in metres, attack modes, ammunition)
/// and, in [`OwnGear`], the ruleset's own numbers for it, which travel with
/// the weapon when it is dropped, knocked away or picked up.
#[derive(Clone, Debug, PartialEq)]
pub struct Weapon {
    /// Its id and name shared, not copied, when the weapon is (as its
    /// modes are): a weapon copied allocates nothing.
    pub id: std::sync::Arc<str>,
    pub name: std::sync::Arc<str>,
    pub kind: WeaponKind,
    pub damage: DiceExpr,
    /// Melee reach in cells (1 = adjacent).
    pub reach: i32,
    /// Ranged: the range increment in metres.
    pub range_increment_m: f64,
    /// Ranged: the furthest it can reach at all, in metres.
    pub max_range_m: f64,
    pub hands: u8,
    /// Shared, not copied, when the weapon is: a battle copies weapons
    /// (its forks, an attack's execution) and never changes their modes.
    pub modes: std::sync::Arc<[FireMode]>,
    /// Rounds the weapon holds loaded; 0 for weapons that never need loading.
    pub magazine: u32,
    pub loaded: u32,
    /// Spare ammunition; `None` = enough for any battle.
    pub spare: Option<u32>,
    pub reload: ReloadCost,
    /// The ruleset's own numbers for this weapon.
    pub own: OwnGear,
}

/// A ruleset's own numbers for one piece of gear (UD10's attack modifier
/// and parry, zones' range in zones and blast), kept in the core's
/// [`Weapon`] without the core knowing their type. Cheap to clone.
#[derive(Clone, Default)]
pub struct OwnGear(Option<std::sync::Arc<dyn DynGear>>);

impl OwnGear {
    pub fn new<T: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static>(gear: T) -> Self {
        OwnGear(Some(std::sync::Arc::new(gear)))
    }
    /// The numbers as the ruleset's type `T`, if they are one.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        let g: &dyn std::any::Any = self.0.as_deref()?;
        g.downcast_ref::<T>()
    }
    /// The numbers as the ruleset's type `T`, to change (gear wears out).
    pub fn get_mut<T: 'static>(&mut self) -> Option<&mut T> {
        let arc = self.0.as_mut()?;
        if std::sync::Arc::get_mut(arc).is_none() {
            *arc = arc.clone_arc();
        }
        let g: &mut dyn std::any::Any = std::sync::Arc::get_mut(arc)?;
        g.downcast_mut::<T>()
    }
}

impl PartialEq for OwnGear {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => a.eq_dyn(&**b),
            _ => false,
        }
    }
}

impl std::fmt::Debug for OwnGear {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(g) => g.fmt(f),
            None => f.write_str("-"),
        }
    }
}

/// What [`OwnGear`] needs of the ruleset's type.
trait DynGear: std::any::Any + std::fmt::Debug + Send + Sync {
    fn clone_arc(&self) -> std::sync::Arc<dyn DynGear>;
    fn eq_dyn(&self, other: &dyn DynGear) -> bool;
}

impl<T: Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static> DynGear for T {
    fn clone_arc(&self) -> std::sync::Arc<dyn DynGear> {
        std::sync::Arc::new(self.clone())
    }
    fn eq_dyn(&self, other: &dyn DynGear) -> bool {
        let o: &dyn std::any::Any = other;
        o.downcast_ref::<T>() == Some(self)
    }
}

impl Weapon {
    pub fn is_ranged(&self) -> bool {
        self.kind != WeaponKind::Melee
    }
    /// Ammunition an attack in `mode` uses.
    pub fn shots(&self, mode: usize) -> u32 {
        self.modes.get(mode).map_or(1, |m| m.shots)
    }
    pub fn mode_name(&self, mode: usize) -> &str {
        self.modes.get(mode).map_or("single", |m| m.name.as_str())
    }
    pub fn mode_damage(&self, mode: usize) -> &DiceExpr {
        self.modes.get(mode).map_or(&self.damage, |m| &m.damage)
    }
    pub fn mode_attack_mod(&self, mode: usize) -> i32 {
        self.modes.get(mode).map_or(0, |m| m.attack_mod)
    }
    pub fn mode_count(&self) -> usize {
        self.modes.len().max(1)
    }
}

/// The weapons a combatant carries and which one is in hand.
#[derive(Component, Clone, Debug, PartialEq, Default)]
pub struct Loadout {
    pub weapons: Vec<Weapon>,
    /// Index of the ready weapon, if any.
    pub ready: Option<usize>,
}

impl Loadout {
    pub fn ready_weapon(&self) -> Option<&Weapon> {
        self.ready.and_then(|i| self.weapons.get(i))
    }
}

/// The turn bookkeeping every ruleset shares, kept by the ruleset in force;
/// a ruleset keeps its own beside it in a component of its folder (UD10's
/// movement and aim: `rulesets/ud10/state.rs`).
#[derive(Component, Clone, Debug, PartialEq, Default)]
pub struct TurnState {
    /// The number that orders this round's turns, where the ruleset rolls
    /// one (UD10's initiative; BRP's DEX rank, OSR's countdown and
    /// Spelljammer's segment will fill it the same way).
    pub initiative: Option<i32>,
    /// Has had its turn this round.
    pub done: bool,
    pub action_used: bool,
    pub reaction_used: bool,
}

/// How a combatant is moving this turn (UD10 "Movement").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MoveMode {
    #[default]
    None,
    /// A single step: instantaneous, no effect on other actions.
    Step,
    /// Up to 5 m + STR with an action before or after.
    Standard,
    /// Up to twice standard, no action this round.
    Full,
    /// Disengaging from melee: the whole round, no free attacks.
    Retreat,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Worn(bool);

    #[test]
    fn own_gear_is_read_as_its_type_and_changed_on_one_copy_only() {
        let a = OwnGear::new(Worn(false));
        let mut b = a.clone();
        assert_eq!(a.get::<Worn>(), Some(&Worn(false)));
        assert_eq!(a.get::<i32>(), None);
        assert_eq!(a, b);
        b.get_mut::<Worn>().expect("worn").0 = true;
        assert_eq!(b.get::<Worn>(), Some(&Worn(true)));
        assert_eq!(
            a.get::<Worn>(),
            Some(&Worn(false)),
            "the copy changed alone"
        );
        assert_ne!(a, b);
        assert_ne!(a, OwnGear::default());
        assert_eq!(OwnGear::default().get::<Worn>(), None);
    }
}
