//! The source document, span by span: each span shows the rules formalized
//! from it; spans with no rule are marked, and spans marked as not policy
//! set apart; the selected rule's own sentences (or, when they are not
//! known, its whole span) are highlighted. With the uncovered-only filter
//! (`U`) only the spans no rule covers are listed.

use super::list::pane;
use crate::measure::text::{span_text_rows, text_width, wrap};
use crate::state::app::{App, Pane};
use crate::state::document_view::{
    is_not_policy, not_policy_count, rule_source_sentences, shown_spans, uncovered_count,
};
use precept_engine::document::SpanKind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// "1 span", "3 spans".
fn title(app: &App) -> String {
    if app.ws.spans.is_empty() {
        return "Document (none)".to_string();
    }
    let uncovered = uncovered_count(app);
    let mut title = if app.document_pane.uncovered_only {
        format!("Document · uncovered only: {uncovered}")
    } else {
        format!("Document · {uncovered} uncovered")
    };
    let marked = not_policy_count(app);
    if marked > 0 {
        title.push_str(&format!(" · {marked} not policy"));
    }
    title
}

/// The rows of a wrapped text as lines, with the characters of
/// `text[range]` (a byte range of the text that was wrapped) in
/// `highlight` and the rest in `base`. The rows hold the text's words in
/// order, perhaps followed by more (the rule ids), which stay in `base`.
pub fn highlighted_rows(
    rows: Vec<String>,
    text: &str,
    range: (usize, usize),
    base: Style,
    highlight: Style,
) -> Vec<Vec<Span<'static>>> {
    let marks: Vec<bool> = text
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(at, _)| at >= range.0 && at < range.1)
        .collect();
    let mut next = 0;
    rows.into_iter()
        .map(|row| {
            let chars: Vec<char> = row.chars().collect();
            let mut spans: Vec<Span<'static>> = Vec::new();
            let mut run = String::new();
            let mut run_marked = false;
            for (k, c) in chars.iter().enumerate() {
                let marked = if c.is_whitespace() {
                    // A space between two highlighted characters is highlighted.
                    let following = chars[k + 1..].iter().any(|c| !c.is_whitespace());
                    next > 0
                        && marks.get(next - 1).copied().unwrap_or(false)
                        && following
                        && marks.get(next).copied().unwrap_or(false)
                } else {
                    next += 1;
                    marks.get(next - 1).copied().unwrap_or(false)
                };
                if marked != run_marked && !run.is_empty() {
                    let style = if run_marked { highlight } else { base };
                    spans.push(Span::styled(std::mem::take(&mut run), style));
                }
                run_marked = marked;
                run.push(*c);
            }
            if !run.is_empty() {
                spans.push(Span::styled(run, if run_marked { highlight } else { base }));
            }
            spans
        })
        .collect()
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Document;
    let covered = &app.ws.span_rules;
    let block = pane(app, title(app), focused, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let shown = shown_spans(app);
    let empty = if app.ws.spans.is_empty() {
        Some(
            "This project has no source document. Name one in precept.json (\"document\": \"policy.md\").",
        )
    } else if shown.is_empty() {
        Some("Every span is covered by a rule or marked as not policy. U lists every span.")
    } else {
        None
    };
    if let Some(text) = empty {
        frame.render_widget(
            Paragraph::new(
                wrap(text, inner.width as usize)
                    .into_iter()
                    .map(Line::from)
                    .collect::<Vec<_>>(),
            )
            .style(app.theme.dim()),
            inner,
        );
        return;
    }
    let selected_rule = app.selected_rule();
    let selected_rule_span = selected_rule.and_then(|r| app.ws.span_of_rule(r));
    let own_sentences = selected_rule.and_then(|r| rule_source_sentences(app, r));
    let width = text_width(area);
    let mut lines: Vec<Line> = Vec::new();
    for index in shown.into_iter().filter(|&i| i >= app.cursors.span.offset) {
        if lines.len() >= inner.height as usize {
            break;
        }
        let span = &app.ws.spans[index];
        let rules = covered.get(&index);
        let is_heading = matches!(span.kind, SpanKind::Heading(_));
        let not_policy = is_not_policy(app, index);
        let (marker, marker_style) = match (rules, is_heading, not_policy) {
            (_, true, _) => ("  ", app.theme.dim()),
            (Some(_), false, _) => ("● ", app.theme.pass()),
            (None, false, true) => ("× ", app.theme.dim()),
            (None, false, false) => ("○ ", app.theme.uncovered()),
        };
        let mut text_style = if is_heading {
            app.theme.accent().add_modifier(Modifier::BOLD)
        } else if not_policy && rules.is_none() {
            app.theme.dim()
        } else if rules.is_none() {
            app.theme.uncovered()
        } else {
            app.theme.text()
        };
        if focused && index == app.cursors.span.selected {
            text_style = text_style.patch(app.theme.selected());
        }
        let highlight = text_style.patch(app.theme.span_highlight());
        let prefix = match span.kind {
            SpanKind::ListItem => "• ",
            SpanKind::TableRow => "│ ",
            _ => "",
        };
        let whole = format!("{prefix}{}", span.text);
        // The rule's own sentences when they are known; else its whole span.
        let range = match own_sentences {
            Some((at, (a, b))) if at == index => Some((prefix.len() + a, prefix.len() + b)),
            _ if Some(index) == selected_rule_span => Some((0, whole.len())),
            _ => None,
        };
        let rows = span_text_rows(app, index, width);
        let rows = match range {
            Some(range) => highlighted_rows(rows, &whole, range, text_style, highlight),
            None => rows
                .into_iter()
                .map(|row| vec![Span::styled(row, text_style)])
                .collect(),
        };
        for (row, mut spans) in rows.into_iter().enumerate() {
            let gutter = if row == 0 {
                Span::styled(marker, marker_style)
            } else {
                Span::raw("  ")
            };
            spans.insert(0, gutter);
            lines.push(Line::from(spans));
        }
    }
    lines.truncate(inner.height as usize);
    frame.render_widget(Paragraph::new(lines), inner);
}
