//! The Markdown reading (blocks separated by blank lines, `#` headings,
//! `-`/`1.` list items, `|` table rows) and the plain-text one (short
//! unpunctuated lines and ALL CAPS lines also become headings).

use super::html::{html_tag, normalize, strip_tags};
use super::span::{DocSpan, SpanKind};

/// Lines with byte offsets.
fn lines_with_offsets(document: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    document.split_inclusive('\n').map(move |raw| {
        let start = offset;
        offset += raw.len();
        (start, raw.trim_end_matches(['\n', '\r']))
    })
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

/// The heading level of a plain-text line starting a block, if it reads as a
/// heading: ALL CAPS (level 1), or short, without final punctuation, starting
/// with a capital or digit and followed by a blank line (level 2).
fn plain_heading(trimmed: &str, next_blank: bool) -> Option<u8> {
    let letters = trimmed.chars().filter(|c| c.is_alphabetic()).count();
    if letters == 0 {
        return None;
    }
    let chars = trimmed.chars().count();
    if letters >= 2 && chars <= 100 && !trimmed.chars().any(char::is_lowercase) {
        return Some(1);
    }
    let last = trimmed.chars().next_back()?;
    let first = trimmed.chars().next()?;
    let short = chars <= 80 && trimmed.split_whitespace().count() <= 12;
    (next_blank
        && short
        && !matches!(last, '.' | ':' | ';' | ',' | '!' | '?')
        && (first.is_uppercase() || first.is_ascii_digit()))
    .then_some(2)
}

/// Whether a line right after a list item's line continues the item: it is
/// indented past the item's marker, or it goes on in lower case (a wrapped
/// item). Otherwise it starts a paragraph of its own, as a sentence right
/// after a list does when the page has no blank line after the list.
fn continues_item(line: &str, item_indent: usize) -> bool {
    let trimmed = line.trim_start();
    line.len() - trimmed.len() > item_indent || trimmed.starts_with(char::is_lowercase)
}

pub(super) fn split_markdown(document: &str, plain: bool) -> Vec<DocSpan> {
    let mut spans: Vec<DocSpan> = Vec::new();
    // The paragraph or list item being gathered: (kind, start, end, text).
    let mut open: Option<(SpanKind, usize, usize, String)> = None;
    let flush = |open: &mut Option<(SpanKind, usize, usize, String)>, spans: &mut Vec<DocSpan>| {
        if let Some((kind, start, end, text)) = open.take() {
            let text = normalize(&text);
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
    let lines: Vec<(usize, &str)> = lines_with_offsets(document).collect();
    // The indent of the open list item's marker, while one is open.
    let mut item_indent: Option<usize> = None;
    for (index, &(start, line)) in lines.iter().enumerate() {
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
            item_indent = Some(line.len() - line.trim_start().len());
            open = Some((
                SpanKind::ListItem,
                start,
                end,
                line[marker.min(line.len())..].to_string(),
            ));
            continue;
        }
        if let Some(kind) = html_tag(trimmed) {
            flush(&mut open, &mut spans);
            spans.push(DocSpan {
                kind,
                start,
                end,
                text: strip_tags(trimmed),
            });
            continue;
        }
        if matches!(open, Some((SpanKind::ListItem, ..)))
            && !continues_item(line, item_indent.unwrap_or(0))
        {
            flush(&mut open, &mut spans);
        }
        if plain && open.is_none() {
            let next_blank = lines
                .get(index + 1)
                .is_none_or(|(_, next)| next.trim().is_empty());
            if let Some(level) = plain_heading(trimmed, next_blank) {
                let lead = line.len() - line.trim_start().len();
                spans.push(DocSpan {
                    kind: SpanKind::Heading(level),
                    start: start + lead,
                    end: start + lead + trimmed.len(),
                    text: normalize(trimmed),
                });
                continue;
            }
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
