//! The status line: the job in progress (with a spinner), the last message
//! or error, and a hint.

use crate::tui::state::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let mut spans = Vec::new();
    // Where the keys go is never a guess: while an input has them, say so.
    let consulting = app.screen == crate::tui::state::app::Screen::Verify
        && app.verify.mode == crate::tui::state::app::VerifyMode::Consultant;
    let typing = if consulting {
        matches!(
            app.verify.consultant.entry,
            Some(crate::tui::state::consultant::ValueEntry::Number { .. })
        )
    } else {
        app.focus == crate::tui::state::app::Pane::VerifyInput
    };
    if app.overlay.is_none() && typing {
        spans.push(Span::styled(
            " TYPING · esc: keys act again ",
            app.theme.selected(),
        ));
        spans.push(Span::raw(" "));
    }
    if let Some(job) = &app.status.job {
        let spin = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][(app.tick % 10) as usize];
        spans.push(Span::styled(format!("{spin} {job}  "), app.theme.pending()));
    }
    if let Some(error) = &app.status.last_error {
        spans.push(Span::styled(format!("✗ {error}  "), app.theme.error()));
    }
    // The suite's standing stays in view whatever message another job left.
    let failed = app.counts().1;
    let standing = app.standing();
    let standing_style = if failed > 0 {
        app.theme.fail()
    } else {
        app.theme.pass()
    };
    match &app.status.message {
        Some(message) => {
            spans.push(Span::styled(message.clone(), app.theme.text()));
            if app.pending == 0 && !message.contains(&standing) {
                spans.push(Span::styled(format!("  · {standing}"), standing_style));
            }
        }
        None if app.status.job.is_none() => spans.push(Span::styled(standing, standing_style)),
        None => {}
    }
    let hint = format!(
        " {} help · {} commands ",
        app.keymap.keys_for(crate::tui::input::keymap::Action::Help),
        app.keymap
            .keys_for(crate::tui::input::keymap::Action::Palette)
    );
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let room = (area.width as usize).saturating_sub(used);
    if room > hint.chars().count() {
        spans.push(Span::styled(format!("{hint:>room$}"), app.theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
