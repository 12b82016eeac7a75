//! `precept serve` with two workers lends the idle one to a question, one
//! side of it on each worker, over real HTTP on 127.0.0.1: the answers are
//! those one worker gives, and `/metrics` counts the questions split.
//! (That a lent worker is taken back when another request waits for one is
//! `serve.rs`'s deadline test.)

use crate::support;

use precept::model::Project;
use serde_json::{Value, json};
use support::copy_sample;
use support::service::Served;

const SAMPLES: [&str; 2] = ["park-admission", "benefit-eligibility"];

/// What must agree between the two servers' answers: the finding, its
/// warnings, whether its rules are proved minimal, whether the policy is
/// inconsistent, which scenarios there are, and whether rules are given.
/// (Where several minimal rule sets prove a finding, the two may show
/// different ones: `split_verify.rs` checks each proves it.)
fn essentials(answer: &Value) -> Value {
    let given = |field: &str| !answer[field].is_null();
    let rules = |field: &str| answer[field].as_array().is_some_and(|a| !a.is_empty());
    json!({
        "finding": answer["finding"],
        "warnings": answer["warnings"],
        "rules_minimal": answer["rules_minimal"],
        "policy_inconsistent": answer["policy_inconsistent"],
        "claims_true_scenario": given("claims_true_scenario"),
        "claims_false_scenario": given("claims_false_scenario"),
        "supporting_rules": rules("supporting_rules"),
        "contradicting_rules": rules("contradicting_rules"),
    })
}

/// The `precept_verify_split_total` count for `lent_worker`.
fn split_count(served: &Served, lent_worker: &str) -> u64 {
    let metrics = served.get("/metrics").text;
    let line = format!("precept_verify_split_total{{lent_worker=\"{lent_worker}\"}} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&line))
        .unwrap_or_else(|| panic!("no {line:?} in {metrics}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn questions_split_over_two_workers_get_the_answers_one_worker_gives() {
    for name in SAMPLES {
        let project = copy_sample(name);
        let tests = Project::load(project.path()).unwrap().tests.tests;
        let one = Served::ready(project.path(), &["--workers", "1"]);
        let two = Served::ready(project.path(), &["--workers", "2"]);
        let mut findings = std::collections::BTreeSet::new();
        for test in &tests {
            let question = json!({"premise": test.premise, "claim": test.claim});
            let alone = one.post("/v1/verify", &question);
            let split = two.post("/v1/verify", &question);
            assert_eq!(alone.status, 200, "{}", alone.text);
            assert_eq!(split.status, 200, "{}", split.text);
            let (alone, split) = (alone.json(), split.json());
            assert_eq!(
                essentials(&split),
                essentials(&alone),
                "{name} {}: {split:#}",
                test.id
            );
            assert_eq!(split["finding"], test.expected.name(), "{name} {}", test.id);
            findings.insert(split["finding"].to_string());
        }
        assert!(findings.len() >= 2, "{name}: only {findings:?}");
        // Asked one at a time, every question had the idle worker lent.
        assert_eq!(split_count(&two, "kept"), tests.len() as u64, "{name}");
        assert_eq!(split_count(&two, "recalled"), 0, "{name}");
        assert_eq!(split_count(&one, "kept"), 0, "{name}");
    }
}
