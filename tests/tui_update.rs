//! The workbench's update function as messages in, effects out: no terminal.
//! Each test drives `update` with key presses as a user would type them and
//! checks the state and the effects it asks for (saves, solver work, runs).
//! Where real results matter, the effects go through the real `Runtime`
//! (solver thread and atomic saves) and its messages come back into `update`.

mod support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept::core::model::drafts::Drafts;
use precept::core::model::{PolicyModel, Project};
use precept::core::solve::FindingKind;
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

fn open_app(dir: &Path) -> App {
    App::new(
        Project::load_unchecked(dir).expect("the project loads"),
        Drafts::load(dir).expect("the drafts load"),
        Keymap::default(),
        Theme::built_in("dark").unwrap(),
        (100, 30),
    )
}

fn park() -> (tempfile::TempDir, App) {
    let dir = copy_sample("park-admission");
    let app = open_app(dir.path());
    (dir, app)
}

fn key_event(code: KeyCode, modifiers: KeyModifiers) -> Msg {
    Msg::Key(KeyEvent::new(code, modifiers))
}

fn press(app: &mut App, c: char) -> Vec<Effect> {
    update(app, key_event(KeyCode::Char(c), KeyModifiers::NONE))
}

fn ctrl(app: &mut App, c: char) -> Vec<Effect> {
    update(app, key_event(KeyCode::Char(c), KeyModifiers::CONTROL))
}

fn code(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, key_event(code, KeyModifiers::NONE))
}

/// Types text key by key; returns every effect it caused.
fn type_text(app: &mut App, text: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    for c in text.chars() {
        effects.extend(press(app, c));
    }
    effects
}

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
    app.model.rules.iter().position(|r| r.id == id).unwrap()
}

fn test_index(app: &App, id: &str) -> usize {
    app.tests.tests.iter().position(|t| t.id == id).unwrap()
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

fn run_tests_effect(effects: &[Effect]) -> (u64, Vec<String>, bool) {
    let runs: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::RunTests {
                generation,
                jobs,
                probe_consistency,
            } => Some((
                *generation,
                jobs.iter().map(|j| j.test.id.clone()).collect::<Vec<_>>(),
                *probe_consistency,
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
            Effect::Coverage { .. } => "Coverage",
            Effect::Generate { .. } => "Generate",
            Effect::SaveThemeChoice(_) => "SaveThemeChoice",
            Effect::Formalize { .. } => "Formalize",
            Effect::CancelFormalize => "CancelFormalize",
            Effect::CheckAnswer { .. } => "CheckAnswer",
            Effect::RunNlTests { .. } => "RunNlTests",
            Effect::SaveRecord(_) => "SaveRecord",
            Effect::RemoveRecord => "RemoveRecord",
            Effect::ProposeRepair { .. } => "ProposeRepair",
            Effect::PreviewRepair { .. } => "PreviewRepair",
            Effect::PreviewFixes { .. } => "PreviewFixes",
            Effect::Consolidate { .. } => "Consolidate",
            Effect::Quit => "Quit",
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
        if app.pending == 0 && !app.verify.running && !runtime.has_pending() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the solver did not finish: {} tests pending",
            app.pending
        );
        for message in runtime.wait(Duration::from_millis(200)) {
            effects.extend(update(app, message));
        }
    }
}

/// A runtime for the app's project with the model loaded and every test run,
/// as the workbench does when it opens.
fn start(app: &mut App) -> Runtime {
    let mut runtime = Runtime::new(app.project_dir.clone(), None, Duration::from_secs(5));
    let effects = vec![
        Effect::LoadSolver(Box::new(app.compiled.clone())),
        precept::tui::update::start_full_run(app),
    ];
    settle(app, &mut runtime, effects);
    runtime
}

fn read_model(dir: &Path) -> PolicyModel {
    serde_json::from_str(&fs::read_to_string(dir.join("model.json")).unwrap())
        .expect("model.json is valid JSON")
}

// ------------------------------------------------------------- navigation

#[test]
fn number_keys_switch_screens_and_focus_their_main_pane() {
    let (_dir, mut app) = park();
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Rules));
    for (key, screen, pane) in [
        ('2', Screen::Variables, Pane::Variables),
        ('3', Screen::Tests, Pane::Tests),
        ('1', Screen::Rules, Pane::Rules),
        ('4', Screen::Verify, Pane::VerifyInput),
    ] {
        assert!(press(&mut app, key).is_empty());
        assert_eq!((app.screen, app.focus), (screen, pane), "after {key}");
    }
    // While typing a question, digits are text, not screen switches.
    press(&mut app, '1');
    assert_eq!(app.screen, Screen::Verify);
    assert_eq!(app.verify.premise.lines().join(""), "1");
    // Esc leaves the inputs; then the digit switches screens again.
    code(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Pane::VerifyResult);
    press(&mut app, '1');
    assert_eq!((app.screen, app.focus), (Screen::Rules, Pane::Rules));
}

#[test]
fn moving_through_rules_keeps_the_document_on_the_selected_rules_span() {
    let (_dir, mut app) = park();
    let span_containing = |app: &App, text: &str| {
        app.spans
            .iter()
            .position(|s| s.text.contains(text))
            .unwrap_or_else(|| panic!("no span contains {text:?}"))
    };
    assert_eq!(app.rule_cursor.selected, 0);

    press(&mut app, 'j');
    assert_eq!(app.selected_rule().unwrap().id, "R2");
    assert_eq!(
        app.span_cursor.selected,
        span_containing(&app, "During the low season")
    );

    press(&mut app, 'G');
    assert_eq!(app.selected_rule().unwrap().id, "R17");
    assert_eq!(
        app.span_cursor.selected,
        span_containing(&app, "A visitor may enter the park")
    );

    press(&mut app, 'k');
    assert_eq!(app.selected_rule().unwrap().id, "R16");
    assert_eq!(
        app.span_cursor.selected,
        span_containing(&app, "A federal tax of 10%")
    );

    // j at the bottom stays at the bottom.
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(app.selected_rule().unwrap().id, "R17");

    press(&mut app, 'g');
    assert_eq!(app.selected_rule().unwrap().id, "R1");
    assert_eq!(
        app.span_cursor.selected,
        span_containing(&app, "The standard admission fee is $50")
    );
    // k at the top stays at the top.
    press(&mut app, 'k');
    assert_eq!(app.rule_cursor.selected, 0);

    // The rules list scrolls to keep the selection in view at 100x30.
    press(&mut app, 'G');
    let height = precept::tui::measure::layout::inner_height(
        precept::tui::measure::layout::areas(Screen::Rules, app.size).list,
    );
    assert!(app.rule_cursor.offset <= 16 && 16 < app.rule_cursor.offset + height);
}

#[test]
fn moving_through_the_document_selects_the_spans_first_rule() {
    let (_dir, mut app) = park();
    code(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Document);
    let target = app
        .spans
        .iter()
        .position(|s| s.text.starts_with("Children receive a 50% discount"))
        .unwrap();
    for _ in 0..target {
        press(&mut app, 'j');
    }
    assert_eq!(app.span_cursor.selected, target);
    assert_eq!(app.selected_rule().unwrap().id, "R6");
}

#[test]
fn tests_and_variables_lists_move_with_j_k_g_and_shift_g() {
    let (_dir, mut app) = park();
    press(&mut app, '3');
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(app.selected_test().unwrap().id, "T3");
    press(&mut app, 'G');
    assert_eq!(app.selected_test().unwrap().id, "T18");
    press(&mut app, 'g');
    assert_eq!(app.selected_test().unwrap().id, "T1");

    press(&mut app, '2');
    // A terminal reports G with shift held.
    update(&mut app, key_event(KeyCode::Char('G'), KeyModifiers::SHIFT));
    // 15 variables, then the one type.
    assert_eq!(app.variable_cursor.selected, 15);
    press(&mut app, 'k');
    assert_eq!(app.variable_cursor.selected, 14);
}

#[test]
fn search_jumps_to_what_it_finds() {
    let (_dir, mut app) = park();
    press(&mut app, '/');
    assert!(matches!(app.overlay, Some(Overlay::Search(_))));
    // Keys are typed into the query, not taken as commands.
    type_text(&mut app, "R16");
    assert_eq!(app.screen, Screen::Rules);
    assert!(code(&mut app, KeyCode::Enter).is_empty());
    assert!(app.overlay.is_none());
    assert_eq!(app.selected_rule().unwrap().id, "R16");

    press(&mut app, '/');
    type_text(&mut app, "credit units lets");
    code(&mut app, KeyCode::Enter);
    assert_eq!((app.screen, app.focus), (Screen::Tests, Pane::Tests));
    assert_eq!(app.selected_test().unwrap().id, "T2");

    // Esc closes the search without moving.
    press(&mut app, '/');
    type_text(&mut app, "baseFee");
    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert_eq!(app.selected_test().unwrap().id, "T2");
}

// ----------------------------------------------------------------- editor

#[test]
fn e_opens_the_editor_on_the_selected_rule() {
    let (_dir, mut app) = park();
    select_rule(&mut app, "R16");
    assert!(press(&mut app, 'e').is_empty());
    {
        let Some(Overlay::Editor(editor)) = &app.overlay else {
            panic!("e did not open the editor");
        };
        assert_eq!(
            editor.target,
            EditTarget::Rule {
                id: "R16".into(),
                is_new: false
            }
        );
        assert_eq!(editor.text(), R16);
        assert!(editor.error.is_none());
    }
    // Keys now go to the text, not to the keymap.
    press(&mut app, 'j');
    assert!(matches!(app.overlay, Some(Overlay::Editor(_))));
    assert_eq!(app.selected_rule().unwrap().id, "R16");
    assert!(editor_text(&app).starts_with('j'));
}

#[test]
fn an_invalid_rule_is_kept_as_a_draft_and_not_applied() {
    let (_dir, mut app) = park();
    let generation = app.generation;
    edit_rule(&mut app, "R16", "(= totalExpense (* 1.2 cashPaymnt))");
    // The error shows live while typing, with line and column.
    let Some(Overlay::Editor(editor)) = &app.overlay else {
        panic!()
    };
    let error = editor.error.clone().expect("a live error");
    assert_eq!((error.line, error.column), (1, 24), "{error}");
    assert!(error.message.contains("cashPaymnt"), "{error}");

    let effects = ctrl(&mut app, 's');
    assert_eq!(kinds(&effects), ["SaveDrafts"]);
    let Effect::SaveDrafts(drafts) = &effects[0] else {
        unreachable!()
    };
    assert_eq!(
        drafts.rules.get("R16").map(String::as_str),
        Some("(= totalExpense (* 1.2 cashPaymnt))")
    );
    assert_eq!(&app.drafts, drafts);
    assert_eq!(expression(&app.model, "R16"), R16);
    assert_eq!(app.generation, generation, "nothing reruns");
    // The editor stays open with the error, and the status line says why.
    assert!(matches!(app.overlay, Some(Overlay::Editor(_))));
    let status = app.status.last_error.clone().unwrap();
    assert!(status.contains("R16 kept as a draft"), "{status}");
}

#[test]
fn a_draft_is_what_the_editor_shows_next_time() {
    let (_dir, mut app) = park();
    edit_rule(&mut app, "R16", "(= totalExpense");
    ctrl(&mut app, 's');
    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert_eq!(app.drafts.rules["R16"], "(= totalExpense");
    press(&mut app, 'e');
    assert_eq!(editor_text(&app), "(= totalExpense");
}

#[test]
fn a_valid_rule_is_saved_swapped_in_the_solver_and_rerun() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let generation = app.generation;
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    assert_eq!(
        kinds(&effects),
        ["SaveModel", "ReplaceRule", "RunTests"],
        "{effects:#?}"
    );
    assert!(app.overlay.is_none());
    assert_eq!(expression(&app.model, "R16"), R16_TAXED_MORE);
    let Effect::SaveModel(saved) = &effects[0] else {
        unreachable!()
    };
    assert_eq!(expression(saved, "R16"), R16_TAXED_MORE);
    assert!(
        matches!(&effects[1], Effect::ReplaceRule { id, formula: Some(_) } if id == "R16"),
        "{:?}",
        effects[1]
    );
    let (new_generation, jobs, probe) = run_tests_effect(&effects);
    assert_eq!(new_generation, generation + 1);
    assert_eq!(app.generation, generation + 1);
    assert!(probe);
    assert!(jobs.contains(&"T1".to_string()) && jobs.contains(&"T2".to_string()));

    settle(&mut app, &mut runtime, effects);
    assert_eq!(expression(&read_model(dir.path()), "R16"), R16_TAXED_MORE);
    // 10% tax made 1.2: the $35.40 senior can no longer get in with credits.
    assert_eq!(app.counts(), (16, 2, 0));
    let failing: Vec<&str> = app
        .failing_tests()
        .into_iter()
        .map(|i| app.tests.tests[i].id.as_str())
        .collect();
    assert_eq!(failing, ["T1", "T2"]);
    assert_eq!(
        app.flips,
        [
            Flip {
                test_id: "T1".into(),
                now_passes: false
            },
            Flip {
                test_id: "T2".into(),
                now_passes: false
            },
        ]
    );
    let message = app.status.message.clone().unwrap();
    assert!(message.starts_with("16 passed, 2 failed"), "{message}");
    assert!(
        message.contains("flipped: 2 passed→failed, 0 failed→passed"),
        "{message}"
    );
}

#[test]
fn an_applied_edit_clears_the_rules_draft() {
    let (_dir, mut app) = park();
    edit_rule(&mut app, "R16", "(= totalExpense");
    ctrl(&mut app, 's');
    clear_editor(&mut app);
    type_text(&mut app, R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    assert_eq!(
        kinds(&effects),
        ["SaveDrafts", "SaveModel", "ReplaceRule", "RunTests"]
    );
    assert_eq!(effects[0], Effect::SaveDrafts(Drafts::default()));
    assert!(app.drafts.rules.is_empty());
}

const SPLIT_MODEL: &str = r#"{
  "schema_version": 1,
  "title": "Two unrelated policies",
  "types": [],
  "variables": [
    {"name": "member", "type": "Bool", "description": "Whether the visitor is a member"},
    {"name": "freeParking", "type": "Bool", "description": "Whether parking is free"},
    {"name": "guests", "type": "Int", "description": "Guests brought along"},
    {"name": "guestFee", "type": "Real", "description": "Fee for the guests in dollars"}
  ],
  "rules": [
    {"id": "P1", "expression": "(=> member freeParking)"},
    {"id": "G1", "expression": "(>= guests 0)"},
    {"id": "G2", "expression": "(= guestFee (* 5.0 guests))"}
  ]
}"#;

const SPLIT_TESTS: &str = r#"{
  "schema_version": 1,
  "tests": [
    {"id": "T1", "name": "Members park free", "premise": "member", "claim": "freeParking", "expected": "VALID"},
    {"id": "T2", "name": "Paid parking means no member", "premise": "(not freeParking)", "claim": "(not member)", "expected": "VALID"},
    {"id": "T3", "name": "Two guests cost $10", "premise": "(= guests 2)", "claim": "(= guestFee 10.0)", "expected": "VALID"},
    {"id": "T4", "name": "Guest fee is never negative", "premise": "true", "claim": "(>= guestFee 0.0)", "expected": "VALID"}
  ]
}"#;

#[test]
fn an_edit_reruns_only_the_tests_in_the_rules_cone_of_influence() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("model.json"), SPLIT_MODEL).unwrap();
    fs::write(dir.path().join("tests.json"), SPLIT_TESTS).unwrap();
    let mut app = open_app(dir.path());
    let mut runtime = start(&mut app);
    assert_eq!(app.counts(), (4, 0, 0));

    // Guest fee rule: only the guest tests depend on it.
    edit_rule(&mut app, "G2", "(= guestFee (* 6.0 guests))");
    let effects = ctrl(&mut app, 's');
    let (_, jobs, probe) = run_tests_effect(&effects);
    assert_eq!(jobs, ["T3", "T4"]);
    assert!(probe, "a partial rerun also probes consistency");
    assert_eq!(app.run_size, 2);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (3, 1, 0), "T3 now fails: 2 guests cost $12");
    assert!(matches!(app.test_state("T1"), TestState::Done(o) if o.passed));
    let message = app.status.message.clone().unwrap();
    assert!(message.contains("(reran 2 affected)"), "{message}");

    // Parking rule: only the parking tests.
    edit_rule(&mut app, "P1", "(=> member (not freeParking))");
    let effects = ctrl(&mut app, 's');
    let (_, jobs, probe) = run_tests_effect(&effects);
    assert_eq!(jobs, ["T1", "T2"]);
    assert!(probe);
}

// ------------------------------------------------------------ run results

#[test]
fn results_of_an_older_run_are_dropped() {
    let (_dir, mut app) = park();
    let _runtime = start(&mut app);
    let old = match app.test_state("T5") {
        TestState::Done(outcome) => outcome.clone(),
        other => panic!("T5 did not run: {other:?}"),
    };
    let old_generation = app.generation;
    let effects = press(&mut app, 'r');
    let (generation, jobs, _) = run_tests_effect(&effects);
    assert_eq!(generation, old_generation + 1);
    assert_eq!(jobs.len(), 18);
    assert_eq!(app.pending, 18);
    assert_eq!(*app.test_state("T5"), TestState::Running);

    // A failing result from the old run arrives late: it changes nothing.
    let mut stale = old.clone();
    stale.passed = false;
    let effects = update(
        &mut app,
        Msg::TestFinished {
            generation: old_generation,
            outcome: stale,
        },
    );
    assert!(effects.is_empty());
    assert_eq!(*app.test_state("T5"), TestState::Running);
    assert_eq!(app.pending, 18);
    assert!(app.flips.is_empty());

    // The current run's result counts.
    update(
        &mut app,
        Msg::TestFinished {
            generation,
            outcome: old.clone(),
        },
    );
    assert_eq!(app.test_state("T5").passed(), Some(true));
    assert_eq!(app.pending, 17);
}

#[test]
fn a_result_that_changes_pass_or_fail_is_recorded_as_a_flip() {
    let (_dir, mut app) = park();
    let _runtime = start(&mut app);
    let outcomes: Vec<_> = app
        .tests
        .tests
        .iter()
        .map(|t| match app.test_state(&t.id) {
            TestState::Done(outcome) => outcome.clone(),
            other => panic!("{} did not run: {other:?}", t.id),
        })
        .collect();
    let effects = press(&mut app, 'r');
    let (generation, _, _) = run_tests_effect(&effects);
    for mut outcome in outcomes {
        // T4 passed before and fails now; the others pass again: no flip.
        if outcome.id == "T4" {
            outcome.passed = false;
        }
        update(
            &mut app,
            Msg::TestFinished {
                generation,
                outcome,
            },
        );
    }
    assert_eq!(app.pending, 0);
    assert_eq!(
        app.flips,
        [Flip {
            test_id: "T4".into(),
            now_passes: false
        }]
    );
    let message = app.status.message.clone().unwrap();
    assert_eq!(
        message,
        "17 passed, 1 failed; flipped: 1 passed→failed, 0 failed→passed"
    );

    // And back: the failing test passes again in the next run.
    let failed_t4 = match app.test_state("T4") {
        TestState::Done(outcome) => outcome.clone(),
        other => panic!("{other:?}"),
    };
    let effects = press(&mut app, 'r');
    let (generation, _, _) = run_tests_effect(&effects);
    assert!(app.flips.is_empty(), "a new run starts with no flips");
    let mut fixed = failed_t4;
    fixed.passed = true;
    update(
        &mut app,
        Msg::TestFinished {
            generation,
            outcome: fixed,
        },
    );
    assert_eq!(
        app.flips,
        [Flip {
            test_id: "T4".into(),
            now_passes: true
        }]
    );
}

#[test]
fn n_steps_through_the_failing_tests_and_wraps() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    assert!(press(&mut app, 'n').is_empty());
    assert_eq!(app.status.message.as_deref(), Some("no failing tests"));
    assert_eq!(app.screen, Screen::Rules);

    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    press(&mut app, '1');

    press(&mut app, 'n');
    assert_eq!((app.screen, app.focus), (Screen::Tests, Pane::Tests));
    assert_eq!(app.selected_test().unwrap().id, "T1");
    assert_eq!(app.status.message.as_deref(), Some("failing test 1 of 2"));
    press(&mut app, 'n');
    assert_eq!(app.selected_test().unwrap().id, "T2");
    assert_eq!(app.status.message.as_deref(), Some("failing test 2 of 2"));
    press(&mut app, 'n');
    assert_eq!(app.selected_test().unwrap().id, "T1", "wraps around");
    // N goes back (and wraps the other way).
    press(&mut app, 'N');
    assert_eq!(app.selected_test().unwrap().id, "T2");
    // From a passing test in the middle, n finds the next failing one after it.
    press(&mut app, 'g');
    press(&mut app, 'j');
    press(&mut app, 'j');
    press(&mut app, 'n');
    assert_eq!(
        app.selected_test().unwrap().id,
        "T1",
        "none after T3: wraps"
    );
}

// ------------------------------------------------------------------- undo

#[test]
fn undo_restores_the_model_saves_it_and_reruns_everything() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let original = app.model.clone();
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (16, 2, 0));
    let generation = app.generation;

    let effects = press(&mut app, 'u');
    assert_eq!(
        kinds(&effects),
        ["SaveModel", "SaveTests", "LoadSolver", "RunTests"],
        "{effects:#?}"
    );
    assert_eq!(app.model, original);
    assert_eq!(effects[0], Effect::SaveModel(Box::new(original.clone())));
    let (new_generation, jobs, _) = run_tests_effect(&effects);
    assert_eq!(new_generation, generation + 1);
    assert_eq!(jobs.len(), 18, "undo reruns every test");
    assert_eq!(
        app.status.message.as_deref(),
        Some("undid: edit rule R16"),
        "the status says what was undone"
    );

    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (18, 0, 0));
    assert_eq!(read_model(dir.path()), original);

    // Redo brings the edit back; a second undo with nothing left says so.
    let effects = ctrl(&mut app, 'r');
    assert_eq!(expression(&app.model, "R16"), R16_TAXED_MORE);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (16, 2, 0));
    press(&mut app, 'u');
    assert!(press(&mut app, 'u').is_empty());
    assert_eq!(app.status.message.as_deref(), Some("nothing to undo"));
}

// ----------------------------------------------------------------- drafts

#[test]
fn esc_with_changed_text_keeps_a_draft() {
    let (_dir, mut app) = park();
    select_rule(&mut app, "R1");
    press(&mut app, 'e');
    // Esc without a change keeps nothing.
    assert!(code(&mut app, KeyCode::Esc).is_empty());
    assert!(app.overlay.is_none());
    assert!(app.drafts.rules.is_empty());

    press(&mut app, 'e');
    ctrl(&mut app, 'e');
    code(&mut app, KeyCode::Backspace);
    type_text(&mut app, " unfinished");
    let effects = code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    let draft = "(= baseFee 50.0 unfinished";
    let mut expected = Drafts::default();
    expected.rules.insert("R1".into(), draft.into());
    assert_eq!(effects, [Effect::SaveDrafts(expected.clone())]);
    assert_eq!(app.drafts, expected);
    assert_eq!(expression(&app.model, "R1"), "(= baseFee 50.0)");
    assert!(
        app.status.message.as_deref().unwrap().contains("draft"),
        "{:?}",
        app.status.message
    );
}

#[test]
fn typing_is_autosaved_as_a_draft_within_half_a_second() {
    let (_dir, mut app) = park();
    select_rule(&mut app, "R1");
    press(&mut app, 'e');
    type_text(&mut app, "x");
    assert!(app.draft_dirty);
    let mut saved = Vec::new();
    for _ in 0..5 {
        saved.extend(update(&mut app, Msg::Tick));
    }
    assert_eq!(kinds(&saved), ["SaveDrafts"]);
    assert_eq!(app.drafts.rules["R1"], "x(= baseFee 50.0)");
    assert!(!app.draft_dirty);
    // Nothing new typed: no more saves.
    for _ in 0..10 {
        assert!(update(&mut app, Msg::Tick).is_empty());
    }
}

#[test]
fn quitting_with_the_editor_open_keeps_the_text_as_a_draft() {
    let (_dir, mut app) = park();
    select_rule(&mut app, "R1");
    press(&mut app, 'e');
    type_text(&mut app, "x");
    let effects = ctrl(&mut app, 'c');
    assert_eq!(kinds(&effects), ["SaveDrafts", "Quit"]);
    assert!(app.quit);
    assert_eq!(app.drafts.rules["R1"], "x(= baseFee 50.0)");
}

// --------------------------------------------------------------- deleting

#[test]
fn deleting_a_variable_that_rules_use_is_refused() {
    let (_dir, mut app) = park();
    press(&mut app, '2');
    let before = app.model.clone();
    assert_eq!(
        app.model.variables[app.variable_cursor.selected].name,
        "ageClass"
    );
    let effects = press(&mut app, 'd');
    assert!(effects.is_empty());
    assert_eq!(app.model, before);
    let error = app.status.last_error.clone().expect("an error is shown");
    assert_eq!(
        error,
        "ageClass is used by R4, R5, R6, R7; edit or delete those rules first"
    );
    // The enum type is in use too.
    press(&mut app, 'G');
    assert!(press(&mut app, 'd').is_empty());
    assert_eq!(app.model, before);
    let error = app.status.last_error.clone().unwrap();
    assert!(
        error.contains("variables of type AgeClass exist"),
        "{error}"
    );
}

#[test]
fn deleting_a_rule_can_be_undone() {
    let (_dir, mut app) = park();
    select_rule(&mut app, "R13");
    let effects = press(&mut app, 'd');
    assert_eq!(kinds(&effects), ["SaveModel", "ReplaceRule", "RunTests"]);
    assert_eq!(
        effects[1],
        Effect::ReplaceRule {
            id: "R13".into(),
            formula: None
        }
    );
    assert!(app.model.rule("R13").is_none());
    press(&mut app, 'u');
    assert!(app.model.rule("R13").is_some());
}

// ----------------------------------------------------------------- verify

const PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const CLAIM: &str = "(not isEntryAllowed)";

fn ask(app: &mut App, premise: &str, claim: &str) -> Vec<Effect> {
    press(app, '4');
    assert_eq!(app.focus, Pane::VerifyInput);
    type_text(app, premise);
    code(app, KeyCode::Tab);
    type_text(app, claim);
    code(app, KeyCode::Enter)
}

#[test]
fn enter_on_the_verify_screen_asks_the_solver() {
    let (_dir, mut app) = park();
    let effects = ask(&mut app, PREMISE, CLAIM);
    assert_eq!(effects.len(), 1, "{effects:#?}");
    let Effect::Verify {
        ticket,
        premise,
        claim,
    } = &effects[0]
    else {
        panic!("{effects:#?}")
    };
    assert_eq!(*ticket, 1);
    assert_eq!(*premise, app.compiled.check_formula(PREMISE).unwrap().1);
    assert_eq!(*claim, app.compiled.check_formula(CLAIM).unwrap().1);
    assert!(app.verify.running);
    assert_eq!(app.status.job.as_deref(), Some("verifying"));
}

#[test]
fn a_malformed_premise_is_reported_with_line_and_column() {
    let (_dir, mut app) = park();
    let effects = ask(&mut app, "(and (= ageClass SENIOR) isLowSeasn)", CLAIM);
    assert!(effects.is_empty());
    let error = app.verify.error.clone().expect("an error");
    assert!(error.starts_with("premise: 1:26: "), "{error}");
    assert!(error.contains("isLowSeasn"), "{error}");
    assert!(!app.verify.running);

    // A claim problem names the claim.
    code(&mut app, KeyCode::Tab);
    let premise_len = app.verify.premise.lines()[0].chars().count();
    for _ in 0..premise_len {
        code(&mut app, KeyCode::Backspace);
    }
    type_text(&mut app, "true");
    code(&mut app, KeyCode::Tab);
    type_text(&mut app, ")");
    assert!(code(&mut app, KeyCode::Enter).is_empty());
    let error = app.verify.error.clone().unwrap();
    assert!(error.starts_with("claim: 1:"), "{error}");
}

#[test]
fn the_verify_finding_is_shown_only_for_the_latest_question() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ask(&mut app, PREMISE, CLAIM);
    let Effect::Verify { ticket, .. } = effects[0].clone() else {
        panic!()
    };
    // A reply for an older question is ignored.
    let stale = precept::core::solve::Finding::too_complex("true", "true", "an old question");
    update(
        &mut app,
        Msg::VerifyFinished {
            ticket: ticket - 1,
            finding: Box::new(stale),
        },
    );
    assert!(app.verify.finding.is_none());
    assert!(app.verify.running);

    settle(&mut app, &mut runtime, effects);
    let finding = app.verify.finding.clone().expect("a finding");
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    assert!(!app.verify.running);
    assert_eq!(app.status.job, None);
    let scenario = finding.claims_false_scenario.expect("a scenario");
    assert_eq!(
        scenario.get("creditUnits").map(ToString::to_string),
        Some("3".into())
    );
}

#[test]
fn ctrl_s_then_v_saves_the_question_as_a_test() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    // ctrl-s before asking explains what to do.
    press(&mut app, '4');
    assert!(ctrl(&mut app, 's').is_empty());
    assert!(app.overlay.is_none());
    code(&mut app, KeyCode::Esc);

    let premise =
        "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4) (= creditUnits 3))";
    let effects = ask(&mut app, premise, "isEntryAllowed");
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().map(|f| f.kind),
        Some(FindingKind::Valid)
    );

    assert!(ctrl(&mut app, 's').is_empty());
    assert!(matches!(app.overlay, Some(Overlay::ExpectPrompt)));
    let effects = press(&mut app, 'v');
    assert!(app.overlay.is_none());
    assert_eq!(kinds(&effects), ["SaveTests", "RunTests"]);
    let Effect::SaveTests(suite) = &effects[0] else {
        unreachable!()
    };
    assert_eq!(suite.tests.len(), 19);
    let added = suite.tests.last().unwrap();
    assert_eq!(added.id, "T19");
    assert_eq!(added.premise, premise);
    assert_eq!(added.claim, "isEntryAllowed");
    assert_eq!(added.expected, FindingKind::Valid);
    let (_, jobs, _) = run_tests_effect(&effects);
    assert_eq!(jobs, ["T19"]);

    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (19, 0, 0));
    let on_disk: precept::core::model::TestSuite =
        serde_json::from_str(&fs::read_to_string(dir.path().join("tests.json")).unwrap()).unwrap();
    assert_eq!(on_disk.tests.len(), 19);
    assert_eq!(on_disk.tests[18].id, "T19");
    assert_eq!(test_index(&app, "T19"), 18);
}

#[test]
fn any_other_key_at_the_expected_prompt_saves_nothing() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ask(&mut app, PREMISE, CLAIM);
    settle(&mut app, &mut runtime, effects);
    ctrl(&mut app, 's');
    assert!(matches!(app.overlay, Some(Overlay::ExpectPrompt)));
    assert!(press(&mut app, 'x').is_empty());
    assert!(app.overlay.is_none());
    assert_eq!(app.tests.tests.len(), 18);
}

#[test]

fn an_edit_that_makes_the_rules_contradict_each_other_reports_the_flips() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    assert_eq!(app.counts(), (18, 0, 0));
    // baseFee cannot be both: every question becomes IMPOSSIBLE.
    edit_rule(&mut app, "R1", "(and (= baseFee 50.0) (= baseFee 60.0))");
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    assert!(
        app.status
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("contradict each other")),
        "{:?}",
        app.status
    );
    // Only the four tests that expect IMPOSSIBLE still pass.
    assert_eq!(app.counts(), (4, 14, 0));
    // Fourteen tests went from passing to failing because of this edit; the
    // user is told which ones flipped, as after any other edit.
    assert_eq!(app.flips.len(), 14, "{:?}", app.flips);
    assert!(app.flips.iter().all(|f| !f.now_passes));
    let message = app.status.message.clone().unwrap();
    assert!(message.contains("flipped: 14 passed→failed"), "{message}");
}

// ------------------------------------------------------------------ mouse

fn click(app: &mut App, column: u16, row: u16) -> Vec<Effect> {
    update(
        app,
        Msg::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }),
    )
}

#[test]
fn clicking_a_row_of_a_list_selects_it() {
    let (_dir, mut app) = park();
    let list = precept::tui::measure::layout::areas(Screen::Rules, app.size).list;
    // The fourth row inside the border.
    click(&mut app, list.x + 4, list.y + 4);
    assert_eq!(app.focus, Pane::Rules);
    assert_eq!(app.selected_rule().unwrap().id, "R4");
    // The document followed the rule.
    assert!(
        app.spans[app.span_cursor.selected]
            .text
            .starts_with("Senior visitors")
    );
    // The wheel over the document moves the span selection there.
    let document = precept::tui::measure::layout::areas(Screen::Rules, app.size).document;
    update(
        &mut app,
        Msg::Mouse(crossterm::event::MouseEvent {
            kind: crossterm::event::MouseEventKind::ScrollDown,
            column: document.x + 3,
            row: document.y + 3,
            modifiers: KeyModifiers::NONE,
        }),
    );
    assert_eq!(app.focus, Pane::Document);
}

/// The columns of the tab bar where `title` is drawn.
fn tab_columns(app: &App, title: &str) -> std::ops::Range<u16> {
    let (width, height) = app.size;
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| precept::tui::view::render(app, f))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let row: String = (0..width).map(|x| buffer[(x, 0)].symbol()).collect();
    let start = row
        .find(title)
        .unwrap_or_else(|| panic!("{title} not in {row:?}"));
    let start = row[..start].chars().count() as u16;
    start..start + title.chars().count() as u16
}

#[test]

fn clicking_a_tab_anywhere_on_its_title_shows_that_screen() {
    let (_dir, mut app) = park();
    for screen in [
        Screen::Variables,
        Screen::Tests,
        Screen::Verify,
        Screen::Rules,
    ] {
        for column in tab_columns(&app, screen.title()) {
            // Start from another screen, so the click has to change it.
            code(&mut app, KeyCode::Esc);
            press(&mut app, if screen == Screen::Rules { '2' } else { '1' });
            click(&mut app, column, 0);
            assert_eq!(
                app.screen,
                screen,
                "clicking column {column} of the tab {:?}",
                screen.title()
            );
        }
    }
}

// ------------------------------------------------------------ new rules

#[test]

fn a_new_rule_kept_as_a_draft_can_be_reopened() {
    let (dir, mut app) = park();
    assert!(press(&mut app, 'a').is_empty());
    type_text(&mut app, "(= totalExpense");
    let effects = ctrl(&mut app, 's');
    assert_eq!(kinds(&effects), ["SaveDrafts"]);
    assert_eq!(app.drafts.rules["R18"], "(= totalExpense");
    code(&mut app, KeyCode::Esc);
    let hint = app.status.last_error.clone().unwrap_or_default()
        + &app.status.message.clone().unwrap_or_default();
    assert!(hint.contains("draft"), "{hint}");
    // The draft is on disk (drafts are never lost) ...
    let mut runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(5));
    settle(&mut app, &mut runtime, effects);
    assert!(
        fs::read_to_string(dir.path().join("drafts.json"))
            .unwrap()
            .contains("(= totalExpense")
    );
    // ... and the expert gets back to it by adding a rule again, as for an
    // existing rule's draft with e.
    press(&mut app, 'a');
    assert_eq!(editor_text(&app), "(= totalExpense");
}

// ---------------------------------------------------------------- vetting

#[test]
fn the_vetting_screen_lints_in_the_background_and_applies_a_fix() {
    let dir = copy_sample("airline-refunds");
    let project = Project::load_unchecked(dir.path()).unwrap();
    let mut app = App::new(
        project,
        Drafts::default(),
        Keymap::default(),
        Theme::built_in("dark").unwrap(),
        (100, 30),
    );
    let mut runtime = start(&mut app);
    let effects = press(&mut app, '5');
    assert_eq!(app.screen, Screen::Vetting);
    assert_eq!(kinds(&effects), ["Lint"]);
    assert!(app.lint.running);
    settle(&mut app, &mut runtime, effects);
    assert!(!app.lint.running, "the lint run finished");
    let redundant = app
        .lint
        .diagnostics
        .iter()
        .position(|d| d.code == precept::core::lint::LintCode::RedundantRule)
        .expect("the sample has a redundant rule");
    let target = app.lint.diagnostics[redundant].rules[0].clone();
    for _ in 0..redundant {
        press(&mut app, 'j');
    }
    let rules_before = app.model.rules.len();
    let effects = press(&mut app, 'x');
    assert_eq!(app.model.rules.len(), rules_before - 1);
    assert!(
        app.model.rule(&target).is_none(),
        "{target} was deleted by the fix"
    );
    assert!(
        kinds(&effects).contains(&"SaveModel") && kinds(&effects).contains(&"Lint"),
        "{:?}",
        kinds(&effects)
    );
    settle(&mut app, &mut runtime, effects);
    assert!(!app.lint.diagnostics.iter().any(|d| d.code == precept::core::lint::LintCode::RedundantRule && d.rules[0] == target));
    // An ordinary edit: undo brings the rule back.
    let effects = press(&mut app, 'u');
    assert!(app.model.rule(&target).is_some());
    settle(&mut app, &mut runtime, effects);
}

#[test]
fn coverage_and_mutation_are_measured_in_the_background() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = press(&mut app, 'C');
    assert_eq!(app.screen, Screen::Vetting);
    assert!(
        kinds(&effects).contains(&"Coverage"),
        "{:?}",
        kinds(&effects)
    );
    assert!(app.coverage.running);
    settle(&mut app, &mut runtime, effects);
    assert!(!app.coverage.running);
    let coverage = app.coverage.coverage.as_ref().expect("a coverage report");
    assert_eq!(coverage.totals.rules, 17);
    assert!(coverage.untouched.is_empty());
    let mutation = app.coverage.mutation.as_ref().expect("a mutation report");
    assert!(mutation.killed > 0 && mutation.evaluated >= mutation.killed);
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap_or("")
            .contains("mutation score"),
        "{:?}",
        app.status.message
    );
}

#[test]
fn generated_tests_are_proposed_then_accepted_or_rejected() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let before = app.tests.tests.len();
    let effects = ctrl(&mut app, 'g');
    assert_eq!(kinds(&effects), ["Generate"]);
    settle(&mut app, &mut runtime, effects);
    let proposed: Vec<usize> = app
        .tests
        .tests
        .iter()
        .enumerate()
        .filter(|(_, t)| t.status == precept::core::model::TestStatus::Proposed)
        .map(|(i, _)| i)
        .collect();
    assert!(!proposed.is_empty() && app.tests.tests.len() == before + proposed.len());
    // Proposed tests do not count until reviewed.
    assert_eq!(app.counts().0 + app.counts().1, before);
    // Accept the first: a regression test expecting the proved finding.
    press(&mut app, '3');
    for _ in 0..proposed[0] {
        press(&mut app, 'j');
    }
    let effects = press(&mut app, 'y');
    settle(&mut app, &mut runtime, effects);
    let accepted = &app.tests.tests[proposed[0]];
    assert_eq!(accepted.status, precept::core::model::TestStatus::Accepted);
    assert_eq!(Some(accepted.expected), accepted.proved);
    // Reject the second with another finding: it becomes a failing test.
    press(&mut app, 'j');
    press(&mut app, 'R');
    assert!(matches!(app.overlay, Some(Overlay::RejectPrompt { .. })));
    let proved = app.tests.tests[proposed[1]].proved.unwrap();
    let other = if proved == FindingKind::Valid {
        'i'
    } else {
        'v'
    };
    let effects = press(&mut app, other);
    settle(&mut app, &mut runtime, effects);
    let rejected = &app.tests.tests[proposed[1]];
    assert_eq!(rejected.status, precept::core::model::TestStatus::Rejected);
    assert_eq!(app.test_state(&rejected.id).passed(), Some(false));
    // Saved with their states.
    let saved: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("tests.json")).unwrap()).unwrap();
    let statuses: Vec<&str> = saved["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["status"].as_str())
        .collect();
    assert!(
        statuses.contains(&"accepted")
            && statuses.contains(&"rejected")
            && statuses.contains(&"proposed"),
        "{statuses:?}"
    );
}

/// `x` on a conflicting overlap: both exception fixes are offered, each with
/// the tests it would flip (worked out by the solver in the background);
/// the chosen one is applied as an ordinary edit and undone with `u`.
#[test]
fn an_exception_fix_is_chosen_with_its_flips_applied_and_undone() {
    let scratch = tempfile::tempdir().unwrap();
    support::overlap_project(scratch.path());
    let mut app = open_app(scratch.path());
    let mut runtime = start(&mut app);
    assert_eq!(
        app.results["T1"].passed(),
        Some(false),
        "IMPOSSIBLE before the fix"
    );
    let effects = press(&mut app, '5');
    settle(&mut app, &mut runtime, effects);
    let overlap = app
        .lint
        .diagnostics
        .iter()
        .position(|d| d.code == precept::core::lint::LintCode::ConflictingOverlap)
        .expect("the overlap is reported");
    for _ in 0..overlap {
        press(&mut app, 'j');
    }
    let effects = press(&mut app, 'x');
    assert_eq!(kinds(&effects), ["PreviewFixes"]);
    settle(&mut app, &mut runtime, effects);
    let Some(Overlay::FixChoice(choice)) = &app.overlay else {
        panic!("a choice of fixes, not {:?}", app.overlay.is_some());
    };
    assert_eq!(choice.fixes.len(), 2);
    assert!(
        choice.fixes[0]
            .description
            .starts_with("R2 is the exception")
    );
    let flips = |i: usize| match &choice.flips[i] {
        Some(Ok(flips)) => flips.clone(),
        other => panic!("fix {i}: {other:?}"),
    };
    assert!(
        flips(0).iter().any(|f| f.test_id == "T1" && f.passes_after),
        "making denied boarding the exception fixes T1"
    );
    assert!(!flips(1).iter().any(|f| f.test_id == "T1" && f.passes_after));

    let before = app.model.rules[0].expression.clone();
    press(&mut app, '2');
    press(&mut app, '1');
    let effects = update(&mut app, key_event(KeyCode::Enter, KeyModifiers::NONE));
    assert!(app.overlay.is_none());
    assert_eq!(
        app.model.rules[0].expression,
        "(=> (and operated (not travelled) (not deniedBoarding)) (not refund))"
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.results["T1"].passed(), Some(true));
    assert_eq!(
        read_model(scratch.path()).rules[0].expression,
        app.model.rules[0].expression,
        "saved at once"
    );
    let effects = press(&mut app, 'u');
    assert_eq!(app.model.rules[0].expression, before);
    settle(&mut app, &mut runtime, effects);
}
