//! A finding with its evidence: the rules (with a selectable cursor), the
//! scenarios side by side with differing values emphasized, warnings.

use super::list::fit;
use crate::measure::text::wrap;
use crate::state::app::App;
use precept_engine::model::scenario_table::ScenarioTable;
use precept_engine::model::verdict::verdict;
use precept_engine::solve::{Finding, FindingKind, Scenario};
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
    let mut lines: Vec<Line<'a>> = wrap(&verdict(finding, &app.ws.compiled.glossary), width)
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
            let compiled = app.ws.compiled.rule(id);
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
                    &app.ws.compiled.glossary.sentence(&rule.written),
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
            finding,
            &[("claim true", yes), ("claim false", no)],
            width,
        )),
        (Some(yes), None) => {
            lines.extend(scenario_table(app, finding, &[("claim true", yes)], width))
        }
        (None, Some(no)) => {
            lines.extend(scenario_table(app, finding, &[("claim false", no)], width))
        }
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

/// Variables down, scenarios across: the question's cone only, rows where
/// the scenarios differ first and emphasized. Names get the width they need
/// (as far as the pane allows), values theirs, and the variables'
/// descriptions fill what is left.
fn scenario_table<'a>(
    app: &'a App,
    finding: &Finding,
    columns: &[(&str, &Scenario)],
    width: usize,
) -> Vec<Line<'a>> {
    let scenarios: Vec<&Scenario> = columns.iter().map(|(_, s)| *s).collect();
    let table = ScenarioTable::new(
        &scenarios,
        &finding.premise,
        &finding.claim,
        &app.ws.graph,
        &app.ws.compiled.glossary,
    );
    let layout = TableLayout::new(&table, columns, width);
    let mut header = format!("  {:<w$}", "Scenario", w = layout.name);
    for ((title, _), w) in columns.iter().zip(&layout.values) {
        header.push_str(&format!("{:<w$}", fit(title, w - 1), w = *w));
    }
    if layout.description > 0 {
        header.push_str("Description");
    }
    let mut lines = vec![Line::styled(
        header.trim_end().to_string(),
        app.theme.dim().add_modifier(Modifier::UNDERLINED),
    )];
    for row in &table.rows {
        let style = if row.differs {
            app.theme.emphasis()
        } else {
            app.theme.text()
        };
        let mut text = format!(
            "{} {:<w$}",
            if row.differs { "*" } else { " " },
            fit(&row.variable, layout.name - 1),
            w = layout.name
        );
        for (value, w) in row.values.iter().zip(&layout.values) {
            text.push_str(&format!("{:<w$}", fit(value, w - 1), w = *w));
        }
        let mut spans = vec![Span::styled(text, style)];
        if layout.description > 0 && !row.description.is_empty() {
            spans.push(Span::styled(
                fit(&row.description, layout.description),
                app.theme.dim(),
            ));
        }
        lines.push(Line::from(spans));
    }
    // Descriptions with no room in the table (no column, or cut) follow it.
    let cut: Vec<_> = table
        .rows
        .iter()
        .filter(|r| r.description.chars().count() > layout.description)
        .collect();
    if !cut.is_empty() {
        lines.push(Line::styled("Descriptions", app.theme.dim()));
    }
    for row in cut {
        {
            let text = format!("{}: {}", row.variable, row.description);
            for (i, part) in wrap(&text, width.saturating_sub(4)).into_iter().enumerate() {
                let indent = if i == 0 { "  " } else { "    " };
                lines.push(Line::styled(format!("{indent}{part}"), app.theme.dim()));
            }
        }
    }
    if table.outside_cone > 0 {
        lines.push(Line::styled(
            format!(
                "  {} variables outside the question's cone not shown",
                table.outside_cone
            ),
            app.theme.dim(),
        ));
    }
    lines
}

/// Column widths of a scenario table, each including one space after it.
struct TableLayout {
    name: usize,
    values: Vec<usize>,
    /// 0: no description column.
    description: usize,
}

/// A description column is drawn only when at least this wide.
const NARROWEST_DESCRIPTION: usize = 12;

impl TableLayout {
    fn new(table: &ScenarioTable, columns: &[(&str, &Scenario)], width: usize) -> TableLayout {
        let widest = |texts: &mut dyn Iterator<Item = usize>| texts.max().unwrap_or(0);
        let name_wanted =
            widest(&mut table.rows.iter().map(|r| r.variable.chars().count())).max(8) + 1;
        let mut values: Vec<usize> = columns
            .iter()
            .enumerate()
            .map(|(c, (title, _))| {
                widest(&mut table.rows.iter().map(|r| r.values[c].chars().count()))
                    .max(title.chars().count())
                    .clamp(4, 24)
                    + 2
            })
            .collect();
        let available = width.saturating_sub(2);
        let values_total: usize = values.iter().sum();
        // Names first (they say what a row is), down to 12 when space is short.
        let name = name_wanted
            .min(available.saturating_sub(values_total))
            .max(name_wanted.min(13));
        let left = available.saturating_sub(name);
        if values_total > left {
            let each = (left / values.len().max(1)).max(5);
            for value in &mut values {
                *value = (*value).min(each);
            }
        }
        let rest = available.saturating_sub(name + values.iter().sum::<usize>());
        // A column that would cut most descriptions is left out: they all
        // follow the table in full instead.
        let fit_most = |room: usize| {
            let described: Vec<usize> = table
                .rows
                .iter()
                .map(|r| r.description.chars().count())
                .filter(|&n| n > 0)
                .collect();
            described.iter().filter(|&&n| n <= room).count() * 4 >= described.len() * 3
        };
        TableLayout {
            name,
            values,
            description: if rest >= NARROWEST_DESCRIPTION && fit_most(rest) {
                rest
            } else {
                0
            },
        }
    }
}
