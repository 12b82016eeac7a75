//! Answer verifier benchmark: one question and answer at k = 3 against the
//! scripted LLM server with a fixed 300 ms latency, through the real client
//! over HTTP. Target: end to end ≤ 1.3 × 300 ms plus the solver time. Also
//! reports the solver time per Q/A on the 1,500-rule synthetic model.
//!
//! Run: cargo bench --bench answer

#[path = "../tests/support/llm_server.rs"]
mod llm_server;
#[path = "support/synthetic.rs"]
mod synthetic;

use llm_server::{Recorded, Server, openai_json};
use precept::answer::{AnswerInput, AnswerReport, AnswerVerifier, VerifyOptions, samples_of};
use precept::llm::config::{Profile, Protocol};
use precept::llm::{Cancel, ClientOptions, LlmClient, Mode};
use precept::model::{CompiledModel, PolicyModel, compile};
use precept::solve::SolverWorker;
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(300);
const K: usize = 3;

fn client(server: &Server) -> Arc<LlmClient> {
    let mut profile = Profile::new("bench", Protocol::OpenAi, &server.url, "bench-model");
    profile.api_key_env = None;
    profile.timeout = Duration::from_secs(30);
    let options = ClientOptions {
        mode: Mode::Live,
        // No cache: every Q/A goes to the server.
        cache_dir: None,
        use_env_proxy: false,
        ..ClientOptions::default()
    };
    Arc::new(LlmClient::new(profile, options).expect("client"))
}

/// The number the answer text carries ("case 17").
fn case_of(request: &Recorded) -> usize {
    let prompt = request.user_prompt();
    let at = prompt.find("case ").expect("a case number");
    prompt[at + 5..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a case number")
}

struct Run {
    reports: Vec<AnswerReport>,
    wall: Vec<Duration>,
}

fn run(
    model: &PolicyModel,
    compiled: &CompiledModel,
    server: &Server,
    cases: usize,
    question: &str,
) -> Run {
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker.load(compiled.clone()).expect("model loads");
    let verifier = AnswerVerifier::new(
        model,
        compiled,
        samples_of(client(server), K),
        VerifyOptions::default(),
    );
    let mut reports = Vec::new();
    let mut wall = Vec::new();
    // One warm-up Q/A (connections, solver cones), not counted.
    for case in 0..=cases {
        let input = AnswerInput::new(question, format!("That depends: case {case}."));
        let started = Instant::now();
        let report = verifier
            .verify(&worker, &input, &mut |_| {}, &Cancel::new())
            .expect("verification runs");
        if case > 0 {
            wall.push(started.elapsed());
            reports.push(report);
        }
    }
    Run { reports, wall }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    let index = ((values.len() as f64 - 1.0) * p).round() as usize;
    values[index.min(values.len() - 1)]
}

fn summarize(name: &str, run: &Run) -> bool {
    let mut wall: Vec<f64> = run.wall.iter().map(|d| ms(*d)).collect();
    let mut solver: Vec<f64> = run.reports.iter().map(|r| r.timing.solver_ms).collect();
    let mut tail: Vec<f64> = run
        .reports
        .iter()
        .map(|r| r.timing.total_ms - r.timing.translation_ms)
        .collect();
    let within: usize = run
        .reports
        .iter()
        .zip(&run.wall)
        .filter(|(r, w)| ms(**w) <= 1.3 * ms(LATENCY) + r.timing.solver_ms)
        .count();
    let findings: HashMap<String, usize> =
        run.reports.iter().fold(HashMap::new(), |mut counts, r| {
            *counts.entry(r.finding.to_string()).or_default() += 1;
            counts
        });
    println!(
        "{name}: {} Q/As at k = {K}, latency {} ms",
        run.wall.len(),
        ms(LATENCY)
    );
    println!(
        "  end to end: median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        percentile(&mut wall, 0.5),
        percentile(&mut wall, 0.95),
        percentile(&mut wall, 1.0)
    );
    println!(
        "  solver time per Q/A: median {:.1} ms, p95 {:.1} ms",
        percentile(&mut solver, 0.5),
        percentile(&mut solver, 0.95)
    );
    println!(
        "  after the last translation: median {:.1} ms, p95 {:.1} ms",
        percentile(&mut tail, 0.5),
        percentile(&mut tail, 0.95)
    );
    println!("  findings: {findings:?}");
    let all = within == run.wall.len();
    println!(
        "  target ≤ 1.3 × {} ms + solver time: {within}/{} within ({})",
        ms(LATENCY),
        run.wall.len(),
        if all { "PASS" } else { "FAIL" }
    );
    all
}

fn park() -> (PolicyModel, CompiledModel) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/park-admission/model.json"
    ))
    .expect("the park sample");
    let model: PolicyModel = serde_json::from_str(&text).expect("park model");
    let compiled = compile(&model);
    (model, compiled)
}

fn main() {
    let server = Server::start();
    server.set_latency(LATENCY);

    // The park example of the paper: SATISFIABLE, with its proved condition.
    let (model, compiled) = park();
    server.respond_with(|_| {
        openai_json(&json!({"pairs": [{
            "premise": "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))",
            "claim": "(not isEntryAllowed)",
            "source": "not enough"
        }], "untranslated": []}))
    });
    let park_run = run(
        &model,
        &compiled,
        &server,
        10,
        "I am a senior with $35.40 in the low season. Can I visit?",
    );
    let park_ok = summarize("park (17 rules)", &park_run);

    // The synthetic 1,500-rule model: each case asks one of its tests.
    let (model, suite) = synthetic::synthetic();
    let compiled = compile(&model);
    assert!(compiled.issues.is_empty());
    let questions: Vec<(String, String)> = suite
        .tests
        .iter()
        .map(|t| (t.premise.clone(), t.claim.clone()))
        .collect();
    server.respond_with(move |request| {
        let (premise, claim) = &questions[(case_of(request) * 7) % questions.len()];
        openai_json(&json!({"pairs": [{
            "premise": premise, "claim": claim, "source": "case"
        }], "untranslated": []}))
    });
    let started = Instant::now();
    let synthetic_run = run(&model, &compiled, &server, 30, "Does the section apply?");
    println!(
        "(synthetic: {} rules, {} variables; {:.1} s in all)",
        compiled.rules.len(),
        compiled.variables.len(),
        started.elapsed().as_secs_f64()
    );
    let synthetic_ok = summarize("synthetic (1,500 rules)", &synthetic_run);
    if !(park_ok && synthetic_ok) {
        std::process::exit(1);
    }
}
