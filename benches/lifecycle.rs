//! Lifecycle benchmark (issue 18): the semantic diff of the 1,500-rule
//! synthetic model (`support/scale_model.rs`) against a copy with 10 edited
//! rules (5 pure rewrites `(not (not E))`, 5 changes of meaning
//! `(or E true)`): the time for the text diff, and for the behaviour
//! (equivalence, the distinguishing scenarios with their minimization, and
//! the rewrite check of each changed rule). Target: ≤ 5 s.
//!
//! Run with `cargo bench --bench lifecycle`. Plain `fn main`, no harness.

#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;

use precept::core::lifecycle::behaviour::compare;
use precept::core::lifecycle::text_diff::text_diff;
use precept::core::model::compile;
use scale_model::{Rng, SEED, generate};
use std::time::Instant;

const RUNS: usize = 3;

fn main() {
    let (a, _) = generate(&mut Rng::new(SEED), 75);
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
        "lifecycle diff: {} rules, {} variables, 10 edited",
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
