//! Mounts and vehicles out of the fight (docs/rulesets/brp.md, "Mounts
//! and vehicles"): their riders thrown off. Writes by emitting only.

use crate::rules::components::Cid;
use crate::rules::event::{BattleEvent, Dismounted};
use crate::rules::scene::{Scene, emit};
use crate::rules::view;

pub const RULE_MOUNTS: &str = "Fray decides: docs/rulesets/brp.md, \"Mounts and vehicles\"";

/// A mount or vehicle out of the fight throws its riders to the nearest
/// free cells beside it (docs/rulesets/brp.md, "Mounts and vehicles").
pub fn unseat(world: &mut Scene, mount: Cid) {
    let Some(at) = view::cell(world, mount) else {
        return;
    };
    for rider in view::riders(world, mount) {
        let occupied = view::occupied(world, Some(rider));
        let map = view::resource::<crate::rules::map::Map>(world);
        let to = map
            .steps_from(at)
            .map(|(c, _)| c)
            .find(|c| occupied.binary_search(c).is_err());
        let Some(to) = to else { continue };
        emit(
            world,
            BattleEvent::Dismounted(Dismounted {
                who: rider,
                mount,
                to,
                thrown: true,
                rule: RULE_MOUNTS,
            }),
        );
    }
}
