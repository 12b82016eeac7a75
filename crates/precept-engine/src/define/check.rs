//! Every definition proposal is checked before anyone sees it: it must
//! apply and type-check; the solver compares the model with and without it
//! (a scenario each way that one allows and the other does not, decided
//! exactly but not minimized), lists the
//! tests it flips, says whether it makes the rules contradict each other,
//! and which impossible input situations (L210) and conflicting overlaps
//! (L206) it removes or adds. A proposal that makes the model inconsistent
//! is never applied without `--force`. The lint and the comparison look at
//! the group of rules the definition touches (rules that share variables
//! with it, transitively), the only part of the model it can change.

use super::DefinitionProposal;
use crate::lifecycle::behaviour::Relation;
use crate::lint::full::full_lint;
use crate::lint::{Diagnostic, LintCode};
use crate::model::finding::Scenario;
use crate::model::graph::RuleGraph;
use crate::model::{CompiledModel, CompiledRule, LogicTest, PolicyModel, compile};
use crate::scheduler::Scheduler;
use crate::smt::Expr;
use crate::smt::build::{and_of, not_of};
use crate::smt::parse_expr;
use crate::solve::{FormulaQuery, Satisfiability, SolverWorker};
use crate::test_runner::TestOutcome;
use crate::test_runner::flips::{TestFlip, flips_of, suite_outcomes};
use serde::Serialize;
use std::collections::BTreeSet;
use std::time::Duration;

/// A proposal with what it would do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedDefinition {
    #[serde(flatten)]
    pub proposal: DefinitionProposal,
    /// Why it cannot be applied at all (unknown name, wrong type, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Applying it makes the rules contradict each other.
    pub inconsistent: bool,
    /// How the model with it relates to the model without it.
    pub relation: Relation,
    /// A scenario the model allowed before and not with the definition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_only_before: Option<Scenario>,
    /// A scenario the model allows with the definition and not before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allowed_only_after: Option<Scenario>,
    /// The tests whose result it changes.
    pub flips: Vec<TestFlip>,
    /// Impossible input situations (L210), by their inputs, it removes.
    pub impossible_removed: Vec<String>,
    /// Impossible input situations it adds.
    pub impossible_added: Vec<String>,
    /// Conflicting overlaps (L206) before and after.
    pub conflicts_before: usize,
    pub conflicts_after: usize,
    /// The rules it compiles to: (id, SMT-LIB).
    pub rules: Vec<(String, String)>,
    /// Why the lint was not compared before and after (a group of rules
    /// too large to lint twice per proposal): L210 and L206 are then not
    /// known here; `precept lint` after applying tells them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lint_skipped: Option<String>,
}

impl CheckedDefinition {
    /// Whether `--apply` (and `formalize`) takes it without being forced.
    pub fn acceptable(&self) -> bool {
        self.refused.is_none() && !self.inconsistent
    }

    /// The warnings to show beside it.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.inconsistent {
            out.push("makes the model inconsistent: every question would be IMPOSSIBLE (refused unless forced)".to_string());
        }
        if !self.impossible_added.is_empty() {
            out.push(format!(
                "makes input situations impossible: {}",
                self.impossible_added.join("; ")
            ));
        }
        if let Some(why) = &self.lint_skipped {
            out.push(format!("not linted: {why}"));
        }
        if self.conflicts_after > self.conflicts_before {
            out.push(format!(
                "adds conflicting overlaps: {} before, {} after",
                self.conflicts_before, self.conflicts_after
            ));
        }
        out
    }
}

/// The largest group of rules whose lint the checks compare before and
/// after: above it only consistency is decided (one exact check), and the
/// proposal says the lint comparison was left out.
pub const LINT_GROUP_LIMIT: usize = 300;

/// Whether the rules of `model` have a scenario at all (exactly, with
/// every rule: no cone is left out).
pub fn consistent(model: &PolicyModel, worker: &SolverWorker) -> bool {
    let compiled = compile(model);
    if !compiled.issues.is_empty() || worker.load(compiled.clone()).is_err() {
        return false;
    }
    let query = FormulaQuery {
        formula: and_of(compiled.rules.iter().map(|r| r.formula.clone())),
        show: Vec::new(),
    };
    matches!(
        worker.check_formulas(vec![query]).first(),
        Some(Satisfiability::Satisfiable(_))
    )
}

/// What the lint says that the checks compare.
struct LintFacts {
    inconsistent: bool,
    impossible: BTreeSet<String>,
    conflicts: usize,
}

fn lint_facts(model: &PolicyModel, scheduler: &Scheduler) -> LintFacts {
    let compiled = compile(model);
    let found: Vec<Diagnostic> =
        full_lint(model, &compiled, Some(scheduler.workers()), &|_, _, _| {});
    LintFacts {
        inconsistent: found.iter().any(|d| d.code == LintCode::Inconsistent),
        impossible: found
            .iter()
            .filter(|d| d.code == LintCode::ImpossibleSituation)
            .map(|d| d.variables.join(" ∧ "))
            .collect(),
        conflicts: found
            .iter()
            .filter(|d| d.code == LintCode::ConflictingOverlap)
            .count(),
    }
}

/// Checks each proposal against the model as it is (independently of the
/// others), on the scheduler's workers.
pub fn check_definitions(
    model: &PolicyModel,
    tests: &[LogicTest],
    proposals: &[DefinitionProposal],
    scheduler: &Scheduler,
    timeout: Duration,
) -> Vec<CheckedDefinition> {
    let baseline = suite_outcomes(model, tests, timeout).unwrap_or_default();
    proposals
        .iter()
        .map(|p| check_one(model, tests, &baseline, p, scheduler, timeout))
        .collect()
}

/// The variables of an expression's text (unparsable text names none).
fn symbols_of(text: &str) -> Vec<String> {
    parse_expr(text)
        .map(|e| e.symbols().into_iter().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The variables a proposal touches: its variable, those of the rules it
/// replaces and those of its parts.
pub(super) fn touched(model: &PolicyModel, proposal: &DefinitionProposal) -> BTreeSet<String> {
    let mut seed: BTreeSet<String> = BTreeSet::from([proposal.variable.clone()]);
    for id in &proposal.replaces {
        if let Some(rule) = model.rule(id) {
            seed.extend(symbols_of(&rule.expression));
        }
    }
    for (_, _, part) in proposal.definition.parts() {
        seed.extend(symbols_of(&part.condition));
    }
    seed
}

/// `model` with only the rules that share variables, directly or through
/// other rules, with `seed`: the group of rules a change of those
/// variables' rules can touch. Lint groups rules the same way, so its
/// findings on the group are its findings on the whole model there.
pub(super) fn group_of(model: &PolicyModel, seed: &BTreeSet<String>) -> PolicyModel {
    let rule_symbols: Vec<Vec<String>> = model
        .rules
        .iter()
        .map(|r| symbols_of(&r.expression))
        .collect();
    let graph = RuleGraph::from_rule_variables(rule_symbols.iter().map(Vec::as_slice));
    let taken: BTreeSet<usize> = graph
        .rules_touching(seed.iter().map(String::as_str))
        .into_iter()
        .collect();
    let mut group = model.clone();
    let mut position = 0..;
    group
        .rules
        .retain(|_| taken.contains(&position.next().unwrap_or(usize::MAX)));
    group
}

/// How the group with the definition relates to the group without it: two
/// exact checks over every rule of the group (the rules both share, and
/// each side's own), with a scenario each way that one allows and the other
/// does not, showing the variables of the rules that differ. Unlike the
/// semantic diff's, the scenarios are not minimized: on a group of a
/// thousand rules that costs a check per variable.
fn compare_groups(
    before: &PolicyModel,
    after: &PolicyModel,
    timeout: Duration,
) -> (Relation, Option<Scenario>, Option<Scenario>) {
    let compiled = compile(after);
    let before_compiled = compile(before);
    let worker = SolverWorker::spawn(timeout);
    if !compiled.issues.is_empty() || worker.load(compiled.clone()).is_err() {
        return (Relation::Unknown, None, None);
    }
    let same = |a: &CompiledRule, b: &[CompiledRule]| {
        b.iter().any(|r| r.id == a.id && r.formula == a.formula)
    };
    let common: Vec<Expr> = compiled
        .rules
        .iter()
        .filter(|r| same(r, &before_compiled.rules))
        .map(|r| r.formula.clone())
        .collect();
    let own = |side: &CompiledModel, other: &CompiledModel| -> Vec<Expr> {
        side.rules
            .iter()
            .filter(|r| !same(r, &other.rules))
            .map(|r| r.formula.clone())
            .collect()
    };
    let (only_a, only_b) = (
        own(&before_compiled, &compiled),
        own(&compiled, &before_compiled),
    );
    let mut show: Vec<String> = Vec::new();
    for formula in only_a.iter().chain(&only_b) {
        for symbol in formula.symbols() {
            if compiled.variables.iter().any(|(n, _)| n == symbol)
                && !show.iter().any(|s| s == symbol)
            {
                show.push(symbol.to_string());
            }
        }
    }
    let query = |allowed: &[Expr], refused: &[Expr]| FormulaQuery {
        formula: and_of(
            common
                .iter()
                .cloned()
                .chain(allowed.iter().cloned())
                .chain(std::iter::once(not_of(&and_of(refused.iter().cloned())))),
        ),
        show: show.clone(),
    };
    let results = worker.check_formulas(vec![query(&only_a, &only_b), query(&only_b, &only_a)]);
    let read = |r: Option<&Satisfiability>| match r {
        Some(Satisfiability::Satisfiable(s)) => Some(Some(s.clone())),
        Some(Satisfiability::Unsatisfiable) => Some(None),
        _ => None,
    };
    match (read(results.first()), read(results.get(1))) {
        (Some(a), Some(b)) => {
            let relation = match (&a, &b) {
                (None, None) => Relation::Equivalent,
                (None, Some(_)) => Relation::AStronger,
                (Some(_), None) => Relation::BStronger,
                (Some(_), Some(_)) => Relation::DifferBothWays,
            };
            (relation, a, b)
        }
        _ => (Relation::Unknown, None, None),
    }
}

fn check_one(
    model: &PolicyModel,
    tests: &[LogicTest],
    baseline: &[TestOutcome],
    proposal: &DefinitionProposal,
    scheduler: &Scheduler,
    timeout: Duration,
) -> CheckedDefinition {
    let mut checked = CheckedDefinition {
        proposal: proposal.clone(),
        refused: None,
        inconsistent: false,
        relation: Relation::Unknown,
        allowed_only_before: None,
        allowed_only_after: None,
        flips: Vec::new(),
        impossible_removed: Vec::new(),
        impossible_added: Vec::new(),
        conflicts_before: 0,
        conflicts_after: 0,
        rules: Vec::new(),
        lint_skipped: None,
    };
    let mut edited = model.clone();
    if let Err(error) = proposal.edit().apply(&mut edited) {
        checked.refused = Some(error.to_string());
        return checked;
    }
    let compiled = compile(&edited);
    if let Some(issue) = compiled.issues.first() {
        checked.refused = Some(format!("the model would not check: {issue}"));
        return checked;
    }
    checked.rules = edited
        .rules
        .iter()
        .filter(|r| proposal.definition.owns_rule(&r.id))
        .map(|r| (r.id.clone(), r.expression.clone()))
        .collect();
    // Only the group of rules the definition touches can change: the lint
    // and the comparison look at that group, before and after.
    let seed = touched(model, proposal);
    let (model_group, edited_group) = (group_of(model, &seed), group_of(&edited, &seed));
    if model_group.rules.len().max(edited_group.rules.len()) > LINT_GROUP_LIMIT {
        let worker = SolverWorker::spawn(timeout);
        checked.inconsistent =
            !consistent(&edited_group, &worker) && consistent(&model_group, &worker);
        checked.lint_skipped = Some(format!(
            "the definition's group has {} rules (over {LINT_GROUP_LIMIT}): consistency was decided, the lint was not compared",
            edited_group.rules.len()
        ));
    } else {
        let before = lint_facts(&model_group, scheduler);
        let after = lint_facts(&edited_group, scheduler);
        checked.conflicts_before = before.conflicts;
        checked.inconsistent = after.inconsistent && !before.inconsistent;
        checked.impossible_removed = before
            .impossible
            .difference(&after.impossible)
            .cloned()
            .collect();
        checked.impossible_added = after
            .impossible
            .difference(&before.impossible)
            .cloned()
            .collect();
        checked.conflicts_after = after.conflicts;
    }
    let (relation, only_before, only_after) = compare_groups(&model_group, &edited_group, timeout);
    checked.relation = relation;
    checked.allowed_only_before = only_before;
    checked.allowed_only_after = only_after;
    match flips_of(&edited, tests, baseline, timeout) {
        Ok(flips) => checked.flips = flips,
        Err(error) => checked.refused = Some(error.to_string()),
    }
    checked
}
