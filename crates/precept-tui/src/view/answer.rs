//! The verify screen's question-and-answer mode: the two inputs, the k
//! translations as they arrive, then the findings per pair with their
//! confidence, evidence, untranslated text and feedback.

use super::finding::{finding_style, lines as finding_lines};
use super::list::pane;
use crate::state::app::{AnswerPane, App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn render(app: &App, frame: &mut Frame, inputs: Rect, result: Rect) {
    let qa = &app.verify.qa;
    let typing = app.focus == Pane::VerifyInput;
    let block = pane(
        app,
        format!(
            "Check an answer · enter check (k = {}) · tab field · ctrl-s save as test · ctrl-t logic",
            app.ws.answer_translations
        ),
        typing,
        inputs,
    );
    let inner = block.inner(inputs);
    frame.render_widget(block, inputs);
    for (i, (label, field)) in [("question", &qa.question), ("answer", &qa.answer)]
        .into_iter()
        .enumerate()
    {
        let y = inner.y + (i as u16) * 2;
        if y >= inner.y + inner.height {
            break;
        }
        let active = typing && qa.field == i;
        frame.render_widget(
            Paragraph::new(Span::styled(
                format!("{label:>9} "),
                app.theme.title(active),
            )),
            Rect::new(inner.x, y, 10.min(inner.width), 1),
        );
        let mut field = field.clone();
        field.set_cursor_line_style(ratatui::style::Style::default());
        if !active {
            field.set_cursor_style(ratatui::style::Style::default());
        }
        frame.render_widget(
            &field,
            Rect::new(inner.x + 10, y, inner.width.saturating_sub(10), 1),
        );
    }
    let title = match qa.basis.stale_since() {
        Some(edit) if qa.running || qa.report.is_some() => {
            format!("Findings · STALE since {edit}: enter checks again")
        }
        _ => "Findings".to_string(),
    };
    let block = pane(app, title, app.focus == Pane::VerifyResult, result);
    let inner = block.inner(result);
    frame.render_widget(block, result);
    let lines = result_lines(app, qa, inner.width as usize);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        inner,
    );
}

fn result_lines<'a>(app: &'a App, qa: &AnswerPane, width: usize) -> Vec<Line<'a>> {
    let mut lines = Vec::new();
    if let Some(error) = &qa.error {
        // The how-to-configure text has several lines: keep them.
        lines.extend(
            error
                .lines()
                .map(|line| Line::styled(line.to_string(), app.theme.error())),
        );
        return lines;
    }
    if let Some(edit) = qa.basis.stale_since()
        && (qa.running || qa.report.is_some())
    {
        lines.push(Line::styled(
            format!(
                "STALE since {edit}: this answer was checked against the model before it \
                 (enter checks it again)"
            ),
            app.theme.pending(),
        ));
    }
    if qa.running {
        lines.push(Line::styled(
            match qa.solving {
                Some(pairs) => format!("translations in; the solver decides {pairs} pair(s)…"),
                None => format!(
                    "translating… {}/{} translations arrived",
                    qa.translations.len(),
                    qa.asked
                ),
            },
            app.theme.pending(),
        ));
        for t in &qa.translations {
            lines.extend(translation_lines(app, t));
        }
        return lines;
    }
    let Some(report) = &qa.report else {
        lines.push(Line::styled(
            format!(
                "Type a question and the chatbot's answer and press enter: the LLM translates it \
                 {} times into the model's variables and the solver checks each claim.",
                app.ws.answer_translations
            ),
            app.theme.dim(),
        ));
        return lines;
    };
    lines.push(Line::from(vec![
        Span::styled(report.finding.name(), finding_style(app, report.finding)),
        Span::styled(
            format!(
                "  {} pair(s) · k = {} · threshold {:.2} · {:.0} ms ({:.0} ms solver)",
                report.pairs.len(),
                report.k,
                report.threshold,
                report.timing.total_ms,
                report.timing.solver_ms
            ),
            app.theme.dim(),
        ),
    ]));
    // The finding's name never stands alone: its verdict follows.
    lines.push(Line::styled(
        report.verdict(&app.ws.compiled.glossary),
        app.theme.text(),
    ));
    if let Some(reason) = &report.reason {
        lines.push(Line::styled(reason.clone(), app.theme.text()));
    }
    for (i, pair) in report.pairs.iter().enumerate() {
        let deciding = report.deciding_pair == Some(i);
        lines.push(Line::raw(""));
        lines.push(Line::from(vec![
            Span::styled(
                format!("{}pair {} ", if deciding { "▶ " } else { "" }, i + 1),
                app.theme.accent(),
            ),
            Span::styled(pair.finding.name(), finding_style(app, pair.finding)),
            Span::styled(
                format!(
                    "  confidence {:.2} ({} of {})",
                    pair.confidence,
                    pair.supporting_translations.len(),
                    report.k
                ),
                app.theme.dim(),
            ),
        ]));
        // The deciding pair's evidence below starts with the same verdict.
        if !(deciding && pair.finding == pair.evidence.kind) {
            lines.push(Line::styled(
                format!("  {}", pair.verdict(&app.ws.compiled.glossary)),
                app.theme.text(),
            ));
        }
        if !pair.source.is_empty() {
            lines.push(Line::styled(
                format!("  “{}”", pair.source),
                app.theme.dim(),
            ));
        }
        lines.push(Line::raw(format!("  premise {}", pair.premise)));
        lines.push(Line::raw(format!("  claim   {}", pair.claim)));
        if let Some(d) = &pair.disagreement {
            lines.push(Line::styled(
                format!(
                    "  translation {} differs from {} ({:?})",
                    d.dissenting,
                    d.supporting
                        .map(|s| s.to_string())
                        .unwrap_or_else(|| "the others".into()),
                    d.why
                ),
                app.theme.fail(),
            ));
        }
        if deciding {
            lines.extend(finding_lines(app, &pair.evidence, None, width));
        }
    }
    for span in &report.untranslated {
        lines.push(Line::styled(
            format!(
                "untranslated: “{}” ({})",
                span.text,
                span.reasons.join("; ")
            ),
            app.theme.fail(),
        ));
    }
    if !report.feedback.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Feedback", app.theme.accent()));
        lines.push(Line::raw(report.feedback.clone()));
    }
    lines
}

fn translation_lines<'a>(app: &'a App, t: &precept_engine::answer::Translation) -> Vec<Line<'a>> {
    let mut lines = vec![Line::styled(
        format!(
            "translation {}{}: {} pair(s){}",
            t.number,
            if t.from_cache { " (cached)" } else { "" },
            t.pairs.len(),
            t.error
                .as_ref()
                .map(|e| format!(" — failed: {e}"))
                .unwrap_or_default()
        ),
        if t.error.is_some() {
            app.theme.fail()
        } else {
            app.theme.pass()
        },
    )];
    for pair in &t.pairs {
        lines.push(Line::styled(
            format!("  {} ⇒ {}", pair.premise, pair.claim),
            app.theme.dim(),
        ));
    }
    lines
}
