//! Runs logic tests against a model through the solver worker, or shared
//! out over a pool of workers by cone (`pooled.rs`); both cut the run into
//! the same shares (`shares.rs`), so they find the same. After a rule
//! edit, a test whose evidence does not rest on the old rule keeps its
//! finding without the solver (`carry_over.rs`).

pub mod carry_over;
pub mod flips;
mod outcome;
mod pooled;
pub mod shares;

pub use outcome::{TestCheckError, TestOutcome, check_test};
pub use pooled::run_tests_pooled;

use crate::model::finding::KnownSides;
use crate::model::{CompiledModel, LogicTest};
use crate::solve::{Deadline, SolverWorker};
use outcome::outcome_of;
use std::sync::mpsc;

/// Runs `tests` on a worker that already has `model` loaded, share after
/// share (`shares.rs`). All requests are queued at once; outcomes come
/// back in the order of `tests`.
pub fn run_tests(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
) -> Vec<TestOutcome> {
    run_tests_knowing(worker, model, tests, &[])
}

/// `run_tests`, with what is already proved of each test's question
/// (`known[i]` for `tests[i]`; none past its end): only the other sides are
/// asked (`carry_over::known_sides`, after an edit).
pub fn run_tests_knowing(
    worker: &SolverWorker,
    model: &CompiledModel,
    tests: &[LogicTest],
    known: &[KnownSides],
) -> Vec<TestOutcome> {
    let checked: Vec<_> = tests.iter().map(|t| check_test(model, t)).collect();
    let questions: Vec<_> = checked
        .iter()
        .map(|c| c.as_ref().ok().map(|(premise, claim)| (premise, claim)))
        .collect();
    let (reply, replies) = mpsc::channel();
    let mut tickets = vec![None; tests.len()];
    for share in shares::shares(&shares::model_graph(model), &questions) {
        shares::start_share(worker);
        for i in share {
            if let Ok((premise, claim)) = &checked[i] {
                let sides = known.get(i).cloned().unwrap_or_default();
                tickets[i] = Some(worker.submit_knowing(
                    (premise.clone(), claim.clone()),
                    sides,
                    Deadline::Fresh,
                    reply.clone(),
                ));
            }
        }
    }
    drop(reply);
    let mut findings = std::collections::HashMap::new();
    for answer in replies.iter() {
        findings.insert(answer.ticket, (answer.finding, answer.elapsed));
    }
    tests
        .iter()
        .zip(checked)
        .zip(tickets)
        .map(|((test, checked), ticket)| {
            let answer = checked.map(|_| ticket.and_then(|ticket| findings.remove(&ticket)));
            outcome_of(test, answer)
        })
        .collect()
}
