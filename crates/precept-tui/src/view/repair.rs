//! The repair overlay (the expert's words, then each proposed edit as a
//! diff in SMT-LIB and English with the tests it would flip) and the name
//! prompt of the clusters view.

use super::list::{fit, pane};
use crate::measure::layout::overlay;
use crate::state::app::App;
use crate::state::name_prompt::{NamePrompt, NamePurpose};
use crate::state::repair::{RepairStage, RepairState};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

pub fn render_repair(app: &App, frame: &mut Frame, state: &RepairState) {
    let size = (frame.area().width, frame.area().height);
    let area = overlay(size, 90, 30);
    frame.render_widget(Clear, area);
    let title = format!("What is wrong with {}?", state.rules.join(", "));
    let block = pane(app, title, true, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    match &state.stage {
        RepairStage::Writing => {
            frame.render_widget(
                &state.feedback,
                Rect::new(
                    inner.x,
                    inner.y,
                    inner.width,
                    inner.height.saturating_sub(1),
                ),
            );
            frame.render_widget(
                Paragraph::new("enter asks the LLM for edits · esc closes").style(app.theme.dim()),
                Rect::new(
                    inner.x,
                    inner.y + inner.height.saturating_sub(1),
                    inner.width,
                    1,
                ),
            );
        }
        RepairStage::Asking => frame.render_widget(
            Paragraph::new("asking the LLM for edits… (esc closes; the reply is dropped)")
                .style(app.theme.pending()),
            inner,
        ),
        RepairStage::Failed(error) => frame.render_widget(
            Paragraph::new(format!(
                "no repair: {error}\n\nYour feedback is kept. Any key goes back to it (to send again once an LLM is configured); esc closes and w opens it again."
            ))
                .wrap(Wrap { trim: false })
                .style(app.theme.error()),
            inner,
        ),
        RepairStage::Proposed(proposed) => {
            let mut lines = Vec::new();
            if proposed.proposal.edits.is_empty() {
                lines.push(Line::styled(
                    "The LLM proposed no usable edit.",
                    app.theme.dim(),
                ));
            }
            for (i, edit) in proposed.proposal.edits.iter().enumerate() {
                let decision = match proposed.decisions[i] {
                    Some(true) => Span::styled(" accepted", app.theme.pass()),
                    Some(false) => Span::styled(" rejected", app.theme.dim()),
                    None => Span::raw(""),
                };
                let style = if i == proposed.cursor {
                    app.theme.selected()
                } else {
                    app.theme.accent()
                };
                lines.push(Line::from(vec![
                    Span::styled(format!("{} {}", i + 1, edit.edit.title()), style),
                    decision,
                    Span::styled(format!("  {}", edit.reason), app.theme.dim()),
                ]));
                if !edit.before.is_empty() {
                    lines.push(Line::styled(
                        fit(&format!("  - {}", edit.before), width),
                        app.theme.fail(),
                    ));
                }
                if !edit.after.is_empty() {
                    lines.push(Line::styled(
                        fit(&format!("  + {}", edit.after), width),
                        app.theme.pass(),
                    ));
                }
                if !edit.before_english.is_empty() {
                    lines.push(Line::styled(
                        fit(&format!("    was: {}", edit.before_english), width),
                        app.theme.dim(),
                    ));
                }
                if !edit.after_english.is_empty() {
                    lines.push(Line::styled(
                        fit(&format!("    now: {}", edit.after_english), width),
                        app.theme.text(),
                    ));
                }
                lines.push(flips_line(app, &proposed.flips[i]));
            }
            for refused in &proposed.proposal.refused {
                lines.push(Line::styled(
                    fit(&format!("refused (does not check): {refused}"), width),
                    app.theme.error(),
                ));
            }
            lines.push(Line::styled(
                "j/k choose · y accept (undo with u) · n reject · esc close · flips count the edits above too",
                app.theme.dim(),
            ));
            frame.render_widget(Paragraph::new(lines), inner);
        }
    }
}

pub fn render_name(app: &App, frame: &mut Frame, prompt: &NamePrompt) {
    let size = (frame.area().width, frame.area().height);
    let area = overlay(size, 60, 4);
    frame.render_widget(Clear, area);
    let title = match &prompt.purpose {
        NamePurpose::Rename { variable } => format!("Rename {variable} · enter apply · esc close"),
        NamePurpose::MergeInto { variable } => {
            format!("Merge {variable} into… · enter apply · esc close")
        }
        NamePurpose::SaveTest { expected, .. } => {
            format!("Save as a test expecting {expected}: its name · enter save · esc cancel")
        }
    };
    let block = pane(app, title, true, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(&prompt.input, Rect::new(inner.x, inner.y, inner.width, 1));
    if let Some(error) = &prompt.error {
        frame.render_widget(
            Paragraph::new(fit(error, inner.width as usize)).style(app.theme.error()),
            Rect::new(inner.x, inner.y + 1, inner.width, 1),
        );
    }
}

/// "tests: ↑T3 ↓T7" for an edit's flips, or what is still being worked out.
pub fn flips_line(
    app: &App,
    flips: &Option<
        Result<
            Vec<precept_engine::test_runner::flips::TestFlip>,
            crate::state::job_error::JobError,
        >,
    >,
) -> Line<'static> {
    match flips {
        None => Line::styled(
            "    tests: working out which ones flip…",
            app.theme.pending(),
        ),
        Some(Err(error)) => Line::styled(format!("    tests: {error}"), app.theme.error()),
        Some(Ok(flips)) if flips.is_empty() => {
            Line::styled("    tests: none flips", app.theme.dim())
        }
        Some(Ok(flips)) => {
            let mut spans = vec![Span::styled("    tests: ", app.theme.dim())];
            for flip in flips {
                let (arrow, style) = if flip.passes_after {
                    ("↑", app.theme.pass())
                } else {
                    ("↓", app.theme.fail())
                };
                spans.push(Span::styled(format!("{arrow}{} ", flip.test_id), style));
            }
            Line::from(spans)
        }
    }
}
