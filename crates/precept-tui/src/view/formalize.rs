//! The formalize screen: per-span progress (or the record's outcomes), the
//! clusters of unit variables behind each model variable, and the selected
//! item's detail with the review progress.

use super::list::{ListView, fit, pane, render_rows};
use crate::state::app::{App, Pane};
use crate::state::formalization::{ClusterRow, SpanProgress, cluster_rows};
use precept_engine::compose::consolidate_check::CheckedProposal;
use precept_engine::formalize::span_job::SpanOutcome;
use precept_engine::model::ReviewStatus;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn render_spans(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::FormalizeSpans;
    let width = area.width.saturating_sub(2) as usize;
    if let Some(run) = &app.formalization.run {
        if run.progress.is_empty() {
            frame.render_widget(
                Paragraph::new("splitting the document into spans…")
                    .style(app.theme.pending())
                    .block(pane(app, "Formalizing · esc stops".into(), focused, area)),
                area,
            );
            return;
        }
        let (finished, failed, variables, rules) = run.totals();
        let title = format!(
            "Formalizing {finished}/{} · {failed} failed · {variables} variables · {rules} rules · esc stops",
            run.progress.len()
        );
        let view = ListView {
            cursor: app.formalization.span_cursor,
            len: run.progress.len(),
            focused,
        };
        let block = pane(app, title, focused, area);
        render_rows(app, frame, area, block, view, |i| {
            let (id, text) = run.spans.get(i).cloned().unwrap_or_default();
            let (mark, style, state) = match &run.progress[i] {
                SpanProgress::Waiting => ("·", app.theme.dim(), "waiting".to_string()),
                SpanProgress::Asking { round: 1 } => {
                    ("…", app.theme.pending(), "asking".to_string())
                }
                SpanProgress::Asking { round } => {
                    ("↻", app.theme.pending(), format!("repair round {round}"))
                }
                SpanProgress::Done(c) if c.failed => ("✗", app.theme.fail(), "failed".to_string()),
                SpanProgress::Done(c) => (
                    "✓",
                    app.theme.pass(),
                    format!("{}v {}r", c.variables, c.rules),
                ),
            };
            Line::from(vec![
                Span::styled(format!("{mark} "), style),
                Span::styled(format!("{id:<4} {state:<12} "), style),
                Span::styled(fit(&text, width.saturating_sub(20)), app.theme.dim()),
            ])
        });
        return;
    }
    let Some(record) = &app.formalization.record else {
        if let Some(error) = &app.formalization.error {
            let mut text = format!("The last formalization failed:\n{error}");
            text.push_str("\n\nF tries again.");
            frame.render_widget(
                Paragraph::new(text)
                    .wrap(Wrap { trim: false })
                    .style(app.theme.error())
                    .block(pane(app, "Spans".into(), focused, area)),
                area,
            );
            return;
        }
        let text = if app.ws.document.is_some() {
            "Not formalized by Precept yet. Press F to formalize the document span by span \
             with the configured LLM (llm.toml, PRECEPT_LLM_* or a local Ollama)."
        } else {
            "This project has no document to formalize."
        };
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(pane(
                app,
                "Spans".into(),
                focused,
                area,
            )),
            area,
        );
        return;
    };
    let title = format!(
        "Spans · {} formalized, {} failed · F reformalizes",
        record.spans.len() - record.failed_spans(),
        record.failed_spans()
    );
    let view = ListView {
        cursor: app.formalization.span_cursor,
        len: record.spans.len(),
        focused,
    };
    let block = pane(app, title, focused, area);
    render_rows(app, frame, area, block, view, |i| {
        let span = &record.spans[i];
        let (mark, style, state) = match &span.outcome {
            SpanOutcome::Formalized { unit, rounds } => (
                "✓",
                app.theme.pass(),
                format!(
                    "{}v {}r{}",
                    unit.variables.len(),
                    unit.rules.len(),
                    if *rounds > 1 {
                        format!(" ({rounds} rounds)")
                    } else {
                        String::new()
                    }
                ),
            ),
            SpanOutcome::Rejected { rounds, .. } => {
                ("✗", app.theme.fail(), format!("rejected ×{rounds}"))
            }
            SpanOutcome::Error { .. } => ("✗", app.theme.fail(), "error".into()),
            SpanOutcome::Cancelled => ("·", app.theme.dim(), "cancelled".into()),
        };
        Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::styled(format!("{:<4} {state:<12} ", span.task.id), style),
            Span::styled(
                fit(&span.task.text, width.saturating_sub(20)),
                app.theme.dim(),
            ),
        ])
    });
}

pub fn render_clusters(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::Clusters;
    let proposals = &app.formalization.proposals;
    let clusters = app
        .formalization
        .record
        .as_ref()
        .map(|r| r.clusters.as_slice())
        .unwrap_or_default();
    if app.formalization.record.is_none() && proposals.is_empty() {
        let hint = if app.formalization.consolidating {
            "Clusters · consolidating…"
        } else {
            "Clusters · c proposes links that unify the vocabulary"
        };
        frame.render_widget(
            Paragraph::new("").block(pane(app, hint.into(), focused, area)),
            area,
        );
        return;
    }
    let rows = cluster_rows(clusters, proposals.len());
    let unified = clusters.iter().filter(|c| c.members.len() > 1).count();
    let title = if app.formalization.consolidating {
        format!("Clusters · {} variables · consolidating…", clusters.len())
    } else if proposals.is_empty() {
        format!(
            "Clusters · {} variables, {unified} unified · m merge · s split · e rename · c consolidate",
            clusters.len()
        )
    } else {
        format!(
            "Clusters · {} proposals: y accept · R reject · {} variables, {unified} unified",
            proposals.len(),
            clusters.len()
        )
    };
    let width = area.width.saturating_sub(2) as usize;
    let view = ListView {
        cursor: app.formalization.cluster_cursor,
        len: rows.len(),
        focused,
    };
    render_rows(
        app,
        frame,
        area,
        pane(app, title, focused, area),
        view,
        |i| match rows[i] {
            ClusterRow::Proposal(p) => proposal_row(app, &proposals[p], width),
            ClusterRow::Cluster(c) => {
                let cluster = &clusters[c];
                let missing = app.ws.model.variable(&cluster.name).is_none();
                let style = if missing {
                    app.theme.dim()
                } else {
                    app.theme.text()
                };
                Line::from(vec![
                    Span::styled(format!("{}: {}", cluster.name, cluster.sort), style),
                    Span::styled(
                        fit(
                            &format!(
                                "  {}{}",
                                cluster.description,
                                if missing {
                                    " (no longer in the model)"
                                } else {
                                    ""
                                }
                            ),
                            width.saturating_sub(cluster.name.len() + cluster.sort.len() + 2),
                        ),
                        app.theme.dim(),
                    ),
                ])
            }
            ClusterRow::Member(c, m) => {
                let member = &clusters[c].members[m];
                let label = format!("   {} {} ", member.span, member.name);
                let room = width.saturating_sub(label.chars().count());
                Line::from(vec![
                    Span::styled(label, app.theme.accent()),
                    Span::styled(fit(&member.description, room), app.theme.dim()),
                ])
            }
        },
    );
}

/// One proposal: its id and link, whether it can be accepted, and the tests
/// it flips.
fn proposal_row(app: &App, checked: &CheckedProposal, width: usize) -> Line<'static> {
    let (mark, style) = if checked.refused.is_some() {
        ("✗", app.theme.fail())
    } else if checked.inconsistent {
        ("⚠", app.theme.fail())
    } else {
        ("◆", app.theme.accent())
    };
    let mut tail = String::new();
    for flip in &checked.flips {
        tail.push_str(&format!(
            " {}{}",
            if flip.passes_after { "↑" } else { "↓" },
            flip.test_id
        ));
    }
    if checked.inconsistent {
        tail.push_str(" · inconsistent");
    } else if !checked.new_conflicts.is_empty() {
        tail.push_str(&format!(" · {} new conflicts", checked.new_conflicts.len()));
    }
    if checked.refused.is_some() {
        tail.push_str(" · refused");
    }
    let text = format!("{mark} {} {}{tail}", checked.proposal.id, checked.summary);
    Line::styled(fit(&text, width), style)
}

/// The selected proposal in full: the link, the reason, the rules it
/// rewrites, its warnings and the tests it flips.
fn proposal_detail(app: &App, checked: &CheckedProposal, lines: &mut Vec<Line<'static>>) {
    lines.push(Line::styled(
        format!("{} {}", checked.proposal.id, checked.summary),
        app.theme.accent(),
    ));
    if !checked.proposal.reason.is_empty() {
        lines.push(Line::styled(
            format!("why: {}", checked.proposal.reason),
            app.theme.text(),
        ));
    }
    if let Some(why) = &checked.refused {
        lines.push(Line::styled(format!("refused: {why}"), app.theme.error()));
    }
    for warning in checked.warnings() {
        lines.push(Line::styled(
            format!("warning: {warning}"),
            app.theme.error(),
        ));
    }
    for (id, before, after) in &checked.rules_changed {
        if !before.is_empty() {
            lines.push(Line::styled(format!("- {id} {before}"), app.theme.fail()));
        }
        lines.push(Line::styled(format!("+ {id} {after}"), app.theme.pass()));
    }
    if checked.refused.is_none() {
        lines.push(super::repair::flips_line(
            app,
            &Some(Ok(checked.flips.clone())),
        ));
    }
    lines.push(Line::raw(""));
}

pub fn render_detail(app: &App, frame: &mut Frame, area: Rect) {
    let total = app.ws.model.rules.len();
    let reviewed = app
        .ws
        .model
        .rules
        .iter()
        .filter(|r| r.review != ReviewStatus::Unreviewed)
        .count();
    let mut lines = Vec::new();
    // Without a record the spans pane shows the error; with one, here.
    if let Some(error) = app
        .formalization
        .error
        .as_ref()
        .filter(|_| app.formalization.record.is_some())
    {
        lines.push(Line::styled(
            "The last formalization failed:",
            app.theme.error(),
        ));
        lines.extend(
            error
                .lines()
                .map(|l| Line::styled(l.to_string(), app.theme.error())),
        );
        lines.push(Line::raw(""));
    }
    if let Some(index) = app.selected_proposal() {
        proposal_detail(app, &app.formalization.proposals[index], &mut lines);
    }
    lines.push(Line::styled(
        format!(
            "Review: {reviewed} of {total} rules reviewed ({}%) · A on a rule marks it",
            (reviewed * 100).checked_div(total).unwrap_or(0)
        ),
        app.theme.accent(),
    ));
    if let Some(record) = &app.formalization.record {
        lines.push(Line::styled(
            format!(
                "{} · {} ({}) · {} · threshold {:.2}",
                record.document,
                record.llm_model,
                record.llm_profile,
                record.embedder,
                record.threshold
            ),
            app.theme.dim(),
        ));
        if app.focus == Pane::FormalizeSpans
            && app.formalization.run.is_none()
            && let Some(span) = record.spans.get(app.formalization.span_cursor.selected)
        {
            if !span.task.heading_path.is_empty() {
                lines.push(Line::styled(
                    span.task.heading_path.join(" › "),
                    app.theme.dim(),
                ));
            }
            lines.push(Line::raw(span.task.text.clone()));
            match &span.outcome {
                SpanOutcome::Formalized { unit, .. } => {
                    for rule in &unit.rules {
                        lines.push(Line::styled(
                            format!("  {}", rule.expression),
                            app.theme.pass(),
                        ));
                    }
                }
                SpanOutcome::Rejected { problems, .. } => {
                    for problem in problems {
                        lines.push(Line::styled(format!("  {problem}"), app.theme.error()));
                    }
                }
                SpanOutcome::Error { message, .. } => {
                    lines.push(Line::styled(format!("  {message}"), app.theme.error()))
                }
                SpanOutcome::Cancelled => {}
            }
        }
        for note in record.notes.iter().take(3) {
            lines.push(Line::styled(format!("note: {note}"), app.theme.dim()));
        }
    }
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(pane(
            app,
            "Detail".into(),
            false,
            area,
        )),
        area,
    );
}
