//! The tests list with live results, and the selected test: premise and
//! claim as SMT-LIB and English, expected and actual findings, evidence.

use super::finding::{finding_style, lines as finding_lines};
use super::list::{ListView, fit, pane, render_rows};
use crate::measure::text::wrap;
use crate::state::app::{App, Pane, TestState};
use precept_engine::model::TestStatus;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

fn spinner(tick: u64) -> &'static str {
    ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][(tick % 10) as usize]
}

pub fn render_list(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Tests;
    let (passed, failed, waiting) = app.counts();
    let mut title = format!("Tests · {passed} pass · {failed} fail");
    if waiting > 0 {
        title.push_str(&format!(" · {waiting} waiting"));
    }
    let proposed = app.proposed_count();
    if proposed > 0 {
        title.push_str(&format!(" · {proposed} proposed, not counted"));
    }
    let width = area.width.saturating_sub(10) as usize;
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused, area),
        ListView {
            cursor: app.cursors.test,
            len: app.ws.tests.tests.len(),
            focused,
        },
        |i| {
            let test = &app.ws.tests.tests[i];
            let (mark, style) = match app.test_state(&test.id) {
                TestState::NotRun => ("·", app.theme.dim()),
                TestState::Running => (spinner(app.tick), app.theme.pending()),
                TestState::Done(outcome) if outcome.passed => ("✓", app.theme.pass()),
                TestState::Done(_) => ("✗", app.theme.fail()),
            };
            let flip = app
                .ws
                .run
                .flips
                .iter()
                .find(|f| f.test_id == test.id)
                .map(|f| if f.now_passes { "↑" } else { "↓" })
                .unwrap_or(" ");
            let mut spans = vec![
                Span::styled(mark.to_string(), style),
                Span::styled(flip, app.theme.emphasis()),
                Span::styled(format!("{:<4} ", test.id), app.theme.accent()),
            ];
            let (origin, origin_style) = match test.status {
                TestStatus::Manual => ("", app.theme.dim()),
                TestStatus::Proposed => ("proposed ", app.theme.pending()),
                TestStatus::Accepted => ("accepted ", app.theme.dim()),
                TestStatus::Rejected => ("rejected ", app.theme.fail()),
            };
            if !origin.is_empty() {
                spans.push(Span::styled(origin, origin_style));
            }
            spans.push(Span::styled(
                fit(test.label(), width.saturating_sub(origin.len())),
                app.theme.text(),
            ));
            Line::from(spans)
        },
    );
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Evidence;
    let block = pane(app, "Test".into(), focused, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(test) = app.selected_test() else {
        frame.render_widget(
            Paragraph::new(
                "No tests yet: press a to add one, or ask on the Verify screen (4) and save.",
            )
            .style(app.theme.dim()),
            inner,
        );
        return;
    };
    let width = inner.width as usize;
    let heading = app.theme.accent().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::from(vec![
        Span::styled(format!("{} ", test.id), heading),
        Span::styled(test.label().to_string(), app.theme.text()),
    ])];
    for (label, text) in [("Premise", &test.premise), ("Claim", &test.claim)] {
        lines.push(Line::styled(label, app.theme.dim()));
        let mut line = app.highlighter.line(text, &app.theme);
        line.spans.insert(0, ratatui::text::Span::raw("  "));
        lines.push(Line::from(
            line.spans
                .into_iter()
                .map(|s| Span::styled(s.content.into_owned(), s.style))
                .collect::<Vec<_>>(),
        ));
        if let Ok((written, _)) = app.ws.compiled.check_formula(text) {
            for wrapped in wrap(
                &app.ws.compiled.glossary.sentence(&written),
                width.saturating_sub(2),
            ) {
                lines.push(Line::styled(format!("  {wrapped}"), app.theme.dim()));
            }
        }
    }
    let expected = Span::styled(
        test.expected.name(),
        app.theme.text().add_modifier(Modifier::BOLD),
    );
    match app.test_state(&test.id) {
        TestState::NotRun => lines.push(Line::from(vec![
            Span::styled("Expected ", app.theme.dim()),
            expected,
            Span::styled(" · not run yet", app.theme.dim()),
        ])),
        TestState::Running => lines.push(Line::from(vec![
            Span::styled("Expected ", app.theme.dim()),
            expected,
            Span::styled(
                format!(" · {} running", spinner(app.tick)),
                app.theme.pending(),
            ),
        ])),
        TestState::Done(outcome) => {
            let verdict = if outcome.passed {
                Span::styled(" ✓ pass", app.theme.pass())
            } else {
                Span::styled(" ✗ fail", app.theme.fail())
            };
            match (&outcome.finding, &outcome.error) {
                (Some(finding), _) => {
                    lines.push(Line::from(vec![
                        Span::styled("Expected ", app.theme.dim()),
                        expected,
                        Span::styled(" · actual ", app.theme.dim()),
                        Span::styled(finding.kind.name(), finding_style(app, finding.kind)),
                        verdict,
                    ]));
                    // A generated test's explanation was written from the
                    // finding proved then; once the rules say otherwise it
                    // must not read as current.
                    if let Some(proved) = test.proved.filter(|p| *p != finding.kind) {
                        lines.push(Line::styled(
                            format!(
                                "The model has changed since this test was generated: the solver proved {proved} then, so its explanation below describes the earlier rules"
                            ),
                            app.theme.pending(),
                        ));
                    }
                    if let Some(change) = app.ws.run.finding_changes.get(&test.id) {
                        lines.push(Line::styled(
                            format!(
                                "Finding changed from {} to {} by: {}",
                                change.from.name(),
                                change.to.name(),
                                change.edit
                            ),
                            app.theme.emphasis(),
                        ));
                    }
                    let selected = focused.then_some(app.cursors.evidence.selected);
                    lines.extend(finding_lines(app, finding, selected, width));
                }
                (None, error) => {
                    lines.push(Line::from(vec![
                        Span::styled("Expected ", app.theme.dim()),
                        expected,
                        verdict,
                    ]));
                    lines.push(Line::styled(
                        format!("does not run: {}", error.as_deref().unwrap_or("unknown")),
                        app.theme.error(),
                    ));
                }
            }
        }
    }
    if let Some(proved) = test.proved {
        let status = match test.status {
            TestStatus::Proposed => "proposed (y accepts, R rejects)",
            TestStatus::Accepted => "accepted",
            TestStatus::Rejected => "rejected by the expert",
            TestStatus::Manual => "written by hand",
        };
        lines.push(Line::styled(
            format!("Generated · {status} · the solver proved {proved}"),
            app.theme.dim(),
        ));
        if !test.rationale.is_empty() {
            // Written from the finding shown above when the solver still
            // proves what it proved then (perhaps through other rules).
            let why = match app.test_state(&test.id) {
                TestState::Done(outcome) => match &outcome.finding {
                    Some(finding) if finding.kind == proved => {
                        precept_engine::testgen::generate::explanation_of_current(
                            finding,
                            &test.rationale,
                        )
                    }
                    _ => test.rationale.clone(),
                },
                _ => test.rationale.clone(),
            };
            lines.push(Line::styled(format!("  why: {why}"), app.theme.dim()));
        }
    }
    if !test.note.is_empty() {
        lines.push(Line::styled(
            format!("Note: {}", test.note),
            app.theme.dim(),
        ));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        inner,
    );
}
