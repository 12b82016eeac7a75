//! The explain core against the solver: propagation agrees with direct
//! questions on every sample and on random models (each forced value is
//! forced, each open variable has two values), each forced value's rules
//! alone force it, a case split is one honest step of several rules, and
//! the chain of a forced value ends at it.

use crate::support;

use precept::explain::describe::describe;
use precept::explain::inputs::inputs;
use precept::explain::job::{ExplainRequest, chain_for_value, run};
use precept::explain::markdown::chain_markdown;
use precept::explain::relevance::Budget;
use precept::explain::values::equals;
use precept::explain::{Explanation, Propagation};
use precept::model::finding::{FindingKind, Value};
use precept::model::{CompiledModel, PolicyModel, Project, compile};
use precept::solve::SolverWorker;
use proptest::prelude::*;
use std::time::Duration;
use support::{formula, model, sample, worker};

fn explain(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    premise: &str,
    claim: Option<&str>,
) -> Explanation {
    let request = ExplainRequest {
        premise: formula(compiled, premise),
        claim: claim.map(|c| formula(compiled, c)),
        inputs: inputs(compiled),
        budget: Budget::default(),
    };
    let explanation = run(worker, request).unwrap();
    assert_eq!(explanation.stopped, None);
    explanation
}

/// Every forced value is VALID under the premise, and VALID with its own
/// rules alone; every open variable can take its scenario value and another.
fn agrees_with_the_solver(
    compiled: &CompiledModel,
    worker: &SolverWorker,
    premise: &str,
    propagation: &Propagation,
) {
    let p = formula(compiled, premise);
    for forced in &propagation.forced {
        let claim = equals(&forced.variable, &forced.value).unwrap();
        let finding = worker.verify(p.clone(), claim.clone());
        assert_eq!(
            finding.kind,
            FindingKind::Valid,
            "{premise}: {} = {}",
            forced.variable,
            forced.value
        );
        let alone = only_rules(compiled, &forced.rules);
        let small = support::worker(&alone, Duration::from_secs(10));
        assert_eq!(
            small.verify(p.clone(), claim).kind,
            FindingKind::Valid,
            "{premise}: {} with {:?} alone",
            forced.variable,
            forced.rules
        );
    }
    let any = worker.verify(p.clone(), formula(compiled, "true"));
    let scenario = any.claims_true_scenario.expect("a scenario");
    for variable in &propagation.open {
        let Some(value) = scenario.get(variable) else {
            continue;
        };
        let claim = equals(variable, value).unwrap();
        let finding = worker.verify(p.clone(), claim);
        assert_eq!(
            finding.kind,
            FindingKind::Satisfiable,
            "{premise}: {variable} is open"
        );
    }
}

fn only_rules(compiled: &CompiledModel, ids: &[String]) -> CompiledModel {
    let mut smaller = compiled.clone();
    smaller.rules.retain(|r| ids.contains(&r.id));
    smaller
}

#[test]
fn propagation_agrees_with_the_solver_on_every_sample() {
    for name in ["park-admission", "benefit-eligibility", "airline-refunds"] {
        let project = Project::load(&sample(name)).unwrap();
        let compiled = project.compile_strict().unwrap();
        let worker = worker(&compiled, Duration::from_secs(20));
        let mut premises: Vec<String> = project
            .tests
            .tests
            .iter()
            .map(|t| t.premise.clone())
            .collect();
        premises.dedup();
        assert!(!premises.is_empty(), "{name}");
        for premise in premises.iter().take(6) {
            let explanation = explain(&worker, &compiled, premise, None);
            let propagation = &explanation.propagation;
            if propagation.contradiction.is_some() {
                continue;
            }
            assert!(!propagation.forced.is_empty(), "{name}: {premise}");
            agrees_with_the_solver(&compiled, &worker, premise, propagation);
        }
    }
}

#[test]
fn a_case_split_is_one_step_of_several_rules() {
    // Whether or not the visitor is a member, the fee is positive, so a
    // receipt is due: no single rule proves it.
    let compiled = model(
        "(declare-const member Bool)(declare-const fee Real)(declare-const receipt Bool)
         (assert (=> member (= fee 5.0)))
         (assert (=> (not member) (= fee 8.0)))
         (assert (= receipt (> fee 0.0)))",
    );
    let worker = worker(&compiled, Duration::from_secs(10));
    let explanation = explain(&worker, &compiled, "true", Some("receipt"));
    assert_eq!(
        explanation.finding.as_ref().unwrap().kind,
        FindingKind::Valid
    );
    let chain = explanation.chain.unwrap();
    assert_eq!(chain.steps.len(), 1);
    let step = &chain.steps[0];
    assert_eq!(step.rules, ["R1", "R2", "R3"]);
    assert!(step.several_rules());
    assert_eq!(step.derives, [("receipt".to_string(), Value::Bool(true))]);
    assert!(step.concludes);
    assert!(
        chain_markdown(&chain)
            .contains("1. By rules R1, R2, R3 together (no single rule suffices: a case split):")
    );
}

#[test]
fn a_forced_value_has_a_chain_ending_at_it_and_markdown() {
    let project = Project::load(&sample("park-admission")).unwrap();
    let compiled = project.compile_strict().unwrap();
    let worker = worker(&compiled, Duration::from_secs(10));
    let premise = "(and (= ageClass CHILD) (not isLowSeason))";
    let explanation = explain(&worker, &compiled, premise, None);
    assert_eq!(
        explanation.propagation.value_of("finalAdmissionFee"),
        Some(&Value::Real(num_rational::BigRational::from_integer(
            35.into()
        )))
    );
    let p = formula(&compiled, premise);
    let propagation = explanation.propagation.clone();
    let (reply, answer) = std::sync::mpsc::channel();
    worker.submit_task(Box::new(move |session, interruption| {
        let chain = chain_for_value(
            session.unwrap(),
            &p,
            &propagation,
            "finalAdmissionFee",
            interruption,
        );
        reply.send(chain).unwrap();
    }));
    let chain = answer.recv().unwrap().unwrap().unwrap();
    let mut explained = Explanation {
        chain: Some(chain),
        ..explanation
    };
    describe(
        &mut explained,
        &compiled,
        &project.model,
        project.document.as_deref(),
    );
    let chain = explained.chain.unwrap();
    let rules: Vec<String> = chain.steps.iter().map(|s| s.rules.join("+")).collect();
    assert_eq!(rules, ["R1", "R3", "R6", "R8", "R9", "R11"]);
    assert_eq!(
        chain.steps.last().unwrap().derives,
        [(
            "finalAdmissionFee".to_string(),
            Value::Real(num_rational::BigRational::from_integer(35.into()))
        )]
    );
    let markdown = chain_markdown(&chain);
    assert!(markdown.starts_with("**Derivation of** `(= finalAdmissionFee 35.0)`\n\n1. By rule R1:\n   - `(= baseFee 50.0)` R1: "), "{markdown}");
    assert!(
        markdown
            .contains("3. By rule R6:\n   - `(=> (= ageClass CHILD) (= discountRate 0.5))` R6: "),
        "{markdown}"
    );
    assert!(markdown.contains("   - uses `ageClass` = CHILD\n   - derives `discountRate` = 0.5\n\n   > Children receive a 50% discount on the admission fee.\n"), "{markdown}");
    assert!(
        markdown.contains("   - concludes `(= finalAdmissionFee 35.0)`"),
        "{markdown}"
    );
}

/// A random small model: three Bools, two bounded Ints, rules linking them.
fn random_model(rules: &[(u8, u8, u8, i8)]) -> CompiledModel {
    let bools = ["a", "b", "c"];
    let ints = ["x", "y"];
    let mut text = String::from(
        "(declare-const a Bool)(declare-const b Bool)(declare-const c Bool)
         (declare-const x Int)(declare-const y Int)
         (assert (and (>= x 0) (<= x 4) (>= y 0) (<= y 4)))",
    );
    for &(kind, i, j, k) in rules {
        let (p, q) = (bools[i as usize % 3], bools[j as usize % 3]);
        let (u, v) = (ints[i as usize % 2], ints[j as usize % 2]);
        let k = (k.rem_euclid(5)) as i64;
        let rule = match kind % 5 {
            0 => format!("(=> {p} {q})"),
            1 => format!("(=> {p} (= {u} {k}))"),
            2 => format!("(=> (> {u} {k}) (not {q}))"),
            3 => format!("(= {v} (ite {p} {k} (- 4 {k})))"),
            _ => format!("(or {p} (>= {u} {k}))"),
        };
        text.push_str(&format!("(assert {rule})"));
    }
    let policy: PolicyModel = precept::model::import::import_smtlib(&text).unwrap();
    compile(&policy)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn propagation_is_right_on_random_models(
        rules in proptest::collection::vec((0u8..5, 0u8..3, 0u8..3, -3i8..8), 1..6),
        facts in proptest::collection::vec((0u8..3, any::<bool>()), 0..3),
    ) {
        let compiled = random_model(&rules);
        prop_assume!(compiled.issues.is_empty());
        let worker = worker(&compiled, Duration::from_secs(10));
        let literals: Vec<String> = facts
            .iter()
            .map(|&(i, positive)| {
                let name = ["a", "b", "c"][i as usize];
                if positive { name.to_string() } else { format!("(not {name})") }
            })
            .collect();
        let premise = match literals.len() {
            0 => "true".to_string(),
            1 => literals[0].clone(),
            _ => format!("(and {})", literals.join(" ")),
        };
        let explanation = explain(&worker, &compiled, &premise, None);
        let consistent = worker.verify(formula(&compiled, &premise), formula(&compiled, "true")).kind != FindingKind::Impossible;
        prop_assert_eq!(explanation.propagation.contradiction.is_none(), consistent);
        if consistent {
            agrees_with_the_solver(&compiled, &worker, &premise, &explanation.propagation);
        }
    }
}

/// An explanation interrupted while it runs leaves the solver as it found
/// it: the next one, with another premise, forces what that premise forces.
/// (Z3 keeps an interrupt that arrives between two checks and answers the
/// next check `sat` without looking at it; the worker's gate stops that.)
#[test]
fn an_interrupted_explanation_does_not_change_the_next_one() {
    let compiled = compile(&Project::load(&sample("park-admission")).unwrap().model);
    let worker = worker(&compiled, Duration::from_secs(5));
    let request = |premise: &str| ExplainRequest {
        premise: formula(&compiled, premise),
        claim: None,
        inputs: inputs(&compiled),
        budget: Budget::default(),
    };
    for round in 0..40u64 {
        let (reply, answer) = std::sync::mpsc::channel();
        let ticket = precept::explain::job::submit(&worker, request("isLowSeason"), reply);
        std::thread::sleep(Duration::from_micros(200 * (round % 20)));
        worker.cancel(ticket);
        let _ = answer.recv();
        let next = explain(&worker, &compiled, "(not isLowSeason)", None);
        assert!(
            next.propagation
                .forced
                .iter()
                .any(|f| f.variable == "isLowSeason" && f.value == Value::Bool(false)),
            "round {round}: {:?}",
            next.propagation
        );
    }
}

/// An explanation interrupted while it runs does not change the next
/// verify question on the same worker.
#[test]
fn an_interrupted_explanation_leaves_the_next_verify_right() {
    let compiled = compile(&Project::load(&sample("park-admission")).unwrap().model);
    let worker = worker(&compiled, Duration::from_secs(5));
    for round in 0..40u64 {
        let (reply, answer) = std::sync::mpsc::channel();
        let request = ExplainRequest {
            premise: formula(&compiled, "isLowSeason"),
            claim: None,
            inputs: inputs(&compiled),
            budget: Budget::default(),
        };
        let ticket = precept::explain::job::submit(&worker, request, reply);
        std::thread::sleep(Duration::from_micros(200 * (round % 20)));
        worker.cancel(ticket);
        let _ = answer.recv();
        let finding = worker.verify(
            formula(&compiled, "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4) (= creditUnits 0))"),
            formula(&compiled, "(not isEntryAllowed)"),
        );
        assert_eq!(
            finding.kind,
            FindingKind::Valid,
            "round {round}: {finding:?}"
        );
    }
}
