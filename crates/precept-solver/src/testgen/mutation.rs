//! Mutation score: how many small, plausible mistakes in the rules the logic
//! tests would catch.
//!
//! A *mutant* changes one place in one rule (as written):
//! - `flip-comparison`: `<` ↔ `>=`, `<=` ↔ `>`, `>` ↔ `<=`, `>=` ↔ `<`, and
//!   `=` ↔ `distinct` between numbers (two-argument terms only);
//! - `step-constant`: a numeric literal moves one step up and one step down
//!   (Int ±1; a decimal ± one unit of its last decimal place, ±1.0 for a
//!   whole number written as a decimal);
//! - `drop-conjunct`: one argument of an `and` is left out;
//! - `swap-and-or`: `and` becomes `or` and vice versa;
//! - `negate-consequent`: the consequent `C` of `(=> A C)` becomes `(not C)`.
//!
//! Mutants come in a fixed order: rules in model order, places in pre-order,
//! kinds in the order above. A mutant that does not type-check or repeats an
//! earlier mutant of the same rule (or the rule itself) is left out.
//!
//! A mutant is *killed* when some counting test that passes on the original
//! model fails on the mutant. Findings the solver cannot settle (TOO_COMPLEX)
//! never kill; a mutant with such findings and no failing test is
//! *undecided*. Surviving mutants point at places where the suite is weak,
//! unless the mutant is *equivalent*: the solver proves that the mutated
//! model and the original entail each other (each entails the other's
//! version of the rule), so no test can tell them apart.
//!
//! **The score** is computed here and nowhere else:
//! killed / (killed + survived − equivalent). Proved equivalent mutants are
//! left out (no test could kill them), and so are undecided ones (the
//! solver ran out of time: neither killed nor survived); both are counted
//! and shown next to the score. [`MutationReport::summary`] is the one text
//! of it that the CLI, the status line and the Coverage pane all show, with
//! one decimal ([`super::report_text::score_text`]), and says when only a sample of the
//! mutants was evaluated.

use super::coverage::{in_cone, question_variables, rule_graph};
use super::report_text::{score_text, thousands};
use crate::model::finding::Scenario;
use crate::model::{CompiledModel, LogicTest};
use crate::smt::number::finite_decimal;
use crate::smt::{Expr, ExprKind, Op, parse_expr};
use crate::solve::{FindingKind, SolverWorker};
use crate::test_runner::{TestOutcome, check_test, run_tests};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};
use serde::Serialize;
use std::collections::HashSet;

/// The kinds of mutation, in the order they are generated at one place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MutationKind {
    FlipComparison,
    StepConstant,
    DropConjunct,
    SwapAndOr,
    NegateConsequent,
}

impl MutationKind {
    pub fn name(self) -> &'static str {
        match self {
            MutationKind::FlipComparison => "flip-comparison",
            MutationKind::StepConstant => "step-constant",
            MutationKind::DropConjunct => "drop-conjunct",
            MutationKind::SwapAndOr => "swap-and-or",
            MutationKind::NegateConsequent => "negate-consequent",
        }
    }
}

impl std::fmt::Display for MutationKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One mutated rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mutant {
    pub rule: String,
    pub kind: MutationKind,
    pub description: String,
    /// The mutated rule, printed canonically.
    pub mutated: String,
    /// The mutated rule, elaborated for the solver.
    #[serde(skip)]
    pub formula: Expr,
}

/// What the suite made of one mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MutantStatus {
    Killed,
    Survived,
    /// The solver could not settle some test, and no test failed.
    Undecided,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MutantResult {
    #[serde(flatten)]
    pub mutant: Mutant,
    pub status: MutantStatus,
    /// The first test that failed on the mutant.
    pub killed_by: Option<String>,
    /// Whether the mutant makes the rules contradict each other.
    pub makes_policy_inconsistent: bool,
    /// How many tests were run against it.
    pub tests_run: usize,
    /// For a survivor: proved to mean the same as the original model.
    pub equivalent: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MutationReport {
    /// Mutants generated before any limit.
    pub generated: usize,
    pub evaluated: usize,
    pub killed: usize,
    pub survived: usize,
    pub undecided: usize,
    /// Survivors proved equivalent to the original model.
    pub equivalent: usize,
    /// The mutants the score is over: killed + survived − equivalent.
    pub scored: usize,
    /// killed / scored; None when no mutant could be scored.
    pub score: Option<f64>,
    /// The same as `score` (kept for older readers of the JSON).
    pub score_without_equivalent: Option<f64>,
    /// The score as shown everywhere: one decimal, or "n/a".
    pub score_text: String,
    /// Whether only a sample of the generated mutants was evaluated.
    pub sampled: bool,
    /// Mutants of the sample left unevaluated because the wall-clock budget
    /// ran out (skipped, not passed); 0 when it did not.
    pub over_budget: usize,
    /// The one line the CLI, the status line and the Coverage pane show.
    pub summary: String,
    /// The counting tests that pass on the original model (only they can kill).
    pub baseline_passing: Vec<String>,
    pub results: Vec<MutantResult>,
}

impl MutationReport {
    /// Builds the report from the results, with the one definition of the score.
    pub fn new(
        generated: usize,
        baseline_passing: Vec<String>,
        results: Vec<MutantResult>,
    ) -> MutationReport {
        let count = |status| results.iter().filter(|r| r.status == status).count();
        let killed = count(MutantStatus::Killed);
        let survived = count(MutantStatus::Survived);
        let undecided = count(MutantStatus::Undecided);
        let evaluated = results.len();
        let equivalent = results.iter().filter(|r| r.equivalent).count();
        let scored = killed + survived - equivalent;
        let score = (scored > 0).then(|| killed as f64 / scored as f64);
        let mut report = MutationReport {
            generated,
            evaluated,
            killed,
            survived,
            undecided,
            equivalent,
            scored,
            score,
            score_without_equivalent: score,
            score_text: score_text(score),
            sampled: evaluated < generated,
            over_budget: 0,
            summary: String::new(),
            baseline_passing,
            results,
        };
        report.summary = report.summary_text();
        report
    }

    /// "9.4%: 17 killed, 164 survived (2 proved equivalent, left out), 1 not
    /// decided in time (left out), on a sample of 200 of 6,000 mutants".
    fn summary_text(&self) -> String {
        let mut text = format!(
            "{}: {} killed, {} survived",
            self.score_text, self.killed, self.survived
        );
        if self.equivalent > 0 {
            text.push_str(&format!(
                " ({} proved equivalent, left out)",
                self.equivalent
            ));
        }
        if self.undecided > 0 {
            text.push_str(&format!(
                ", {} not decided in time (left out)",
                self.undecided
            ));
        }
        if self.over_budget > 0 {
            text.push_str(&format!(
                ", on {} of {} mutants: the budget ran out before the other {} (not evaluated, not passed)",
                thousands(self.evaluated),
                thousands(self.evaluated + self.over_budget),
                thousands(self.over_budget)
            ));
        } else if self.sampled {
            text.push_str(&format!(
                ", on a sample of {} of {} mutants",
                thousands(self.evaluated),
                thousands(self.generated)
            ));
        }
        text
    }

    /// Marks `left` mutants of the sample as left unevaluated by the
    /// budget.
    pub fn cut_short(&mut self, left: usize) {
        self.over_budget = left;
        self.summary = self.summary_text();
    }

    pub fn survivors(&self) -> impl Iterator<Item = &MutantResult> {
        self.results
            .iter()
            .filter(|r| r.status == MutantStatus::Survived)
    }
}

/// Every mutant of every rule, in the documented order.
pub fn mutants(model: &CompiledModel) -> Vec<Mutant> {
    let mut all = Vec::new();
    for rule in &model.rules {
        let original = rule.written.to_string();
        let mut seen: HashSet<String> = HashSet::from([original]);
        let mut candidates = Vec::new();
        collect(
            model,
            &rule.written,
            &mut Vec::new(),
            &rule.written,
            &mut candidates,
        );
        for (kind, description, mutated) in candidates {
            let text = mutated.to_string();
            if !seen.insert(text.clone()) {
                continue;
            }
            let Ok((_, formula)) = model.check_formula(&text) else {
                continue;
            };
            all.push(Mutant {
                rule: rule.id.clone(),
                kind,
                description,
                mutated: text,
                formula,
            });
        }
    }
    all
}

/// At most `limit` mutants, spread evenly over the list (so every part of
/// the model stays represented), in their original order.
pub fn spread(mutants: Vec<Mutant>, limit: usize) -> Vec<Mutant> {
    let total = mutants.len();
    if total <= limit {
        return mutants;
    }
    let picked: HashSet<usize> = (0..limit).map(|i| i * total / limit).collect();
    mutants
        .into_iter()
        .enumerate()
        .filter(|(i, _)| picked.contains(i))
        .map(|(_, m)| m)
        .collect()
}

type Candidate = (MutationKind, String, Expr);

/// A short rendering of a term for descriptions.
fn show(expr: &Expr) -> String {
    let text = expr.to_string();
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// `root` with the node at `path` replaced by `replacement`.
fn replace_at(root: &Expr, path: &[usize], replacement: Expr) -> Expr {
    match (path.split_first(), &root.kind) {
        (None, _) => replacement,
        (Some((&i, rest)), ExprKind::App(op, args)) => {
            let mut args = args.clone();
            args[i] = replace_at(&args[i], rest, replacement);
            Expr::app(*op, args)
        }
        (Some(_), _) => root.clone(),
    }
}

/// Whether a written term is an Int or Real term in this model.
fn is_numeric(model: &CompiledModel, term: &Expr) -> bool {
    let text = term.to_string();
    parse_expr(&text)
        .ok()
        .and_then(|parsed| model.vocabulary.check(&text, &parsed).ok())
        .is_some_and(|(_, sort)| sort.is_numeric())
}

fn flipped(op: Op) -> Option<Op> {
    Some(match op {
        Op::Lt => Op::Ge,
        Op::Ge => Op::Lt,
        Op::Le => Op::Gt,
        Op::Gt => Op::Le,
        Op::Eq => Op::Distinct,
        Op::Distinct => Op::Eq,
        _ => return None,
    })
}

/// A literal for a signed number of the literal's own kind.
fn literal(value: &BigRational, decimal: bool) -> Expr {
    let magnitude = if decimal {
        Expr::new(ExprKind::Decimal(value.abs()))
    } else {
        Expr::new(ExprKind::Int(value.to_integer().abs()))
    };
    if value.is_negative() {
        Expr::app(Op::Sub, vec![magnitude])
    } else {
        magnitude
    }
}

/// One unit of a decimal's last written place (1 for a whole number).
fn decimal_step(value: &BigRational) -> BigRational {
    if value.is_integer() {
        return BigRational::one();
    }
    let places = finite_decimal(value, false)
        .and_then(|text| text.split_once('.').map(|(_, f)| f.len()))
        .unwrap_or(0);
    BigRational::new(BigInt::one(), BigInt::from(10u32).pow(places as u32))
}

fn collect(
    model: &CompiledModel,
    root: &Expr,
    path: &mut Vec<usize>,
    node: &Expr,
    out: &mut Vec<Candidate>,
) {
    let at = |replacement: Expr| replace_at(root, path, replacement);
    match &node.kind {
        ExprKind::Int(_) | ExprKind::Decimal(_) => {
            let (value, decimal) = match &node.kind {
                ExprKind::Int(i) => (BigRational::from_integer(i.clone()), false),
                ExprKind::Decimal(d) => (d.clone(), true),
                _ => unreachable!("matched above"),
            };
            let step = if decimal {
                decimal_step(&value)
            } else {
                BigRational::one()
            };
            for moved in [&value + &step, &value - &step] {
                let replacement = literal(&moved, decimal);
                let description = format!("constant {node} becomes {replacement}");
                out.push((MutationKind::StepConstant, description, at(replacement)));
            }
        }
        ExprKind::App(op, args) => {
            if let Some(flip) = flipped(*op)
                && args.len() == 2
                && (!matches!(op, Op::Eq | Op::Distinct) || is_numeric(model, &args[0]))
            {
                let replacement = Expr::app(flip, args.clone());
                let description = format!("{} becomes {}", show(node), show(&replacement));
                out.push((MutationKind::FlipComparison, description, at(replacement)));
            }
            if *op == Op::And && args.len() >= 2 {
                for (i, dropped) in args.iter().enumerate() {
                    let rest: Vec<Expr> = args
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, a)| a.clone())
                        .collect();
                    let replacement = if rest.len() == 1 {
                        rest[0].clone()
                    } else {
                        Expr::app(Op::And, rest)
                    };
                    let description =
                        format!("drop the conjunct {} from {}", show(dropped), show(node));
                    out.push((MutationKind::DropConjunct, description, at(replacement)));
                }
            }
            if matches!(op, Op::And | Op::Or) && args.len() >= 2 {
                let other = if *op == Op::And { Op::Or } else { Op::And };
                let replacement = Expr::app(other, args.clone());
                let description = format!(
                    "'{}' becomes '{}' in {}",
                    op.symbol(),
                    other.symbol(),
                    show(node)
                );
                out.push((MutationKind::SwapAndOr, description, at(replacement)));
            }
            if *op == Op::Implies && args.len() >= 2 {
                let last = args.len() - 1;
                let consequent = &args[last];
                let negated = match &consequent.kind {
                    ExprKind::App(Op::Not, inner) if inner.len() == 1 => inner[0].clone(),
                    _ => Expr::app(Op::Not, vec![consequent.clone()]),
                };
                let mut mutated = args.clone();
                mutated[last] = negated.clone();
                let description = format!(
                    "negate the consequent: {} becomes {}",
                    show(consequent),
                    show(&negated)
                );
                out.push((
                    MutationKind::NegateConsequent,
                    description,
                    at(Expr::app(Op::Implies, mutated)),
                ));
            }
            for (i, arg) in args.iter().enumerate() {
                path.push(i);
                collect(model, root, path, arg, out);
                path.pop();
            }
        }
        ExprKind::Bool(_) | ExprKind::Symbol(_) => {}
    }
}

/// A test that passes on the original model, ready to rerun.
pub(super) struct Baseline<'a> {
    pub(super) test: &'a LogicTest,
    pub(super) premise: Expr,
    pub(super) claim: Expr,
    pub(super) variables: Vec<String>,
    /// The scenarios its finding shows, of the claim and of its negation.
    pub(super) scenarios: [Option<Scenario>; 2],
}

/// Runs `mutants` against the counting tests. `worker` must have `model`
/// loaded; each mutant is swapped in with `replace_rule` and the original
/// rule is put back afterwards, so the worker ends with the model it started
/// with.
pub fn mutation_score(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
    mutants: Vec<Mutant>,
    generated: usize,
) -> MutationReport {
    let counting: Vec<LogicTest> = tests
        .iter()
        .filter(|t| t.status.counts())
        .cloned()
        .collect();
    let outcomes = run_tests(worker, model, &counting);
    let baseline = passing_tests(model, &counting, &outcomes);
    let graph = rule_graph(model);
    let mut results = Vec::with_capacity(mutants.len());
    for mutant in mutants {
        results.extend(judge_slowly(worker, model, &graph, &baseline, mutant));
    }
    MutationReport::new(
        generated,
        baseline.iter().map(|b| b.test.id.clone()).collect(),
        results,
    )
}

/// Judges one mutant with a full question per test: the mutant is swapped
/// into `worker` and the original rule put back afterwards. None when the
/// mutant's rule is not in the model.
pub(super) fn judge_slowly(
    worker: &SolverWorker,
    model: &CompiledModel,
    graph: &crate::model::graph::RuleGraph,
    baseline: &[Baseline<'_>],
    mutant: Mutant,
) -> Option<MutantResult> {
    let original = model.rule(&mutant.rule)?;
    worker.replace_rule(&mutant.rule, Some(mutant.formula.clone()));
    let mut result = judge(worker, graph, baseline, mutant);
    // Equivalence, for survivors: the mutated model entails the
    // original rule (checked now) and the original model entails the
    // mutated rule (checked once the original is back).
    let mutant_entails_original =
        result.status == MutantStatus::Survived && entailed(worker, &original.formula);
    worker.replace_rule(&result.mutant.rule, Some(original.formula.clone()));
    result.equivalent = mutant_entails_original && entailed(worker, &result.mutant.formula);
    Some(result)
}

/// Whether the loaded model entails `formula` (proved VALID under `true`).
fn entailed(worker: &SolverWorker, formula: &Expr) -> bool {
    let finding = worker.verify(Expr::new(ExprKind::Bool(true)), formula.clone());
    finding.kind == FindingKind::Valid
}

pub(super) fn passing_tests<'a>(
    model: &CompiledModel,
    tests: &'a [LogicTest],
    outcomes: &[TestOutcome],
) -> Vec<Baseline<'a>> {
    tests
        .iter()
        .zip(outcomes)
        .filter(|(_, outcome)| outcome.passed)
        .filter_map(|(test, outcome)| {
            let (premise, claim) = check_test(model, test).ok()?;
            let variables = question_variables(model, &premise, &claim)
                .into_iter()
                .map(str::to_string)
                .collect();
            let finding = outcome.finding.as_ref();
            Some(Baseline {
                test,
                premise,
                claim,
                variables,
                scenarios: [
                    finding.and_then(|f| f.claims_true_scenario.clone()),
                    finding.and_then(|f| f.claims_false_scenario.clone()),
                ],
            })
        })
        .collect()
}

/// Runs the tests that can notice `mutant` (already swapped in).
fn judge(
    worker: &SolverWorker,
    graph: &crate::model::graph::RuleGraph,
    baseline: &[Baseline<'_>],
    mutant: Mutant,
) -> MutantResult {
    let truth = || Expr::new(ExprKind::Bool(true));
    // Rules outside a test's connected component cannot change its finding
    // while the policy stays consistent: the solver decides each question
    // from the rules sharing variables with it, and the other rules can
    // always be satisfied independently. The mutated rule mentions a subset
    // of the original rule's variables, so its component in the mutated
    // model lies inside the original one: the tests in the original rule's
    // cone are all that can change. The exception is a mutant that makes the
    // rules contradict each other: then every finding becomes IMPOSSIBLE,
    // and every passing test expecting something else fails.
    let consistency = worker.verify(truth(), truth());
    let inconsistent = consistency.kind == FindingKind::Impossible;
    let consistency_known = matches!(
        consistency.kind,
        FindingKind::Impossible | FindingKind::Valid
    );
    let mut result = MutantResult {
        mutant,
        status: MutantStatus::Survived,
        killed_by: None,
        makes_policy_inconsistent: inconsistent,
        tests_run: 0,
        equivalent: false,
    };
    if inconsistent {
        result.killed_by = baseline
            .iter()
            .find(|b| b.test.expected != FindingKind::Impossible)
            .map(|b| b.test.id.clone());
        if result.killed_by.is_some() {
            result.status = MutantStatus::Killed;
        }
        return result;
    }
    let mut undecided = !consistency_known;
    for test in baseline {
        let variables: Vec<&str> = test.variables.iter().map(String::as_str).collect();
        // Without a proof of consistency the cone argument does not hold: run everything.
        if consistency_known && !in_cone(graph, &result.mutant.rule, &variables) {
            continue;
        }
        result.tests_run += 1;
        let finding = worker.verify(test.premise.clone(), test.claim.clone());
        match finding.kind {
            FindingKind::TooComplex => undecided = true,
            kind if kind != test.test.expected => {
                result.status = MutantStatus::Killed;
                result.killed_by = Some(test.test.id.clone());
                return result;
            }
            _ => {}
        }
    }
    if undecided {
        result.status = MutantStatus::Undecided;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    #[test]
    fn decimal_steps_follow_the_last_written_place() {
        let step = |text: &str| {
            let value = crate::smt::number::parse_decimal(text).unwrap();
            finite_decimal(&decimal_step(&value), false).unwrap()
        };
        assert_eq!(step("50.0"), "1.0");
        assert_eq!(step("0.75"), "0.01");
        assert_eq!(step("35.4"), "0.1");
    }

    #[test]
    fn negative_results_are_written_with_unary_minus() {
        let minus_one = BigRational::from_integer(BigInt::from(-1));
        assert_eq!(literal(&minus_one, false).to_string(), "(- 1)");
        assert_eq!(literal(&minus_one, true).to_string(), "(- 1.0)");
        assert_eq!(literal(&BigRational::zero(), true).to_string(), "0.0");
    }
}
