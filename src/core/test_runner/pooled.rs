//! A test run shared out over a pool of solver workers by cone of
//! influence: the tests whose variables touch the same groups of rules form
//! one share, run one after another on one worker (so they reuse that
//! worker's warm solver of the cone), and the shares go to whichever worker
//! is free, largest first. Outcomes come back in the order of the tests, so
//! the run does not depend on how many workers there are.

use super::outcome::{TestOutcome, check_test, outcome_of};
use crate::core::model::graph::RuleGraph;
use crate::core::model::{CompiledModel, LogicTest};
use crate::core::smt::Expr;
use crate::core::solve::{SolverPool, SolverWorker};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// The tests that share a cone (by position in the run), in order.
struct Share {
    tests: Vec<usize>,
}

/// The positions of `parsed` tests grouped by the groups of rules their
/// variables touch, each share in test order, the shares largest first
/// (ties by their first test).
fn shares(model: &CompiledModel, parsed: &[Option<(Expr, Expr)>]) -> Vec<Share> {
    let graph = RuleGraph::build(
        model.variables.iter().map(|(name, _)| name.as_str()),
        model.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    );
    let mut by_cone: BTreeMap<Vec<usize>, Vec<usize>> = BTreeMap::new();
    for (i, formulas) in parsed.iter().enumerate() {
        let Some((premise, claim)) = formulas else {
            continue;
        };
        let mut symbols = premise.symbols();
        symbols.extend(claim.symbols());
        // The rules the question can involve: the solver keeps one warm
        // solver for each such set, and its answers depend on the questions
        // it was asked before, so they all run on one worker, in order.
        by_cone
            .entry(graph.rules_touching(symbols))
            .or_default()
            .push(i);
    }
    let mut shares: Vec<Share> = by_cone.into_values().map(|tests| Share { tests }).collect();
    shares.sort_by_key(|s| (std::cmp::Reverse(s.tests.len()), s.tests[0]));
    shares
}

/// Runs the tests of one share on `worker`, all queued at once.
fn run_share(
    worker: &SolverWorker,
    share: &Share,
    parsed: &[Option<(Expr, Expr)>],
) -> Vec<(usize, crate::core::solve::Finding, Duration)> {
    let (reply, replies) = mpsc::channel();
    let mut positions = BTreeMap::new();
    for &i in &share.tests {
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

/// Runs `tests` on every worker of `pool` (each must have `model` loaded);
/// outcomes come back in the order of `tests`.
pub fn run_tests_pooled(
    pool: &SolverPool,
    model: &CompiledModel,
    tests: &[LogicTest],
) -> Vec<TestOutcome> {
    let checked: Vec<_> = tests.iter().map(|t| check_test(model, t)).collect();
    let parsed: Vec<Option<(Expr, Expr)>> = checked.iter().map(|c| c.clone().ok()).collect();
    let shares = shares(model, &parsed);
    let next = AtomicUsize::new(0);
    let answers: Mutex<Vec<Option<(crate::core::solve::Finding, Duration)>>> =
        Mutex::new(vec![None; tests.len()]);
    std::thread::scope(|scope| {
        for worker in pool.workers() {
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
        .map(|((test, checked), answer)| {
            outcome_of(test, checked.map(|_| answer).map_err(|e| e.to_string()))
        })
        .collect()
}
