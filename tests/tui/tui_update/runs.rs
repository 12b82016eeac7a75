//! Test runs: stale results, flips, stepping through failures, undo.

use super::*;

// ------------------------------------------------------------ run results

#[test]
fn results_of_an_older_run_are_dropped() {
    let (_dir, mut app) = park();
    let _runtime = start(&mut app);
    let old = match app.test_state("T5") {
        TestState::Done(outcome) => outcome.clone(),
        other => panic!("T5 did not run: {other:?}"),
    };
    let old_stamp = app.ws.run.job;
    let effects = press(&mut app, 'r');
    let (stamp, jobs, _) = run_tests_effect(&effects);
    assert_ne!(stamp.job, old_stamp, "a new run");
    assert_eq!(jobs.len(), 18);
    assert_eq!(app.ws.run.pending, 18);
    assert_eq!(*app.test_state("T5"), TestState::Running);

    // A failing result from the old run arrives late: it changes nothing.
    let mut stale = old.clone();
    stale.passed = false;
    let effects = update(
        &mut app,
        Msg::TestFinished {
            stamp: another_job(stamp),
            outcome: stale,
        },
    );
    assert!(effects.is_empty());
    assert_eq!(*app.test_state("T5"), TestState::Running);
    assert_eq!(app.ws.run.pending, 18);
    assert!(app.ws.run.flips.is_empty());

    // The current run's result counts.
    update(
        &mut app,
        Msg::TestFinished {
            stamp,
            outcome: old.clone(),
        },
    );
    assert_eq!(app.test_state("T5").passed(), Some(true));
    assert_eq!(app.ws.run.pending, 17);
}

#[test]
fn a_result_that_changes_pass_or_fail_is_recorded_as_a_flip() {
    let (_dir, mut app) = park();
    let _runtime = start(&mut app);
    let outcomes: Vec<_> = app
        .ws
        .tests
        .tests
        .iter()
        .map(|t| match app.test_state(&t.id) {
            TestState::Done(outcome) => outcome.clone(),
            other => panic!("{} did not run: {other:?}", t.id),
        })
        .collect();
    let effects = press(&mut app, 'r');
    let (stamp, _, _) = run_tests_effect(&effects);
    for mut outcome in outcomes {
        // T4 passed before and fails now; the others pass again: no flip.
        if outcome.id == "T4" {
            outcome.passed = false;
        }
        update(&mut app, Msg::TestFinished { stamp, outcome });
    }
    assert_eq!(app.ws.run.pending, 0);
    assert_eq!(
        app.ws.run.flips,
        [Flip {
            test_id: "T4".into(),
            now_passes: false
        }]
    );
    let message = app.status.message.clone().unwrap();
    assert_eq!(
        message,
        "17 passed, 1 failed; flipped: 1 passed→failed (T4), 0 failed→passed · J jumps to them"
    );

    // And back: the failing test passes again in the next run.
    let failed_t4 = match app.test_state("T4") {
        TestState::Done(outcome) => outcome.clone(),
        other => panic!("{other:?}"),
    };
    let effects = press(&mut app, 'r');
    let (stamp, _, _) = run_tests_effect(&effects);
    assert!(
        app.ws.run.flips.is_empty(),
        "a new run starts with no flips"
    );
    let mut fixed = failed_t4;
    fixed.passed = true;
    update(
        &mut app,
        Msg::TestFinished {
            stamp,
            outcome: fixed,
        },
    );
    assert_eq!(
        app.ws.run.flips,
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
    let original = app.ws.model.clone();
    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (16, 2, 0));
    let job = app.ws.run.job;

    let effects = press(&mut app, 'u');
    assert_eq!(
        kinds(&effects),
        ["SaveModel", "SaveTests", "LoadSolver", "RunTests"],
        "{effects:#?}"
    );
    assert_eq!(app.ws.model, original);
    assert_eq!(effects[0], Effect::SaveModel(Box::new(original.clone())));
    let (new_stamp, jobs, _) = run_tests_effect(&effects);
    assert_ne!(new_stamp.job, job, "a new run");
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
    assert_eq!(expression(&app.ws.model, "R16"), R16_TAXED_MORE);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (16, 2, 0));
    press(&mut app, 'u');
    assert!(press(&mut app, 'u').is_empty());
    assert_eq!(app.status.message.as_deref(), Some("nothing to undo"));
}
