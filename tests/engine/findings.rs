//! The findings, with their evidence, exactly as docs/answers.md defines them,
//! computed by the real Z3 through the solver worker.

use crate::support;

use precept::model::{PolicyModel, compile};
use precept::solve::{
    FindingKind, FormulaQuery, LogicWarning, Satisfiability, SolverWorker, Value,
};
use precept::test_runner::check_test;
use std::time::{Duration, Instant};
use support::evidence::scenarios_are_evidence;
use support::random_groups::{random_model, random_questions, random_rules, random_tests};
use support::{formula, model, worker};

/// One rule of `random_model`.
type RandomRule = (u8, u8, u8, u8, i8, u8);

/// A removed rule's place in `random_model`'s list (the rule is then dropped).
const UNUSED: RandomRule = (0, 0, 0, 0, 0, 0);

/// One rule as `random_rules` makes them.
fn random_rule() -> impl proptest::strategy::Strategy<Value = RandomRule> {
    (0u8..3, 0u8..2, 0u8..3, 0u8..2, -5i8..6, 0u8..5)
}

const REFUNDS: &str = "
(declare-datatype Reason ((NONE) (DENIED_BOARDING) (CANCELLED)))
(declare-const operated Bool)
(declare-const travelled Bool)
(declare-const reason Reason)
(declare-const refund Bool)
(declare-const amount Real)
(declare-const units Int)
(assert (=> (and operated (not travelled)) (not refund)))
(assert (=> (= reason DENIED_BOARDING) refund))
(assert (=> refund (>= amount 10.5)))
(assert (=> (not refund) (= amount 0.0)))
(assert (>= units 0))
(assert (= amount (* 3.5 units)))
";

fn verify(premise: &str, claim: &str) -> precept::solve::Finding {
    let model = model(REFUNDS);
    let worker = worker(&model, Duration::from_secs(5));
    worker.verify(formula(&model, premise), formula(&model, claim))
}

#[test]
fn impossible_names_a_minimal_set_of_contradicting_rules() {
    let finding = verify(
        "(and operated (not travelled) (= reason DENIED_BOARDING))",
        "refund",
    );
    assert_eq!(finding.kind, FindingKind::Impossible);
    assert_eq!(finding.contradicting_rules, vec!["R1", "R2"]);
    assert_eq!(finding.policy_inconsistent, Some(false));
    assert!(finding.rules_minimal);
    assert!(finding.claims_true_scenario.is_none() && finding.claims_false_scenario.is_none());
}

#[test]
fn valid_names_supporting_rules_and_a_claims_true_scenario() {
    let finding = verify("(= reason DENIED_BOARDING)", "(>= amount 10.0)");
    assert_eq!(finding.kind, FindingKind::Valid);
    assert_eq!(finding.supporting_rules, vec!["R2", "R3"]);
    let scenario = finding
        .claims_true_scenario
        .expect("a claims-true scenario");
    assert_eq!(scenario.get("refund"), Some(&Value::Bool(true)));
    assert!(finding.claims_false_scenario.is_none());
}

#[test]
fn invalid_names_contradicting_rules_and_a_scenario_of_the_premise() {
    let finding = verify("(and operated (not travelled))", "(> amount 0.0)");
    assert_eq!(finding.kind, FindingKind::Invalid);
    assert_eq!(finding.contradicting_rules, vec!["R1", "R4"]);
    let scenario = finding
        .claims_false_scenario
        .expect("a scenario of M and P");
    assert_eq!(scenario.get("operated"), Some(&Value::Bool(true)));
    assert_eq!(
        scenario.get("amount").map(ToString::to_string).as_deref(),
        Some("0")
    );
}

#[test]
fn satisfiable_gives_both_scenarios_with_exact_values() {
    let finding = verify("travelled", "refund");
    assert_eq!(finding.kind, FindingKind::Satisfiable);
    let yes = finding.claims_true_scenario.expect("claims-true scenario");
    let no = finding
        .claims_false_scenario
        .expect("claims-false scenario");
    assert_eq!(yes.get("refund"), Some(&Value::Bool(true)));
    assert_eq!(no.get("refund"), Some(&Value::Bool(false)));
    // amount = 3.5 * units with amount >= 10.5: an exact decimal.
    let amount = yes.get("amount").unwrap().to_string();
    assert!(amount.parse::<f64>().unwrap() >= 10.5, "{amount}");
    assert!(finding.supporting_rules.is_empty() && finding.contradicting_rules.is_empty());
}

#[test]
fn an_inconsistent_policy_is_reported_as_such() {
    let model = model("(declare-const x Int)(assert (> x 5))(assert (< x 3))(assert (= x x))");
    let worker = worker(&model, Duration::from_secs(5));
    let finding = worker.verify(formula(&model, "true"), formula(&model, "(> x 0)"));
    assert_eq!(finding.kind, FindingKind::Impossible);
    assert_eq!(finding.policy_inconsistent, Some(true));
    assert_eq!(finding.contradicting_rules, vec!["R1", "R2"]);
}

#[test]
fn logic_warnings_flag_premises_and_claims_that_are_always_true_or_false() {
    let finding = verify("(and travelled (not travelled))", "refund");
    assert!(finding.warnings.contains(&LogicWarning::PremiseAlwaysFalse));
    let finding = verify("travelled", "(or refund (not refund))");
    assert_eq!(finding.kind, FindingKind::Valid);
    assert_eq!(finding.warnings, vec![LogicWarning::ClaimAlwaysTrue]);
    let finding = verify("true", "(> amount (+ amount 1))");
    assert_eq!(finding.warnings, vec![LogicWarning::ClaimAlwaysFalse]);
    let finding = verify("travelled", "refund");
    assert!(finding.warnings.is_empty());
}

/// x³ + y³ = z³ over positive integers: Z3 cannot settle it in time.
const FERMAT: &str = "(declare-const x Int)(declare-const y Int)(declare-const z Int)
(assert (and (> x 0) (> y 0) (> z 0)))
(assert (= (+ (* x x x) (* y y y)) (* z z z)))";

#[test]
fn a_check_past_its_deadline_is_too_complex_and_the_worker_recovers() {
    let model = model(FERMAT);
    let worker = worker(&model, Duration::from_millis(300));
    let started = Instant::now();
    let finding = worker.verify(formula(&model, "true"), formula(&model, "(> x 10)"));
    assert_eq!(finding.kind, FindingKind::TooComplex);
    assert!(
        finding
            .reason
            .as_deref()
            .unwrap_or("")
            .contains("ran out of time"),
        "{:?}",
        finding.reason
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the deadline was not enforced: {:?}",
        started.elapsed()
    );
    // The interrupt must not stick: an easy question right after is answered.
    let finding = worker.verify(formula(&model, "(< x 0)"), formula(&model, "true"));
    assert_eq!(
        finding.kind,
        FindingKind::Impossible,
        "{:?}",
        finding.reason
    );
    assert!(finding.contradicting_rules.contains(&"R1".to_string()));
}

#[test]
fn a_running_check_can_be_cancelled() {
    let model = model(FERMAT);
    let worker = worker(&model, Duration::from_secs(60));
    let (reply, replies) = std::sync::mpsc::channel();
    let ticket = worker.submit(
        formula(&model, "true"),
        formula(&model, "(> x 10)"),
        reply.clone(),
    );
    let queued = worker.submit(formula(&model, "true"), formula(&model, "(> y 10)"), reply);
    std::thread::sleep(Duration::from_millis(200));
    worker.cancel(ticket);
    worker.cancel(queued);
    let first = replies
        .recv_timeout(Duration::from_secs(10))
        .expect("cancelled promptly");
    assert_eq!(first.ticket, ticket);
    assert_eq!(first.finding.kind, FindingKind::TooComplex);
    assert_eq!(first.finding.reason.as_deref(), Some("cancelled"));
    let second = replies
        .recv_timeout(Duration::from_secs(10))
        .expect("queued request answered");
    assert_eq!(second.finding.reason.as_deref(), Some("cancelled"));
}

#[test]
fn editing_one_rule_changes_the_finding_without_reloading() {
    let model = model(REFUNDS);
    let worker = worker(&model, Duration::from_secs(5));
    let premise = "(and operated (not travelled) (= reason DENIED_BOARDING))";
    assert_eq!(
        worker
            .verify(formula(&model, premise), formula(&model, "refund"))
            .kind,
        FindingKind::Impossible
    );
    // The repair from ARC §4.2: the broad rule gets the exception.
    let repaired = formula(
        &model,
        "(=> (and operated (not travelled) (= reason NONE)) (not refund))",
    );
    worker.replace_rule("R1", Some(repaired));
    assert_eq!(
        worker
            .verify(formula(&model, premise), formula(&model, "refund"))
            .kind,
        FindingKind::Valid
    );
    // Removing the denied-boarding rule leaves the question open.
    worker.replace_rule("R2", None);
    assert_eq!(
        worker
            .verify(formula(&model, premise), formula(&model, "refund"))
            .kind,
        FindingKind::Satisfiable
    );
}

/// A scenario prefers the value the rules compare a measure with; after an
/// edit changes that constant, a warm worker prefers the new one, as a
/// fresh load of the edited model does.
#[test]
fn after_an_edit_scenarios_prefer_the_edited_rules_constants() {
    let before = model(
        "(declare-const amount Real)(declare-const big Bool)
         (assert (=> (>= amount 100.0) big))",
    );
    let after = model(
        "(declare-const amount Real)(declare-const big Bool)
         (assert (=> (>= amount 300.0) big))",
    );
    let amount_when_big = |worker: &SolverWorker, model| {
        let finding = worker.verify(formula(model, "true"), formula(model, "big"));
        assert_eq!(finding.kind, FindingKind::Satisfiable, "{finding:?}");
        finding.claims_true_scenario.unwrap().get("amount").cloned()
    };
    let warm = worker(&before, Duration::from_secs(5));
    let hundred = amount_when_big(&warm, &before);
    warm.replace_rule("R1", Some(after.rules[0].formula.clone()));
    let fresh = worker(&after, Duration::from_secs(5));
    let preferred = amount_when_big(&fresh, &after);
    assert_ne!(
        hundred, preferred,
        "the constant changed: so does the preference"
    );
    assert_eq!(amount_when_big(&warm, &after), preferred);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// A worker keeps its warm cone solvers across edits, giving those that
    /// hold the edited rule its new formula: after each edit every question
    /// gets the finding kind a worker loaded afresh with the edited model
    /// gives (the rule sets may be other minimal ones), with scenarios that
    /// are evidence, even when an edit moves a rule to another group of
    /// variables or removes it.
    #[test]
    fn a_warm_worker_answers_after_edits_as_a_fresh_load_of_the_edited_model(
        rules in random_rules(),
        edits in proptest::collection::vec(
            (0usize..9, proptest::option::weighted(0.8, random_rule())),
            1..5,
        ),
        questions in random_questions(),
    ) {
        let mut current: Vec<Option<_>> = rules.iter().copied().map(Some).collect();
        let edited = |current: &[Option<RandomRule>]| {
            let mut model = random_model(&current.iter().map(|r| r.unwrap_or(UNUSED)).collect::<Vec<_>>());
            let gone: Vec<String> = current
                .iter()
                .enumerate()
                .filter(|(_, r)| r.is_none())
                .map(|(i, _)| format!("R{}", i + 1))
                .collect();
            model.rules.retain(|rule| !gone.contains(&rule.id));
            model
        };
        let tests = random_tests(&questions);
        let warm = worker(&edited(&current), Duration::from_secs(10));
        let ask = |worker: &SolverWorker, model: &precept::model::CompiledModel| {
            tests
                .iter()
                .map(|test| {
                    let (premise, claim) = check_test(model, test).unwrap();
                    (worker.verify(premise.clone(), claim.clone()), premise, claim)
                })
                .collect::<Vec<_>>()
        };
        ask(&warm, &edited(&current));
        for (at, rule) in edits {
            let at = at % current.len();
            current[at] = rule;
            let model = edited(&current);
            let id = format!("R{}", at + 1);
            let formula = model.rules.iter().find(|r| r.id == id).map(|r| r.formula.clone());
            warm.replace_rule(&id, formula);
            let fresh = worker(&model, Duration::from_secs(10));
            for ((after, premise, claim), (reference, ..)) in ask(&warm, &model).iter().zip(ask(&fresh, &model)) {
                proptest::prop_assert_eq!(after.kind, reference.kind, "{} => {}", premise, claim);
                proptest::prop_assert!(scenarios_are_evidence(after, premise, claim, &model));
            }
        }
    }
}

#[test]
fn irrational_values_are_shown_approximately_not_wrongly() {
    let model = model("(declare-const r Real)(assert (= (* r r) 2.0))(assert (> r 0.0))");
    let worker = worker(&model, Duration::from_secs(5));
    let finding = worker.verify(formula(&model, "true"), formula(&model, "(> r 1.0)"));
    assert_eq!(finding.kind, FindingKind::Valid);
    let value = finding
        .claims_true_scenario
        .unwrap()
        .get("r")
        .unwrap()
        .clone();
    assert!(matches!(value, Value::Algebraic(_)), "{value:?}");
    assert!(value.to_string().starts_with("≈1.41421"), "{value}");
}

#[test]
fn reloading_a_model_with_the_same_or_changed_enums_works() {
    let first = model(REFUNDS);
    let worker = worker(&first, Duration::from_secs(5));
    worker
        .load(first.clone())
        .expect("reload with identical enums");
    let premise = "(and operated (not travelled) (= reason DENIED_BOARDING))";
    assert_eq!(
        worker
            .verify(formula(&first, premise), formula(&first, "refund"))
            .kind,
        FindingKind::Impossible
    );
    // The enum gains a value: a new sort of the same name.
    let changed = model(&REFUNDS.replace("(CANCELLED)))", "(CANCELLED) (STRIKE)))"));
    worker
        .load(changed.clone())
        .expect("reload with a changed enum");
    let finding = worker.verify(
        formula(&changed, "(= reason STRIKE)"),
        formula(&changed, "(not (= reason NONE))"),
    );
    assert_eq!(finding.kind, FindingKind::Valid);
}

// Formulas on their own (the answer verifier's redundancy check).

fn park() -> precept::model::CompiledModel {
    let model: PolicyModel =
        serde_json::from_str(include_str!("../../samples/park-admission/model.json"))
            .expect("park");
    compile(&model)
}

#[test]
fn formulas_are_decided_without_the_rules_but_with_enum_domains() {
    let model = park();
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    let query = |text: &str| FormulaQuery::new(model.check_formula(text).expect(text).1);
    assert_eq!(
        worker.check_formulas(vec![query(
            "(and (not (= ageClass SENIOR)) (not (= ageClass CHILD)) (not (= ageClass ADULT)))"
        )]),
        vec![Satisfiability::Unknown("no model is loaded".into())]
    );
    worker.load(model.clone()).expect("loads");
    let results = worker.check_formulas(vec![
        // Three values exhaust the enumeration.
        query("(and (not (= ageClass SENIOR)) (not (= ageClass CHILD)) (not (= ageClass ADULT)))"),
        // R1 says the base fee is 50; without the rules 20 is fine.
        query("(= baseFee 20.0)"),
    ]);
    assert_eq!(results[0], Satisfiability::Unsatisfiable);
    let scenario = results[1].scenario().expect("satisfiable");
    assert_eq!(scenario.values.len(), 1);
    assert_eq!(
        scenario.get("baseFee").map(ToString::to_string).as_deref(),
        Some("20")
    );
    assert!(matches!(scenario.get("baseFee"), Some(Value::Real(_))));
}
