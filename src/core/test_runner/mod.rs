//! Runs logic tests against a model through the solver worker, or shared
//! out over a pool of workers by cone (`pooled.rs`).

pub mod flips;
mod outcome;
mod pooled;

pub use outcome::{TestCheckError, TestOutcome, check_test};
pub use pooled::run_tests_pooled;

use crate::core::model::{CompiledModel, LogicTest};
use crate::core::solve::SolverWorker;
use outcome::outcome_of;
use std::sync::mpsc;

/// Runs `tests` on a worker that already has `model` loaded. All requests are
/// queued at once; outcomes come back in the order of `tests`.
pub fn run_tests(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
) -> Vec<TestOutcome> {
    let (reply, replies) = mpsc::channel();
    let mut tickets = Vec::with_capacity(tests.len());
    for test in tests {
        tickets.push(
            check_test(model, test)
                .map(|(premise, claim)| worker.submit(premise, claim, reply.clone())),
        );
    }
    drop(reply);
    let mut findings = std::collections::HashMap::new();
    for answer in replies.iter() {
        findings.insert(answer.ticket, (answer.finding, answer.elapsed));
    }
    tests
        .iter()
        .zip(tickets)
        .map(|(test, ticket)| {
            let answer = ticket
                .map(|ticket| findings.remove(&ticket))
                .map_err(|e| e.to_string());
            outcome_of(test, answer)
        })
        .collect()
}
