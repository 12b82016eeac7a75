//! The diff overlay: the draft against the version it started from, the
//! behaviour first, the distinguishing scenarios as tables, then the
//! changed rules (both sides next to each other) and the tests whose
//! finding changes; long lines wrap (`measure/diff_rows.rs`).

use super::list::{fit, pane, scroll_marker};
use crate::measure::diff_rows::diff_rows;
use crate::measure::layout::{help_area, help_rows};
use crate::state::app::App;
use crate::state::version_diff::{LineKind, VersionDiffState, view_lines};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub fn render(app: &App, frame: &mut Frame, state: &VersionDiffState) {
    let size = app.size;
    let area = help_area(size);
    frame.render_widget(Clear, area);
    let block = pane(app, format!("Diff: v{} → draft", state.base), true, area);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let rows = help_rows(size);
    let lines = diff_rows(&view_lines(state), width);
    let len = lines.len();
    let offset = state.offset.min(len.saturating_sub(rows));
    let shown: Vec<Line> = lines
        .iter()
        .skip(offset)
        .take(rows)
        .map(|(kind, text)| {
            let style = match kind {
                LineKind::Heading => app.theme.title(false),
                LineKind::Good => app.theme.pass(),
                LineKind::Bad => app.theme.fail(),
                LineKind::Table => app.theme.accent(),
                LineKind::Text => app.theme.text(),
            };
            Line::styled(fit(text, width), style)
        })
        .collect();
    frame.render_widget(Paragraph::new(shown), inner);
    scroll_marker(app, frame, area, (offset, rows, len), true);
    let below = len.saturating_sub(offset + rows);
    let more = if below > 0 {
        format!("↓ {below} more")
    } else {
        String::new()
    };
    let keys = fit(
        "j/k ↑/↓ scroll · pgup/pgdn page · esc closes",
        width.saturating_sub(more.chars().count() + 1),
    );
    let gap = width.saturating_sub(keys.chars().count() + more.chars().count());
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(keys, app.theme.dim()),
            Span::raw(" ".repeat(gap)),
            Span::styled(more, app.theme.accent()),
        ])),
        Rect::new(
            inner.x,
            inner.y + inner.height.saturating_sub(1),
            inner.width,
            1,
        ),
    );
}
