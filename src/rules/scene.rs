//! What a ruleset's writers hold of the battle while they carry out a
//! command, move the round on or close the battle: a [`Scene`]. It reads
//! the whole world (it derefs to `&World`), rolls the one seeded dice, and
//! changes the battle only by emitting events, which `apply` (the core's,
//! then the ruleset's) carries out and the log keeps. It gives no
//! `&mut World`: an executor that tries to write state does not compile,
//! so the log is the whole story of a battle.
//!
//! The core's Resolve step and the skeleton's `advance` and `aftermath`
//! hooks make the scenes the writers are handed.

use bevy::ecs::change_detection::Mut;
use bevy::prelude::*;

use crate::rules::components::{Cid, Loadout};
use crate::rules::dice::Dice;
use crate::rules::event::{BattleEvent, Drew, Rule};
use crate::rules::view;

/// The battle as a ruleset's writer sees it: reads, dice and events.
pub struct Scene<'w> {
    /// Only the core reaches it (`apply.rs`'s [`Scene::emit`]).
    pub(in crate::rules) world: &'w mut World,
}

impl<'w> Scene<'w> {
    /// A scene on `world`, for a writer to be handed (the core's Resolve
    /// step and the skeleton's hooks make them; a test may). Whoever holds
    /// the `&mut World` could write anyway; the writer it hands the scene
    /// to cannot.
    pub fn new(world: &'w mut World) -> Scene<'w> {
        Scene { world }
    }

    /// The battle's one seeded dice, to roll. (The dice's stream is not
    /// state the log tells: the same seed and commands give the same
    /// rolls, and every roll's result is in an event.)
    pub fn dice(&mut self) -> Mut<'_, Dice> {
        view::write::resource_mut::<Dice>(self.world)
    }
}

impl std::ops::Deref for Scene<'_> {
    type Target = World;
    fn deref(&self) -> &World {
        self.world
    }
}

/// [`Scene::emit`], as a function (the writers' `emit(world, event)`).
pub fn emit(scene: &mut Scene, event: impl Into<BattleEvent>) {
    scene.emit(event);
}

/// Emit that `who` draws its weapon `index`, by the weapon's name; as part
/// of a movement or as an action, under the ruleset's `rule`.
pub fn draw(world: &mut Scene, who: Cid, index: usize, as_movement: bool, cost: Rule, rule: Rule) {
    let weapon = crate::rules::view::get::<Loadout>(world, who)
        .and_then(|l| l.weapons.get(index))
        .map_or(String::new(), |w| String::from(&*w.name));
    world.emit(BattleEvent::Drew(Drew {
        who,
        weapon,
        index,
        as_movement,
        cost,
        rule,
    }));
}
