//! The natural-language tests on the tests screen: each with its last
//! outcome, and the selected one's question, answer, findings and what is
//! at fault when it fails.

use super::finding::finding_style;
use super::list::{ListView, fit, pane, render_rows};
use crate::state::app::{App, Pane};
use precept_engine::answer::Fault;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn render_list(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::AnswerTests;
    let (passed, failed) = crate::state::queries::answer_test_counts(app);
    let title = if app.answer_tests.running {
        format!(
            "Answers · running {}/{}",
            app.answer_tests.done, app.answer_tests.total
        )
    } else {
        format!("Answers · {passed} pass · {failed} fail · r runs")
    };
    let width = area.width.saturating_sub(10) as usize;
    if app.ws.tests.nl_tests.is_empty() {
        frame.render_widget(
            Paragraph::new("No natural-language tests: check an answer on the verify screen (ctrl-t) and save it (ctrl-s).")
                .wrap(Wrap { trim: true })
                .style(app.theme.dim())
                .block(pane(app, "Answers".into(), focused, area)),
            area,
        );
        return;
    }
    let view = ListView {
        cursor: app.answer_tests.cursor,
        len: app.ws.tests.nl_tests.len(),
        focused,
    };
    let block = pane(app, title, focused, area);
    render_rows(app, frame, area, block, view, |i| {
        let test = &app.ws.tests.nl_tests[i];
        let (mark, style) = match app.answer_tests.outcomes.get(&test.id) {
            None => ("·", app.theme.dim()),
            Some(o) if o.passed => ("✓", app.theme.pass()),
            Some(_) => ("✗", app.theme.fail()),
        };
        Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::styled(format!("{:<5}", test.id), app.theme.accent()),
            Span::styled(fit(test.label(), width), app.theme.text()),
        ])
    });
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let block = pane(app, "Answer test".into(), false, area);
    let Some(test) = app.ws.tests.nl_tests.get(app.answer_tests.cursor.selected) else {
        frame.render_widget(Paragraph::new("").block(block), area);
        return;
    };
    let mut lines = Vec::new();
    if !test.question.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("question ", app.theme.accent()),
            Span::raw(test.question.clone()),
        ]));
    }
    lines.push(Line::from(vec![
        Span::styled("answer   ", app.theme.accent()),
        Span::raw(test.answer.clone()),
    ]));
    lines.push(Line::from(vec![
        Span::styled("expected ", app.theme.accent()),
        Span::styled(test.expected.name(), finding_style(app, test.expected)),
    ]));
    match app.answer_tests.outcomes.get(&test.id) {
        None => lines.push(Line::styled(
            "not run yet: r on this pane runs the answer tests",
            app.theme.dim(),
        )),
        Some(outcome) => {
            if let Some(actual) = outcome.actual {
                lines.push(Line::from(vec![
                    Span::styled("actual   ", app.theme.accent()),
                    Span::styled(actual.name(), finding_style(app, actual)),
                    Span::styled(
                        if outcome.passed {
                            "  passes"
                        } else {
                            "  fails"
                        },
                        if outcome.passed {
                            app.theme.pass()
                        } else {
                            app.theme.fail()
                        },
                    ),
                ]));
            }
            // The finding's name never stands alone: its verdict follows.
            if let Some(report) = &outcome.report {
                lines.push(Line::styled(
                    report.verdict(&app.ws.compiled.glossary),
                    app.theme.text(),
                ));
            }
            if let Some(error) = &outcome.error {
                lines.push(Line::styled(format!("not run: {error}"), app.theme.error()));
            }
            if let Some(fault) = &outcome.fault {
                let (who, rules) = match fault {
                    Fault::Translation { .. } => ("the translation is at fault", String::new()),
                    Fault::Rules { rules, .. } => ("the rules are at fault", rules.join(", ")),
                    Fault::Solver { .. } => ("the solver could not decide", String::new()),
                };
                lines.push(Line::styled(
                    if rules.is_empty() {
                        who.to_string()
                    } else {
                        format!("{who}: {rules}")
                    },
                    app.theme.fail(),
                ));
                lines.push(Line::raw(fault.explanation().to_string()));
            }
            if let Some(report) = &outcome.report {
                for (i, pair) in report.pairs.iter().enumerate() {
                    lines.push(Line::styled(
                        format!(
                            "pair {}: {} (confidence {:.2})  {} ⇒ {}",
                            i + 1,
                            pair.finding.name(),
                            pair.confidence,
                            pair.premise,
                            pair.claim
                        ),
                        app.theme.dim(),
                    ));
                    if report.pairs.len() > 1 {
                        lines.push(Line::styled(
                            format!("  {}", pair.verdict(&app.ws.compiled.glossary)),
                            app.theme.dim(),
                        ));
                    }
                }
                if !report.feedback.is_empty() {
                    lines.push(Line::styled(report.feedback.clone(), app.theme.text()));
                }
            }
        }
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0))
            .block(block),
        area,
    );
}
