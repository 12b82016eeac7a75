//! Definitions and defaults on the 1,500-rule scale model
//! (`benches/support/scale_model.rs`): the definition pass's proposals from
//! the rules' shapes and their solver checks on 2 workers, and the verify
//! median of the same claims read by default and strictly, after the
//! proposals that keep the model consistent are applied (so the model has
//! exceptions to assume).
//!
//! Run with `cargo bench --bench definitions`. Knobs: `DEFINE_PROPOSALS`
//! (how many proposals to check, default all), `DEFINE_CLAIMS` (default
//! 100).

#[path = "support/scale_model.rs"]
mod scale_model;

use precept::define::pass::{PassResult, apply_consistent};
use precept::define::{check::check_definitions, shape_proposals};
use precept::model::compile;
use precept::scheduler::Scheduler;
use precept::solve::{Defaults, Reading, SolverWorker};
use scale_model::{Groups, Rng, SEED, generate, ms, parse, quantile, random_claim};
use std::time::{Duration, Instant};

fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let mut rng = Rng::new(SEED);
    let (mut model, sections) = generate(&mut rng, 100);
    let timeout = Duration::from_secs(10);
    println!(
        "scale model: {} rules, {} variables",
        model.rules.len(),
        model.variables.len()
    );

    let started = Instant::now();
    let mut proposals = shape_proposals(&model);
    let shapes_time = started.elapsed();
    let found = proposals.len();
    proposals.truncate(knob("DEFINE_PROPOSALS", found));
    println!(
        "definition proposals from the rules' shapes: {found} in {:.1} ms",
        ms(shapes_time)
    );

    let pool = Scheduler::new(2, timeout);
    let started = Instant::now();
    let checked = check_definitions(&model, &[], &proposals, &pool, timeout);
    let check_time = started.elapsed();
    let acceptable = checked.iter().filter(|c| c.acceptable()).count();
    println!(
        "checks of {} proposal(s) on 2 workers (type check, the group compared exactly both ways, its lint before and after up to 300 rules, flips): {:.1} s, {:.0} ms a proposal; {acceptable} acceptable",
        checked.len(),
        check_time.as_secs_f64(),
        ms(check_time) / checked.len().max(1) as f64
    );

    let started = Instant::now();
    let result = PassResult {
        proposals: checked,
        refused_replies: Vec::new(),
    };
    let (applied, notes) = apply_consistent(&mut model, &result, timeout);
    println!(
        "applied {} definition(s) keeping the model consistent in {:.1} s ({} left out)",
        applied.len(),
        started.elapsed().as_secs_f64(),
        notes.len()
    );

    let compiled = compile(&model);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues.first());
    let (groups, largest) = Groups::build(&compiled).sizes();
    println!("after: {groups} group(s) of rules, the largest with {largest} rules");
    let defaults = Defaults::of(&compiled);
    println!("exceptions to assume: {}", compiled.exceptions.len());
    let worker = SolverWorker::spawn(timeout);
    worker.load(compiled.clone()).expect("load the model");
    let claims = knob("DEFINE_CLAIMS", 100);
    let questions: Vec<_> = (0..claims)
        .map(|_| {
            let (premise, claim) = random_claim(&mut rng, &sections);
            (parse(&compiled, &premise), parse(&compiled, &claim))
        })
        .collect();
    for reading in [Reading::Strict, Reading::Default] {
        let mut times = Vec::new();
        let mut assumed = 0;
        for (premise, claim) in &questions {
            let started = Instant::now();
            let finding = defaults.verify(&worker, premise, claim, reading);
            times.push(started.elapsed());
            assumed += usize::from(!finding.assumptions.is_empty());
        }
        times.sort();
        println!(
            "verify {:?}: median {:.1} ms, p95 {:.1} ms over {claims} claims; {assumed} finding(s) with assumptions",
            reading,
            ms(quantile(&times, 0.5)),
            ms(quantile(&times, 0.95))
        );
    }
}
