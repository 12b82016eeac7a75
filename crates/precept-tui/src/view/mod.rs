//! Drawing. `render` reads the app and draws; it changes nothing.

mod answer;
mod answer_tests;
mod consultant;
mod definition;
pub mod document;
mod finding;
mod formalize;
mod list;
mod overlays;
mod probe_screen;
mod repair;
mod rules;
mod status;
mod tests_screen;
mod variables;
mod verify;
mod version_diff;
mod vetting;
mod why;

use crate::measure::layout::areas;
use crate::state::app::{App, Screen};
use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let layout = areas(app.screen, (area.width, area.height));
    render_tabs(app, frame, layout.tabs);
    match app.screen {
        Screen::Rules => {
            document::render(app, frame, layout.document);
            rules::render_list(app, frame, layout.list);
            rules::render_detail(app, frame, layout.detail);
        }
        Screen::Variables => {
            variables::render_list(app, frame, layout.list);
            variables::render_detail(app, frame, layout.detail);
        }
        Screen::Tests => {
            tests_screen::render_list(app, frame, layout.list);
            answer_tests::render_list(app, frame, layout.nl_tests);
            if app.focus == crate::state::app::Pane::AnswerTests {
                answer_tests::render_detail(app, frame, layout.detail);
            } else {
                tests_screen::render_detail(app, frame, layout.detail);
            }
        }
        Screen::Verify => match app.verify.mode {
            crate::state::app::VerifyMode::Logic => {
                verify::render(app, frame, layout.inputs, layout.detail)
            }
            crate::state::app::VerifyMode::Answer => {
                answer::render(app, frame, layout.inputs, layout.detail)
            }
            crate::state::app::VerifyMode::Consultant => {
                consultant::render(app, frame, layout.inputs, layout.detail)
            }
        },
        Screen::Vetting => {
            vetting::render_list(app, frame, layout.list);
            vetting::render_detail(app, frame, layout.detail);
            vetting::render_coverage(app, frame, layout.coverage);
        }
        Screen::Formalize => {
            formalize::render_spans(app, frame, layout.list);
            formalize::render_clusters(app, frame, layout.clusters);
            formalize::render_detail(app, frame, layout.detail);
        }
        Screen::Probe => {
            probe_screen::render_run(app, frame, layout.list);
            probe_screen::render_failure(app, frame, layout.detail);
        }
    }
    status::render(app, frame, layout.status);
    overlays::render(app, frame);
    paint_base(app, frame);
}

/// Gives every cell left in the terminal's own colours (`Reset`, as widgets
/// and `Clear` leave them) the theme's background and text colour, so a light
/// theme is readable on a dark terminal and the other way round.
fn paint_base(app: &App, frame: &mut Frame) {
    let base = app.theme.base();
    let area = frame.area();
    let buffer = frame.buffer_mut();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = &mut buffer[(x, y)];
            if cell.bg == ratatui::style::Color::Reset {
                cell.bg = base.bg.unwrap_or_default();
            }
            if cell.fg == ratatui::style::Color::Reset {
                cell.fg = base.fg.unwrap_or_default();
            }
        }
    }
}

fn render_tabs(app: &App, frame: &mut Frame, area: ratatui::layout::Rect) {
    let mut spans = Vec::new();
    for (i, screen) in Screen::ALL.iter().enumerate() {
        let text = format!(" {} {} ", i + 1, screen.title());
        let style = if *screen == app.screen {
            app.theme.selected()
        } else {
            app.theme.dim()
        };
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    let title = if app.ws.model.title.is_empty() {
        app.ws.project_dir.display().to_string()
    } else {
        app.ws.model.title.clone()
    };
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let room = (area.width as usize).saturating_sub(used + 1);
    if room > 3 {
        let shown: String = if title.chars().count() > room {
            format!("{}…", title.chars().take(room - 1).collect::<String>())
        } else {
            title
        };
        spans.push(Span::styled(format!("{shown:>room$}"), app.theme.accent()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
