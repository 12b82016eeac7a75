//! A virtualized list: only the rows in view are built, so a 1,500-rule
//! model scrolls as fast as a small one.

use crate::state::app::{App, ListCursor};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

/// A bordered pane over `area` with a title, focus-aware. The title is
/// shortened to fit the top border (see [`fit_title`]).
pub fn pane<'a>(app: &App, title: String, focused: bool, area: Rect) -> Block<'a> {
    // Two corners and a space before the title (the one after it goes
    // first when room is short).
    let room = area.width.saturating_sub(3) as usize;
    Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.border(focused))
        .title(Line::styled(
            format!(" {} ", fit_title(&title, room)),
            app.theme.title(focused),
        ))
}

/// A pane title shortened to `width` characters. Titles are parts joined by
/// " · ", most important first (the pane's name, then counts, then key
/// hints), so the last parts go first: whole parts are kept while they fit,
/// the next one may keep its first words (two at least and half of it, or up
/// to the end of a clause when it has clauses), and "…" marks what was left
/// out. Only when
/// the name alone does not fit is it cut.
pub fn fit_title(title: &str, width: usize) -> String {
    let length = |text: &str| text.chars().count();
    if length(title) <= width {
        return title.to_string();
    }
    let parts: Vec<&str> = title.split(" · ").collect();
    for kept in (1..parts.len()).rev() {
        let head = parts[..kept].join(" · ");
        let words: Vec<&str> = parts[kept].split(' ').collect();
        // A part with clauses ("0 errors, 0 warnings") is cut after one.
        let clauses = parts[kept].contains([',', ';', ':']);
        for taken in (2..words.len()).rev() {
            let clause_end = words[taken - 1].ends_with([',', ';', ':']);
            if clauses && !clause_end {
                continue;
            }
            // Cut between words, keep half the part at least ("1 not…" of
            // "1 not policy" says nothing).
            if !clause_end && 2 * length(&words[..taken].join(" ")) < length(parts[kept]) {
                continue;
            }
            let cut = words[..taken]
                .join(" ")
                .trim_end_matches([',', ';', ':'])
                .to_string();
            let candidate = format!("{head} · {cut}…");
            if length(&candidate) <= width {
                return candidate;
            }
        }
        for candidate in [format!("{head} · …"), format!("{head}…")] {
            if length(&candidate) <= width {
                return candidate;
            }
        }
    }
    fit(parts[0], width)
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

#[cfg(test)]
mod tests {
    use super::fit_title;

    #[test]
    fn a_title_that_fits_is_left_alone() {
        assert_eq!(
            fit_title("Rules 1/17 · 17 approved", 24),
            "Rules 1/17 · 17 approved"
        );
    }

    #[test]
    fn the_last_parts_go_first_and_an_ellipsis_says_so() {
        let title = "Diagnostic · enter: go to rule · x: apply fix · L: rerun lint";
        assert_eq!(
            fit_title(title, 52),
            "Diagnostic · enter: go to rule · x: apply fix · …"
        );
        assert_eq!(fit_title(title, 34), "Diagnostic · enter: go to rule · …");
        assert_eq!(fit_title(title, 33), "Diagnostic · enter: go to rule…");
        assert_eq!(fit_title(title, 20), "Diagnostic · …");
        assert_eq!(fit_title(title, 10), "Diagnostic");
        assert_eq!(fit_title(title, 6), "Diagn…");
        let stale = "Coverage · STALE since edit rule R4 · C to measure again";
        assert_eq!(fit_title(stale, 30), "Coverage · STALE since edit…");
        let marked = "Document · 2 spans without rules · 1 not policy";
        assert_eq!(
            fit_title(marked, 45),
            "Document · 2 spans without rules · …"
        );
    }

    #[test]
    fn a_part_with_clauses_is_cut_after_one() {
        let title = "Lint · 10 found: 0 errors, 0 warnings, 10 notes";
        assert_eq!(
            fit_title(title, 40),
            "Lint · 10 found: 0 errors, 0 warnings…"
        );
        assert_eq!(fit_title(title, 30), "Lint · 10 found: 0 errors…");
        assert_eq!(fit_title(title, 16), "Lint · 10 found…");
        assert_eq!(fit_title(title, 12), "Lint · …");
        // Without room for " · …", the ellipsis follows the last part kept.
        let spans = "Spans · 12 formalized, 0 failed · F reformalizes";
        assert_eq!(fit_title(spans, 32), "Spans · 12 formalized, 0 failed…");
    }
}
