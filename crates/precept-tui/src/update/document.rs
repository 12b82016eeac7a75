//! The rules screen's document pane: moving over the spans it lists (all,
//! or only those no rule covers), the uncovered-only filter, marking a span
//! as not policy (an undoable edit, saved in `precept.json`) and jumping to
//! a span.

use crate::measure::layout::{areas, inner_height};
use crate::measure::text::{span_text_rows, text_width};
use crate::state::app::{App, Pane, Screen};
use crate::state::document_view::{is_not_policy, shown_spans, uncovered_count};
use crate::state::msg::Effect;
use precept_engine::document::SpanKind;

/// The first words of a span, to name it in the status line.
fn excerpt(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{}…", head.trim_end())
}

/// Moves the selection `delta` spans over the listed spans.
pub fn step(app: &mut App, delta: isize) {
    let shown = shown_spans(app);
    let Some(&last) = shown.last() else {
        return;
    };
    let selected = app.cursors.span.selected;
    let at = shown.iter().position(|&i| i >= selected);
    let target = match at {
        // On a listed span: move from it.
        Some(at) if shown[at] == selected => at as isize + delta,
        // Between listed spans: the next one counts as the first step down.
        Some(at) if delta > 0 => at as isize + delta - 1,
        Some(at) => at as isize + delta,
        None if delta < 0 => shown.len() as isize + delta,
        None => shown.len() as isize - 1,
    };
    let target = target.clamp(0, shown.len() as isize - 1) as usize;
    app.cursors.span.selected = shown.get(target).copied().unwrap_or(last);
    scroll_to_selection(app);
}

/// Selects span `index` and scrolls it into view.
pub fn select(app: &mut App, index: usize) {
    app.cursors.span.selected = index;
    scroll_to_selection(app);
}

/// Scrolls the document so the selected span is entirely in view, although
/// spans wrap over several rows.
pub fn scroll_to_selection(app: &mut App) {
    let area = areas(Screen::Rules, app.size).document;
    let (height, width) = (inner_height(area), text_width(area));
    let selected = app
        .cursors
        .span
        .selected
        .min(app.ws.spans.len().saturating_sub(1));
    if selected < app.cursors.span.offset {
        app.cursors.span.offset = selected;
        return;
    }
    let shown: Vec<usize> = shown_spans(app)
        .into_iter()
        .filter(|&i| i >= app.cursors.span.offset && i <= selected)
        .collect();
    let rows = |i: usize| span_text_rows(app, i, width).len();
    let mut used: usize = shown.iter().map(|&i| rows(i)).sum();
    let mut first = 0;
    while used > height && first + 1 < shown.len() {
        used -= rows(shown[first]);
        first += 1;
    }
    if let Some(&offset) = shown.get(first) {
        app.cursors.span.offset = offset;
    }
}

/// The listed span drawn on row `row` of the pane's text (0 is the first row
/// under the title), if any.
pub fn span_at_row(app: &App, row: usize) -> Option<usize> {
    let width = text_width(areas(Screen::Rules, app.size).document);
    let mut used = 0;
    for index in shown_spans(app)
        .into_iter()
        .filter(|&i| i >= app.cursors.span.offset)
    {
        used += span_text_rows(app, index, width).len();
        if row < used {
            return Some(index);
        }
    }
    None
}

/// `U` (on the rules screen): list only the spans no rule covers, or every
/// span again.
pub fn toggle_uncovered_only(app: &mut App) {
    app.focus = Pane::Document;
    let pane = &mut app.document_pane;
    pane.uncovered_only = !pane.uncovered_only;
    if !pane.uncovered_only {
        app.status.message = Some("showing every span of the document".into());
        scroll_to_selection(app);
        return;
    }
    let count = uncovered_count(app);
    if count == 0 {
        app.status.message =
            Some("every span is covered by a rule or marked as not policy (U: every span)".into());
        return;
    }
    app.cursors.span.offset = 0;
    step(app, 0);
    app.status.message = Some(format!(
        "showing only the {count} {} no rule covers (U: every span)",
        if count == 1 { "span" } else { "spans" }
    ));
}

/// `X` on the document pane: marks the selected span as not policy (a
/// header, a source line, an appendix) so it leaves the count of spans no
/// rule covers, or marks it as policy again. Undoable; saved in
/// `precept.json`.
pub fn toggle_not_policy(app: &mut App) -> Vec<Effect> {
    if app.screen != Screen::Rules || app.focus != Pane::Document {
        app.status.message =
            Some("X marks a span of the document: focus the document pane (tab)".into());
        return Vec::new();
    }
    let index = app.cursors.span.selected;
    // Only a span the pane lists can be marked (the filter may hide the
    // selected one).
    let Some(span) = app
        .ws
        .spans
        .get(index)
        .filter(|_| shown_spans(app).contains(&index))
    else {
        app.status.message = Some("no span selected".into());
        return Vec::new();
    };
    if matches!(span.kind, SpanKind::Heading(_)) {
        app.status.message = Some("headings are never counted as uncovered".into());
        return Vec::new();
    }
    if let Some(rules) = app.ws.span_rules.get(&index) {
        app.status.last_error = Some(format!(
            "{} formalized from this span: it is policy",
            rules.join(", ")
        ));
        return Vec::new();
    }
    let text = span.text.clone();
    let before = app.snapshot();
    let label = if is_not_policy(app, index) {
        app.document_pane.not_policy.remove(&text);
        format!("marked as policy: “{}”", excerpt(&text))
    } else {
        app.document_pane.not_policy.insert(text.clone());
        format!("marked as not policy: “{}”", excerpt(&text))
    };
    app.ws.history.record(label.clone(), before);
    app.status.message = Some(format!("{label} (u to undo)"));
    if app.document_pane.uncovered_only {
        step(app, 0);
    }
    vec![Effect::SaveNotPolicy(
        app.document_pane.not_policy.iter().cloned().collect(),
    )]
}

/// Selects span `index`, listing every span again if the filter hides it.
pub fn reveal(app: &mut App, index: usize) {
    if app.document_pane.uncovered_only && !shown_spans(app).contains(&index) {
        app.document_pane.uncovered_only = false;
    }
    select(app, index);
}
