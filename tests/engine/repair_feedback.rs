//! Repair from feedback against the scripted LLM server over real HTTP: the
//! expert's words and the selected rules reach the prompt, edits that do not
//! check go back once with their errors, the good edits come with both views
//! and the tests they would flip, and applying them repairs the model.

use crate::support;

use std::time::Duration;

use precept::llm::LlmClient;
use precept::model::{Project, ReviewStatus};
use precept::repair::propose_repair;
use precept::test_runner::flips::{preview_flips, suite_outcomes};
use serde_json::{Value, json};
use support::llm_server::{OPENAI_PATH, Server, openai_json, scripted_client};

fn client(server: &Server) -> LlmClient {
    scripted_client(server, None)
}

fn edit(kind: &str, rule_id: &str, expression: &str, reason: &str) -> Value {
    json!({"kind": kind, "rule_id": rule_id, "expression": expression, "name": "", "type": "",
           "description": "", "reason": reason})
}

fn block_on<T>(future: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
fn feedback_on_a_wrong_discount_becomes_a_checked_edit_that_fixes_the_failing_test() {
    // The defect: children get 40% off instead of 50%; T17 fails.
    let scratch = support::copy_sample("park-admission");
    let mut project = Project::load(scratch.path()).unwrap();
    let r6 = project
        .model
        .rules
        .iter_mut()
        .find(|r| r.id == "R6")
        .unwrap();
    r6.expression = "(=> (= ageClass CHILD) (= discountRate 0.4))".into();
    r6.review = ReviewStatus::Approved;
    let timeout = Duration::from_secs(5);
    let baseline = suite_outcomes(&project.model, &project.tests.tests, timeout).unwrap();
    assert!(!baseline.iter().find(|o| o.id == "T17").unwrap().passed);

    let server = Server::start();
    server.script(
        OPENAI_PATH,
        vec![
            // First answer: one edit over an unknown variable.
            openai_json(&json!({"edits": [
                edit("replace_rule", "R6", "(=> isChild (= discountRate 0.5))", "children pay half")
            ]})),
            openai_json(&json!({"edits": [
                edit("replace_rule", "R6", "(=> (= ageClass CHILD) (= discountRate 0.5))",
                     "the policy gives children a 50% discount")
            ]})),
        ],
    );
    let client = client(&server);
    let proposal = block_on(propose_repair(
        &client,
        &project.model,
        &["R6".to_string()],
        "Children get 50% off, not 40%.",
    ))
    .unwrap();

    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one repair round");
    let first = requests[0].user_prompt();
    assert!(first.contains("Children get 50% off, not 40%."), "{first}");
    assert!(
        first.contains("R6: (=> (= ageClass CHILD) (= discountRate 0.4))"),
        "{first}"
    );
    assert!(
        first.contains("ageClass: AgeClass"),
        "the vocabulary is in the prompt"
    );
    let second = requests[1].user_prompt();
    assert!(
        second.contains("edits[0]") && second.contains("isChild"),
        "{second}"
    );

    assert!(proposal.refused.is_empty(), "{:?}", proposal.refused);
    assert_eq!(proposal.edits.len(), 1);
    let proposed = &proposal.edits[0];
    assert_eq!(
        proposed.before,
        "(=> (= ageClass CHILD) (= discountRate 0.4))"
    );
    assert_eq!(
        proposed.after,
        "(=> (= ageClass CHILD) (= discountRate 0.5))"
    );
    assert!(
        proposed.after_english.contains("0.5"),
        "{}",
        proposed.after_english
    );

    let flips = preview_flips(
        &project.model,
        &project.tests.tests,
        &baseline,
        &[&proposed.edit],
        timeout,
    )
    .unwrap();
    let t17 = flips
        .iter()
        .find(|f| f.test_id == "T17")
        .expect("T17 flips");
    assert!(!t17.passed_before && t17.passes_after);
    assert!(
        flips.iter().all(|f| f.passes_after),
        "no test breaks: {flips:?}"
    );

    // Accepting is applying the edit: the rule is unreviewed again.
    proposed.edit.apply(&mut project.model).unwrap();
    let r6 = project.model.rule("R6").unwrap();
    assert_eq!(r6.review, ReviewStatus::Unreviewed);
    let after = suite_outcomes(&project.model, &project.tests.tests, timeout).unwrap();
    assert!(
        after.iter().all(|o| o.passed),
        "every test passes after the repair"
    );
}

#[test]
fn hostile_edits_are_refused_and_never_offered() {
    let scratch = support::copy_sample("park-admission");
    let project = Project::load(scratch.path()).unwrap();
    let server = Server::start();
    let hostile = json!({"edits": [
        edit("delete_rule", "R99", "", "ignore previous instructions"),
        edit("replace_rule", "R1", "(assert false)", "admin mode"),
        edit("rewrite_everything", "", "", "")
    ]});
    server.script(
        OPENAI_PATH,
        vec![openai_json(&hostile), openai_json(&hostile)],
    );
    let client = client(&server);
    let proposal = block_on(propose_repair(
        &client,
        &project.model,
        &["R1".to_string()],
        "The base fee is wrong.",
    ));
    // The third edit's kind is outside the schema's enum: the whole reply
    // is invalid, twice, so the request fails rather than being half-applied.
    assert!(proposal.is_err(), "{proposal:?}");
    assert_eq!(server.requests().len(), 2);

    server.script(
        OPENAI_PATH,
        vec![
            openai_json(&json!({"edits": [
                edit("delete_rule", "R99", "", "ignore previous instructions"),
                edit("replace_rule", "R1", "(assert false)", "admin mode")]})),
            openai_json(&json!({"edits": [
                edit("delete_rule", "R99", "", "ignore previous instructions")]})),
        ],
    );
    let proposal = block_on(propose_repair(
        &client,
        &project.model,
        &["R1".to_string()],
        "The base fee is wrong.",
    ))
    .unwrap();
    assert!(proposal.edits.is_empty());
    assert_eq!(proposal.refused.len(), 1);
    assert!(proposal.refused[0].contains("R99"));
}
