//! The whole lint as `precept lint` and the report show it: the syntactic
//! checks, then (given workers) the solver-backed checks shared out over
//! them, ranked by severity and code. One definition, so the CLI and the
//! report never count the findings differently.

use super::conflict_groups::group_conflicts;
use super::{Diagnostic, LintCode, syntactic};
use crate::model::{CompiledModel, PolicyModel};
use crate::solve::SolverWorker;
use crate::solve::lint_checks::{LintEvent, LintShare, Unchecked, share_out};
use std::time::Duration;

/// Lints `model` (compiled as `compiled`); without workers, only the
/// syntactic checks. `progress` hears the solver checks' progress (done,
/// total, stage).
pub fn full_lint(
    model: &PolicyModel,
    compiled: &CompiledModel,
    workers: Option<&[SolverWorker]>,
    progress: &dyn Fn(usize, usize, &str),
) -> Vec<Diagnostic> {
    full_lint_within(model, compiled, workers, None, progress).diagnostics
}

/// A whole lint's findings, and the checks its budget left undone.
pub struct LintRun {
    pub diagnostics: Vec<Diagnostic>,
    /// Empty when every check ran.
    pub unchecked: Vec<Unchecked>,
}

/// [`full_lint`] within a wall-clock `budget` for the solver checks: what
/// they did not get to is in `unchecked` (and said by a finding).
pub fn full_lint_within(
    model: &PolicyModel,
    compiled: &CompiledModel,
    workers: Option<&[SolverWorker]>,
    budget: Option<Duration>,
    progress: &dyn Fn(usize, usize, &str),
) -> LintRun {
    let mut diagnostics = syntactic::check(model, compiled);
    let mut unchecked = Vec::new();
    if let Some(workers) = workers {
        let (events, received) = std::sync::mpsc::channel();
        let mut share = LintShare::new(compiled.clone(), workers.len(), events);
        if let Some(budget) = budget {
            share = share.with_budget(budget);
        }
        share_out(share, workers);
        for event in received.iter() {
            match event {
                LintEvent::Found(d) => diagnostics.push(*d),
                LintEvent::Progress { done, total, stage } => progress(done, total, stage),
                LintEvent::Finished {
                    unchecked: left, ..
                } => {
                    unchecked = left;
                    break;
                }
            }
        }
    }
    let mut diagnostics = once_per_rule_set(group_conflicts(model, diagnostics));
    diagnostics.sort_by_key(|d| (d.severity, d.code));
    LintRun {
        diagnostics,
        unchecked,
    }
}

/// A set of rules that repeat one another is reported once: as duplicates
/// if their text is the same, else as equivalent, else as one redundant
/// given the others (R5 redundant given R10 and R10 given R5 are one
/// finding).
pub fn once_per_rule_set(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let rank = |code: LintCode| match code {
        LintCode::DuplicateRule => Some(0),
        LintCode::EquivalentRule => Some(1),
        LintCode::RedundantRule => Some(2),
        _ => None,
    };
    let set = |d: &Diagnostic| {
        let mut rules = d.rules.clone();
        rules.sort();
        rules
    };
    let mut best: std::collections::HashMap<Vec<String>, (usize, usize)> = Default::default();
    for (i, d) in diagnostics.iter().enumerate() {
        if let Some(r) = rank(d.code) {
            let entry = best.entry(set(d)).or_insert((r, i));
            if r < entry.0 {
                *entry = (r, i);
            }
        }
    }
    diagnostics
        .into_iter()
        .enumerate()
        .filter(|(i, d)| rank(d.code).is_none() || best.get(&set(d)).is_some_and(|b| b.1 == *i))
        .map(|(_, d)| d)
        .collect()
}
