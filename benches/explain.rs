//! Explain benchmark (issues 14 and 37): propagation for a premise, and
//! the follow-up search (finding, propagation, relevance and deciding sets)
//! for a claim, through the product's own worker job, on both bench
//! models: the 1,500-rule sectioned model (`support/scale_model.rs`) with a
//! premise whose cone holds about 1,100 rules, and the dense model
//! (`support/dense_model.rs`), whose cone is nearly the whole model.
//! Targets: ≤ 300 ms and ≤ 1 s median.
//!
//! Run with `cargo bench --bench explain` (`PRECEPT_BENCH_MODEL=sectioned`
//! or `=dense`: only that model). Plain `fn main`, no harness.

#[path = "support/bench_models.rs"]
mod bench_models;
#[path = "support/dense_model.rs"]
mod dense_model;
// The timing helpers the scale benches share go unused here.
#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;
#[path = "support/synthetic.rs"]
mod synthetic;

use precept::explain::inputs::inputs;
use precept::explain::job::{ExplainRequest, run};
use precept::explain::relevance::Budget;
use precept::model::graph::RuleGraph;
use precept::model::{CompiledModel, compile};
use precept::solve::{FindingKind, SolverWorker};
use scale_model::{Rng, SEED, generate};
use std::time::{Duration, Instant};

const RUNS: usize = 7;
const WANTED_CONE: usize = 1_100;

/// The coupling and section whose cone is nearest to `WANTED_CONE`
/// rules, with the cone's size.
fn pick() -> (u64, usize, usize) {
    let mut best: Option<(u64, usize, usize)> = None;
    for coupling in [100, 90, 80, 75, 70, 65, 60, 50] {
        let (model, sections) = generate(&mut Rng::new(SEED), coupling);
        let compiled = compile(&model);
        let graph = RuleGraph::build(
            compiled.variables.iter().map(|(n, _)| n.as_str()),
            compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
        );
        for s in 0..sections.len() {
            let tier = format!("tier_{s}");
            let cone = graph.rules_touching([tier.as_str()]).len();
            if best.is_none_or(|(_, _, c)| cone.abs_diff(WANTED_CONE) < c.abs_diff(WANTED_CONE)) {
                best = Some((coupling, s, cone));
            }
        }
    }
    best.expect("a section")
}

/// The CPU time this process has used so far (user and system): on a
/// shared machine it moves far less than wall time with the load.
fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn timed(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    premise: &str,
    claim: Option<&str>,
) -> (Vec<Duration>, precept::explain::Explanation) {
    let check = |text: &str| compiled.check_formula(text).expect("formula").1;
    let mut times = Vec::new();
    let mut cpus = Vec::new();
    let mut last = None;
    for _ in 0..RUNS {
        let request = ExplainRequest {
            premise: check(premise),
            claim: claim.map(check),
            inputs: inputs(compiled),
            budget: Budget::default(),
        };
        let started = Instant::now();
        let cpu = cpu_time();
        let explanation = run(worker, request).expect("the worker answers");
        times.push(started.elapsed());
        cpus.push(cpu_time() - cpu);
        last = Some(explanation);
    }
    println!(
        "  (CPU time median {:.0} ms: the load of other processes moves it less than wall time)",
        median(cpus).as_secs_f64() * 1e3
    );
    (times, last.expect("runs"))
}

fn main() {
    for shape in bench_models::chosen() {
        match shape {
            bench_models::Shape::Sectioned => sectioned(),
            bench_models::Shape::Dense => dense(),
        }
    }
}

/// The sectioned model: a premise on the section whose cone is nearest to
/// `WANTED_CONE` rules, and a SATISFIABLE claim of that section.
fn sectioned() {
    let (coupling, s, cone) = pick();
    let (model, sections) = generate(&mut Rng::new(SEED), coupling);
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty());
    let worker = SolverWorker::spawn(Duration::from_secs(10));
    worker.load(compiled.clone()).expect("the model loads");
    let sec = &sections[s];
    println!(
        "== sectioned model: {} rules, {} variables; premise on section {} whose cone holds {cone} rules (coupling {coupling}%)",
        compiled.rules.len(),
        compiled.variables.len(),
        s + 1
    );
    let premise = format!(
        "(and (= tier_{s} {}) isMember_{s} hasDocs_{s} (= channel_{s} {}) (= count_{s} 5) (= days_{s} 3))",
        sec.tiers[0], sec.channels[0]
    );
    // The header's facts (jurisdiction, residence) and some of the section's.
    let asked = format!(
        "(and (= jurisdiction J_NORTH) isResident (= tier_{s} {}) isMember_{s} (= channel_{s} {}) (= count_{s} 5))",
        sec.tiers[0], sec.channels[0]
    );
    let claim = format!("needsReview_{s}");
    figures(&worker, &compiled, &premise, &asked, &claim);
}

/// The dense model: a premise of the first three random questions'
/// premises together, and the fourth question.
fn dense() {
    let compiled = compile(&dense_model::dense());
    assert!(compiled.issues.is_empty());
    let worker = SolverWorker::spawn(Duration::from_secs(10));
    worker.load(compiled.clone()).expect("the model loads");
    let questions = dense_model::questions(4);
    let premise = format!(
        "(and {} {} {})",
        questions[0].0, questions[1].0, questions[2].0
    );
    let graph = RuleGraph::build(
        compiled.variables.iter().map(|(n, _)| n.as_str()),
        compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    );
    let named = compiled.check_formula(&premise).expect("a premise").1;
    let cone = graph.rules_touching(named.symbols()).len();
    println!(
        "== dense model: {} rules, {} variables; premise {premise} whose cone holds {cone} rules",
        compiled.rules.len(),
        compiled.variables.len(),
    );
    let (asked, claim) = &questions[3];
    figures(&worker, &compiled, &premise, asked, claim);
}

/// Propagation from `premise`, then the follow-up search for `claim` under
/// `asked`, each timed over `RUNS` runs.
fn figures(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    premise: &str,
    asked: &str,
    claim: &str,
) {
    let (times, explanation) = timed(worker, compiled, premise, None);
    assert_eq!(explanation.stopped, None);
    let propagation = &explanation.propagation;
    let first = times[0];
    let propagation_median = median(times);
    println!(
        "propagation: {} forced, {} open; first {:.0} ms, median {:.0} ms (target ≤ 300 ms) {}",
        propagation.forced.len(),
        propagation.open.len(),
        first.as_secs_f64() * 1e3,
        propagation_median.as_secs_f64() * 1e3,
        if propagation_median <= Duration::from_millis(300) {
            "PASS"
        } else {
            "MISS"
        }
    );

    let (times, explanation) = timed(worker, compiled, asked, Some(claim));
    if let Some(reason) = &explanation.stopped {
        println!(
            "follow-up questions for {claim}: stopped ({reason}); median {:.0} ms (target ≤ 1 s) MISS",
            median(times).as_secs_f64() * 1e3
        );
        return;
    }
    let finding = explanation.finding.as_ref().expect("a finding");
    assert_eq!(finding.kind, FindingKind::Satisfiable, "{asked} ⊢ {claim}");
    let relevance = explanation.relevance.as_ref().expect("relevance");
    let first = times[0];
    let follow_up_median = median(times);
    println!(
        "follow-up questions for {claim}: {} deciding set(s) (first {:?}, smallest proved: {}), {} irrelevant inputs; first {:.0} ms, median {:.0} ms (target ≤ 1 s) {}",
        relevance.ask.len(),
        relevance
            .ask
            .first()
            .map(|a| a.variables.clone())
            .unwrap_or_default(),
        relevance.smallest,
        relevance.irrelevant.len(),
        first.as_secs_f64() * 1e3,
        follow_up_median.as_secs_f64() * 1e3,
        if follow_up_median <= Duration::from_secs(1) {
            "PASS"
        } else {
            "MISS"
        }
    );
}
