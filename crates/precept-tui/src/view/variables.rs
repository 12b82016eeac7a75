//! Variables and types: name, type, description, the rules that use each,
//! enum values with their descriptions; unused ones flagged.

use super::list::{ListView, fit, pane, render_rows};
use crate::measure::text::wrap;
use crate::state::app::{App, Pane, VariableRow};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn render_list(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Variables;
    let rows = app.variable_rows();
    let filter = if app.variable_filter.is_empty() {
        String::new()
    } else {
        format!(" · filter \"{}\"", app.variable_filter)
    };
    let title = format!(
        "Variables {} · types {}{filter}",
        app.ws.model.variables.len(),
        app.ws.model.types.len()
    );
    let width = area.width.saturating_sub(4) as usize;
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused, area),
        ListView {
            cursor: app.cursors.variable,
            len: rows.len(),
            focused,
        },
        |i| match rows[i] {
            VariableRow::Variable(index) => {
                let variable = &app.ws.model.variables[index];
                let unused = app.is_unused_variable(&variable.name);
                let mut spans = vec![
                    Span::styled(
                        fit(&variable.name, width.saturating_sub(16)),
                        app.theme.text(),
                    ),
                    Span::styled(format!(" {}", variable.sort), app.theme.dim()),
                ];
                if unused {
                    spans.push(Span::styled(" unused", app.theme.uncovered()));
                }
                Line::from(spans)
            }
            VariableRow::Type(index) => {
                let type_def = &app.ws.model.types[index];
                let mut spans = vec![
                    Span::styled("type ", app.theme.dim()),
                    Span::styled(
                        fit(&type_def.name, width.saturating_sub(14)),
                        app.theme.accent(),
                    ),
                ];
                if app.is_unused_type(&type_def.name) {
                    spans.push(Span::styled(" unused", app.theme.uncovered()));
                }
                Line::from(spans)
            }
        },
    );
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let block = pane(app, "Detail".into(), false, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width.saturating_sub(2) as usize;
    let heading = app.theme.accent().add_modifier(Modifier::BOLD);
    let rows = app.variable_rows();
    let mut lines: Vec<Line> = Vec::new();
    let describe = |lines: &mut Vec<Line>, description: &str| {
        if description.trim().is_empty() {
            lines.push(Line::styled("  (no description)", app.theme.uncovered()));
        }
        for text in wrap(description, width) {
            lines.push(Line::styled(format!("  {text}"), app.theme.text()));
        }
    };
    match rows.get(app.cursors.variable.selected) {
        Some(VariableRow::Variable(index)) => {
            let variable = &app.ws.model.variables[*index];
            lines.push(Line::from(vec![
                Span::styled(variable.name.clone(), heading),
                Span::styled(format!(" : {}", variable.sort), app.theme.dim()),
            ]));
            describe(&mut lines, &variable.description);
            reading_lines(app, &mut lines, variable);
            let users = app.ws.graph.rules_using(&variable.name);
            if users.is_empty() {
                lines.push(Line::styled(
                    "Used by no rule (unused)",
                    app.theme.uncovered(),
                ));
            } else {
                lines.push(Line::from(vec![
                    Span::styled("Used by ", app.theme.dim()),
                    Span::styled(users.join(", "), app.theme.text()),
                ]));
            }
            if let Some(type_def) = app.ws.model.types.iter().find(|t| t.name == variable.sort) {
                lines.push(Line::styled(
                    format!("Values of {}", type_def.name),
                    app.theme.dim(),
                ));
                for value in &type_def.values {
                    lines.push(Line::from(vec![
                        Span::styled(
                            format!("  {}", value.value),
                            app.theme.syntax(crate::style::theme::Syntax::Value),
                        ),
                        Span::styled(format!("  {}", value.description), app.theme.text()),
                    ]));
                }
            }
        }
        Some(VariableRow::Type(index)) => {
            let type_def = &app.ws.model.types[*index];
            lines.push(Line::from(vec![
                Span::styled("type ", app.theme.dim()),
                Span::styled(type_def.name.clone(), heading),
            ]));
            describe(&mut lines, &type_def.description);
            let variables: Vec<&str> = app
                .ws
                .model
                .variables
                .iter()
                .filter(|v| v.sort == type_def.name)
                .map(|v| v.name.as_str())
                .collect();
            if variables.is_empty() {
                lines.push(Line::styled(
                    "No variable has this type (unused)",
                    app.theme.uncovered(),
                ));
            } else {
                lines.push(Line::from(vec![
                    Span::styled("Variables ", app.theme.dim()),
                    Span::styled(variables.join(", "), app.theme.text()),
                ]));
            }
            lines.push(Line::styled("Values", app.theme.dim()));
            for value in &type_def.values {
                let mentioned = app.ws.model.rules.iter().any(|r| {
                    r.expression
                        .split(|c: char| c == '(' || c == ')' || c.is_whitespace())
                        .any(|w| w == value.value)
                });
                let mut spans = vec![
                    Span::styled(
                        format!("  {}", value.value),
                        app.theme.syntax(crate::style::theme::Syntax::Value),
                    ),
                    Span::styled(format!("  {}", value.description), app.theme.text()),
                ];
                if !mentioned {
                    spans.push(Span::styled(
                        "  (no rule mentions it)",
                        app.theme.uncovered(),
                    ));
                }
                lines.push(Line::from(spans));
            }
        }
        None => lines.push(Line::styled(
            "Nothing matches the filter (f to change it, esc in the filter to clear)",
            app.theme.dim(),
        )),
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
}

/// How the variable reads in the rules' English: its forms, and whether
/// they were given or are the template's (e edits them).
fn reading_lines(app: &App, lines: &mut Vec<Line>, variable: &precept_engine::model::Variable) {
    let reading = app.ws.compiled.glossary.reading(&variable.name);
    let origin = match app
        .ws
        .compiled
        .glossary
        .readings
        .contains_key(&variable.name)
    {
        true => "given",
        false => "template; e edits it",
    };
    let forms: Vec<(&str, &str)> = match variable.sort.as_str() {
        "Bool" => vec![("Reads ", &reading.holds), ("Reads not ", &reading.negated)],
        _ => vec![("Reads ", &reading.noun)],
    };
    for (label, form) in forms {
        lines.push(Line::from(vec![
            Span::styled(label, app.theme.dim()),
            Span::styled(form.to_string(), app.theme.text()),
        ]));
    }
    lines.push(Line::styled(format!("  ({origin})"), app.theme.dim()));
}
