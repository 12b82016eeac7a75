//! The verify screen: type a premise and a claim, get the finding with its
//! evidence, save it as a test.

use super::finding::{finding_style, lines as finding_lines};
use super::list::pane;
use crate::state::app::{App, Pane};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

pub fn render(app: &App, frame: &mut Frame, inputs: Rect, result: Rect) {
    let typing = app.focus == Pane::VerifyInput;
    let block = pane(
        app,
        "Ask · enter verify · tab field · ctrl-s save as test · ctrl-t Q&A · esc leave".into(),
        typing,
        inputs,
    );
    let inner = block.inner(inputs);
    frame.render_widget(block, inputs);
    for (i, (label, field)) in [
        ("premise", &app.verify.premise),
        ("claim", &app.verify.claim),
    ]
    .into_iter()
    .enumerate()
    {
        let y = inner.y + (i as u16) * 2;
        if y >= inner.y + inner.height {
            break;
        }
        let active = typing && app.verify.field == i;
        // The field with the keys says so: a marker, its label highlighted,
        // and the terminal's own cursor in it.
        let (marker, style) = if active {
            ("▸", app.theme.selected())
        } else {
            (" ", app.theme.title(false))
        };
        frame.render_widget(
            Paragraph::new(Span::styled(format!("{marker}{label:>7} "), style)),
            Rect::new(inner.x, y, 9.min(inner.width), 1),
        );
        // Two rows for each field: a long premise wraps instead of
        // scrolling out of sight.
        let rows = (inner.y + inner.height).saturating_sub(y).min(2);
        let area = Rect::new(inner.x + 9, y, inner.width.saturating_sub(9), rows);
        render_field(app, frame, field, area, active);
    }
    // The reading matters only where a definition has exceptions.
    let title = match (app.ws.compiled.exceptions.is_empty(), app.verify.strict) {
        (true, _) => "Finding".to_string(),
        (false, false) => {
            "Finding · default reading: unmentioned exceptions assumed absent (ctrl-l strict)"
                .into()
        }
        (false, true) => "Finding · strict reading: nothing assumed (ctrl-l default)".into(),
    };
    let block = pane(app, title, app.focus == Pane::VerifyResult, result);
    let inner = block.inner(result);
    frame.render_widget(block, result);
    let mut lines: Vec<Line> = Vec::new();
    if let Some(error) = &app.verify.error {
        lines.push(Line::styled(error.clone(), app.theme.error()));
    } else if app.verify.running {
        lines.push(Line::styled("asking the solver…", app.theme.pending()));
    } else if let Some(finding) = &app.verify.finding {
        lines.push(Line::styled(
            finding.kind.name(),
            finding_style(app, finding.kind),
        ));
        if let Some(change) = &app.verify.asked_again_after {
            lines.push(Line::styled(
                format!("Asked again after {change}: this is the current model's answer."),
                app.theme.dim(),
            ));
        }
        lines.extend(finding_lines(app, finding, None, inner.width as usize));
    } else {
        lines.push(Line::styled(
            "Type a premise and a claim over the model's variables and press enter.",
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

/// One input: its text wrapped over the rows of `area` (the rows around
/// the cursor when it needs more), its placeholder when empty, and the
/// terminal's cursor in it while it has the keys.
fn render_field(
    app: &App,
    frame: &mut Frame,
    field: &ratatui_textarea::TextArea<'static>,
    area: Rect,
    active: bool,
) {
    let width = (area.width as usize).max(1);
    let text: Vec<char> = field.lines().join(" ").chars().collect();
    let cursor = field.cursor().1.min(text.len());
    let rows = wrap_rows(&text, width);
    // The row the cursor is on, and the first row shown so that it is.
    let cursor_row = rows
        .iter()
        .position(|&(start, end)| cursor >= start && cursor < end)
        .unwrap_or(rows.len() - 1);
    let first = (cursor_row + 1).saturating_sub(area.height as usize);
    if text.is_empty() {
        frame.render_widget(
            Paragraph::new(Span::styled(
                field.placeholder_text().to_string(),
                app.theme.dim(),
            )),
            Rect::new(area.x, area.y, area.width, 1.min(area.height)),
        );
    } else {
        let lines: Vec<Line> = rows
            .iter()
            .skip(first)
            .take(area.height as usize)
            .map(|&(start, end)| {
                Line::styled(
                    text[start..end].iter().collect::<String>(),
                    app.theme.text(),
                )
            })
            .collect();
        frame.render_widget(Paragraph::new(lines), area);
    }
    if active && app.overlay.is_none() {
        let x = area.x + (cursor - rows[cursor_row].0) as u16;
        let y = area.y + (cursor_row - first) as u16;
        frame.set_cursor_position((x.min(area.x + area.width.saturating_sub(1)), y));
    }
}

/// Where a line of `text` breaks into rows of at most `width` characters:
/// after a space where there is one, else mid-word.
fn wrap_rows(text: &[char], width: usize) -> Vec<(usize, usize)> {
    let mut rows = Vec::new();
    let mut start = 0;
    while text.len() - start > width {
        let limit = start + width;
        let cut = (start + 1..=limit)
            .rev()
            .find(|&i| text[i - 1] == ' ')
            .unwrap_or(limit);
        rows.push((start, cut));
        start = cut;
    }
    rows.push((start, text.len()));
    rows
}
