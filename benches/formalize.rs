//! Formalization benchmark (issue 5):
//!
//! 1. A 60-span document against the scripted LLM server with a fixed 200 ms
//!    latency, at concurrency 8: wall time against the ideal 60/8 × 200 ms
//!    (target ≤ 1.3 × ideal).
//! 2. The vocabulary pass over the same document (6 sections of 10 spans),
//!    at the same latency: the wall time it adds before the spans (target:
//!    at most one round of latency per section; the sections run at once).
//! 3. Composition (embed, cluster, unify, rewrite, dedupe) of 2,000
//!    variables from 400 units.
//! 4. Peak memory.
//!
//! Run with `cargo bench --bench formalize`.

#[path = "../tests/support/llm_server.rs"]
mod llm_server;

use std::sync::Arc;
use std::time::{Duration, Instant};

use llm_server::{Server, openai_json};
use precept::compose::embed::LexicalEmbedder;
use precept::compose::unify::compose;
use precept::compose::vocabulary_pass::{SECTION_BUDGET, plan_sections, propose_vocabulary};
use precept::formalize::span_job::{SpanOutcome, SpanSettings};
use precept::formalize::span_runs::{formalize_runtime, formalize_spans_blocking};
use precept::formalize::span_task::SpanTask;
use precept::formalize::span_task::plan_spans;
use precept::formalize::unit::unit_from_json;
use precept::llm::{ClientOptions, LlmClient, Mode, Profile, Protocol, RetryPolicy};
use serde_json::{Value, json};

const SPANS: usize = 60;
const LATENCY: Duration = Duration::from_millis(200);
const CONCURRENCY: usize = 8;

const TOPICS: [&str; 10] = [
    "refund", "fee", "credit", "discount", "ticket", "baggage", "voucher", "upgrade", "meal",
    "seat",
];

/// A unit for span `i`: three variables and two rules.
fn unit_for(i: usize) -> Value {
    let topic = TOPICS[i % TOPICS.len()];
    json!({
        "types": [],
        "variables": [
            {"name": format!("{topic}Amount"), "type": "Real",
             "description": format!("the {topic} amount in dollars")},
            {"name": format!("is{}Eligible{i}", capital(topic)), "type": "Bool",
             "description": format!("whether the passenger qualifies under clause {i}")},
            {"name": format!("{topic}Count"), "type": "Int",
             "description": format!("the number of {topic} items")}
        ],
        "rules": [
            {"expression": format!("(=> is{}Eligible{i} (>= {topic}Amount {i}.0))", capital(topic)),
             "source_text": ""},
            {"expression": format!("(>= {topic}Count 0)"), "source_text": ""}
        ]
    })
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn document() -> String {
    let mut text = String::from("# Passenger policy\n\n");
    for i in 0..SPANS {
        if i % 10 == 0 {
            text.push_str(&format!("## Part {}\n\n", i / 10 + 1));
        }
        text.push_str(&format!(
            "Clause {i}: a passenger who qualifies receives at least {i} dollars of {}.\n\n",
            TOPICS[i % TOPICS.len()]
        ));
    }
    text
}

fn client(server: &Server) -> LlmClient {
    let mut profile = Profile::new("bench", Protocol::OpenAi, &server.url, "scripted");
    profile.api_key_env = None;
    profile.concurrency = CONCURRENCY;
    profile.timeout = Duration::from_secs(10);
    let options = ClientOptions {
        mode: Mode::Live,
        cache_dir: None,
        retry: RetryPolicy::default(),
        env: Arc::new(|_: &str| None),
        use_env_proxy: false,
    };
    LlmClient::new(profile, options).expect("client")
}

fn span_run() -> (Duration, usize) {
    let server = Server::start();
    server.set_latency(LATENCY);
    server.respond_with(|request| {
        if llm_server::is_vocabulary_request(request) {
            return llm_server::empty_vocabulary();
        }
        let prompt = request.user_prompt();
        let at = prompt.find("Span S").expect("span prompt");
        let index: usize = prompt[at + 6..]
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .expect("span number");
        openai_json(&unit_for(index - 1))
    });
    let tasks = plan_spans(&document(), 3_000);
    assert_eq!(tasks.len(), SPANS);
    let client = Arc::new(client(&server));
    let started = Instant::now();
    let outcomes =
        formalize_spans_blocking(client, &tasks, SpanSettings::default(), Arc::new(|_| {}))
            .expect("run");
    let elapsed = started.elapsed();
    let formalized = outcomes.iter().filter(|o| o.unit().is_some()).count();
    (elapsed, formalized)
}

/// 400 units of 5 variables: many shared concepts under varying names.
fn composition_input() -> (String, Vec<SpanTask>, Vec<SpanOutcome>) {
    let concepts = [
        (
            "refundAmount",
            "Real",
            "the amount refunded to the passenger in dollars",
        ),
        (
            "ticketPrice",
            "Real",
            "the price paid for the ticket in dollars",
        ),
        (
            "isCancelled",
            "Bool",
            "whether the carrier cancelled the flight",
        ),
        ("delayHours", "Int", "how many hours the flight was delayed"),
        ("bagCount", "Int", "the number of checked bags"),
        (
            "isMember",
            "Bool",
            "whether the passenger is a loyalty member",
        ),
        (
            "voucherValue",
            "Real",
            "the value of the travel voucher in dollars",
        ),
    ];
    let mut tasks = Vec::new();
    let mut outcomes = Vec::new();
    for u in 0..400 {
        let mut variables = Vec::new();
        let mut rules = Vec::new();
        for k in 0..5 {
            let (name, sort, description) = concepts[(u + k) % concepts.len()];
            // Every third unit words the concept its own way.
            let (name, description) = if u % 3 == 0 {
                (
                    format!("{name}Unit{u}"),
                    format!("{description} (clause {u})"),
                )
            } else {
                (name.to_string(), description.to_string())
            };
            let guard = match sort {
                "Bool" => name.clone(),
                "Int" => format!("(>= {name} 0)"),
                _ => format!("(>= {name} 0.0)"),
            };
            rules.push(json!({"expression": guard, "source_text": ""}));
            variables.push(json!({"name": name, "type": sort, "description": description}));
        }
        let unit = unit_from_json(&json!({"types": [], "variables": variables, "rules": rules}))
            .expect("unit");
        tasks.push(SpanTask {
            id: format!("S{}", u + 1),
            start: 0,
            end: 0,
            heading_path: vec![],
            text: String::new(),
            context: Default::default(),
        });
        outcomes.push(SpanOutcome::Formalized { unit, rounds: 1 });
    }
    (String::new(), tasks, outcomes)
}

/// The vocabulary pass alone: (wall time, section parts, shared variables).
fn vocabulary_run() -> (Duration, usize, usize) {
    let server = Server::start();
    server.set_latency(LATENCY);
    server.respond_with(|request| {
        let prompt = request.user_prompt();
        let variables: Vec<Value> = TOPICS
            .iter()
            .filter(|topic| prompt.contains(*topic))
            .map(|topic| {
                json!({"name": format!("{topic}Amount"), "type": "Real",
                       "description": format!("the {topic} amount in dollars"), "spans": []})
            })
            .collect();
        openai_json(&json!({"types": [], "variables": variables}))
    });
    let document = document();
    let tasks = plan_spans(&document, 3_000);
    let sections = plan_sections(&tasks, SECTION_BUDGET).len();
    let client = Arc::new(client(&server));
    let runtime = formalize_runtime().expect("runtime");
    let started = Instant::now();
    let shared = runtime
        .block_on(propose_vocabulary(
            client,
            &tasks,
            &document,
            &LexicalEmbedder::new(),
            0.65,
        ))
        .expect("vocabulary");
    (started.elapsed(), sections, shared.variables.len())
}

/// (VmRSS, VmHWM) in MB.
fn memory_mb() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn main() {
    println!("formalization benchmark");
    // The ideal: 60 / 8 × 200 ms (a perfect packing of requests).
    let ideal = LATENCY.as_secs_f64() * SPANS as f64 / CONCURRENCY as f64;
    let mut runs = Vec::new();
    for _ in 0..3 {
        let (elapsed, formalized) = span_run();
        assert_eq!(formalized, SPANS, "every span formalized");
        runs.push(elapsed.as_secs_f64());
    }
    runs.sort_by(f64::total_cmp);
    let median = runs[1];
    println!(
        "  {SPANS} spans, {} ms latency, concurrency {CONCURRENCY}: median {:.0} ms over 3 runs \
         (ideal {:.0} ms, ratio {:.2}, target <= 1.30)",
        LATENCY.as_millis(),
        median * 1000.0,
        ideal * 1000.0,
        median / ideal
    );

    let mut times = Vec::new();
    let mut shape = (0, 0);
    for _ in 0..3 {
        let (elapsed, sections, variables) = vocabulary_run();
        times.push(elapsed.as_secs_f64());
        shape = (sections, variables);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "  vocabulary pass, {} section parts at {} ms latency: median {:.0} ms added before the spans ({:.2} rounds of latency; target <= 1 round per section), {} shared variables",
        shape.0,
        LATENCY.as_millis(),
        times[1] * 1000.0,
        times[1] / LATENCY.as_secs_f64(),
        shape.1
    );

    let (document, tasks, outcomes) = composition_input();
    let variables: usize = outcomes
        .iter()
        .filter_map(|o| o.unit())
        .map(|u| u.variables.len())
        .sum();
    let mut times = Vec::new();
    let mut result = None;
    for _ in 0..3 {
        let started = Instant::now();
        let composed =
            compose(&document, &tasks, &outcomes, &LexicalEmbedder::new(), 0.65).expect("compose");
        times.push(started.elapsed().as_secs_f64());
        result = Some(composed);
    }
    times.sort_by(f64::total_cmp);
    let composed = result.expect("composed");
    println!(
        "  composition of {variables} variables from {} units: median {:.0} ms -> {} variables, \
         {} rules",
        tasks.len(),
        times[1] * 1000.0,
        composed.model.variables.len(),
        composed.model.rules.len()
    );
    let (rss, hwm) = memory_mb();
    println!("  memory: {rss:.1} MB resident, {hwm:.1} MB peak (VmHWM)");
}
