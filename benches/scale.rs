//! Scale benchmark: a synthetic policy model the size ARC reports for a
//! 274-page document (about 600 enum types, 2,000 variables, 1,500 rules;
//! see `benches/support/scale_model.rs`), timed through load, parse,
//! type-check, solver load, verify and rule edits, all through the product's
//! own code; then the same on the dense model (`support/dense_model.rs`,
//! nearly every rule in one cone), whose claims read its rules forwards,
//! deny their conclusions, or are random questions.
//!
//! Run with `cargo bench --bench scale` (`PRECEPT_BENCH_MODEL=sectioned` or
//! `=dense`: only that model; with both, each runs in a process of its own,
//! so its memory figures are its own). Plain `fn main`, no harness. Where
//! the verify time goes, phase by phase, is `cargo bench --bench
//! scale_breakdown`.
//!
//! Knobs: `SCALE_CLAIMS` (default 200), `SCALE_COUPLING` (percentage of
//! sections whose coupling rule reaches outside the section; default 100),
//! `SCALE_FINDINGS` (a file to write each claim's finding to, one JSON per
//! line, to compare two builds' findings).
//!
//! Verify median and p95 are reported on 1 and on 2 workers (claims queued
//! at once, and one at a time with each claim's two sides split over the
//! two workers, `Scheduler::verify`); the peak memory
//! with 2 workers is measured alone, in a fresh copy of this process
//! (`scale --isolated verify-2-workers-sectioned`, or `-dense`, runs just
//! that).

#[path = "support/bench_models.rs"]
mod bench_models;
#[path = "support/dense_model.rs"]
mod dense_model;
#[path = "../tests/support/evidence.rs"]
mod evidence;
#[path = "support/scale_model.rs"]
mod scale_model;
#[path = "support/synthetic.rs"]
mod synthetic;
#[path = "support/usage.rs"]
mod usage;

use bench_models::Shape;
use precept::model::{PolicyModel, compile};
use precept::solve::{FindingKind, SolverWorker};
use scale_model::{Groups, Rng, SEED, Section, generate, ms, parse, quantile, random_claim};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const CLAIMS: usize = 200;
const EDITS: usize = 20;
/// The isolated measurement of the peak memory of verifying on 2 workers,
/// followed by `-sectioned` or `-dense`.
const VERIFY_ON_TWO: &str = "verify-2-workers";

/// What the bench asks of a model: random claims, and one-rule edits each
/// with a question about the edited rule.
enum Workload {
    /// The sections of `scale_model.rs`.
    Sectioned(Vec<Section>),
    /// The dense model (`dense_model.rs`), whose rules are read and edited,
    /// and random questions about it.
    Dense(PolicyModel, Vec<(String, String)>),
}

impl Workload {
    /// The model of `shape` (the sectioned one at `SCALE_COUPLING`), drawn
    /// from `rng` first, and its workload.
    fn generate(shape: Shape, rng: &mut Rng) -> (PolicyModel, Workload) {
        match shape {
            Shape::Sectioned => {
                let coupling: u64 = std::env::var("SCALE_COUPLING")
                    .ok()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(100);
                let (model, sections) = generate(rng, coupling);
                (model, Workload::Sectioned(sections))
            }
            Shape::Dense => {
                let model = dense_model::dense();
                let questions = dense_model::questions(500);
                (model.clone(), Workload::Dense(model, questions))
            }
        }
    }

    /// A random claim (premise, claim). On the dense model a third read a
    /// rule forwards, a third deny its conclusion and a third are random
    /// questions, so the findings are of more than one kind.
    fn claim(&self, rng: &mut Rng) -> (String, String) {
        match self {
            Workload::Sectioned(sections) => random_claim(rng, sections),
            Workload::Dense(model, questions) => {
                let rule = &model.rules[rng.below(model.rules.len())];
                let (condition, conclusion) = bench_models::implication(&rule.expression);
                match rng.below(3) {
                    0 => (condition, conclusion),
                    1 => (condition, format!("(not {conclusion})")),
                    _ => questions[rng.below(questions.len())].clone(),
                }
            }
        }
    }

    /// A one-rule edit: the rule's id, its new text, and a question about
    /// it (premise, claim). The sectioned model's edit sets the section's
    /// amount threshold; the dense model's adds a condition to a rule,
    /// which keeps the model consistent.
    fn edit(&self, rng: &mut Rng) -> (String, String, String, String) {
        match self {
            Workload::Sectioned(sections) => {
                let s = rng.below(sections.len());
                let sec = &sections[s];
                let threshold = rng.range(2, 10) * 50;
                (
                    format!("R{}", sec.amount_rule + 1),
                    format!(
                        "(=> (and (= tier_{s} {}) hasDocs_{s}) (>= amount_{s} {threshold}.0))",
                        sec.tiers[0]
                    ),
                    format!("(and (= tier_{s} {}) hasDocs_{s})", sec.tiers[0]),
                    format!("(>= amount_{s} {}.0)", sec.amount_min.max(threshold)),
                )
            }
            Workload::Dense(model, _) => {
                let rule = &model.rules[rng.below(model.rules.len())];
                let (condition, conclusion) = bench_models::implication(&rule.expression);
                let extra = format!("b{}", rng.below(dense_model::BOOLS));
                (
                    rule.id.clone(),
                    format!("(=> (and {condition} {extra}) {conclusion})"),
                    condition,
                    conclusion,
                )
            }
        }
    }
}

/// (VmRSS, VmHWM) in kB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

struct Row {
    name: String,
    actual: String,
    target: String,
    verdict: &'static str,
}

fn row(name: &str, actual: String, target: &str, pass: Option<bool>) -> Row {
    Row {
        name: name.to_string(),
        actual,
        target: target.to_string(),
        verdict: match pass {
            Some(true) => "PASS",
            Some(false) => "MISS",
            None => "info",
        },
    }
}

fn main() {
    if let Some(name) = usage::isolated_measurement() {
        let shape = bench_models::chosen()
            .into_iter()
            .find(|shape| name == format!("{VERIFY_ON_TWO}-{}", shape.name()))
            .expect("an isolated measurement this bench knows");
        verify_on_two_workers(shape);
        usage::finish_isolated();
    }
    match bench_models::chosen().as_slice() {
        [shape] => scale(*shape),
        shapes => {
            // Each model in a process of its own, so that the memory
            // figures are that model's alone.
            let exe = std::env::current_exe().expect("the path to this bench");
            for shape in shapes {
                let status = std::process::Command::new(&exe)
                    .args(std::env::args().skip(1))
                    .env("PRECEPT_BENCH_MODEL", shape.name())
                    .status()
                    .expect("the bench runs again");
                assert!(status.success(), "the {} model's run failed", shape.name());
            }
        }
    }
}

/// Every figure of one model.
fn scale(shape: Shape) {
    let mut rng = Rng::new(SEED);
    let mut stages: Vec<(&str, u64)> = Vec::new();
    stages.push(("start", memory().0));

    // --- Generate --------------------------------------------------------
    let started = Instant::now();
    let (model, workload) = Workload::generate(shape, &mut rng);
    let generate_time = started.elapsed();
    stages.push(("model generated", memory().0));

    // --- 1. Load + parse + type-check -------------------------------------
    let started = Instant::now();
    let json = serde_json::to_string_pretty(&model).expect("serialize the model");
    let serialize_time = started.elapsed();
    drop(model);
    stages.push(("serialized to JSON", memory().0));

    let started = Instant::now();
    let parsed: PolicyModel = serde_json::from_str(&json).expect("parse the model JSON");
    let parse_time = started.elapsed();
    stages.push(("JSON parsed", memory().0));

    let started = Instant::now();
    let compiled = compile(&parsed);
    let compile_time = started.elapsed();
    stages.push(("compiled", memory().0));
    assert!(
        compiled.issues.is_empty(),
        "the generated model has issues: {:?}",
        compiled
            .issues
            .iter()
            .take(5)
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    );
    let load_total = parse_time + compile_time;

    // The English of every rule, as the workbench's rule list shows it.
    let started = Instant::now();
    let english_chars: usize = compiled
        .rules
        .iter()
        .map(|r| compiled.glossary.sentence(&r.written).len())
        .sum();
    let english_time = started.elapsed();

    // --- 2. Solver load -----------------------------------------------------
    let to_load = compiled.clone();
    let started = Instant::now();
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    let spawn_time = started.elapsed();
    worker
        .load(to_load)
        .expect("load the model into the solver");
    let solver_load_time = started.elapsed();
    stages.push(("solver loaded", memory().0));

    // Consistency: with premise `true` the model must be satisfiable.
    let started = Instant::now();
    let consistency = worker.verify(parse(&compiled, "true"), parse(&compiled, "true"));
    let consistency_time = started.elapsed();
    assert!(
        !matches!(
            consistency.kind,
            FindingKind::Impossible | FindingKind::TooComplex
        ),
        "the generated policy is not consistent: {consistency:?}"
    );

    // --- 3. Verify latency --------------------------------------------------
    let claim_count: usize = std::env::var("SCALE_CLAIMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CLAIMS);
    let mut latencies = Vec::with_capacity(claim_count);
    let mut check_times = Vec::with_capacity(claim_count);
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut slowest: Vec<(Duration, String, String, FindingKind, usize)> = Vec::new();
    let mut claims: Vec<(String, String, FindingKind)> = Vec::new();
    let mut dumped = Vec::new();
    // Findings whose scenarios break a rule, the premise or the claim.
    let mut not_evidence = Vec::new();
    for _ in 0..claim_count {
        let (premise_text, claim_text) = workload.claim(&mut rng);
        let started = Instant::now();
        let premise = parse(&compiled, &premise_text);
        let claim = parse(&compiled, &claim_text);
        check_times.push(started.elapsed());
        let started = Instant::now();
        let finding = worker.verify(premise.clone(), claim.clone());
        let elapsed = started.elapsed();
        latencies.push(elapsed);
        if !evidence::scenarios_are_evidence(&finding, &premise, &claim, &compiled) {
            not_evidence.push(format!("{premise_text} => {claim_text}"));
        }
        *kinds.entry(finding.kind.name()).or_default() += 1;
        dumped.push(serde_json::to_string(&finding).expect("a finding as JSON"));
        claims.push((premise_text.clone(), claim_text.clone(), finding.kind));
        slowest.push((
            elapsed,
            premise_text,
            claim_text,
            finding.kind,
            finding.rules().len(),
        ));
    }
    stages.push(("claims verified", memory().0));
    if let Some(path) = std::env::var_os("SCALE_FINDINGS") {
        std::fs::write(&path, dumped.join("\n") + "\n").expect("write the findings");
    }
    let mut sorted = latencies.clone();
    sorted.sort_unstable();
    let verify_median = quantile(&sorted, 0.5);
    let verify_p95 = quantile(&sorted, 0.95);
    let verify_max = *sorted.last().unwrap();
    check_times.sort_unstable();
    assert!(
        kinds.len() > 1,
        "every claim got the same finding: {kinds:?}"
    );
    assert!(
        not_evidence.is_empty(),
        "scenarios that are not evidence for {} finding(s), e.g. {:?}",
        not_evidence.len(),
        not_evidence.first()
    );

    // --- 5. Edit one rule -----------------------------------------------------
    let mut edit_latencies = Vec::with_capacity(EDITS);
    let mut baseline_latencies = Vec::with_capacity(EDITS);
    for _ in 0..EDITS {
        let (id, rule_text, premise_text, claim_text) = workload.edit(&mut rng);
        let new_rule = parse(&compiled, &rule_text);
        // The same verify without an edit, for comparison.
        let started = Instant::now();
        worker.verify(
            parse(&compiled, &premise_text),
            parse(&compiled, &claim_text),
        );
        baseline_latencies.push(started.elapsed());
        let (premise, claim) = (
            parse(&compiled, &premise_text),
            parse(&compiled, &claim_text),
        );
        let started = Instant::now();
        worker.replace_rule(&id, Some(new_rule));
        let finding = worker.verify(premise, claim);
        edit_latencies.push(started.elapsed());
        assert!(
            !matches!(
                finding.kind,
                FindingKind::Impossible | FindingKind::TooComplex
            ),
            "edit {id} broke the model: {finding:?}"
        );
    }
    stages.push(("20 edits", memory().0));
    edit_latencies.sort_unstable();
    baseline_latencies.sort_unstable();
    let edit_median = quantile(&edit_latencies, 0.5);
    let baseline_median = quantile(&baseline_latencies, 0.5);

    // The first claims again, now that the edits made the worker re-derive
    // what it caches about the model (on a warm solver).
    let mut again: Vec<Duration> = claims
        .iter()
        .take(40)
        .map(|(premise, claim, _)| {
            let (p, c) = (parse(&compiled, premise), parse(&compiled, claim));
            let started = Instant::now();
            worker.verify(p, c);
            started.elapsed()
        })
        .collect();
    again.sort_unstable();
    let again_median = quantile(&again, 0.5);

    // --- 4. Peak memory ---------------------------------------------------------
    let (_, hwm_kb) = memory();
    drop(worker);

    // --- Report -----------------------------------------------------------------
    let enum_values: usize = compiled.enums.iter().map(|(_, v)| v.len()).sum();
    println!();
    match &workload {
        Workload::Sectioned(sections) => println!(
            "Precept scale benchmark, sectioned model (seed {SEED:#x}, {} sections)",
            sections.len()
        ),
        Workload::Dense(..) => println!("Precept scale benchmark, dense model"),
    }
    println!(
        "model: {} enum types ({} values), {} variables, {} rules; JSON {:.1} KiB",
        compiled.enums.len(),
        enum_values,
        compiled.variables.len(),
        compiled.rules.len(),
        json.len() as f64 / 1024.0
    );
    let (groups, largest) = Groups::build(&compiled).sizes();
    println!(
        "rules sharing variables form {groups} group(s), the largest with {largest} rules (sections are coupled through shared variables)"
    );
    println!(
        "generate {:.1} ms, serialize {:.1} ms, solver thread spawn {:.2} ms, consistency check (true/true) {:.1} ms -> {}",
        ms(generate_time),
        ms(serialize_time),
        ms(spawn_time),
        ms(consistency_time),
        consistency.kind.name()
    );
    println!();

    let hwm_mb = hwm_kb as f64 / 1024.0;
    let rows = vec![
        row(
            "1a JSON parse (serde_json)",
            format!("{:.1} ms", ms(parse_time)),
            "",
            None,
        ),
        row(
            "1b compile (parse + type-check)",
            format!("{:.1} ms", ms(compile_time)),
            "",
            None,
        ),
        row(
            &format!("1c English of every rule ({} KiB)", english_chars / 1024),
            format!("{:.1} ms", ms(english_time)),
            "",
            None,
        ),
        row(
            "1  load + parse + type-check",
            format!("{:.1} ms", ms(load_total)),
            "<= 1000 ms",
            Some(load_total <= Duration::from_secs(1)),
        ),
        row(
            "2  solver load (spawn + load)",
            format!("{:.1} ms", ms(solver_load_time)),
            "",
            None,
        ),
        row(
            &format!("3  verify median ({claim_count} claims)"),
            format!("{:.1} ms", ms(verify_median)),
            "<= 40 ms",
            Some(verify_median <= Duration::from_millis(40)),
        ),
        row(
            "3  verify p95",
            format!("{:.1} ms", ms(verify_p95)),
            "<= 150 ms",
            Some(verify_p95 <= Duration::from_millis(150)),
        ),
        row(
            "3  verify max",
            format!("{:.1} ms", ms(verify_max)),
            "",
            None,
        ),
        row(
            "3  premise+claim check_formula median",
            format!("{:.3} ms", ms(quantile(&check_times, 0.5))),
            "",
            None,
        ),
        row(
            "4  peak memory (VmHWM)",
            format!("{hwm_mb:.1} MB"),
            "<= 300 MB",
            Some(hwm_mb <= 300.0),
        ),
        row(
            &format!("3  verify median, first {} again after 5", again.len()),
            format!("{:.1} ms", ms(again_median)),
            "<= 50 ms",
            Some(again_median <= Duration::from_millis(50)),
        ),
        row(
            "5  edit one rule + verify median (20)",
            format!("{:.1} ms", ms(edit_median)),
            "",
            None,
        ),
        row(
            "5  same verify without edit, median",
            format!("{:.1} ms", ms(baseline_median)),
            "",
            None,
        ),
    ];
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
    println!(
        "{:<width$}  {:>12}  {:>10}  result",
        "measurement", "actual", "target"
    );
    println!("{}", "-".repeat(width + 36));
    for r in &rows {
        println!(
            "{:<width$}  {:>12}  {:>10}  {}",
            r.name, r.actual, r.target, r.verdict
        );
    }
    println!();
    println!(
        "edits use worker.replace_rule (one guarded assertion swapped); the model is not reloaded."
    );
    println!();

    let summary: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!("findings over {claim_count} claims: {}", summary.join(", "));
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    println!("slowest verifies:");
    for (elapsed, premise, claim, kind, rules) in slowest.iter().take(3) {
        println!(
            "  {:>8.1} ms  {:<12} ({rules} rules)  P: {premise}  C: {claim}",
            ms(*elapsed),
            kind.name()
        );
    }
    println!("resident memory (VmRSS) by stage:");
    for (stage, rss) in &stages {
        println!("  {:<22} {:>8.1} MB", stage, *rss as f64 / 1024.0);
    }
    println!("  {:<22} {:>8.1} MB", "peak (VmHWM)", hwm_mb);
    pooled_verify_figures(&compiled, &claims);
    split_verify_figures(&compiled, &claims);
    match usage::peak_memory_in_fresh_process(&format!("{VERIFY_ON_TWO}-{}", shape.name())) {
        Ok(mb) => println!(
            "peak memory verifying the {} claims on 2 workers (model loaded in both; a fresh process): {mb:.0} MB  target ≤ 300 MB  {}",
            claims.len(),
            if mb <= 300.0 { "PASS" } else { "MISS" }
        ),
        Err(reason) => println!("peak memory verifying on 2 workers: not measured: {reason}"),
    }
}

/// The claims of the benchmark (same seed, knobs and order) verified on a
/// pool of 2 workers, all queued at once: what `--isolated
/// verify-2-workers` measures the peak memory of.
fn verify_on_two_workers(shape: Shape) {
    let mut rng = Rng::new(SEED);
    let (model, workload) = Workload::generate(shape, &mut rng);
    let compiled = compile(&model);
    let claim_count: usize = std::env::var("SCALE_CLAIMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CLAIMS);
    let pool = precept::scheduler::Scheduler::new(2, Duration::from_secs(5));
    pool.load(&compiled).expect("load the model into the pool");
    let (reply, replies) = std::sync::mpsc::channel();
    for i in 0..claim_count {
        let (premise, claim) = workload.claim(&mut rng);
        pool.workers()[i % 2].submit(
            parse(&compiled, &premise),
            parse(&compiled, &claim),
            reply.clone(),
        );
    }
    drop(reply);
    assert_eq!(replies.iter().count(), claim_count, "every claim answered");
}

/// The same claims on pools of 1 and 2 solver workers, all queued at once
/// (as a service or a test run sends them): each claim's own time (median,
/// p95, from the moment its worker takes it) and the wall time of the whole
/// batch. The peak memory with 2 workers is measured in a fresh process
/// (`verify_on_two_workers`), so the runs before it do not count.
fn pooled_verify_figures(
    compiled: &precept::model::CompiledModel,
    claims: &[(String, String, FindingKind)],
) {
    for jobs in [1, 2] {
        let pool = precept::scheduler::Scheduler::new(jobs, Duration::from_secs(5));
        pool.load(compiled).expect("load the model into the pool");
        let (reply, replies) = std::sync::mpsc::channel();
        let started = Instant::now();
        for (i, (premise, claim, _)) in claims.iter().enumerate() {
            pool.workers()[i % jobs].submit(
                parse(compiled, premise),
                parse(compiled, claim),
                reply.clone(),
            );
        }
        drop(reply);
        let mut latencies: Vec<Duration> = replies.iter().map(|r| r.elapsed).collect();
        let wall = started.elapsed();
        latencies.sort_unstable();
        println!(
            "verify on {jobs} worker(s), {} claims queued at once: median {:.1} ms, p95 {:.1} ms (target ≤ 40 / 150 ms); all in {:.0} ms",
            latencies.len(),
            ms(quantile(&latencies, 0.5)),
            ms(quantile(&latencies, 0.95)),
            wall.as_secs_f64() * 1e3,
        );
    }
}

/// The same claims asked one at a time (as an expert or a chatbot asks)
/// on a pool of 2 workers, each question's two sides decided at once, one
/// on each worker (`Scheduler::verify`): each claim's time from asking to
/// its finding, and whether every finding is of the kind the lone worker
/// found.
fn split_verify_figures(
    compiled: &precept::model::CompiledModel,
    claims: &[(String, String, FindingKind)],
) {
    let pool = precept::scheduler::Scheduler::new(2, Duration::from_secs(5));
    pool.load(compiled).expect("load the model into the pool");
    // As on the lone worker: the policy's consistency is known first.
    pool.verify(parse(compiled, "true"), parse(compiled, "true"));
    let mut latencies = Vec::with_capacity(claims.len());
    let mut differing = 0;
    for (premise, claim, kind) in claims {
        let (p, c) = (parse(compiled, premise), parse(compiled, claim));
        let started = Instant::now();
        let finding = pool.verify(p, c);
        latencies.push(started.elapsed());
        differing += usize::from(finding.kind != *kind);
    }
    latencies.sort_unstable();
    let (median, p95) = (quantile(&latencies, 0.5), quantile(&latencies, 0.95));
    let met = median <= Duration::from_millis(40) && p95 <= Duration::from_millis(150);
    println!(
        "verify on 2 workers, one claim at a time, its two sides split: median {:.1} ms, p95 {:.1} ms (target ≤ 40 / 150 ms)  {}; {} of {} findings of another kind than on 1 worker",
        ms(median),
        ms(p95),
        if met { "PASS" } else { "MISS" },
        differing,
        latencies.len(),
    );
}
