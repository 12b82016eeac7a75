//! Overlays: the editor (with the live error under the cursor line, or the
//! rule's English under the text while it checks), the
//! command palette, search, the filter box, help and the expected-finding
//! prompt.

use super::list::{fit, pane, scroll_marker};
use crate::measure::layout::{help_area, help_rows, overlay};
use crate::measure::text::wrap;
use crate::state::app::{App, Overlay};
use crate::state::queries::{filtered_commands, search};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn render(app: &App, frame: &mut Frame) {
    let Some(current) = &app.overlay else { return };
    let size = (frame.area().width, frame.area().height);
    match current {
        Overlay::Editor(editor) => {
            let area = overlay(size, 86, 14);
            frame.render_widget(Clear, area);
            let hint = format!("{} · ctrl-s apply · esc close", editor.target.title());
            let block = pane(app, hint, true, area);
            let inner = block.inner(area);
            frame.render_widget(block, area);
            let status_row = Rect::new(
                inner.x,
                inner.y + inner.height.saturating_sub(1),
                inner.width,
                1,
            );
            // The rule's English, live, between the text and the status line.
            let english: Vec<String> = editor
                .english
                .as_deref()
                .map(|text| {
                    wrap(text, inner.width as usize)
                        .into_iter()
                        .take((inner.height / 3) as usize)
                        .collect()
                })
                .unwrap_or_default();
            let text_area = Rect::new(
                inner.x,
                inner.y,
                inner.width,
                inner.height.saturating_sub(1 + english.len() as u16),
            );
            frame.render_widget(&editor.textarea, text_area);
            if !english.is_empty() {
                frame.render_widget(
                    Paragraph::new(
                        english
                            .into_iter()
                            .map(|l| Line::styled(l, app.theme.dim()))
                            .collect::<Vec<_>>(),
                    ),
                    Rect::new(
                        inner.x,
                        text_area.y + text_area.height,
                        inner.width,
                        status_row.y.saturating_sub(text_area.y + text_area.height),
                    ),
                );
            }
            match &editor.error {
                Some(error) => {
                    // The error goes under the line the cursor is on.
                    let (top, _) = editor.textarea.scroll_offset();
                    let row = editor.textarea.cursor().0.saturating_sub(top as usize) as u16 + 1;
                    let y = if row < text_area.height {
                        text_area.y + row
                    } else {
                        status_row.y
                    };
                    // A long error (a "did you mean" hint) takes a second
                    // row when one is free below it.
                    let text = format!("▲ {error}");
                    let width = inner.width as usize;
                    let mut rows = wrap(&text, width);
                    let free = (status_row.y.saturating_sub(y) as usize).max(1);
                    if rows.len() > free.min(2) {
                        rows = vec![fit(&text, width)];
                    }
                    let lines: Vec<Line> = rows.into_iter().map(Line::from).collect();
                    let height = lines.len() as u16;
                    frame.render_widget(
                        Paragraph::new(lines).style(app.theme.error()),
                        Rect::new(inner.x, y, inner.width, height),
                    );
                    frame.render_widget(
                        Paragraph::new("ctrl-s keeps it as a draft; it is applied once it checks")
                            .style(app.theme.dim()),
                        status_row,
                    );
                }
                None => frame.render_widget(
                    Paragraph::new("✓ checks: ctrl-s applies it and reruns the affected tests")
                        .style(app.theme.pass()),
                    status_row,
                ),
            }
        }
        Overlay::Palette(picker) | Overlay::Search(picker) => {
            let is_palette = matches!(current, Overlay::Palette(_));
            let area = overlay(size, 70, 16);
            frame.render_widget(Clear, area);
            let block = pane(
                app,
                if is_palette {
                    "Commands".into()
                } else {
                    "Search".into()
                },
                true,
                area,
            );
            let inner = block.inner(area);
            frame.render_widget(block, area);
            frame.render_widget(&picker.query, Rect::new(inner.x, inner.y, inner.width, 1));
            let query = picker.text();
            let labels: Vec<String> = if is_palette {
                filtered_commands(app, &query)
                    .into_iter()
                    .map(|(l, _)| l)
                    .collect()
            } else {
                search(app, &query).into_iter().map(|(l, _)| l).collect()
            };
            let rows = inner.height.saturating_sub(2) as usize;
            let lines: Vec<Line> = labels
                .iter()
                .enumerate()
                .skip(picker.cursor.offset)
                .take(rows)
                .map(|(i, label)| {
                    let style = if i == picker.cursor.selected {
                        app.theme.selected()
                    } else {
                        app.theme.text()
                    };
                    Line::styled(fit(label, inner.width as usize), style)
                })
                .collect();
            let empty = if labels.is_empty() {
                if query.trim().is_empty() && !is_palette {
                    "type to search"
                } else {
                    "no matches"
                }
            } else {
                ""
            };
            frame.render_widget(
                Paragraph::new(lines),
                Rect::new(inner.x, inner.y + 2, inner.width, rows as u16),
            );
            if !empty.is_empty() {
                frame.render_widget(
                    Paragraph::new(empty).style(app.theme.dim()),
                    Rect::new(inner.x, inner.y + 2, inner.width, 1),
                );
            }
        }
        Overlay::Filter(input) => {
            let area = overlay(size, 50, 3);
            frame.render_widget(Clear, area);
            let block = pane(app, "Filter · enter keep · esc clear".into(), true, area);
            let inner = block.inner(area);
            frame.render_widget(block, area);
            frame.render_widget(input, inner);
        }
        Overlay::Help { offset } => {
            let area = help_area(size);
            frame.render_widget(Clear, area);
            let block = pane(app, "Keys".into(), true, area);
            let inner = block.inner(area);
            frame.render_widget(block, area);
            let rows = help_rows(size);
            let len = app.keymap.bindings.len();
            let offset = (*offset).min(len.saturating_sub(rows));
            let key_width = 18;
            let lines: Vec<Line> = app
                .keymap
                .bindings
                .iter()
                .skip(offset)
                .take(rows)
                .map(|b| {
                    Line::from(vec![
                        Span::styled(
                            format!("{:<key_width$}", fit(&b.keys.join(" "), key_width - 1)),
                            app.theme.accent(),
                        ),
                        Span::styled(
                            fit(&b.desc, (inner.width as usize).saturating_sub(key_width)),
                            app.theme.text(),
                        ),
                    ])
                })
                .collect();
            frame.render_widget(Paragraph::new(lines), inner);
            scroll_marker(app, frame, area, (offset, rows, len), true);
            let footer = Rect::new(
                inner.x,
                inner.y + inner.height.saturating_sub(1),
                inner.width,
                1,
            );
            let below = len.saturating_sub(offset + rows);
            let more = match (offset > 0, below > 0) {
                (_, true) => format!("↓ {below} more"),
                (true, false) => format!("↑ {offset} more"),
                (false, false) => String::new(),
            };
            let keys = if more.is_empty() {
                "esc or ? closes"
            } else {
                "j/k ↑/↓ scroll · pgup/pgdn page · esc or ? closes"
            };
            let width = inner.width as usize;
            let keys = fit(keys, width.saturating_sub(more.chars().count() + 1));
            let gap = width.saturating_sub(keys.chars().count() + more.chars().count());
            frame.render_widget(
                Paragraph::new(Line::from(vec![
                    Span::styled(keys, app.theme.dim()),
                    Span::raw(" ".repeat(gap)),
                    Span::styled(more, app.theme.accent()),
                ])),
                footer,
            );
        }
        Overlay::RejectPrompt { test_index } => {
            let area = overlay(size, 60, 5);
            frame.render_widget(Clear, area);
            let proved = app
                .ws
                .tests
                .tests
                .get(*test_index)
                .and_then(|t| t.proved)
                .map(|k| k.name())
                .unwrap_or("?");
            let block = pane(
                app,
                format!("Reject: the solver proved {proved}; you expected…"),
                true,
                area,
            );
            let inner = block.inner(area);
            frame.render_widget(block, area);
            frame.render_widget(
                Paragraph::new(
                    "v VALID · i INVALID · s SATISFIABLE · m IMPOSSIBLE · other: cancel",
                )
                .style(app.theme.text()),
                inner,
            );
        }
        Overlay::Repair(state) => super::repair::render_repair(app, frame, state),
        Overlay::Why(why) => super::why::render(app, frame, why),
        Overlay::VersionDiff(state) => super::version_diff::render(app, frame, state),
        Overlay::Name(prompt) => super::repair::render_name(app, frame, prompt),
        Overlay::FixChoice(choice) => super::vetting::render_fix_choice(app, frame, choice),
        Overlay::ConfirmAcceptImpossible { warning, .. } => {
            super::vetting::render_accept_impossible(app, frame, warning)
        }
        Overlay::ExpectPrompt => {
            let area = overlay(size, 70, 5);
            frame.render_widget(Clear, area);
            let block = pane(app, "Save as a test expecting…".into(), true, area);
            let inner = block.inner(area);
            frame.render_widget(block, area);
            let choices = if app.verify.mode == crate::state::app::VerifyMode::Answer {
                "v VALID · i INVALID · s SATISFIABLE · m IMPOSSIBLE · c TOO_COMPLEX · a TRANSLATION_AMBIGUOUS · n NO_TRANSLATIONS · other: cancel"
            } else {
                "v VALID · i INVALID · s SATISFIABLE · m IMPOSSIBLE · c TOO_COMPLEX · other: cancel"
            };
            frame.render_widget(
                Paragraph::new(choices)
                    .wrap(ratatui::widgets::Wrap { trim: true })
                    .style(app.theme.text()),
                inner,
            );
        }
    }
}
