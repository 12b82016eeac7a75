//! The verify screen.

use super::*;
use precept::smt::Expr;
use precept::solve::Finding;

// ----------------------------------------------------------------- verify

const PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const CLAIM: &str = "(not isEntryAllowed)";

/// Types a premise and a claim on the Verify screen (going there, or back
/// to its input, first when needed) and asks.
pub(super) fn ask(app: &mut App, premise: &str, claim: &str) -> Vec<Effect> {
    if app.screen != Screen::Verify || app.focus != Pane::VerifyInput {
        press(app, '4');
    }
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
        stamp,
        premise,
        claim,
        defaults: None,
    } = &effects[0]
    else {
        panic!("{effects:#?}")
    };
    assert_eq!(stamp.job, app.verify.job);
    assert_eq!(*premise, app.ws.compiled.check_formula(PREMISE).unwrap().1);
    assert_eq!(*claim, app.ws.compiled.check_formula(CLAIM).unwrap().1);
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
    let Effect::Verify { stamp, .. } = effects[0].clone() else {
        panic!()
    };
    // A reply for an older question is ignored.
    let stale = precept::solve::Finding::too_complex("true", "true", "an old question");
    update(
        &mut app,
        Msg::VerifyFinished {
            stamp: another_job(stamp),
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
    // Then the name: offered from the claim's English, and editable.
    assert!(press(&mut app, 'v').is_empty());
    let Some(Overlay::Name(prompt)) = &app.overlay else {
        panic!("a name prompt");
    };
    let (written, _) = app.ws.compiled.check_formula("isEntryAllowed").unwrap();
    let english = app.ws.compiled.glossary.sentence(&written);
    assert!(!english.contains("isEntryAllowed"), "{english}");
    // Short, from the claim alone (the premise is in the test).
    assert_eq!(prompt.text(), english.trim().trim_end_matches('.'));
    assert!(prompt.text().chars().count() <= 48, "{}", prompt.text());
    // esc saves nothing.
    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());
    assert_eq!(app.ws.tests.tests.len(), 18);
    assert_eq!(app.status.message.as_deref(), Some("not saved"));
    ctrl(&mut app, 's');
    press(&mut app, 'v');
    let Some(Overlay::Name(prompt)) = &mut app.overlay else {
        panic!("a name prompt");
    };
    prompt.input = ratatui_textarea::TextArea::default();
    type_text(&mut app, "senior with credits gets in");
    let effects = code(&mut app, KeyCode::Enter);
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
    assert_eq!(added.name, "senior with credits gets in");
    let (_, jobs, _) = run_tests_effect(&effects);
    assert_eq!(jobs, ["T19"]);

    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.counts(), (19, 0, 0));
    // The confirmation stays, with the first result.
    assert_eq!(
        app.status.message.as_deref(),
        Some(
            "saved test T19 “senior with credits gets in”, expecting VALID (3 shows it) · reran 1 affected: 19 passed, 0 failed"
        )
    );
    let on_disk: precept::model::TestSuite =
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
    assert_eq!(app.ws.tests.tests.len(), 18);
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
    assert_eq!(app.ws.run.flips.len(), 14, "{:?}", app.ws.run.flips);
    assert!(app.ws.run.flips.iter().all(|f| !f.now_passes));
    let message = app.status.message.clone().unwrap();
    // The first six are named, the rest counted.
    assert!(
        message.contains("flipped: 14 passed→failed (T") && message.contains(" and 8 more)"),
        "{message}"
    );
}

/// The finding on the verify screen never describes an earlier model: an
/// edit (and its undo) asks the question again, and the screen says after
/// which change.
#[test]
fn an_edit_asks_the_verify_question_again() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    // An adult in high season pays 50 in cash: 55 with the tax.
    let premise = "(and (= ageClass ADULT) (not isLowSeason) (= creditUnits 0))";
    let claim = "(= totalExpense 55.0)";
    let effects = ask(&mut app, premise, claim);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().unwrap().kind,
        FindingKind::Valid
    );
    code(&mut app, KeyCode::Esc);

    edit_rule(&mut app, "R16", R16_TAXED_MORE);
    let effects = ctrl(&mut app, 's');
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Verify { .. })),
        "{effects:#?}"
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().unwrap().kind,
        FindingKind::Invalid
    );
    app.size = (120, 40);
    press(&mut app, '4');
    code(&mut app, KeyCode::Esc);
    let screen = screen_text(&app);
    assert!(
        screen.contains("Asked again after edit rule R16: this is the current"),
        "{screen}"
    );

    let effects = press(&mut app, 'u');
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().unwrap().kind,
        FindingKind::Valid
    );
    assert_eq!(
        app.verify.asked_again_after.as_deref(),
        Some("undo edit rule R16")
    );
    // Asking anew drops the note.
    press(&mut app, '4');
    let effects = code(&mut app, KeyCode::Enter);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.verify.asked_again_after, None);
}

/// The finding the runtime brings for the panel's question `stamp`.
fn panel_finding(runtime: &mut Runtime, stamp: Stamp, premise: Expr, claim: Expr) -> Finding {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut messages = runtime.execute(Effect::Verify {
        stamp,
        premise,
        claim,
        defaults: None,
    });
    loop {
        for message in messages.drain(..) {
            if let Msg::VerifyFinished { stamp: t, finding } = message
                && t == stamp
            {
                return *finding;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no finding for question {stamp:?}"
        );
        messages = runtime.wait(Duration::from_millis(200));
    }
}

#[test]
fn a_question_split_over_two_workers_gets_the_finding_one_worker_gives() {
    let (_one_dir, mut one_app) = park();
    let (_two_dir, mut two_app) = park();
    let mut one = start_with_jobs(&mut one_app, 1);
    let mut two = start_with_jobs(&mut two_app, 2);
    let questions = [
        (PREMISE, CLAIM, FindingKind::Satisfiable),
        ("(= ageClass SENIOR)", "(= baseFee 50)", FindingKind::Valid),
        (
            "(= ageClass SENIOR)",
            "(= baseFee 51)",
            FindingKind::Invalid,
        ),
        (
            "(and (= ageClass SENIOR) (= baseFee 51))",
            "isEntryAllowed",
            FindingKind::Impossible,
        ),
    ];
    for (premise, claim, kind) in questions {
        let stamp = one_app.ws.stamp();
        let formula = |text: &str| one_app.ws.compiled.check_formula(text).unwrap().1;
        let (p, c) = (formula(premise), formula(claim));
        let whole = panel_finding(&mut one, stamp, p.clone(), c.clone());
        let split = panel_finding(&mut two, stamp, p, c);
        assert_eq!(whole.kind, kind, "{premise} => {claim}: {whole:#?}");
        assert_eq!(split.kind, whole.kind, "{premise} => {claim}");
        assert_eq!(split.rules(), whole.rules(), "{premise} => {claim}");
        assert_eq!(split.rules_minimal, whole.rules_minimal);
        assert_eq!(split.warnings, whole.warnings);
        assert_eq!(split.policy_inconsistent, whole.policy_inconsistent);
        assert_eq!(
            split.claims_true_scenario.is_some(),
            whole.claims_true_scenario.is_some()
        );
        assert_eq!(
            split.claims_false_scenario.is_some(),
            whole.claims_false_scenario.is_some()
        );
    }
    assert!(!two.has_pending(), "a side is still waited for");
}

/// A claim the premise gives away by itself (premise and claim swapped)
/// is VALID without any rule: ctrl-s warns first, and a second ctrl-s saves.
#[test]
fn saving_a_claim_the_premise_alone_implies_warns_first() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    let effects = ask(
        &mut app,
        "(and isLowSeason (= ageClass SENIOR))",
        "isLowSeason",
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(
        app.verify.finding.as_ref().map(|f| f.kind),
        Some(FindingKind::Valid)
    );
    ctrl(&mut app, 's');
    assert!(app.overlay.is_none(), "not saved yet");
    assert!(
        app.status
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("premise alone")),
        "{:?}",
        app.status.last_error
    );
    ctrl(&mut app, 's');
    assert!(matches!(app.overlay, Some(Overlay::ExpectPrompt)));
}

/// ctrl-u clears the field that has the keys, and only that one.
#[test]
fn ctrl_u_clears_the_field_being_typed() {
    let (_dir, mut app) = park();
    press(&mut app, '4');
    code(&mut app, KeyCode::Enter);
    type_text(&mut app, "(= ageClass SENIOR)");
    code(&mut app, KeyCode::Tab);
    type_text(&mut app, "isEntryAllowed");
    ctrl(&mut app, 'u');
    assert_eq!(app.verify.claim.lines().join(""), "");
    assert_eq!(app.verify.premise.lines().join(""), "(= ageClass SENIOR)");
    let screen = support::keys::screen_text(&app);
    assert!(
        screen.contains("▸  claim"),
        "the field with the keys is marked:\n{screen}"
    );
}

/// A premise longer than its field wraps onto the row below: the start
/// and the end of what was typed are both in view.
#[test]
fn a_long_premise_wraps_instead_of_scrolling_out_of_sight() {
    let (_dir, mut app) = park();
    app.size = (80, 24);
    press(&mut app, '4');
    code(&mut app, KeyCode::Enter);
    let premise =
        "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4) (= creditUnits 3))";
    type_text(&mut app, premise);
    let screen = support::keys::screen_text(&app);
    assert!(premise.len() > 70, "longer than the field at 80 columns");
    assert!(screen.contains("(and (= ageClass SENIOR)"), "{screen}");
    assert!(screen.contains("creditUnits 3))"), "{screen}");
}
