//! Lifecycle benchmark (issues 18 and 37), on both bench models.
//!
//! First the semantic diff of a 1,500-rule model against a copy with 10
//! edited rules (5 pure rewrites `(not (not E))`, 5 changes of meaning
//! `(or E true)`): the time for the text diff, and for the behaviour
//! (equivalence, the distinguishing scenarios with their minimization, and
//! the rewrite check of each changed rule). The sectioned model here is
//! `support/scale_model.rs` at 75% coupling; the dense one is
//! `support/dense_model.rs`. Target: ≤ 5 s.
//!
//! Then the report (`precept report`) of a 1,500-rule model with its tests
//! (`support/bench_models.rs`: the sectioned one with 1,000, the dense one
//! with 300), a document with a section per 75 rules and a paragraph per
//! rule, version 1 frozen and 10 rules edited since: first the figures
//! from scratch (lint, tests, coverage, every mutant, the diff against
//! version 1), each stage timed, within the budget `precept report
//! --budget-s` gives (30 s sectioned, 120 s dense, the targets),
//! with what the budget left; then, when nothing was left, the whole report
//! as `precept report` makes it once those figures are filed (by an
//! earlier report, or by `precept lint`, `test` and `coverage`): load,
//! figures reused, versions and sign-offs checked, HTML written, and the
//! file's size. Target: ≤ 2 s and under 5 MB.
//!
//! Then, alone with `LIFECYCLE_BENCH_ONLY=coverage`, the rule coverage of
//! the sectioned model and its 1,000 tests on the solver pool: with every
//! finding proved (`precept coverage`), and from a test run's findings
//! (the report's coverage stage). Target: ≤ 1 s with 2 workers.
//! `LIFECYCLE_BENCH_ONLY=diff` or `=report` runs only that part;
//! `PRECEPT_BENCH_MODEL=sectioned` or `=dense` only that model.
//!
//! Run with `cargo bench --bench lifecycle`. Plain `fn main`, no harness.

#[path = "support/bench_models.rs"]
mod bench_models;
#[path = "support/dense_model.rs"]
mod dense_model;
#[path = "support/synthetic.rs"]
mod synthetic;

#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;

use bench_models::Shape;
use precept::lifecycle::behaviour::compare;
use precept::lifecycle::report::figures::{
    Figures, MutationChoice, NoDiff, QualitySource, history, quality,
};
use precept::lifecycle::report::figures_cache::FiguresCache;
use precept::lifecycle::report::render;
use precept::lifecycle::text_diff::text_diff;
use precept::lifecycle::versions::freeze;
use precept::model::compile;
use precept::model::{Project, Settings, SourceSpan};
use precept::scheduler::Scheduler;
use precept::test_runner::run_tests_pooled;
use precept::testgen::coverage::{rule_coverage_pooled, rule_coverage_with_outcomes};
use scale_model::{Rng, SEED, generate};
use std::time::Duration;
use std::time::Instant;

const RUNS: usize = 3;

fn main() {
    match std::env::var("LIFECYCLE_BENCH_ONLY").as_deref() {
        Ok("diff") => bench_models::chosen().into_iter().for_each(diff_bench),
        Ok("report") => bench_models::chosen().into_iter().for_each(report_bench),
        Ok("coverage") => coverage_bench(),
        _ => {
            for shape in bench_models::chosen() {
                diff_bench(shape);
                report_bench(shape);
            }
        }
    }
}

fn diff_bench(shape: Shape) {
    let a = match shape {
        Shape::Sectioned => generate(&mut Rng::new(SEED), 75).0,
        Shape::Dense => dense_model::dense(),
    };
    let mut b = a.clone();
    let step = b.rules.len() / 10;
    for (k, rule) in b.rules.iter_mut().step_by(step).take(10).enumerate() {
        rule.expression = if k % 2 == 0 {
            format!("(not (not {}))", rule.expression)
        } else {
            format!("(or {} true)", rule.expression)
        };
    }
    let (a_compiled, b_compiled) = (compile(&a), compile(&b));
    println!(
        "lifecycle diff, {} model: {} rules, {} variables, 10 edited",
        shape.name(),
        a.rules.len(),
        a.variables.len()
    );
    for run in 0..RUNS {
        let start = Instant::now();
        let text = text_diff(&a, &a_compiled, &b, &b_compiled);
        let text_time = start.elapsed();
        let changed: Vec<String> = text.rules_changed.iter().map(|c| c.id.clone()).collect();
        let start = Instant::now();
        let behaviour = compare(&a, &b, &changed, 10_000);
        let behaviour_time = start.elapsed();
        let changed_meaning = behaviour
            .rules
            .iter()
            .filter(|r| r.meaning_changed == Some(true))
            .count();
        println!(
            "run {run}: text {:.1} ms, behaviour {:.0} ms ({:?}; {} of {} changed rules change meaning; scenario sizes {:?} / {:?}; notes {:?})",
            text_time.as_secs_f64() * 1e3,
            behaviour_time.as_secs_f64() * 1e3,
            behaviour.relation,
            changed_meaning,
            changed.len(),
            behaviour.a_allows_not_b.as_ref().map(|s| s.values.len()),
            behaviour.b_allows_not_a.as_ref().map(|s| s.values.len()),
            behaviour.notes
        );
    }
}

/// The bench model's project on disk with its document, version 1 frozen
/// and 10 rules edited in the draft.
fn bench_project(dir: &std::path::Path, shape: Shape) -> Project {
    let (mut model, tests) = bench_models::with_tests(shape);
    let mut document = format!("# {}\n\n", model.title);
    for (i, rule) in model.rules.iter_mut().enumerate() {
        if i % synthetic::RULES_PER_SECTION == 0 {
            document += &format!("## Section {}\n\n", i / synthetic::RULES_PER_SECTION + 1);
        }
        let start = document.len();
        document += &format!(
            "Rule {} of this section holds when its conditions are met, as the handbook states in \
             the paragraph numbered {i}.",
            rule.id
        );
        rule.source_span = Some(SourceSpan {
            start,
            end: document.len(),
        });
        document += "\n\n";
    }
    let settings = Settings {
        document: Some("policy.md".into()),
        ..Settings::default()
    };
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("policy.md"), &document).unwrap();
    Project::create(dir, model, tests, settings).expect("the project");
    freeze(dir, "benchmark", "2026-01-01T00:00:00Z").expect("version 1");
    let mut project = Project::load(dir).expect("loads");
    let step = project.model.rules.len() / 10;
    for (k, rule) in project
        .model
        .rules
        .iter_mut()
        .step_by(step)
        .take(10)
        .enumerate()
    {
        rule.expression = if k % 2 == 0 {
            format!("(not (not {}))", rule.expression)
        } else {
            format!("(or {} true)", rule.expression)
        };
    }
    project.save_model().unwrap();
    Project::load(dir).expect("loads")
}

fn report_bench(shape: Shape) {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let dir = scratch.path().join(shape.name());
    let project = bench_project(&dir, shape);
    let compiled = project.compile_strict().expect("compiles");
    let budget = match shape {
        Shape::Sectioned => Duration::from_secs(30),
        Shape::Dense => Duration::from_secs(120),
    };
    println!(
        "report, {} model: {} rules, {} tests, {} bytes of document; figures from scratch within a budget of {} s",
        shape.name(),
        compiled.rules.len(),
        project.tests.tests.len(),
        project.document.as_ref().map_or(0, String::len),
        budget.as_secs()
    );
    let timeout_ms = 10_000;
    let start_pool = || {
        let pool = Scheduler::new(Scheduler::default_jobs(), Duration::from_millis(timeout_ms));
        pool.load(&compiled).map(|()| pool)
    };
    let cache = FiguresCache::of_project(&project);
    let started = Instant::now();
    let source = QualitySource {
        start_pool: &start_pool,
        cache: Some(&cache),
        timeout_ms,
        deadline: Some(started + budget),
    };
    // First the figures from scratch, every mutant (the report's default),
    // each stage timed through the progress callback. What is complete is
    // filed in the project's cache, as `precept lint`, `test`, `coverage`
    // and `report` file them; what the budget cut short is not.
    let stages = std::sync::Mutex::new(Vec::<(String, Instant)>::new());
    let note = |stage: &str| {
        stages
            .lock()
            .unwrap()
            .push((stage.to_string(), Instant::now()))
    };
    let mutation = MutationChoice::All;
    let scratch_figures =
        quality(&project, &compiled, &source, mutation, &note).expect("the figures");
    note("done");
    for pair in stages.into_inner().unwrap().windows(2) {
        println!(
            "  from scratch, {}: {:.1} s",
            pair[0].0,
            (pair[1].1 - pair[0].1).as_secs_f64()
        );
    }
    let started_history = Instant::now();
    let history_figures = history(&dir, Some(&cache), timeout_ms, source.deadline);
    let diff_left = matches!(history_figures.diff, Err(NoDiff::OverBudget));
    let all = started.elapsed();
    println!(
        "  from scratch, versions + sign-offs + diff against version 1: {:.1} s (all figures: {:.1} s  target ≤ {} s or a clear budget report  {})",
        started_history.elapsed().as_secs_f64(),
        all.as_secs_f64(),
        budget.as_secs(),
        match (
            scratch_figures.cut_short.is_empty() && !diff_left,
            all <= budget
        ) {
            (true, true) => "PASS",
            (false, _) => "BUDGET REPORT",
            (true, false) => "MISS",
        }
    );
    for left in &scratch_figures.cut_short {
        println!("  the budget left: {left}");
    }
    if diff_left {
        println!("  the budget left: the diff against version 1");
    }
    if !scratch_figures.cut_short.is_empty() || diff_left {
        println!(
            "  report with the figures reused: not measured (a figure cut short is not filed)"
        );
        return;
    }
    // Then `precept report` as an expert runs it after vetting: load and
    // compile the project, take the figures and the diff from the cache,
    // check the versions and sign-offs, write the HTML. Target ≤ 2 s.
    for run in 0..RUNS {
        let started = Instant::now();
        let project = Project::load(&dir).expect("loads");
        let compiled = project.compile_strict().expect("compiles");
        let loaded = started.elapsed();
        let source = QualitySource {
            deadline: None,
            ..source
        };
        let quality = quality(&project, &compiled, &source, mutation, &|_| {}).expect("figures");
        let history = history(&dir, Some(&cache), timeout_ms, None);
        let figured = started.elapsed();
        let figures = Figures {
            generated: "2026-01-01T00:00:00Z".into(),
            quality,
            probe: None,
            history,
        };
        let html = render(&project, &compiled, &figures, None);
        println!(
            "run {run}: report with the figures reused {:.0} ms (load + compile {:.0} ms, \
             figures + versions + diff {:.0} ms, HTML {:.0} ms), {:.2} MB; {} lint findings, \
             diff {}",
            started.elapsed().as_secs_f64() * 1e3,
            loaded.as_secs_f64() * 1e3,
            (figured - loaded).as_secs_f64() * 1e3,
            (started.elapsed() - figured).as_secs_f64() * 1e3,
            html.len() as f64 / 1e6,
            figures.quality.lint.value.len(),
            figures
                .history
                .diff
                .as_ref()
                .map_or_else(|e| e.to_string(), |d| d.value.relation.clone()),
        );
    }
}

/// The coverage stage alone, on the report's project and a pool of one
/// worker per core, each figure three times.
fn coverage_bench() {
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let dir = scratch.path().join("synthetic");
    let project = bench_project(&dir, Shape::Sectioned);
    let compiled = project.compile_strict().expect("compiles");
    let tests = &project.tests.tests;
    let jobs = Scheduler::default_jobs();
    let pool = Scheduler::new(jobs, Duration::from_secs(10));
    pool.load(&compiled).expect("loads");
    println!(
        "coverage: {} rules, {} tests, {jobs} workers",
        compiled.rules.len(),
        tests.len()
    );
    let started = Instant::now();
    let outcomes = run_tests_pooled(pool.workers(), &compiled, tests);
    println!(
        "test run (the report's findings): {:.2} s",
        started.elapsed().as_secs_f64()
    );
    for run in 0..RUNS {
        let started = Instant::now();
        let proved = rule_coverage_pooled(pool.workers(), &compiled, tests);
        let proved_time = started.elapsed();
        let started = Instant::now();
        let reused = rule_coverage_with_outcomes(pool.workers(), &compiled, tests, &outcomes);
        let reused_time = started.elapsed();
        let undecided: usize = reused.rules.iter().map(|r| r.undecided_by.len()).sum();
        assert_eq!(
            serde_json::to_string(&proved).unwrap(),
            serde_json::to_string(&reused).unwrap(),
            "the two ways give different reports"
        );
        println!(
            "run {run}: findings proved too {:.2} s; from the test run {:.2} s ({} of {} rules \
             covered, {} touched, {undecided} undecided checks)",
            proved_time.as_secs_f64(),
            reused_time.as_secs_f64(),
            reused.totals.covered,
            reused.totals.rules,
            reused.totals.touched,
        );
    }
}
