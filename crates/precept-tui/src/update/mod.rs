//! `update(&mut App, Msg) -> Vec<Effect>`: the only place state changes. It
//! does no I/O; what must happen outside comes back as effects.

mod actions;
mod answer;
mod answer_tests;
mod approval;
mod commands;
mod consolidation;
mod consultant;
mod definitions;
mod document;
mod edits;
mod formalize;
mod freshness;
mod lint_rows;
mod model_change;
mod navigation;
pub(crate) mod overlays;
mod probe_screen;
mod repair;
mod runs;
mod save_test;
mod version_diff;
mod vetting;
mod why;

pub use actions::act;
pub use freshness::RELINT_AT_ONCE_RULES;
pub use runs::start_full_run;

use crate::input::keymap::Action;
use crate::state::app::{App, Pane, Screen};
use crate::state::msg::{Effect, Msg};
use crossterm::event::{KeyCode, KeyEventKind, KeyModifiers, MouseEventKind};

/// Ticks between autosaves of the text being edited.
const DRAFT_AUTOSAVE_TICKS: u64 = 5;

pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    let mut effects = dispatch(app, msg);
    effects.extend(freshness::react_to_changes(app));
    effects.extend(consultant::react_to_edits(app));
    effects
}

fn dispatch(app: &mut App, msg: Msg) -> Vec<Effect> {
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
            if app.ws.run.pending == 0 && generation == app.ws.run.generation {
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
        Msg::DraftVersion(version) => version_diff::draft_version(app, version),
        Msg::VersionDiffProgress { ticket, text } => version_diff::progress(app, ticket, text),
        Msg::VersionDiffDone { ticket, result } => version_diff::done(app, ticket, result),
        Msg::CoverageProgress { generation, text } => {
            vetting::coverage_progress(app, generation, text)
        }
        Msg::CoverageDone {
            generation,
            coverage,
            mutation,
        } => vetting::coverage_done(app, generation, *coverage, *mutation),
        Msg::Formalize { generation, event } => formalize::event(app, generation, event),
        Msg::FormalizeDone { generation, result } => formalize::done(app, generation, result),
        Msg::RepairProposed { ticket, result } => repair::proposed(app, ticket, result),
        Msg::AnswerProgress { ticket, event } => answer::progress(app, ticket, event),
        Msg::ProbeTargets {
            names,
            translator,
            error,
        } => {
            probe_screen::targets(app, names, translator, error);
            Vec::new()
        }
        Msg::Probed { ticket, event } => {
            probe_screen::probed(app, ticket, event);
            Vec::new()
        }
        Msg::ProbeFinished { ticket, result } => {
            probe_screen::finished(app, ticket, result);
            Vec::new()
        }
        Msg::AnswerChecked { ticket, result } => answer::checked(app, ticket, result),
        Msg::AnswerTestDone { ticket, outcome } => answer_tests::test_done(app, ticket, *outcome),
        Msg::AnswerTestsFinished { ticket } => answer_tests::finished(app, ticket),
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
        Msg::Exported { format, path } => {
            commands::exported(app, format, &path);
            Vec::new()
        }
        Msg::TestExplained {
            ticket,
            explanation,
            parting,
        } => why::test_explained(app, ticket, *explanation, parting),
        Msg::Consulted {
            ticket,
            explanation,
        } => {
            consultant::consulted(app, ticket, *explanation);
            Vec::new()
        }
        Msg::ValueChained { ticket, chain } => {
            why::value_chained(app, ticket, chain);
            Vec::new()
        }
        Msg::RewriteChecked { id, new, was, same } => {
            approval::rewrite_checked(app, &id, &new, was, same)
        }
        Msg::FileWritten { path } => {
            app.status.message = Some(format!("wrote the chain as Markdown to {path}"));
            Vec::new()
        }
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
                return actions::quit(app);
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
            if app.screen == Screen::Verify
                && app.keymap.action_for(&key) == Some(Action::ConsultantMode)
            {
                return consultant::toggle(app);
            }
            if app.screen == Screen::Verify
                && app.keymap.action_for(&key) == Some(Action::StrictReading)
            {
                return runs::toggle_reading(app);
            }
            if app.screen == Screen::Verify
                && app.verify.mode == crate::state::app::VerifyMode::Consultant
            {
                if let Some(effects) = consultant::key(app, key) {
                    return effects;
                }
            } else if app.screen == Screen::Verify && app.focus == Pane::VerifyInput {
                return match app.verify.mode {
                    crate::state::app::VerifyMode::Logic => runs::verify_input_key(app, key),
                    crate::state::app::VerifyMode::Answer => answer::input_key(app, key),
                    crate::state::app::VerifyMode::Consultant => Vec::new(),
                };
            }
            match app.keymap.action_for(&key) {
                Some(action) => act(app, action),
                None => Vec::new(),
            }
        }
    }
}
