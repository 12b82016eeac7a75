//! The vetting screen: lint diagnostics with their explanation, rules,
//! scenario and suggested fix.

use super::list::{ListView, fit, pane, render_rows};
use crate::core::lint::Severity;
use crate::tui::measure::text::wrap;
use crate::tui::state::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

fn severity_mark(app: &App, severity: Severity) -> (&'static str, ratatui::style::Style) {
    match severity {
        Severity::Error => ("✗", app.theme.fail()),
        Severity::Warning => ("!", app.theme.pending()),
        Severity::Info => ("·", app.theme.dim()),
    }
}

pub fn render_list(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Diagnostics;
    let lint = &app.lint;
    let state = match (lint.running, lint.progress) {
        (true, Some((done, total, stage))) => format!(" · {stage} {done}/{total}"),
        (true, None) => " · running".into(),
        _ => String::new(),
    };
    let counts = crate::core::lint::LintCounts::of(&lint.diagnostics);
    let title = format!("Lint · {} found: {counts}{state}", counts.total());
    let width = area.width.saturating_sub(12) as usize;
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused),
        ListView {
            cursor: lint.cursor,
            len: lint.diagnostics.len(),
            focused,
        },
        |i| {
            let diagnostic = &lint.diagnostics[i];
            let (mark, style) = severity_mark(app, diagnostic.severity);
            let subject = diagnostic
                .rules
                .first()
                .or(diagnostic.variables.first())
                .cloned()
                .unwrap_or_default();
            Line::from(vec![
                Span::styled(format!("{mark} "), style),
                Span::styled(format!("{} ", diagnostic.code.code()), app.theme.accent()),
                Span::styled(
                    fit(&format!("{} {subject}", diagnostic.name), width),
                    app.theme.text(),
                ),
            ])
        },
    );
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let block = pane(
        app,
        "Diagnostic · enter: go to rule · x: apply fix · L: lint again".into(),
        false,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width.saturating_sub(2) as usize;
    let Some(diagnostic) = app.lint.diagnostics.get(app.lint.cursor.selected) else {
        let text = if app.lint.running {
            "Linting… results appear as they are found."
        } else if app.lint.ran {
            "No diagnostics: the model passes every check."
        } else {
            "Press L to lint the model."
        };
        frame.render_widget(Paragraph::new(text).style(app.theme.dim()), inner);
        return;
    };
    let (mark, style) = severity_mark(app, diagnostic.severity);
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("{mark} {} ", diagnostic.code.code()),
            style.add_modifier(Modifier::BOLD),
        ),
        Span::styled(diagnostic.name, app.theme.accent()),
    ])];
    for text in wrap(&diagnostic.message, width) {
        lines.push(Line::styled(format!("  {text}"), app.theme.text()));
    }
    if !diagnostic.rules.is_empty() {
        lines.push(Line::styled("Rules", app.theme.dim()));
        for id in &diagnostic.rules {
            let smt = app
                .compiled
                .rule(id)
                .map(|r| r.written.to_string())
                .unwrap_or_default();
            lines.push(Line::from(vec![
                Span::styled(format!("  {id:<5} "), app.theme.accent()),
                Span::styled(fit(&smt, width.saturating_sub(7)), app.theme.text()),
            ]));
        }
    }
    if !diagnostic.variables.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("Variables ", app.theme.dim()),
            Span::styled(diagnostic.variables.join(", "), app.theme.text()),
        ]));
    }
    if let Some(scenario) = &diagnostic.scenario {
        lines.push(Line::styled("Scenario", app.theme.dim()));
        for (name, value) in &scenario.values {
            lines.push(Line::styled(
                format!("  {name:<24} {value}"),
                app.theme.text(),
            ));
        }
    }
    if let Some(fix) = &diagnostic.fix {
        let label = if diagnostic.alternatives.is_empty() {
            "Fix (x) "
        } else {
            "Fixes (x chooses) "
        };
        lines.push(Line::from(vec![
            Span::styled(label, app.theme.pass()),
            Span::styled(fix.description.clone(), app.theme.text()),
        ]));
        for other in &diagnostic.alternatives {
            lines.push(Line::from(vec![
                Span::styled("    or ", app.theme.dim()),
                Span::styled(other.description.clone(), app.theme.text()),
            ]));
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        inner,
    );
}

pub fn render_coverage(app: &App, frame: &mut Frame, area: Rect) {
    let title = if app.coverage.running {
        "Coverage · measuring…".to_string()
    } else {
        "Coverage · C to measure".to_string()
    };
    let block = pane(app, title, false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let (Some(coverage), Some(mutation)) = (&app.coverage.coverage, &app.coverage.mutation) else {
        frame.render_widget(Paragraph::new("Press C: which rules the tests exercise (with the condition true and false), and how many rule mutants the tests catch.").wrap(Wrap { trim: true }).style(app.theme.dim()), inner);
        return;
    };
    let totals = &coverage.totals;
    let percent = crate::core::testgen::report_text::percent_text;
    let mut lines = vec![
        Line::from(vec![
            Span::styled("Rules covered both ways ", app.theme.dim()),
            Span::styled(
                format!(
                    "{}/{} ({})",
                    totals.covered,
                    totals.rules,
                    percent(totals.covered_percent)
                ),
                app.theme.text(),
            ),
        ]),
        Line::from(vec![
            Span::styled("Mutation score ", app.theme.dim()),
            Span::styled(mutation.summary.clone(), app.theme.text()),
        ]),
    ];
    if !coverage.untouched.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("No test touches ", app.theme.uncovered()),
            Span::styled(coverage.untouched.join(", "), app.theme.text()),
        ]));
    }
    let half: Vec<String> = coverage
        .rules
        .iter()
        .filter(|r| r.touched && !r.covered())
        .map(|r| r.id.clone())
        .collect();
    if !half.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("Condition not tested both ways ", app.theme.pending()),
            Span::styled(half.join(", "), app.theme.text()),
        ]));
    }
    let survivors: Vec<_> = mutation.survivors().filter(|r| !r.equivalent).collect();
    if !survivors.is_empty() {
        lines.push(Line::styled(
            "Surviving mutants: where the tests are weak",
            app.theme.dim(),
        ));
        for survivor in survivors {
            lines.push(Line::styled(
                fit(
                    &format!("  {} {}", survivor.mutant.rule, survivor.mutant.description),
                    width,
                ),
                app.theme.text(),
            ));
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((0, 0)),
        inner,
    );
}

/// The fixes of one diagnostic to choose from, each with the tests it would
/// flip (`x` on a conflicting overlap: either rule can be the exception).
pub fn render_fix_choice(app: &App, frame: &mut Frame, choice: &crate::tui::state::app::FixChoice) {
    let size = (frame.area().width, frame.area().height);
    let area = crate::tui::measure::layout::overlay(size, 90, 14);
    frame.render_widget(ratatui::widgets::Clear, area);
    let block = super::list::pane(app, "Choose a fix".into(), true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let mut lines = vec![
        Line::styled(fit(&choice.title, width), app.theme.dim()),
        Line::raw(""),
    ];
    for (i, fix) in choice.fixes.iter().enumerate() {
        let style = if i == choice.selected {
            app.theme.selected()
        } else {
            app.theme.text()
        };
        let marker = if i == choice.selected { "▶" } else { " " };
        lines.push(Line::styled(
            fit(&format!("{marker} {} {}", i + 1, fix.description), width),
            style,
        ));
        lines.push(super::repair::flips_line(app, &choice.flips[i]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "j/k or 1-9 choose · enter apply (undo with u) · esc close",
        app.theme.dim(),
    ));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Before accepting a test proved IMPOSSIBLE: what accepting it means.
pub fn render_accept_impossible(app: &App, frame: &mut Frame, warning: &str) {
    let size = (frame.area().width, frame.area().height);
    let area = crate::tui::measure::layout::overlay(size, 70, 12);
    frame.render_widget(ratatui::widgets::Clear, area);
    let block = super::list::pane(app, "Accept a conflict as expected?".into(), true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines = vec![
        Line::styled(warning.to_string(), app.theme.text()),
        Line::raw(""),
        Line::styled(
            "y accept anyway (undo with u) · any other key: cancel",
            app.theme.dim(),
        ),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}
