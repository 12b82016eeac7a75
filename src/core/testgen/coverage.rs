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
//! undecided for the rule. Only tests whose status counts
//! ([`crate::core::model::TestStatus::counts`]) are used; tests whose
//! premise or claim does not parse are skipped.

use crate::core::model::graph::RuleGraph;
use crate::core::model::{CompiledModel, CompiledRule, LogicTest};
use crate::core::smt::{Expr, ExprKind, Op, parse_expr};
use crate::core::solve::{Finding, FindingKind, SolverWorker};
use crate::core::test_runner::{TestCheckError, check_test};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

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

/// A counting test, parsed as written.
struct ParsedTest<'a> {
    test: &'a LogicTest,
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
    for test in tests.iter().filter(|t| t.status.counts()) {
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
/// elaborated); it is printed and checked against the model first.
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

/// Memoizes [`satisfiable`] and findings by the formulas' printed text.
struct SatCache<'a> {
    worker: &'a SolverWorker,
    model: &'a CompiledModel,
    known: HashMap<String, Option<bool>>,
    findings: HashMap<String, Option<FindingKind>>,
}

impl SatCache<'_> {
    /// The finding of `premise` (written) and `claim` (elaborated); None
    /// when the premise does not check.
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

/// Computes the rule coverage of `tests` on a worker that has `model` loaded.
pub fn rule_coverage(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
) -> CoverageReport {
    let graph = rule_graph(model);
    let (parsed, skipped_tests) = parse_tests(model, tests);
    let mut cache = SatCache {
        worker,
        model,
        known: HashMap::new(),
        findings: HashMap::new(),
    };
    // Each test's finding as proved now, with its minimal rule set.
    let findings: Vec<Option<Finding>> = parsed
        .iter()
        .map(|t| {
            let (premise, _) = check_test(model, t.test).ok()?;
            Some(worker.verify(premise, t.claim.clone()))
        })
        .collect();
    let rules = model
        .rules
        .iter()
        .map(|rule| cover_rule(rule, &graph, &parsed, &findings, &mut cache))
        .collect::<Vec<_>>();
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
        tests_used: parsed.iter().map(|t| t.test.id.clone()).collect(),
        skipped_tests,
        rules,
        untouched,
        totals,
    }
}

/// Whether the solver settled a question (the four logical findings).
fn decided(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::Valid
            | FindingKind::Invalid
            | FindingKind::Satisfiable
            | FindingKind::Impossible
    )
}

/// A rule's conclusion: `C` of `(=> A .. C)`; None for other rules.
fn conclusion(rule: &Expr) -> Option<Expr> {
    match &rule.kind {
        ExprKind::App(Op::Implies, args) if args.len() >= 2 => args.last().cloned(),
        _ => None,
    }
}

fn cover_rule(
    rule: &CompiledRule,
    graph: &RuleGraph,
    tests: &[ParsedTest<'_>],
    findings: &[Option<Finding>],
    cache: &mut SatCache<'_>,
) -> RuleCoverage {
    let antecedent = antecedent(&rule.written);
    let conclusion = conclusion(&rule.written);
    let mut coverage = RuleCoverage {
        id: rule.id.clone(),
        antecedent: antecedent.as_ref().map(ToString::to_string),
        touched: false,
        touched_by: Vec::new(),
        antecedent_true_by: Vec::new(),
        antecedent_false_by: Vec::new(),
        undecided_by: Vec::new(),
    };
    for (test, finding) in tests.iter().zip(findings) {
        let variables: Vec<&str> = test.variables.iter().map(String::as_str).collect();
        if !in_cone(graph, &rule.id, &variables) {
            continue;
        }
        let id = test.test.id.clone();
        let Some(finding) = finding.as_ref().filter(|f| decided(f.kind)) else {
            coverage.undecided_by.push(id);
            continue;
        };
        let in_rule_set = finding.rules().contains(&rule.id);
        if in_rule_set && !finding.rules_minimal {
            // Perhaps not needed: not counted either way.
            coverage.undecided_by.push(id);
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
                        match cache.check(and(&test.premise, a.clone())) {
                            Some(possible) => when_true = possible,
                            None => undecided = true,
                        }
                        match cache.check(and(&test.premise, not(a.clone()))) {
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
            // Would the finding change if the rule applied here?
            match cache.check(and(&test.premise, not(a.clone()))) {
                Some(false) => {}
                None => undecided = true,
                Some(true) => match cache.finding_kind(&and(&test.premise, c.clone()), &test.claim)
                {
                    Some(kind) if decided(kind) => when_false = kind != finding.kind,
                    _ => undecided = true,
                },
            }
        }
        if when_true {
            coverage.antecedent_true_by.push(id.clone());
        }
        if when_false {
            coverage.antecedent_false_by.push(id.clone());
        }
        if in_rule_set || when_true || when_false {
            coverage.touched_by.push(id.clone());
        }
        if undecided {
            coverage.undecided_by.push(id);
        }
    }
    coverage.touched = !coverage.touched_by.is_empty();
    coverage
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
