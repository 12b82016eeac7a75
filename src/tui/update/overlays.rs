//! Keys while an overlay is open: the editor, the palette, search, the
//! variables filter, help and the expected-finding prompt.

use super::edits;
use crate::core::solve::FindingKind;
use crate::tui::input::keymap::Action;
use crate::tui::state::app::{App, Overlay, VariableRow};
use crate::tui::state::assist::NamePurpose;
use crate::tui::state::msg::Effect;
use crate::tui::state::queries::{Command, Hit, filtered_commands, search};
use crossterm::event::{KeyCode, KeyEvent};

/// Rows a picker list shows.
pub const PICKER_ROWS: usize = 12;

pub fn key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let action = app.keymap.action_for(&key);
    let Some(overlay) = app.overlay.as_mut() else {
        return Vec::new();
    };
    match overlay {
        Overlay::Editor(editor) => match action {
            Some(Action::Apply) => return edits::apply_editor(app),
            Some(Action::Close) => return edits::close_editor(app),
            _ => {
                if editor.textarea.input(key) {
                    editor.recheck(&app.compiled, &app.model);
                    app.draft_dirty = true;
                }
            }
        },
        Overlay::Help { offset } => match key.code {
            KeyCode::Down | KeyCode::Char('j') => *offset += 1,
            KeyCode::Up | KeyCode::Char('k') => *offset = offset.saturating_sub(1),
            _ => app.overlay = None,
        },
        Overlay::ExpectPrompt => {
            let answer_mode = app.verify.mode == crate::tui::state::app::VerifyMode::Answer;
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
                app.variable_cursor = Default::default();
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
                    return match command {
                        Command::Action(action) => super::actions::act(app, action),
                        Command::NewType => {
                            edits::open_new_type(app);
                            Vec::new()
                        }
                    };
                }
            } else if let Some((_, hit)) = search(app, &query).into_iter().nth(chosen) {
                jump(app, hit);
            }
        }
        _ => {
            picker.query.input(key);
            picker.cursor = Default::default();
        }
    }
    Vec::new()
}

fn jump(app: &mut App, hit: Hit) {
    match hit {
        Hit::Rule(i) => {
            let id = app.model.rules[i].id.clone();
            super::navigation::jump_to_rule(app, &id);
        }
        Hit::Test(i) => super::navigation::jump_to_test(app, i),
        Hit::Span(i) => {
            super::navigation::show_screen(app, crate::tui::state::app::Screen::Rules);
            app.focus = crate::tui::state::app::Pane::Document;
            super::document::reveal(app, i);
            super::navigation::follow_span(app);
        }
        Hit::Variable(i) | Hit::Type(i) => {
            app.variable_filter.clear();
            let wanted = if matches!(hit, Hit::Variable(_)) {
                VariableRow::Variable(i)
            } else {
                VariableRow::Type(i)
            };
            let row = app
                .variable_rows()
                .iter()
                .position(|r| *r == wanted)
                .unwrap_or(0);
            super::navigation::jump_to_variable_row(app, row);
        }
    }
}
