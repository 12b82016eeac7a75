//! Explain benchmark (issue 14): on the 1,500-rule synthetic model
//! (`support/scale_model.rs`), propagation for a premise whose cone holds
//! about 1,100 rules, and the follow-up search (finding, propagation,
//! relevance and deciding sets) for a SATISFIABLE claim, through the
//! product's own worker job. Targets: ≤ 300 ms and ≤ 1 s median.
//!
//! Run with `cargo bench --bench explain`. Plain `fn main`, no harness.

// The timing helpers the scale benches share go unused here.
#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;

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
    let (coupling, s, cone) = pick();
    let (model, sections) = generate(&mut Rng::new(SEED), coupling);
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty());
    let worker = SolverWorker::spawn(Duration::from_secs(10));
    worker.load(compiled.clone()).expect("the model loads");
    let sec = &sections[s];
    println!(
        "model: {} rules, {} variables; premise on section {} whose cone holds {cone} rules (coupling {coupling}%)",
        compiled.rules.len(),
        compiled.variables.len(),
        s + 1
    );

    let premise = format!(
        "(and (= tier_{s} {}) isMember_{s} hasDocs_{s} (= channel_{s} {}) (= count_{s} 5) (= days_{s} 3))",
        sec.tiers[0], sec.channels[0]
    );
    let (times, explanation) = timed(&worker, &compiled, &premise, None);
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

    // The header's facts (jurisdiction, residence) and some of the section's.
    let premise = format!(
        "(and (= jurisdiction J_NORTH) isResident (= tier_{s} {}) isMember_{s} (= channel_{s} {}) (= count_{s} 5))",
        sec.tiers[0], sec.channels[0]
    );
    let claim = format!("needsReview_{s}");
    let (times, explanation) = timed(&worker, &compiled, &premise, Some(&claim));
    assert_eq!(explanation.stopped, None);
    let finding = explanation.finding.as_ref().expect("a finding");
    assert_eq!(
        finding.kind,
        FindingKind::Satisfiable,
        "{premise} ⊢ {claim}"
    );
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
