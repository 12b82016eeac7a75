//! Vetting benchmark on the 1,500-rule synthetic model: full lint time (with
//! progress), test generation throughput, and coverage and mutation time.
//! Target: full lint ≤ 30 s.
//!
//! Run: cargo bench --bench vetting

#[path = "support/synthetic.rs"]
mod synthetic;
#[path = "support/usage.rs"]
mod usage;

use precept::core::lint::syntactic;
use precept::core::model::compile;
use precept::core::solve::lint_checks::LintEvent;
use precept::core::solve::{SolverPool, SolverWorker};
use precept::core::testgen::{coverage, mutation};
use std::time::{Duration, Instant};

fn main() {
    let (model, tests) = synthetic::synthetic();
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty());
    println!(
        "model: {} rules, {} variables, {} tests",
        compiled.rules.len(),
        compiled.variables.len(),
        tests.tests.len()
    );

    let start = Instant::now();
    let syntactic = syntactic::check(&model, &compiled);
    let syntactic_time = start.elapsed();

    let worker = SolverWorker::spawn(Duration::from_secs(5));
    let (events, received) = std::sync::mpsc::channel();
    let start = Instant::now();
    worker.lint(compiled.clone(), events);
    let mut found = 0;
    let mut progress_events = 0;
    let mut checks = 0;
    let mut undecided = 0;
    for event in received.iter() {
        match event {
            LintEvent::Found(_) => found += 1,
            LintEvent::Progress { .. } => progress_events += 1,
            LintEvent::Finished {
                checks: c,
                undecided: u,
            } => {
                checks = c;
                undecided = u;
                break;
            }
        }
    }
    let solver_time = start.elapsed();
    let total = syntactic_time + solver_time;
    println!(
        "lint syntactic: {} diagnostics in {:.0} ms",
        syntactic.len(),
        syntactic_time.as_secs_f64() * 1e3
    );
    println!(
        "lint solver: {found} diagnostics, {checks} checks ({undecided} not decided), {progress_events} progress events, {:.1} s",
        solver_time.as_secs_f64()
    );
    println!(
        "full lint {:.1} s  target ≤ 30 s  {}",
        total.as_secs_f64(),
        if total <= Duration::from_secs(30) {
            "PASS"
        } else {
            "MISS"
        }
    );

    worker.load(compiled.clone()).expect("load");
    let start = Instant::now();
    let generated = precept::core::testgen::generate::generate(&worker, &compiled, 200, 0);
    let elapsed = start.elapsed();
    println!(
        "generation: {} tests with proved findings in {:.1} s ({:.1} tests a second)",
        generated.len(),
        elapsed.as_secs_f64(),
        generated.len() as f64 / elapsed.as_secs_f64()
    );
    let start = Instant::now();
    let report = coverage::rule_coverage(&worker, &compiled, &tests.tests);
    println!(
        "coverage: {:.0}% of {} rules covered both ways in {:.1} s",
        report.totals.covered_percent,
        report.totals.rules,
        start.elapsed().as_secs_f64()
    );
    mutation_figures(&worker, &compiled, &tests.tests);
}

/// Mutation analysis: the plain path (each mutant swapped into one worker,
/// a full question per test) on a sample, as before; then every mutant in
/// schemata on pools of 1 and 2 workers. With `PRECEPT_BENCH_SKIP_PLAIN`
/// set, the plain sample is left out.
fn mutation_figures(
    worker: &SolverWorker,
    compiled: &precept::core::model::CompiledModel,
    tests: &[precept::core::model::LogicTest],
) {
    let all = mutation::mutants(compiled);
    let generated = all.len();
    if std::env::var_os("PRECEPT_BENCH_SKIP_PLAIN").is_none() {
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
    for jobs in [1, 2] {
        let pool = SolverPool::spawn(jobs, Duration::from_secs(5));
        pool.load(compiled).expect("the model loads");
        let (start, cpu) = (Instant::now(), usage::cpu_time());
        let report = precept::core::testgen::mutation_pool::mutation_score_pooled(
            &pool,
            compiled,
            tests,
            all.clone(),
            generated,
            &|_| {},
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
    }
}
