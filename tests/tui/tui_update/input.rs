//! Small input defects a reviewer met: placeholders that came from another
//! project, feedback lost when no LLM answers, and the focus of the verify
//! inputs after switching modes.

use super::*;
use precept::tui::state::repair::RepairStage;

#[test]
fn verify_examples_come_from_the_open_projects_vocabulary() {
    let (_dir, park) = park();
    let premise = park.verify.premise.placeholder_text().to_string();
    let claim = park.verify.claim.placeholder_text().to_string();
    assert!(
        premise.starts_with("premise, e.g. (and (= ageClass "),
        "{premise}"
    );
    assert!(claim.starts_with("claim, e.g. "), "{claim}");

    let dir = copy_sample("airline-refunds");
    let airline = open_app(dir.path());
    let premise = airline.verify.premise.placeholder_text().to_string();
    let claim = airline.verify.claim.placeholder_text().to_string();
    for text in [&premise, &claim] {
        assert!(
            !text.contains("ageClass") && !text.contains("isEntryAllowed"),
            "{text}"
        );
        let example = text
            .split("e.g. ")
            .nth(1)
            .and_then(|rest| rest.split(" (empty").next())
            .unwrap_or_else(|| panic!("an example in {text}"));
        airline
            .ws
            .compiled
            .check_formula(example)
            .unwrap_or_else(|e| panic!("{example} checks against the model: {e}"));
    }
}

#[test]
fn feedback_typed_for_a_repair_survives_a_missing_llm() {
    let (dir, mut app) = park();
    let config = tempfile::tempdir().unwrap();
    let mut runtime = Runtime::new(
        dir.path().to_path_buf(),
        Some(config.path().to_path_buf()),
        Duration::from_secs(5),
    );
    let effects = vec![
        Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
        precept::tui::update::start_full_run(&mut app),
    ];
    settle(&mut app, &mut runtime, effects);
    select_rule(&mut app, "R16");
    press(&mut app, 'w');
    let Some(Overlay::Repair(state)) = &app.overlay else {
        panic!("the repair box");
    };
    assert!(
        state
            .feedback
            .placeholder_text()
            .contains("what R16 gets wrong"),
        "{}",
        state.feedback.placeholder_text()
    );
    type_text(&mut app, "the tax is 10 percent, not 20");
    let effects = code(&mut app, KeyCode::Enter);
    assert_eq!(kinds(&effects), ["ProposeRepair"]);
    settle(&mut app, &mut runtime, effects);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !matches!(&app.overlay, Some(Overlay::Repair(s)) if matches!(s.stage, RepairStage::Failed(_)))
    {
        assert!(Instant::now() < deadline, "the repair did not fail");
        for message in runtime.wait(Duration::from_millis(100)) {
            update(&mut app, message);
        }
    }
    // Any key goes back to the words as typed.
    press(&mut app, 'x');
    let Some(Overlay::Repair(state)) = &app.overlay else {
        panic!("the repair box");
    };
    assert!(matches!(state.stage, RepairStage::Writing));
    assert_eq!(
        state.feedback.lines().join("\n"),
        "the tax is 10 percent, not 20"
    );
    // Closed, then opened again: still there.
    code(&mut app, KeyCode::Esc);
    assert_eq!(
        app.status.message.as_deref(),
        Some("your feedback is kept: w opens it again")
    );
    press(&mut app, 'w');
    let Some(Overlay::Repair(state)) = &app.overlay else {
        panic!("the repair box");
    };
    assert_eq!(
        state.feedback.lines().join("\n"),
        "the tax is 10 percent, not 20"
    );
}

#[test]
fn switching_to_questions_and_answers_leaves_the_keyboard_where_it_was() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    press(&mut app, '4');
    assert_eq!(app.focus, Pane::VerifyInput);
    assert!(screen_text(&app).contains("TYPING · esc: keys act again"));
    code(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Pane::VerifyResult);
    assert!(!screen_text(&app).contains("TYPING"));
    // ctrl-t and back: the keys still switch screens, nothing is typed.
    ctrl(&mut app, 't');
    ctrl(&mut app, 't');
    press(&mut app, '5');
    assert_eq!(app.screen, Screen::Vetting);
    assert_eq!(app.verify.premise.lines().join(""), "");
    // From another screen, ctrl-t opens the inputs for typing.
    ctrl(&mut app, 't');
    assert_eq!((app.screen, app.focus), (Screen::Verify, Pane::VerifyInput));
}
