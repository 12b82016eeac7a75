//! The spans of a document worth formalizing, as tasks: every paragraph,
//! list item and table row (headings only give context), cut to a budget,
//! each with its heading path and context.

use serde::{Deserialize, Serialize};

use crate::document::context::{SpanContext, document_title, span_context};
use crate::document::{SpanKind, heading_paths, split_for_budget, split_spans};

/// Spans longer than this many characters are cut at sentence ends.
pub use crate::model::settings::DEFAULT_SPAN_BUDGET;

/// One span to formalize.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpanTask {
    /// `S1`, `S2`, … in document order.
    pub id: String,
    /// Byte range in the document.
    pub start: usize,
    pub end: usize,
    /// The enclosing headings, outermost first.
    pub heading_path: Vec<String>,
    pub text: String,
    /// The title, a list item's lead-in, a table row's header.
    #[serde(default, skip_serializing_if = "SpanContext::is_empty")]
    pub context: SpanContext,
}

/// The spans of `document` worth asking about: every paragraph, list item
/// and table row (headings only give context), cut to `budget` characters.
pub fn plan_spans(document: &str, budget: usize) -> Vec<SpanTask> {
    let spans = split_spans(document);
    let paths = heading_paths(&spans);
    let title = document_title(document, &spans);
    let mut tasks = Vec::new();
    for (index, (span, path)) in spans.iter().zip(paths).enumerate() {
        if matches!(span.kind, SpanKind::Heading(_)) || span.text.trim().is_empty() {
            continue;
        }
        let context = span_context(&spans, index, title.as_deref());
        for piece in split_for_budget(std::slice::from_ref(span), document, budget) {
            tasks.push(SpanTask {
                id: format!("S{}", tasks.len() + 1),
                start: piece.start,
                end: piece.end,
                heading_path: path.clone(),
                text: piece.text,
                context: context.clone(),
            });
        }
    }
    tasks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_give_context_and_are_not_formalized() {
        let doc = "# Fees\n\nSeniors pay half.\n\n## Credits\n\n- At most 3 credits.\n";
        let tasks = plan_spans(doc, DEFAULT_SPAN_BUDGET);
        assert_eq!(tasks.len(), 2);
        assert_eq!(tasks[0].id, "S1");
        assert_eq!(tasks[0].heading_path, ["Fees"]);
        assert_eq!(&doc[tasks[1].start..tasks[1].end], "- At most 3 credits.");
        assert_eq!(tasks[1].heading_path, ["Fees", "Credits"]);
    }

    #[test]
    fn long_spans_are_cut_into_several_tasks() {
        let sentence = "A refund is due when the flight is cancelled by the carrier. ";
        let doc = format!("# Refunds\n\n{}\n", sentence.repeat(10));
        let tasks = plan_spans(&doc, 200);
        assert!(tasks.len() >= 3, "{}", tasks.len());
        assert!(tasks.iter().all(|t| t.text.chars().count() <= 200));
    }
}
