//! One test's part of the rule coverage (`coverage.rs` has the
//! definitions): for each rule of its cone, whether the test exercises it
//! with its antecedent true, false, takes it into its finding, or leaves a
//! check undecided. It runs on a solver worker, as one task per test.
//!
//! Every check is "is `M ∧ P ∧ X` satisfiable?", answered by
//! `coverage_models.rs` (kept models first, the solver for the rest). "Would
//! the finding F change if the rule applied?" asks for the finding of
//! `P ∧ C` and the claim Q; only its kind matters, and for a decided F that
//! is not IMPOSSIBLE it reduces to such checks:
//!
//! - F VALID: `M ∧ P ∧ ¬Q` is unsatisfiable, so `M ∧ P ∧ C ∧ ¬Q` is too
//!   (a stronger premise keeps the entailment). `M ∧ P ∧ C ∧ Q` is then
//!   satisfiable exactly when `M ∧ P ∧ C` is (every model of it has Q). So
//!   the finding of `P ∧ C` is VALID when `M ∧ P ∧ C` is satisfiable and
//!   IMPOSSIBLE when not: it changes exactly when `M ∧ P ∧ C` is
//!   unsatisfiable.
//! - F INVALID: the same with ¬Q for Q: it changes exactly when
//!   `M ∧ P ∧ C` is unsatisfiable.
//! - F SATISFIABLE: the finding of `P ∧ C` stays SATISFIABLE exactly when
//!   both `M ∧ P ∧ C ∧ Q` and `M ∧ P ∧ C ∧ ¬Q` are satisfiable; it changes
//!   when either is not.
//!
//! A check the solver cannot settle leaves the test undecided for the rule,
//! counted neither way, as before.

use super::coverage_models::{PremiseModels, Question};
use crate::model::finding::Scenario;
use crate::smt::Expr;
use crate::solve::{Finding, FindingKind, Interruption, SolverSession};
use std::collections::HashSet;

/// A rule's antecedent and conclusion as questions, elaborated once for
/// every test.
#[derive(Debug, Clone)]
pub(super) struct RuleQuestions {
    pub(super) id: String,
    /// Whether the rule is an implication (has an antecedent and a conclusion).
    pub(super) implication: bool,
    /// A, `(not A)` and C as positions in the shared formulas; None when
    /// one does not check against the model (its checks are undecided).
    pub(super) holds: Option<usize>,
    pub(super) fails: Option<usize>,
    pub(super) concludes: Option<usize>,
    /// The model variables the rule mentions.
    pub(super) variables: Vec<String>,
}

/// What every test's job shares.
pub(super) struct Shared {
    pub(super) rules: Vec<RuleQuestions>,
    pub(super) formulas: Vec<Expr>,
    /// The names of the enumerations' values.
    pub(super) enum_values: HashSet<String>,
}

/// One test, ready for its checks.
pub(super) struct TestJob {
    /// The premise as written, elaborated; None when it does not check.
    pub(super) premise: Option<Expr>,
    /// The claim, elaborated.
    pub(super) claim: Expr,
    /// The model variables of the premise and claim.
    pub(super) variables: Vec<String>,
    /// The test's finding as the solver proves it now.
    pub(super) finding: Option<Finding>,
    /// The positions of the rules in its cone, in model order.
    pub(super) cone: Vec<usize>,
}

/// How one test exercises one rule of its cone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Exercise {
    pub(super) when_true: bool,
    pub(super) when_false: bool,
    /// In the finding's rule set, or exercised either way.
    pub(super) touched: bool,
    pub(super) undecided: bool,
}

/// Whether the solver settled a question (the four logical findings).
pub(super) fn decided(kind: FindingKind) -> bool {
    matches!(
        kind,
        FindingKind::Valid
            | FindingKind::Invalid
            | FindingKind::Satisfiable
            | FindingKind::Impossible
    )
}

/// The test's exercise of each rule of its cone, in cone order.
pub(super) fn exercise(
    session: Option<&mut SolverSession>,
    interruption: &dyn Interruption,
    job: &TestJob,
    shared: &Shared,
) -> Vec<(usize, Exercise)> {
    let Some(finding) = job.finding.as_ref().filter(|f| decided(f.kind)) else {
        let undecided = Exercise {
            undecided: true,
            ..Exercise::default()
        };
        return job.cone.iter().map(|&r| (r, undecided)).collect();
    };
    let asks = finding.kind != FindingKind::Impossible
        && job.cone.iter().any(|&r| shared.rules[r].implication);
    let (Some(session), Some(premise), true) = (session, &job.premise, asks) else {
        return decide(job, shared, finding, None);
    };
    let mut variables: Vec<&str> = job.variables.iter().map(String::as_str).collect();
    for &r in &job.cone {
        variables.extend(shared.rules[r].variables.iter().map(String::as_str));
    }
    variables.sort_unstable();
    variables.dedup();
    let Ok(mut query) = session.query(&variables, interruption) else {
        return decide(job, shared, finding, None);
    };
    let seeds: Vec<&Scenario> = [
        &finding.claims_true_scenario,
        &finding.claims_false_scenario,
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut models = PremiseModels::open(
        &mut query,
        premise,
        &job.claim,
        &shared.formulas,
        &shared.enum_values,
        &seeds,
    );
    decide(job, shared, finding, Some(&mut models))
}

/// The answer to a question on formula `formula`; None when undecided.
fn answer(
    models: &Option<&mut PremiseModels<'_, '_>>,
    formula: Option<usize>,
    question: fn(usize) -> Question,
) -> Option<bool> {
    models.as_ref()?.answer(question(formula?))
}

/// The definitions of `coverage.rs`, rule by rule, with the checks settled
/// in two rounds: first the antecedents, then the conclusions of the rules
/// whose antecedent can be false.
fn decide(
    job: &TestJob,
    shared: &Shared,
    finding: &Finding,
    mut models: Option<&mut PremiseModels<'_, '_>>,
) -> Vec<(usize, Exercise)> {
    let impossible = finding.kind == FindingKind::Impossible;
    let in_rule_set = |r: usize| finding.rules().contains(&shared.rules[r].id);
    let counted = |r: usize| !in_rule_set(r) || finding.rules_minimal;
    let satisfiable = finding.kind == FindingKind::Satisfiable;
    if let Some(models) = models.as_deref_mut() {
        let mut first = Vec::new();
        for &r in job.cone.iter().filter(|&&r| counted(r)) {
            let rule = &shared.rules[r];
            if rule.implication && !impossible {
                first.extend(rule.fails.map(Question::Formula));
                if in_rule_set(r) {
                    first.extend(rule.holds.map(Question::Formula));
                } else {
                    // Asked ahead, in the same checks: needed when the
                    // antecedent can be false, and most often satisfiable
                    // together with the rest (an answer not needed is
                    // never looked at).
                    first.extend(rule.concludes.map(|c| match satisfiable {
                        true => Question::WithClaim(c, true),
                        false => Question::Formula(c),
                    }));
                }
            }
        }
        models.settle(&first);
    }
    let mut exercises = Vec::with_capacity(job.cone.len());
    // The rules whose finding under `P ∧ C` is asked, by position in `exercises`.
    let mut applying = Vec::new();
    for &r in &job.cone {
        let rule = &shared.rules[r];
        let mut exercise = Exercise::default();
        if !counted(r) {
            // Perhaps not needed: not counted either way.
            exercise.undecided = true;
            exercises.push((r, exercise));
            continue;
        }
        if in_rule_set(r) {
            if impossible || !rule.implication {
                exercise.when_true = true;
            } else {
                match answer(&models, rule.holds, Question::Formula) {
                    Some(possible) => exercise.when_true = possible,
                    None => exercise.undecided = true,
                }
                match answer(&models, rule.fails, Question::Formula) {
                    Some(possible) => exercise.when_false = possible,
                    None => exercise.undecided = true,
                }
            }
        }
        if rule.implication && !exercise.when_false && !impossible {
            match answer(&models, rule.fails, Question::Formula) {
                Some(false) => {}
                None => exercise.undecided = true,
                Some(true) => applying.push(exercises.len()),
            }
        }
        exercise.touched = in_rule_set(r) || exercise.when_true || exercise.when_false;
        exercises.push((r, exercise));
    }
    let questions = |c: usize| -> Vec<Question> {
        match satisfiable {
            true => vec![Question::WithClaim(c, true), Question::WithClaim(c, false)],
            false => vec![Question::Formula(c)],
        }
    };
    if let Some(models) = models.as_deref_mut() {
        let second: Vec<Question> = applying
            .iter()
            .filter_map(|&i| shared.rules[exercises[i].0].concludes)
            .flat_map(questions)
            .collect();
        models.settle(&second);
    }
    for i in applying {
        let (r, exercise) = &mut exercises[i];
        let kept = shared.rules[*r]
            .concludes
            .map(questions)
            .and_then(|asked| {
                asked
                    .into_iter()
                    .map(|q| models.as_ref()?.answer(q))
                    .collect::<Option<Vec<bool>>>()
            })
            .map(|answers| answers.iter().all(|&possible| possible));
        match kept {
            // The finding under `P ∧ C` is F's exactly when every check is satisfiable.
            Some(same) => exercise.when_false = !same,
            None => exercise.undecided = true,
        }
        exercise.touched |= exercise.when_false;
    }
    exercises
}
