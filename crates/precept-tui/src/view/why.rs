//! The why overlay: a chain's steps in order, each with its rules (SMT-LIB
//! and English), the values it uses and derives, and its source sentence;
//! a case split labelled as one; for a failing test, where the expected
//! and actual findings part ways.

use super::list::pane;
use crate::measure::layout::overlay;
use crate::measure::text::wrap;
use crate::state::app::App;
use crate::state::why::{Parting, WhyContent, WhyState, WhySubject};
use precept_engine::explain::describe::step_source;
use precept_engine::explain::{Ask, Chain, Step};
use precept_engine::model::finding::Value;
use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

fn values(list: &[(String, Value)]) -> String {
    list.iter()
        .map(|(name, value)| format!("{name} = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Pushes `text` wrapped to `width` after `indent`, in `style`.
fn push(lines: &mut Vec<Line<'static>>, text: &str, indent: usize, width: usize, style: Style) {
    let pad = " ".repeat(indent);
    for row in wrap(text, width.saturating_sub(indent).max(10)) {
        lines.push(Line::styled(format!("{pad}{row}"), style));
    }
}

/// The heading of step `number` (from 1).
pub fn step_heading(number: usize, step: &Step) -> String {
    if step.several_rules() {
        format!(
            "Step {number} · rules {} together: a case split (no single rule suffices)",
            step.rules.join(", ")
        )
    } else {
        format!("Step {number} · rule {}", step.rules.join(", "))
    }
}

fn step_lines(app: &App, step: &Step, width: usize, goal: &str) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for text in &step.texts {
        if step.several_rules() {
            push(
                &mut lines,
                &format!("{}:", text.id),
                2,
                width,
                app.theme.dim(),
            );
        }
        push(&mut lines, &text.smtlib, 2, width, app.theme.accent());
        push(&mut lines, &text.english, 2, width, app.theme.text());
    }
    if !step.uses.is_empty() {
        push(
            &mut lines,
            &format!("uses {}", values(&step.uses)),
            2,
            width,
            app.theme.dim(),
        );
    }
    if !step.derives.is_empty() {
        push(
            &mut lines,
            &format!("derives {}", values(&step.derives)),
            2,
            width,
            app.theme.pass(),
        );
    }
    if step.concludes {
        push(
            &mut lines,
            &format!("concludes {goal}"),
            2,
            width,
            app.theme.pass(),
        );
    }
    let source = step_source(&step.texts);
    let source = if source.is_empty() {
        "(no source sentence recorded)".to_string()
    } else {
        format!("“{source}”")
    };
    push(&mut lines, &source, 2, width, app.theme.emphasis());
    lines
}

fn chain_lines(
    app: &App,
    why: &WhyState,
    chain: &Chain,
    width: usize,
    height: usize,
) -> Vec<Line<'static>> {
    let mut head = Vec::new();
    push(
        &mut head,
        &format!("Proves {} in {} steps:", chain.goal, chain.steps.len()),
        0,
        width,
        app.theme.text(),
    );
    let parting_step = match &why.parting {
        Some(Parting::AtStep(index)) => Some(*index),
        _ => None,
    };
    let mut body: Vec<Line<'static>> = Vec::new();
    let mut selected_rows = (0, 0);
    for (index, step) in chain.steps.iter().enumerate() {
        let start = body.len();
        let mut heading = step_heading(index + 1, step);
        if parting_step == Some(index) {
            heading.push_str(" ◆ the findings part ways here");
        }
        let marker = if index == why.cursor.selected {
            "▸ "
        } else {
            "  "
        };
        let style = if index == why.cursor.selected {
            app.theme.selected()
        } else {
            app.theme.title(false)
        };
        for (row, text) in wrap(&heading, width.saturating_sub(2).max(10))
            .into_iter()
            .enumerate()
        {
            let lead = if row == 0 { marker } else { "  " };
            body.push(Line::styled(format!("{lead}{text}"), style));
        }
        body.extend(step_lines(app, step, width, &chain.goal));
        if index == why.cursor.selected {
            selected_rows = (start, body.len());
        }
    }
    let room = height.saturating_sub(head.len());
    let skip = if selected_rows.1 > room {
        selected_rows.0
    } else {
        0
    };
    head.extend(body.into_iter().skip(skip));
    head
}

fn ask_lines(app: &App, ask: &[Ask], width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for item in ask {
        push(
            &mut lines,
            &format!("? {} ({})", item.question, item.variables.join(", ")),
            2,
            width,
            app.theme.accent(),
        );
    }
    lines
}

pub fn render(app: &App, frame: &mut Frame, why: &WhyState) {
    let size = (frame.area().width, frame.area().height);
    let area = overlay(size, 92, size.1.saturating_sub(2));
    frame.render_widget(Clear, area);
    let hint = "j/k step · enter jump to its rule · M Markdown · esc close";
    let block = pane(app, format!("{} · {hint}", why.title()), true, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    if let WhySubject::Test { expected, .. } = &why.subject
        && let Some(actual) = why.actual
    {
        let verdict = if *expected == actual {
            format!("expected {}: the test passes", expected.name())
        } else {
            format!(
                "expected {}, actual {}: the test fails",
                expected.name(),
                actual.name()
            )
        };
        push(&mut lines, &verdict, 0, width, app.theme.dim());
    }
    match &why.parting {
        Some(Parting::AtStep(index)) => push(
            &mut lines,
            &format!(
                "The findings part ways at step {}: without its rule the expected finding \
                 could hold; each step before it also follows from other rules.",
                index + 1
            ),
            0,
            width,
            app.theme.fail(),
        ),
        Some(Parting::Unlocated(reason)) => push(
            &mut lines,
            &format!("Parting: {reason}."),
            0,
            width,
            app.theme.fail(),
        ),
        None => {}
    }
    let height = (inner.height as usize).saturating_sub(lines.len());
    match &why.content {
        WhyContent::Working => push(
            &mut lines,
            "asking the solver…",
            0,
            width,
            app.theme.pending(),
        ),
        WhyContent::Failed(error) => push(&mut lines, error, 0, width, app.theme.error()),
        WhyContent::NoChain { reason, ask } => {
            push(&mut lines, reason, 0, width, app.theme.text());
            lines.extend(ask_lines(app, ask, width));
        }
        WhyContent::Chain(chain) => lines.extend(chain_lines(app, why, chain, width, height)),
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
