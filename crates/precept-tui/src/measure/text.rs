//! Measuring text as the screens lay it out (wrapping, rows a span takes,
//! the document pane's text width): one place that both `update` (to scroll
//! and map clicks) and the components (to draw) use.

use crate::state::app::App;
use precept_engine::document::SpanKind;
use ratatui::layout::Rect;

/// Rows a span takes when wrapped to `width` (at least one).
pub fn span_rows(text: &str, width: usize) -> usize {
    wrap(text, width).len().max(1)
}

/// The text rows of span `index` at `width` columns (after the two-column
/// gutter): its words, then the ids of the rules formalized from it.
pub fn span_text_rows(app: &App, index: usize, width: usize) -> Vec<String> {
    let span = &app.ws.spans[index];
    let prefix = match span.kind {
        SpanKind::ListItem => "• ",
        SpanKind::TableRow => "│ ",
        _ => "",
    };
    let mut wrapped = wrap(&format!("{prefix}{}", span.text), width);
    if let Some(ids) = app.ws.span_rules.get(&index) {
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
