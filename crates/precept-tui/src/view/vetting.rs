//! The vetting screen: lint diagnostics with their explanation, rules,
//! scenario and suggested fix.

use super::list::{ListView, fit, pane, render_rows};
use crate::measure::text::wrap;
use crate::state::app::{App, Pane};
use precept_engine::lint::Severity;
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
    let counts = precept_engine::lint::LintCounts::of(&lint.diagnostics);
    let stale = if lint.basis.stale_since().is_some() && !lint.running {
        "STALE · "
    } else {
        ""
    };
    let title = format!("Lint · {stale}{}{state}", counts.brief());
    let width = area.width.saturating_sub(10) as usize;
    let groups = &lint.triage.groups;
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused, area),
        ListView {
            cursor: lint.cursor,
            len: lint.row_count(),
            focused,
        },
        |i| {
            let Some(group) = groups.get(i) else {
                return Line::styled(
                    fit(
                        &format!(
                            "  {} notes folded away · f shows them",
                            lint.triage.folded_notes
                        ),
                        width + 8,
                    ),
                    app.theme.dim(),
                );
            };
            let (mark, style) = severity_mark(app, group.severity);
            Line::from(vec![
                Span::styled(format!("{mark} "), style),
                Span::styled(format!("{} ", group.code.code()), app.theme.accent()),
                Span::styled(
                    fit(&format!("{} · {}", group.subject, group.code.name()), width),
                    app.theme.text(),
                ),
            ])
        },
    );
}

/// The rules a row names, each with its SMT-LIB; the one chosen (when the
/// rules have the keyboard) is marked, and enter goes to it.
fn rule_lines<'a>(app: &'a App, rules: &[String], width: usize) -> Vec<Line<'a>> {
    let choosing = app.focus == Pane::DiagnosticRules;
    let mut lines = vec![Line::styled(
        if choosing {
            "Rules · j/k choose · enter goes to the rule"
        } else if rules.len() > 1 {
            "Rules · tab to choose one"
        } else {
            "Rules"
        },
        app.theme.dim(),
    )];
    for (i, id) in rules.iter().enumerate() {
        let smt = app
            .ws
            .compiled
            .rule(id)
            .map(|r| r.written.to_string())
            .unwrap_or_default();
        let chosen = choosing && i == app.lint.rule_cursor.selected;
        let marker = if chosen { "▶ " } else { "  " };
        let id_style = if chosen {
            app.theme.selected()
        } else {
            app.theme.accent()
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{marker}{id:<5} "), id_style),
            Span::styled(fit(&smt, width.saturating_sub(8)), app.theme.text()),
        ]));
    }
    lines
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let block = pane(
        app,
        "Diagnostic · enter: go to rule · x: apply fix · L: lint again".into(),
        app.focus == Pane::DiagnosticRules,
        area,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width.saturating_sub(2) as usize;
    let members = app.lint.selected_members();
    let Some(group) = app.lint.selected_group() else {
        let text = if app.lint.running {
            "Linting… results appear as they are found.".to_string()
        } else if app.lint.triage.folded_notes > 0 && app.lint.triage.groups.is_empty() {
            format!(
                "No errors or warnings. {} notes are folded away: f shows them.",
                app.lint.triage.folded_notes
            )
        } else if app.lint.triage.folded_notes > 0 {
            format!(
                "{} notes (unused names, shared shapes, descriptions) are folded away: f or enter shows them.",
                app.lint.triage.folded_notes
            )
        } else if app.lint.ran {
            "No diagnostics: the model passes every check.".to_string()
        } else {
            "Press L to lint the model.".to_string()
        };
        frame.render_widget(
            Paragraph::new(text)
                .wrap(Wrap { trim: true })
                .style(app.theme.dim()),
            inner,
        );
        return;
    };
    let (mark, style) = severity_mark(app, group.severity);
    let mut lines = Vec::new();
    if let Some(edit) = app.lint.basis.stale_since()
        && !app.lint.running
    {
        let note = format!(
            "STALE since {edit}: the solver checks describe the model before it (L lints again; the L1xx checks are current)"
        );
        for text in wrap(&note, width) {
            lines.push(Line::styled(text, app.theme.pending()));
        }
    }
    let heading = if members.len() > 1 {
        format!("{} · {} of them", group.code.name(), members.len())
    } else {
        group.code.name().to_string()
    };
    lines.push(Line::from(vec![
        Span::styled(
            format!("{mark} {} ", group.code.code()),
            style.add_modifier(Modifier::BOLD),
        ),
        Span::styled(heading, app.theme.accent()),
    ]));
    // The rules come before the explanations: a group of many conflicts
    // explains itself at length, and the rule being chosen must stay in view.
    if !group.rules.is_empty() {
        lines.extend(rule_lines(app, &group.rules, width));
    }
    for diagnostic in &members {
        let bullet = if members.len() > 1 { "• " } else { "  " };
        for (n, text) in wrap(&diagnostic.message, width.saturating_sub(2))
            .into_iter()
            .enumerate()
        {
            let lead = if n == 0 { bullet } else { "  " };
            lines.push(Line::styled(format!("{lead}{text}"), app.theme.text()));
        }
    }
    let mut variables: Vec<&str> = Vec::new();
    for diagnostic in &members {
        for v in &diagnostic.variables {
            if !variables.contains(&v.as_str()) {
                variables.push(v);
            }
        }
    }
    if !variables.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("Variables ", app.theme.dim()),
            Span::styled(variables.join(", "), app.theme.text()),
        ]));
    }
    // The scenario a message points to ("the scenario shows when") is
    // shown, for a group its first member's, cut to the values of that
    // member's rules and variables.
    if let Some(diagnostic) = members.iter().find(|d| d.scenario.is_some())
        && let Some(scenario) = &diagnostic.scenario
    {
        let mut wanted: Vec<String> = diagnostic.variables.clone();
        for rule in &diagnostic.rules {
            wanted.extend(app.ws.graph.variables_of(rule));
        }
        let shown: Vec<_> = scenario
            .values
            .iter()
            .filter(|(name, _)| wanted.contains(name))
            .collect();
        let shown = if shown.is_empty() {
            scenario.values.iter().collect()
        } else {
            shown
        };
        let title = if members.len() > 1 {
            format!("Scenario (of {})", diagnostic.rules.join(" ↔ "))
        } else {
            "Scenario".to_string()
        };
        lines.push(Line::styled(title, app.theme.dim()));
        for (name, value) in shown {
            lines.push(Line::styled(
                format!("  {name:<24} {value}"),
                app.theme.text(),
            ));
        }
    }
    let fixes: Vec<&precept_engine::lint::Fix> = members
        .iter()
        .flat_map(|d| d.fix.iter().chain(d.alternatives.iter()))
        .collect();
    if let Some((first, others)) = fixes.split_first() {
        let label = if others.is_empty() {
            "Fix (x) "
        } else {
            "Fixes (x chooses) "
        };
        lines.push(Line::from(vec![
            Span::styled(label, app.theme.pass()),
            Span::styled(first.description.clone(), app.theme.text()),
        ]));
        for other in others {
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
    let title = match (app.coverage.running, app.coverage.basis.stale_since()) {
        (true, None) => "Coverage · measuring…".to_string(),
        (_, Some(edit)) if app.coverage.coverage.is_some() || app.coverage.running => {
            format!("Coverage · STALE since {edit}: C to measure again")
        }
        _ => "Coverage · C to measure".to_string(),
    };
    let block = pane(app, title, false, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let (Some(coverage), Some(mutation)) = (&app.coverage.coverage, &app.coverage.mutation) else {
        frame.render_widget(Paragraph::new("Press C: which rules the tests exercise (with the condition true and false), and how many rule mutants the tests catch.").wrap(Wrap { trim: true }).style(app.theme.dim()), inner);
        return;
    };
    let totals = &coverage.totals;
    let percent = precept_engine::testgen::report_text::percent_text;
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
pub fn render_fix_choice(app: &App, frame: &mut Frame, choice: &crate::state::app::FixChoice) {
    let size = (frame.area().width, frame.area().height);
    let area = crate::measure::layout::overlay(size, 90, 14);
    frame.render_widget(ratatui::widgets::Clear, area);
    let block = super::list::pane(app, "Choose a fix".into(), true, area);
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
    let area = crate::measure::layout::overlay(size, 70, 12);
    frame.render_widget(ratatui::widgets::Clear, area);
    let block = super::list::pane(app, "Accept a conflict as expected?".into(), true, area);
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
