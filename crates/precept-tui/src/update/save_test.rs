//! Saving the verify screen's question as a test: ctrl-s asks for the
//! expected finding, then for a name (offered, and editable), and the status
//! line confirms what was saved, with its first result once it has run.

use super::runs::{non_empty, start_run};
use crate::state::app::{App, Overlay, TestState, VerifyMode};
use crate::state::msg::Effect;
use crate::state::name_prompt::{NamePrompt, NamePurpose};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::model::AnswerTest;
use precept_engine::solve::FindingKind;

/// The expected finding is chosen: ask for the test's name next.
pub fn ask_name(app: &mut App, expected: FindingKind) {
    let natural_language = app.verify.mode == VerifyMode::Answer;
    let offered = if natural_language {
        let answer = app.verify.qa.answer.lines().join(" ");
        answer.trim().chars().take(60).collect::<String>()
    } else {
        let claim = app.verify.claim.lines().join(" ");
        let said = match app.ws.compiled.check_formula(&claim) {
            Ok((written, _)) => app.ws.compiled.glossary.sentence(&written),
            Err(_) => claim,
        };
        short_name(&said)
    };
    app.overlay = Some(Overlay::Name(NamePrompt::new(
        NamePurpose::SaveTest {
            expected,
            natural_language,
        },
        "the test's name",
        &offered,
    )));
}

/// A test's offered name: the claim in words, cut after a few words (the
/// premise is in the test itself).
fn short_name(said: &str) -> String {
    const MOST: usize = 48;
    let said = said.trim().trim_end_matches('.');
    if said.chars().count() <= MOST {
        return said.to_string();
    }
    let mut name = String::new();
    for word in said.split_whitespace() {
        if name.chars().count() + word.chars().count() + 1 > MOST - 1 {
            break;
        }
        if !name.is_empty() {
            name.push(' ');
        }
        name.push_str(word);
    }
    name.push('…');
    name
}

/// Keys of the name prompt: enter saves, esc saves nothing.
pub fn name_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(Overlay::Name(prompt)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    let NamePurpose::SaveTest {
        expected,
        natural_language,
    } = prompt.purpose.clone()
    else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => {
            app.overlay = None;
            app.status.message = Some("not saved".into());
            Vec::new()
        }
        KeyCode::Enter => {
            let name = prompt.text();
            if name.is_empty() {
                prompt.error = Some("a test needs a name".into());
                return Vec::new();
            }
            app.overlay = None;
            if natural_language {
                save_answer_test(app, expected, name)
            } else {
                save_logic_test(app, expected, name)
            }
        }
        _ => {
            prompt.input.input(key);
            prompt.error = None;
            Vec::new()
        }
    }
}

fn save_logic_test(app: &mut App, expected: FindingKind, name: String) -> Vec<Effect> {
    let mut premise = non_empty(app.verify.premise.lines().join(" "), "true");
    let claim = app.verify.claim.lines().join(" ");
    // A test is read strictly (its premise states every fact): a finding
    // that rests on assumptions is saved with them in its premise.
    let assumed: Vec<String> = match (&app.verify.finding, &app.verify.asked) {
        (Some(finding), Some((asked_premise, asked_claim)))
            if *asked_premise == premise && *asked_claim == claim =>
        {
            finding
                .assumptions
                .iter()
                .map(|a| format!("(not {})", a.condition))
                .collect()
        }
        _ => Vec::new(),
    };
    if !assumed.is_empty() {
        premise = format!("(and {premise} {})", assumed.join(" "));
    }
    let before = app.snapshot();
    let id = app.ws.tests.fresh_id();
    app.ws.history.record(format!("add test {id}"), before);
    app.ws
        .tests
        .tests
        .push(precept_engine::model::LogicTest::new(
            id.clone(),
            name.clone(),
            premise,
            claim,
            expected,
        ));
    app.ws.run.results.insert(id.clone(), TestState::NotRun);
    let run = start_run(app, std::slice::from_ref(&id), false, true);
    let mut saved = format!("saved test {id} “{name}”, expecting {expected} (3 shows it)");
    if !assumed.is_empty() {
        saved.push_str(&format!(
            ", with its {} assumption(s) written into its premise (a test assumes nothing)",
            assumed.len()
        ));
    }
    app.status.message = Some(saved.clone());
    app.ws.run.run_note = Some(saved);
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone())), run]
}

fn save_answer_test(app: &mut App, expected: FindingKind, name: String) -> Vec<Effect> {
    let question = app.verify.qa.question.lines().join("\n").trim().to_string();
    let answer = app.verify.qa.answer.lines().join("\n").trim().to_string();
    let before = app.snapshot();
    let id = app.ws.tests.fresh_nl_id();
    app.ws
        .history
        .record(format!("add natural-language test {id}"), before);
    app.ws.tests.nl_tests.push(AnswerTest {
        id: id.clone(),
        name: name.clone(),
        question,
        answer,
        expected,
        note: String::new(),
        confidence_threshold: None,
    });
    app.status.message = Some(format!(
        "saved natural-language test {id} “{name}”, expecting {expected} (the Answers pane of 3 runs it; so does precept test)"
    ));
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone()))]
}
