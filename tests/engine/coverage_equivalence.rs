//! The fast rule coverage (`testgen/coverage*.rs`: kept models, exact
//! evaluation, batched checks over a solver pool) gives the same report,
//! byte for byte as JSON, as the straightforward definition: one full
//! solver question per check, kept here as the reference. Checked on the
//! samples, the CBT lab model with generated tests, small random models and
//! a section of the synthetic benchmark model; and the report does not
//! depend on the number of workers.

use crate::support;
use crate::synthetic;

use precept::model::graph::RuleGraph;
use precept::model::{CompiledModel, LogicTest, PolicyModel, Project, TestSuite, compile};
use precept::scheduler::Scheduler;
use precept::smt::{Expr, Op, parse_expr};
use precept::solve::{Finding, FindingKind, SolverWorker};
use precept::test_runner::{TestCheckError, check_test, run_tests};
use precept::testgen::coverage::{
    CoverageReport, CoverageTotals, RuleCoverage, SkippedTest, antecedent, conclusion, in_cone,
    question_variables, rule_coverage, rule_coverage_pooled, rule_coverage_with_outcomes,
    rule_graph, satisfiable,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::Duration;
use support::{sample, worker};

const TIMEOUT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------
// The reference: the definition of `coverage.rs`, one question per check.
// ---------------------------------------------------------------------

struct ParsedTest<'a> {
    test: &'a LogicTest,
    premise: Expr,
    claim: Expr,
    variables: Vec<String>,
}

fn parse_tests<'a>(
    model: &CompiledModel,
    tests: &'a [LogicTest],
) -> (Vec<ParsedTest<'a>>, Vec<SkippedTest>) {
    let mut parsed = Vec::new();
    let mut skipped = Vec::new();
    for test in tests.iter().filter(|t| t.status.counts()) {
        let checked = (|| -> Result<_, TestCheckError> {
            let (_, claim) = check_test(model, test)?;
            let premise = parse_expr(&test.premise).map_err(TestCheckError::Premise)?;
            let written_claim = parse_expr(&test.claim).map_err(TestCheckError::Claim)?;
            let variables = question_variables(model, &premise, &written_claim)
                .into_iter()
                .map(str::to_string)
                .collect();
            Ok((premise, claim, variables))
        })();
        match checked {
            Ok((premise, claim, variables)) => parsed.push(ParsedTest {
                test,
                premise,
                claim,
                variables,
            }),
            Err(reason) => skipped.push(SkippedTest {
                id: test.id.clone(),
                reason: reason.to_string(),
            }),
        }
    }
    (parsed, skipped)
}

/// Every satisfiability check and finding as a full question, memoized by text.
struct Questions<'a> {
    worker: &'a SolverWorker,
    model: &'a CompiledModel,
    known: HashMap<String, Option<bool>>,
    findings: HashMap<String, Option<FindingKind>>,
}

impl Questions<'_> {
    fn finding_kind(&mut self, premise: &Expr, claim: &Expr) -> Option<FindingKind> {
        let key = format!("{premise}\u{0}{claim}");
        if let Some(&known) = self.findings.get(&key) {
            return known;
        }
        let answer = self
            .model
            .check_formula(&premise.to_string())
            .ok()
            .map(|(_, elaborated)| self.worker.verify(elaborated, claim.clone()).kind);
        self.findings.insert(key, answer);
        answer
    }

    fn check(&mut self, formula: Expr) -> Option<bool> {
        let key = formula.to_string();
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let answer = satisfiable(self.worker, self.model, &formula);
        self.known.insert(key, answer);
        answer
    }
}

fn and(left: &Expr, right: Expr) -> Expr {
    Expr::app(Op::And, vec![left.clone(), right])
}

fn not(expr: Expr) -> Expr {
    Expr::app(Op::Not, vec![expr])
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

fn decided(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::Valid
            | FindingKind::Invalid
            | FindingKind::Satisfiable
            | FindingKind::Impossible
    )
}

fn reference_coverage(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
) -> CoverageReport {
    let graph = rule_graph(model);
    let (parsed, skipped_tests) = parse_tests(model, tests);
    let mut questions = Questions {
        worker,
        model,
        known: HashMap::new(),
        findings: HashMap::new(),
    };
    let findings: Vec<Option<Finding>> = parsed
        .iter()
        .map(|t| {
            let (premise, _) = check_test(model, t.test).ok()?;
            Some(worker.verify(premise, t.claim.clone()))
        })
        .collect();
    let rules: Vec<RuleCoverage> = model
        .rules
        .iter()
        .map(|rule| {
            reference_rule(
                &rule.id,
                &rule.written,
                &graph,
                &parsed,
                &findings,
                &mut questions,
            )
        })
        .collect();
    let untouched: Vec<String> = rules
        .iter()
        .filter(|r| !r.touched)
        .map(|r| r.id.clone())
        .collect();
    let count = |f: &dyn Fn(&RuleCoverage) -> bool| rules.iter().filter(|r| f(r)).count();
    let with_antecedent = count(&|r| r.antecedent.is_some());
    let touched = count(&|r| r.touched);
    let antecedent_true = count(&|r| !r.antecedent_true_by.is_empty());
    let antecedent_false = count(&|r| !r.antecedent_false_by.is_empty());
    let covered = count(&|r| r.covered());
    let totals = CoverageTotals {
        rules: rules.len(),
        rules_with_antecedent: with_antecedent,
        touched,
        touched_percent: percent(touched, rules.len()),
        antecedent_true,
        antecedent_true_percent: percent(antecedent_true, rules.len()),
        antecedent_false,
        antecedent_false_percent: percent(antecedent_false, with_antecedent),
        covered,
        covered_percent: percent(covered, rules.len()),
    };
    CoverageReport {
        over_budget: Vec::new(),
        tests_used: parsed.iter().map(|t| t.test.id.clone()).collect(),
        skipped_tests,
        rules,
        untouched,
        totals,
    }
}

fn reference_rule(
    id: &str,
    written: &Expr,
    graph: &RuleGraph,
    tests: &[ParsedTest<'_>],
    findings: &[Option<Finding>],
    questions: &mut Questions<'_>,
) -> RuleCoverage {
    let antecedent = antecedent(written);
    let conclusion = conclusion(written);
    let mut coverage = RuleCoverage {
        id: id.to_string(),
        antecedent: antecedent.as_ref().map(ToString::to_string),
        touched: false,
        touched_by: Vec::new(),
        antecedent_true_by: Vec::new(),
        antecedent_false_by: Vec::new(),
        undecided_by: Vec::new(),
    };
    for (test, finding) in tests.iter().zip(findings) {
        let variables: Vec<&str> = test.variables.iter().map(String::as_str).collect();
        if !in_cone(graph, id, &variables) {
            continue;
        }
        let test_id = test.test.id.clone();
        let Some(finding) = finding.as_ref().filter(|f| decided(f.kind)) else {
            coverage.undecided_by.push(test_id);
            continue;
        };
        let in_rule_set = finding.rules().iter().any(|r| r == id);
        if in_rule_set && !finding.rules_minimal {
            coverage.undecided_by.push(test_id);
            continue;
        }
        let mut undecided = false;
        let (mut when_true, mut when_false) = (false, false);
        if in_rule_set {
            if finding.kind == FindingKind::Impossible {
                when_true = true;
            } else {
                match &antecedent {
                    None => when_true = true,
                    Some(a) => {
                        match questions.check(and(&test.premise, a.clone())) {
                            Some(possible) => when_true = possible,
                            None => undecided = true,
                        }
                        match questions.check(and(&test.premise, not(a.clone()))) {
                            Some(possible) => when_false = possible,
                            None => undecided = true,
                        }
                    }
                }
            }
        }
        if let (Some(a), Some(c), false) = (&antecedent, &conclusion, when_false)
            && finding.kind != FindingKind::Impossible
        {
            match questions.check(and(&test.premise, not(a.clone()))) {
                Some(false) => {}
                None => undecided = true,
                Some(true) => {
                    match questions.finding_kind(&and(&test.premise, c.clone()), &test.claim) {
                        Some(kind) if decided(kind) => when_false = kind != finding.kind,
                        _ => undecided = true,
                    }
                }
            }
        }
        if when_true {
            coverage.antecedent_true_by.push(test_id.clone());
        }
        if when_false {
            coverage.antecedent_false_by.push(test_id.clone());
        }
        if in_rule_set || when_true || when_false {
            coverage.touched_by.push(test_id.clone());
        }
        if undecided {
            coverage.undecided_by.push(test_id);
        }
    }
    coverage.touched = !coverage.touched_by.is_empty();
    coverage
}

// ---------------------------------------------------------------------
// The comparisons.
// ---------------------------------------------------------------------

fn json_of(report: &CoverageReport) -> String {
    serde_json::to_string_pretty(report).unwrap()
}

fn pool(model: &CompiledModel, jobs: usize) -> Scheduler {
    let pool = Scheduler::new(jobs, TIMEOUT);
    pool.load(model).expect("loads");
    pool
}

/// The fast report equals the reference, on one worker and on two, and
/// with the findings taken from a test run; returns it.
fn assert_same_as_reference(model: &CompiledModel, tests: &[LogicTest]) -> CoverageReport {
    let reference = json_of(&reference_coverage(&worker(model, TIMEOUT), model, tests));
    let one = rule_coverage(&worker(model, TIMEOUT), model, tests);
    assert_eq!(
        json_of(&one),
        reference,
        "one worker differs from the reference"
    );
    let two = pool(model, 2);
    assert_eq!(
        json_of(&rule_coverage_pooled(two.workers(), model, tests)),
        reference,
        "two workers differ from the reference"
    );
    let outcomes = run_tests(&worker(model, TIMEOUT), model, tests);
    assert_eq!(
        json_of(&rule_coverage_with_outcomes(
            two.workers(),
            model,
            tests,
            &outcomes
        )),
        reference,
        "the report from a test run's findings differs from the reference"
    );
    one
}

fn load(name: &str) -> (CompiledModel, Vec<LogicTest>) {
    let project = Project::load(&sample(name)).expect("loads");
    (
        project.compile_strict().expect("compiles"),
        project.tests.tests,
    )
}

#[test]
fn samples_match_the_reference() {
    for name in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        let (model, tests) = load(name);
        let report = assert_same_as_reference(&model, &tests);
        // Not a vacuous comparison: the samples' tests exercise rules both ways.
        assert!(report.totals.touched > 0, "{name}: nothing touched");
        assert!(report.totals.antecedent_false > 0, "{name}: nothing false");
    }
}

/// The CBT lab model (no tests of its own) with tests generated on it.
#[test]
fn cbt_lab_model_with_generated_tests_matches_the_reference() {
    let project =
        Project::load(&support::test_data("lab/cbt-llm-model")).expect("the CBT lab model loads");
    let model = project.compile_strict().expect("the CBT model compiles");
    let generated = precept::testgen::generate::generate(&worker(&model, TIMEOUT), &model, 30, 0);
    let tests: Vec<LogicTest> = generated
        .iter()
        .enumerate()
        .map(|(i, g)| {
            LogicTest::new(
                format!("G{}", i + 1),
                format!("generated {i}"),
                g.premise.clone(),
                g.claim.clone(),
                g.finding.kind,
            )
        })
        .collect();
    assert!(tests.len() >= 10, "only {} tests generated", tests.len());
    let report = assert_same_as_reference(&model, &tests);
    assert!(report.totals.touched > 0);
}

/// One section of the synthetic benchmark model (75 rules) with some of its
/// tests: SATISFIABLE, IMPOSSIBLE and INVALID ones.
#[test]
fn a_synthetic_section_matches_the_reference() {
    let (model, tests) = synthetic_sections(1, 15);
    let report = assert_same_as_reference(&model, &tests);
    assert_eq!(report.tests_used.len(), 15);
    // The INVALID tests' rule R_k applies where the premise sets its flag.
    assert!(report.totals.antecedent_true > 0);
}

/// On two sections with all their tests, one worker and two agree.
#[test]
fn synthetic_sections_do_not_depend_on_the_worker_count() {
    let (model, tests) = synthetic_sections(2, synthetic::TESTS_PER_SECTION);
    let one = rule_coverage(&worker(&model, TIMEOUT), &model, &tests);
    let two = rule_coverage_pooled(pool(&model, 2).workers(), &model, &tests);
    assert_eq!(json_of(&one), json_of(&two));
    assert_eq!(one.tests_used.len(), 2 * synthetic::TESTS_PER_SECTION);
    assert!(
        one.undecided_count() == 0,
        "undecided checks on an easy model"
    );
}

trait Undecided {
    fn undecided_count(&self) -> usize;
}

impl Undecided for CoverageReport {
    fn undecided_count(&self) -> usize {
        self.rules.iter().map(|r| r.undecided_by.len()).sum()
    }
}

/// The first `sections` sections of the synthetic model, with the first
/// `tests` tests of each.
fn synthetic_sections(sections: usize, tests: usize) -> (CompiledModel, Vec<LogicTest>) {
    let (model, suite) = synthetic::synthetic();
    let rules = sections * synthetic::RULES_PER_SECTION;
    let in_sections = |name: &str| (0..sections).any(|s| name.starts_with(&format!("s{s}_")));
    let model = PolicyModel {
        variables: model
            .variables
            .into_iter()
            .filter(|v| in_sections(&v.name))
            .collect(),
        rules: model.rules.into_iter().take(rules).collect(),
        ..model
    };
    let suite = TestSuite {
        tests: suite
            .tests
            .into_iter()
            .enumerate()
            .filter(|(i, _)| {
                i / synthetic::TESTS_PER_SECTION < sections
                    && i % synthetic::TESTS_PER_SECTION < tests
            })
            .map(|(_, t)| t)
            .collect(),
        ..suite
    };
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    (compiled, suite.tests)
}

// ---------------------------------------------------------------------
// Small random models.
// ---------------------------------------------------------------------

fn int(c: i8) -> String {
    if c < 0 {
        format!("(- {})", -(c as i32))
    } else {
        c.to_string()
    }
}

/// Rules over four Ints, two Reals and three Bools: implications with one or
/// two conditions, and plain constraints (no antecedent).
fn random_model(rules: &[(u8, u8, u8, i8, u8)]) -> CompiledModel {
    let ops = ["<", "<=", ">", ">=", "="];
    let mut variables: Vec<Value> = (0..4)
        .map(|i| json!({ "name": format!("x{i}"), "type": "Int" }))
        .collect();
    variables.extend((0..2).map(|i| json!({ "name": format!("r{i}"), "type": "Real" })));
    variables.extend((0..3).map(|i| json!({ "name": format!("b{i}"), "type": "Bool" })));
    let rules: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, &(shape, flag, x, c, op))| {
            let (flag, x, op, c) = (flag % 3, x % 4, ops[op as usize % ops.len()], int(c));
            let expression = match shape % 4 {
                0 => format!("(=> b{flag} ({op} x{x} {c}))"),
                1 => format!("(=> (and b{flag} ({op} x{x} {c})) b{})", (flag + 1) % 3),
                2 => format!("({op} x{x} {c})"),
                _ => format!(
                    "(=> ({op} x{x} {c}) (>= r{} (+ r{} 1.5)))",
                    flag % 2,
                    (flag + 1) % 2
                ),
            };
            json!({ "id": format!("R{}", i + 1), "expression": expression })
        })
        .collect();
    let model = json!({ "schema_version": 1, "variables": variables, "rules": rules });
    let policy = serde_json::from_value(model).unwrap();
    let compiled = compile(&policy);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    compiled
}

fn random_tests(tests: &[(u8, u8, i8, u8)]) -> Vec<LogicTest> {
    tests
        .iter()
        .enumerate()
        .map(|(i, &(flag, x, c, shape))| {
            let premise = match shape % 3 {
                0 => format!("(and b{} (> x{} {}))", flag % 3, x % 4, int(c)),
                1 => format!("(< x{} {})", x % 4, int(c)),
                _ => format!("(and (not b{}) (> r{} {}.5))", flag % 3, x % 2, c),
            };
            let claim = match shape % 2 {
                0 => format!("b{}", (flag + 1) % 3),
                _ => format!("(<= x{} {})", (x + 1) % 4, int(c)),
            };
            LogicTest::new(
                format!("T{}", i + 1),
                format!("random question {i}"),
                premise,
                claim,
                FindingKind::Satisfiable,
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_models_match_the_reference(
        rules in prop::collection::vec((0u8..4, 0u8..3, 0u8..4, -5i8..6, 0u8..5), 2..8),
        tests in prop::collection::vec((0u8..3, 0u8..4, -5i8..6, 0u8..6), 1..7),
    ) {
        let model = random_model(&rules);
        let suite = random_tests(&tests);
        let reference = json_of(&reference_coverage(&worker(&model, TIMEOUT), &model, &suite));
        let fast = json_of(&rule_coverage_pooled(pool(&model, 2).workers(), &model, &suite));
        prop_assert_eq!(fast, reference);
    }
}
