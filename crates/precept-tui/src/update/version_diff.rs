//! The draft's diff against the version it started from: opening it asks
//! the runtime for the diff, progress and the result arrive as messages,
//! and the overlay scrolls. Every save refreshes where the draft stands.

use crate::input::keymap::Action;
use crate::measure::diff_rows::{diff_rows, diff_width};
use crate::measure::layout::help_rows;
use crate::state::app::{App, Overlay};
use crate::state::job_error::JobError;
use crate::state::msg::Effect;
use crate::state::msg::Msg;
use crate::state::task::Task;
use crate::state::version_diff::{DiffView, DraftVersion, VersionDiffState, view_lines};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::lifecycle::diff::{Side, diff_with_progress};
use precept_engine::lifecycle::reference::ModelRef;
use precept_engine::workspace::Stamp;

/// Opens the diff overlay and starts the diff (before any version: says how
/// to freeze one).
pub fn open(app: &mut App) -> Vec<Effect> {
    let Some(base) = app.version.base else {
        app.status.message =
            Some("no version to compare with yet: freeze one with `precept version DIR`".into());
        return Vec::new();
    };
    let stamp = app.ws.stamp();
    app.status.job = Some(format!("diff against v{base}"));
    app.overlay = Some(Overlay::VersionDiff(Box::new(VersionDiffState {
        job: stamp.job,
        base,
        view: DiffView::Running("starting".into()),
        offset: 0,
    })));
    vec![Effect::Background(Task::new(
        "VersionDiff",
        stamp,
        move |context, send| {
            let side = |version| {
                Side::load(&ModelRef {
                    project: context.project_dir.clone(),
                    version,
                })
                .map_err(JobError::of)
            };
            let result = side(Some(base)).and_then(|a| {
                let b = side(None)?;
                let progress = |text: &str| {
                    send(Msg::VersionDiffProgress {
                        stamp,
                        text: text.to_string(),
                    })
                };
                Ok(Box::new(diff_with_progress(&a, &b, None, &progress)))
            });
            send(Msg::VersionDiffDone { stamp, result });
        },
    ))]
}

fn current(app: &mut App, stamp: Stamp) -> Option<&mut VersionDiffState> {
    match app.overlay.as_mut() {
        Some(Overlay::VersionDiff(state)) if state.job == stamp.job => Some(state),
        _ => None,
    }
}

pub fn progress(app: &mut App, stamp: Stamp, text: String) -> Vec<Effect> {
    if let Some(state) = current(app, stamp) {
        state.view = DiffView::Running(text);
    }
    Vec::new()
}

pub fn done(
    app: &mut App,
    stamp: Stamp,
    result: Result<
        Box<precept_engine::lifecycle::diff::ModelDiff>,
        crate::state::job_error::JobError,
    >,
) -> Vec<Effect> {
    // The newest diff answered, or nobody waits for one any more.
    let waiting = matches!(&app.overlay, Some(Overlay::VersionDiff(_)));
    if !waiting || current(app, stamp).is_some() {
        app.status.job = None;
    }
    if let Some(state) = current(app, stamp) {
        state.view = match result {
            Ok(diff) => DiffView::Ready(diff),
            Err(error) => DiffView::Failed(error.to_string()),
        };
    }
    Vec::new()
}

/// A save changed the draft's files: where it stands now.
pub fn draft_version(app: &mut App, version: DraftVersion) -> Vec<Effect> {
    app.version = version;
    Vec::new()
}

/// How many rows the overlay's diff takes, wrapped to its width on a
/// terminal of `size`.
pub fn line_count(state: &VersionDiffState, size: (u16, u16)) -> usize {
    diff_rows(&view_lines(state), diff_width(size)).len()
}

/// Keys while the diff is open: scroll, or close (esc, or the key that opened it).
pub fn key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let rows = help_rows(app.size);
    let closes = app.keymap.action_for(&key) == Some(Action::DiffBase);
    let Some(Overlay::VersionDiff(state)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    let last = line_count(state, app.size).saturating_sub(rows);
    let offset = &mut state.offset;
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => *offset = (*offset + 1).min(last),
        KeyCode::Up | KeyCode::Char('k') => *offset = offset.saturating_sub(1),
        KeyCode::PageDown => *offset = (*offset + rows).min(last),
        KeyCode::PageUp => *offset = offset.saturating_sub(rows),
        KeyCode::Home => *offset = 0,
        KeyCode::End => *offset = last,
        KeyCode::Esc => app.overlay = None,
        _ if closes => app.overlay = None,
        _ => {}
    }
    Vec::new()
}
