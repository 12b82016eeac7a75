//! A test run shared out over solver workers by cone of
//! influence (`shares.rs`): each share of tests runs on one worker, one
//! test after another in that worker's warm solver of the cone, and the
//! shares go to whichever worker is free, largest first. Outcomes come back
//! in the order of the tests, equal to a run on one worker.

use super::outcome::{TestOutcome, check_test, outcome_of};
use super::shares::{model_graph, shares, start_share};
use crate::model::{CompiledModel, LogicTest};
use crate::smt::Expr;
use crate::solve::{Finding, SolverWorker};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Runs the tests of one share on `worker`, all queued at once.
fn run_share(
    worker: &SolverWorker,
    share: &[usize],
    parsed: &[Option<(Expr, Expr)>],
) -> Vec<(usize, Finding, Duration)> {
    let (reply, replies) = mpsc::channel();
    let mut positions = BTreeMap::new();
    start_share(worker);
    for &i in share {
        if let Some((premise, claim)) = &parsed[i] {
            let ticket = worker.submit(premise.clone(), claim.clone(), reply.clone());
            positions.insert(ticket, i);
        }
    }
    drop(reply);
    replies
        .iter()
        .filter_map(|answer| {
            positions
                .get(&answer.ticket)
                .map(|&i| (i, answer.finding, answer.elapsed))
        })
        .collect()
}

/// Runs `tests` on every one of `workers` (each must have `model` loaded);
/// outcomes come back in the order of `tests`.
pub fn run_tests_pooled(
    workers: &[SolverWorker],
    model: &CompiledModel,
    tests: &[LogicTest],
) -> Vec<TestOutcome> {
    let checked: Vec<_> = tests.iter().map(|t| check_test(model, t)).collect();
    let parsed: Vec<Option<(Expr, Expr)>> = checked.iter().map(|c| c.clone().ok()).collect();
    let questions: Vec<_> = parsed
        .iter()
        .map(|p| p.as_ref().map(|(premise, claim)| (premise, claim)))
        .collect();
    let shares = shares(&model_graph(model), &questions);
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<(Finding, Duration)>>> = Mutex::new(vec![None; tests.len()]);
    std::thread::scope(|scope| {
        for worker in workers {
            scope.spawn(|| {
                loop {
                    let taken = next.fetch_add(1, Ordering::Relaxed);
                    let Some(share) = shares.get(taken) else {
                        break;
                    };
                    let found = run_share(worker, share, &parsed);
                    let mut answers = answers.lock().unwrap_or_else(|p| p.into_inner());
                    for (i, finding, elapsed) in found {
                        answers[i] = Some((finding, elapsed));
                    }
                }
            });
        }
    });
    let answers = answers.into_inner().unwrap_or_else(|p| p.into_inner());
    tests
        .iter()
        .zip(checked)
        .zip(answers)
        .map(|((test, checked), answer)| outcome_of(test, checked.map(|_| answer)))
        .collect()
}
