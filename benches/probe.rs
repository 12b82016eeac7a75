//! Probe benchmark: 200 questions with follow-ups against a scripted
//! chatbot and a scripted translator, both at 300 ms latency, each profile
//! with concurrency 8, through the real clients over HTTP on 127.0.0.1.
//! Target: the asking phase's wall time ≤ 1.3 × the ideal (the LLM calls
//! on each question's critical path × latency ÷ concurrency). Also reports
//! the solver time per question and the requests per question.
//!
//! Run: cargo bench --bench probe

#[path = "../tests/support/llm_server.rs"]
mod llm_server;
#[path = "../tests/support/probe_bot.rs"]
mod probe_bot;

use llm_server::Server;
use precept::answer::{AnswerVerifier, VerifyOptions, samples_of};
use precept::llm::config::{Profile, Protocol};
use precept::llm::{ClientOptions, LlmClient, Mode};
use precept::model::import::import_smtlib;
use precept::model::{CompiledModel, PolicyModel, compile};
use precept::probe::ProbeKind;
use precept::probe::chatbot::Chatbot;
use precept::probe::question::SourceSettings;
use precept::probe::run::{ProbeEvent, ProbeOptions, ProbeSetup, plan, probe};
use precept::solve::SolverWorker;
use probe_bot::{Behaviour, Script};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(300);
const CONCURRENCY: usize = 8;
const QUESTIONS: usize = 200;
const SECTIONS: usize = 24;

/// Independent admission-like sections: a membership decided by age, a
/// discount decided by membership, and amounts derived from them.
fn model() -> (PolicyModel, CompiledModel) {
    let mut smtlib = String::new();
    for s in 0..SECTIONS {
        smtlib.push_str(&format!(
            "(declare-const s{s}_age Int)(declare-const s{s}_member Bool)\
             (declare-const s{s}_discount Real)(declare-const s{s}_fee Real)\
             (declare-const s{s}_due Real)(declare-const s{s}_handling Real)\
             (assert (=> (>= s{s}_age 65) s{s}_member))\
             (assert (=> s{s}_member (= s{s}_discount 0.25)))\
             (assert (=> (not s{s}_member) (= s{s}_discount 0.0)))\
             (assert (= s{s}_fee 40.0))\
             (assert (=> (> s{s}_discount 0.0) (= s{s}_handling 2.0)))\
             (assert (=> (= s{s}_discount 0.0) (= s{s}_handling 0.0)))\
             (assert (= s{s}_due (+ (* s{s}_fee (- 1.0 s{s}_discount)) s{s}_handling)))"
        ));
    }
    let mut model = import_smtlib(&smtlib).expect("valid SMT-LIB");
    for variable in &mut model.variables {
        variable.description = format!("the {} of the visitor", variable.name.replace('_', " "));
    }
    let compiled = compile(&model);
    (model, compiled)
}

fn client(server: &Server, name: &str) -> Arc<LlmClient> {
    let mut profile = Profile::new(name, Protocol::OpenAi, &server.url, name);
    profile.api_key_env = None;
    profile.concurrency = CONCURRENCY;
    profile.timeout = Duration::from_secs(30);
    let options = ClientOptions {
        mode: Mode::Live,
        cache_dir: None,
        use_env_proxy: false,
        ..ClientOptions::default()
    };
    Arc::new(LlmClient::new(profile, options).expect("client"))
}

fn main() {
    let (model, compiled) = model();
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker.load(compiled.clone()).expect("model loads");
    let kinds: Vec<ProbeKind> = ProbeKind::ALL
        .into_iter()
        .filter(|k| *k != ProbeKind::Variant)
        .collect();
    let settings = SourceSettings {
        model: &model,
        compiled: &compiled,
        document: None,
        max: QUESTIONS,
        seed: 0,
        kinds: &kinds,
    };
    let questions = plan(&worker, &settings, 3);
    let mut script = Script::new(&questions, |_| Behaviour::Right);
    script.hedge_condition = format!("(>= s{}_age 200)", SECTIONS - 1);
    script.add_follow_ups(&worker, &model, &compiled);
    let script = Arc::new(script);
    let (translator_server, bot_server) = (Server::start(), Server::start());
    for server in [&translator_server, &bot_server] {
        server.set_latency(LATENCY);
    }
    let s = script.clone();
    translator_server.respond_with(move |r| s.translator(r));
    let s = script.clone();
    bot_server.respond_with(move |r| s.chatbot(r));

    let translator = client(&translator_server, "translator");
    let chatbot = Chatbot::new(client(&bot_server, "bot"), None, None);
    let verifier = AnswerVerifier::new(
        &model,
        &compiled,
        samples_of(translator.clone(), 1),
        VerifyOptions::default(),
    );
    // A fresh worker, as the command starts one.
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker.load(compiled.clone()).expect("model loads");
    let setup = ProbeSetup {
        model: &model,
        compiled: &compiled,
        document: None,
        worker: &worker,
        chatbot: &chatbot,
        verifier: &verifier,
        translator: None,
        translator_name: "translator".into(),
        cancel: None,
    };
    let options = ProbeOptions {
        questions: QUESTIONS,
        kinds,
        follow_ups: true,
        templated: true,
        concurrency: CONCURRENCY,
        ..ProbeOptions::default()
    };
    let planned_at: Mutex<Option<Instant>> = Mutex::new(None);
    let started = Instant::now();
    let report = probe(&setup, &options, &|event| {
        if let ProbeEvent::Planned { .. } = event {
            *planned_at.lock().unwrap() = Some(Instant::now());
        }
    });
    let total = started.elapsed();
    let asking = planned_at
        .lock()
        .unwrap()
        .map(|at| at.elapsed())
        .unwrap_or(total);
    let planning = total - asking;

    let questions_asked = report.results.len();
    let follow_ups: usize = report.results.iter().map(|r| r.follow_ups.len()).sum();
    // Each question: the chatbot, then the translation of its answer; each
    // follow-up: the chatbot again, then its translation.
    let critical_calls = 2 * questions_asked + 2 * follow_ups;
    let ideal = LATENCY.as_secs_f64() * critical_calls as f64 / CONCURRENCY as f64;
    let requests: usize = report.requests.iter().map(|r| r.sent).sum();
    let correct = report
        .results
        .iter()
        .filter(|r| r.verdict == precept::probe::Verdict::Correct)
        .count();
    println!("probe: {questions_asked} questions, {follow_ups} follow-ups, {correct} correct");
    println!(
        "  planning (question generation, solver): {:.2} s",
        planning.as_secs_f64()
    );
    println!(
        "  asking: {:.2} s wall, ideal {:.2} s ({critical_calls} calls × {} ms ÷ {CONCURRENCY}), ratio {:.2} (target ≤ 1.30)",
        asking.as_secs_f64(),
        ideal,
        LATENCY.as_millis(),
        asking.as_secs_f64() / ideal
    );
    println!(
        "  solver time per question: {:.1} ms (planning included: {:.0} ms in all)",
        report.solver_ms / questions_asked.max(1) as f64,
        report.solver_ms
    );
    println!(
        "  requests per question: {:.2} ({requests} requests: {})",
        requests as f64 / questions_asked.max(1) as f64,
        report
            .requests
            .iter()
            .map(|r| format!("{} {}", r.role, r.sent))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for result in report
        .results
        .iter()
        .filter(|r| r.verdict != precept::probe::Verdict::Correct)
        .take(5)
    {
        println!(
            "  not correct: {} {} ({}): asked \"{}\", answered \"{}\"",
            result.id, result.verdict, result.detail, result.question, result.answer
        );
    }
    println!(
        "  most requests at once: chatbot {}, translator {}",
        bot_server.max_concurrent(),
        translator_server.max_concurrent()
    );
}
