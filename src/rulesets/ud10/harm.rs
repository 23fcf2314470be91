//! A hit's damage, step by step (§Determining The Damage, §Armor Rating,
//! §Constitution, §Summary: Taking Damage, and the optional rules Buffer,
//! Armor Penetration and Body Zones): the one pipeline the execution, the
//! preview and the AI read. Reads only.

use crate::rules::event::Modifier;
use crate::rulesets::ud10::armor::BodyZone;

use super::armor::Protection;
use super::settings::Ud10Settings;

pub const RULE_DAMAGE: &str = "ud10 §Determining The Damage";
pub const RULE_ARMOR: &str = "ud10 §Armor Rating";
pub const RULE_BUFFER: &str = "ud10 §Optional Rule: Buffer";
pub const RULE_CON: &str = "ud10 §Constitution";
pub const RULE_PENETRATION: &str = "ud10 §Optional Rule: Armor Penetration";
pub const RULE_ZONES: &str = "ud10 §Optional Rule: Body Zones";
pub const RULE_SUMMARY: &str = "ud10 §Summary: Taking Damage";
pub const RULE_DOWN: &str = "Fray decides: docs/rulesets/ud10.md §Unconscious and dead";

/// The d10 hit location table: "01: head 02: left arm 03: right arm 04-06:
/// trunk 7/8: left leg 9/10: right leg".
pub fn body_zone(die: u32) -> BodyZone {
    match die {
        1 => BodyZone::Head,
        2 => BodyZone::LeftArm,
        3 => BodyZone::RightArm,
        4..=6 => BodyZone::Trunk,
        7 | 8 => BodyZone::LeftLeg,
        _ => BodyZone::RightLeg,
    }
}

/// The result of the damage pipeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamageOutcome {
    /// Each step, with the nominal value the rule subtracts (or adds back).
    pub steps: Vec<Modifier>,
    pub ep_loss: i32,
    pub hp_loss: i32,
}

/// "roll the weapon damage; subtract the armor rating; optional: subtract
/// the buffer, lessen victim's EP by that amount; subtract the victim's CON
/// attribute; lessen the victim's HP by the remaining value."
pub fn pipeline(
    rolled: i32,
    protection: Protection,
    penetration: i32,
    con: i32,
    s: &Ud10Settings,
) -> DamageOutcome {
    let mut steps = Vec::new();
    let (ep_loss, hp_loss) = steps_of(rolled, protection, penetration, con, s, |m| steps.push(m));
    DamageOutcome {
        steps,
        ep_loss,
        hp_loss,
    }
}

/// The EP and HP a blow of `rolled` takes, by the same [`pipeline`]
/// without its steps written down (a preview's odds).
pub fn losses(
    rolled: i32,
    protection: Protection,
    penetration: i32,
    con: i32,
    s: &Ud10Settings,
) -> (i32, i32) {
    steps_of(rolled, protection, penetration, con, s, |_| {})
}

/// The HP a blow of `rolled` takes, by the same [`pipeline`] without its
/// steps written down: the AI weighs every damage roll of every weapon
/// against every enemy.
pub fn hp_loss(
    rolled: i32,
    protection: Protection,
    penetration: i32,
    con: i32,
    s: &Ud10Settings,
) -> i32 {
    steps_of(rolled, protection, penetration, con, s, |_| {}).1
}

/// The pipeline's arithmetic, each step handed to `step`: (EP, HP) lost.
fn steps_of(
    rolled: i32,
    protection: Protection,
    penetration: i32,
    con: i32,
    s: &Ud10Settings,
    mut step: impl FnMut(Modifier),
) -> (i32, i32) {
    let pen = if s.penetration { penetration.max(0) } else { 0 };
    let mut rating = protection.rating;
    if rating > 0 {
        step(Modifier::new("armor rating", -rating, RULE_ARMOR));
        if pen > 0 {
            // "Armor is then made less effective by the penetration score".
            let back = pen.min(rating);
            step(Modifier::new("armor penetration", back, RULE_PENETRATION));
            rating -= back;
        }
    }
    let mut remaining = (rolled - rating).max(0);
    let mut ep_loss = 0;
    if s.buffer && protection.buffer > 0 {
        // "the weapon's penetration score is also subtracted from the
        // buffer's value".
        // Written as armour is (the rating, then what penetration gives
        // back), so that the steps add up to the harm.
        let buffer = (protection.buffer - pen).max(0);
        step(Modifier::new(
            "buffer (to EP)",
            -protection.buffer,
            RULE_BUFFER,
        ));
        if buffer < protection.buffer {
            step(Modifier::new(
                "buffer lessened by penetration",
                protection.buffer - buffer,
                RULE_PENETRATION,
            ));
        }
        ep_loss = remaining.min(buffer);
        remaining -= ep_loss;
    }
    if con != 0 {
        step(Modifier::new("CON", -con, RULE_CON));
    }
    (ep_loss, (remaining - con).max(0))
}
