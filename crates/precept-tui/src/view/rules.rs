//! The rules list and the selected rule, as SMT-LIB and as English.

use super::document::highlighted_rows;
use super::list::{ListView, fit, pane, render_rows};
use crate::measure::text::wrap;
use crate::state::app::{App, Pane};
use crate::state::document_view::rule_source_sentences;
use precept_engine::model::ReviewStatus;
use precept_engine::smt::printer::pretty;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// The one-character mark of a rule's state in the list.
fn mark(app: &App, id: &str, review: ReviewStatus) -> (&'static str, ratatui::style::Style) {
    if app.ws.drafts.rules.contains_key(id) {
        ("✎", app.theme.pending())
    } else if app.ws.compiled.rule(id).is_none() {
        ("!", app.theme.error())
    } else {
        match review {
            ReviewStatus::Approved => ("✓", app.theme.pass()),
            ReviewStatus::NeedsChange => ("?", app.theme.fail()),
            ReviewStatus::Unreviewed => ("·", app.theme.dim()),
        }
    }
}

pub fn render_list(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Rules;
    let approved = app
        .ws
        .model
        .rules
        .iter()
        .filter(|r| r.review == ReviewStatus::Approved)
        .count();
    let marked = if app.repair_draft.marked.is_empty() {
        String::new()
    } else {
        format!(" · {} marked (w)", app.repair_draft.marked.len())
    };
    let title = format!(
        "Rules {}/{} · {approved} approved{marked}",
        (app.cursors.rule.selected + 1).min(app.ws.model.rules.len()),
        app.ws.model.rules.len()
    );
    // Ids as wide as the longest (a definition's `D1.c1`), and a space.
    let id_width = app
        .ws
        .model
        .rules
        .iter()
        .map(|r| r.id.chars().count())
        .max()
        .unwrap_or(0)
        .max(4)
        + 1;
    let width = area.width.saturating_sub(6 + id_width as u16) as usize;
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused, area),
        ListView {
            cursor: app.cursors.rule,
            len: app.ws.model.rules.len(),
            focused,
        },
        |i| {
            let rule = &app.ws.model.rules[i];
            let (symbol, style) = mark(app, &rule.id, rule.review);
            let marked = app.repair_draft.marked.contains(&rule.id);
            Line::from(vec![
                Span::styled(format!("{symbol} "), style),
                // Marked for feedback: a symbol, not a colour alone.
                Span::styled(if marked { "●" } else { " " }, app.theme.emphasis()),
                Span::styled(
                    format!("{:<id_width$}", rule.id),
                    if marked {
                        app.theme.emphasis()
                    } else {
                        app.theme.accent()
                    },
                ),
                Span::styled(fit(&rule.expression, width), app.theme.text()),
            ])
        },
    );
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let block = pane(app, "Rule".into(), false, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(rule) = app.selected_rule() else {
        frame.render_widget(
            Paragraph::new("No rules yet: press a to add one.").style(app.theme.dim()),
            inner,
        );
        return;
    };
    let width = inner.width as usize;
    let heading = app.theme.accent().add_modifier(Modifier::BOLD);
    let review = match rule.review {
        ReviewStatus::Approved => "approved",
        ReviewStatus::NeedsChange => "needs change",
        ReviewStatus::Unreviewed => "not reviewed",
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(rule.id.clone(), heading),
        Span::styled(format!(" · {review}"), app.theme.dim()),
    ])];
    if let Some(draft) = app.ws.drafts.rules.get(&rule.id) {
        lines.push(Line::styled(
            "Draft (not applied; e to continue, ctrl-s to apply):",
            app.theme.pending(),
        ));
        for line in draft.lines() {
            lines.push(Line::styled(format!("  {line}"), app.theme.pending()));
        }
        if let Err(error) = app.ws.compiled.check_formula(draft) {
            lines.push(Line::styled(format!("  {error}"), app.theme.error()));
        }
    }
    if let Some(definition) = app.ws.model.definition_owning(&rule.id) {
        lines.extend(super::definition::lines(app, definition, &rule.id, width));
        lines.push(Line::styled(format!("Rule {}", rule.id), app.theme.dim()));
    }
    match app.ws.compiled.rule(&rule.id) {
        Some(compiled) => {
            lines.push(Line::styled("SMT-LIB", app.theme.dim()));
            for text in pretty(&compiled.written, width.saturating_sub(2).max(20)).lines() {
                let mut line = app.highlighter.line(text, &app.theme);
                line.spans.insert(0, Span::raw("  "));
                lines.push(Line::from(
                    line.spans
                        .into_iter()
                        .map(|s| Span::styled(s.content.into_owned(), s.style))
                        .collect::<Vec<_>>(),
                ));
            }
            lines.push(Line::styled("English", app.theme.dim()));
            for text in wrap(
                &app.ws.compiled.glossary.sentence(&compiled.written),
                width.saturating_sub(2),
            ) {
                lines.push(Line::styled(format!("  {text}"), app.theme.text()));
            }
            let variables = app.ws.graph.variables_of(&rule.id);
            if !variables.is_empty() {
                lines.push(Line::from(vec![
                    Span::styled("Uses ", app.theme.dim()),
                    Span::styled(variables.join(", "), app.theme.text()),
                ]));
            }
        }
        None => {
            lines.push(Line::styled(
                format!("  {}", rule.expression),
                app.theme.text(),
            ));
            if let Some(issue) = app.ws.compiled.issues.iter().find(|i| i.subject == rule.id) {
                lines.push(Line::styled(
                    format!("  does not check: {}", issue.message),
                    app.theme.error(),
                ));
            }
        }
    }
    match app.ws.span_of_rule(rule) {
        Some(index) => {
            lines.push(Line::styled("Source", app.theme.dim()));
            let text = &app.ws.spans[index].text;
            // The rule's own sentences highlighted, the rest of its span dim.
            let (range, base) = match rule_source_sentences(app, rule) {
                Some((_, range)) => (range, app.theme.dim()),
                None => ((0, text.len()), app.theme.text()),
            };
            let highlight = app.theme.text().patch(app.theme.span_highlight());
            let rows = wrap(text, width.saturating_sub(2));
            for mut spans in highlighted_rows(rows, text, range, base, highlight) {
                spans.insert(0, Span::raw("  "));
                lines.push(Line::from(spans));
            }
        }
        None => lines.push(Line::styled("Source: no span linked", app.theme.dim())),
    }
    if !rule.note.is_empty() {
        lines.push(Line::from(vec![
            Span::styled("Note ", app.theme.dim()),
            Span::styled(rule.note.clone(), app.theme.text()),
        ]));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((app.detail_scroll, 0)),
        inner,
    );
}
