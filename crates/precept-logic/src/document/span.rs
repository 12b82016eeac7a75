//! A span of a document: a heading, paragraph, list item or table row,
//! with its byte range and the text to show.

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
