//! Plain-text rendering of findings and scenarios for the terminal.

use crate::core::model::CompiledModel;
use crate::core::model::verdict::verdict;
use crate::core::solve::{Finding, FindingKind, Scenario};
use std::fmt::Write;

/// A finding with its evidence, indented by `indent` spaces.
pub fn finding_text(finding: &Finding, model: &CompiledModel, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    // The finding's name never stands alone: its plain-words verdict follows.
    let _ = writeln!(
        out,
        "{pad}{}: {}",
        finding.kind,
        verdict(finding, &model.glossary)
    );
    let _ = writeln!(out, "{pad}  premise: {}", finding.premise);
    let _ = writeln!(out, "{pad}  claim:   {}", finding.claim);
    let (role, rules) = match finding.kind {
        FindingKind::Valid => ("supporting rules", &finding.supporting_rules),
        _ => ("contradicting rules", &finding.contradicting_rules),
    };
    if !rules.is_empty() {
        let _ = writeln!(out, "{pad}  {role}:");
        for id in rules {
            let english = model
                .rule(id)
                .map(|r| model.glossary.sentence(&r.written))
                .unwrap_or_default();
            let smt = model
                .rule(id)
                .map(|r| r.written.to_string())
                .unwrap_or_default();
            let _ = writeln!(out, "{pad}    {id}: {smt}");
            let _ = writeln!(out, "{pad}        {english}");
        }
    }
    if !finding.rules_minimal {
        let _ = writeln!(
            out,
            "{pad}  note: these rules suffice, but the solver could not prove each one necessary in time"
        );
    }
    if finding.kind == FindingKind::Impossible {
        let whole = match finding.policy_inconsistent {
            Some(true) => "yes: the rules contradict each other even without the premise",
            Some(false) => "no: the premise is what conflicts with the rules",
            None => "undecided: the solver could not settle the rules alone in time",
        };
        let _ = writeln!(out, "{pad}  policy inconsistent on its own: {whole}");
    }
    match (
        &finding.claims_true_scenario,
        &finding.claims_false_scenario,
    ) {
        (Some(yes), Some(no)) => {
            let _ = writeln!(out, "{pad}  scenarios (* marks values that differ):");
            out.push_str(&scenario_table(
                &[("claims true", yes), ("claims false", no)],
                indent + 4,
            ));
        }
        (Some(yes), None) => {
            let _ = writeln!(out, "{pad}  claims-true scenario:");
            out.push_str(&scenario_table(&[("value", yes)], indent + 4));
        }
        (None, Some(no)) => {
            let _ = writeln!(out, "{pad}  claims-false scenario:");
            out.push_str(&scenario_table(&[("value", no)], indent + 4));
        }
        (None, None) => {}
    }
    for warning in &finding.warnings {
        let _ = writeln!(out, "{pad}  warning: {}", warning.message());
    }
    if let Some(reason) = &finding.reason {
        let _ = writeln!(out, "{pad}  reason: {reason}");
    }
    out
}

/// Scenarios side by side, one row per variable; rows whose values differ
/// between columns are marked with `*`.
pub fn scenario_table(columns: &[(&str, &Scenario)], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let Some((_, first)) = columns.first() else {
        return String::new();
    };
    let name_width = first
        .values
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    let cells: Vec<Vec<String>> = first
        .values
        .iter()
        .map(|(name, _)| {
            columns
                .iter()
                .map(|(_, s)| s.get(name).map(|v| v.to_string()).unwrap_or_default())
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..columns.len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
                .max(columns[c].0.len())
        })
        .collect();
    let mut out = String::new();
    let mut header = format!("{pad}  {:name_width$}", "variable");
    for (c, (title, _)) in columns.iter().enumerate() {
        let _ = write!(header, "  {:width$}", title, width = widths[c]);
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for ((name, _), row) in first.values.iter().zip(&cells) {
        let differs = row.iter().any(|v| v != &row[0]);
        let mut line = format!(
            "{pad}{} {:name_width$}",
            if differs { "*" } else { " " },
            name
        );
        for (c, value) in row.iter().enumerate() {
            let _ = write!(line, "  {:width$}", value, width = widths[c]);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
