//! Every interactive widget the game draws carries the name of its kind
//! ([`Tag::tag`]: "menu: resume", "log: back to the latest", "offer: Aim
//! (G)"). The screen walk ([`super::tour`]) reads them back after each egui
//! pass, with egui's own record of the pass (every widget that senses the
//! pointer, and its accessibility node's role), and keeps an [`Audit`]:
//! which kinds were drawn, which it clicked (a real pointer press and
//! release on the widget, seen by egui as a click on it), and any button,
//! checkbox or field drawn without a kind, which would escape the count.
//! A kind drawn and never clicked fails the walk unless [`EXCEPTIONS`]
//! says why it may not be clicked.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use bevy_egui::{EguiOutput, PrimaryEguiContext, egui};

/// Kinds that may be drawn and not clicked, each with its reason.
pub const EXCEPTIONS: &[(&str, &str)] = &[];

/// The game's widgets drawn in one egui pass: each one's id and kind.
#[derive(Clone, Default)]
struct Drawn {
    pass: u64,
    kinds: Vec<(egui::Id, String)>,
}

/// Naming a widget's kind for the walk's count.
pub trait Tag {
    /// Record this widget as one of `kind`, for this pass.
    fn tag(self, kind: impl Into<String>) -> Self;
}

impl Tag for egui::Response {
    fn tag(self, kind: impl Into<String>) -> Self {
        let pass = self.ctx.cumulative_pass_nr();
        let id = self.id;
        let kind = kind.into();
        self.ctx.data_mut(|d| {
            let drawn = d.get_temp_mut_or_default::<Drawn>(egui::Id::NULL);
            if drawn.pass != pass {
                drawn.pass = pass;
                drawn.kinds.clear();
            }
            drawn.kinds.push((id, kind));
        });
        self
    }
}

/// The kind of a command, for the widgets that give it: its variant's name
/// ("Activate", "Reload", "HideBehind"), whoever or whatever it names.
pub fn command_kind(c: &crate::rules::command::Command) -> String {
    let text = match c {
        crate::rules::command::Command::Ruleset(own) => format!("{own:?}"),
        c => format!("{c:?}"),
    };
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The most rows a row of buttons has taken (the action bar: one at the
/// window's size) for two passes running (a bar's first pass lays out
/// before its buttons' widths are known), kept for the walk.
#[derive(Clone, Default)]
struct Rows(BTreeMap<String, RowCount>);

#[derive(Clone, Copy, Default)]
struct RowCount {
    most: u32,
    last: u32,
    pass: u64,
}

/// Note that the row of buttons `name` took `rows` rows in this pass.
pub fn note_rows(ctx: &egui::Context, name: &str, rows: u32) {
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|d| {
        let r = d.get_temp_mut_or_default::<Rows>(egui::Id::new("widget rows"));
        let e = r.0.entry(name.to_string()).or_default();
        if e.pass + 1 == pass && e.last == rows {
            e.most = e.most.max(rows);
        }
        e.last = rows;
        e.pass = pass;
    });
}

/// The most rows each row of buttons has taken so far.
pub fn rows(ctx: &egui::Context) -> BTreeMap<String, u32> {
    ctx.data(|d| {
        d.get_temp::<Rows>(egui::Id::new("widget rows"))
            .map(|r| r.0.into_iter().map(|(k, c)| (k, c.most)).collect())
            .unwrap_or_default()
    })
}

/// One interactive widget of the last pass, as the walk sees it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub id: egui::Id,
    /// Its kind, if the game named it.
    pub kind: Option<String>,
    /// Where a click lands on it (the middle of the part of it not clipped
    /// away), if any of it is in view.
    pub at: Option<egui::Pos2>,
    pub enabled: bool,
    /// Scrolled out of its area's view (a scroll brings it in).
    pub clipped: bool,
    /// Its accessibility role and label (for widgets without a kind).
    pub role: Option<egui::accesskit::Role>,
    pub label: Option<String>,
}

/// The roles of the widgets a player clicks, types into or drags a value
/// of: one drawn without a kind is the game's and escaped the count.
/// Other senses of the pointer are egui's own furniture (scroll bars, a
/// window's title bar, the pause menu's dimmed backdrop).
fn is_control(role: egui::accesskit::Role) -> bool {
    use egui::accesskit::Role::*;
    matches!(
        role,
        Button
            | CheckBox
            | RadioButton
            | ComboBox
            | Link
            | Slider
            | SpinButton
            | TextInput
            | MenuItem
            | ColorWell
    )
}

/// The interactive widgets of the last egui pass, in the order drawn.
pub fn last_pass(world: &mut World) -> Vec<Seen> {
    let Some(ctx) = super::battle::view::panels::egui_ctx(world) else {
        return Vec::new();
    };
    let kinds: std::collections::HashMap<egui::Id, String> = ctx.data(|d| {
        d.get_temp::<Drawn>(egui::Id::NULL)
            .filter(|d| d.pass + 1 == ctx.cumulative_pass_nr())
            .map(|d| d.kinds.into_iter().collect())
            .unwrap_or_default()
    });
    let mut nodes: BTreeMap<u64, (egui::accesskit::Role, Option<String>)> = BTreeMap::new();
    if let Some(update) = accesskit_update(world) {
        for (id, node) in &update.nodes {
            nodes.insert(id.0, (node.role(), node.label().map(str::to_string)));
        }
    }
    // The widgets that sense the pointer, read first: egui's context is
    // locked while it is read, and asking it what lies on top locks it too.
    let mut widgets: Vec<egui::WidgetRect> = Vec::new();
    ctx.viewport(|v| {
        for layer in v.prev_pass.widgets.layer_ids() {
            widgets.extend(
                v.prev_pass
                    .widgets
                    .get_layer(layer)
                    .filter(|w| {
                        let s = w.sense;
                        s.senses_click() || s.senses_drag() || s.is_focusable()
                    })
                    .copied(),
            );
        }
    });
    widgets
        .into_iter()
        .map(|w| {
            let r = w.interact_rect;
            let node = nodes.get(&w.id.value());
            // Where a click lands on it: the middle of what is in view, if
            // no window, menu or dimmed backdrop lies over it there.
            let at = (r.is_positive() && r.width() >= 2.0 && r.height() >= 2.0)
                .then(|| r.center())
                .filter(|at| ctx.layer_id_at(*at).is_none_or(|l| l == w.layer_id));
            Seen {
                id: w.id,
                kind: kinds.get(&w.id).cloned(),
                at,
                enabled: w.enabled,
                clipped: !r.is_positive() && w.rect.is_positive(),
                role: node.map(|n| n.0),
                label: node.and_then(|n| n.1.clone()),
            }
        })
        .collect()
}

/// The last pass's accessibility tree (when the walk has turned it on).
fn accesskit_update(world: &mut World) -> Option<egui::accesskit::TreeUpdate> {
    let mut q = world.query_filtered::<&EguiOutput, With<PrimaryEguiContext>>();
    q.single(world)
        .ok()
        .and_then(|o| o.platform_output.accesskit_update.clone())
}

/// Every text of the last pass: labels, and the labels of buttons,
/// checkboxes and the rest.
pub fn texts(world: &mut World) -> Vec<String> {
    let Some(update) = accesskit_update(world) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (_, node) in &update.nodes {
        out.extend(node.label().map(str::to_string));
        out.extend(node.value().map(str::to_string));
    }
    out
}

/// What the walk has drawn and clicked.
#[derive(Resource, Clone, Debug, Default)]
pub struct Audit {
    /// Each kind drawn enabled: the screens it was drawn on and a label.
    pub drawn: BTreeMap<String, (BTreeSet<String>, Option<String>)>,
    /// Kinds drawn only greyed out (nothing to click).
    pub disabled: BTreeSet<String>,
    /// Kinds the walk clicked and egui saw clicked.
    pub clicked: BTreeSet<String>,
    /// Controls drawn without a kind: (screen, role, label).
    pub untagged: BTreeSet<(String, String, String)>,
    /// Characters drawn that the fonts lack, each with a text it was in.
    pub missing_glyphs: BTreeMap<char, String>,
    /// Texts already checked for glyphs.
    checked: std::collections::HashSet<String>,
    /// The kinds in view in the pass before: a kind counts as drawn once
    /// it has been in view two passes running (one pass, 16 ms, is no
    /// button a hand can reach; the walk waits as long before a click).
    before: BTreeSet<String>,
}

impl Audit {
    /// Check the last pass's texts against the fonts.
    pub fn read(&mut self, texts: Vec<String>) {
        for t in texts {
            if t.is_ascii() || self.checked.contains(&t) {
                continue;
            }
            for c in missing_glyphs(&t) {
                self.missing_glyphs.entry(c).or_insert_with(|| t.clone());
            }
            self.checked.insert(t);
        }
    }

    /// Count the last pass's widgets, drawn on `screen`.
    pub fn observe(&mut self, screen: &str, seen: &[Seen]) {
        let now: BTreeSet<String> = seen
            .iter()
            .filter(|w| w.enabled && w.at.is_some())
            .filter_map(|w| w.kind.clone())
            .collect();
        let before = std::mem::replace(&mut self.before, now);
        for w in seen {
            match &w.kind {
                Some(k) if w.enabled && w.at.is_some() && !before.contains(k) => {}
                Some(k) if w.enabled && w.at.is_some() => {
                    let e = self.drawn.entry(k.clone()).or_default();
                    e.0.insert(screen.to_string());
                    if e.1.is_none() {
                        e.1 = w.label.clone();
                    }
                }
                // Drawn greyed out; one covered by a window is not counted.
                Some(k) if !w.enabled => {
                    if !self.drawn.contains_key(k) {
                        self.disabled.insert(k.clone());
                    }
                }
                Some(_) => {}
                None => {
                    if let Some(role) = w.role.filter(|r| is_control(*r)) {
                        self.untagged.insert((
                            screen.to_string(),
                            format!("{role:?}"),
                            w.label.clone().unwrap_or_default(),
                        ));
                    }
                }
            }
        }
        self.disabled.retain(|k| !self.drawn.contains_key(k));
    }

    /// Kinds drawn and never clicked, but for the listed exceptions.
    pub fn never_clicked(&self) -> Vec<&str> {
        self.drawn
            .keys()
            .filter(|k| !self.clicked.contains(*k))
            .filter(|k| !EXCEPTIONS.iter().any(|(e, _)| e == k))
            .map(String::as_str)
            .collect()
    }

    /// The count, kind by kind, and what fails it (an empty list: none).
    pub fn report(&self) -> (String, Vec<String>) {
        let mut out = format!(
            "widgets: {} kinds drawn, {} clicked; {} only greyed out\n",
            self.drawn.len(),
            self.drawn
                .keys()
                .filter(|k| self.clicked.contains(*k))
                .count(),
            self.disabled.len()
        );
        for (k, (screens, label)) in &self.drawn {
            let mark = if self.clicked.contains(k) {
                "clicked"
            } else if let Some((_, why)) = EXCEPTIONS.iter().find(|(e, _)| e == k) {
                out.push_str(&format!("  {k:40} not clicked: {why}\n"));
                continue;
            } else {
                "NEVER CLICKED"
            };
            let on: Vec<&str> = screens.iter().map(String::as_str).collect();
            out.push_str(&format!(
                "  {k:40} {mark:14} on {} ({})\n",
                on.join(", "),
                label.as_deref().unwrap_or("")
            ));
        }
        let mut fails: Vec<String> = self
            .never_clicked()
            .into_iter()
            .map(|k| format!("{k}: drawn, never clicked"))
            .collect();
        for (c, text) in &self.missing_glyphs {
            fails.push(format!(
                "{c:?} (U+{:04X}) drawn, which the fonts lack: {text:?}",
                *c as u32
            ));
        }
        for (screen, role, label) in &self.untagged {
            fails.push(format!(
                "a {role} \"{label}\" on the {screen} screen has no kind (Tag::tag)"
            ));
        }
        (out, fails)
    }
}

/// The faces of egui's default fonts, in each family's fallback order
/// (the game draws with them: it sets no fonts of its own).
struct Faces {
    /// Per family (proportional, monospace): the fonts' bytes and index.
    families: Vec<Vec<std::sync::Arc<egui::FontData>>>,
}

impl Faces {
    fn default_fonts() -> Faces {
        let defs = egui::FontDefinitions::default();
        let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
            .iter()
            .map(|f| {
                defs.families
                    .get(f)
                    .into_iter()
                    .flatten()
                    .filter_map(|name| defs.font_data.get(name).cloned())
                    .collect()
            })
            .collect();
        Faces { families }
    }

    /// Does every family hold `c` in one of its faces?
    fn draws(&self, c: char) -> bool {
        use skrifa::MetadataProvider;
        self.families.iter().all(|faces| {
            faces.iter().any(|d| {
                skrifa::FontRef::from_index(&d.font, d.index)
                    .is_ok_and(|f| f.charmap().map(c).is_some())
            })
        })
    }
}

/// The characters of `text` the game's fonts cannot draw, in either family
/// it writes with (proportional and monospace). ASCII is in every font.
pub fn missing_glyphs(text: &str) -> Vec<char> {
    thread_local! {
        static FACES: Faces = Faces::default_fonts();
        static KNOWN: std::cell::RefCell<std::collections::HashMap<char, bool>> =
            Default::default();
    }
    let mut out: Vec<char> = Vec::new();
    for c in text.chars().filter(|c| !c.is_ascii()) {
        let shown =
            KNOWN.with_borrow_mut(|k| *k.entry(c).or_insert_with(|| FACES.with(|f| f.draws(c))));
        if !shown && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
