//! The report's pictures, drawn as inline SVG by the report itself (no
//! scripts, no fonts, no images fetched): a coverage bar per section, a
//! chart of findings, and the rule↔variable graph of one part of the model.

use super::html::{anchor, esc};
use std::fmt::Write;

/// One section's rules: how many there are, how many some test touches,
/// how many are covered both ways (antecedent true and false).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionCoverage {
    pub title: String,
    pub rules: usize,
    pub touched: usize,
    pub covered: usize,
}

const LABEL_WIDTH: usize = 250;
const BAR_WIDTH: usize = 320;
const ROW: usize = 24;

fn clipped(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(chars - 1).collect();
        short.push('…');
        short
    }
}

fn share(part: usize, whole: usize, width: usize) -> usize {
    (part * width + whole / 2).checked_div(whole).unwrap_or(0)
}

/// A bar per section: dark for rules covered both ways, light for rules
/// only touched, grey for rules no test touches.
pub fn coverage_bars(sections: &[SectionCoverage]) -> String {
    let width = LABEL_WIDTH + BAR_WIDTH + 120;
    let height = sections.len() * ROW + 8;
    let mut out = format!(
        "<svg class=\"chart coverage-bars\" role=\"img\" aria-label=\"Rule coverage per section\" \
         width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"
    );
    for (i, s) in sections.iter().enumerate() {
        let y = 4 + i * ROW;
        let touched = share(s.touched, s.rules, BAR_WIDTH);
        let covered = share(s.covered, s.rules, BAR_WIDTH).min(touched);
        let percent = if s.rules == 0 {
            0.0
        } else {
            s.touched as f64 * 100.0 / s.rules as f64
        };
        let _ = write!(
            out,
            "<g class=\"section-bar\"><title>{title}: {touched_n} of {rules} rules tested, {covered_n} covered both ways</title>\
             <text x=\"0\" y=\"{ty}\" class=\"label\">{label}</text>\
             <rect x=\"{LABEL_WIDTH}\" y=\"{y}\" width=\"{BAR_WIDTH}\" height=\"16\" class=\"bar-none\"/>\
             <rect x=\"{LABEL_WIDTH}\" y=\"{y}\" width=\"{touched}\" height=\"16\" class=\"bar-touched\"/>\
             <rect x=\"{LABEL_WIDTH}\" y=\"{y}\" width=\"{covered}\" height=\"16\" class=\"bar-covered\"/>\
             <text x=\"{tx}\" y=\"{ty}\" class=\"value\">{percent:.0}% of {rules}</text></g>",
            title = esc(&s.title),
            touched_n = s.touched,
            covered_n = s.covered,
            rules = s.rules,
            ty = y + 13,
            label = esc(&clipped(&s.title, 34)),
            tx = LABEL_WIDTH + BAR_WIDTH + 8,
        );
    }
    out.push_str("</svg>");
    out
}

/// One bar of the findings chart: a label, a count and its kind (`bad`,
/// `warn`, `info`, `ok`), which picks the colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    pub label: String,
    pub count: usize,
    pub kind: &'static str,
}

/// A horizontal bar chart, the longest bar the largest count.
pub fn bar_chart(label: &str, bars: &[Bar]) -> String {
    let max = bars.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let width = LABEL_WIDTH + BAR_WIDTH + 60;
    let height = bars.len() * ROW + 8;
    let mut out = format!(
        "<svg class=\"chart findings\" role=\"img\" aria-label=\"{}\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\">",
        esc(label)
    );
    for (i, bar) in bars.iter().enumerate() {
        let y = 4 + i * ROW;
        let length = share(bar.count, max, BAR_WIDTH).max(usize::from(bar.count > 0));
        let _ = write!(
            out,
            "<g><text x=\"0\" y=\"{ty}\" class=\"label\">{text}</text>\
             <rect x=\"{LABEL_WIDTH}\" y=\"{y}\" width=\"{length}\" height=\"16\" class=\"fill-{kind}\"/>\
             <text x=\"{tx}\" y=\"{ty}\" class=\"value\">{count}</text></g>",
            ty = y + 13,
            text = esc(&clipped(&bar.label, 34)),
            kind = esc(bar.kind),
            tx = LABEL_WIDTH + length + 6,
            count = bar.count,
        );
    }
    out.push_str("</svg>");
    out
}

/// A rule node of the graph and whether some test touches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphRule {
    pub id: String,
    pub tested: bool,
    pub variables: Vec<String>,
}

/// Rules on the left, the variables they read on the right, a line for
/// each use. Rule nodes link to the rule's entry.
pub fn rule_variable_graph(rules: &[GraphRule]) -> String {
    let mut variables: Vec<&str> = Vec::new();
    for rule in rules {
        for v in &rule.variables {
            if !variables.contains(&v.as_str()) {
                variables.push(v);
            }
        }
    }
    let (node_w, gap, row) = (170usize, 260usize, 30usize);
    let width = node_w * 2 + gap + 20;
    let rows = rules.len().max(variables.len());
    let height = rows * row + 20;
    let centre = |count: usize, i: usize| {
        // Centre the shorter column against the taller one.
        10 + (rows - count) * row / 2 + i * row
    };
    let mut out = format!(
        "<svg class=\"chart graph\" role=\"img\" aria-label=\"Rules and the variables they read\" \
         width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"
    );
    for (i, rule) in rules.iter().enumerate() {
        let y = centre(rules.len(), i) + 11;
        for v in &rule.variables {
            if let Some(j) = variables.iter().position(|x| x == v) {
                let vy = centre(variables.len(), j) + 11;
                let _ = write!(
                    out,
                    "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{vy}\" class=\"edge\"/>",
                    10 + node_w,
                    10 + node_w + gap
                );
            }
        }
    }
    for (i, rule) in rules.iter().enumerate() {
        let y = centre(rules.len(), i);
        let class = if rule.tested {
            "node-tested"
        } else {
            "node-untested"
        };
        let _ = write!(
            out,
            "<a href=\"#{}\"><g class=\"rule-node\"><title>rule {}{}</title>\
             <rect x=\"10\" y=\"{y}\" width=\"{node_w}\" height=\"22\" rx=\"4\" class=\"{class}\"/>\
             <text x=\"18\" y=\"{}\" class=\"node-label\">{}</text></g></a>",
            anchor("rule", &rule.id),
            esc(&rule.id),
            if rule.tested {
                " (tested)"
            } else {
                " (no test)"
            },
            y + 15,
            esc(&clipped(&rule.id, 22)),
        );
    }
    for (j, v) in variables.iter().enumerate() {
        let y = centre(variables.len(), j);
        let x = 10 + node_w + gap;
        let _ = write!(
            out,
            "<g class=\"variable-node\"><title>variable {}</title>\
             <rect x=\"{x}\" y=\"{y}\" width=\"{node_w}\" height=\"22\" rx=\"11\" class=\"node-variable\"/>\
             <text x=\"{}\" y=\"{}\" class=\"node-label\">{}</text></g>",
            esc(v),
            x + 10,
            y + 15,
            esc(&clipped(v, 22)),
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fully_tested_section_fills_its_bar() {
        let svg = coverage_bars(&[SectionCoverage {
            title: "Refunds".into(),
            rules: 4,
            touched: 4,
            covered: 2,
        }]);
        assert!(svg.contains(&format!(
            "width=\"{BAR_WIDTH}\" height=\"16\" class=\"bar-touched\""
        )));
        assert!(svg.contains(&format!(
            "width=\"{}\" height=\"16\" class=\"bar-covered\"",
            BAR_WIDTH / 2
        )));
        assert!(svg.contains("100% of 4"));
    }

    #[test]
    fn graph_draws_one_line_per_use_and_each_variable_once() {
        let svg = rule_variable_graph(&[
            GraphRule {
                id: "R1".into(),
                tested: true,
                variables: vec!["a".into(), "b".into()],
            },
            GraphRule {
                id: "R2".into(),
                tested: false,
                variables: vec!["b".into()],
            },
        ]);
        assert_eq!(svg.matches("<line").count(), 3);
        assert_eq!(svg.matches("class=\"variable-node\"").count(), 2);
        assert!(svg.contains("href=\"#rule-R2\""));
    }
}
