//! The workbench's update function as messages in, effects out: no terminal.
//! Each test drives `update` with key presses as a user would type them and
//! checks the state and the effects it asks for (saves, solver work, runs).
//! Where real results matter, the effects go through the real `Runtime`
//! (solver thread and atomic saves) and its messages come back into `update`.

use crate::another_job;
use crate::support;
use precept::workspace::Stamp;

use crossterm::event::{KeyCode, KeyModifiers};
use precept::model::drafts::Drafts;
use precept::model::{PolicyModel, Project, ReviewStatus};
use precept::solve::FindingKind;
use precept::tui::effects::runtime::Runtime;
use precept::tui::input::editor::EditTarget;
use precept::tui::input::keymap::Keymap;
use precept::tui::state::app::{App, Flip, Overlay, Pane, Screen, TestState};
use precept::tui::state::msg::{Effect, Msg};
use precept::tui::style::theme::Theme;
use precept::tui::update::update;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};
use support::copy_sample;

const R16: &str = "(= totalExpense (* 1.1 (+ cashPayment creditCost)))";
const R16_TAXED_MORE: &str = "(= totalExpense (* 1.2 (+ cashPayment creditCost)))";

// ---------------------------------------------------------------- helpers

use support::keys::{code, ctrl, key_event, open_app, park, press, screen_text, type_text};

fn editor_text(app: &App) -> String {
    match &app.overlay {
        Some(Overlay::Editor(editor)) => editor.text(),
        _ => panic!("the editor is not open"),
    }
}

/// Empties the editor with keys: to the end of the text, then backspace.
fn clear_editor(app: &mut App) {
    let length = editor_text(app).chars().count();
    assert!(update(app, key_event(KeyCode::Char('>'), KeyModifiers::ALT)).is_empty());
    assert!(ctrl(app, 'e').is_empty());
    for _ in 0..length {
        assert!(code(app, KeyCode::Backspace).is_empty());
    }
    assert_eq!(editor_text(app), "");
}

fn rule_index(app: &App, id: &str) -> usize {
    app.ws.model.rules.iter().position(|r| r.id == id).unwrap()
}

fn test_index(app: &App, id: &str) -> usize {
    app.ws.tests.tests.iter().position(|t| t.id == id).unwrap()
}

/// Selects a rule on the rules screen with j/k, as a user would.
fn select_rule(app: &mut App, id: &str) {
    press(app, '1');
    press(app, 'g');
    for _ in 0..rule_index(app, id) {
        press(app, 'j');
    }
    assert_eq!(app.selected_rule().unwrap().id, id);
}

/// Opens the editor on a rule and replaces its text with `text`.
fn edit_rule(app: &mut App, id: &str, text: &str) {
    select_rule(app, id);
    assert!(press(app, 'e').is_empty());
    clear_editor(app);
    type_text(app, text);
}

fn expression<'a>(model: &'a PolicyModel, id: &str) -> &'a str {
    &model.rule(id).unwrap().expression
}

fn run_tests_effect(effects: &[Effect]) -> (Stamp, Vec<String>, bool) {
    let runs: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::RunTests {
                stamp,
                jobs,
                check_consistency,
                ..
            } => Some((
                *stamp,
                jobs.iter().map(|j| j.test.id.clone()).collect::<Vec<_>>(),
                *check_consistency,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(runs.len(), 1, "expected one RunTests in {effects:#?}");
    runs.into_iter().next().unwrap()
}

fn kinds(effects: &[Effect]) -> Vec<&'static str> {
    effects
        .iter()
        .map(|e| match e {
            Effect::SaveModel(_) => "SaveModel",
            Effect::SaveTests(_) => "SaveTests",
            Effect::SaveDrafts(_) => "SaveDrafts",
            Effect::LoadSolver(_) => "LoadSolver",
            Effect::ReplaceRule { .. } => "ReplaceRule",
            Effect::RunTests { .. } => "RunTests",
            Effect::Verify { .. } => "Verify",
            Effect::Lint { .. } => "Lint",
            Effect::SaveThemeChoice(_) => "SaveThemeChoice",
            Effect::Formalize { .. } => "Formalize",
            Effect::CancelFormalize => "CancelFormalize",
            Effect::CheckAnswer { .. } => "CheckAnswer",
            Effect::RunAnswerTests { .. } => "RunAnswerTests",
            Effect::SaveRecord(_) => "SaveRecord",
            Effect::SaveNotPolicy(_) => "SaveNotPolicy",
            Effect::RemoveRecord => "RemoveRecord",
            Effect::ProposeRepair { .. } => "ProposeRepair",
            Effect::Consolidate { .. } => "Consolidate",
            Effect::Quit => "Quit",
            Effect::Export { .. } => "Export",
            Effect::ExplainTest { .. } => "ExplainTest",
            Effect::Consult { .. } => "Consult",
            Effect::ChainForValue { .. } => "ChainForValue",
            Effect::CancelExplain => "CancelExplain",
            Effect::WriteProjectFile { .. } => "WriteProjectFile",
            Effect::StartProbe { .. } => "StartProbe",
            Effect::CancelProbe => "CancelProbe",
            Effect::ListProbeTargets => "ListProbeTargets",
            Effect::Background(task) => task.name,
        })
        .collect()
}

/// Carries out effects with the real runtime and feeds its messages back
/// into `update` until no test, probe or verify question is outstanding.
fn settle(app: &mut App, runtime: &mut Runtime, effects: Vec<Effect>) {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut effects = effects;
    loop {
        let mut messages = Vec::new();
        for effect in effects.drain(..) {
            messages.extend(runtime.execute(effect));
        }
        messages.extend(runtime.poll());
        for message in messages {
            effects.extend(update(app, message));
        }
        if !effects.is_empty() {
            continue;
        }
        if app.ws.run.pending == 0 && !app.verify.running && !runtime.has_pending() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the solver did not finish: {} tests pending",
            app.ws.run.pending
        );
        for message in runtime.wait(Duration::from_millis(200)) {
            effects.extend(update(app, message));
        }
    }
}

/// A runtime for the app's project with the model loaded and every test run,
/// as the workbench does when it opens.
fn start(app: &mut App) -> Runtime {
    start_on(
        app,
        Runtime::new(app.ws.project_dir.clone(), None, Duration::from_secs(5)),
    )
}

/// `start` with `jobs` solver workers, whatever the machine's cores.
fn start_with_jobs(app: &mut App, jobs: usize) -> Runtime {
    let dir = app.ws.project_dir.clone();
    start_on(
        app,
        Runtime::with_solver_jobs(dir, None, Duration::from_secs(5), jobs),
    )
}

fn start_on(app: &mut App, mut runtime: Runtime) -> Runtime {
    let effects = vec![
        Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
        precept::tui::update::start_full_run(app),
    ];
    settle(app, &mut runtime, effects);
    runtime
}

fn read_model(dir: &Path) -> PolicyModel {
    serde_json::from_str(&fs::read_to_string(dir.join("model.json")).unwrap())
        .expect("model.json is valid JSON")
}

mod approval;
mod consultant;
mod definitions;
mod document;
mod editing;
mod freshness;
mod input;
mod navigation;
mod overlays;
mod probe_screen;
mod runs;
mod small_screens;
mod stale_results;
mod verify;
mod version_diff;
mod vetting;
mod why;
