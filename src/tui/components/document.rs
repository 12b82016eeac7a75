//! The source document, span by span: each span shows the rules formalized
//! from it; spans with no rule are marked; the selected rule's span is
//! highlighted.

use super::list::pane;
use crate::core::formalize::SpanKind;
use crate::tui::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Rows a span takes when wrapped to `width` (at least one).
pub fn span_rows(text: &str, width: usize) -> usize {
    wrap(text, width).len().max(1)
}

/// The text rows of span `index` at `width` columns (after the two-column
/// gutter): its words, then the ids of the rules formalized from it.
pub fn span_text_rows(app: &App, index: usize, width: usize) -> Vec<String> {
    let span = &app.spans[index];
    let prefix = match span.kind {
        SpanKind::ListItem => "• ",
        SpanKind::TableRow => "│ ",
        _ => "",
    };
    let mut wrapped = wrap(&format!("{prefix}{}", span.text), width);
    if let Some(ids) = app.span_rules.get(&index) {
        let tag = format!("[{}]", ids.join(" "));
        match wrapped.last_mut() {
            Some(last) if last.chars().count() + 1 + tag.chars().count() <= width => {
                last.push(' ');
                last.push_str(&tag);
            }
            _ => wrapped.push(tag),
        }
    }
    if wrapped.is_empty() {
        wrapped.push(String::new());
    }
    wrapped
}

/// The text width of the document pane `area` (inside the border and gutter).
pub fn text_width(area: Rect) -> usize {
    area.width.saturating_sub(4).max(1) as usize
}

/// Word wrap to `width` columns.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split_whitespace() {
        let needed = if current.is_empty() {
            word.chars().count()
        } else {
            current.chars().count() + 1 + word.chars().count()
        };
        if needed > width && !current.is_empty() {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
        while current.chars().count() > width {
            let head: String = current.chars().take(width).collect();
            let tail: String = current.chars().skip(width).collect();
            lines.push(head);
            current = tail;
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_words_and_long_words() {
        assert_eq!(
            wrap("the fee is fifty dollars", 10),
            vec!["the fee is", "fifty", "dollars"]
        );
        assert_eq!(wrap("abcdefghijkl", 5), vec!["abcde", "fghij", "kl"]);
        assert_eq!(span_rows("", 10), 1);
    }
}
