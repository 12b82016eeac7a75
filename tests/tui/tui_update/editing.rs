//! The rule editor, drafts, new rules and deleting declarations.

use super::*;
use precept::model::finding::KnownSide;
use precept::tui::state::msg::TestJob;

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
    let job = app.ws.run.job;
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
    assert_eq!(&app.ws.drafts, drafts);
    assert_eq!(expression(&app.ws.model, "R16"), R16);
    assert_eq!(app.ws.run.job, job, "nothing reruns");
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
    assert_eq!(app.ws.drafts.rules["R16"], "(= totalExpense");
    press(&mut app, 'e');
    assert_eq!(editor_text(&app), "(= totalExpense");
}

#[test]
fn a_valid_rule_is_saved_swapped_in_the_solver_and_rerun() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let job = app.ws.run.job;
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    assert_eq!(
        kinds(&effects),
        ["ReplaceRule", "RunTests", "SaveModel", "CheckRewrite"],
        "an approved rule's edit asks whether its meaning changed: {effects:#?}"
    );
    assert!(app.overlay.is_none());
    assert_eq!(expression(&app.ws.model, "R16"), R16_TAXED_MORE);
    let Effect::SaveModel(saved) = &effects[2] else {
        unreachable!()
    };
    assert_eq!(expression(saved, "R16"), R16_TAXED_MORE);
    assert!(
        matches!(&effects[0], Effect::ReplaceRule { id, formula: Some(_) } if id == "R16"),
        "{:?}",
        effects[0]
    );
    let (new_stamp, jobs, probe) = run_tests_effect(&effects);
    assert_ne!(new_stamp.job, job, "a new run");
    assert_eq!(app.ws.run.job, new_stamp.job);
    assert!(probe);
    assert!(jobs.contains(&"T1".to_string()) && jobs.contains(&"T2".to_string()));

    settle(&mut app, &mut runtime, effects);
    assert_eq!(expression(&read_model(dir.path()), "R16"), R16_TAXED_MORE);
    // 10% tax made 1.2: the $35.40 senior can no longer get in with credits.
    assert_eq!(app.counts(), (16, 2, 0));
    let failing: Vec<&str> = app
        .failing_tests()
        .into_iter()
        .map(|i| app.ws.tests.tests[i].id.as_str())
        .collect();
    assert_eq!(failing, ["T1", "T2"]);
    assert_eq!(
        app.ws.run.flips,
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
    // Every test is in R16's cone; those whose evidence does not rest on
    // R16 and holds under its new text keep their findings unasked.
    assert_eq!(app.ws.run.run_size + app.ws.run.run_kept, 18);
    assert!(app.ws.run.run_kept > 0, "no test kept its finding");
    let message = app.status.message.clone().unwrap();
    let expected = format!(
        "reran {} affected: 16 passed, 2 failed",
        app.ws.run.run_size
    );
    assert!(message.starts_with(&expected), "{message}");
    assert!(
        message.ends_with(&format!("; {} more kept", app.ws.run.run_kept)),
        "{message}"
    );
    assert!(
        message.contains("flipped: 2 passed→failed (T1, T2), 0 failed→passed"),
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
        [
            "SaveDrafts",
            "ReplaceRule",
            "RunTests",
            "SaveModel",
            "CheckRewrite"
        ]
    );
    assert_eq!(effects[0], Effect::SaveDrafts(Drafts::default()));
    assert!(app.ws.drafts.rules.is_empty());
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
    assert_eq!(app.ws.run.run_size, 2);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (3, 1, 0), "T3 now fails: 2 guests cost $12");
    assert!(matches!(app.test_state("T1"), TestState::Done(o) if o.passed));
    let message = app.status.message.clone().unwrap();
    assert!(message.contains("reran 2 affected: "), "{message}");

    // Parking rule: only the parking tests.
    edit_rule(&mut app, "P1", "(=> member (not freeParking))");
    let effects = ctrl(&mut app, 's');
    let (_, jobs, probe) = run_tests_effect(&effects);
    assert_eq!(jobs, ["T1", "T2"]);
    assert!(probe);
}

/// Each test's finding as the app holds it: id, kind and rule sets.
fn findings(app: &App) -> Vec<(String, Option<FindingKind>, Vec<String>)> {
    app.ws
        .tests
        .tests
        .iter()
        .map(|test| match app.test_state(&test.id) {
            TestState::Done(outcome) => (
                test.id.clone(),
                outcome.actual(),
                outcome
                    .finding
                    .as_ref()
                    .map(|f| f.rules().to_vec())
                    .unwrap_or_default(),
            ),
            _ => (test.id.clone(), None, Vec::new()),
        })
        .collect()
}

#[test]
fn an_edit_keeps_the_findings_its_evidence_still_proves_and_asks_only_the_rest() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    let before: std::collections::HashMap<String, TestState> = app.ws.run.results.clone();
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    let jobs: Vec<&TestJob> = effects
        .iter()
        .flat_map(|e| match e {
            Effect::RunTests { jobs, .. } => jobs.iter().collect(),
            _ => Vec::new(),
        })
        .collect();
    // Every test is in R16's cone: some are asked again, the rest keep
    // their findings, evidence and all, without the solver.
    let asked: Vec<&str> = jobs.iter().map(|j| j.test.id.as_str()).collect();
    assert!(
        app.ws.run.run_kept > 0 && asked.len() + app.ws.run.run_kept == 18,
        "{asked:?}"
    );
    for test in &app.ws.tests.tests {
        if !asked.contains(&test.id.as_str()) {
            assert_eq!(
                app.ws.run.results.get(&test.id),
                before.get(&test.id),
                "{}",
                test.id
            );
        }
    }
    // A test asked again is told what of its evidence still stands: never
    // a rule set that names R16.
    assert!(
        jobs.iter()
            .any(|j| j.known.claim_true.is_some() || j.known.claim_false.is_some()),
        "no test asked again kept one side of its question"
    );
    for job in &jobs {
        for side in [&job.known.claim_true, &job.known.claim_false] {
            if let Some(KnownSide::Refuted(rules)) = side {
                assert!(!rules.contains(&"R16".to_string()), "{}", job.test.id);
            }
        }
    }
    let started = app.status.message.clone().unwrap();
    assert!(
        started.contains("more kept their findings: their evidence still holds"),
        "{started}"
    );
    settle(&mut app, &mut runtime, effects);
    let message = app.status.message.clone().unwrap();
    assert!(message.ends_with("more kept"), "{message}");

    // A workbench opened afresh on the saved project finds the same.
    let mut fresh = open_app(dir.path());
    let _fresh_runtime = start(&mut fresh);
    assert_eq!(findings(&app), findings(&fresh));
}

#[test]
fn an_edits_rerun_shared_by_two_workers_answers_each_test_once() {
    let (dir, mut app) = park();
    let mut runtime = start_with_jobs(&mut app, 2);
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let mut effects = ctrl(&mut app, 's');
    let job = app.ws.run.job;
    let mut asked: Vec<String> = effects
        .iter()
        .flat_map(|e| match e {
            Effect::RunTests {
                jobs, shared_out, ..
            } => {
                assert!(shared_out, "an edit's rerun is shared out");
                jobs.iter().map(|j| j.test.id.clone()).collect()
            }
            _ => Vec::new(),
        })
        .collect();
    assert!(asked.len() > 1, "{asked:?}");
    // Both workers are given every test; the answers that arrive are one
    // per test, whichever worker gave it.
    let mut answered = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.ws.run.pending > 0 || !effects.is_empty() || runtime.has_pending() {
        let mut messages: Vec<Msg> = effects.drain(..).flat_map(|e| runtime.execute(e)).collect();
        // `poll` brings what is not a solver reply (the rewrite check).
        messages.extend(runtime.poll());
        messages.extend(runtime.wait(Duration::from_millis(100)));
        for message in messages {
            if let Msg::TestFinished { stamp, outcome } = &message
                && stamp.job == job
            {
                answered.push(outcome.id.clone());
            }
            effects.extend(update(&mut app, message));
        }
        assert!(Instant::now() < deadline, "the rerun did not finish");
    }
    answered.sort();
    asked.sort();
    assert_eq!(answered, asked);

    // And they find what a workbench opened afresh, on one worker, finds.
    let mut fresh = open_app(dir.path());
    let _fresh_runtime = start_with_jobs(&mut fresh, 1);
    assert_eq!(findings(&app), findings(&fresh));
}

#[test]
fn an_edit_that_makes_the_rules_consistent_again_reruns_every_test() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("model.json"), SPLIT_MODEL).unwrap();
    fs::write(dir.path().join("tests.json"), SPLIT_TESTS).unwrap();
    let mut app = open_app(dir.path());
    let mut runtime = start(&mut app);
    assert_eq!(app.counts(), (4, 0, 0));

    // The guest fee rule contradicts itself: its cone reruns, the probe
    // finds the policy inconsistent, and every test is asked again.
    edit_rule(&mut app, "G2", "(and (= guestFee 1.0) (= guestFee 2.0))");
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (0, 4, 0), "every question is IMPOSSIBLE");
    assert!(
        matches!(app.test_state("T1"), TestState::Done(o)
            if o.finding.as_ref().is_some_and(|f| f.policy_inconsistent == Some(true))),
        "the parking test fails only because the rules contradict each other"
    );

    // Fixed again: only the guest tests are in the edited rule's cone, but
    // the parking tests' IMPOSSIBLE is stale now, so they are rerun too.
    edit_rule(&mut app, "G2", "(= guestFee (* 5.0 guests))");
    let effects = ctrl(&mut app, 's');
    let (_, jobs, probe) = run_tests_effect(&effects);
    assert_eq!(jobs, ["T3", "T4"]);
    assert!(probe);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (4, 0, 0), "the parking tests pass again");
    assert!(matches!(app.test_state("T1"), TestState::Done(o) if o.passed));
    assert!(
        app.status.last_error.is_none(),
        "{:?}",
        app.status.last_error
    );
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
    assert!(app.ws.drafts.rules.is_empty());

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
    assert_eq!(app.ws.drafts, expected);
    assert_eq!(expression(&app.ws.model, "R1"), "(= baseFee 50.0)");
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
    assert_eq!(app.ws.drafts.rules["R1"], "x(= baseFee 50.0)");
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
    assert_eq!(app.ws.drafts.rules["R1"], "x(= baseFee 50.0)");
}

// ------------------------------------------------------------ new rules

#[test]

fn a_new_rule_kept_as_a_draft_can_be_reopened() {
    let (dir, mut app) = park();
    assert!(press(&mut app, 'a').is_empty());
    type_text(&mut app, "(= totalExpense");
    let effects = ctrl(&mut app, 's');
    assert_eq!(kinds(&effects), ["SaveDrafts"]);
    assert_eq!(app.ws.drafts.rules["R18"], "(= totalExpense");
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

// --------------------------------------------------------------- deleting

#[test]
fn deleting_a_variable_that_rules_use_is_refused() {
    let (_dir, mut app) = park();
    press(&mut app, '2');
    let before = app.ws.model.clone();
    assert_eq!(
        app.ws.model.variables[app.cursors.variable.selected].name,
        "ageClass"
    );
    let effects = press(&mut app, 'd');
    assert!(effects.is_empty());
    assert_eq!(app.ws.model, before);
    let error = app.status.last_error.clone().expect("an error is shown");
    assert_eq!(
        error,
        "ageClass is used by R4, R5, R6, R7; edit or delete those rules first"
    );
    // The enum type is in use too.
    press(&mut app, 'G');
    assert!(press(&mut app, 'd').is_empty());
    assert_eq!(app.ws.model, before);
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
    assert_eq!(kinds(&effects), ["ReplaceRule", "RunTests", "SaveModel"]);
    assert_eq!(
        effects[0],
        Effect::ReplaceRule {
            id: "R13".into(),
            formula: None
        }
    );
    assert!(app.ws.model.rule("R13").is_none());
    press(&mut app, 'u');
    assert!(app.ws.model.rule("R13").is_some());
}

#[test]
fn editing_an_approved_rule_sends_it_back_to_review() {
    let (_dir, mut app) = park();
    select_rule(&mut app, "R16");
    let review = |app: &App| app.ws.model.rule("R16").unwrap().review;
    for _ in 0..3 {
        press(&mut app, 'A');
        if review(&app) == ReviewStatus::Approved {
            break;
        }
    }
    assert_eq!(review(&app), ReviewStatus::Approved);
    assert_eq!(
        app.status.message.as_deref(),
        Some("R16 marked approved"),
        "plain words in the status line"
    );
    press(&mut app, 'A');
    assert_eq!(
        app.status.message.as_deref(),
        Some("R16 marked needs change")
    );
    press(&mut app, 'A');
    press(&mut app, 'A');
    assert_eq!(review(&app), ReviewStatus::Approved);
    // Saving the same text again changes nothing.
    let same = expression(&app.ws.model, "R16").to_string();
    edit_rule(&mut app, "R16", &same);
    ctrl(&mut app, 's');
    assert_eq!(review(&app), ReviewStatus::Approved);
    // A new text: the approval was of the old one.
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    ctrl(&mut app, 's');
    assert_eq!(review(&app), ReviewStatus::Unreviewed);
}

/// Types `text` into the open editor, a line break as enter.
fn type_lines(app: &mut App, text: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            code(app, KeyCode::Enter);
        }
        type_text(app, line);
    }
}

#[test]
fn a_variables_reading_forms_are_edited_on_the_variables_screen_and_word_its_rules() {
    let (dir, mut app) = park();
    press(&mut app, '2');
    press(&mut app, 'j');
    assert_eq!(
        app.ws.model.variables[app.cursors.variable.selected].name,
        "isLowSeason"
    );
    // The detail says how it reads, from the template until forms are given.
    app.size = (140, 40);
    let screen = screen_text(&app);
    assert!(
        screen.contains("Reads not the visit does not fall in the low season"),
        "{screen}"
    );
    assert!(screen.contains("(template; e edits it)"), "{screen}");
    press(&mut app, 'e');
    assert!(
        editor_text(&app).ends_with(
            "reads: the visit falls in the low season\nreads not: the visit does not fall in the low season"
        ),
        "{}",
        editor_text(&app)
    );
    let head =
        "name: isLowSeason\ntype: Bool\ndescription: Whether the visit falls in the low season";
    // A negation that negates nothing is refused where it stands.
    clear_editor(&mut app);
    type_lines(
        &mut app,
        &format!("{head}\nreads: it is the low season\nreads not: it is the low season"),
    );
    ctrl(&mut app, 's');
    let Some(Overlay::Editor(editor)) = &app.overlay else {
        panic!("a refused form keeps the editor open");
    };
    let error = editor.error.clone().expect("an error");
    assert_eq!(error.line, 4, "{error:?}");
    assert!(error.message.contains("does not negate"), "{error:?}");
    assert!(app.ws.model.variables[1].reading.is_empty());

    clear_editor(&mut app);
    type_lines(
        &mut app,
        &format!("{head}\nreads: it is the low season\nreads not: it is not the low season"),
    );
    let effects = ctrl(&mut app, 's');
    assert!(app.overlay.is_none(), "{:?}", app.status.last_error);
    assert!(
        effects.iter().any(|e| matches!(e, Effect::SaveModel(_))),
        "the forms are saved"
    );
    let reading = &app.ws.model.variables[1].reading;
    assert_eq!(reading.negated, "it is not the low season");
    let rule = app
        .ws
        .model
        .rules
        .iter()
        .find(|r| r.expression.starts_with("(=> (not isLowSeason)"))
        .unwrap()
        .id
        .clone();
    let english = &app.ws.rule_english[&rule];
    assert!(
        english.starts_with("If it is not the low season, then"),
        "{english}"
    );
    let _ = dir;
}
