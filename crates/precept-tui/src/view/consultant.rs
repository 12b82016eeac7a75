//! The verify screen's consultant mode: the inputs with the facts set on
//! them, and what the facts force (✓ with the rule that forced each), the
//! open inputs (the irrelevant ones greyed) and the questions worth asking.

use super::list::{ListView, fit, pane, render_rows};
use crate::measure::text::wrap;
use crate::state::app::App;
use crate::state::consultant::{Consultant, ConsultantFocus, ValueEntry, WORKING_AFTER_TICKS};
use precept_engine::model::verdict::verdict;
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn render(app: &App, frame: &mut Frame, inputs: Rect, detail: Rect) {
    let body = inputs.union(detail);
    let columns = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(40), Constraint::Percentage(60)])
        .split(body);
    let consultant = &app.verify.consultant;
    render_inputs(app, frame, columns[0], consultant);
    render_consequences(app, frame, columns[1], consultant);
    if let Some(entry) = &consultant.entry {
        render_entry(app, frame, columns[0], entry);
    }
}

fn render_inputs(app: &App, frame: &mut Frame, area: Rect, consultant: &Consultant) {
    let focused = consultant.focus == ConsultantFocus::Inputs;
    let title =
        "Consultant · enter set · d remove · ctrl-s save as test · ctrl-o logic".to_string();
    let width = area.width.saturating_sub(2) as usize;
    let forced = consultant.explanation.as_ref().map(|e| &e.propagation);
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused, area),
        ListView {
            cursor: consultant.input_cursor,
            len: consultant.variables.len(),
            focused,
        },
        |i| {
            let name = &consultant.variables[i];
            let derived = consultant.is_derived(name);
            let (text, style) = match consultant.fact_of(name) {
                Some(fact) if derived => (
                    format!("◆ {name} = {}  assumed: the rules must agree", fact.value),
                    app.theme.pending(),
                ),
                Some(fact) => (format!("● {name} = {}", fact.value), app.theme.text()),
                None => match forced.and_then(|p| p.value_of(name)) {
                    Some(value) => (format!("✓ {name} = {value}"), app.theme.pass()),
                    None if derived => (format!("  {name} (a rule decides it)"), app.theme.dim()),
                    None => (format!("  {name}"), app.theme.dim()),
                },
            };
            Line::styled(fit(&text, width), style)
        },
    );
}

fn push(lines: &mut Vec<Line<'static>>, text: &str, width: usize, style: Style) {
    for row in wrap(text, width.max(10)) {
        lines.push(Line::styled(row, style));
    }
}

fn render_consequences(app: &App, frame: &mut Frame, area: Rect, consultant: &Consultant) {
    let focused = consultant.focus == ConsultantFocus::Forced;
    let block = pane(
        app,
        "What the facts force · tab here, enter: its chain".into(),
        focused,
        area,
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    let claim = match &consultant.claim {
        Some(claim) => format!("claim: {claim}"),
        None => "no claim (type one in logic mode to see which inputs matter)".into(),
    };
    push(&mut lines, &claim, width, app.theme.dim());
    if consultant.running && app.tick.saturating_sub(consultant.started) >= WORKING_AFTER_TICKS {
        lines.push(Line::styled("working…", app.theme.pending()));
    }
    if let Some(error) = &consultant.error {
        push(&mut lines, error, width, app.theme.error());
    }
    let Some(explanation) = &consultant.explanation else {
        frame.render_widget(Paragraph::new(lines), inner);
        return;
    };
    let propagation = &explanation.propagation;
    if let Some(rules) = &propagation.contradiction {
        push(
            &mut lines,
            &format!(
                "IMPOSSIBLE: the facts contradict the rules {} · d removes a fact",
                rules.join(", ")
            ),
            width,
            app.theme.fail(),
        );
    }
    if let Some(finding) = &explanation.finding
        && propagation.contradiction.is_none()
    {
        push(
            &mut lines,
            &format!("the claim is {}", finding.kind.name()),
            width,
            app.theme.accent(),
        );
        // The finding's name never stands alone: its verdict follows.
        push(
            &mut lines,
            &verdict(finding, &app.ws.compiled.glossary),
            width,
            app.theme.text(),
        );
    }
    lines.push(Line::styled("Forced", app.theme.title(focused)));
    if propagation.forced.is_empty() {
        lines.push(Line::styled("  nothing yet", app.theme.dim()));
    }
    for (i, forced) in propagation.forced.iter().enumerate() {
        let by = if forced.rules.is_empty() {
            "the facts".to_string()
        } else {
            forced.rules.join(", ")
        };
        let text = fit(
            &format!("✓ {} = {}  by {by}", forced.variable, forced.value),
            width,
        );
        let style = if i == consultant.forced_cursor.selected && focused {
            app.theme.selected()
        } else {
            app.theme.pass()
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    // The next question comes before the lists of open variables: on a
    // small terminal it is what the expert acts on, and the lists are cut.
    lines.push(Line::styled("Ask next", app.theme.title(false)));
    match (&explanation.relevance, &explanation.finding) {
        (Some(relevance), _) if !relevance.ask.is_empty() => {
            for ask in &relevance.ask {
                push(
                    &mut lines,
                    &format!("? {}", ask.question),
                    width,
                    app.theme.accent(),
                );
            }
        }
        // An empty list always says why.
        (_, _) if consultant.claim.is_none() => push(
            &mut lines,
            "  nothing: there is no claim to settle (type one in logic mode)",
            width,
            app.theme.dim(),
        ),
        (_, _) if propagation.contradiction.is_some() => push(
            &mut lines,
            "  nothing: the facts contradict the rules",
            width,
            app.theme.dim(),
        ),
        (_, Some(finding)) if finding.kind != precept_engine::solve::FindingKind::Satisfiable => {
            push(
                &mut lines,
                &format!(
                    "  nothing: the facts already settle the claim ({})",
                    finding.kind.name()
                ),
                width,
                app.theme.dim(),
            )
        }
        _ => push(
            &mut lines,
            "  nothing: no input left open decides the claim (it may rest on a variable a rule should decide)",
            width,
            app.theme.dim(),
        ),
    }
    let irrelevant: &[String] = explanation
        .relevance
        .as_ref()
        .map_or(&[], |r| r.irrelevant.as_slice());
    let open: Vec<&String> = consultant
        .inputs
        .iter()
        .filter(|v| consultant.fact_of(v).is_none() && propagation.value_of(v).is_none())
        .collect();
    lines.push(Line::styled("Open inputs", app.theme.title(false)));
    let mut row: Vec<Span<'static>> = vec![Span::raw("  ")];
    for name in open {
        let (text, style) = if irrelevant.contains(name) {
            (format!("{name} (irrelevant)  "), app.theme.dim())
        } else {
            (format!("{name}  "), app.theme.text())
        };
        row.push(Span::styled(text, style));
    }
    lines.push(Line::from(row));
    let still_open: Vec<&str> = propagation
        .open
        .iter()
        .filter(|v| !consultant.inputs.contains(v))
        .map(String::as_str)
        .collect();
    if !still_open.is_empty() {
        push(
            &mut lines,
            &format!("Still open: {}", still_open.join(", ")),
            width,
            app.theme.dim(),
        );
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }),
        inner,
    );
}

fn render_entry(app: &App, frame: &mut Frame, column: Rect, entry: &ValueEntry) {
    let (title, rows) = match entry {
        ValueEntry::Choice {
            variable, values, ..
        } => (
            format!("{variable} = … · enter set · esc cancel"),
            values.len() as u16,
        ),
        ValueEntry::Number { variable, .. } => {
            (format!("{variable} = … · type a number · enter set"), 2)
        }
    };
    let height = (rows + 2).min(column.height);
    let area = Rect::new(
        column.x + 1,
        column.y + column.height.saturating_sub(height + 1),
        column.width.saturating_sub(2),
        height,
    );
    frame.render_widget(Clear, area);
    let block = pane(app, title, true, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match entry {
        ValueEntry::Choice { values, cursor, .. } => {
            let lines: Vec<Line> = values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let style = if i == *cursor {
                        app.theme.selected()
                    } else {
                        app.theme.text()
                    };
                    Line::styled(v.clone(), style)
                })
                .collect();
            frame.render_widget(Paragraph::new(lines), inner);
        }
        ValueEntry::Number { input, error, .. } => {
            frame.render_widget(&**input, Rect::new(inner.x, inner.y, inner.width, 1));
            if let Some(error) = error
                && inner.height > 1
            {
                frame.render_widget(
                    Paragraph::new(Line::styled(error.clone(), app.theme.error())),
                    Rect::new(inner.x, inner.y + 1, inner.width, 1),
                );
            }
        }
    }
}
