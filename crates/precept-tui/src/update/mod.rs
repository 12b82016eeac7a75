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
mod previews;
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
    let effects = dispatch(app, msg);
    // An edit's lint carries the model it checks, so it goes to the
    // workers first: with the answers the last run kept it takes about a
    // second on a 1,500-rule model of one group, and the vetting pane is
    // current before the edit's test rerun (seconds there) is over.
    let (mut first, reactions): (Vec<Effect>, Vec<Effect>) = freshness::react_to_changes(app)
        .into_iter()
        .partition(|effect| matches!(effect, Effect::Lint { .. }));
    first.extend(effects);
    first.extend(reactions);
    first.extend(consultant::react_to_edits(app));
    first
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
        Msg::TestFinished { stamp, outcome } => {
            let mut effects = runs::test_finished(app, stamp, *outcome);
            if app.ws.run.pending == 0 && stamp.job == app.ws.run.job {
                effects.extend(answer_tests::rerun_if_stale(app));
            }
            effects
        }
        Msg::ConsistencyChecked { stamp, consistent } => {
            runs::consistency_checked(app, stamp, consistent)
        }
        Msg::VerifyFinished { stamp, finding } => {
            if stamp.job == app.verify.job {
                app.verify.running = false;
                app.verify.finding = Some(*finding);
                app.status.job = None;
            }
            Vec::new()
        }
        Msg::Lint { stamp, event } => vetting::lint_event(app, stamp, event),
        Msg::SyntacticLint { stamp, diagnostics } => {
            vetting::syntactic_found(app, stamp, diagnostics)
        }
        Msg::TestsGenerated { stamp, generated } => vetting::tests_generated(app, stamp, generated),
        Msg::DraftVersion(version) => version_diff::draft_version(app, version),
        Msg::VersionDiffProgress { stamp, text } => version_diff::progress(app, stamp, text),
        Msg::VersionDiffDone { stamp, result } => version_diff::done(app, stamp, result),
        Msg::CoverageProgress { stamp, text } => vetting::coverage_progress(app, stamp, text),
        Msg::CoverageDone {
            stamp,
            coverage,
            mutation,
        } => vetting::coverage_done(app, stamp, *coverage, *mutation),
        Msg::Formalize { stamp, event } => formalize::event(app, stamp, event),
        Msg::FormalizeDone { stamp, result } => formalize::done(app, stamp, result),
        Msg::RepairProposed { stamp, result } => repair::proposed(app, stamp, result),
        Msg::AnswerProgress { stamp, event } => answer::progress(app, stamp, event),
        Msg::ProbeTargets {
            names,
            translator,
            error,
        } => {
            probe_screen::targets(app, names, translator, error);
            Vec::new()
        }
        Msg::Probed { stamp, event } => {
            probe_screen::probed(app, stamp, event);
            Vec::new()
        }
        Msg::ProbeFinished { stamp, result } => {
            probe_screen::finished(app, stamp, result);
            Vec::new()
        }
        Msg::AnswerChecked { stamp, result } => answer::checked(app, stamp, result),
        Msg::AnswerTestDone { stamp, outcome } => answer_tests::test_done(app, stamp, *outcome),
        Msg::AnswerTestsFinished { stamp } => answer_tests::finished(app, stamp),
        Msg::Consolidated { stamp, result } => consolidation::done(app, stamp, result),
        Msg::FixPreviewed {
            stamp,
            index,
            flips,
        } => vetting::fix_previewed(app, stamp, index, flips),
        Msg::RepairPreviewed {
            stamp,
            index,
            flips,
        } => repair::previewed(app, stamp, index, flips),
        Msg::Exported { format, path } => {
            commands::exported(app, format, &path);
            Vec::new()
        }
        Msg::TestExplained {
            stamp,
            explanation,
            parting,
        } => why::test_explained(app, stamp, *explanation, parting),
        Msg::Consulted { stamp, explanation } => {
            consultant::consulted(app, stamp, *explanation);
            Vec::new()
        }
        Msg::ValueChained { stamp, chain } => {
            why::value_chained(app, stamp, chain);
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
