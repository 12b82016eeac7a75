//! The verify screen's consultant mode: facts set one by one (an enum
//! chosen, a Bool toggled, a number typed), what they force recomputed in
//! the background after each change (the newest request wins), the open
//! inputs with the irrelevant ones greyed, the questions worth asking, a
//! forced value's chain, IMPOSSIBLE facts, and the facts saved as a test.

use super::*;
use precept::model::finding::Value;
use precept::tui::state::app::VerifyMode;
use precept::tui::state::consultant::{ConsultantFocus, Fact, ValueEntry};

/// Verify screen, a claim typed in logic mode (if any), then ctrl-o.
fn consult(app: &mut App, runtime: &mut Runtime, claim: &str) {
    press(app, '4');
    if !claim.is_empty() {
        code(app, KeyCode::Tab);
        type_text(app, claim);
    }
    let effects = ctrl(app, 'o');
    assert_eq!(app.verify.mode, VerifyMode::Consultant);
    assert_eq!(kinds(&effects), ["Consult"]);
    settle(app, runtime, effects);
}

fn select_input(app: &mut App, name: &str) {
    let consultant = &app.verify.consultant;
    if consultant.focus != ConsultantFocus::Inputs {
        code(app, KeyCode::Tab);
    }
    press(app, 'g');
    let index = app
        .verify
        .consultant
        .variables
        .iter()
        .position(|i| i == name)
        .unwrap_or_else(|| panic!("{name} cannot be set"));
    for _ in 0..index {
        press(app, 'j');
    }
    assert_eq!(app.verify.consultant.selected_input(), Some(name));
}

/// Sets a fact with keys as the expert would, and waits for the solver.
fn set(app: &mut App, runtime: &mut Runtime, name: &str, value: &str) {
    select_input(app, name);
    let mut effects = code(app, KeyCode::Enter);
    match &app.verify.consultant.entry {
        Some(ValueEntry::Choice { values, .. }) => {
            let position = values.iter().position(|v| v == value).unwrap();
            for _ in 0..position {
                assert!(press(app, 'j').is_empty());
            }
            effects = code(app, KeyCode::Enter);
        }
        Some(ValueEntry::Number { .. }) => {
            type_text(app, value);
            effects = code(app, KeyCode::Enter);
        }
        // A Bool toggles: true first, then false.
        None if value == "false" => {
            settle(app, runtime, effects);
            effects = code(app, KeyCode::Enter);
        }
        None => {}
    }
    assert_eq!(kinds(&effects), ["Consult"], "setting {name} asks again");
    settle(app, runtime, effects);
    assert_eq!(
        app.verify
            .consultant
            .fact_of(name)
            .map(|f| f.value.as_str()),
        Some(value)
    );
}

fn forced(app: &App, name: &str) -> Option<(Value, Vec<String>)> {
    app.verify
        .consultant
        .explanation
        .as_ref()?
        .propagation
        .forced
        .iter()
        .find(|f| f.variable == name)
        .map(|f| (f.value.clone(), f.rules.clone()))
}

/// Tab to the forced values, select `variable`'s and open its chain.
fn open_forced_chain(app: &mut App, runtime: &mut Runtime, variable: &str) {
    select_forced(app, variable);
    let effects = code(app, KeyCode::Enter);
    settle(app, runtime, effects);
}

/// Tab to the forced values and select `variable`'s.
fn select_forced(app: &mut App, variable: &str) {
    code(app, KeyCode::Tab);
    let index = app
        .verify
        .consultant
        .explanation
        .as_ref()
        .unwrap()
        .propagation
        .forced
        .iter()
        .position(|f| f.variable == variable)
        .unwrap();
    press(app, 'g');
    for _ in 0..index {
        press(app, 'j');
    }
}

#[test]
fn the_inputs_are_the_variables_no_rule_defines() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    assert_eq!(
        app.verify.consultant.inputs,
        [
            "ageClass",
            "isLowSeason",
            "creditUnits",
            "totalAdmissionFund"
        ]
    );
    // No facts: nothing is forced yet (the cone of no facts is empty).
    let explanation = app.verify.consultant.explanation.as_ref().unwrap();
    assert!(explanation.propagation.forced.is_empty());
    assert!(screen_text(&app).contains("nothing yet"));
    // ctrl-o again: back to logic.
    ctrl(&mut app, 'o');
    assert_eq!(app.verify.mode, VerifyMode::Logic);
}

#[test]
fn facts_force_values_live_and_removing_one_opens_them_again() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    assert_eq!(forced(&app, "discountRate"), None, "credits still open");
    set(&mut app, &mut runtime, "isLowSeason", "true");
    set(&mut app, &mut runtime, "creditUnits", "0");
    assert_eq!(
        app.verify.consultant.facts,
        [
            Fact {
                variable: "ageClass".into(),
                value: "SENIOR".into()
            },
            Fact {
                variable: "isLowSeason".into(),
                value: "true".into()
            },
            Fact {
                variable: "creditUnits".into(),
                value: "0".into()
            },
        ]
    );
    let rate = Value::Real(num_rational::BigRational::new(2.into(), 5.into()));
    assert_eq!(
        forced(&app, "discountRate"),
        Some((rate, vec!["R4".to_string()]))
    );
    let screen = screen_text(&app);
    assert!(screen.contains("✓ discountRate = 0.4  by R4"), "{screen}");
    assert!(screen.contains("✓ finalAdmissionFee = 32.5"), "{screen}");
    assert!(screen.contains("● ageClass = SENIOR"), "{screen}");
    // The open inputs: only the funds.
    assert!(screen.contains("Open inputs"), "{screen}");
    assert!(screen.contains("  totalAdmissionFund"), "{screen}");

    // Enter on a forced value: its chain.
    select_forced(&mut app, "discountRate");
    let effects = code(&mut app, KeyCode::Enter);
    assert_eq!(kinds(&effects), ["ChainForValue"]);
    settle(&mut app, &mut runtime, effects);
    let Some(Overlay::Why(why)) = &app.overlay else {
        panic!("the chain is not shown");
    };
    assert_eq!(why.title(), "Why discountRate is forced");
    let chain = why.chain().expect("a chain");
    assert_eq!(chain.goal, "(= discountRate 0.4)");
    let last = chain.steps.last().unwrap();
    assert_eq!(last.rules, ["R4"]);
    assert!(last.concludes);
    assert!(screen_text(&app).contains("Senior visitors receive a 40% discount"));
    code(&mut app, KeyCode::Esc);
    assert!(app.overlay.is_none());

    // d removes the credit units fact: the rate is open again.
    code(&mut app, KeyCode::Tab);
    select_input(&mut app, "creditUnits");
    let effects = press(&mut app, 'd');
    assert_eq!(kinds(&effects), ["Consult"]);
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.verify.consultant.facts.len(), 2);
    assert_eq!(forced(&app, "discountRate"), None);
    let open = &app
        .verify
        .consultant
        .explanation
        .as_ref()
        .unwrap()
        .propagation
        .open;
    assert!(open.contains(&"discountRate".to_string()), "{open:?}");
    assert!(!screen_text(&app).contains("✓ discountRate"));
}

/// The park sample with a parking permit no admission rule mentions.
fn park_with_parking() -> (tempfile::TempDir, App) {
    let dir = copy_sample("park-admission");
    let path = dir.path().join("model.json");
    let mut model: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    model["variables"].as_array_mut().unwrap().push(serde_json::json!(
        {"name": "hasParkingPermit", "type": "Bool", "description": "Whether the visitor holds a parking permit"}
    ));
    fs::write(&path, model.to_string()).unwrap();
    let app = open_app(dir.path());
    (dir, app)
}

#[test]
fn a_claim_greys_irrelevant_inputs_and_asks_the_next_question() {
    let (_dir, mut app) = park_with_parking();
    app.size = (120, 40);
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "(not isEntryAllowed)");
    assert_eq!(
        app.verify.consultant.claim.as_deref(),
        Some("(not isEntryAllowed)")
    );
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    set(&mut app, &mut runtime, "isLowSeason", "true");
    set(&mut app, &mut runtime, "totalAdmissionFund", "35.4");
    let explanation = app.verify.consultant.explanation.as_ref().unwrap();
    assert_eq!(
        explanation.finding.as_ref().unwrap().kind,
        FindingKind::Satisfiable
    );
    let relevance = explanation.relevance.as_ref().unwrap();
    assert_eq!(relevance.ask[0].variables, ["creditUnits"]);
    let question = relevance.ask[0].question.clone();
    assert!(question.starts_with("What is the "), "{question}");
    let screen = screen_text(&app);
    assert!(screen.contains("the claim is SATISFIABLE"), "{screen}");
    // … followed by its verdict in plain words.
    assert!(
        screen.contains("It depends: under these rules,"),
        "{screen}"
    );
    assert!(screen.contains("Ask next"), "{screen}");
    assert!(
        screen.contains(&format!("? {}", &question[..30])),
        "{screen}"
    );
    // The parking permit cannot change the claim: greyed out as irrelevant.
    assert_eq!(relevance.irrelevant, ["hasParkingPermit"]);
    assert!(
        screen.contains("creditUnits  hasParkingPermit (irrelevant)"),
        "{screen}"
    );
    let (width, height) = app.size;
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| precept::tui::view::render(&app, frame))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let row = screen
        .lines()
        .position(|l| l.contains("hasParkingPermit (irrelevant)"))
        .unwrap();
    let line = screen.lines().nth(row).unwrap();
    let column = line[..line.find("hasParkingPermit (irrelevant)").unwrap()]
        .chars()
        .count();
    assert_eq!(
        buffer[(column as u16, row as u16)].fg,
        app.theme.dim().fg.unwrap(),
        "the irrelevant input is greyed"
    );
}

#[test]
fn a_contradicting_fact_shows_impossible_and_can_be_removed() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    set(&mut app, &mut runtime, "isLowSeason", "true");
    set(&mut app, &mut runtime, "creditUnits", "4");
    let explanation = app.verify.consultant.explanation.as_ref().unwrap();
    let rules = explanation
        .propagation
        .contradiction
        .clone()
        .expect("IMPOSSIBLE");
    assert_eq!(
        rules,
        ["R1", "R2", "R5", "R8", "R9", "R11", "R12", "R13"],
        "the credits exceed half the fee"
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("IMPOSSIBLE: the facts contradict the rules R1, R2, R5,"),
        "{screen}"
    );
    select_input(&mut app, "creditUnits");
    let effects = press(&mut app, 'd');
    settle(&mut app, &mut runtime, effects);
    let explanation = app.verify.consultant.explanation.as_ref().unwrap();
    assert_eq!(explanation.propagation.contradiction, None);
    assert!(!screen_text(&app).contains("IMPOSSIBLE"));
}

#[test]
fn a_number_that_does_not_check_is_refused_in_place() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    select_input(&mut app, "creditUnits");
    code(&mut app, KeyCode::Enter);
    type_text(&mut app, "lots");
    assert!(code(&mut app, KeyCode::Enter).is_empty());
    let Some(ValueEntry::Number { error, .. }) = &app.verify.consultant.entry else {
        panic!("the number entry closed");
    };
    assert!(
        error
            .as_deref()
            .unwrap()
            .starts_with("not a value of creditUnits")
    );
    code(&mut app, KeyCode::Esc);
    assert!(app.verify.consultant.entry.is_none());
    assert!(app.verify.consultant.facts.is_empty());
}

#[test]
fn only_the_newest_answer_is_shown_and_working_appears_after_200_ms() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    select_input(&mut app, "isLowSeason");
    let first = code(&mut app, KeyCode::Enter);
    assert!(app.verify.consultant.running);
    assert!(!screen_text(&app).contains("working…"));
    update(&mut app, Msg::Tick);
    update(&mut app, Msg::Tick);
    assert!(screen_text(&app).contains("working…"));
    // The answer to the first request (low season), held back.
    let mut held = Vec::new();
    for effect in first {
        held.extend(runtime.execute(effect));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while !held.iter().any(|m| matches!(m, Msg::Consulted { .. })) {
        assert!(Instant::now() < deadline, "no answer to the first request");
        std::thread::sleep(Duration::from_millis(20));
        held.extend(runtime.poll());
    }
    // A newer request (high season) is answered first…
    let second = code(&mut app, KeyCode::Enter);
    assert_eq!(app.verify.consultant.facts[0].value, "false");
    settle(&mut app, &mut runtime, second);
    assert!(!app.verify.consultant.running);
    // …and the older answer arriving late changes nothing.
    for message in held {
        update(&mut app, message);
    }
    // The high season's fee: the first answer (low season) was dropped.
    assert_eq!(
        forced(&app, "seasonalFee").map(|(v, _)| v),
        Some(Value::Real(num_rational::BigRational::from_integer(
            50.into()
        ))),
        "{:?}",
        app.verify.consultant.explanation.as_ref().map(|e| (
            &e.stopped,
            e.propagation.forced.len(),
            &e.propagation.open
        ))
    );
}

/// Two requests in flight at once: the older one, still running or queued
/// when the newer arrives, is dropped, and the newer one's answer is right.
#[test]
fn a_request_overtaken_while_running_leaves_the_newer_answer_right() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    select_input(&mut app, "isLowSeason");
    let mut effects = code(&mut app, KeyCode::Enter);
    effects.extend(code(&mut app, KeyCode::Enter));
    settle(&mut app, &mut runtime, effects);
    assert!(!app.verify.consultant.running);
    assert_eq!(
        forced(&app, "seasonalFee").map(|(v, _)| v),
        Some(Value::Real(num_rational::BigRational::from_integer(
            50.into()
        )))
    );
}

#[test]
fn the_facts_are_saved_as_a_test_premise() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "(not isEntryAllowed)");
    assert!(ctrl(&mut app, 's').is_empty());
    assert_eq!(
        app.status.message.as_deref(),
        Some("set a fact first (enter on an input)")
    );
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    set(&mut app, &mut runtime, "isLowSeason", "true");
    set(&mut app, &mut runtime, "creditUnits", "0");
    set(&mut app, &mut runtime, "totalAdmissionFund", "35.4");
    ctrl(&mut app, 's');
    assert!(matches!(app.overlay, Some(Overlay::ExpectPrompt)));
    press(&mut app, 'v');
    let effects = code(&mut app, KeyCode::Enter);
    assert_eq!(kinds(&effects), ["SaveTests", "RunTests"]);
    settle(&mut app, &mut runtime, effects);
    let saved = app.ws.tests.tests.last().unwrap();
    assert_eq!(
        saved.premise,
        "(and (= ageClass SENIOR) isLowSeason (= creditUnits 0) (= totalAdmissionFund 35.4))"
    );
    assert_eq!(saved.claim, "(not isEntryAllowed)");
    assert_eq!(saved.expected, FindingKind::Valid);
    let on_disk = fs::read_to_string(dir.path().join("tests.json")).unwrap();
    assert!(on_disk.contains("(= totalAdmissionFund 35.4))"));
    assert_eq!(app.test_state(&saved.id.clone()).passed(), Some(true));
}

#[test]
fn a_value_forced_by_a_case_split_shows_one_labelled_step_of_several_rules() {
    let (_dir, mut app) = park();
    app.size = (120, 40);
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    // Whatever the credits, a senior gets a discount, so the processing fee
    // is forced, but only by the two discount rules together.
    let (fee, rules) = forced(&app, "processingFee").expect("the fee is forced");
    assert_eq!(
        fee,
        Value::Real(num_rational::BigRational::from_integer(10.into()))
    );
    assert!(rules.len() > 1, "{rules:?}");
    open_forced_chain(&mut app, &mut runtime, "processingFee");
    let Some(Overlay::Why(why)) = &app.overlay else {
        panic!("the chain is not shown");
    };
    let chain = why.chain().expect("a chain");
    let split = chain
        .steps
        .iter()
        .position(|s| s.several_rules())
        .expect("a step of several rules");
    let heading = format!(
        "Step {} · rules {} together: a case split (no single rule suffices)",
        split + 1,
        chain.steps[split].rules.join(", ")
    );
    press(&mut app, 'G');
    let screen = screen_text(&app);
    assert!(screen.contains(&heading), "{heading}\n{screen}");
}

#[test]
fn an_edit_of_the_model_asks_again_with_the_same_facts() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    set(&mut app, &mut runtime, "creditUnits", "0");
    let rate =
        |numerator: i32| Value::Real(num_rational::BigRational::new(numerator.into(), 10.into()));
    assert_eq!(forced(&app, "discountRate").map(|(v, _)| v), Some(rate(4)));
    edit_rule(
        &mut app,
        "R4",
        "(=> (and (= ageClass SENIOR) (= creditUnits 0)) (= discountRate 0.5))",
    );
    let effects = ctrl(&mut app, 's');
    assert!(
        kinds(&effects).contains(&"Consult"),
        "{:?}",
        kinds(&effects)
    );
    settle(&mut app, &mut runtime, effects);
    assert_eq!(app.verify.consultant.facts.len(), 2);
    assert_eq!(forced(&app, "discountRate").map(|(v, _)| v), Some(rate(5)));
}

#[test]
fn a_forced_values_chain_is_written_as_markdown_under_its_variable() {
    let (dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    set(&mut app, &mut runtime, "ageClass", "SENIOR");
    set(&mut app, &mut runtime, "creditUnits", "0");
    open_forced_chain(&mut app, &mut runtime, "discountRate");
    let Some(Overlay::Why(why)) = &app.overlay else {
        panic!("the chain is not shown");
    };
    let expected = precept::explain::markdown::chain_markdown(why.chain().unwrap());
    let effects = press(&mut app, 'M');
    settle(&mut app, &mut runtime, effects);
    let written = fs::read_to_string(dir.path().join("explain/forced-discountRate.md")).unwrap();
    assert_eq!(written, expected);
    assert!(written.starts_with("**Derivation of** `(= discountRate 0.4)`\n\n"));
    assert!(written.contains("1. By rule R4:\n"), "{written}");
}

/// On a draft the expert may know what a rule would decide: any variable
/// can be set; a fact on one a rule defines is an assumption, marked so.
#[test]
fn a_variable_a_rule_defines_can_be_set_as_an_assumption() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "isEntryAllowed");
    let consultant = &app.verify.consultant;
    assert!(consultant.is_derived("discountRate"));
    assert!(consultant.variables.contains(&"discountRate".to_string()));
    assert!(consultant.variables.len() > consultant.inputs.len());
    set(&mut app, &mut runtime, "discountRate", "0.5");
    assert!(app.verify.consultant.fact_of("discountRate").is_some());
    let screen = support::keys::screen_text(&app);
    assert!(screen.contains("◆ discountRate = 0.5"), "{screen}");
    // "Ask next" is never blank without a reason.
    let after = screen.split("Ask next").nth(1).unwrap_or_default();
    assert!(
        after.contains("? ") || after.contains("nothing:"),
        "{screen}"
    );
}

/// Esc leaves the consultant, and the next key is a command: nothing leaks
/// into the premise.
#[test]
fn esc_leaves_the_consultant_without_typing_the_next_key() {
    let (_dir, mut app) = park();
    let mut runtime = start(&mut app);
    consult(&mut app, &mut runtime, "");
    code(&mut app, KeyCode::Esc);
    assert_eq!(app.verify.mode, VerifyMode::Logic);
    press(&mut app, 'j');
    assert_eq!(app.verify.premise.lines().join(""), "");
    assert_eq!(app.verify.claim.lines().join(""), "");
}
