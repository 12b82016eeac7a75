//! Plain-text rendering of findings and scenarios for the terminal.

use precept_engine::model::CompiledModel;
use precept_engine::model::graph::RuleGraph;
use precept_engine::model::scenario_table::{ScenarioRow, ScenarioTable};
use precept_engine::model::verdict::verdict;
use precept_engine::solve::{Finding, FindingKind, Scenario};
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
    if !finding.assumptions.is_empty() {
        let _ = writeln!(
            out,
            "{pad}  assumed (exceptions the premise does not mention; --strict assumes none):"
        );
        for a in &finding.assumptions {
            let _ = writeln!(out, "{pad}    {}: (not {})", a.exception, a.condition);
            let _ = writeln!(out, "{pad}        {}", a.english);
        }
    }
    if !finding.assumptions_dropped.is_empty() {
        let _ = writeln!(
            out,
            "{pad}  not assumed (the premise contradicts the rules with them):"
        );
        for a in &finding.assumptions_dropped {
            let _ = writeln!(out, "{pad}    {}: (not {})", a.exception, a.condition);
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
            out.push_str(&finding_scenarios(
                finding,
                model,
                &[("claims true", yes), ("claims false", no)],
                indent + 4,
            ));
        }
        (Some(yes), None) => {
            let _ = writeln!(out, "{pad}  claims-true scenario:");
            out.push_str(&finding_scenarios(
                finding,
                model,
                &[("value", yes)],
                indent + 4,
            ));
        }
        (None, Some(no)) => {
            let _ = writeln!(out, "{pad}  claims-false scenario:");
            out.push_str(&finding_scenarios(
                finding,
                model,
                &[("value", no)],
                indent + 4,
            ));
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
/// between columns come first, marked with `*`.
pub fn scenario_table(columns: &[(&str, &Scenario)], indent: usize) -> String {
    let Some((_, first)) = columns.first() else {
        return String::new();
    };
    let rows: Vec<ScenarioRow> = first
        .values
        .iter()
        .map(|(name, _)| {
            let values: Vec<String> = columns
                .iter()
                .map(|(_, s)| s.get(name).map(|v| v.to_string()).unwrap_or_default())
                .collect();
            ScenarioRow {
                variable: name.clone(),
                description: String::new(),
                differs: values.iter().any(|v| v != &values[0]),
                values,
            }
        })
        .collect();
    let (mut differing, same): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| r.differs);
    differing.extend(same);
    let titles: Vec<&str> = columns.iter().map(|(t, _)| *t).collect();
    rows_text(&titles, &differing, indent)
}

/// A finding's scenarios: the question's cone only, differing rows first,
/// each with its variable's description.
fn finding_scenarios(
    finding: &Finding,
    model: &CompiledModel,
    columns: &[(&str, &Scenario)],
    indent: usize,
) -> String {
    let graph = RuleGraph::build(
        model.variables.iter().map(|(n, _)| n.as_str()),
        model.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    );
    let scenarios: Vec<&Scenario> = columns.iter().map(|(_, s)| *s).collect();
    let table = ScenarioTable::new(
        &scenarios,
        &finding.premise,
        &finding.claim,
        &graph,
        &model.glossary,
    );
    let titles: Vec<&str> = columns.iter().map(|(t, _)| *t).collect();
    let mut out = rows_text(&titles, &table.rows, indent);
    if table.outside_cone > 0 {
        let _ = writeln!(
            out,
            "{}  ({} variables outside the question's cone not shown)",
            " ".repeat(indent),
            table.outside_cone
        );
    }
    out
}

fn rows_text(titles: &[&str], rows: &[ScenarioRow], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let name_width = rows
        .iter()
        .map(|r| r.variable.chars().count())
        .max()
        .unwrap_or(8)
        .max(8);
    let widths: Vec<usize> = titles
        .iter()
        .enumerate()
        .map(|(c, title)| {
            rows.iter()
                .map(|row| row.values[c].chars().count())
                .max()
                .unwrap_or(0)
                .max(title.chars().count())
        })
        .collect();
    let described = rows.iter().any(|r| !r.description.is_empty());
    let mut out = String::new();
    let mut header = format!("{pad}  {:name_width$}", "variable");
    for (c, title) in titles.iter().enumerate() {
        let _ = write!(header, "  {:width$}", title, width = widths[c]);
    }
    if described {
        header.push_str("  description");
    }
    let _ = writeln!(out, "{}", header.trim_end());
    for row in rows {
        let mut line = format!(
            "{pad}{} {:name_width$}",
            if row.differs { "*" } else { " " },
            row.variable
        );
        for (c, value) in row.values.iter().enumerate() {
            let _ = write!(line, "  {:width$}", value, width = widths[c]);
        }
        if described {
            let _ = write!(line, "  {}", row.description);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}
