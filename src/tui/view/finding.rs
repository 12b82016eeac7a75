//! A finding with its evidence: the rules (with a selectable cursor), the
//! scenarios side by side with differing values emphasized, warnings.

use super::list::fit;
use crate::core::model::verdict::verdict;
use crate::core::solve::{Finding, FindingKind, Scenario};
use crate::tui::measure::text::wrap;
use crate::tui::state::app::App;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

pub fn finding_style(app: &App, kind: FindingKind) -> Style {
    match kind {
        FindingKind::Valid => app.theme.pass(),
        FindingKind::Satisfiable => app.theme.pending(),
        _ => app.theme.fail(),
    }
}

/// Lines describing `finding`. `selected_rule` marks one evidence rule.
pub fn lines<'a>(
    app: &'a App,
    finding: &Finding,
    selected_rule: Option<usize>,
    width: usize,
) -> Vec<Line<'a>> {
    let mut lines: Vec<Line<'a>> = wrap(&verdict(finding, &app.compiled.glossary), width)
        .into_iter()
        .map(|text| Line::styled(text, app.theme.text()))
        .collect();
    let role = if finding.kind == FindingKind::Valid {
        "Supporting rules"
    } else {
        "Contradicting rules"
    };
    let rules = finding.rules();
    if !rules.is_empty() {
        let note = if finding.rules_minimal {
            ""
        } else {
            " (sufficient; not proved minimal)"
        };
        lines.push(Line::styled(
            format!("{role}{note} · enter jumps to the rule"),
            app.theme.dim(),
        ));
        for (i, id) in rules.iter().enumerate() {
            let compiled = app.compiled.rule(id);
            let smt = compiled
                .map(|r| r.written.to_string())
                .unwrap_or_else(|| "(rule changed since)".into());
            let style = if Some(i) == selected_rule {
                app.theme.selected()
            } else {
                app.theme.text()
            };
            lines.push(Line::from(vec![
                Span::styled(format!(" {:<5}", id), app.theme.accent().patch(style)),
                Span::styled(fit(&smt, width.saturating_sub(7)), style),
            ]));
            if let Some(rule) = compiled {
                for text in wrap(
                    &app.compiled.glossary.sentence(&rule.written),
                    width.saturating_sub(7),
                ) {
                    lines.push(Line::styled(format!("       {text}"), app.theme.dim()));
                }
            }
        }
    }
    if finding.kind == FindingKind::Impossible {
        let whole = match finding.policy_inconsistent {
            Some(true) => "The rules contradict each other even without the premise.",
            Some(false) => "The premise is what conflicts with these rules.",
            None => "Whether the rules alone are consistent could not be settled in time.",
        };
        lines.push(Line::styled(whole, app.theme.text()));
    }
    match (
        &finding.claims_true_scenario,
        &finding.claims_false_scenario,
    ) {
        (Some(yes), Some(no)) => lines.extend(scenario_table(
            app,
            &[("claim true", yes), ("claim false", no)],
            width,
        )),
        (Some(yes), None) => lines.extend(scenario_table(app, &[("claim true", yes)], width)),
        (None, Some(no)) => lines.extend(scenario_table(app, &[("claim false", no)], width)),
        (None, None) => {}
    }
    for warning in &finding.warnings {
        lines.push(Line::styled(
            format!("warning: {}", warning.message()),
            app.theme.pending(),
        ));
    }
    if let Some(reason) = &finding.reason {
        lines.push(Line::styled(format!("reason: {reason}"), app.theme.error()));
    }
    lines
}

/// Variables down, scenarios across; rows where the scenarios differ come
/// first and are emphasized.
fn scenario_table<'a>(app: &'a App, columns: &[(&str, &Scenario)], width: usize) -> Vec<Line<'a>> {
    let Some((_, first)) = columns.first() else {
        return Vec::new();
    };
    let mut rows: Vec<(String, Vec<String>, bool)> = first
        .values
        .iter()
        .map(|(name, _)| {
            let values: Vec<String> = columns
                .iter()
                .map(|(_, s)| s.get(name).map(ToString::to_string).unwrap_or_default())
                .collect();
            let differs = values.iter().any(|v| *v != values[0]);
            (name.clone(), values, differs)
        })
        .collect();
    rows.sort_by_key(|(_, _, differs)| !differs);
    let value_width = ((width.saturating_sub(4)) / (columns.len() + 1)).clamp(8, 24);
    let name_width = width
        .saturating_sub(2 + value_width * columns.len())
        .clamp(8, 28);
    let mut header = format!("  {:<name_width$}", "Scenario");
    for (title, _) in columns {
        header.push_str(&format!("{:<value_width$}", fit(title, value_width - 1)));
    }
    let mut lines = vec![Line::styled(
        header,
        app.theme.dim().add_modifier(Modifier::UNDERLINED),
    )];
    for (name, values, differs) in rows {
        let style = if differs {
            app.theme.emphasis()
        } else {
            app.theme.text()
        };
        let mut text = format!(
            "{} {:<name_width$}",
            if differs { "*" } else { " " },
            fit(&name, name_width - 1)
        );
        for value in values {
            text.push_str(&format!("{:<value_width$}", fit(&value, value_width - 1)));
        }
        lines.push(Line::styled(text, style));
    }
    lines
}
