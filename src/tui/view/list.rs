//! A virtualized list: only the rows in view are built, so a 1,500-rule
//! model scrolls as fast as a small one.

use crate::tui::state::app::{App, ListCursor};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

/// A bordered pane with a title, focus-aware.
pub fn pane<'a>(app: &App, title: String, focused: bool) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.border(focused))
        .title(Line::styled(format!(" {title} "), app.theme.title(focused)))
}

/// What a list shows: its cursor, length and whether it has the keyboard.
#[derive(Debug, Clone, Copy)]
pub struct ListView {
    pub cursor: ListCursor,
    pub len: usize,
    pub focused: bool,
}

/// Draws rows `offset..offset+height` of a list, built by `row(index)`; the
/// selected row is highlighted.
pub fn render_rows<'a>(
    app: &App,
    frame: &mut Frame,
    area: Rect,
    block: Block<'a>,
    view: ListView,
    row: impl Fn(usize) -> Line<'a>,
) {
    let ListView {
        cursor,
        len,
        focused,
    } = view;
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = inner.height as usize;
    let end = (cursor.offset + height).min(len);
    let lines: Vec<Line> = (cursor.offset..end)
        .map(|i| {
            let line = row(i);
            if i == cursor.selected {
                let style = if focused {
                    app.theme.selected()
                } else {
                    app.theme.span_highlight()
                };
                line.style(style)
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
    scroll_marker(app, frame, area, (cursor.offset, height, len), focused);
}

/// A one-column position marker on the right border of `area`, when a list
/// of `len` rows showing `height` from `offset` does not fit.
pub fn scroll_marker(
    app: &App,
    frame: &mut Frame,
    area: Rect,
    (offset, height, len): (usize, usize, usize),
    focused: bool,
) {
    if len > height && height > 0 && area.width > 0 {
        let position = offset * (height.saturating_sub(1)) / len.saturating_sub(height).max(1);
        let y = area.y + 1 + (position.min(height - 1)) as u16;
        frame.render_widget(
            Paragraph::new("┃").style(app.theme.border(focused)),
            Rect::new(area.x + area.width - 1, y, 1, 1),
        );
    }
}

/// Cuts `text` to `width` characters, with an ellipsis when cut.
pub fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else if width == 0 {
        String::new()
    } else {
        format!("{}…", text.chars().take(width - 1).collect::<String>())
    }
}
