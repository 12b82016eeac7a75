//! The document layer: splits a policy document into spans: headings, paragraphs, list items and
//! table rows, each with its byte range in the document.
//!
//! Three readings are supported:
//!
//! * Markdown: blocks separated by blank lines, `#` headings, `-`/`1.` list
//!   items and `|` table rows.
//! * Plain text (no `#` heading anywhere): the Markdown reading, plus short
//!   lines without final punctuation followed by a blank line, and ALL CAPS
//!   lines, become headings.
//! * HTML: block elements (`<h1>`..`<h6>`, `<p>`, `<li>`, `<tr>`, ...) become
//!   spans wherever they sit on the lines; `<td>`/`<th>` cells are joined as
//!   `a | b` and entities are decoded in the text (offsets stay raw).
//!
//! [`heading_path`] gives a span's enclosing headings and
//! [`split_for_budget`] cuts long spans into sentence-aligned pieces.
//!
//! - `markdown`: the Markdown and plain-text readings
//! - `html`: the HTML reading (a small tag scanner, entities)
//! - `sentences`: sentence ranges and cutting spans to a budget
//! - `quote`: finding a rule's quoted source in a span, and its sentences
//! - `context`: what a span needs to be understood alone (title, lead-in,
//!   sibling items, table header)

pub mod context;
mod html;
mod markdown;
pub mod quote;
pub mod sentences;
mod span;
pub mod words;

use html::{looks_like_html, split_html};
use markdown::split_markdown;
pub use sentences::{sentence_ranges, split_for_budget};
pub use span::{DocSpan, SpanKind};

/// Splits `document` into spans, choosing the HTML, Markdown or plain-text
/// reading.
/// A stretch of the document as a quote shows it: HTML tags (`<p>`,
/// `</li>`) removed, entities decoded, whitespace collapsed. A `<` that
/// opens no tag ("x < 5") stays.
pub fn plain_quote(raw: &str) -> String {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let opens_tag = after
            .trim_start_matches('/')
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '!');
        match after.find('>') {
            Some(end) if opens_tag && !after[..end].contains('<') => {
                out.push(' ');
                rest = &after[end + 1..];
            }
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    html::normalize(&html::decode_entities(&out))
}

pub fn split_spans(document: &str) -> Vec<DocSpan> {
    if looks_like_html(document) {
        split_html(document)
    } else {
        let plain = !document.lines().any(|l| l.trim_start().starts_with('#'));
        split_markdown(document, plain)
    }
}

/// The enclosing headings of span `index`, outermost first (for a heading,
/// the headings above it, not itself). Walks back from `index` and stops at
/// the first top-level heading, so the cost is bounded by the section size.
pub fn heading_path(spans: &[DocSpan], index: usize) -> Vec<String> {
    let Some(span) = spans.get(index) else {
        return Vec::new();
    };
    let mut limit = match span.kind {
        SpanKind::Heading(level) => level,
        _ => u8::MAX,
    };
    let mut path = Vec::new();
    for s in spans[..index].iter().rev() {
        if limit <= 1 {
            break;
        }
        if let SpanKind::Heading(level) = s.kind
            && level < limit
        {
            path.push(s.text.clone());
            limit = level;
        }
    }
    path.reverse();
    path
}

/// [`heading_path`] for every span at once, in one pass.
pub fn heading_paths(spans: &[DocSpan]) -> Vec<Vec<String>> {
    let mut stack: Vec<(u8, &str)> = Vec::new();
    spans
        .iter()
        .map(|span| {
            if let SpanKind::Heading(level) = span.kind {
                while stack.last().is_some_and(|&(l, _)| l >= level) {
                    stack.pop();
                }
                let path = stack.iter().map(|&(_, t)| t.to_string()).collect();
                stack.push((level, &span.text));
                path
            } else {
                stack.iter().map(|&(_, t)| t.to_string()).collect()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod quote_tests {
    use super::plain_quote;

    #[test]
    fn a_quote_loses_its_tags_but_not_its_comparisons() {
        assert_eq!(
            plain_quote("<p>You can claim Gift Aid &amp; more</p>\n<li>if x < 5</li>"),
            "You can claim Gift Aid & more if x < 5"
        );
    }
}
