//! The results an LLM helped make are not made again on every edit, so
//! they say when the model has moved on: the verify screen's answer check
//! and the probe's report are marked STALE naming the edit, a review mark
//! changes nothing, and an undo back to their model makes them current.

use super::probe_screen;
use super::*;
use precept::answer::AnswerReport;
use precept::probe::Verdict;
use precept::probe::report::ProbeReport;

fn answer_report() -> AnswerReport {
    AnswerReport {
        finding: FindingKind::Satisfiable,
        question: "Can a senior visit in the low season?".into(),
        answer: "No, you cannot visit the park.".into(),
        k: 3,
        threshold: 0.5,
        reason: None,
        deciding_pair: None,
        pairs: Vec::new(),
        untranslated: Vec::new(),
        translations: Vec::new(),
        feedback: String::new(),
        timing: Default::default(),
    }
}

/// Edits R16 and applies it (the test run is not carried out).
fn edit_r16(app: &mut App) {
    edit_rule(app, "R16", R16_TAXED_MORE);
    ctrl(app, 's');
    assert_eq!(expression(&app.ws.model, "R16"), R16_TAXED_MORE);
}

#[test]
fn an_answer_check_says_which_edit_made_it_stale_until_undone() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    press(&mut app, '4');
    ctrl(&mut app, 't');
    type_text(&mut app, "Can a senior visit in the low season?");
    code(&mut app, KeyCode::Tab);
    type_text(&mut app, "No, you cannot visit the park.");
    let effects = code(&mut app, KeyCode::Enter);
    let Some(Effect::CheckAnswer { stamp, .. }) = effects.first() else {
        panic!("{:?}", kinds(&effects));
    };
    let stamp = *stamp;
    code(&mut app, KeyCode::Esc);
    // The model changes while the LLM translates: the report that comes
    // back describes the model before the edit.
    edit_r16(&mut app);
    assert_eq!(app.verify.qa.basis.stale_since(), Some("edit rule R16"));
    update(
        &mut app,
        Msg::AnswerChecked {
            stamp,
            result: Ok(Box::new(answer_report())),
        },
    );
    press(&mut app, '4');
    let screen = screen_text(&app);
    assert!(
        screen.contains("Findings · STALE since edit rule R16: enter checks again"),
        "{screen}"
    );
    assert!(
        screen.contains("STALE since edit rule R16: this answer was checked against the model"),
        "{screen}"
    );
    // A review mark changes nothing the check read; a second edit does not
    // rename the staleness.
    code(&mut app, KeyCode::Esc);
    select_rule(&mut app, "R1");
    press(&mut app, 'A');
    edit_rule(&mut app, "R1", "(= baseFee 55.0)");
    ctrl(&mut app, 's');
    assert_eq!(app.verify.qa.basis.stale_since(), Some("edit rule R16"));
    // Undo the R1 edit and the mark: still stale, since the R16 edit.
    press(&mut app, 'u');
    press(&mut app, 'u');
    assert_eq!(app.verify.qa.basis.stale_since(), Some("edit rule R16"));
    // Undo the R16 edit: the model the answer was checked against.
    press(&mut app, 'u');
    assert_eq!(app.verify.qa.basis.stale_since(), None);
    press(&mut app, '4');
    assert!(
        !screen_text(&app).contains("STALE"),
        "{}",
        screen_text(&app)
    );
}

#[test]
fn a_probe_report_says_which_edit_made_it_stale_until_undone() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    press(&mut app, '7');
    update(
        &mut app,
        Msg::ProbeTargets {
            names: vec!["translator".into(), "bot".into()],
            translator: Some("translator".into()),
            error: None,
        },
    );
    let effects = press(&mut app, 'r');
    let Some(Effect::StartProbe { stamp, .. }) = effects.first() else {
        panic!("{:?}", kinds(&effects));
    };
    let stamp = *stamp;
    let report = ProbeReport::new(
        vec![
            probe_screen::result("Q1", Verdict::Correct),
            probe_screen::result("Q2", Verdict::Hallucination),
        ],
        0,
    );
    update(
        &mut app,
        Msg::ProbeFinished {
            stamp,
            result: Ok(Box::new(report)),
        },
    );
    assert!(!screen_text(&app).contains("STALE"));
    edit_r16(&mut app);
    assert_eq!(app.probe.basis.stale_since(), Some("edit rule R16"));
    press(&mut app, '7');
    let screen = screen_text(&app);
    assert!(screen.contains("Probe · STALE"), "{screen}");
    assert!(
        screen.contains("STALE since edit rule R16: the answers were judged"),
        "{screen}"
    );
    assert!(
        screen.contains("done: 2 answers judged"),
        "the report stays: {screen}"
    );
    press(&mut app, 'u');
    assert_eq!(app.probe.basis.stale_since(), None);
    assert!(!screen_text(&app).contains("STALE"));
    // Redo: stale again, named by the redo.
    ctrl(&mut app, 'r');
    assert_eq!(expression(&app.ws.model, "R16"), R16_TAXED_MORE);
    let redo = app.probe.basis.stale_since().map(str::to_string);
    assert!(
        redo.as_deref()
            .is_some_and(|r| r.starts_with("redo") && r.contains("edit rule R16")),
        "{redo:?}"
    );
}
