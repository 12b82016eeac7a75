//! Solver-backed lint checks, run on the solver worker: inconsistency (every
//! disjoint conflict), vacuous and redundant rules, forced variables,
//! unreachable enum values, conflicting overlaps, gaps, disjoint groups.
//! Each check is bounded by the deadline; a check that runs out of time is
//! reported as "not decided", never as a pass.
//!
//! - `linter`: the run (groups of rules that share variables, progress,
//!   the deadline) and what every check uses
//! - `rule_checks`: inconsistency, vacuous and redundant rules, forced
//!   variables, unreachable values
//! - `overlaps`: conflicting overlaps and gaps (respecting a decision
//!   table's hit policy); `condition_box`: the cheap test that two
//!   conditions cannot hold together
//! - `exceptions`: shadowed exceptions, impossible situations, exception
//!   fixes
//! - `share`: one run shared out over a pool's workers by group of rules
//!   (a large group in the fixed parts of `parts`), merged in a fixed
//!   order; `memo`: each group's findings by content, so a run after an
//!   edit checks only the changed groups; `answer_memo` and `recall`: a
//!   large group's answers to each question, reused after an edit while
//!   their evidence still holds
//! - `varying`: models of a whole group that settle at once which variables
//!   vary, which enum values occur and which conditions can hold
//! - `input_facts`: the facts an impossible-situation search combines;
//!   `situation_pool`: the scenarios it has met, which settle most of its
//!   candidates without a check, mended by `scenario_repair` when a few
//!   facts away
//! - `near`: questions about a large group decided by the rules near them
//!   first, in a small solver, with the same answer
//! - `budget`: the run's wall-clock budget and what it left unchecked
//! - the orientation of rules (condition and conclusion from what a rule
//!   means) is `model::orientation`

mod answer_memo;
mod budget;
mod condition_box;
mod exceptions;
mod input_facts;
mod linter;
mod memo;
mod near;
mod overlaps;
mod parts;
mod recall;
mod rule_checks;
mod scenario_repair;
mod share;
mod situation_pool;
mod varying;

pub use crate::model::orientation::split_implication;
pub use budget::{GROUP_CHECKS, Unchecked};
pub use linter::LintEvent;
pub use memo::LintMemo;
pub use share::LintShare;
pub(super) use share::lint_share;

/// Shares one lint run out over `workers`, each taking groups of rules from
/// the run's common queue; returns a ticket per worker, for cancelling.
pub fn share_out(share: LintShare, workers: &[super::SolverWorker]) -> Vec<super::Ticket> {
    let share = std::sync::Arc::new(share);
    workers
        .iter()
        .enumerate()
        .map(|(role, worker)| worker.lint_share(std::sync::Arc::clone(&share), role))
        .collect()
}
