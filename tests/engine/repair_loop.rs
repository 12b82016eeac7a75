//! The expert's loop on every sample: the vetted sample lints with zero
//! errors; a realistic defect is put into one rule; a generated test whose
//! proved finding the expert disagrees with is rejected, becomes a failing
//! test whose evidence points at the defective rule, and passes again once
//! the rule is repaired.

use crate::support;

use precept::lint::{Severity, syntactic};
use precept::model::{CompiledModel, LogicTest, Project, TestStatus, compile};
use precept::solve::SolverWorker;
use precept::solve::lint_checks::LintEvent;
use precept::test_runner::run_tests;
use precept::testgen::generate::{generate, reject, to_proposed};
use std::time::Duration;
use support::sample;

fn worker(model: &CompiledModel) -> SolverWorker {
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker.load(model.clone()).expect("model loads");
    worker
}

fn lint_errors(project: &Project, compiled: &CompiledModel) -> Vec<String> {
    let mut report: Vec<(Severity, String)> = syntactic::check(&project.model, compiled)
        .into_iter()
        .map(|d| {
            (
                d.severity,
                format!("{} {} {:?}: {}", d.code.code(), d.name, d.rules, d.message),
            )
        })
        .collect();
    let solver = SolverWorker::spawn(Duration::from_secs(5));
    let (events, received) = std::sync::mpsc::channel();
    solver.lint(compiled.clone(), events);
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => report.push((
                d.severity,
                format!("{} {} {:?}: {}", d.code.code(), d.name, d.rules, d.message),
            )),
            LintEvent::Finished { .. } => break,
            LintEvent::Progress { .. } => {}
        }
    }
    println!("lint report for {}:", project.dir.display());
    for (severity, line) in &report {
        println!("  {severity:?} {line}");
    }
    report
        .into_iter()
        .filter(|(s, _)| *s == Severity::Error)
        .map(|(_, line)| line)
        .collect()
}

fn repair_loop(name: &str, rule: &str, defect: &str) {
    let project = Project::load(&sample(name)).unwrap();
    let vetted = project.compile_strict().unwrap();
    assert!(
        lint_errors(&project, &vetted).is_empty(),
        "{name} must lint with zero errors"
    );

    // The defect, as an unvetted formalization might have it.
    let mut defective_model = project.model.clone();
    defective_model
        .rules
        .iter_mut()
        .find(|r| r.id == rule)
        .unwrap()
        .expression = defect.to_string();
    let defective = compile(&defective_model);
    assert!(defective.issues.is_empty());

    // Generated tests are proved against the defective model; the expert
    // (here: the vetted model) disagrees with one that cites the defect.
    let defective_solver = worker(&defective);
    let expert = worker(&vetted);
    let generated = generate(&defective_solver, &defective, 200, 0);
    let disputed = generated
        .iter()
        .find(|g| {
            let (_, premise) = vetted.check_formula(&g.premise).unwrap();
            let (_, claim) = vetted.check_formula(&g.claim).unwrap();
            let judged = expert.verify(premise, claim);
            let cites = |f: &precept::solve::Finding| f.rules().iter().any(|r| r == rule);
            judged.kind != g.finding.kind && (cites(&g.finding) || cites(&judged))
        })
        .unwrap_or_else(|| panic!("{name}: no generated test exposes the defect in {rule}"));
    let (_, premise) = vetted.check_formula(&disputed.premise).unwrap();
    let (_, claim) = vetted.check_formula(&disputed.claim).unwrap();
    let expected = expert.verify(premise, claim).kind;

    let mut test: LogicTest = to_proposed(disputed, "T900".into());
    assert_eq!(test.status, TestStatus::Proposed);
    reject(&mut test, expected).unwrap();
    assert_eq!(test.status, TestStatus::Rejected);
    assert_eq!(test.expected, expected);

    // Against the defective model the rejected test fails, pointing at the rule.
    let outcome = &run_tests(&defective_solver, &defective, std::slice::from_ref(&test))[0];
    assert!(
        !outcome.passed,
        "{name}: the rejected test must fail before the repair"
    );
    let finding = outcome.finding.as_ref().unwrap();
    let rule_variables: Vec<&str> = defective.rule(rule).unwrap().written.symbols();
    let scenarios_differ_on_the_rule = match (
        &finding.claims_true_scenario,
        &finding.claims_false_scenario,
    ) {
        (Some(yes), Some(no)) => rule_variables
            .iter()
            .any(|v| yes.get(v).is_some() && yes.get(v) != no.get(v)),
        _ => false,
    };
    assert!(
        finding.rules().iter().any(|r| r == rule) || scenarios_differ_on_the_rule,
        "{name}: the failure points at {rule}: rules {:?}",
        finding.rules()
    );

    // The repair: the rule as vetted. The rejected test and the whole suite pass.
    let vetted_rule = vetted.rule(rule).unwrap().formula.clone();
    defective_solver.replace_rule(rule, Some(vetted_rule));
    let outcome = &run_tests(&defective_solver, &vetted, std::slice::from_ref(&test))[0];
    assert!(
        outcome.passed,
        "{name}: after the repair the test passes: {:?}",
        outcome.finding.as_ref().map(|f| f.kind)
    );
    let suite = run_tests(&defective_solver, &vetted, &project.tests.tests);
    assert!(
        suite.iter().all(|o| o.passed),
        "{name}: the suite passes after the repair"
    );
}

#[test]
fn airline_broad_rule_without_its_exceptions() {
    repair_loop(
        "airline-refunds",
        "R7",
        "(=> (and didFlightOperate (not didPassengerTravel)) (not isRefundEligible))",
    );
}

#[test]
fn park_senior_discount_not_capped_when_credits_are_used() {
    repair_loop(
        "park-admission",
        "R5",
        "(=> (and (= ageClass SENIOR) (> creditUnits 0)) (= discountRate 0.4))",
    );
}

#[test]
fn benefit_higher_savings_limit_off_by_one_year() {
    repair_loop(
        "benefit-eligibility",
        "R10",
        "(=> (> applicantAge 66) (= savingsLimit 25000.0))",
    );
}
