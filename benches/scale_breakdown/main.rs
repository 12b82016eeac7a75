//! Where the verify time goes on the scale benchmark's model: the first
//! claims replayed through a stand-alone replica of precept's solver
//! session, with a timer on each phase, under precept's protocols and under
//! proposed changes. A research bench: the product's own timings are
//! `cargo bench --bench scale`.
//!
//! Run with `cargo bench --bench scale_breakdown`.

#[path = "../support/scale_model.rs"]
mod scale_model;

use precept::model::{CompiledModel, compile};
use precept::solve::{FindingKind, SolverWorker};
use scale_model::{Groups, Rng, SEED, generate, ms, parse, quantile, random_claim};
use std::time::Duration;

/// How many claims are generated (their findings from the product's worker)
/// before the first ones are replayed.
const CLAIMS: usize = 60;

fn main() {
    let mut rng = Rng::new(SEED);
    let (model, sections) = generate(&mut rng, 100);
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty(), "the generated model has issues");
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker
        .load(compiled.clone())
        .expect("load the model into the solver");
    let claims: Vec<(String, String, FindingKind)> = (0..CLAIMS)
        .map(|_| {
            let (premise, claim) = random_claim(&mut rng, &sections);
            let finding = worker.verify(parse(&compiled, &premise), parse(&compiled, &claim));
            (premise, claim, finding.kind)
        })
        .collect();
    breakdown(&compiled, &claims);
}

/// Replays the first claims through the replica session with phase timers,
/// under precept's protocols and proposed changes.
fn breakdown(compiled: &CompiledModel, claims: &[(String, String, FindingKind)]) {
    use replica::Protocol;
    const REPLAYED: usize = 40;
    let replayed = claims.len().min(REPLAYED);
    let groups = Groups::build(compiled);
    let mut session = replica::Session::load(compiled);
    // What precept's cached consistency check costs on a freshly loaded
    // solver (it gets AUXILIARY_CHECK_BUDGET, 300 ms, or gives up).
    let cold_consistency = session.check_all();
    let mut cone_sizes = Vec::new();
    let mut runs = Vec::new();
    let mut preparation = Duration::ZERO;
    let protocols = [
        Protocol::PushPop,
        Protocol::Scratch,
        Protocol::NoPop,
        Protocol::Proposed,
    ];
    for protocol in protocols {
        if protocol == Protocol::Proposed {
            preparation = session.prepare_preferences();
        }
        let mut t = replica::Phases::default();
        let mut agree = 0;
        for (premise, claim, kind) in claims.iter().take(replayed) {
            let (p, c) = (parse(compiled, premise), parse(compiled, claim));
            let cone = groups.cone(&[&p, &c]);
            let cone_variables: std::collections::HashSet<String> = cone
                .iter()
                .flat_map(|&r| compiled.rules[r].formula.symbols())
                .chain(p.symbols())
                .chain(c.symbols())
                .filter(|name| compiled.vocabulary.variable_sort(name).is_some())
                .map(str::to_string)
                .collect();
            if protocol == Protocol::PushPop {
                cone_sizes.push(cone.len());
            }
            let found = session.verify(&p, &c, &cone, &cone_variables, protocol, &mut t);
            agree += usize::from(found == kind.name());
        }
        t.each.sort_unstable();
        runs.push((t, agree));
    }
    cone_sizes.sort_unstable();
    let n = replayed as f64;
    println!();
    println!(
        "where a verify spends its time: a replica of precept's solver session (same Z3 encoding, guards and"
    );
    println!(
        "checks), {replayed} claims; ms per verify, with checks per verify x ms per check. The question's cone"
    );
    println!(
        "(rules of the variable groups it touches) has median {} rules. The first check of all rules on a",
        cone_sizes[cone_sizes.len() / 2]
    );
    println!(
        "freshly loaded solver (precept's cached consistency check, budget 300 ms) took {:.1} ms.",
        ms(cold_consistency)
    );
    println!("  A: commit 73df416 (push/pop per verify, all rules)");
    println!(
        "  B: b19cd40, current (fresh solver per verify with the cone's rules; scenarios over the cone)"
    );
    println!("  C: A without push/pop (guards kept at base level)");
    println!(
        "  D: C + warnings on P, C alone + M∧P only if needed + prefer-zero once + get_const_interp"
    );
    println!(
        "     (D's one-off preparation at load: {:.1} ms)",
        ms(preparation)
    );
    let w = 24;
    println!(
        "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
        "phase (per verify)", "A", "B", "C", "D"
    );
    type Pick = fn(&replica::Phases) -> (Duration, usize);
    let phases: [(&str, Pick); 7] = [
        ("set-up: solver, guards", |t| (t.setup, 0)),
        ("logic warnings (4 checks)", |t| (t.warnings, 0)),
        ("main checks M∧P(∧C|¬C)", |t| (t.main, t.main_checks)),
        ("preferred-scenario checks", |t| {
            (t.preference, t.preference_checks)
        }),
        ("scenario: get_model + values", |t| (t.scenario, 0)),
        ("core minimization checks", |t| {
            (t.minimize, t.minimize_checks)
        }),
        ("pop / drop scratch solver", |t| (t.pop, 0)),
    ];
    let cell = |total: Duration, checks: usize| {
        if checks == 0 {
            format!("{:.1}", ms(total) / n)
        } else {
            format!(
                "{:.1} ({:.1} x {:.1})",
                ms(total) / n,
                checks as f64 / n,
                ms(total) / checks as f64
            )
        }
    };
    for (name, pick) in phases {
        let cells: Vec<String> = runs
            .iter()
            .map(|(t, _)| {
                let (total, checks) = pick(t);
                cell(total, checks)
            })
            .collect();
        println!(
            "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
            name, cells[0], cells[1], cells[2], cells[3]
        );
    }
    for (label, q) in [("mean", None), ("median", Some(0.5)), ("p95", Some(0.95))] {
        let cells: Vec<String> = runs
            .iter()
            .map(|(t, _)| {
                let value = match q {
                    None => ms(t.total) / n,
                    Some(q) => ms(quantile(&t.each, q)),
                };
                format!("{value:.1}")
            })
            .collect();
        println!(
            "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
            format!("total, {label}"),
            cells[0],
            cells[1],
            cells[2],
            cells[3]
        );
    }
    let agree: Vec<String> = runs
        .iter()
        .map(|(_, a)| format!("{a}/{replayed}"))
        .collect();
    println!(
        "  {:<31}{:>w$}{:>w$}{:>w$}{:>w$}",
        "same finding as the worker", agree[0], agree[1], agree[2], agree[3]
    );
}

mod replica;
