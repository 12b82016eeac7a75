//! Splits a policy document into spans: headings, paragraphs, list items and
//! table rows, each with its byte range in the document.
//!
//! Markdown and plain text are split into blocks; documents written as one
//! HTML element per line (`<h1>`, `<p>`, `<li>`, `<tr>`) are split per line.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanKind {
    Heading(u8),
    Paragraph,
    ListItem,
    TableRow,
}

/// One span of the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocSpan {
    pub kind: SpanKind,
    /// Byte range in the document, covering the span as written.
    pub start: usize,
    pub end: usize,
    /// The text to show: markup markers and tags removed.
    pub text: String,
}

impl DocSpan {
    /// Whether a rule's source range falls in this span.
    pub fn overlaps(&self, start: usize, end: usize) -> bool {
        start < self.end && end > self.start
            || (start == end && start >= self.start && start < self.end)
    }
}

/// Splits `document` into spans, choosing the HTML-lines or Markdown reading.
pub fn split_spans(document: &str) -> Vec<DocSpan> {
    let html_lines = document
        .lines()
        .filter(|l| html_tag(l.trim_start()).is_some())
        .count();
    if html_lines * 2 > document.lines().filter(|l| !l.trim().is_empty()).count() {
        split_html_lines(document)
    } else {
        split_markdown(document)
    }
}

/// Lines with byte offsets.
fn lines_with_offsets(document: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    document.split_inclusive('\n').map(move |raw| {
        let start = offset;
        offset += raw.len();
        (start, raw.trim_end_matches(['\n', '\r']))
    })
}

fn html_tag(line: &str) -> Option<SpanKind> {
    let tag = line.strip_prefix('<')?;
    let name: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    match name.to_ascii_lowercase().as_str() {
        "h1" => Some(SpanKind::Heading(1)),
        "h2" => Some(SpanKind::Heading(2)),
        "h3" | "h4" | "h5" | "h6" => Some(SpanKind::Heading(3)),
        "p" => Some(SpanKind::Paragraph),
        "li" => Some(SpanKind::ListItem),
        "tr" => Some(SpanKind::TableRow),
        _ => None,
    }
}

fn strip_tags(text: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn split_html_lines(document: &str) -> Vec<DocSpan> {
    lines_with_offsets(document)
        .filter_map(|(start, line)| {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                return None;
            }
            let kind = html_tag(trimmed).unwrap_or(SpanKind::Paragraph);
            let text = strip_tags(trimmed);
            (!text.is_empty()).then(|| DocSpan {
                kind,
                start,
                end: start + line.len(),
                text,
            })
        })
        .collect()
}

fn list_marker(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    for bullet in ["- ", "* ", "+ "] {
        if trimmed.starts_with(bullet) {
            return Some(indent + 2);
        }
    }
    let digits = trimmed.chars().take_while(|c| c.is_ascii_digit()).count();
    if digits > 0 && (trimmed[digits..].starts_with(". ") || trimmed[digits..].starts_with(") ")) {
        return Some(indent + digits + 2);
    }
    None
}

fn is_table_separator(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
}

fn split_markdown(document: &str) -> Vec<DocSpan> {
    let mut spans: Vec<DocSpan> = Vec::new();
    // The paragraph or list item being gathered: (kind, start, end, text).
    let mut open: Option<(SpanKind, usize, usize, String)> = None;
    let flush = |open: &mut Option<(SpanKind, usize, usize, String)>, spans: &mut Vec<DocSpan>| {
        if let Some((kind, start, end, text)) = open.take() {
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !text.is_empty() {
                spans.push(DocSpan {
                    kind,
                    start,
                    end,
                    text,
                });
            }
        }
    };
    for (start, line) in lines_with_offsets(document) {
        let end = start + line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() {
            flush(&mut open, &mut spans);
            continue;
        }
        if trimmed.starts_with('#') {
            flush(&mut open, &mut spans);
            let level = trimmed.chars().take_while(|&c| c == '#').count().min(3) as u8;
            let text = trimmed.trim_start_matches('#').trim().to_string();
            spans.push(DocSpan {
                kind: SpanKind::Heading(level),
                start,
                end,
                text,
            });
            continue;
        }
        if trimmed.starts_with('|') {
            flush(&mut open, &mut spans);
            if !is_table_separator(trimmed) {
                let cells: Vec<&str> = trimmed
                    .trim_matches('|')
                    .split('|')
                    .map(str::trim)
                    .collect();
                spans.push(DocSpan {
                    kind: SpanKind::TableRow,
                    start,
                    end,
                    text: cells.join(" | "),
                });
            }
            continue;
        }
        if let Some(marker) = list_marker(line) {
            flush(&mut open, &mut spans);
            open = Some((
                SpanKind::ListItem,
                start,
                end,
                line[marker.min(line.len())..].to_string(),
            ));
            continue;
        }
        if html_tag(trimmed).is_some() {
            flush(&mut open, &mut spans);
            spans.push(DocSpan {
                kind: html_tag(trimmed).unwrap_or(SpanKind::Paragraph),
                start,
                end,
                text: strip_tags(trimmed),
            });
            continue;
        }
        match &mut open {
            Some((_, _, open_end, text)) => {
                *open_end = end;
                text.push(' ');
                text.push_str(trimmed);
            }
            None => open = Some((SpanKind::Paragraph, start, end, trimmed.to_string())),
        }
    }
    flush(&mut open, &mut spans);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_blocks_become_spans_with_offsets() {
        let doc = "# Fees\n\nThe fee is $50\nper visit.\n\n- Seniors pay less.\n- Children\n  pay half.\n\n| Age | Fee |\n|---|---|\n| 65+ | 30 |\n";
        let spans = split_spans(doc);
        let kinds: Vec<SpanKind> = spans.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            vec![
                SpanKind::Heading(1),
                SpanKind::Paragraph,
                SpanKind::ListItem,
                SpanKind::ListItem,
                SpanKind::TableRow,
                SpanKind::TableRow
            ]
        );
        assert_eq!(spans[1].text, "The fee is $50 per visit.");
        assert_eq!(
            &doc[spans[1].start..spans[1].end],
            "The fee is $50\nper visit."
        );
        assert_eq!(spans[3].text, "Children pay half.");
        assert_eq!(spans[5].text, "65+ | 30");
    }

    #[test]
    fn html_lines_are_split_per_element() {
        let doc = "Title line\n<h1>Overview</h1>\n<p>You can <b>appeal</b>.</p>\n<li>Wales</li>\n";
        let spans = split_spans(doc);
        assert_eq!(spans.len(), 4);
        assert_eq!(spans[1].kind, SpanKind::Heading(1));
        assert_eq!(spans[2].text, "You can appeal .");
        assert_eq!(spans[3].kind, SpanKind::ListItem);
        assert_eq!(&doc[spans[3].start..spans[3].end], "<li>Wales</li>");
    }
}
