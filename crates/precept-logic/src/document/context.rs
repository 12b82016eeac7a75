//! The context a span needs to be understood on its own: the document's
//! title, the sentence that introduces a list (a list item such as "moped
//! if you're 16 or over" means nothing without "After you've completed CBT,
//! you can ride a:"), the list's other items when they are short, and a
//! table row's header row.

use serde::{Deserialize, Serialize};

use crate::document::{DocSpan, SpanKind, sentence_ranges};

/// The most characters of sibling list items carried into a prompt.
const SIBLINGS_BUDGET: usize = 600;

/// The longest first line taken as a document's title.
const TITLE_MAX_CHARS: usize = 120;

/// What a span's prompt carries besides the span and its heading path.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpanContext {
    /// The document's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// For a list item: the sentence that introduces the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead_in: Option<String>,
    /// For a list item: the list's other items, when they are short.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_items: Vec<String>,
    /// For a table row: the table's header row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_header: Option<String>,
}

impl SpanContext {
    pub fn is_empty(&self) -> bool {
        *self == SpanContext::default()
    }

    /// The context as prompt text (empty when there is none beyond the
    /// title, which the prompt shows on its own line).
    pub fn prompt_text(&self) -> String {
        let mut out = String::new();
        if let Some(lead_in) = &self.lead_in {
            out.push_str(&format!(
                "This span is an item of a list introduced by: \"{lead_in}\"\nRead the item as that sentence completed by the item.\n"
            ));
        }
        if !self.other_items.is_empty() {
            out.push_str("The list's other items (context only, formalized separately):\n");
            for item in &self.other_items {
                out.push_str(&format!("- {item}\n"));
            }
        }
        if let Some(header) = &self.table_header {
            out.push_str(&format!(
                "This span is a row of a table whose header row is: \"{header}\"\nRead each cell under its column heading.\n"
            ));
        }
        out
    }
}

/// The document's title: its first heading when the document opens with
/// one, else a short first line (a `TITLE:` or `POLICY:` label removed).
pub fn document_title(document: &str, spans: &[DocSpan]) -> Option<String> {
    let first = spans.first()?;
    let written = document.get(first.start..first.end).unwrap_or(&first.text);
    let line = if written.trim_start().starts_with('<') {
        first.text.as_str()
    } else {
        written.lines().next().unwrap_or("").trim_start_matches('#')
    };
    let line = line.trim();
    let line = ["POLICY:", "Policy:", "TITLE:", "Title:"]
        .iter()
        .find_map(|label| line.strip_prefix(label))
        .unwrap_or(line)
        .trim();
    let is_heading = matches!(first.kind, SpanKind::Heading(_));
    let short = line.chars().count() <= TITLE_MAX_CHARS && !line.ends_with(['.', ':']);
    (!line.is_empty() && (is_heading || short)).then(|| line.to_string())
}

/// The context of span `index` of `spans` (see [`SpanContext`]).
pub fn span_context(spans: &[DocSpan], index: usize, title: Option<&str>) -> SpanContext {
    let mut context = SpanContext {
        title: title.map(str::to_string),
        ..SpanContext::default()
    };
    let Some(span) = spans.get(index) else {
        return context;
    };
    match span.kind {
        SpanKind::ListItem => {
            let (first, last) = run_of(spans, index, SpanKind::ListItem);
            if first > 0 && matches!(spans[first - 1].kind, SpanKind::Paragraph) {
                context.lead_in = last_sentence(&spans[first - 1].text);
            }
            let others: Vec<String> = (first..=last)
                .filter(|&i| i != index)
                .map(|i| spans[i].text.trim().to_string())
                .collect();
            if others.iter().map(String::len).sum::<usize>() <= SIBLINGS_BUDGET {
                context.other_items = others;
            }
        }
        SpanKind::TableRow => {
            let (first, _) = run_of(spans, index, SpanKind::TableRow);
            if first != index {
                context.table_header = Some(spans[first].text.trim().to_string());
            }
        }
        _ => {}
    }
    context
}

/// The first and last index of the run of `kind` spans around `index`.
fn run_of(spans: &[DocSpan], index: usize, kind: SpanKind) -> (usize, usize) {
    let mut first = index;
    while first > 0 && spans[first - 1].kind == kind {
        first -= 1;
    }
    let mut last = index;
    while last + 1 < spans.len() && spans[last + 1].kind == kind {
        last += 1;
    }
    (first, last)
}

/// The last sentence of a paragraph: the one that introduces what follows.
fn last_sentence(text: &str) -> Option<String> {
    let &(start, end) = sentence_ranges(text).last()?;
    let sentence = text[start..end].trim();
    (!sentence.is_empty()).then(|| sentence.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::split_spans;

    #[test]
    fn list_items_carry_their_lead_in_and_rows_their_header() {
        let doc = "# Rental rules\n\nBikes are lent to members. After the safety course, you can borrow a:\n\n- city bike if you are 14 or over\n- cargo bike if you are 18 or over\n\n| Bike | Deposit |\n| --- | --- |\n| city | 20 |\n| cargo | 80 |\n";
        let spans = split_spans(doc);
        let title = document_title(doc, &spans);
        assert_eq!(title.as_deref(), Some("Rental rules"));
        let item = spans
            .iter()
            .position(|s| s.text.contains("cargo bike"))
            .unwrap();
        let context = span_context(&spans, item, title.as_deref());
        assert_eq!(
            context.lead_in.as_deref(),
            Some("After the safety course, you can borrow a:")
        );
        assert_eq!(context.other_items, ["city bike if you are 14 or over"]);
        let row = spans
            .iter()
            .position(|s| s.text.contains("cargo |"))
            .unwrap();
        let context = span_context(&spans, row, title.as_deref());
        assert_eq!(context.table_header.as_deref(), Some("Bike | Deposit"));
        assert!(context.prompt_text().contains("Bike | Deposit"));
        let header = spans
            .iter()
            .position(|s| s.text.contains("Deposit"))
            .unwrap();
        assert_eq!(span_context(&spans, header, None).table_header, None);
    }

    #[test]
    fn a_labelled_first_line_is_the_title() {
        let doc = "POLICY: Bike rental\nSOURCE: a club\n\n# Who can rent\n\nMembers can.\n";
        let spans = split_spans(doc);
        assert_eq!(document_title(doc, &spans).as_deref(), Some("Bike rental"));
        let doc = "Members can rent bikes on weekdays.\n";
        assert_eq!(document_title(doc, &split_spans(doc)), None);
    }
}
