//! The status line: the job in progress (with a spinner), the last message
//! or error, the version the draft started from ("v3 · changed"), and a hint.

use crate::state::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let mut spans = Vec::new();
    // Where the keys go is never a guess: while an input has them, say so.
    let consulting = app.screen == crate::state::app::Screen::Verify
        && app.verify.mode == crate::state::app::VerifyMode::Consultant;
    let typing = if consulting {
        matches!(
            app.verify.consultant.entry,
            Some(crate::state::consultant::ValueEntry::Number { .. })
        )
    } else {
        app.focus == crate::state::app::Pane::VerifyInput
    };
    if app.overlay.is_none() && typing {
        spans.push(Span::styled(
            " TYPING · esc: keys act again ",
            app.theme.selected(),
        ));
        spans.push(Span::raw(" "));
    }
    // Rules marked for feedback go into the next `w`: never a surprise.
    if !app.repair_draft.marked.is_empty() {
        spans.push(Span::styled(
            format!("● {} marked ", app.repair_draft.marked.len()),
            app.theme.emphasis(),
        ));
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
            if app.ws.run.pending == 0 && !message.contains(&standing) {
                spans.push(Span::styled(format!("  · {standing}"), standing_style));
            }
        }
        None if app.status.job.is_none() => spans.push(Span::styled(standing, standing_style)),
        None => {}
    }
    let hint = format!(
        " {} help · {} commands ",
        app.keymap.keys_for(crate::input::keymap::Action::Help),
        app.keymap.keys_for(crate::input::keymap::Action::Palette)
    );
    // The version the draft started from, and whether it changed since:
    // kept in view before the hint, which gives way first.
    let version = app.version.label().map(|label| format!(" {label} "));
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let room = (area.width as usize).saturating_sub(used);
    let version_width = version.as_ref().map_or(0, |v| v.chars().count());
    let hint = if room > version_width + hint.chars().count() {
        hint
    } else {
        String::new()
    };
    if room > version_width {
        let pad = room - version_width;
        spans.push(Span::styled(format!("{hint:>pad$}"), app.theme.dim()));
        if let Some(version) = version {
            let style = if app.version.changed {
                app.theme.pending()
            } else {
                app.theme.accent()
            };
            spans.push(Span::styled(version, style));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
