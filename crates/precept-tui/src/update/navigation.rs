//! Moving around: screens, panes, list selections, jumps, mouse.

use crate::measure::layout::{areas, inner_height};
use crate::state::app::{App, Pane, Screen};
use crate::state::msg::Effect;

/// Rows the evidence list of the tests screen shows at once.
pub const EVIDENCE_ROWS: usize = 5;

pub fn show_screen(app: &mut App, screen: Screen) {
    app.screen = screen;
    app.detail_scroll = 0;
    app.focus = match screen {
        Screen::Rules => Pane::Rules,
        Screen::Variables => Pane::Variables,
        Screen::Tests => Pane::Tests,
        Screen::Verify => Pane::VerifyInput,
        Screen::Vetting => Pane::Diagnostics,
        Screen::Formalize => Pane::FormalizeSpans,
        Screen::Probe => Pane::ProbeRun,
    };
    rescroll(app);
}

fn panes(screen: Screen) -> &'static [Pane] {
    match screen {
        Screen::Rules => &[Pane::Document, Pane::Rules],
        Screen::Variables => &[Pane::Variables],
        Screen::Tests => &[Pane::Tests, Pane::Evidence, Pane::AnswerTests],
        Screen::Verify => &[Pane::VerifyInput, Pane::VerifyResult],
        Screen::Vetting => &[Pane::Diagnostics, Pane::DiagnosticRules],
        Screen::Formalize => &[Pane::FormalizeSpans, Pane::Clusters],
        Screen::Probe => &[Pane::ProbeRun, Pane::ProbeFailure],
    }
}

pub fn cycle_pane(app: &mut App, step: isize) {
    let panes = panes(app.screen);
    let at = panes.iter().position(|p| *p == app.focus).unwrap_or(0) as isize;
    app.focus = panes[(at + step).rem_euclid(panes.len() as isize) as usize];
}

/// Rows of the formalize screen's span list: the running spans, else the record's.
pub fn formalize_span_count(app: &App) -> usize {
    match (&app.formalization.run, &app.formalization.record) {
        (Some(run), _) => run.progress.len(),
        (None, Some(record)) => record.spans.len(),
        (None, None) => 0,
    }
}

fn evidence_len(app: &App) -> usize {
    app.selected_test()
        .and_then(|t| match app.test_state(&t.id) {
            crate::state::app::TestState::Done(outcome) => {
                outcome.finding.as_ref().map(|f| f.rules().len())
            }
            _ => None,
        })
        .unwrap_or(0)
}

/// (length, viewport height) of the focused list.
fn focused_list(app: &App) -> (usize, usize) {
    let layout = areas(app.screen, app.size);
    match app.focus {
        Pane::Document => (app.ws.spans.len(), inner_height(layout.document)),
        Pane::Rules => (app.ws.model.rules.len(), inner_height(layout.list)),
        Pane::Variables => (app.variable_rows().len(), inner_height(layout.list)),
        Pane::Tests => (app.ws.tests.tests.len(), inner_height(layout.list)),
        Pane::Evidence => (evidence_len(app), EVIDENCE_ROWS),
        Pane::Diagnostics => (app.lint.row_count(), inner_height(layout.list)),
        Pane::DiagnosticRules => (
            app.lint.selected_group().map_or(0, |g| g.rules.len()),
            inner_height(layout.detail),
        ),
        Pane::FormalizeSpans => (formalize_span_count(app), inner_height(layout.list)),
        Pane::AnswerTests => (app.ws.tests.nl_tests.len(), inner_height(layout.nl_tests)),
        Pane::Clusters => (
            app.formalization.record.as_ref().map_or(0, |r| {
                crate::state::formalization::cluster_rows(
                    &r.clusters,
                    app.formalization.proposals.len(),
                )
                .len()
            }),
            inner_height(layout.clusters),
        ),
        Pane::VerifyInput | Pane::VerifyResult | Pane::ProbeRun | Pane::ProbeFailure => (0, 1),
    }
}

pub fn move_selection(app: &mut App, delta: isize) {
    let (len, height) = focused_list(app);
    if !matches!(
        app.focus,
        Pane::Evidence | Pane::VerifyResult | Pane::ProbeFailure
    ) {
        app.detail_scroll = 0;
    }
    match app.focus {
        Pane::Document => {
            super::document::step(app, delta);
            follow_span(app);
        }
        Pane::Rules => {
            app.cursors.rule.step(delta, len, height);
            follow_rule(app);
        }
        Pane::Variables => app.cursors.variable.step(delta, len, height),
        Pane::Tests => {
            app.cursors.test.step(delta, len, height);
            app.cursors.evidence = Default::default();
        }
        Pane::Evidence => app.cursors.evidence.step(delta, len, height),
        Pane::Diagnostics => {
            app.lint.cursor.step(delta, len, height);
            app.lint.rule_cursor = Default::default();
        }
        Pane::DiagnosticRules => app.lint.rule_cursor.step(delta, len, height),
        Pane::FormalizeSpans => app.formalization.span_cursor.step(delta, len, height),
        Pane::AnswerTests => app.answer_tests.cursor.step(delta, len, height),
        Pane::Clusters => app.formalization.cluster_cursor.step(delta, len, height),
        Pane::ProbeRun => super::probe_screen::choose_target(app, delta),
        Pane::ProbeFailure => scroll_detail(app, delta),
        Pane::VerifyInput | Pane::VerifyResult => {}
    }
}

pub fn page(app: &mut App, direction: isize) {
    if matches!(
        app.focus,
        Pane::Evidence | Pane::VerifyResult | Pane::ProbeFailure
    ) {
        let half = (inner_height(areas(app.screen, app.size).detail) / 2).max(1) as isize;
        scroll_detail(app, direction * half);
        return;
    }
    let (_, height) = focused_list(app);
    move_selection(app, direction * height.max(1) as isize);
}

/// The document follows the selected rule: its span is selected and shown
/// whole, although spans wrap over several rows (unless the document lists
/// only uncovered spans, which the rule's span is not).
pub fn follow_rule(app: &mut App) {
    let Some(span) = app.selected_rule().and_then(|r| app.ws.span_of_rule(r)) else {
        return;
    };
    if app.document_pane.uncovered_only {
        return;
    }
    super::document::select(app, span);
}

/// The rules list follows the selected span: its first rule is selected.
pub(super) fn follow_span(app: &mut App) {
    let span = app.cursors.span.selected;
    if let Some(index) = app
        .ws
        .model
        .rules
        .iter()
        .position(|r| app.ws.span_of_rule(r) == Some(span))
    {
        let height = inner_height(areas(Screen::Rules, app.size).list);
        app.cursors
            .rule
            .select(index, app.ws.model.rules.len(), height);
    }
}

/// Keeps every selection visible after a resize or a change of lists.
pub fn rescroll(app: &mut App) {
    let rules = areas(Screen::Rules, app.size);
    let tests = areas(Screen::Tests, app.size);
    let variables = areas(Screen::Variables, app.size);
    let (spans, rule_count, test_count, variable_count) = (
        app.ws.spans.len(),
        app.ws.model.rules.len(),
        app.ws.tests.tests.len(),
        app.variable_rows().len(),
    );
    // Spans wrap over several rows: the document scrolls by rows, not items.
    app.cursors.span.selected = app.cursors.span.selected.min(spans.saturating_sub(1));
    app.cursors
        .rule
        .step(0, rule_count, inner_height(rules.list));
    app.cursors
        .test
        .step(0, test_count, inner_height(tests.list));
    app.cursors
        .variable
        .step(0, variable_count, inner_height(variables.list));
    super::document::scroll_to_selection(app);
}

/// Selects a rule by id and shows it on the rules screen with its span.
pub fn jump_to_rule(app: &mut App, id: &str) {
    let Some(index) = app.ws.model.rules.iter().position(|r| r.id == id) else {
        app.status.last_error = Some(format!("rule {id} no longer exists"));
        return;
    };
    show_screen(app, Screen::Rules);
    let height = inner_height(areas(Screen::Rules, app.size).list);
    app.cursors
        .rule
        .select(index, app.ws.model.rules.len(), height);
    // A jump shows the rule's span, so the document lists every span.
    app.document_pane.uncovered_only = false;
    follow_rule(app);
}

pub fn jump_to_test(app: &mut App, index: usize) {
    show_screen(app, Screen::Tests);
    let height = inner_height(areas(Screen::Tests, app.size).list);
    app.cursors
        .test
        .select(index, app.ws.tests.tests.len(), height);
    app.cursors.evidence = Default::default();
}

pub fn jump_to_variable_row(app: &mut App, row: usize) {
    show_screen(app, Screen::Variables);
    let height = inner_height(areas(Screen::Variables, app.size).list);
    let len = app.variable_rows().len();
    app.cursors.variable.select(row, len, height);
}

/// Enter: follow the selection somewhere useful.
pub fn open(app: &mut App) -> Vec<Effect> {
    match app.focus {
        Pane::Document => {
            follow_span(app);
            app.focus = Pane::Rules;
        }
        Pane::Rules => {
            follow_rule(app);
            app.focus = Pane::Document;
        }
        Pane::Tests => app.focus = Pane::Evidence,
        Pane::Evidence => {
            let id = app
                .selected_test()
                .and_then(|t| match app.test_state(&t.id) {
                    crate::state::app::TestState::Done(outcome) => outcome
                        .finding
                        .as_ref()
                        .and_then(|f| f.rules().get(app.cursors.evidence.selected).cloned()),
                    _ => None,
                });
            if let Some(id) = id {
                jump_to_rule(app, &id);
            }
        }
        Pane::Variables => {
            let rows = app.variable_rows();
            if let Some(crate::state::app::VariableRow::Variable(i)) =
                rows.get(app.cursors.variable.selected)
            {
                let name = app.ws.model.variables[*i].name.clone();
                match app.ws.graph.rules_using(&name).first() {
                    Some(id) => {
                        let id = id.clone();
                        jump_to_rule(app, &id);
                    }
                    None => app.status.message = Some(format!("{name} is used by no rule")),
                }
            }
        }
        Pane::VerifyResult => return super::runs::run_verify(app),
        Pane::ProbeRun => app.focus = Pane::ProbeFailure,
        Pane::ProbeFailure => {}
        Pane::Diagnostics | Pane::DiagnosticRules => {
            let Some(group) = app.lint.selected_group() else {
                if app.lint.triage.folded_notes > 0 {
                    return super::lint_rows::toggle_notes(app);
                }
                return Vec::new();
            };
            let chosen = if app.focus == Pane::DiagnosticRules {
                app.lint.rule_cursor.selected
            } else {
                0
            };
            let others: Vec<String> = group.rules.iter().skip(1).cloned().collect();
            match group.rules.get(chosen).cloned() {
                Some(id) => {
                    jump_to_rule(app, &id);
                    if chosen == 0 && !others.is_empty() {
                        app.status.message = Some(format!(
                            "at {id}; its diagnostic also names {}: tab, then j/k and enter, goes to another",
                            others.join(", ")
                        ));
                    }
                }
                None => app.status.message = Some("this diagnostic names no rule".into()),
            }
        }
        Pane::FormalizeSpans => {
            let rule = app.formalization.record.as_ref().and_then(|record| {
                let span = record.spans.get(app.formalization.span_cursor.selected)?;
                record
                    .rules
                    .iter()
                    .find(|o| o.sources.iter().any(|s| s.span == span.task.id))
                    .map(|o| o.rule.clone())
            });
            match rule {
                Some(id) => jump_to_rule(app, &id),
                None => app.status.message = Some("no rule came from this span".into()),
            }
        }
        Pane::VerifyInput | Pane::Clusters | Pane::AnswerTests => {}
    }
    Vec::new()
}

pub fn next_failing(app: &mut App, direction: isize) {
    let failing = app.failing_tests();
    if failing.is_empty() {
        app.status.message = Some("no failing tests".into());
        return;
    }
    let current = if app.screen == Screen::Tests {
        app.cursors.test.selected as isize
    } else {
        -1
    };
    let next = if direction > 0 {
        failing
            .iter()
            .copied()
            .find(|&i| i as isize > current)
            .unwrap_or(failing[0])
    } else {
        failing
            .iter()
            .rev()
            .copied()
            .find(|&i| (i as isize) < current)
            .unwrap_or(failing[failing.len() - 1])
    };
    jump_to_test(app, next);
    let position = failing.iter().position(|&i| i == next).unwrap_or(0) + 1;
    app.status.message = Some(format!("failing test {position} of {}", failing.len()));
}

/// `J`: the next test the last run flipped, in the order they flipped.
pub fn next_flipped(app: &mut App) {
    let flipped: Vec<usize> = app
        .ws
        .run
        .flips
        .iter()
        .filter_map(|f| app.ws.tests.tests.iter().position(|t| t.id == f.test_id))
        .collect();
    if flipped.is_empty() {
        app.status.message = Some("the last run flipped no test".into());
        return;
    }
    let current = (app.screen == Screen::Tests)
        .then(|| flipped.iter().position(|&i| i == app.cursors.test.selected))
        .flatten();
    let position = current.map_or(0, |p| (p + 1) % flipped.len());
    jump_to_test(app, flipped[position]);
    let flip = &app.ws.run.flips[position];
    let how = if flip.now_passes {
        "failed→passed"
    } else {
        "passed→failed"
    };
    let by = app
        .ws
        .run
        .finding_changes
        .get(&flip.test_id)
        .map(|c| format!(" by {}", c.edit))
        .unwrap_or_default();
    app.status.message = Some(format!(
        "flipped test {} of {}: {} {how}{by}",
        position + 1,
        flipped.len(),
        flip.test_id
    ));
}

fn contains(area: ratatui::layout::Rect, column: u16, row: u16) -> bool {
    column >= area.x && column < area.x + area.width && row >= area.y && row < area.y + area.height
}

/// The pane under the mouse.
fn pane_at(app: &App, column: u16, row: u16) -> Option<Pane> {
    let layout = areas(app.screen, app.size);
    if contains(layout.document, column, row) && app.screen == Screen::Rules {
        return Some(Pane::Document);
    }
    if contains(layout.list, column, row) {
        return Some(match app.screen {
            Screen::Rules => Pane::Rules,
            Screen::Variables => Pane::Variables,
            Screen::Tests => Pane::Tests,
            Screen::Vetting => Pane::Diagnostics,
            Screen::Formalize => Pane::FormalizeSpans,
            Screen::Probe => Pane::ProbeRun,
            Screen::Verify => return None,
        });
    }
    if contains(layout.clusters, column, row) && app.screen == Screen::Formalize {
        return Some(Pane::Clusters);
    }
    if contains(layout.nl_tests, column, row) && app.screen == Screen::Tests {
        return Some(Pane::AnswerTests);
    }
    if contains(layout.inputs, column, row) {
        return Some(Pane::VerifyInput);
    }
    None
}

/// Scrolls the detail pane (long scenarios, long rules).
pub fn scroll_detail(app: &mut App, delta: isize) {
    app.detail_scroll = (app.detail_scroll as isize + delta).clamp(0, u16::MAX as isize) as u16;
}

pub fn scroll_at(app: &mut App, column: u16, row: u16, delta: isize) {
    if contains(areas(app.screen, app.size).detail, column, row) {
        scroll_detail(app, delta);
        return;
    }
    if let Some(pane) = pane_at(app, column, row) {
        app.focus = pane;
        move_selection(app, delta);
    }
}

pub fn click(app: &mut App, column: u16, row: u16) {
    let layout = areas(app.screen, app.size);
    if row == layout.tabs.y {
        // The tab bar: " 1 Rules  2 Variables  3 Tests  4 Verify "
        let mut x = 0u16;
        for screen in Screen::ALL {
            let width = screen.title().len() as u16 + 4;
            if column >= x && column < x + width {
                show_screen(app, screen);
                return;
            }
            // Tabs are drawn with two spaces between them.
            x += width + 2;
        }
        return;
    }
    let Some(pane) = pane_at(app, column, row) else {
        return;
    };
    app.focus = pane;
    let area = match pane {
        Pane::Document => layout.document,
        Pane::VerifyInput => {
            app.verify.field = if row >= layout.inputs.y + 3 { 1 } else { 0 };
            return;
        }
        _ => layout.list,
    };
    if row <= area.y || row >= area.y + area.height.saturating_sub(1) {
        return;
    }
    let offset = match pane {
        Pane::Document => app.cursors.span.offset,
        Pane::Rules => app.cursors.rule.offset,
        Pane::Variables => app.cursors.variable.offset,
        Pane::Tests => app.cursors.test.offset,
        Pane::Diagnostics => app.lint.cursor.offset,
        _ => 0,
    };
    let target = offset + (row - area.y - 1) as usize;
    let current = match pane {
        Pane::Document => app.cursors.span.selected,
        Pane::Rules => app.cursors.rule.selected,
        Pane::Variables => app.cursors.variable.selected,
        Pane::Tests => app.cursors.test.selected,
        Pane::Diagnostics => app.lint.cursor.selected,
        _ => 0,
    };
    // The document pane wraps spans over several rows.
    if pane == Pane::Document {
        if let Some(index) = super::document::span_at_row(app, (row - area.y - 1) as usize) {
            app.detail_scroll = 0;
            super::document::select(app, index);
            follow_span(app);
        }
        return;
    }
    move_selection(app, target as isize - current as isize);
}
