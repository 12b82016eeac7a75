//! `precept eval` on a small labelled file against scripted translations
//! (a real HTTP server on 127.0.0.1): every Table 1 column, a planted wrong
//! VALID listed first, a rerun answered from the translation cache, and the
//! errors for empty, malformed and unlabelled lines.

use crate::support;

use serde_json::{Value as Json, json};
use std::path::Path;
use std::process::Output;
use support::llm_server::{Server, openai_json};
use support::{copy_sample, stderr, stdout};

/// The answer texts of the labelled file, each with the translation the
/// scripted LLM gives it and the finding that translation has on the park
/// model.
const CHILD_HALF: &str = "Yes, children get a 50% discount.";
const CHILD_FULL: &str = "No, a child pays the full price.";
const ADULT_HALF: &str = "Adults get half off too.";
const SENIOR_FUND: &str = "No, $35.40 is not enough for a senior.";

fn translation_for(prompt: &str) -> Json {
    let pair = |premise: &str, claim: &str| json!({"pairs": [{"premise": premise, "claim": claim, "source": "the answer"}], "untranslated": []});
    if prompt.contains(CHILD_HALF) {
        pair("(= ageClass CHILD)", "(= discountRate 0.5)")
    } else if prompt.contains(CHILD_FULL) {
        // The planted mistake: the translation drops the "No" and proves
        // the discount, so an answer labelled invalid comes out VALID.
        pair("(= ageClass CHILD)", "(= discountRate 0.5)")
    } else if prompt.contains(ADULT_HALF) {
        pair("(= ageClass ADULT)", "(= discountRate 0.5)")
    } else if prompt.contains(SENIOR_FUND) {
        pair(
            "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))",
            "(not isEntryAllowed)",
        )
    } else {
        panic!("an unscripted answer: {prompt}")
    }
}

fn labelled_file(dir: &Path) -> std::path::PathBuf {
    let lines = [
        json!({"id": "child-half", "question": "Do children get a discount?", "answer": CHILD_HALF, "label": "valid"}),
        json!({"id": "child-full", "question": "Does a child pay the full price?", "answer": CHILD_FULL, "label": "invalid"}),
        json!({"id": "adult-half", "question": "Do adults get a discount?", "answer": ADULT_HALF, "label": "invalid"}),
        json!({"id": "senior-fund", "question": "Can I visit with $35.40?", "answer": SENIOR_FUND, "label": "valid"}),
        json!({"id": "child-scenario", "scenario": "I am bringing my daughter, who is 8.", "question": "What discount does she get?", "answer": CHILD_HALF, "label": "valid"}),
    ];
    let text: Vec<String> = lines.iter().map(Json::to_string).collect();
    let path = dir.join("qa.jsonl");
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    path
}

fn eval(server: &Server, config: &Path, project: &Path, qa: &Path, extra: &[&str]) -> Output {
    support::precept_with_llm(&server.url, config)
        .arg("eval")
        .arg(project)
        .arg("--qa")
        .arg(qa)
        .args(extra)
        .output()
        .expect("run precept")
}

fn close(actual: &Json, expected: f64) -> bool {
    actual.as_f64().is_some_and(|a| (a - expected).abs() < 1e-9)
}

#[test]
fn every_column_is_computed_and_the_wrong_valid_comes_first() {
    let project = copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let qa = labelled_file(scratch.path());
    let server = Server::start();
    server.respond_with(|request| openai_json(&translation_for(&request.user_prompt())));

    let out = eval(&server, config.path(), project.path(), &qa, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Json = serde_json::from_str(&stdout(&out)).expect("JSON");
    let m = &json["metrics"];
    // TP: child-half, child-scenario; FP: child-full; TN: adult-half;
    // FN: senior-fund (SATISFIABLE).
    assert_eq!(
        (
            &m["true_positives"],
            &m["false_positives"],
            &m["true_negatives"],
            &m["false_negatives"]
        ),
        (&json!(2), &json!(1), &json!(1), &json!(1)),
        "{m}"
    );
    assert_eq!(m["lines"], 5);
    assert!(close(&m["soundness"], 1.0 - 1.0 / 5.0), "{m}");
    assert!(close(&m["false_positive_rate"], 0.5), "{m}");
    assert!(close(&m["precision"], 2.0 / 3.0), "{m}");
    assert!(close(&m["recall"], 2.0 / 3.0), "{m}");
    assert!(close(&m["f1"], 2.0 / 3.0), "{m}");
    assert!(close(&m["accuracy"], 3.0 / 5.0), "{m}");
    assert_eq!(
        m["findings"],
        json!({"VALID": 3, "INVALID": 1, "SATISFIABLE": 1})
    );
    assert_eq!(m["translations_differ"], 0);
    assert_eq!(json["failures"], json!(["child-full", "senior-fund"]));
    let results = json["results"].as_array().unwrap();
    assert_eq!(results[4]["id"], "child-scenario");
    // The scenario was put before the question.
    let asked = server.requests().iter().any(|r| {
        r.user_prompt()
            .contains("I am bringing my daughter, who is 8. What discount")
    });
    assert!(asked, "the scenario is part of the question");
    let first_run = server.requests().len();
    assert_eq!(first_run, 3 * 5, "k = 3 translations of each line");

    // The text report: the table, then the wrong VALID first with its
    // translation, rules and scenario. The rerun comes from the cache.
    let out = eval(&server, config.path(), project.path(), &qa, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "soundness 80.0%  FPR 50.0%  precision 66.7%  recall 66.7%  F1 66.7%  accuracy 60.0%"
        ),
        "{text}"
    );
    assert!(text.contains("TP 2  FP 1  TN 1  FN 1"), "{text}");
    let wrong = text
        .find("wrong verdicts, worst first")
        .expect("the failures");
    let tail = &text[wrong..];
    let first = tail.lines().nth(1).unwrap();
    assert_eq!(first, "child-full  labelled invalid, got VALID", "{text}");
    assert!(tail.contains("claim:   (= discountRate 0.5)"), "{text}");
    assert!(tail.contains("rules:   R6"), "{text}");
    assert!(tail.contains("scenario: "), "{text}");
    assert_eq!(
        server.requests().len(),
        first_run,
        "a second run resumes from the translation cache"
    );
}

#[test]
fn empty_malformed_and_unlabelled_lines_are_named() {
    let project = copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let server = Server::start();
    server.respond_with(|request| openai_json(&translation_for(&request.user_prompt())));
    let good = json!({"id": "a", "question": "Do children get a discount?", "answer": CHILD_HALF, "label": "valid"}).to_string();
    for (name, text, expected) in [
        (
            "empty.jsonl",
            String::new(),
            "empty.jsonl:1:1: expected one JSON object per line",
        ),
        (
            "malformed.jsonl",
            format!("{good}\n{{\"id\": \"b\", \"answer\": \n"),
            "malformed.jsonl:2:",
        ),
        (
            "unlabelled.jsonl",
            format!("{good}\n{}\n", json!({"id": "b", "answer": "Yes."})),
            "unlabelled.jsonl:2:1: line \"b\": expected a \"label\"",
        ),
        (
            "blank.jsonl",
            format!("{good}\n\n{good}\n"),
            "blank.jsonl:2:1: expected a JSON object",
        ),
    ] {
        let path = scratch.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = eval(&server, config.path(), project.path(), &path, &[]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stdout(&out));
        assert!(stderr(&out).contains(expected), "{name}: {}", stderr(&out));
    }
    assert!(
        server.requests().is_empty(),
        "nothing is asked for a bad file"
    );
}
