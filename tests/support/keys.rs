//! Driving the workbench's update function as a user types, without a
//! terminal: the app on a project, key presses in, effects out, and the
//! screen as drawn at the app's size.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept::model::Project;
use precept::model::drafts::Drafts;
use precept::tui::input::keymap::Keymap;
use precept::tui::state::app::App;
use precept::tui::state::msg::{Effect, Msg};
use precept::tui::style::theme::Theme;
use precept::tui::update::update;
use std::path::Path;

/// The workbench's state on the project in `dir`, at 100×30, dark theme.
pub fn open_app(dir: &Path) -> App {
    App::new(
        Project::load_unchecked(dir).expect("the project loads"),
        Drafts::load(dir).expect("the drafts load"),
        Keymap::default(),
        Theme::built_in("dark").unwrap(),
        (100, 30),
    )
}

/// The app on a scratch copy of the park sample (kept while the folder is).
pub fn park() -> (tempfile::TempDir, App) {
    let dir = super::copy_sample("park-admission");
    let app = open_app(dir.path());
    (dir, app)
}

pub fn key_event(code: KeyCode, modifiers: KeyModifiers) -> Msg {
    Msg::Key(KeyEvent::new(code, modifiers))
}

/// A key with `modifiers`.
pub fn key(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Vec<Effect> {
    update(app, key_event(code, modifiers))
}

/// A key without modifiers.
pub fn code(app: &mut App, code: KeyCode) -> Vec<Effect> {
    key(app, code, KeyModifiers::NONE)
}

/// A character typed.
pub fn press(app: &mut App, c: char) -> Vec<Effect> {
    code(app, KeyCode::Char(c))
}

/// ctrl and a character.
pub fn ctrl(app: &mut App, c: char) -> Vec<Effect> {
    key(app, KeyCode::Char(c), KeyModifiers::CONTROL)
}

/// Types text key by key; returns every effect it caused.
pub fn type_text(app: &mut App, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(press(app, c));
    }
    effects
}

/// The screen as drawn at the app's size, one string per row.
pub fn screen_text(app: &App) -> String {
    let (width, height) = app.size;
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| precept::tui::view::render(app, frame))
        .unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}
