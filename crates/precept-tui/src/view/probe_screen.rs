//! The Probe screen: on the left the chatbot under test, the run's
//! progress and its rates with a bar per kind and per rule; on the right
//! the wrong answer being looked at, with the proved answer, its chain of
//! rules and the policy's sentences.

use super::list::pane;
use crate::measure::text::wrap;
use crate::state::app::{App, Pane};
use precept_engine::probe::rates::{Breakdown, Rate};
use precept_engine::probe::report::ProbeReport;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The width of a rate's bar, in cells.
const BAR: usize = 12;

/// The rates so far: the report's once the run is over (borrowed, not
/// copied on every frame), else computed from the answers that arrived.
fn summary(app: &App) -> std::borrow::Cow<'_, ProbeReport> {
    match &app.probe.report {
        Some(report) => std::borrow::Cow::Borrowed(&**report),
        None => std::borrow::Cow::Owned(ProbeReport::new(
            app.probe.results.clone(),
            app.probe.discarded,
        )),
    }
}

fn text(lines: &mut Vec<Line<'static>>, content: &str, width: usize, style: Style) {
    for line in wrap(content, width.max(8)) {
        lines.push(Line::styled(line, style));
    }
}

/// `█` for the wrong share, `░` for the rest.
fn bar(wrong: usize, of: usize) -> String {
    let filled = if of == 0 {
        0
    } else {
        (wrong * BAR).div_ceil(of).min(BAR)
    };
    format!("{}{}", "█".repeat(filled), "░".repeat(BAR - filled))
}

fn rate_line(name: &str, rate: &Rate) -> String {
    format!(
        "{name:<14} {:>3}/{:<3} {:>5.1}%  (95%: {:.1}–{:.1}%)",
        rate.count,
        rate.of,
        rate.rate * 100.0,
        rate.low * 100.0,
        rate.high * 100.0
    )
}

fn breakdown_lines(
    app: &App,
    lines: &mut Vec<Line<'static>>,
    heading: &str,
    rows: &std::collections::BTreeMap<String, Breakdown>,
) {
    if rows.is_empty() {
        return;
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled(heading.to_string(), app.theme.accent()));
    let mut ranked: Vec<(&String, &Breakdown)> = rows.iter().collect();
    let wrong = |b: &Breakdown| b.hallucination.count + b.incomplete.count + b.inconsistent.count;
    ranked.sort_by(|a, b| wrong(b.1).cmp(&wrong(a.1)).then(a.0.cmp(b.0)));
    for (name, row) in ranked {
        let bad = wrong(row);
        let style = if bad > 0 {
            app.theme.fail()
        } else {
            app.theme.pass()
        };
        lines.push(Line::from(vec![
            Span::raw(format!("  {name:<12} ")),
            Span::styled(bar(bad, row.asked), style),
            Span::raw(format!(" {bad}/{} wrong", row.asked)),
        ]));
    }
}

pub fn render_run(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::ProbeRun;
    let probe = &app.probe;
    let width = area.width.saturating_sub(2) as usize;
    let mut lines: Vec<Line<'static>> = Vec::new();
    lines.push(Line::styled("Chatbot under test", app.theme.accent()));
    if probe.profiles.is_empty() {
        let hint = match &probe.profiles_error {
            Some(error) => format!("the profiles cannot be read: {error}"),
            None => "no profile to test: add a [[profile]] for the chatbot to llm.toml in the \
                     configuration folder (the default profile is the translator)"
                .into(),
        };
        text(&mut lines, &hint, width, app.theme.dim());
    }
    for (i, name) in probe.profiles.iter().enumerate() {
        let chosen = i == probe.profile_cursor;
        let marker = if chosen { "▸ " } else { "  " };
        let style = if chosen && focused {
            app.theme.selected()
        } else {
            app.theme.text()
        };
        lines.push(Line::styled(format!("{marker}{name}"), style));
    }
    if let Some(translator) = &probe.translator {
        lines.push(Line::styled(
            format!("  translator: {translator}"),
            app.theme.dim(),
        ));
    }
    lines.push(Line::raw(""));
    let state = match (probe.running, &probe.report, &probe.error) {
        (Some(_), _, _) => format!(
            "asking… {}/{} judged{} · esc stops",
            probe.done,
            probe.planned,
            discarded(probe.discarded)
        ),
        (None, Some(report), _) => match &report.stopped {
            Some(reason) => format!("stopped early: {reason}"),
            None => format!(
                "done: {} answers judged{}",
                report.asked,
                discarded(report.discarded)
            ),
        },
        (None, None, Some(error)) => format!("did not run: {error}"),
        (None, None, None) => "r asks the chosen chatbot questions whose answers are proved".into(),
    };
    text(&mut lines, &state, width, app.theme.text());
    if let Some(edit) = probe.basis.stale_since()
        && (probe.running.is_some() || probe.report.is_some())
    {
        let note = format!(
            "STALE since {edit}: the answers were judged against the model before it (r probes again)"
        );
        text(&mut lines, &note, width, app.theme.pending());
    }
    let report = summary(app);
    if report.asked > 0 {
        lines.push(Line::raw(""));
        lines.push(Line::styled("Rates", app.theme.accent()));
        for (name, rate) in [
            ("hallucination", &report.rates.hallucination),
            ("incomplete", &report.rates.incomplete),
            ("inconsistent", &report.rates.inconsistent),
        ] {
            lines.push(Line::raw(rate_line(name, rate)));
        }
        breakdown_lines(app, &mut lines, "By kind", &report.by_kind);
        breakdown_lines(app, &mut lines, "By rule", &report.by_rule);
        if !report.requests.is_empty() {
            lines.push(Line::raw(""));
            for count in &report.requests {
                lines.push(Line::styled(
                    format!(
                        "{} {}: {} sent, {} cached",
                        count.role, count.profile, count.sent, count.cached
                    ),
                    app.theme.dim(),
                ));
            }
        }
    }
    let title = match probe.basis.stale_since() {
        Some(_) if probe.running.is_some() || probe.report.is_some() => "Probe · STALE",
        _ => "Probe",
    };
    let block = pane(app, title.into(), focused, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn discarded(count: usize) -> String {
    if count == 0 {
        String::new()
    } else {
        format!(", {count} wordings discarded")
    }
}

pub fn render_failure(app: &App, frame: &mut Frame, area: Rect) {
    let focused = app.focus == Pane::ProbeFailure;
    let probe = &app.probe;
    let width = area.width.saturating_sub(2) as usize;
    let failures = probe.failures();
    let Some(failure) = probe.selected_failure() else {
        let message = if probe.results().is_empty() {
            "the wrong answers show here, one at a time (n / N)"
        } else {
            "no wrong answers so far"
        };
        let block = pane(app, "Wrong answers".into(), focused, area);
        frame.render_widget(
            Paragraph::new(Line::styled(message, app.theme.dim())).block(block),
            area,
        );
        return;
    };
    let result = &probe.results()[failure.result];
    let mut lines: Vec<Line<'static>> = Vec::new();
    let field = |lines: &mut Vec<Line<'static>>, label: &str, value: &str, style: Style| {
        lines.push(Line::styled(label.to_string(), app.theme.accent()));
        text(lines, value, width.saturating_sub(2), style);
    };
    let kind = match failure.follow_up {
        Some(_) => "follow-up".to_string(),
        None => result.kind.to_string(),
    };
    let (question, answer, expected, finding, verdict, detail) = match failure.follow_up {
        Some(f) => {
            let follow_up = &result.follow_ups[f];
            field(
                &mut lines,
                "First question",
                &result.question,
                app.theme.dim(),
            );
            field(&mut lines, "First answer", &result.answer, app.theme.dim());
            (
                &follow_up.question,
                &follow_up.answer,
                &follow_up.expected,
                &follow_up.finding,
                follow_up.verdict,
                &follow_up.detail,
            )
        }
        None => (
            &result.question,
            &result.answer,
            &result.expected,
            &result.finding,
            result.verdict,
            &result.detail,
        ),
    };
    field(&mut lines, "Question", question, app.theme.text());
    field(&mut lines, "Answer", answer, app.theme.text());
    lines.push(Line::from(vec![
        Span::styled("Verdict ", app.theme.accent()),
        Span::styled(verdict.to_string().to_uppercase(), app.theme.fail()),
        Span::raw(format!(" · finding {finding} · {kind}")),
    ]));
    if !detail.is_empty() {
        text(&mut lines, detail, width, app.theme.dim());
    }
    field(&mut lines, "Proved answer", expected, app.theme.pass());
    if !result.chain.is_empty() {
        lines.push(Line::styled("Why (the proved chain)", app.theme.accent()));
        for (i, step) in result.chain.iter().enumerate() {
            let head = format!("{}. {} — {}", i + 1, step.rules.join(", "), step.english);
            text(&mut lines, &head, width, app.theme.text());
            if !step.source.is_empty() {
                text(
                    &mut lines,
                    &format!("   “{}”", step.source),
                    width,
                    app.theme.dim(),
                );
            }
        }
    } else if !result.sources.is_empty() {
        lines.push(Line::styled("The policy says", app.theme.accent()));
        for source in &result.sources {
            text(&mut lines, &format!("“{source}”"), width, app.theme.dim());
        }
    }
    if !result.rules.is_empty() {
        text(
            &mut lines,
            &format!(
                "rules: {} · a saves this answer as a test",
                result.rules.join(", ")
            ),
            width,
            app.theme.dim(),
        );
    }
    let at = probe.failure_cursor.min(failures.len() - 1) + 1;
    let title = format!("Wrong answer {at}/{} · {}", failures.len(), result.id);
    let block = pane(app, title, focused, area);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((app.detail_scroll, 0)),
        area,
    );
}
