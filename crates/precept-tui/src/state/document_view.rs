//! What the rules screen's document pane shows, from the state alone:
//! which spans count as policy, which no rule covers, the spans listed (all,
//! or only the uncovered ones) and the selected rule's own sentences. Both
//! `update` (to move and jump) and the view (to draw) use it.

use crate::state::app::App;
use precept_engine::document::SpanKind;
use precept_engine::document::quote::{RuleSource, rule_sentences};
use precept_engine::model::Rule;

/// Whether span `index` is marked as not policy.
pub fn is_not_policy(app: &App, index: usize) -> bool {
    app.ws
        .spans
        .get(index)
        .is_some_and(|s| app.document_pane.not_policy.contains(&s.text))
}

/// Whether span `index` is policy text that no rule covers: not a heading,
/// not marked as not policy, and without a rule.
pub fn is_uncovered(app: &App, index: usize) -> bool {
    app.ws
        .spans
        .get(index)
        .is_some_and(|s| !matches!(s.kind, SpanKind::Heading(_)))
        && !app.ws.span_rules.contains_key(&index)
        && !is_not_policy(app, index)
}

/// How many spans no rule covers (headings and spans marked as not policy
/// left out).
pub fn uncovered_count(app: &App) -> usize {
    (0..app.ws.spans.len())
        .filter(|&i| is_uncovered(app, i))
        .count()
}

/// How many spans are marked as not policy.
pub fn not_policy_count(app: &App) -> usize {
    (0..app.ws.spans.len())
        .filter(|&i| is_not_policy(app, i))
        .count()
}

/// The spans the pane lists, in document order: all of them, or only the
/// uncovered ones while that filter is on.
pub fn shown_spans(app: &App) -> Vec<usize> {
    (0..app.ws.spans.len())
        .filter(|&i| !app.document_pane.uncovered_only || is_uncovered(app, i))
        .collect()
}

/// The span of `rule` and the byte range of its own sentences in that
/// span's text, when the rule's source range (if narrower than the span) or
/// the quote its formalization recorded is found there.
pub fn rule_source_sentences(app: &App, rule: &Rule) -> Option<(usize, (usize, usize))> {
    let index = app.ws.span_of_rule(rule)?;
    let document = app.ws.document.as_deref()?;
    let quotes = app
        .formalization
        .record
        .as_ref()
        .map(|record| record.rule_quotes(&rule.id))
        .unwrap_or_default();
    let source = RuleSource {
        range: rule.source_span.map(|s| (s.start, s.end)),
        quotes: &quotes,
    };
    rule_sentences(document, &app.ws.spans[index], source).map(|range| (index, range))
}
