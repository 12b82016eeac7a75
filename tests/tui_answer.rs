//! The verify screen's question-and-answer mode with the real runtime: the
//! answer goes to the scripted LLM server over HTTP (k = 3 translations),
//! the translations arrive as messages, the solver decides the park example
//! of ARC §3 (SATISFIABLE), and the check is saved as a natural-language
//! test. One test in this binary: it sets the LLM environment variables.

mod support;

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyModifiers};
use precept::model::TestSuite;
use precept::model::project::read_json;
use precept::solve::FindingKind;
use precept::tui::effects::runtime::Runtime;
use precept::tui::state::app::{Overlay, Pane, VerifyMode};
use precept::tui::state::msg::Effect;
use precept::tui::update::update;
use serde_json::json;
use support::keys::{key, open_app, screen_text, type_text};
use support::llm_server::{Server, openai_json};

const PARK_PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const PARK_CLAIM: &str = "(not isEntryAllowed)";

#[test]
fn a_question_and_answer_is_checked_in_the_workbench_and_saved_as_a_test() {
    let server = Server::start();
    server.respond_with(|_| {
        openai_json(&json!({
            "pairs": [{"premise": PARK_PREMISE, "claim": PARK_CLAIM,
                       "source": "you cannot visit the park"}],
            "untranslated": []
        }))
    });
    let config = tempfile::tempdir().unwrap();
    // SAFETY: this test binary has a single test, so nothing else reads the
    // environment concurrently.
    unsafe {
        std::env::set_var("PRECEPT_CONFIG_DIR", config.path());
        std::env::set_var("PRECEPT_LLM_BASE_URL", &server.url);
        std::env::set_var("PRECEPT_LLM_MODEL", "scripted");
        std::env::set_var("PRECEPT_LLM_PROTOCOL", "openai");
        std::env::set_var("PRECEPT_LLM_API_KEY_ENV", "");
        std::env::set_var("NO_PROXY", "127.0.0.1");
        std::env::remove_var("OPENAI_API_KEY");
        std::env::remove_var("ANTHROPIC_API_KEY");
    }

    let dir = support::copy_sample("park-admission");
    let mut app = open_app(dir.path());
    let mut runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(10));

    key(&mut app, KeyCode::Char('4'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert_eq!(app.verify.mode, VerifyMode::Answer);
    // The question field has the keyboard first; tab goes to the answer.
    type_text(
        &mut app,
        "I am a senior with $35.40. Can I visit in the low season?",
    );
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    type_text(&mut app, "No, you cannot visit the park.");
    let mut effects = key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(
        matches!(effects.first(), Some(Effect::CheckAnswer { question, answer, .. })
            if question.starts_with("I am a senior") && answer == "No, you cannot visit the park."),
        "{effects:?}"
    );

    // Run the effects and feed the messages back until the report is in,
    // watching the translations arrive one by one.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen_arrivals = Vec::new();
    while app.verify.qa.running || !effects.is_empty() {
        assert!(Instant::now() < deadline, "the check did not finish");
        let mut messages = Vec::new();
        for effect in effects.drain(..) {
            messages.extend(runtime.execute(effect));
        }
        messages.extend(runtime.poll());
        for message in messages {
            effects.extend(update(&mut app, message));
            seen_arrivals.push(app.verify.qa.translations.len());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        seen_arrivals.contains(&1) && seen_arrivals.contains(&3),
        "{seen_arrivals:?}"
    );
    assert_eq!(server.requests().len(), 3, "k = 3 translations");
    let qa = &app.verify.qa;
    assert!(qa.error.is_none(), "{:?}", qa.error);
    let report = qa.report.as_ref().expect("a report");
    assert_eq!(report.finding, FindingKind::Satisfiable);
    assert_eq!(report.pairs.len(), 1);
    assert!((report.pairs[0].confidence - 1.0).abs() < 1e-9);
    // The counter-example uses credits: the senior can enter with them.
    let evidence = &report.pairs[0].evidence;
    let counter = evidence
        .claims_false_scenario
        .as_ref()
        .expect("a counter-example");
    let credits = counter
        .get("creditUnits")
        .map(|v| v.to_string())
        .unwrap_or_default();
    assert_ne!(credits, "0", "the counter-example uses credits");
    // The aggregate finding is followed by its verdict in plain words.
    app.size = (120, 40);
    let screen = screen_text(&app);
    let verdict = report.verdict(&app.ws.compiled.glossary);
    assert!(
        verdict.starts_with(
            "It depends: under these rules, in this situation it can be true or false that "
        ),
        "{verdict}"
    );
    let first_words: String = verdict.chars().take(60).collect();
    let finding_row = screen
        .lines()
        .position(|l| l.contains("SATISFIABLE  1 pair(s)"))
        .unwrap_or_else(|| panic!("no aggregate finding on screen:\n{screen}"));
    assert!(
        screen
            .lines()
            .nth(finding_row + 1)
            .unwrap()
            .contains(&first_words),
        "the verdict follows the finding:\n{screen}"
    );

    // Save it as a natural-language test expecting SATISFIABLE.
    key(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(matches!(app.overlay, Some(Overlay::ExpectPrompt)));
    key(&mut app, KeyCode::Char('s'), KeyModifiers::NONE);
    assert!(
        matches!(app.overlay, Some(Overlay::Name(_))),
        "asks for a name"
    );
    let effects = key(&mut app, KeyCode::Enter, KeyModifiers::NONE);
    assert!(
        app.status
            .message
            .as_deref()
            .is_some_and(|m| m
                .starts_with("saved natural-language test NL1 “No, you cannot visit the park.”")),
        "{:?}",
        app.status.message
    );
    for effect in effects {
        runtime.execute(effect);
    }
    let suite: TestSuite = read_json(&dir.path().join("tests.json")).unwrap();
    let saved = suite.nl_tests.last().expect("a natural-language test");
    assert_eq!(saved.expected, FindingKind::Satisfiable);
    assert_eq!(saved.answer, "No, you cannot visit the park.");
    assert!(saved.question.starts_with("I am a senior"));
    assert_eq!(suite.tests.len(), 18, "the logic tests are untouched");

    // The tests screen runs it through the verifier; its translations come
    // from the cache, so no new request reaches the server.
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    key(&mut app, KeyCode::Char('3'), KeyModifiers::NONE);
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    key(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Pane::AnswerTests);
    let mut effects = key(&mut app, KeyCode::Char('r'), KeyModifiers::NONE);
    assert!(matches!(
        effects.first(),
        Some(Effect::RunAnswerTests { .. })
    ));
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.answer_tests.running || !effects.is_empty() {
        assert!(Instant::now() < deadline, "the answer tests did not finish");
        let mut messages = Vec::new();
        for effect in effects.drain(..) {
            messages.extend(runtime.execute(effect));
        }
        messages.extend(runtime.poll());
        for message in messages {
            effects.extend(update(&mut app, message));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let outcome = app
        .answer_tests
        .outcomes
        .get(&saved.id)
        .expect("an outcome");
    assert!(outcome.passed, "{outcome:?}");
    assert_eq!(
        server.requests().len(),
        3,
        "translations came from the cache"
    );
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap()
            .contains("natural-language tests: 1 passed, 0 failed")
    );
}
