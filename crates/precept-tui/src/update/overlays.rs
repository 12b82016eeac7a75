//! Keys while an overlay is open: the editor, the palette, search, the
//! variables filter, help and the expected-finding prompt.

use super::edits;
use crate::input::keymap::Action;
use crate::measure::layout::help_rows;
use crate::state::app::{App, Overlay};
use crate::state::msg::Effect;
use crate::state::name_prompt::NamePurpose;
use crate::state::queries::{filtered_commands, search};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::solve::FindingKind;

/// Rows a picker list shows.
pub const PICKER_ROWS: usize = 12;

pub fn key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let action = app.keymap.action_for(&key);
    let Some(overlay) = app.overlay.as_mut() else {
        return Vec::new();
    };
    match overlay {
        Overlay::VersionDiff(_) => return super::version_diff::key(app, key),
        Overlay::Editor(editor) => match action {
            Some(Action::Apply) => return edits::apply_editor(app),
            Some(Action::Close) => return edits::close_editor(app),
            _ => {
                if editor.textarea.input(key) {
                    editor.recheck(&app.ws.compiled, &app.ws.model);
                    app.draft_dirty = true;
                }
            }
        },
        Overlay::Help { offset } => {
            // The footer names these keys: j/k ↑/↓ scroll, pgup/pgdn page,
            // esc or ? closes (so does f1, which opens it). Other keys do nothing.
            let rows = help_rows(app.size);
            let last = app.keymap.bindings.len().saturating_sub(rows);
            match key.code {
                KeyCode::Down | KeyCode::Char('j') => *offset = (*offset + 1).min(last),
                KeyCode::Up | KeyCode::Char('k') => *offset = offset.saturating_sub(1),
                KeyCode::PageDown => *offset = (*offset + rows).min(last),
                KeyCode::PageUp => *offset = offset.saturating_sub(rows),
                KeyCode::Home => *offset = 0,
                KeyCode::End => *offset = last,
                KeyCode::Esc | KeyCode::Char('?') | KeyCode::F(1) => app.overlay = None,
                _ => {}
            }
        }
        Overlay::ExpectPrompt => {
            let answer_mode = app.verify.mode == crate::state::app::VerifyMode::Answer;
            let expected = match key.code {
                KeyCode::Char('v') => Some(FindingKind::Valid),
                KeyCode::Char('i') => Some(FindingKind::Invalid),
                KeyCode::Char('s') => Some(FindingKind::Satisfiable),
                KeyCode::Char('m') => Some(FindingKind::Impossible),
                KeyCode::Char('c') => Some(FindingKind::TooComplex),
                KeyCode::Char('a') if answer_mode => Some(FindingKind::TranslationAmbiguous),
                KeyCode::Char('n') if answer_mode => Some(FindingKind::NoTranslations),
                _ => None,
            };
            app.overlay = None;
            if let Some(expected) = expected {
                super::save_test::ask_name(app, expected);
            }
        }
        Overlay::RejectPrompt { test_index } => {
            let index = *test_index;
            let expected = match key.code {
                KeyCode::Char('v') => Some(FindingKind::Valid),
                KeyCode::Char('i') => Some(FindingKind::Invalid),
                KeyCode::Char('s') => Some(FindingKind::Satisfiable),
                KeyCode::Char('m') => Some(FindingKind::Impossible),
                _ => None,
            };
            app.overlay = None;
            if let Some(expected) = expected {
                return super::vetting::reject_with(app, index, expected);
            }
        }
        Overlay::Filter(input) => match key.code {
            KeyCode::Esc => {
                app.variable_filter.clear();
                app.overlay = None;
                super::navigation::rescroll(app);
            }
            KeyCode::Enter => app.overlay = None,
            _ => {
                input.input(key);
                app.variable_filter = input.lines().join(" ");
                app.cursors.variable = Default::default();
                super::navigation::rescroll(app);
            }
        },
        Overlay::Repair(_) => return super::repair::key(app, key),
        Overlay::Why(_) => return super::why::key(app, key),
        Overlay::FixChoice(_) => return super::vetting::fix_choice_key(app, key),
        Overlay::Name(prompt) if matches!(prompt.purpose, NamePurpose::SaveTest { .. }) => {
            return super::save_test::name_key(app, key);
        }
        Overlay::ConfirmAcceptImpossible { .. } => {
            return super::vetting::confirm_accept_impossible_key(app, key);
        }
        Overlay::Name(_) => return super::formalize::name_prompt_key(app, key),
        Overlay::Palette(_) | Overlay::Search(_) => {
            let is_palette = matches!(app.overlay, Some(Overlay::Palette(_)));
            return picker_key(app, key, is_palette);
        }
    }
    Vec::new()
}

fn picker_key(app: &mut App, key: KeyEvent, is_palette: bool) -> Vec<Effect> {
    let query = match &app.overlay {
        Some(Overlay::Palette(p)) | Some(Overlay::Search(p)) => p.text(),
        _ => return Vec::new(),
    };
    let len = if is_palette {
        filtered_commands(app, &query).len()
    } else {
        search(app, &query).len()
    };
    let Some(Overlay::Palette(picker) | Overlay::Search(picker)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => app.overlay = None,
        KeyCode::Down => picker.cursor.step(1, len, PICKER_ROWS),
        KeyCode::Up => picker.cursor.step(-1, len, PICKER_ROWS),
        KeyCode::Enter => {
            let chosen = picker.cursor.selected;
            app.overlay = None;
            if is_palette {
                if let Some((_, command)) = filtered_commands(app, &query).into_iter().nth(chosen) {
                    return super::commands::run(app, command);
                }
            } else if let Some((_, hit)) = search(app, &query).into_iter().nth(chosen) {
                super::commands::jump(app, hit);
            }
        }
        _ => {
            picker.query.input(key);
            picker.cursor = Default::default();
        }
    }
    Vec::new()
}
