//! Formalizing from the workbench: progress, confirmation, stopping, failure.

use super::*;

#[test]
fn a_formalization_shows_progress_and_becomes_one_undoable_edit() {
    let (_dir, mut app) = open_park();
    let original = app.ws.model.clone();
    let stamp = start_formalizing(&mut app);
    let spans = plan_spans(app.ws.document.as_deref().unwrap(), 3_000);
    update(
        &mut app,
        Msg::Formalize {
            stamp,
            event: FormalizeEvent::Planned { spans },
        },
    );
    let run = app.formalization.run.as_ref().unwrap();
    assert_eq!(run.progress.len(), 12, "the park document has 12 spans");
    assert_eq!(run.spans[0].0, "S1");

    update(
        &mut app,
        Msg::Formalize {
            stamp,
            event: FormalizeEvent::Started { span: 0 },
        },
    );
    update(
        &mut app,
        Msg::Formalize {
            stamp,
            event: FormalizeEvent::Retrying {
                span: 1,
                round: 2,
                problems: vec![],
            },
        },
    );
    let counts = SpanCounts {
        types: 0,
        variables: 2,
        rules: 1,
        failed: false,
    };
    update(
        &mut app,
        Msg::Formalize {
            stamp,
            event: FormalizeEvent::Finished { span: 0, counts },
        },
    );
    let run = app.formalization.run.as_ref().unwrap();
    assert_eq!(run.progress[0], SpanProgress::Done(counts));
    assert_eq!(run.progress[1], SpanProgress::Asking { round: 2 });
    assert!(
        app.status
            .job
            .as_deref()
            .unwrap()
            .contains("1/12 spans done")
    );

    // A result of an older run is dropped.
    let formalized = park_formalized(&app);
    assert!(
        update(
            &mut app,
            Msg::FormalizeDone {
                stamp: another_job(stamp),
                result: Ok(Box::new(formalized.clone())),
            },
        )
        .is_empty()
    );
    let effects = update(
        &mut app,
        Msg::FormalizeDone {
            stamp,
            result: Ok(Box::new(formalized.clone())),
        },
    );
    assert_eq!(
        names(&effects),
        ["SaveModel", "LoadSolver", "RunTests", "SaveRecord"]
    );
    assert!(app.formalization.run.is_none());
    assert_eq!(app.ws.model.rules, formalized.model.rules);
    assert_eq!(app.ws.model.title, original.title, "the title is kept");
    assert!(
        app.ws
            .model
            .rules
            .iter()
            .all(|r| r.review == ReviewStatus::Unreviewed)
    );
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap()
            .contains("formalized 12 of 12 spans")
    );

    let effects = press(&mut app, 'u');
    assert_eq!(app.ws.model, original, "undo brings the old model back");
    assert!(
        app.formalization.record.is_none(),
        "and the project had no record"
    );
    assert!(
        names(&effects).contains(&"RemoveRecord"),
        "{:?}",
        names(&effects)
    );
    let effects = ctrl(&mut app, 'r');
    assert!(
        app.formalization.record.is_some(),
        "redo brings the record back"
    );
    assert!(names(&effects).contains(&"SaveRecord"));
}

#[test]
fn the_replace_confirmation_holds_for_the_next_key_only() {
    let (_dir, mut app) = open_park();
    press(&mut app, '6');
    assert!(press(&mut app, 'F').is_empty());
    press(&mut app, 'j');
    assert!(
        press(&mut app, 'F').is_empty(),
        "after another key, F asks again"
    );
    assert!(matches!(
        press(&mut app, 'F').first(),
        Some(Effect::Formalize { .. })
    ));
}

#[test]
fn esc_stops_a_formalization_and_its_late_result_is_dropped() {
    let (_dir, mut app) = open_park();
    let original = app.ws.model.clone();
    let stamp = start_formalizing(&mut app);
    assert_eq!(names(&key(&mut app, KeyCode::Esc)), ["CancelFormalize"]);
    assert!(app.formalization.run.is_none());
    let formalized = park_formalized(&app);
    assert!(
        update(
            &mut app,
            Msg::FormalizeDone {
                stamp,
                result: Ok(Box::new(formalized)),
            },
        )
        .is_empty()
    );
    assert_eq!(app.ws.model, original);
}

#[test]
fn a_failed_formalization_reports_why_and_changes_nothing() {
    let (_dir, mut app) = open_park();
    let original = app.ws.model.clone();
    let stamp = start_formalizing(&mut app);
    let effects = update(
        &mut app,
        Msg::FormalizeDone {
            stamp,
            result: Err(JobError::of(LlmError::NotConfigured {
                how_to: "create llm.toml:\n\n[[profile]]\nname = \"local\"".into(),
            })),
        },
    );
    assert!(effects.is_empty());
    let status = app.status.last_error.as_deref().unwrap();
    assert!(
        status.contains("llm.toml") && !status.contains('\n'),
        "{status}"
    );
    assert!(
        app.formalization
            .error
            .as_deref()
            .unwrap()
            .contains("[[profile]]"),
        "the screen keeps the whole how-to"
    );
    assert_eq!(app.ws.model, original);
}
