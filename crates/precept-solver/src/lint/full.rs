//! The whole lint as `precept lint` and the report show it: the syntactic
//! checks, then (given workers) the solver-backed checks shared out over
//! them, ranked by severity and code. One definition, so the CLI and the
//! report never count the findings differently.

use super::conflict_groups::group_conflicts;
use super::{Diagnostic, syntactic};
use crate::model::{CompiledModel, PolicyModel};
use crate::solve::SolverWorker;
use crate::solve::lint_checks::{LintEvent, LintShare, share_out};

/// Lints `model` (compiled as `compiled`); without workers, only the
/// syntactic checks. `progress` hears the solver checks' progress (done,
/// total, stage).
pub fn full_lint(
    model: &PolicyModel,
    compiled: &CompiledModel,
    workers: Option<&[SolverWorker]>,
    progress: &dyn Fn(usize, usize, &str),
) -> Vec<Diagnostic> {
    let mut diagnostics = syntactic::check(model, compiled);
    if let Some(workers) = workers {
        let (events, received) = std::sync::mpsc::channel();
        share_out(
            LintShare::new(compiled.clone(), workers.len(), events),
            workers,
        );
        for event in received.iter() {
            match event {
                LintEvent::Found(d) => diagnostics.push(*d),
                LintEvent::Progress { done, total, stage } => progress(done, total, stage),
                LintEvent::Finished { .. } => break,
            }
        }
    }
    let mut diagnostics = group_conflicts(model, diagnostics);
    diagnostics.sort_by_key(|d| (d.severity, d.code));
    diagnostics
}
