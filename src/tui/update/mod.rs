//! `update(&mut App, Msg) -> Vec<Effect>`: the only place state changes. It
//! does no I/O; what must happen outside comes back as effects.

mod answer;
mod answer_tests;
mod consolidation;
mod edits;
mod formalize;
mod navigation;
pub(crate) mod overlays;
mod repair;
mod runs;
mod vetting;

pub use runs::start_full_run;

use super::app::{App, Overlay, Pane, Screen};
use super::keymap::Action;
use super::msg::{Effect, Msg};
use crossterm::event::{KeyCode, KeyEventKind, KeyModifiers, MouseEventKind};

/// Ticks between autosaves of the text being edited.
const DRAFT_AUTOSAVE_TICKS: u64 = 5;

pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Tick => {
            app.tick += 1;
            if app.draft_dirty && app.tick.is_multiple_of(DRAFT_AUTOSAVE_TICKS) {
                return edits::autosave_draft(app);
            }
            Vec::new()
        }
        Msg::Resize(width, height) => {
            app.size = (width, height);
            navigation::rescroll(app);
            Vec::new()
        }
        Msg::TestFinished {
            generation,
            outcome,
        } => {
            let mut effects = runs::test_finished(app, generation, *outcome);
            if app.pending == 0 && generation == app.generation {
                effects.extend(answer_tests::rerun_if_stale(app));
            }
            effects
        }
        Msg::ConsistencyChecked {
            generation,
            consistent,
        } => runs::consistency_checked(app, generation, consistent),
        Msg::VerifyFinished { ticket, finding } => {
            if ticket == app.verify.ticket {
                app.verify.running = false;
                app.verify.finding = Some(*finding);
                app.status.job = None;
            }
            Vec::new()
        }
        Msg::Lint { generation, event } => vetting::lint_event(app, generation, event),
        Msg::TestsGenerated {
            generation,
            generated,
        } => vetting::tests_generated(app, generation, generated),
        Msg::CoverageDone {
            generation,
            coverage,
            mutation,
        } => vetting::coverage_done(app, generation, *coverage, *mutation),
        Msg::Formalize { generation, event } => formalize::event(app, generation, event),
        Msg::FormalizeDone { generation, result } => formalize::done(app, generation, result),
        Msg::RepairProposed { ticket, result } => repair::proposed(app, ticket, result),
        Msg::AnswerProgress { ticket, event } => answer::progress(app, ticket, event),
        Msg::AnswerChecked { ticket, result } => answer::checked(app, ticket, result),
        Msg::NlTestDone { ticket, outcome } => answer_tests::test_done(app, ticket, *outcome),
        Msg::NlTestsFinished { ticket } => answer_tests::finished(app, ticket),
        Msg::Consolidated { ticket, result } => consolidation::done(app, ticket, result),
        Msg::FixPreviewed {
            ticket,
            index,
            flips,
        } => vetting::fix_previewed(app, ticket, index, flips),
        Msg::RepairPreviewed {
            ticket,
            index,
            flips,
        } => repair::previewed(app, ticket, index, flips),
        Msg::IoFailed { error } => {
            app.status.last_error = Some(error);
            Vec::new()
        }
        Msg::Mouse(mouse) => {
            match mouse.kind {
                MouseEventKind::ScrollDown => {
                    navigation::scroll_at(app, mouse.column, mouse.row, 3)
                }
                MouseEventKind::ScrollUp => navigation::scroll_at(app, mouse.column, mouse.row, -3),
                MouseEventKind::Down(_) => navigation::click(app, mouse.column, mouse.row),
                _ => {}
            }
            Vec::new()
        }
        Msg::Key(key) => {
            if key.kind == KeyEventKind::Release {
                return Vec::new();
            }
            if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
                return quit(app);
            }
            if app.overlay.is_some() {
                return overlays::key(app, key);
            }
            if app.screen == Screen::Verify
                && app.keymap.action_for(&key) == Some(Action::AnswerMode)
            {
                answer::toggle_mode(app);
                return Vec::new();
            }
            if app.screen == Screen::Verify && app.focus == Pane::VerifyInput {
                return match app.verify.mode {
                    super::app::VerifyMode::Logic => runs::verify_input_key(app, key),
                    super::app::VerifyMode::Answer => answer::input_key(app, key),
                };
            }
            match app.keymap.action_for(&key) {
                Some(action) => act(app, action),
                None => Vec::new(),
            }
        }
    }
}

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
        Action::Delete if app.focus == Pane::NlTests => return answer_tests::delete_selected(app),
        Action::Delete => return edits::delete_selected(app),
        Action::Undo => return edits::undo(app),
        Action::Redo => return edits::redo(app),
        Action::Rerun if app.focus == Pane::NlTests => return answer_tests::start(app),
        Action::Rerun => return vec![start_full_run(app)],
        Action::NextFailing => navigation::next_failing(app, 1),
        Action::PrevFailing => navigation::next_failing(app, -1),
        Action::Approve => return edits::cycle_review(app),
        Action::Filter => overlays::open_filter(app),
        Action::Search => {
            app.overlay = Some(Overlay::Search(super::app::Picker::new(
                "search rules, variables and tests",
            )))
        }
        Action::Palette => {
            app.overlay = Some(Overlay::Palette(super::app::Picker::new("type a command")))
        }
        Action::Help => app.overlay = Some(Overlay::Help { offset: 0 }),
        Action::ToggleTheme => {
            let next = if app.theme.name == "light" {
                "dark"
            } else {
                "light"
            };
            if let Some(theme) = super::theme::Theme::built_in(next) {
                app.theme = theme;
            }
            app.status.message = Some(format!("theme: {next}"));
            return vec![Effect::SaveThemeChoice(next.to_string())];
        }
        Action::Quit | Action::ForceQuit => return quit(app),
        Action::Close if app.screen == Screen::Formalize => return formalize::cancel(app),
        Action::Apply | Action::Close => {}
    }
    Vec::new()
}

fn quit(app: &mut App) -> Vec<Effect> {
    let mut effects = Vec::new();
    // Text in an open editor is never lost: it is kept as a draft.
    if matches!(app.overlay, Some(Overlay::Editor(_))) {
        effects.extend(edits::keep_editor_text_as_draft(app));
    }
    app.quit = true;
    effects.push(Effect::Quit);
    effects
}
