//! The guard's streaming, measured: a scripted chatbot and translator on
//! 127.0.0.1, each answering after 300 ms, behind `precept serve --guard`.
//! For a whole guarded reply and for a streamed one (`--stream hold` and
//! `--stream pass`): the time to the first byte of content and the total
//! time, medians over a few requests; then the server's memory per
//! streamed request while 100 clients stream at once.

use crate::llm_server::{Action, Recorded, Server, openai_json, openai_reply, openai_stream};
use serde_json::json;
use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

const LATENCY: Duration = Duration::from_millis(300);
const REPLY: &str = "No, members get no discount: the shop's rules say so for every kind of \
                     visit, on weekdays and at weekends, whatever the season.";
const QUESTION: &str = "I am a member. Do I get the discount?";

fn scripted() -> (Server, Server) {
    let translator = Server::start();
    translator.set_latency(LATENCY);
    translator.respond_with(|_: &Recorded| {
        openai_json(&json!({
            "pairs": [{"premise": "member", "claim": "(not discount)", "source": "the answer"}],
            "untranslated": [],
        }))
    });
    let chatbot = Server::start();
    chatbot.set_latency(LATENCY);
    chatbot.respond_with(|request: &Recorded| {
        if request.body["stream"] == json!(true) {
            Action::Stream {
                events: openai_stream(REPLY),
                pause: Duration::from_millis(1),
                cut_after: None,
            }
        } else {
            openai_reply(REPLY)
        }
    });
    (translator, chatbot)
}

/// The guard in front of the scripted chatbot, streaming in `mode`.
fn start(dir: &Path, config: &Path, mode: &str) -> crate::Server {
    crate::serve_with(
        dir,
        &["--guard", "chatbot", "--guard-k", "1", "--stream", mode],
        config,
    )
}

/// One request: the time to the first byte of content (the first `data:`
/// of a stream, the body of a whole reply) and the total time.
fn ask(http: &reqwest::blocking::Client, url: &str, stream: bool) -> (Duration, Duration) {
    let started = Instant::now();
    let mut reply = http
        .post(format!("{url}/v1/chat/completions"))
        .json(&json!({"stream": stream, "messages": [{"role": "user", "content": QUESTION}]}))
        .send()
        .expect("the guard answers");
    assert_eq!(reply.status(), 200);
    let mut first = None;
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let read = reply.read(&mut buffer).unwrap_or(0);
        if read == 0 {
            break;
        }
        seen.extend_from_slice(&buffer[..read]);
        if first.is_none() && (!stream || seen.windows(5).any(|w| w == b"data:")) {
            first = Some(started.elapsed());
        }
    }
    let total = started.elapsed();
    assert!(
        String::from_utf8_lossy(&seen).contains("INVALID"),
        "the verdict"
    );
    (first.unwrap_or(total), total)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Kilobytes of resident memory now.
fn resident_kb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0)
}

pub fn report() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let project = tempfile::tempdir().unwrap();
    let model = precept::model::import::import_smtlib(
        "(declare-const member Bool)(declare-const discount Bool)(assert (=> member discount))",
    )
    .unwrap();
    precept::model::Project::create(
        project.path(),
        model,
        precept::model::TestSuite::default(),
        precept::model::Settings::default(),
    )
    .unwrap();
    let (translator, chatbot) = scripted();
    let config = tempfile::tempdir().unwrap();
    std::fs::write(
        config.path().join("llm.toml"),
        format!(
            "default = \"translator\"\n\
             [[profile]]\nname = \"translator\"\nprotocol = \"openai\"\nbase_url = \"{}\"\n\
             model = \"t\"\napi_key_env = \"\"\nconcurrency = 128\n\
             [[profile]]\nname = \"chatbot\"\nprotocol = \"openai\"\nbase_url = \"{}\"\n\
             model = \"c\"\napi_key_env = \"\"\n",
            translator.url, chatbot.url
        ),
    )
    .unwrap();
    let http = reqwest::blocking::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    println!("\n## The guard, streamed (chatbot and translator answer after 300 ms each)\n");
    println!("| request | first byte of content (median) | total (median) |");
    println!("|---|---|---|");
    for (mode, stream, label) in [
        ("hold", false, "whole reply"),
        ("hold", true, "stream, --stream hold"),
        ("pass", true, "stream, --stream pass"),
    ] {
        let guarded = start(project.path(), config.path(), mode);
        let _ = ask(&http, &guarded.url, stream);
        let runs: Vec<_> = (0..5).map(|_| ask(&http, &guarded.url, stream)).collect();
        let first = median(runs.iter().map(|r| r.0).collect());
        let total = median(runs.iter().map(|r| r.1).collect());
        println!(
            "| {label} | {:.0} ms | {:.0} ms |",
            first.as_secs_f64() * 1000.0,
            total.as_secs_f64() * 1000.0
        );
    }

    let clients = 100;
    for mode in ["hold", "pass"] {
        let guarded = start(project.path(), config.path(), mode);
        let _ = ask(&http, &guarded.url, true);
        let before = resident_kb(guarded.child.id());
        let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(before as u64));
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let watcher = {
            let (peak, done, pid) = (peak.clone(), done.clone(), guarded.child.id());
            std::thread::spawn(move || {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    peak.fetch_max(
                        resident_kb(pid) as u64,
                        std::sync::atomic::Ordering::Relaxed,
                    );
                    std::thread::sleep(Duration::from_millis(5));
                }
            })
        };
        let started = Instant::now();
        let threads: Vec<_> = (0..clients)
            .map(|_| {
                let (http, url) = (http.clone(), guarded.url.clone());
                std::thread::spawn(move || ask(&http, &url, true))
            })
            .collect();
        for thread in threads {
            thread.join().expect("a client");
        }
        let elapsed = started.elapsed();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        watcher.join().unwrap();
        let peak = peak.load(std::sync::atomic::Ordering::Relaxed) as f64;
        println!(
            "\n{clients} clients streaming at once, --stream {mode}: all done in {:.1} s; \
             resident memory {:.1} MB before, {:.1} MB at the peak: {:.0} KB per streamed request",
            elapsed.as_secs_f64(),
            before / 1024.0,
            peak / 1024.0,
            (peak - before).max(0.0) / clients as f64
        );
    }
}
