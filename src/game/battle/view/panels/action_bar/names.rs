//! The names of the action bar's menus.

/// A menu's name for its buttons: the words their labels begin with
/// ("State: attack X", "State: only parry" -> "State"), else the command
/// kind as words.
pub(super) fn group_name(labels: &[&str], kind: &str) -> String {
    let first = labels.first().copied().unwrap_or("");
    let mut common = first.len();
    for l in labels {
        common = common.min(
            first
                .char_indices()
                .zip(l.chars())
                .take_while(|((_, a), b)| a == b)
                .count(),
        );
    }
    let prefix: String = first.chars().take(common).collect();
    let prefix = prefix
        .rsplit_once(' ')
        .map_or(prefix.as_str(), |(head, _)| head)
        .trim_end_matches([':', ' ', ',']);
    if prefix.chars().count() >= 3 {
        prefix.to_string()
    } else {
        spaced(kind)
    }
}

/// A command kind as words: "UseItem" -> "Use item".
pub(super) fn spaced(kind: &str) -> String {
    let mut out = String::new();
    for (i, c) in kind.chars().enumerate() {
        if i > 0 && c.is_uppercase() {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
