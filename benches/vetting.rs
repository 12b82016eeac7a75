//! Vetting benchmark on both bench models (`support/bench_models.rs`: the
//! sectioned 1,500-rule model with 1,000 tests, then the dense one with
//! 300): full lint time and the full test run with 1 and with 2 solver
//! workers (their outputs must be equal), test generation throughput, and
//! coverage and mutation time on 2 workers within one budget (60 s
//! sectioned, 300 s dense, as `precept coverage --budget-s` gives it).
//! Targets: full lint ≤ 5 s sectioned and ≤ 30 s dense with 2 workers,
//! full test run ≤ 1.2 s, peak memory with 2 workers ≤ 300 MB (the lint,
//! the full test run and the mutation analysis on one pool of 2 workers,
//! measured alone in a fresh copy of this process: `vetting --isolated
//! vetting-2-workers-sectioned` (or `-dense`) runs just that).
//!
//! Run: cargo bench --bench vetting
//!
//! Knobs (environment variables):
//! - `PRECEPT_BENCH_MODEL=sectioned` or `=dense`: only that model.
//! - `PRECEPT_BENCH_ONLY=lint`, `=tests` or `=mutation`: only that part
//!   (the lint figures, the full test run, or the mutation figures) is
//!   measured.
//! - `PRECEPT_BENCH_LINT_JSON=FILE`: the solver lint's diagnostics (the same
//!   for 1 and 2 workers) are written there as JSON, to compare runs.
//! - `PRECEPT_BENCH_MUTATION_JSON=FILE`: the pooled mutation report's
//!   per-mutant outcomes (the same for 1 and 2 workers) are written there.
//! - `PRECEPT_BENCH_JOBS=2` (or `1`): only that pool size for the lint and
//!   the pooled mutation analysis (default both, which are compared).
//! - `PRECEPT_BENCH_SKIP_PLAIN`: the mutation figures leave out the plain
//!   path's sample.

#[path = "support/bench_models.rs"]
mod bench_models;
#[path = "support/dense_model.rs"]
mod dense_model;
#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;
#[path = "support/synthetic.rs"]
mod synthetic;
#[path = "support/usage.rs"]
mod usage;

use bench_models::Shape;
use precept::lint::syntactic;
use precept::model::compile;
use precept::scheduler::Scheduler;
use precept::solve::SolverWorker;
use precept::solve::lint_checks::LintEvent;
use precept::testgen::{coverage, mutation};
use std::time::{Duration, Instant};

/// The isolated measurement of the vetting's peak memory with 2 workers,
/// followed by `-sectioned` or `-dense`.
const VETTING_ON_TWO: &str = "vetting-2-workers";

/// The budget of the whole-model analyses that have one (test generation,
/// and the coverage and mutants together), as `--budget-s` gives them.
fn budget(shape: Shape) -> Duration {
    match shape {
        Shape::Sectioned => Duration::from_secs(60),
        Shape::Dense => Duration::from_secs(300),
    }
}

fn main() {
    if let Some(name) = usage::isolated_measurement() {
        let shape = bench_models::chosen()
            .into_iter()
            .find(|shape| name == format!("{VETTING_ON_TWO}-{}", shape.name()))
            .expect("an isolated measurement this bench knows");
        let (model, tests) = bench_models::with_tests(shape);
        vetting_on_two_workers(&compile(&model), &tests.tests);
        usage::finish_isolated();
    }
    for shape in bench_models::chosen() {
        vetting(shape);
    }
}

/// Every vetting figure of one model.
fn vetting(shape: Shape) {
    let (model, tests) = bench_models::with_tests(shape);
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty());
    println!(
        "== {} model: {} rules, {} variables, {} tests",
        shape.name(),
        compiled.rules.len(),
        compiled.variables.len(),
        tests.tests.len()
    );

    let only = std::env::var("PRECEPT_BENCH_ONLY").ok();
    if only.as_deref() == Some("mutation") {
        let worker = SolverWorker::spawn(Duration::from_secs(5));
        worker.load(compiled.clone()).expect("load");
        mutation_figures(&worker, &compiled, &tests.tests, shape, None);
        return;
    }
    if only.as_deref() == Some("tests") {
        test_run_figures(&compiled, &tests.tests);
        return;
    }
    let start = Instant::now();
    let syntactic = syntactic::check(&model, &compiled);
    let syntactic_time = start.elapsed();

    println!(
        "lint syntactic: {} diagnostics in {:.0} ms",
        syntactic.len(),
        syntactic_time.as_secs_f64() * 1e3
    );
    let target = match shape {
        Shape::Sectioned => Duration::from_secs(5),
        Shape::Dense => Duration::from_secs(30),
    };
    let mut lint_outputs = Vec::new();
    for jobs in pool_sizes() {
        let (found, solver_time) = solver_lint(&compiled, jobs);
        let total = syntactic_time + solver_time;
        println!(
            "full lint, {jobs} worker(s): {:.1} s  target ≤ {} s (2 workers)  {}; peak memory so far {:.0} MB",
            total.as_secs_f64(),
            target.as_secs(),
            if total <= target { "PASS" } else { "MISS" },
            usage::peak_memory_mb()
        );
        lint_outputs.push(found);
    }
    // The findings (code, rules, variables, message) must agree; the
    // scenarios and fixes that illustrate them are counted where they
    // differ (on the dense model Z3 picks other values from one run to the
    // next, whatever the pool).
    let last = lint_outputs.len() - 1;
    let subjects = |found: &[precept::model::diagnostic::Diagnostic]| -> Vec<_> {
        found
            .iter()
            .map(|d| {
                (
                    d.code,
                    d.rules.clone(),
                    d.variables.clone(),
                    d.message.clone(),
                )
            })
            .collect()
    };
    let (first, other) = (subjects(&lint_outputs[0]), subjects(&lint_outputs[last]));
    for (a, b) in first.iter().zip(&other).filter(|(a, b)| a != b).take(3) {
        println!("DIFFERS:\n  1 worker:  {a:?}\n  2 workers: {b:?}");
    }
    assert!(
        first == other,
        "the lint's findings differ between 1 and 2 workers"
    );
    let illustrated = lint_outputs[0]
        .iter()
        .zip(&lint_outputs[last])
        .filter(|(a, b)| a != b)
        .count();
    println!(
        "full lint: the same findings on 1 and 2 workers; {illustrated} of {} with other scenarios or fixes",
        first.len()
    );
    if let Some(path) = std::env::var_os("PRECEPT_BENCH_LINT_JSON") {
        let json = serde_json::to_string_pretty(&lint_outputs[0]).expect("diagnostics as JSON");
        std::fs::write(&path, json).expect("the lint JSON is written");
    }
    if only.as_deref() == Some("lint") {
        return;
    }
    test_run_figures(&compiled, &tests.tests);

    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker.load(compiled.clone()).expect("load");
    let start = Instant::now();
    // Generation's budget: 60 s, the issue's target for `gen-tests`.
    let generation_budget = Duration::from_secs(60);
    let (generated, unanswered) = precept::testgen::generate::generate_within(
        std::slice::from_ref(&worker),
        &compiled,
        200,
        0,
        Some(start + generation_budget),
    );
    let elapsed = start.elapsed();
    println!(
        "generation, 1 worker: {} tests with proved findings in {:.1} s ({:.1} tests a second); {unanswered} question(s) left by its {} s budget",
        generated.len(),
        elapsed.as_secs_f64(),
        generated.len() as f64 / elapsed.as_secs_f64(),
        generation_budget.as_secs()
    );
    // One budget for the coverage and the mutants, as `precept coverage
    // --budget-s` has.
    let pool = Scheduler::new(2, Duration::from_secs(5));
    pool.load(&compiled).expect("the model loads");
    let start = Instant::now();
    let deadline = start + budget(shape);
    let report = coverage::rule_coverage_within(
        pool.workers(),
        &compiled,
        &tests.tests,
        &[],
        Some(deadline),
    );
    println!(
        "coverage, 2 workers: {:.0}% of {} rules covered both ways in {:.1} s; {} of {} tests left by the {} s budget",
        report.totals.covered_percent,
        report.totals.rules,
        start.elapsed().as_secs_f64(),
        report.over_budget.len(),
        tests.tests.len(),
        budget(shape).as_secs()
    );
    mutation_figures(&worker, &compiled, &tests.tests, shape, Some(deadline));
    let isolated = format!("{VETTING_ON_TWO}-{}", shape.name());
    match usage::peak_memory_in_fresh_process(&isolated) {
        Ok(mb) => println!(
            "peak memory of the vetting on 2 workers (lint, full test run, mutation within its budget; a fresh process): {mb:.0} MB  target ≤ 300 MB  {}",
            if mb <= 300.0 { "PASS" } else { "MISS" }
        ),
        Err(reason) => println!("peak memory of the vetting on 2 workers: not measured: {reason}"),
    }
}

/// The vetting jobs on one pool of 2 workers, one after another: the
/// solver lint, the full test run and the mutation analysis (every mutant,
/// within 60 s: the memory it needs is reached well before).
fn vetting_on_two_workers(
    compiled: &precept::model::CompiledModel,
    tests: &[precept::model::LogicTest],
) {
    let pool = Scheduler::new(2, Duration::from_secs(5));
    pool.load(compiled).expect("the model loads");
    let (events, received) = std::sync::mpsc::channel();
    pool.lint(precept::scheduler::JobId::next(), compiled.clone(), events);
    for event in received.iter() {
        if let LintEvent::Finished { .. } = event {
            break;
        }
    }
    precept::test_runner::run_tests_pooled(pool.workers(), compiled, tests);
    let all = mutation::mutants(compiled);
    let generated = all.len();
    precept::testgen::mutation_pool::mutation_score_within(
        pool.workers(),
        compiled,
        tests,
        all,
        generated,
        &|_| {},
        &precept::testgen::equivalence_cache::EquivalenceCache::in_memory(),
        Some(Instant::now() + Duration::from_secs(60)),
        None,
    );
}

/// The pool sizes measured: `PRECEPT_BENCH_JOBS` (one size), else 1 and 2.
fn pool_sizes() -> Vec<usize> {
    match std::env::var("PRECEPT_BENCH_JOBS") {
        Ok(jobs) => vec![jobs.trim().parse().expect("PRECEPT_BENCH_JOBS is a number")],
        Err(_) => vec![1, 2],
    }
}

/// The solver-backed lint on a pool of `jobs` workers: its diagnostics
/// and the time it took.
fn solver_lint(
    compiled: &precept::model::CompiledModel,
    jobs: usize,
) -> (Vec<precept::model::diagnostic::Diagnostic>, Duration) {
    let pool = Scheduler::new(jobs, Duration::from_secs(5));
    let (events, received) = std::sync::mpsc::channel();
    let (start, cpu) = (Instant::now(), usage::cpu_time());
    pool.lint(precept::scheduler::JobId::next(), compiled.clone(), events);
    let mut found = Vec::new();
    let mut progress_events = 0;
    for event in received.iter() {
        match event {
            LintEvent::Found(diagnostic) => found.push(*diagnostic),
            LintEvent::Progress { .. } => progress_events += 1,
            LintEvent::Finished {
                checks, undecided, ..
            } => {
                println!(
                    "lint solver, {jobs} worker(s): {} diagnostics, {checks} checks ({undecided} not decided), {progress_events} progress events, {:.1} s (CPU {:.1} s)",
                    found.len(),
                    start.elapsed().as_secs_f64(),
                    (usage::cpu_time() - cpu).as_secs_f64()
                );
                break;
            }
        }
    }
    (found, start.elapsed())
}

/// The full test run (every test of the suite) on pools of 1 and 2
/// workers, the model already loaded: the median of three runs each.
fn test_run_figures(compiled: &precept::model::CompiledModel, tests: &[precept::model::LogicTest]) {
    let mut outcomes = Vec::new();
    for jobs in [1, 2] {
        let pool = Scheduler::new(jobs, Duration::from_secs(5));
        pool.load(compiled).expect("the model loads");
        let mut times = Vec::new();
        let mut last = Vec::new();
        for _ in 0..3 {
            let start = Instant::now();
            last = precept::test_runner::run_tests_pooled(pool.workers(), compiled, tests);
            times.push(start.elapsed());
        }
        times.sort();
        let median = times[1];
        println!(
            "full test run, {jobs} worker(s): {} tests ({} passed) in {:.0} ms (median of 3)  target ≤ 1,200 ms  {}; peak memory so far {:.0} MB",
            last.len(),
            last.iter().filter(|o| o.passed).count(),
            median.as_secs_f64() * 1e3,
            if median <= Duration::from_millis(1200) {
                "PASS"
            } else {
                "MISS"
            },
            usage::peak_memory_mb()
        );
        // What a test decided, without the time it took.
        let decided: Vec<Decided> = last
            .into_iter()
            .map(|o| (o.id, o.finding, o.error, o.passed))
            .collect();
        outcomes.push(decided);
    }
    // The kinds of finding and the verdicts must agree; the scenarios
    // that illustrate them are counted where they differ.
    let verdicts = |run: &[Decided]| -> Vec<_> {
        run.iter()
            .map(|(id, finding, error, passed)| {
                (
                    id.clone(),
                    finding.as_ref().map(|f| f.kind),
                    error.clone(),
                    *passed,
                )
            })
            .collect()
    };
    assert!(
        verdicts(&outcomes[0]) == verdicts(&outcomes[1]),
        "the test run's verdicts differ between 1 and 2 workers"
    );
    let other_scenarios = outcomes[0]
        .iter()
        .zip(&outcomes[1])
        .filter(|(a, b)| a != b)
        .count();
    println!(
        "full test run: the same findings on 1 and 2 workers; {other_scenarios} of {} with other scenarios",
        outcomes[0].len()
    );
}

/// What a test decided, without the time it took.
type Decided = (
    String,
    Option<precept::solve::Finding>,
    Option<String>,
    bool,
);

/// Mutation analysis: the plain path (each mutant swapped into one worker,
/// a full question per test) on a sample of the sectioned model, as
/// before; then every mutant in schemata on pools of 1 and 2 workers, each
/// within what is left until `deadline` (from its own start, so both pools
/// get the same time; what is left then is counted in the summary, and the
/// pools are compared only when neither left any). With
/// `PRECEPT_BENCH_SKIP_PLAIN` set, the plain sample is left out.
fn mutation_figures(
    worker: &SolverWorker,
    compiled: &precept::model::CompiledModel,
    tests: &[precept::model::LogicTest],
    shape: Shape,
    deadline: Option<Instant>,
) {
    let all = mutation::mutants(compiled);
    let generated = all.len();
    let budget = deadline.map(|at| at.saturating_duration_since(Instant::now()));
    if shape == Shape::Sectioned && std::env::var_os("PRECEPT_BENCH_SKIP_PLAIN").is_none() {
        let chosen = mutation::spread(all.clone(), 100);
        let (start, cpu) = (Instant::now(), usage::cpu_time());
        let plain = mutation::mutation_score(worker, compiled, tests, chosen, generated);
        let (wall, cpu) = (start.elapsed(), usage::cpu_time() - cpu);
        println!(
            "mutation, plain path: {} of {generated} mutants in {:.1} s ({:.0} ms each; CPU {:.1} s), score {}",
            plain.evaluated,
            wall.as_secs_f64(),
            wall.as_secs_f64() * 1e3 / plain.evaluated.max(1) as f64,
            cpu.as_secs_f64(),
            plain.score_text
        );
    }
    let mut outcomes = Vec::new();
    let mut left_by_budget = false;
    for jobs in pool_sizes() {
        let pool = Scheduler::new(jobs, Duration::from_secs(5));
        pool.load(compiled).expect("the model loads");
        let (start, cpu) = (Instant::now(), usage::cpu_time());
        let report = precept::testgen::mutation_pool::mutation_score_within(
            pool.workers(),
            compiled,
            tests,
            all.clone(),
            generated,
            &|_| {},
            &precept::testgen::equivalence_cache::EquivalenceCache::in_memory(),
            budget.map(|budget| start + budget),
            None,
        );
        let (wall, cpu) = (start.elapsed(), usage::cpu_time() - cpu);
        println!(
            "mutation, schemata, {jobs} worker(s): all {} mutants in {:.1} s ({:.1} ms each; CPU {:.1} s), {}; peak memory so far {:.0} MB",
            report.evaluated,
            wall.as_secs_f64(),
            wall.as_secs_f64() * 1e3 / report.evaluated.max(1) as f64,
            cpu.as_secs_f64(),
            report.summary,
            usage::peak_memory_mb()
        );
        left_by_budget |= report.over_budget > 0;
        outcomes.push((report.summary.clone(), report.results));
    }
    assert!(
        left_by_budget || outcomes[0] == outcomes[outcomes.len() - 1],
        "the mutation analysis differs between 1 and 2 workers"
    );
    if let Some(path) = std::env::var_os("PRECEPT_BENCH_MUTATION_JSON") {
        let (summary, decided) = &outcomes[0];
        let json = serde_json::json!({ "summary": summary, "mutants": decided });
        let text = serde_json::to_string_pretty(&json).expect("outcomes as JSON");
        std::fs::write(&path, text).expect("the mutation JSON is written");
    }
}
