//! Symbolic test generation against the real solver: generated tests are
//! deterministic, deduplicated, proved (the solver agrees when asked again),
//! cover every rule of each sample, and round-trip through review into the
//! project's test suite, where a rejected test fails (the repair loop).

use crate::support;

use precept::model::{CompiledModel, LogicTest, Project, TestStatus, TestSuite};
use precept::smt::parse_expr;
use precept::solve::{FindingKind, SolverWorker};
use precept::testgen::generate::{
    CandidateKind, GeneratedTest, accept, candidates, generate, reject, to_proposed,
};
use std::collections::{BTreeSet, HashSet};
use std::time::{Duration, Instant};
use support::{copy_sample, formula, precept, sample, stderr, stdout};

const SAMPLES: [&str; 3] = ["airline-refunds", "benefit-eligibility", "park-admission"];

fn load(name: &str) -> CompiledModel {
    let project = Project::load(&sample(name)).expect("sample loads");
    project.compile_strict().expect("sample compiles")
}

fn fresh_worker(model: &CompiledModel) -> SolverWorker {
    support::worker(model, Duration::from_secs(5))
}

/// Generates on a freshly loaded worker, as the CLI does.
fn generated(model: &CompiledModel, max: usize, seed: u64) -> Vec<GeneratedTest> {
    let worker = fresh_worker(model);
    generate(&worker, model, max, seed)
}

fn suite(dir: &std::path::Path) -> TestSuite {
    Project::load(dir).expect("project loads").tests
}

/// What a run is judged by: everything but scenario values.
fn signature(
    tests: &[GeneratedTest],
) -> Vec<(String, String, CandidateKind, FindingKind, Vec<String>)> {
    tests
        .iter()
        .map(|t| {
            (
                t.premise.clone(),
                t.claim.clone(),
                t.kind,
                t.finding.kind,
                t.finding.rules().to_vec(),
            )
        })
        .collect()
}

mod generation;
mod review;
