//! A question verified on two workers at once, one side of it on each
//! (`Scheduler::verify`), must get the finding the whole verify gets on
//! one worker: the same kind, warnings, rule sets proved minimal and
//! scenarios that are evidence; on every sample, on the synthetic model, on
//! random models, on inconsistent rules and when the solver gives up.

use crate::support;

use crate::synthetic;

use precept::model::{CompiledModel, LogicTest, Project, compile};
use precept::scheduler::Scheduler;
use precept::smt::Expr;
use precept::solve::{Deadline, Finding, FindingKind, Side, SideAnswer, join_sides};
use precept::test_runner::check_test;
use proptest::prelude::*;
use std::time::Duration;
use support::evidence::scenarios_are_evidence;
use support::random_groups::{random_model, random_questions, random_rules, random_tests};
use support::{formula, model, sample, worker};

const TIMEOUT: Duration = Duration::from_secs(10);
const SAMPLES: [&str; 3] = ["airline-refunds", "benefit-eligibility", "park-admission"];

fn pool(model: &CompiledModel, timeout: Duration) -> Scheduler {
    let pool = Scheduler::new(2, timeout);
    pool.load(model).unwrap();
    pool
}

/// Whether `rules` alone give the finding `kind` with that whole set: the
/// model cut down to them, asked the question in a fresh solver, finds
/// the same kind and the same rules (a minimal set is the only
/// unsatisfiable subset of itself).
fn rule_set_holds(finding: &Finding, premise: &Expr, claim: &Expr, model: &CompiledModel) -> bool {
    let mut cut = model.clone();
    cut.rules.retain(|rule| finding.rules().contains(&rule.id));
    let again = worker(&cut, TIMEOUT).verify(premise.clone(), claim.clone());
    again.kind == finding.kind && again.rules() == finding.rules()
}

/// Asserts the split finding is the whole verify's: the same kind,
/// warnings, minimality and inconsistency, the same scenarios present and
/// each of them evidence, and the same rule set or, where several minimal
/// sets prove the finding (the two workers' solvers, warm from different
/// checks, may come to another), one that proves it alone.
fn assert_same_finding(
    split: &Finding,
    whole: &Finding,
    (premise, claim): (&Expr, &Expr),
    model: &CompiledModel,
) {
    let what = format!("{premise} => {claim}");
    assert_eq!(split.kind, whole.kind, "{what}: {split:#?}");
    assert_eq!(split.warnings, whole.warnings, "{what}");
    assert_eq!(split.rules_minimal, whole.rules_minimal, "{what}");
    assert_eq!(
        split.policy_inconsistent, whole.policy_inconsistent,
        "{what}"
    );
    assert_eq!(split.reason, whole.reason, "{what}");
    assert_eq!(
        split.claims_true_scenario.is_some(),
        whole.claims_true_scenario.is_some(),
        "{what}"
    );
    assert_eq!(
        split.claims_false_scenario.is_some(),
        whole.claims_false_scenario.is_some(),
        "{what}"
    );
    assert!(
        scenarios_are_evidence(split, premise, claim, model),
        "{what}: {split:#?}"
    );
    if split.rules() != whole.rules() {
        assert!(
            rule_set_holds(split, premise, claim, model),
            "{what}: {split:#?}"
        );
    }
}

fn questions(model: &CompiledModel, tests: &[LogicTest]) -> Vec<(Expr, Expr)> {
    tests
        .iter()
        .map(|test| check_test(model, test).expect("the test type-checks"))
        .collect()
}

#[test]
fn every_sample_question_split_over_two_workers_gets_the_whole_verify_finding() {
    for name in SAMPLES {
        let project = Project::load(&sample(name)).unwrap();
        let model = project.compile_strict().unwrap();
        let (one, two) = (worker(&model, TIMEOUT), pool(&model, TIMEOUT));
        let asked = questions(&model, &project.tests.tests);
        assert!(asked.len() >= 5, "{name} has few tests");
        let mut kinds = std::collections::BTreeSet::new();
        for (premise, claim) in asked {
            let whole = one.verify(premise.clone(), claim.clone());
            let split = two.verify(premise.clone(), claim.clone());
            kinds.insert(whole.kind.name());
            assert_same_finding(&split, &whole, (&premise, &claim), &model);
        }
        assert!(kinds.len() >= 2, "{name}: every question got {kinds:?}");
    }
}

#[test]
fn questions_on_the_synthetic_model_split_over_two_workers_get_the_whole_verify_finding() {
    let (policy, suite) = synthetic::synthetic();
    let model = compile(&policy);
    let (one, two) = (worker(&model, TIMEOUT), pool(&model, TIMEOUT));
    // Every 25th test: two from each of the twenty sections.
    let sampled: Vec<LogicTest> = suite.tests.iter().step_by(25).cloned().collect();
    for (premise, claim) in questions(&model, &sampled) {
        let whole = one.verify(premise.clone(), claim.clone());
        let split = two.verify(premise.clone(), claim.clone());
        assert_ne!(whole.kind, FindingKind::TooComplex, "{whole:?}");
        assert_same_finding(&split, &whole, (&premise, &claim), &model);
    }
}

#[test]
fn impossible_premises_and_inconsistent_rules_are_finished_by_the_whole_verify() {
    let consistent = model(
        "(declare-const age Int)(declare-const member Bool)(declare-const fee Int)
         (assert (=> member (>= age 18)))
         (assert (=> (< age 18) (= fee 0)))
         (assert (>= fee 0))",
    );
    let (one, two) = (worker(&consistent, TIMEOUT), pool(&consistent, TIMEOUT));
    for (premise, claim) in [
        ("(and member (< age 16))", "(= fee 0)"),
        ("(< fee 0)", "member"),
        ("(< age 10)", "(= fee 0)"),
        ("(< age 10)", "(> fee 0)"),
        ("member", "(> fee 3)"),
    ] {
        let (p, c) = (formula(&consistent, premise), formula(&consistent, claim));
        let whole = one.verify(p.clone(), c.clone());
        let split = two.verify(p.clone(), c.clone());
        assert_same_finding(&split, &whole, (&p, &c), &consistent);
    }
    let first = two.verify(
        formula(&consistent, "(and member (< age 16))"),
        formula(&consistent, "(= fee 0)"),
    );
    assert_eq!(first.kind, FindingKind::Impossible);
    assert_eq!(first.policy_inconsistent, Some(false));
    assert!(first.rules_minimal);

    let contradictory = model(
        "(declare-const age Int)(declare-const member Bool)
         (assert (>= age 18))(assert (< age 16))(assert (=> member (> age 0)))",
    );
    let (one, two) = (
        worker(&contradictory, TIMEOUT),
        pool(&contradictory, TIMEOUT),
    );
    let (p, c) = (
        formula(&contradictory, "member"),
        formula(&contradictory, "(> age 1)"),
    );
    let whole = one.verify(p.clone(), c.clone());
    let split = two.verify(p.clone(), c.clone());
    assert_eq!(split.kind, FindingKind::Impossible);
    assert_eq!(split.policy_inconsistent, Some(true));
    assert_same_finding(&split, &whole, (&p, &c), &contradictory);
}

#[test]
fn a_side_the_solver_gives_up_on_makes_the_finding_too_complex_never_decided() {
    let cubes = model(
        "(declare-const x Int)(declare-const y Int)(declare-const z Int)
         (assert (and (> x 0) (> y 0) (> z 0)))(assert (= (+ (* x x x) (* y y y)) (* z z z)))",
    );
    let two = pool(&cubes, Duration::from_millis(300));
    let finding = two.verify(formula(&cubes, "(> z 10)"), formula(&cubes, "(> x 1)"));
    assert_eq!(finding.kind, FindingKind::TooComplex, "{finding:?}");
    assert!(finding.reason.is_some());
    assert!(finding.rules().is_empty());
}

#[test]
fn a_side_answers_with_its_scenario_or_its_minimal_rules() {
    let fees = model(
        "(declare-const age Int)(declare-const fee Int)
         (assert (=> (< age 18) (= fee 0)))(assert (>= fee 0))",
    );
    let one = worker(&fees, TIMEOUT);
    let (premise, claim) = (formula(&fees, "(< age 10)"), formula(&fees, "(= fee 0)"));
    let (reply, replies) = std::sync::mpsc::channel();
    let question = (premise.clone(), claim.clone());
    one.submit_side(
        question.clone(),
        Side::ClaimFalse,
        Deadline::Fresh,
        reply.clone(),
    );
    one.submit_side(question, Side::ClaimTrue, Deadline::Fresh, reply);
    let sides: Vec<_> = replies.iter().take(2).map(|r| r.verdict).collect();
    let (claim_false, claim_true) = (&sides[0], &sides[1]);
    assert_eq!(claim_false.side, Side::ClaimFalse);
    assert_eq!(
        claim_false.answer,
        SideAnswer::Refuted {
            rules: vec!["R1".into()],
            minimal: true
        }
    );
    let SideAnswer::Holds(scenario) = &claim_true.answer else {
        panic!("the claim holds with a young age: {claim_true:?}");
    };
    assert_eq!(
        scenario.get("fee").map(ToString::to_string).as_deref(),
        Some("0")
    );
    let joined = join_sides(&premise, &claim, claim_false, claim_true).unwrap();
    assert_eq!(joined.kind, FindingKind::Valid);
    assert_eq!(joined.supporting_rules, ["R1"]);
    let whole = one.verify(premise.clone(), claim.clone());
    assert_same_finding(&joined, &whole, (&premise, &claim), &fees);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn split_verify_equals_the_whole_verify_on_random_models(
        rules in random_rules(),
        tests in random_questions(),
    ) {
        let model = random_model(&rules);
        let (one, two) = (worker(&model, TIMEOUT), pool(&model, TIMEOUT));
        for (premise, claim) in questions(&model, &random_tests(&tests)) {
            let whole = one.verify(premise.clone(), claim.clone());
            let split = two.verify(premise.clone(), claim.clone());
            assert_same_finding(&split, &whole, (&premise, &claim), &model);
        }
    }
}

/// A lone worker is a pool of one: its verify is the whole verify.
#[test]
fn a_pool_of_one_verifies_the_whole_question_on_its_worker() {
    let fees = model("(declare-const fee Int)(assert (>= fee 0))");
    let lone = Scheduler::new(1, TIMEOUT);
    lone.load(&fees).unwrap();
    let (premise, claim) = (formula(&fees, "true"), formula(&fees, "(>= fee 0)"));
    let finding = lone.verify(premise.clone(), claim.clone());
    assert_eq!(finding.kind, FindingKind::Valid);
    assert_eq!(finding, worker(&fees, TIMEOUT).verify(premise, claim));
}

/// A worker lent for one question: wanted back from the start, and counted
/// when given back.
struct Borrowed<'a> {
    worker: &'a precept::solve::SolverWorker,
    given_back: &'a std::sync::atomic::AtomicBool,
}

impl precept::solve::LentWorker for Borrowed<'_> {
    fn worker(&self) -> &precept::solve::SolverWorker {
        self.worker
    }

    fn wanted_back(&self) -> bool {
        true
    }
}

impl Drop for Borrowed<'_> {
    fn drop(&mut self) {
        self.given_back
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Fees, and cubes the solver cannot settle when `cubed` holds.
const CUBES: &str = "(declare-const x Int)(declare-const y Int)(declare-const z Int)
(declare-const cubed Bool)(declare-const age Int)(declare-const fee Int)
(assert (and (> x 0) (> y 0) (> z 0)))
(assert (=> cubed (= (+ (* x x x) (* y y y)) (* z z z))))
(assert (=> (< age 18) (= fee 0)))(assert (>= fee 0))";

/// The question on `CUBES` the solver cannot settle.
const CUBED: (&str, &str) = ("(and cubed (> z 10))", "(> x 1)");

#[test]
fn a_lent_worker_wanted_back_gives_its_side_to_the_first_worker_and_the_finding_stays() {
    use precept::solve::verify_with_lent;
    use std::sync::atomic::{AtomicBool, Ordering};
    let policy = model(CUBES);
    let first = worker(&policy, TIMEOUT);
    // The lent worker is busy with a question it cannot settle, so the
    // side queued behind it is wanted back before it ever starts.
    let lent = worker(&policy, Duration::from_millis(400));
    let (busy, _) = std::sync::mpsc::channel();
    lent.submit(formula(&policy, CUBED.0), formula(&policy, CUBED.1), busy);
    let given_back = AtomicBool::new(false);
    for (premise, claim, kind) in [
        ("(< age 10)", "(= fee 0)", FindingKind::Valid),
        ("(< age 10)", "(> fee 0)", FindingKind::Invalid),
        ("(> age 30)", "(> fee 2)", FindingKind::Satisfiable),
        ("(< fee 0)", "(> age 2)", FindingKind::Impossible),
    ] {
        let (p, c) = (formula(&policy, premise), formula(&policy, claim));
        let borrowed = Borrowed {
            worker: &lent,
            given_back: &given_back,
        };
        let started = std::time::Instant::now();
        let split = verify_with_lent(&first, borrowed, &|| false, p.clone(), c.clone());
        assert!(given_back.swap(false, Ordering::SeqCst));
        let whole = first.verify(p.clone(), c.clone());
        assert_eq!(split.kind, kind, "{premise} => {claim}: {split:#?}");
        assert_same_finding(&split, &whole, (&p, &c), &policy);
        assert!(started.elapsed() < TIMEOUT, "{:?}", started.elapsed());
    }
}

#[test]
fn a_side_asked_past_its_deadline_is_undecided_at_once() {
    let fees = model(
        "(declare-const age Int)(declare-const fee Int)
         (assert (=> (< age 18) (= fee 0)))(assert (>= fee 0))",
    );
    let one = worker(&fees, Duration::from_millis(200));
    let (reply, replies) = std::sync::mpsc::channel();
    let question = (formula(&fees, "(< age 10)"), formula(&fees, "(= fee 0)"));
    let long_ago = std::time::Instant::now() - Duration::from_millis(250);
    one.submit_side(
        question.clone(),
        Side::ClaimTrue,
        Deadline::AskedAt(long_ago),
        reply.clone(),
    );
    one.submit_side(
        question,
        Side::ClaimTrue,
        Deadline::AskedAt(std::time::Instant::now()),
        reply,
    );
    let late = replies.recv().unwrap().verdict;
    assert_eq!(
        late.answer,
        SideAnswer::Undecided("the solver ran out of time (200 ms)".into())
    );
    let on_time = replies.recv().unwrap().verdict;
    assert!(
        matches!(on_time.answer, SideAnswer::Holds(_)),
        "{on_time:?}"
    );
}

/// The workbench finishes a question whole after its sides spent solver
/// time (`Deadline::AfterSpending`): it gets what they left of the timeout,
/// however long it waited behind other work, and nothing once they spent
/// it all.
#[test]
fn a_question_finished_after_its_sides_gets_what_they_left_of_the_timeout() {
    let cubes = model(CUBES);
    let one = worker(&cubes, Duration::from_millis(1000));
    let (reply, replies) = std::sync::mpsc::channel();
    let easy = || (formula(&cubes, "(< age 10)"), formula(&cubes, "(= fee 0)"));
    let hard = (formula(&cubes, CUBED.0), formula(&cubes, CUBED.1));
    let known = precept::model::finding::KnownSides::default();
    // The hard question holds the worker for its whole second first.
    let blocking = one.submit_knowing(hard, known.clone(), Deadline::Fresh, reply.clone());
    let waited = one.submit_knowing(
        easy(),
        known.clone(),
        Deadline::AfterSpending(Duration::from_millis(500)),
        reply.clone(),
    );
    let spent = one.submit_knowing(
        easy(),
        known,
        Deadline::AfterSpending(Duration::from_millis(1000)),
        reply,
    );
    let mut findings = std::collections::HashMap::new();
    for _ in 0..3 {
        let answer = replies.recv().unwrap();
        findings.insert(answer.ticket, answer.finding);
    }
    assert_eq!(findings[&blocking].kind, FindingKind::TooComplex);
    assert_eq!(
        findings[&waited].kind,
        FindingKind::Valid,
        "{:?}",
        findings[&waited]
    );
    assert_eq!(findings[&spent].kind, FindingKind::TooComplex);
    assert!(
        findings[&spent]
            .reason
            .as_deref()
            .is_some_and(|reason| reason.contains("ran out of time (1000 ms)")),
        "{:?}",
        findings[&spent]
    );
}

#[test]
fn a_question_abandoned_on_two_workers_stops_both_sides() {
    use precept::solve::verify_with_lent;
    let cubes = model(CUBES);
    let (first, second) = (worker(&cubes, TIMEOUT), worker(&cubes, TIMEOUT));
    let asked = std::time::Instant::now();
    let abandoned = || asked.elapsed() > Duration::from_millis(200);
    let finding = verify_with_lent(
        &first,
        &second,
        &abandoned,
        formula(&cubes, CUBED.0),
        formula(&cubes, CUBED.1),
    );
    assert_eq!(finding.kind, FindingKind::TooComplex, "{finding:?}");
    assert_eq!(finding.reason.as_deref(), Some("cancelled"));
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
    // Both workers are free again.
    let fee = first.verify(formula(&cubes, "(< age 10)"), formula(&cubes, "(= fee 0)"));
    assert_eq!(fee.kind, FindingKind::Valid);
    let fee = second.verify(formula(&cubes, "(< age 10)"), formula(&cubes, "(= fee 0)"));
    assert_eq!(fee.kind, FindingKind::Valid);
}

/// A chain of 400 rules `b_i ⇒ b_(i+1)`, and `b_250` never holds: one cone
/// large enough that a core is minimized in a solver of its own.
fn long_chain() -> CompiledModel {
    let mut smtlib = String::new();
    for i in 0..=400 {
        smtlib.push_str(&format!("(declare-const b{i} Bool)"));
    }
    for i in 0..400 {
        smtlib.push_str(&format!("(assert (=> b{i} b{}))", i + 1));
    }
    smtlib.push_str("(assert (not b250))");
    model(&smtlib)
}

#[test]
fn a_cone_of_hundreds_of_rules_gets_the_only_minimal_rule_set() {
    let chain = long_chain();
    let (one, two) = (worker(&chain, TIMEOUT), pool(&chain, TIMEOUT));
    // `b_i ⇒ b_(i+1)` is rule R(i+1); `not b250` is R401.
    let ids = |range: std::ops::Range<usize>, never: bool| -> Vec<String> {
        let mut ids: Vec<String> = range.map(|i| format!("R{}", i + 1)).collect();
        if never {
            ids.push("R401".into());
        }
        ids.sort();
        ids
    };
    for (premise, claim, kind, rules) in [
        ("b260", "b265", FindingKind::Valid, ids(260..265, false)),
        (
            "b260",
            "(not b263)",
            FindingKind::Invalid,
            ids(260..263, false),
        ),
        ("b300", "b301", FindingKind::Valid, ids(300..301, false)),
        ("b247", "b100", FindingKind::Impossible, ids(247..250, true)),
        ("b10", "b20", FindingKind::Impossible, ids(10..250, true)),
    ] {
        let (p, c) = (formula(&chain, premise), formula(&chain, claim));
        let whole = one.verify(p.clone(), c.clone());
        assert_eq!(whole.kind, kind, "{premise} => {claim}: {whole:#?}");
        assert!(whole.rules_minimal, "{premise} => {claim}");
        let mut found = whole.rules().to_vec();
        found.sort();
        assert_eq!(found, rules, "{premise} => {claim}");
        let split = two.verify(p.clone(), c.clone());
        assert_same_finding(&split, &whole, (&p, &c), &chain);
    }
}
