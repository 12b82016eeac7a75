//! The source document, span by span: each span shows the rules formalized
//! from it; spans with no rule are marked; the selected rule's span is
//! highlighted.

use super::list::pane;
use crate::core::document::SpanKind;
use crate::tui::measure::text::{span_text_rows, text_width, wrap};
use crate::tui::state::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Document;
    let covered = &app.span_rules;
    let uncovered = app
        .spans
        .iter()
        .enumerate()
        .filter(|(i, s)| !covered.contains_key(i) && !matches!(s.kind, SpanKind::Heading(_)))
        .count();
    let title = if app.spans.is_empty() {
        "Document (none)".to_string()
    } else {
        format!("Document · {uncovered} spans without rules")
    };
    let block = pane(app, title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if app.spans.is_empty() {
        let text = "This project has no source document. Name one in precept.json (\"document\": \"policy.md\").";
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
    let selected_rule_span = app.selected_rule().and_then(|r| app.span_of_rule(r));
    let width = text_width(area);
    let mut lines: Vec<Line> = Vec::new();
    for index in app.span_cursor.offset..app.spans.len() {
        if lines.len() >= inner.height as usize {
            break;
        }
        let span = &app.spans[index];
        let rules = covered.get(&index);
        let is_heading = matches!(span.kind, SpanKind::Heading(_));
        let (marker, marker_style) = match (rules, is_heading) {
            (_, true) => ("  ", app.theme.dim()),
            (Some(_), false) => ("● ", app.theme.pass()),
            (None, false) => ("○ ", app.theme.uncovered()),
        };
        let mut text_style = if is_heading {
            app.theme.accent().add_modifier(Modifier::BOLD)
        } else if rules.is_none() {
            app.theme.uncovered()
        } else {
            app.theme.text()
        };
        if Some(index) == selected_rule_span {
            text_style = text_style.patch(app.theme.span_highlight());
        }
        if focused && index == app.span_cursor.selected {
            text_style = text_style.patch(app.theme.selected());
        }
        let wrapped = span_text_rows(app, index, width);
        for (row, text) in wrapped.into_iter().enumerate() {
            let gutter = if row == 0 {
                Span::styled(marker, marker_style)
            } else {
                Span::raw("  ")
            };
            lines.push(Line::from(vec![gutter, Span::styled(text, text_style)]));
        }
    }
    lines.truncate(inner.height as usize);
    frame.render_widget(Paragraph::new(lines), inner);
}
