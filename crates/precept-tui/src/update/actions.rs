//! What each action of the keymap does (the command palette runs them
//! too).

use ratatui_textarea::TextArea;

use super::{
    answer, answer_tests, consolidation, consultant, document, edits, formalize, lint_rows,
    navigation, probe_screen, repair, runs, vetting, why,
};
use crate::input::keymap::Action;
use crate::state::app::{App, Overlay, Pane, Screen};
use crate::state::msg::Effect;

/// Carries out one action of the keymap (also used by the command palette).
pub fn act(app: &mut App, action: Action) -> Vec<Effect> {
    app.status.message = None;
    app.status.last_error = None;
    // "Press F again to replace the rules" holds for the very next key only.
    if action != Action::Formalize {
        app.formalization.confirm_replace = false;
    }
    match action {
        Action::ScreenRules => navigation::show_screen(app, Screen::Rules),
        Action::ScreenVariables => navigation::show_screen(app, Screen::Variables),
        Action::ScreenTests => navigation::show_screen(app, Screen::Tests),
        Action::ScreenVerify => navigation::show_screen(app, Screen::Verify),
        Action::ScreenVetting => {
            navigation::show_screen(app, Screen::Vetting);
            if !app.lint.ran {
                return vetting::start_lint(app);
            }
        }
        Action::ScreenFormalize => navigation::show_screen(app, Screen::Formalize),
        Action::ScreenProbe => {
            // The profiles to choose from are read afresh each time.
            navigation::show_screen(app, Screen::Probe);
            return vec![Effect::ListProbeTargets];
        }
        Action::Rerun if app.screen == Screen::Probe => return probe_screen::start(app),
        Action::Close if app.screen == Screen::Probe => return probe_screen::cancel(app),
        Action::NextFailing if app.screen == Screen::Probe => probe_screen::step_failure(app, 1),
        Action::PrevFailing if app.screen == Screen::Probe => probe_screen::step_failure(app, -1),
        Action::Add if app.screen == Screen::Probe => return probe_screen::save_failure(app),
        Action::AnswerMode => {
            navigation::show_screen(app, Screen::Verify);
            answer::toggle_mode(app);
        }
        Action::Formalize => return formalize::start(app),
        Action::Feedback => repair::open(app),
        Action::Mark => repair::toggle_mark(app),
        Action::Merge => formalize::open_merge(app),
        Action::Split => {
            if app.screen == Screen::Formalize {
                return formalize::split(app);
            }
        }
        Action::Lint => {
            navigation::show_screen(app, Screen::Vetting);
            return vetting::start_lint(app);
        }
        Action::ApplyFix => return vetting::apply_fix(app),
        Action::Generate => return vetting::start_generation(app),
        Action::Accept => {
            if let Some(index) = app.selected_proposal() {
                return consolidation::accept(app, index);
            }
            if app.screen == Screen::Tests {
                return vetting::accept_selected(app);
            }
        }
        Action::Reject => {
            if let Some(index) = app.selected_proposal() {
                return consolidation::reject(app, index);
            }
            if app.screen == Screen::Tests {
                vetting::ask_rejection(app);
            }
        }
        Action::Consolidate => return consolidation::start(app),
        Action::Coverage => {
            navigation::show_screen(app, Screen::Vetting);
            return vetting::start_coverage(app);
        }
        Action::NextPane => navigation::cycle_pane(app, 1),
        Action::PrevPane => navigation::cycle_pane(app, -1),
        Action::Down => navigation::move_selection(app, 1),
        Action::Up => navigation::move_selection(app, -1),
        Action::PageDown => navigation::page(app, 1),
        Action::PageUp => navigation::page(app, -1),
        Action::Top => navigation::move_selection(app, isize::MIN / 2),
        Action::Bottom => navigation::move_selection(app, isize::MAX / 2),
        Action::Open => return navigation::open(app),
        Action::Edit if app.focus == Pane::Clusters => formalize::open_rename(app),
        Action::Edit => edits::open_editor(app),
        Action::Add => edits::open_new(app),
        Action::Delete if app.focus == Pane::AnswerTests => {
            return answer_tests::delete_selected(app);
        }
        Action::Delete => return edits::delete_selected(app),
        Action::Undo => return edits::undo(app),
        Action::Redo => return edits::redo(app),
        Action::Rerun if app.focus == Pane::AnswerTests => return answer_tests::start(app),
        Action::Rerun => return vec![runs::start_full_run(app)],
        Action::NextFailing => navigation::next_failing(app, 1),
        Action::PrevFailing => navigation::next_failing(app, -1),
        Action::NextFlipped => navigation::next_flipped(app),
        Action::Approve => return edits::cycle_review(app),
        Action::Filter if app.screen == Screen::Vetting => return lint_rows::toggle_notes(app),
        Action::Filter => open_filter(app),
        Action::UncoveredOnly => {
            if app.screen != Screen::Rules {
                navigation::show_screen(app, Screen::Rules);
            }
            document::toggle_uncovered_only(app);
        }
        Action::NotPolicy => return document::toggle_not_policy(app),
        Action::Search => {
            app.overlay = Some(Overlay::Search(crate::state::app::Picker::new(
                "search rules, variables, tests and the document",
            )))
        }
        Action::Palette => {
            app.overlay = Some(Overlay::Palette(crate::state::app::Picker::new(
                "type a command",
            )))
        }
        Action::Help => app.overlay = Some(Overlay::Help { offset: 0 }),
        Action::DiffBase => return super::version_diff::open(app),
        Action::ToggleTheme => {
            let next = if app.theme.name == "light" {
                "dark"
            } else {
                "light"
            };
            if let Some(theme) = crate::style::theme::Theme::built_in(next) {
                app.theme = theme;
            }
            app.status.message = Some(format!("theme: {next}"));
            return vec![Effect::SaveThemeChoice(next.to_string())];
        }
        Action::Quit | Action::ForceQuit => return quit(app),
        Action::Close if app.screen == Screen::Formalize => return formalize::cancel(app),
        Action::Why => return why::open(app),
        Action::ConsultantMode => {
            navigation::show_screen(app, Screen::Verify);
            return consultant::toggle(app);
        }
        Action::StrictReading => {
            navigation::show_screen(app, Screen::Verify);
            return runs::toggle_reading(app);
        }
        Action::CopyMarkdown => {
            app.status.message = Some("M copies a chain from the why view (W on a test)".into())
        }
        Action::Apply | Action::Close => {}
    }
    Vec::new()
}

pub(super) fn quit(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    // Text in an open editor is never lost: it is kept as a draft.
    if matches!(app.overlay, Some(Overlay::Editor(_))) {
        effects.extend(edits::keep_editor_text_as_draft(app));
    }
    app.quit = true;
    effects.push(Effect::Quit);
    effects
}

pub fn open_filter(app: &mut App) {
    let mut input = TextArea::new(vec![app.variable_filter.clone()]);
    input.set_placeholder_text("filter variables and types");
    input.move_cursor(ratatui_textarea::CursorMove::End);
    app.overlay = Some(Overlay::Filter(input));
}
