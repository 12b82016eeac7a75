//! The policy document as the report shows it: every span marked by the
//! rules that formalize it and by whether some test exercises them, and the
//! rules grouped by the document's sections for the coverage bars.

use super::html::{esc, rule_link};
use super::pictures::SectionCoverage;
use crate::document::{DocSpan, SpanKind, split_spans};
use crate::model::Rule;
use std::collections::HashMap;
use std::fmt::Write;

/// What the tests do with one rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Exercised {
    pub touched: bool,
    pub covered: bool,
}

/// The title of the bucket of rules that point nowhere in the document.
pub const NO_SOURCE: &str = "(no source in the document)";

/// The heading level that cuts the document into sections: the top level,
/// unless a single heading sits there (the title), then the next one.
fn section_level(spans: &[DocSpan]) -> Option<u8> {
    let mut levels: Vec<u8> = spans
        .iter()
        .filter_map(|s| match s.kind {
            SpanKind::Heading(l) => Some(l),
            _ => None,
        })
        .collect();
    levels.sort_unstable();
    let top = *levels.first()?;
    let at_top = levels.iter().filter(|&&l| l == top).count();
    match levels.iter().find(|&&l| l > top) {
        Some(&next) if at_top == 1 => Some(next),
        _ => Some(top),
    }
}

/// The ids of the rules whose source ranges (their own, and those they
/// carry for rules they took the place of) fall in each span.
fn rules_per_span<'a>(spans: &[DocSpan], rules: &'a [Rule]) -> Vec<Vec<&'a str>> {
    let mut placed: Vec<(usize, usize, &str)> = rules
        .iter()
        .flat_map(|r| {
            r.source_span
                .iter()
                .chain(&r.also_from)
                .map(move |s| (s.start, s.end, r.id.as_str()))
        })
        .collect();
    placed.sort_by_key(|&(start, _, _)| start);
    spans
        .iter()
        .map(|span| {
            placed
                .iter()
                .take_while(|&&(start, _, _)| start < span.end.max(span.start + 1))
                .filter(|&&(start, end, _)| span.overlaps(start, end))
                .map(|&(_, _, id)| id)
                .collect()
        })
        .collect()
}

/// The document, marked, and the coverage of each section's rules.
pub fn marked_document(
    document: &str,
    rules: &[Rule],
    exercised: &HashMap<&str, Exercised>,
) -> (String, Vec<SectionCoverage>) {
    let spans = split_spans(document);
    let per_span = rules_per_span(&spans, rules);
    let level = section_level(&spans);
    let mut sections: Vec<SectionCoverage> = Vec::new();
    let mut placed: HashMap<&str, usize> = HashMap::new();
    let mut out = String::from("<div class=\"document\">");
    for (span, ids) in spans.iter().zip(&per_span) {
        if let SpanKind::Heading(l) = span.kind
            && Some(l) == level
        {
            sections.push(SectionCoverage {
                title: span.text.clone(),
                rules: 0,
                touched: 0,
                covered: 0,
            });
        }
        for id in ids {
            if placed.contains_key(id) {
                continue;
            }
            if sections.is_empty() {
                sections.push(SectionCoverage {
                    title: "(before the first section)".into(),
                    rules: 0,
                    touched: 0,
                    covered: 0,
                });
            }
            placed.insert(id, sections.len() - 1);
            let section = sections.last_mut().expect("pushed above");
            let e = exercised.get(id).copied().unwrap_or_default();
            section.rules += 1;
            section.touched += usize::from(e.touched);
            section.covered += usize::from(e.covered);
        }
        out.push_str(&span_html(span, ids, exercised));
    }
    out.push_str("</div>");
    let unplaced: Vec<&Rule> = rules
        .iter()
        .filter(|r| !placed.contains_key(r.id.as_str()))
        .collect();
    if !unplaced.is_empty() {
        let mut bucket = SectionCoverage {
            title: NO_SOURCE.into(),
            rules: 0,
            touched: 0,
            covered: 0,
        };
        for rule in unplaced {
            let e = exercised.get(rule.id.as_str()).copied().unwrap_or_default();
            bucket.rules += 1;
            bucket.touched += usize::from(e.touched);
            bucket.covered += usize::from(e.covered);
        }
        sections.push(bucket);
    }
    sections.retain(|s| s.rules > 0);
    (out, sections)
}

fn span_html(span: &DocSpan, ids: &[&str], exercised: &HashMap<&str, Exercised>) -> String {
    let tested = ids
        .iter()
        .filter(|id| exercised.get(*id).is_some_and(|e| e.touched))
        .count();
    let (class, state) = match (ids.len(), tested) {
        (0, _) => ("unformalized", "not formalized"),
        (n, t) if t == n => ("tested", "formalized, tested"),
        (_, 0) => ("untested", "formalized, no test"),
        _ => ("partly-tested", "formalized, partly tested"),
    };
    let mut marks = String::new();
    if !ids.is_empty() {
        marks.push_str(" <span class=\"marks\">");
        for id in ids {
            let _ = write!(marks, "{} ", rule_link(id));
        }
        marks.push_str("</span>");
    }
    let text = esc(&span.text);
    match span.kind {
        SpanKind::Heading(level) => {
            let h = (level + 2).min(6);
            format!(
                "<h{h} class=\"doc-heading span {class}\" title=\"{state}\">{text}{marks}</h{h}>"
            )
        }
        SpanKind::ListItem => {
            format!("<p class=\"span item {class}\" title=\"{state}\">• {text}{marks}</p>")
        }
        SpanKind::TableRow => format!(
            "<p class=\"span row {class}\" title=\"{state}\"><code>{text}</code>{marks}</p>"
        ),
        SpanKind::Paragraph => {
            format!("<p class=\"span {class}\" title=\"{state}\">{text}{marks}</p>")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ReviewStatus, SourceSpan};

    fn rule(id: &str, start: usize, end: usize) -> Rule {
        Rule {
            id: id.into(),
            expression: "true".into(),
            source_span: Some(SourceSpan { start, end }),
            also_from: Vec::new(),
            review: ReviewStatus::Unreviewed,
            note: String::new(),
        }
    }

    #[test]
    fn spans_are_marked_by_their_rules_and_tests_and_sections_counted() {
        let doc = "# Policy\n\n## Refunds\n\nRefunds are paid.\n\n## Fees\n\nFees apply.\n\nNothing here.\n";
        let refunds = doc.find("Refunds are").unwrap();
        let fees = doc.find("Fees apply").unwrap();
        let rules = vec![rule("R1", refunds, refunds + 5), rule("R2", fees, fees + 4)];
        let exercised = HashMap::from([(
            "R1",
            Exercised {
                touched: true,
                covered: false,
            },
        )]);
        let (html, sections) = marked_document(doc, &rules, &exercised);
        assert!(
            html.contains("class=\"span tested\" title=\"formalized, tested\">Refunds are paid.")
        );
        assert!(html.contains("class=\"span untested\" title=\"formalized, no test\">Fees apply."));
        assert!(
            html.contains("class=\"span unformalized\" title=\"not formalized\">Nothing here.")
        );
        let titles: Vec<_> = sections
            .iter()
            .map(|s| (s.title.as_str(), s.rules, s.touched))
            .collect();
        assert_eq!(titles, vec![("Refunds", 1, 1), ("Fees", 1, 0)]);
    }
}
