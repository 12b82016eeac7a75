//! The why overlay of the Tests screen: `W` asks the solver in the
//! background for the chain of the selected test's finding; enter on a step
//! jumps to its rule and span; `M` writes the chain as Markdown; a failing
//! test says where its findings part ways.

use super::*;
use precept::explain::markdown::chain_markdown;
use precept::tui::state::why::{Parting, WhyContent, WhyState};

fn select_test(app: &mut App, id: &str) {
    press(app, '3');
    press(app, 'g');
    for _ in 0..test_index(app, id) {
        press(app, 'j');
    }
    assert_eq!(app.selected_test().unwrap().id, id);
}

fn why(app: &App) -> &WhyState {
    match &app.overlay {
        Some(Overlay::Why(why)) => why,
        _ => panic!("the why overlay is not open"),
    }
}

/// Opens the why overlay on test `id` and waits for the solver.
fn explain(app: &mut App, runtime: &mut Runtime, id: &str) {
    select_test(app, id);
    let effects = press(app, 'W');
    assert_eq!(kinds(&effects), ["ExplainTest"]);
    assert_eq!(why(app).content, WhyContent::Working);
    assert!(screen_text(app).contains("asking the solver…"));
    settle(app, runtime, effects);
}

fn step_rules(app: &App) -> Vec<String> {
    why(app)
        .chain()
        .expect("a chain")
        .steps
        .iter()
        .map(|s| s.rules.join("+"))
        .collect()
}

#[test]
fn why_on_a_passing_test_shows_its_chain_with_rules_values_and_sources() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    let mut runtime = start(&mut app);
    explain(&mut app, &mut runtime, "T3");
    assert_eq!(
        step_rules(&app),
        [
            "R1", "R2", "R4", "R8", "R9", "R11", "R12", "R14", "R15", "R16", "R17"
        ]
    );
    let state = why(&app);
    assert_eq!(state.actual, Some(FindingKind::Valid));
    assert_eq!(state.parting, None, "a passing test has no parting");
    let step = &state.chain().unwrap().steps[2];
    assert_eq!(
        step.texts[0].source.as_deref(),
        Some("Senior visitors receive a 40% discount on the admission fee.")
    );
    let screen = screen_text(&app);
    assert!(screen.contains("Why T3 is VALID"), "{screen}");
    assert!(
        screen.contains("expected VALID: the test passes"),
        "{screen}"
    );
    assert!(
        screen.contains("Proves (not isEntryAllowed) in 11 steps:"),
        "{screen}"
    );
    assert!(screen.contains("▸ Step 1 · rule R1"), "{screen}");
    assert!(screen.contains("  Step 3 · rule R4"), "{screen}");
    assert!(
        screen.contains("(=> (and (= ageClass SENIOR) (= creditUnits 0)) (= discountRate 0.4))"),
        "{screen}"
    );
    assert!(
        screen.contains("uses ageClass = SENIOR, creditUnits = 0"),
        "{screen}"
    );
    assert!(screen.contains("derives discountRate = 0.4"), "{screen}");
    assert!(
        screen.contains("“Senior visitors receive a 40% discount on the admission fee.”"),
        "{screen}"
    );
}

#[test]
fn enter_on_a_step_jumps_to_its_rule_with_its_span_selected() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    explain(&mut app, &mut runtime, "T3");
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(why(&app).cursor.selected, 2);
    assert!(screen_text(&app).contains("▸ Step 3 · rule R4"));
    assert!(code(&mut app, KeyCode::Enter).is_empty());
    assert!(app.overlay.is_none());
    assert_eq!(app.screen, Screen::Rules);
    let rule = app.selected_rule().unwrap().clone();
    assert_eq!(rule.id, "R4");
    assert_eq!(Some(app.cursors.span.selected), app.ws.span_of_rule(&rule));
}

#[test]
fn m_writes_the_chain_as_markdown_into_the_project() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    explain(&mut app, &mut runtime, "T3");
    let expected = chain_markdown(why(&app).chain().unwrap());
    assert!(
        expected.starts_with("**Derivation of** `(not isEntryAllowed)`\n\n1. By rule R1:\n"),
        "{expected}"
    );
    let effects = press(&mut app, 'M');
    assert_eq!(
        effects,
        [Effect::WriteProjectFile {
            path: "explain/T3.md".into(),
            contents: expected.clone(),
        }]
    );
    settle(&mut app, &mut runtime, effects);
    let written = fs::read_to_string(dir.path().join("explain/T3.md")).unwrap();
    assert_eq!(written, expected);
    assert!(written.contains(
        "3. By rule R4:\n   - `(=> (and (= ageClass SENIOR) (= creditUnits 0)) (= discountRate 0.4))` R4: "
    ));
    assert!(written.contains("   - derives `discountRate` = 0.4\n\n   > Senior visitors receive a 40% discount on the admission fee.\n"));
    assert_eq!(
        app.status.message.as_deref(),
        Some("wrote the chain as Markdown to explain/T3.md")
    );
}

/// The park sample with test `id` expecting `expected` instead.
fn park_expecting(id: &str, expected: &str) -> (tempfile::TempDir, App) {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("tests.json");
    let mut tests: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    for test in tests["tests"].as_array_mut().unwrap() {
        if test["id"] == id {
            test["expected"] = expected.into();
        }
    }
    fs::write(&path, tests.to_string()).unwrap();
    let app = open_app(dir.path());
    (dir, app)
}

#[test]
fn a_failing_test_says_where_its_findings_part_ways() {
    let (_dir, mut app) = park_expecting("T3", "SATISFIABLE");
    let mut runtime = start(&mut app);
    select_test(&mut app, "T3");
    let effects = press(&mut app, 'W');
    assert!(
        matches!(
            &effects[..],
            [Effect::ExplainTest {
                locate_parting: true,
                ..
            }]
        ),
        "a failing test asks where its findings part ways"
    );
    settle(&mut app, &mut runtime, effects);
    // The park model holds one rule per step: without the first step's
    // rule the claim could already fail, so that is where the findings part.
    assert_eq!(why(&app).parting, Some(Parting::AtStep(0)));
    let screen = screen_text(&app);
    assert!(
        screen.contains("expected SATISFIABLE, actual VALID: the test fails"),
        "{screen}"
    );
    assert!(
        screen.contains("The findings part ways at step 1:"),
        "{screen}"
    );
    assert!(screen.contains("◆ the findings part ways here"), "{screen}");
}

/// A step that other rules also support is not where the findings part:
/// the first step resting on its rule alone is.
#[test]
fn the_findings_part_at_the_first_step_without_other_support() {
    use precept::explain::job::{ExplainRequest, run};
    use precept::explain::relevance::Budget;
    use precept::tui::effects::explain_jobs::parting_step;
    let compiled = support::model(
        "(declare-const a Bool)(declare-const b Bool)(declare-const c Bool)(declare-const d Bool)
         (assert (! (=> a b) :named R1))
         (assert (! (=> a b) :named R2))
         (assert (! (=> b c) :named R3))
         (assert (! (=> c d) :named R4))",
    );
    let worker = support::worker(&compiled, std::time::Duration::from_secs(10));
    let premise = support::formula(&compiled, "a");
    let claim = support::formula(&compiled, "d");
    let explanation = run(
        &worker,
        ExplainRequest {
            premise: premise.clone(),
            claim: Some(claim.clone()),
            inputs: Vec::new(),
            budget: Budget::default(),
        },
    )
    .unwrap();
    let chain = explanation.chain.expect("a VALID finding has a chain");
    let steps: Vec<Vec<String>> = chain.steps.iter().map(|s| s.rules.clone()).collect();
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert!(steps[0] == ["R1"] || steps[0] == ["R2"], "{steps:?}");
    assert_eq!(steps[1], ["R3"]);
    let (send, receive) = std::sync::mpsc::channel();
    worker.submit_task(Box::new(move |session, interruption| {
        let step = parting_step(
            session.expect("a model is loaded"),
            interruption,
            &premise,
            &claim,
            FindingKind::Valid,
            &chain,
        );
        let _ = send.send(step);
    }));
    // Step 1 (R1 or R2) has the other as support; step 2 (R3) has none.
    assert_eq!(receive.recv().unwrap(), Some(1));
}

#[test]
fn a_satisfiable_finding_has_no_chain_but_the_inputs_that_would_decide_it() {
    let (_dir, mut app) = park_expecting("T1", "VALID");
    app.size = (120, 40);
    let mut runtime = start(&mut app);
    explain(&mut app, &mut runtime, "T1");
    let state = why(&app);
    assert_eq!(state.actual, Some(FindingKind::Satisfiable));
    let WhyContent::NoChain { reason, ask } = &state.content else {
        panic!("no chain expected: {:?}", state.content);
    };
    assert!(reason.starts_with("SATISFIABLE: the facts decide neither the claim"));
    assert!(
        ask.iter().any(|a| a.variables == ["creditUnits"]),
        "{ask:?}"
    );
    assert_eq!(
        state.parting,
        Some(Parting::Unlocated(
            "the actual finding is SATISFIABLE: with no chain, there is no step where it parts ways with the expected VALID".into()
        ))
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("SATISFIABLE: the facts decide neither the claim nor its negation"),
        "{screen}"
    );
    assert!(screen.contains("? What is the "), "{screen}");
}

#[test]
fn an_impossible_finding_names_the_contradicting_rules() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    explain(&mut app, &mut runtime, "T7");
    let state = why(&app);
    assert_eq!(state.actual, Some(FindingKind::Impossible));
    let WhyContent::NoChain { reason, .. } = &state.content else {
        panic!("no chain expected: {:?}", state.content);
    };
    assert!(
        reason.starts_with("IMPOSSIBLE: the premise contradicts the rules R"),
        "{reason}"
    );
}

#[test]
fn the_newest_why_request_wins_and_esc_cancels_a_running_one() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    select_test(&mut app, "T3");
    let first = press(&mut app, 'W');
    assert_eq!(code(&mut app, KeyCode::Esc), [Effect::CancelExplain]);
    assert!(app.overlay.is_none());
    select_test(&mut app, "T5");
    let second = press(&mut app, 'W');
    let mut effects = first;
    effects.extend(second);
    settle(&mut app, &mut runtime, effects);
    // Only T5's answer is shown: T3's request was cancelled or dropped.
    assert_eq!(why(&app).title(), "Why T5 is VALID");
    assert_eq!(
        why(&app).chain().unwrap().goal,
        "(= finalAdmissionFee 50.0)"
    );
}
