//! The roll-under save every zones rule asks for: a d20 against an
//! attribute (§Attacking, §Reacting to an attack, §Morale, §Mounts ...).
//! The lowest writer: it imports none of the others.

use crate::rules::components::Cid;
use crate::rules::dice::DiceRoll;
use crate::rules::scene::{Scene, emit};
use crate::rules::view;
use crate::rulesets::zones::event::{SaveRolled, ZonesEvent};

use super::settings::ZonesSettings;

/// Roll a d20 save under `target` and log it. Fray decides: equal or under
/// passes; with `natural_extremes`, 1 always passes and 20 always fails.
pub fn save(
    world: &mut Scene,
    who: Cid,
    attribute: &'static str,
    target: i32,
    purpose: &'static str,
    rule: &'static str,
) -> bool {
    let r = world.dice().roll_die(20);
    let extremes = view::resource::<ZonesSettings>(world).natural_extremes;
    let pass = if extremes && r == 1 {
        true
    } else if extremes && r == 20 {
        false
    } else {
        r as i32 <= target
    };
    emit(
        world,
        ZonesEvent::SaveRolled(SaveRolled {
            who,
            attribute,
            roll: DiceRoll::one_die(20, r),
            target,
            pass,
            purpose,
            rule,
        }),
    );
    pass
}
