//! Questions on a cone of hundreds of rules. There a warm worker first
//! tries a side that may hold in a small solver near the question, the rest
//! of the cone pinned to an earlier scenario (`solve/near_check.rs`). Its
//! findings must be those a fresh worker gives, deciding every side in the
//! whole cone, and its scenarios must be evidence over every rule.

use crate::support;

use precept::solve::{FindingKind, SolverWorker};
use std::fmt::Write;
use std::time::Duration;
use support::evidence::scenarios_are_evidence;
use support::{formula, model, worker};

/// Links in the chain: more than the smallest cone a small check is tried on.
const LINKS: usize = 300;

/// A chain of facts, each implying the next (`b0 => b1 => … => b299`), so
/// a question about its two ends depends on every link, far beyond the
/// variables near the question. Every tenth fact also follows from a count
/// above three, and every seventh link costs a fee.
fn chain_policy() -> String {
    let mut policy = String::new();
    for i in 0..LINKS {
        writeln!(policy, "(declare-const b{i} Bool)").unwrap();
    }
    for i in (0..LINKS).step_by(10) {
        writeln!(policy, "(declare-const count{i} Int)").unwrap();
        writeln!(policy, "(assert (>= count{i} 0))").unwrap();
        writeln!(policy, "(assert (=> (> count{i} 3) b{i}))").unwrap();
    }
    for i in (0..LINKS).step_by(7) {
        writeln!(policy, "(declare-const fee{i} Real)").unwrap();
        writeln!(policy, "(assert (=> b{i} (>= fee{i} 12.5)))").unwrap();
    }
    for i in 0..LINKS - 1 {
        writeln!(policy, "(assert (=> b{i} b{}))", i + 1).unwrap();
    }
    policy
}

/// A question about two facts of the chain: `b_i => b_j`, its
/// contrapositive `¬b_j => ¬b_i`, or with a count standing in for a fact.
fn question((i, j, form): (usize, usize, u8)) -> (String, String) {
    let count = |k: usize| format!("(> count{} 3)", k - k % 10);
    match form {
        0 => (format!("b{i}"), format!("b{j}")),
        1 => (format!("(not b{j})"), format!("(not b{i})")),
        2 => (count(i), format!("b{j}")),
        _ => (
            format!("(and b{i} (not b{j}))"),
            format!("(>= fee{} 12.5)", j - j % 7),
        ),
    }
}

fn ask(
    worker: &SolverWorker,
    model: &precept::model::CompiledModel,
    q: &(String, String),
) -> precept::solve::Finding {
    worker.verify(formula(model, &q.0), formula(model, &q.1))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]
    /// A warm worker, which has a scenario of the whole chain after its
    /// first question, answers each question as a fresh worker does, with
    /// scenarios that satisfy every rule. A small check that ignored the
    /// rules beyond the question would find `b0` true and `b299` false
    /// possible, which the chain forbids.
    #[test]
    fn a_warm_worker_on_a_large_cone_answers_as_a_fresh_one(
        questions in proptest::collection::vec((0..LINKS, 0..LINKS, 0u8..4), 6),
    ) {
        let model = model(&chain_policy());
        let warm = worker(&model, Duration::from_secs(20));
        // A question both of whose sides hold, so the cone gets its base scenario.
        ask(&warm, &model, &("true".to_string(), format!("b{}", LINKS / 2)));
        for q in questions.into_iter().map(question) {
            let fresh = worker(&model, Duration::from_secs(20));
            let (after, reference) = (ask(&warm, &model, &q), ask(&fresh, &model, &q));
            proptest::prop_assert_eq!(after.kind, reference.kind, "{} => {}", q.0, q.1);
            let (premise, claim) = (formula(&model, &q.0), formula(&model, &q.1));
            proptest::prop_assert!(scenarios_are_evidence(&after, &premise, &claim, &model), "{after:?}");
        }
    }
}

/// The two ends of the chain: the first fact proves the last, whatever the
/// far links' values in the scenario the worker found before.
#[test]
fn the_end_of_a_long_chain_follows_from_its_start_on_a_warm_worker() {
    let model = model(&chain_policy());
    let warm = worker(&model, Duration::from_secs(20));
    let questions = [
        ("true", "b150", FindingKind::Satisfiable),
        ("b0", "b299", FindingKind::Valid),
        ("(not b299)", "(not b0)", FindingKind::Valid),
        ("b299", "b0", FindingKind::Satisfiable),
        ("(and b0 (not b299))", "b5", FindingKind::Impossible),
        ("b3", "(>= fee294 12.5)", FindingKind::Valid),
        ("b3", "(> count290 3)", FindingKind::Satisfiable),
    ];
    for (premise, claim, expected) in questions {
        let q = (premise.to_string(), claim.to_string());
        let finding = ask(&warm, &model, &q);
        assert_eq!(finding.kind, expected, "{premise} => {claim}");
        let (p, c) = (formula(&model, premise), formula(&model, claim));
        assert!(
            scenarios_are_evidence(&finding, &p, &c, &model),
            "{finding:?}"
        );
    }
}

/// An edit in place may make the cone's earlier scenario break the edited
/// rule, so that scenario is no longer used: a question far from the edited
/// link gets the answer a fresh load of the edited policy gives, although a
/// small check near it alone would find its side possible.
#[test]
fn after_an_edit_a_far_question_is_not_decided_by_the_old_scenario() {
    let policy = chain_policy();
    let model = model(&policy);
    let warm = worker(&model, Duration::from_secs(20));
    let first = ask(&warm, &model, &("true".to_string(), "b150".to_string()));
    // The link into b160 also fixes b160, against the value it had in the
    // scenarios found so far; the chain stays one cone.
    let was_true = first
        .claims_false_scenario
        .as_ref()
        .and_then(|s| s.get("b160"))
        .is_some_and(|v| *v == precept::solve::Value::Bool(true));
    let fact = match was_true {
        true => "(and (=> b159 b160) (not b160))",
        false => "(and (=> b159 b160) b160)",
    };
    let edited =
        support::model(&policy.replace("(assert (=> b159 b160))", &format!("(assert {fact})")));
    let link = model
        .rules
        .iter()
        .find(|rule| rule.formula.to_string() == "(=> b159 b160)")
        .expect("the link into b160");
    warm.replace_rule(&link.id, Some(formula(&edited, fact)));
    // Far from b160: decided by the chain through it.
    let far = match was_true {
        true => ("true".to_string(), "(not b20)".to_string()),
        false => ("true".to_string(), "b280".to_string()),
    };
    let fresh = worker(&edited, Duration::from_secs(20));
    let (after, reference) = (ask(&warm, &edited, &far), ask(&fresh, &edited, &far));
    assert_eq!(reference.kind, FindingKind::Valid);
    assert_eq!(after.kind, reference.kind, "{far:?}");
}
