//! Test generation shared out over a pool of solver workers proposes exactly
//! the tests one worker proposes (same premises, claims, proved findings,
//! scenarios, names and order), on every sample and on a model with many
//! rules, with the real Z3.

use crate::support;

use precept::model::{CompiledModel, Project};
use precept::scheduler::Scheduler;
use precept::solve::SolverWorker;
use precept::testgen::generate::{generate, generate_pooled};
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(10);

fn single_and_pooled(model: &CompiledModel, max: usize, seed: u64) -> (String, String) {
    let worker = SolverWorker::spawn(TIMEOUT);
    worker.load(model.clone()).expect("loads");
    let single = generate(&worker, model, max, seed);
    let pool = Scheduler::new(2, TIMEOUT);
    pool.load(model).expect("loads");
    let pooled = generate_pooled(pool.workers(), model, max, seed);
    assert!(!single.is_empty(), "the model yields tests");
    (
        serde_json::to_string_pretty(&single).unwrap(),
        serde_json::to_string_pretty(&pooled).unwrap(),
    )
}

#[test]
fn two_workers_propose_the_same_tests_as_one_on_every_sample() {
    for name in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        let project = Project::load(&support::sample(name)).expect("the sample loads");
        let compiled = project.compile_strict().expect("compiles");
        for seed in [0, 7] {
            let (single, pooled) = single_and_pooled(&compiled, 40, seed);
            assert_eq!(single, pooled, "{name}, seed {seed}");
        }
    }
}

#[test]
fn two_workers_propose_the_same_tests_as_one_on_a_larger_model() {
    // Eight independent parts of ten rules each, over shared thresholds in
    // each part: the questions fall into several groups, so both workers
    // answer some, and a part's questions come back among the others'.
    let mut smt = String::new();
    for part in 0..8 {
        smt += &format!("(declare-const income{part} Int)\n(declare-const age{part} Int)\n");
        for i in 0..10 {
            smt += &format!("(declare-const eligible{part}x{i} Bool)\n");
            smt += &format!(
                "(assert (=> (and (> income{part} {}) (< age{part} {})) eligible{part}x{i}))\n",
                1000 + 37 * i + 5 * part,
                18 + (i * 7 + part) % 50
            );
        }
    }
    let model = support::model(&smt);
    let (single, pooled) = single_and_pooled(&model, 80, 0);
    let parts = (0..8)
        .filter(|part| single.contains(&format!("income{part}")))
        .count();
    assert!(parts >= 4, "the tests span several parts: {parts}");
    assert_eq!(single, pooled);
}
