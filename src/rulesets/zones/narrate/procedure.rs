//! The narration of a round's procedure (who holds the initiative, who
//! acts, who passes, who keeps or hands over a turn) and of the turn's
//! questions and bookkeeping (silent in the readable log, but for riders
//! carried fast).

use crate::rules::narrate::dice_text;
use crate::rules::roster::Names;
use crate::rulesets::zones::event::{
    Activated, ActivationOffered, CarriedFast, FirstTurnGiven, HalfZoneSpent, InitiativeHeld,
    JoinsTurn, PairTurn, Passed, PlayGoesTo, ReactionOffered, TurnHandedOver, TurnReserved,
    TurnResumed,
};
use crate::rulesets::zones::state::Waiting;

use crate::rules::event::Narrate;

impl Narrate for InitiativeHeld {
    fn describe(&self, n: &Names) -> String {
        let InitiativeHeld {
            faction,
            roll,
            rule,
        } = self;
        match roll {
            Some(r) => format!(
                "{} holds the initiative (rolled {})  [{rule}]",
                n.faction(*faction),
                dice_text(r)
            ),
            None => format!(
                "{} started the fight and holds the initiative  [{rule}]",
                n.faction(*faction)
            ),
        }
    }
}

impl Narrate for FirstTurnGiven {
    fn describe(&self, n: &Names) -> String {
        let FirstTurnGiven { by, to, rule } = self;
        format!(
            "{} lets {} act first  [{rule}]",
            n.faction(*by),
            n.faction(*to)
        )
    }
}

impl Narrate for Activated {
    fn describe(&self, n: &Names) -> String {
        let Activated { faction, who, rule } = self;
        format!(
            "{} take their turn with {}  [{rule}]",
            n.faction(*faction),
            n.who(*who)
        )
    }
}

impl Narrate for Passed {
    fn describe(&self, n: &Names) -> String {
        let Passed {
            faction,
            forced,
            gone,
            rule,
        } = self;
        format!(
            "{} {}  [{rule}]",
            n.faction(*faction),
            if *gone {
                "pass: nobody of them stands"
            } else if *forced {
                "must pass: nobody left to take a turn"
            } else {
                "pass"
            }
        )
    }
}

impl Narrate for TurnHandedOver {
    fn describe(&self, n: &Names) -> String {
        let TurnHandedOver { from, to, rule } = self;
        format!(
            "{} goes on with {}'s turn  [{rule}]",
            n.who(*to),
            n.who(*from)
        )
    }
}

impl Narrate for TurnReserved {
    fn describe(&self, n: &Names) -> String {
        let TurnReserved { who, rule } = self;
        format!("{} keeps its turn to react  [{rule}]", n.who(*who))
    }
}

// The turn's questions and bookkeeping: silent in the readable log (but
// for riders carried fast); what the rules log says of them.

impl Narrate for ActivationOffered {
    fn describe(&self, n: &Names) -> String {
        let ActivationOffered {
            faction,
            speaker,
            rule,
        } = self;
        format!(
            "{} may take a turn ({} first) or pass  [{rule}]",
            n.faction(*faction),
            n.who(*speaker)
        )
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for ReactionOffered {
    fn describe(&self, n: &Names) -> String {
        let ReactionOffered {
            who,
            by,
            waits,
            rule,
        } = self;
        let what = match waits {
            Waiting::Attack(_) => "attack",
            Waiting::Blast(_) => "attack on several",
            Waiting::Move(_) => "move away",
        };
        format!(
            "{} may react to {}'s {what}  [{rule}]",
            n.who(*who),
            n.who(*by)
        )
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for TurnResumed {
    fn describe(&self, n: &Names) -> String {
        let TurnResumed { who, rule } = self;
        match who {
            Some(who) => format!("{}'s turn goes on  [{rule}]", n.who(*who)),
            None => format!("The battle goes on  [{rule}]"),
        }
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for PlayGoesTo {
    fn describe(&self, n: &Names) -> String {
        let PlayGoesTo { faction, rule } = self;
        format!("Play goes to {}  [{rule}]", n.faction(*faction))
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for PairTurn {
    fn describe(&self, n: &Names) -> String {
        let PairTurn { acting, rule, .. } = self;
        match acting.who {
            Some(who) => format!("{} acts for its pair  [{rule}]", n.who(who)),
            None => format!("Nobody of the pair acts  [{rule}]"),
        }
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for JoinsTurn {
    fn describe(&self, n: &Names) -> String {
        let JoinsTurn { who, rule } = self;
        format!("{} takes this turn with its rider  [{rule}]", n.who(*who))
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for HalfZoneSpent {
    fn describe(&self, n: &Names) -> String {
        let HalfZoneSpent { who, rule } = self;
        format!("{} spends half a zone of movement  [{rule}]", n.who(*who))
    }

    fn silent(&self) -> bool {
        true
    }
}

impl Narrate for CarriedFast {
    fn describe(&self, n: &Names) -> String {
        let CarriedFast { riders, rule } = self;
        format!(
            "{}: carried at full speed, no action nor reaction this round  [{rule}]",
            crate::rules::narrate::names(n, riders)
        )
    }
}
