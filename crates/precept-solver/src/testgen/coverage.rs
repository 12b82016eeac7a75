//! Rule coverage: which rules take part in deciding the logic tests, and
//! with their condition true or false.
//!
//! Definitions (M is the conjunction of the rules, P a test's premise, Q its
//! claim, F its finding as the solver proves it now):
//!
//! - **Antecedent.** For a rule `(=> A C)` the antecedent is `A` and the
//!   conclusion `C` (for `(=> A1 ... An C)`, `(and A1 ... An)` and `C`). Any
//!   other rule has no antecedent; it is treated as `(=> true rule)`.
//! - **Cone of a test.** The rules sharing a connected component of the
//!   rule↔variable graph ([`RuleGraph`]) with the variables of P or Q. A rule
//!   outside the cone cannot change F while the policy is consistent. Being
//!   in the cone is necessary, not enough: a rule about something else can
//!   share a variable with the test.
//! - **Condition true.** A test exercises rule `r` with its antecedent true
//!   when `r` is in the minimal rule set of F (the rules that with P entail
//!   Q for VALID, refute it for INVALID, contradict P for IMPOSSIBLE; every
//!   rule of the set proved necessary by the solver) and `M ∧ P ∧ A` is
//!   satisfiable: the rule decides the finding in a scenario where it
//!   applies. For IMPOSSIBLE there is no scenario; the rules of the conflict
//!   count with their condition true (their clash is the finding).
//! - **Condition false.** A test exercises `r` with its antecedent false when
//!   `r` is in its cone, `M ∧ P ∧ ¬A` is satisfiable, and the finding would
//!   change if `r` applied there: asking P ∧ C instead of P gives another
//!   finding. (A rule that always applied, `C` in place of `(=> A C)`, makes
//!   the model `M ∧ C`, so that one question is the proof.) A rule proved
//!   necessary in F's rule set only through its contrapositive (A false in
//!   every scenario) counts here too.
//! - **Touched.** A test touches a rule when it exercises it either way, or
//!   the rule is in F's rule set.
//! - **Covered.** A rule is covered when it is exercised with its antecedent
//!   true and, if it has an antecedent, also with it false.
//!
//! So a SATISFIABLE test exercises only the rules whose firing would decide
//! its claim, and a test about a rider aged 15 does not cover a rule about
//! car licences at 17 just because both mention the age. Each check is a
//! solver question; a check the solver cannot settle (TOO_COMPLEX), or a
//! rule set not proved minimal, counts neither way and the test is listed as
//! undecided for the rule (a check that runs out of time counts neither
//! way). Only tests whose status counts
//! ([`crate::model::TestStatus::counts`]) are used; tests whose
//! premise or claim does not parse are skipped.
//!
//! How it is computed: each test's finding is proved once (or taken from a
//! test run), then the test's checks run as one task on a solver worker
//! (`coverage_checks.rs`), most of them answered by exact evaluation in
//! models already found and the rest in batches on the warm solver of the
//! test's cone (`coverage_models.rs`). Tests are shared out over a solver
//! pool by cone and merged in suite order. `tests/engine/coverage_equivalence.rs`
//! keeps the one-question-per-check computation and checks both agree.

use super::coverage_checks::{Exercise, RuleQuestions, Shared, TestJob, exercise};
use crate::model::graph::RuleGraph;
use crate::model::{CompiledModel, LogicTest};
use crate::smt::{Expr, ExprKind, Op, parse_expr};
use crate::solve::{FindingKind, SolverWorker};
use crate::test_runner::{TestCheckError, TestOutcome, check_test};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

/// How the tests exercise one rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleCoverage {
    pub id: String,
    /// The rule's antecedent as written; None when the rule is not an implication.
    pub antecedent: Option<String>,
    /// Whether some test takes the rule into deciding its finding.
    pub touched: bool,
    /// The tests that take the rule into deciding their finding, in suite order.
    pub touched_by: Vec<String>,
    /// The tests whose finding the rule decides where its antecedent is true.
    pub antecedent_true_by: Vec<String>,
    /// The tests whose finding would change if the rule applied where its
    /// antecedent is false.
    pub antecedent_false_by: Vec<String>,
    /// The tests for which the solver could not settle a check.
    pub undecided_by: Vec<String>,
}

impl RuleCoverage {
    /// Exercised with the antecedent true and, when it has one, false too.
    pub fn covered(&self) -> bool {
        !self.antecedent_true_by.is_empty()
            && (self.antecedent.is_none() || !self.antecedent_false_by.is_empty())
    }
}

/// Counts and percentages over the rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageTotals {
    pub rules: usize,
    /// Rules that are implications (have an antecedent).
    pub rules_with_antecedent: usize,
    pub touched: usize,
    pub touched_percent: f64,
    pub antecedent_true: usize,
    /// Over all rules.
    pub antecedent_true_percent: f64,
    pub antecedent_false: usize,
    /// Over the rules with an antecedent.
    pub antecedent_false_percent: f64,
    pub covered: usize,
    pub covered_percent: f64,
}

/// A test left out of the coverage and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedTest {
    pub id: String,
    pub reason: String,
}

/// The rule coverage of a test suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoverageReport {
    /// The tests used, in suite order.
    pub tests_used: Vec<String>,
    pub skipped_tests: Vec<SkippedTest>,
    /// One entry per rule, in model order.
    pub rules: Vec<RuleCoverage>,
    /// The rules no test touches.
    pub untouched: Vec<String>,
    pub totals: CoverageTotals,
    /// The tests a wall-clock budget left unevaluated, in suite order: the
    /// rules they would exercise count neither way for them (skipped, not
    /// passed). Absent when the budget left none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub over_budget: Vec<String>,
}

/// A rule's antecedent as written: `A` for `(=> A C)`, `(and A1 ... An)` for
/// `(=> A1 ... An C)`, None for a rule that is not an implication.
pub fn antecedent(rule: &Expr) -> Option<Expr> {
    match &rule.kind {
        ExprKind::App(Op::Implies, args) if args.len() >= 2 => {
            let premises = &args[..args.len() - 1];
            Some(if premises.len() == 1 {
                premises[0].clone()
            } else {
                Expr::app(Op::And, premises.to_vec())
            })
        }
        _ => None,
    }
}

/// The rule↔variable graph of a compiled model.
pub fn rule_graph(model: &CompiledModel) -> RuleGraph {
    RuleGraph::build(
        model.variables.iter().map(|(name, _)| name.as_str()),
        model.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    )
}

/// The declared variables a premise and claim mention.
pub fn question_variables<'a>(
    model: &CompiledModel,
    premise: &'a Expr,
    claim: &'a Expr,
) -> Vec<&'a str> {
    let mut names: Vec<&str> = premise
        .symbols()
        .into_iter()
        .chain(claim.symbols())
        .filter(|s| model.vocabulary.variable_sort(s).is_some())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether `rule` is in the cone of influence of a question over `variables`.
pub fn in_cone(graph: &RuleGraph, rule: &str, variables: &[&str]) -> bool {
    let rule_variables = graph.variables_of(rule);
    let components = graph.components_of(rule_variables.iter().map(String::as_str));
    graph.may_depend(variables.iter().copied(), &components)
}

/// One test's exercise of each rule of its cone (by position in the model).
type Exercises = Vec<(usize, Exercise)>;

/// A counting test, parsed as written.
struct ParsedTest<'a> {
    test: &'a LogicTest,
    /// Its position in the suite.
    position: usize,
    premise: Expr,
    /// The claim, elaborated for the solver.
    claim: Expr,
    variables: Vec<String>,
}

/// Parses the counting tests; the others are skipped with a reason.
fn parse_tests<'a>(
    model: &CompiledModel,
    tests: &'a [LogicTest],
) -> (Vec<ParsedTest<'a>>, Vec<SkippedTest>) {
    let mut parsed = Vec::new();
    let mut skipped = Vec::new();
    for (position, test) in tests.iter().enumerate() {
        if !test.status.counts() {
            continue;
        }
        let checked = (|| -> Result<_, TestCheckError> {
            let (_, elaborated_claim) = check_test(model, test)?;
            let premise = parse_expr(&test.premise).map_err(TestCheckError::Premise)?;
            let claim = parse_expr(&test.claim).map_err(TestCheckError::Claim)?;
            let variables = question_variables(model, &premise, &claim)
                .into_iter()
                .map(str::to_string)
                .collect();
            Ok((premise, elaborated_claim, variables))
        })();
        match checked {
            Ok((premise, claim, variables)) => parsed.push(ParsedTest {
                test,
                position,
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

/// Whether `M ∧ formula` is satisfiable: Some(true) / Some(false), or None
/// when the solver could not settle it. `formula` is written (not
/// elaborated); it is printed and checked against the model first. One full
/// question on the worker: for a few checks, not for many.
pub fn satisfiable(worker: &SolverWorker, model: &CompiledModel, formula: &Expr) -> Option<bool> {
    let text = formula.to_string();
    let (_, elaborated) = model.check_formula(&text).ok()?;
    let finding = worker.verify(elaborated, Expr::new(ExprKind::Bool(true)));
    match finding.kind {
        FindingKind::Impossible => Some(false),
        FindingKind::Valid | FindingKind::Invalid | FindingKind::Satisfiable => Some(true),
        _ => None,
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// Computes the rule coverage of `tests` on a worker that has `model` loaded.
pub fn rule_coverage(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
) -> CoverageReport {
    rule_coverage_within(std::slice::from_ref(worker), model, tests, &[], None)
}

/// The same report, with the tests shared out over `workers`
/// (every one with `model` loaded) by cone, merged in suite order: it does
/// not depend on the number of workers.
pub fn rule_coverage_pooled(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
) -> CoverageReport {
    rule_coverage_within(workers, model, tests, &[], None)
}

/// As [`rule_coverage_pooled`], taking each test's finding from `outcomes`
/// (a run of the same `tests` on the same model, in the same order, as the
/// report makes just before) instead of proving it again; a test without
/// a finding there is proved here.
pub fn rule_coverage_with_outcomes(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
    outcomes: &[TestOutcome],
) -> CoverageReport {
    rule_coverage_within(workers, model, tests, outcomes, None)
}

/// A rule's conclusion: `C` of `(=> A .. C)`; None for other rules.
pub fn conclusion(rule: &Expr) -> Option<Expr> {
    match &rule.kind {
        ExprKind::App(Op::Implies, args) if args.len() >= 2 => args.last().cloned(),
        _ => None,
    }
}

/// Each rule's antecedent, its negation and its conclusion, elaborated
/// once (as the checks of `(and P X)` elaborate them), with the formulas
/// shared by rules that have the same ones.
fn shared_questions(model: &CompiledModel, graph: &RuleGraph) -> Shared {
    let mut formulas: Vec<Expr> = Vec::new();
    let mut known: HashMap<String, usize> = HashMap::new();
    let mut add = |written: Expr| -> Option<usize> {
        let (_, elaborated) = model.check_formula(&written.to_string()).ok()?;
        let next = formulas.len();
        let position = *known.entry(elaborated.to_string()).or_insert(next);
        if position == next {
            formulas.push(elaborated);
        }
        Some(position)
    };
    let rules = model
        .rules
        .iter()
        .map(|rule| {
            let antecedent = antecedent(&rule.written);
            let conclusion = conclusion(&rule.written);
            RuleQuestions {
                id: rule.id.clone(),
                implication: antecedent.is_some() && conclusion.is_some(),
                holds: antecedent.clone().and_then(&mut add),
                fails: antecedent
                    .map(|a| Expr::app(Op::Not, vec![a]))
                    .and_then(&mut add),
                concludes: conclusion.and_then(&mut add),
                variables: graph.variables_of(&rule.id),
            }
        })
        .collect();
    Shared {
        rules,
        formulas,
        enum_values: model
            .enums
            .iter()
            .flat_map(|(_, values)| values.iter().cloned())
            .collect(),
    }
}

/// Tests (positions among the parsed ones) sharing the groups of rules
/// their variables touch: one worker runs them in order, with its warm
/// solver of that cone; the largest share first (ties by first test).
fn shares(groups: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    let mut by_cone: BTreeMap<&BTreeSet<usize>, Vec<usize>> = BTreeMap::new();
    for (i, group) in groups.iter().enumerate() {
        by_cone.entry(group).or_default().push(i);
    }
    let mut shares: Vec<Vec<usize>> = by_cone.into_values().collect();
    shares.sort_by_key(|s| (std::cmp::Reverse(s.len()), s[0]));
    shares
}

/// As [`rule_coverage_with_outcomes`], starting no test's checks after
/// `deadline`: the tests left are listed in the report's `over_budget`.
/// A test whose checks started in time is finished, so a test's coverage
/// is never partial.
pub fn rule_coverage_within(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
    outcomes: &[TestOutcome],
    deadline: Option<std::time::Instant>,
) -> CoverageReport {
    let graph = rule_graph(model);
    let (parsed, skipped_tests) = parse_tests(model, tests);
    let shared = Arc::new(shared_questions(model, &graph));
    let rule_groups: Vec<BTreeSet<usize>> = shared
        .rules
        .iter()
        .map(|r| graph.components_of(r.variables.iter().map(String::as_str)))
        .collect();
    let test_groups: Vec<BTreeSet<usize>> = parsed
        .iter()
        .map(|t| graph.components_of(t.variables.iter().map(String::as_str)))
        .collect();
    // A finding from `outcomes` only when they are a run of these tests.
    let aligned =
        outcomes.len() == tests.len() && outcomes.iter().zip(tests).all(|(o, t)| o.id == t.id);
    let jobs: Vec<Mutex<Option<TestJob>>> = parsed
        .iter()
        .zip(&test_groups)
        .map(|(t, group)| {
            Mutex::new(Some(TestJob {
                premise: model
                    .check_formula(&t.premise.to_string())
                    .ok()
                    .map(|(_, e)| e),
                claim: t.claim.clone(),
                variables: t.variables.clone(),
                finding: outcomes
                    .get(t.position)
                    .filter(|_| aligned)
                    .and_then(|o| o.finding.clone()),
                // In the cone: the rule shares a group with the test.
                cone: (0..rule_groups.len())
                    .filter(|&r| !rule_groups[r].is_disjoint(group))
                    .collect(),
            }))
        })
        .collect();
    let shares = shares(&test_groups);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Checked>>> = Mutex::new(vec![None; parsed.len()]);
    std::thread::scope(|scope| {
        for worker in workers {
            scope.spawn(|| {
                while let Some(share) = shares.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let share_jobs: Vec<(usize, TestJob)> = share
                        .iter()
                        .filter_map(|&i| {
                            let mut job = jobs[i].lock().unwrap_or_else(|p| p.into_inner());
                            job.take().map(|job| (i, job))
                        })
                        .collect();
                    let found = run_share(worker, model, &parsed, share_jobs, &shared, deadline);
                    let mut results = results.lock().unwrap_or_else(|p| p.into_inner());
                    for (i, exercises) in found {
                        results[i] = Some(exercises);
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    let over_budget: Vec<String> = parsed
        .iter()
        .zip(&results)
        .filter(|(_, r)| matches!(r, Some(Checked::OverBudget)))
        .map(|(t, _)| t.test.id.clone())
        .collect();
    let mut rules: Vec<RuleCoverage> = model
        .rules
        .iter()
        .map(|rule| RuleCoverage {
            id: rule.id.clone(),
            antecedent: antecedent(&rule.written).map(|a| a.to_string()),
            touched: false,
            touched_by: Vec::new(),
            antecedent_true_by: Vec::new(),
            antecedent_false_by: Vec::new(),
            undecided_by: Vec::new(),
        })
        .collect();
    for ((test, exercises), group) in parsed.iter().zip(results).zip(&test_groups) {
        // A test whose job never answered (the worker stopped) is undecided
        // for every rule of its cone.
        let exercises = match exercises {
            Some(Checked::OverBudget) => continue,
            Some(Checked::Done(exercises)) => Some(exercises),
            None => None,
        };
        let exercises = exercises.unwrap_or_else(|| {
            (0..rule_groups.len())
                .filter(|&r| !rule_groups[r].is_disjoint(group))
                .map(|r| {
                    let undecided = Exercise {
                        undecided: true,
                        ..Exercise::default()
                    };
                    (r, undecided)
                })
                .collect()
        });
        let id = &test.test.id;
        for (r, exercise) in exercises {
            let rule = &mut rules[r];
            let lists = [
                (exercise.when_true, &mut rule.antecedent_true_by),
                (exercise.when_false, &mut rule.antecedent_false_by),
                (exercise.touched, &mut rule.touched_by),
                (exercise.undecided, &mut rule.undecided_by),
            ];
            for (yes, list) in lists {
                if yes {
                    list.push(id.clone());
                }
            }
        }
    }
    for rule in &mut rules {
        rule.touched = !rule.touched_by.is_empty();
    }
    let mut report = report(
        parsed.iter().map(|t| t.test.id.clone()).collect(),
        skipped_tests,
        rules,
    );
    report.over_budget = over_budget;
    report
}

/// What became of one test's checks.
#[derive(Clone)]
enum Checked {
    Done(Exercises),
    /// Not started: the budget had run out.
    OverBudget,
}

/// Proves the findings a share's tests lack, then runs each test's checks
/// as a task of its own (one request deadline each) on `worker`.
fn run_share(
    worker: &SolverWorker,
    model: &CompiledModel,
    parsed: &[ParsedTest<'_>],
    mut jobs: Vec<(usize, TestJob)>,
    shared: &Arc<Shared>,
    deadline: Option<std::time::Instant>,
) -> Vec<(usize, Checked)> {
    let (reply, replies) = mpsc::channel();
    let mut asked = HashMap::new();
    let over = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    for (position, (i, job)) in jobs.iter().enumerate() {
        if job.finding.is_none()
            && !over()
            && let Ok((premise, _)) = check_test(model, parsed[*i].test)
        {
            let ticket = worker.submit(premise, job.claim.clone(), reply.clone());
            asked.insert(ticket, position);
        }
    }
    drop(reply);
    for answer in replies.iter() {
        if let Some(&position) = asked.get(&answer.ticket) {
            jobs[position].1.finding = Some(answer.finding);
        }
    }
    let (reply, replies) = mpsc::channel();
    for (i, job) in jobs {
        let reply = reply.clone();
        let shared = Arc::clone(shared);
        worker.submit_task(Box::new(move |session, interruption| {
            let checked = match deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                true => Checked::OverBudget,
                false => Checked::Done(exercise(session, interruption, &job, &shared)),
            };
            let _ = reply.send((i, checked));
        }));
    }
    drop(reply);
    replies.iter().collect()
}

/// The report from each rule's coverage, with the totals.
fn report(
    tests_used: Vec<String>,
    skipped_tests: Vec<SkippedTest>,
    rules: Vec<RuleCoverage>,
) -> CoverageReport {
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
        tests_used,
        skipped_tests,
        rules,
        untouched,
        totals,
        over_budget: Vec::new(),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn antecedents_of_implications_only() {
        let rule = parse_expr("(=> (> x 1) y)").unwrap();
        assert_eq!(antecedent(&rule).unwrap().to_string(), "(> x 1)");
        let chained = parse_expr("(=> a b c)").unwrap();
        assert_eq!(antecedent(&chained).unwrap().to_string(), "(and a b)");
        assert!(antecedent(&parse_expr("(= x 1)").unwrap()).is_none());
    }

    #[test]
    fn percentages_round_to_one_place() {
        assert_eq!(percent(1, 3), 33.3);
        assert_eq!(percent(2, 3), 66.7);
        assert_eq!(percent(0, 0), 0.0);
    }
}
