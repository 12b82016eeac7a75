//! Whole-model analyses on the dense model (`support/dense_model.rs`):
//! 1,500 random implications over 2,000 variables, nearly all in one cone.
//! Prints the model's shape, then the full lint's time with 1 and 2
//! workers, stage by stage, and the lint after each of three one-rule
//! edits on the same pool (which remembers the last run); then `gen-tests --max 150` (budget 60 s), the
//! rule coverage of those 150 tests accepted and the mutation score over
//! every mutant with 2 workers (one budget of 300 s for both), each with
//! what its budget left; and verify's median and p95 over 300 random questions, in
//! process, on a warm worker.
//!
//! Run: cargo bench --bench dense
//!
//! Knobs: `DENSE_RULES=N` lints only the first N rules (to see how the
//! time grows); `DENSE_LARGEST=1` only their largest group (whose checks
//! report their stages); `PRECEPT_BENCH_JOBS=2` only that pool size;
//! `DENSE_MODEL=sectioned` the same on the vetting bench's sectioned model;
//! `DENSE_ONLY=lint`, `=tests` or `=verify` only that part.

#[path = "support/bench_models.rs"]
mod bench_models;
#[path = "support/dense_model.rs"]
mod dense_model;
#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;
#[path = "support/synthetic.rs"]
mod synthetic;

use precept::model::compile;
use precept::scheduler::{JobId, Scheduler};
use precept::solve::lint_checks::LintEvent;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn main() {
    let mut model = match std::env::var("DENSE_MODEL").as_deref() {
        Ok("sectioned") => synthetic::synthetic().0,
        _ => dense_model::dense(),
    };
    if let Some(n) = std::env::var("DENSE_RULES")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        model.rules.truncate(n);
    }
    let mut compiled = compile(&model);
    assert!(compiled.issues.is_empty(), "{:?}", &compiled.issues[..1]);
    if std::env::var_os("DENSE_LARGEST").is_some() {
        // Only the largest group: its checks report their stages.
        let groups = scale_model::Groups::build(&compiled);
        let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
        for &g in &groups.rule_group {
            *sizes.entry(g).or_default() += 1;
        }
        let largest = sizes.iter().max_by_key(|(_, n)| **n).map(|(g, _)| *g);
        let keep: Vec<bool> = groups
            .rule_group
            .iter()
            .map(|g| Some(*g) == largest)
            .collect();
        let mut kept = keep.iter();
        model.rules.retain(|_| *kept.next().unwrap_or(&false));
        compiled = compile(&model);
    }
    let (groups, largest) = scale_model::Groups::build(&compiled).sizes();
    println!(
        "model: {} rules, {} variables, {} enum types; {groups} group(s), the largest with {largest} rules",
        compiled.rules.len(),
        compiled.variables.len(),
        compiled.enums.len()
    );
    let jobs: Vec<usize> = match std::env::var("PRECEPT_BENCH_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
    {
        Some(j) => vec![j],
        None => vec![1, 2],
    };
    let only = std::env::var("DENSE_ONLY").ok();
    let part = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if part("lint") {
        for jobs in jobs {
            let pool = lint(&compiled, jobs);
            relint_after_edits(&pool, &model, jobs);
        }
    }
    if part("tests") {
        test_analyses(&compiled);
    }
    if part("verify") {
        verify_latency(&compiled);
    }
}

/// Verify's latency on random questions (the dense model's own; the
/// sectioned model's are in `--bench scale`), in process on one warm
/// worker.
fn verify_latency(compiled: &precept::model::CompiledModel) {
    if std::env::var("DENSE_MODEL").as_deref() == Ok("sectioned") {
        return;
    }
    let worker = precept::solve::SolverWorker::spawn(Duration::from_secs(5));
    worker.load(compiled.clone()).expect("load");
    let parse = |text: &str| compiled.check_formula(text).expect("a question").1;
    let questions = dense_model::questions(301);
    // The first question warms the worker.
    let (premise, claim) = &questions[0];
    worker.verify(parse(premise), parse(claim));
    let mut latencies: Vec<Duration> = Vec::new();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for (premise, claim) in &questions[1..] {
        let (premise, claim) = (parse(premise), parse(claim));
        let start = Instant::now();
        let finding = worker.verify(premise, claim);
        latencies.push(start.elapsed());
        *kinds.entry(finding.kind.name()).or_default() += 1;
    }
    latencies.sort_unstable();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    println!(
        "verify, {} questions, 1 warm worker: median {:.1} ms, p95 {:.1} ms (target ≤ 150 ms); {kinds:?}",
        latencies.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.95).as_secs_f64() * 1e3
    );
}

/// `gen-tests --max 150`, the coverage of the 150 tests accepted, and the
/// mutation score over every mutant, on 2 workers, each within its budget.
fn test_analyses(compiled: &precept::model::CompiledModel) {
    use precept::testgen::generate::{accept, generate_within, to_proposed};
    let pool = Scheduler::new(2, Duration::from_secs(5));
    for worker in pool.workers() {
        worker.load(compiled.clone()).expect("load");
    }
    let start = Instant::now();
    let (generated, unanswered) = generate_within(
        pool.workers(),
        compiled,
        150,
        0,
        Some(start + Duration::from_secs(60)),
    );
    println!(
        "gen-tests --max 150, 2 workers: {:.1} s, {} tests, {unanswered} question(s) left by the 60 s budget",
        start.elapsed().as_secs_f64(),
        generated.len()
    );
    let tests: Vec<precept::model::LogicTest> = generated
        .iter()
        .enumerate()
        .map(|(n, test)| {
            let mut test = to_proposed(test, format!("T{n}"));
            accept(&mut test);
            test
        })
        .collect();
    // One budget of 300 s for the coverage and the mutants, as
    // `precept coverage --budget-s 300` has.
    let start = Instant::now();
    let deadline = Some(start + Duration::from_secs(300));
    let coverage = precept::testgen::coverage::rule_coverage_within(
        pool.workers(),
        compiled,
        &tests,
        &[],
        deadline,
    );
    println!(
        "coverage of {} tests, 2 workers: {:.1} s, {} of {} rules touched, {} test(s) left by the budget",
        tests.len(),
        start.elapsed().as_secs_f64(),
        coverage.rules.iter().filter(|r| r.touched).count(),
        coverage.rules.len(),
        coverage.over_budget.len()
    );
    let mutation_start = Instant::now();
    let all = precept::testgen::mutation::mutants(compiled);
    let generated = all.len();
    let cache = precept::testgen::equivalence_cache::EquivalenceCache::in_memory();
    let report = precept::testgen::mutation_pool::mutation_score_within(
        pool.workers(),
        compiled,
        &tests,
        all,
        generated,
        &|_| {},
        &cache,
        deadline,
        None,
    );
    println!(
        "mutation, every mutant, 2 workers: {:.1} s, {}",
        mutation_start.elapsed().as_secs_f64(),
        report.summary
    );
}

/// The solver lint on `jobs` workers, with the time each stage took.
fn lint(compiled: &precept::model::CompiledModel, jobs: usize) -> Scheduler {
    let pool = Scheduler::new(jobs, Duration::from_secs(5));
    let (events, received) = std::sync::mpsc::channel();
    let start = Instant::now();
    pool.lint(JobId::next(), compiled.clone(), events);
    let mut stages: BTreeMap<String, Duration> = BTreeMap::new();
    let (mut stage, mut since) = (String::from("start"), Instant::now());
    let mut found = 0;
    for event in received.iter() {
        match event {
            LintEvent::Found(_) => found += 1,
            LintEvent::Progress { stage: now, .. } if now != stage => {
                *stages.entry(stage.clone()).or_default() += since.elapsed();
                (stage, since) = (now.to_string(), Instant::now());
            }
            LintEvent::Progress { .. } => {}
            LintEvent::Finished {
                checks, undecided, ..
            } => {
                *stages.entry(stage.clone()).or_default() += since.elapsed();
                println!(
                    "lint, {jobs} worker(s): {:.1} s, {found} diagnostics, {checks} checks ({undecided} not decided)",
                    start.elapsed().as_secs_f64()
                );
                break;
            }
        }
    }
    for (stage, time) in stages {
        println!("  {stage:<40} {:>8.2} s", time.as_secs_f64());
    }
    pool
}

/// The lint after a one-rule edit (a further condition on a rule, as the
/// workbench bench edits), three times on `pool`, which remembers the last
/// run's groups and answers: the engine's part of a current vetting pane,
/// with nothing else running.
fn relint_after_edits(pool: &Scheduler, model: &precept::model::PolicyModel, jobs: usize) {
    let mut model = model.clone();
    let mut times = Vec::new();
    for round in 0..3 {
        let index = (round * 149 + 71) % model.rules.len();
        let rule = &mut model.rules[index];
        if rule.expression.starts_with("(=> ") {
            let (condition, conclusion) = bench_models::implication(&rule.expression);
            rule.expression = format!(
                "(=> (and {condition} b{}) {conclusion})",
                (round * 37 + 11) % dense_model::BOOLS
            );
        }
        let compiled = compile(&model);
        let (events, received) = std::sync::mpsc::channel();
        let start = Instant::now();
        pool.lint(JobId::next(), compiled, events);
        let mut found = 0;
        for event in received.iter() {
            match event {
                LintEvent::Found(_) => found += 1,
                LintEvent::Finished { checks, .. } => {
                    let time = start.elapsed();
                    println!(
                        "  lint after edit {round}: {:.0} ms, {found} diagnostics, {checks} checks",
                        time.as_secs_f64() * 1e3
                    );
                    times.push(time);
                    break;
                }
                LintEvent::Progress { .. } => {}
            }
        }
    }
    times.sort();
    if let Some(median) = times.get(times.len() / 2) {
        println!(
            "lint after a one-rule edit, {jobs} worker(s), remembering the last run: median {:.0} ms",
            median.as_secs_f64() * 1e3
        );
    }
}
