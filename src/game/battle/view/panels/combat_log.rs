//! The combat log at the bottom of the screen: the player's log, reading
//! like the story, with the rules log (each line's rule, and where Fray
//! decides, its call) a tick or a hover away.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::game::battle::view::whereabouts::Whereabouts;
use crate::game::widgets::Tag;
use crate::rules::event::{BattleEnded, BattleEvent, Cue, Damaged, Healed, RoundStarted};
use crate::rules::log::BattleLog;
use crate::rules::narrate::describe;
use crate::rules::roster::Names;
use crate::rules::roster::{Factions, Roster};

/// A rules log line as the game shows it: where it cites a call Fray makes
/// for the GM ("[Fray decides: docs/rulesets/brp.md, \"Resolution\"]"),
/// the call named for a player ("[Fray's ruling, where the text leaves it
/// to the GM: brp, Resolution]"), not a path into the source tree.
pub(super) fn for_players(line: &str) -> String {
    const CITE: &str = "Fray decides: docs/rulesets/";
    let Some(at) = line.find(CITE) else {
        return line.to_string();
    };
    let rest = &line[at + CITE.len()..];
    let end = rest.find([']', ')']).unwrap_or(rest.len());
    let (id, section) = rest[..end].split_once(".md").unwrap_or((&rest[..end], ""));
    let section = section
        .trim_start_matches([',', ' ', '§'])
        .trim_matches('"')
        .trim();
    let call = if section.is_empty() {
        format!("Fray's ruling, where the text leaves it to the GM: {id}")
    } else {
        format!("Fray's ruling, where the text leaves it to the GM: {id}, {section}")
    };
    format!("{}{call}{}", &line[..at], &rest[end..])
}

/// The height of one log line.
const ROW: f32 = 16.0;

/// The log: its header (the Rules tick, the way back to the latest lines),
/// then the lines in view. Scrolled up to read, the log stays put; new
/// lines gather below and a button says how many and takes the log back
/// down to them.
pub(super) fn combat_log(ui: &mut egui::Ui, world: &World) {
    let log = world.resource::<BattleLog>();
    let names = Names {
        roster: world.resource::<Roster>(),
        factions: world.resource::<Factions>(),
    };
    let places = world.get_resource::<Whereabouts>();
    // The lines a reader reads: a silent event (a question asked, a turn's
    // bookkeeping) has none.
    let shown: Vec<usize> = (0..log.events.len())
        .filter(|&i| !log.events[i].silent())
        .collect();
    let n = shown.len();
    let id = egui::Id::new("combat_log_read_up_to");
    let read_up_to: Option<usize> = ui.data(|d| d.get_temp(id));
    let (rules, back_down) = log_header(ui, n, read_up_to);
    let mut area = egui::ScrollArea::vertical()
        .id_salt("combat_log")
        .stick_to_bottom(true)
        .auto_shrink([false, false]);
    // Back down to the last line: the offset of the log's end, not a huge
    // number (egui counts rows from the offset, and f32::MAX's row count
    // overflowed).
    if back_down {
        let end = n as f32 * (ROW + ui.spacing().item_spacing.y);
        area = area.vertical_scroll_offset(end);
    }
    let out = area.show_rows(ui, ROW, n, |ui, range| {
        for &i in &shown[range] {
            let e = &log.events[i];
            let (text, cited) = line_text(&names, places, i, e, rules);
            let r = ui.label(line_style(e, text).monospace().size(12.0));
            if let Some(rule) = cited {
                r.on_hover_text(rule);
            }
        }
    });
    let at_bottom =
        back_down || out.state.offset.y + out.inner_rect.height() >= out.content_size.y - 4.0;
    ui.data_mut(|d| {
        if at_bottom {
            d.remove::<usize>(id);
        } else if read_up_to.is_none() {
            d.insert_temp(id, n);
        }
    });
}

/// The log's header: the Rules tick (the player's log by default; the
/// rules log a tick away) and, scrolled up with new lines below, the
/// button back down to them. Returns the tick and whether that button was
/// clicked.
fn log_header(ui: &mut egui::Ui, n: usize, read_up_to: Option<usize>) -> (bool, bool) {
    let rules_id = egui::Id::new("combat_log_rules");
    let mut rules: bool = ui.data(|d| d.get_temp(rules_id)).unwrap_or(false);
    let mut back_down = false;
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut rules, "Rules")
            .tag("log: rules")
            .on_hover_text("Show the rule behind every line (hover a line to see just its own)")
            .changed()
        {
            ui.data_mut(|d| d.insert_temp(rules_id, rules));
        }
        if let Some(seen) = read_up_to
            && n > seen
        {
            let new = n - seen;
            back_down = ui
                .button(
                    egui::RichText::new(format!(
                        "⬇ {new} new line{} below: back to the latest",
                        if new == 1 { "" } else { "s" }
                    ))
                    .strong(),
                )
                .tag("log: back to the latest")
                .clicked();
        }
    });
    (rules, back_down)
}

/// The words of the log's line `i` (event `e`), and the rules log's line
/// to show on hover when it says more.
fn line_text(
    names: &Names,
    places: Option<&Whereabouts>,
    i: usize,
    e: &BattleEvent,
    rules: bool,
) -> (String, Option<String>) {
    let full = for_players(&describe(names, e));
    // The player's log reads like the story ("the spearman's spear
    // misses Theobald (rolled 9, needed 12)"); the rules log's line,
    // every number and its rule ("  [ud10 §Attacking]"), is a hover
    // away, or every line's with Rules ticked.
    if rules {
        return (full, None);
    }
    let bare = match full.rfind("  [") {
        Some(i) if full.ends_with(']') => full[..i].to_string(),
        _ => full.clone(),
    };
    // Where the one who moved went, by name (the places as
    // they were then); the coordinates stay in the rules log.
    let text = match places.and_then(|w| w.line(i)) {
        Some(line) => line.to_string(),
        None => crate::rules::narrate::plain(names, e).unwrap_or(bare),
    };
    let more = full.ends_with(']') || text != full;
    (text, more.then_some(full))
}

/// A log line's look by its event: a round's start and the battle's end
/// strong, damage red, healing green, a blow that landed gold.
fn line_style(e: &BattleEvent, text: String) -> egui::RichText {
    match e {
        BattleEvent::RoundStarted(RoundStarted { .. })
        | BattleEvent::BattleEnded(BattleEnded { .. }) => egui::RichText::new(text).strong(),
        BattleEvent::Damaged(Damaged { .. }) => {
            egui::RichText::new(text).color(egui::Color32::from_rgb(255, 140, 120))
        }
        BattleEvent::Healed(Healed { .. }) => {
            egui::RichText::new(text).color(egui::Color32::from_rgb(140, 230, 150))
        }
        BattleEvent::Ruleset(own)
            if own
                .cues()
                .iter()
                .any(|c| matches!(c, Cue::Strike { landed: true, .. })) =>
        {
            egui::RichText::new(text).color(egui::Color32::from_rgb(250, 220, 120))
        }
        _ => egui::RichText::new(text),
    }
}

#[cfg(test)]
mod tests {
    use super::for_players;

    /// The game's log names Fray's calls for the GM by ruleset and section,
    /// never by a path into the docs.
    #[test]
    fn a_call_for_the_gm_is_named_not_pathed() {
        assert_eq!(
            for_players("A and B tie at 7  [Fray decides: docs/rulesets/brp.md, \"Resolution\"]"),
            "A and B tie at 7  [Fray's ruling, where the text leaves it to the GM: brp, Resolution]"
        );
        assert_eq!(
            for_players("B is dead  [Fray decides: docs/rulesets/ud10.md §Unconscious and dead]"),
            "B is dead  [Fray's ruling, where the text leaves it to the GM: ud10, Unconscious and dead]"
        );
        assert_eq!(
            for_players(
                "climbing over costs double (Fray decides: docs/rulesets/ud10.md §Movement)"
            ),
            "climbing over costs double (Fray's ruling, where the text leaves it to the GM: ud10, Movement)"
        );
        let plain = "A hits B  [ud10 §Attacking]";
        assert_eq!(for_players(plain), plain);
    }
}
