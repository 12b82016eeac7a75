//! Load benchmark of `precept serve`: the real binary on 127.0.0.1, many
//! concurrent clients sending `/v1/verify`, on the park sample and on the
//! 1,500-rule synthetic model (`benches/support/scale_model.rs`). Reports
//! throughput, p50/p95/p99 latency, errors, the server's peak memory, the
//! ratio of the served p50 to one z3 CLI process deciding the same three
//! queries (is the premise possible; can the claim be false; can it be
//! true), and a whole cold `precept verify` process against the same z3
//! CLI run.
//!
//! Then the guard's streaming (`support/guard_stream.rs`): time to first
//! byte and total time, held and passed, against a whole reply, and memory
//! per streamed request with 100 clients at once.
//!
//! Run with `cargo bench --bench serve`. Knobs: `SERVE_BENCH_GUARD_ONLY=1`
//! (only the guard's streaming), `SERVE_BENCH_REQUESTS`
//! (default 10,000 per model, the load), `SERVE_BENCH_CLIENTS`
//! (default 200), `SERVE_BENCH_COLD_ONLY=1` (only the cold `precept verify`
//! against the z3 CLI, no server) and `SERVE_BENCH_WRITE_SYNTHETIC=DIR`
//! (also write the synthetic project to DIR, to profile it by hand).

#[path = "support/guard_stream.rs"]
mod guard_stream;
#[path = "../tests/support/llm_server.rs"]
mod llm_server;
#[allow(unused_imports)]
#[path = "support/scale_model.rs"]
mod scale_model;

use precept::export::to_smtlib;
use precept::model::{Project, Settings, TestSuite, compile};
use scale_model::{Rng, SEED, generate, ms, quantile, random_claim};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    quantile(&times, 0.5)
}

struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path) -> Server {
    serve_with(dir, &[], &dir.join(".no-config"))
}

/// `precept serve DIR` on a free port of 127.0.0.1 with `args` beside the
/// bench's own, its LLM configuration in `config`, once it is ready.
fn serve_with(dir: &Path, args: &[&str], config: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_precept"))
        .arg("serve")
        .arg(dir)
        .args([
            "--addr",
            "127.0.0.1:0",
            "--watch-ms",
            "0",
            "--queue",
            "1000",
        ])
        .args(args)
        .env("PRECEPT_CONFIG_DIR", config)
        .env("NO_PROXY", "127.0.0.1")
        .env_remove("PRECEPT_LLM_BASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start precept serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("precept serve: listening on ")
        .expect("the address")
        .to_string();
    let server = Server { child, url };
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::blocking::Client::builder()
        .no_proxy()
        .build()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let ready = http.get(format!("{}/readyz", server.url)).send();
        if ready.is_ok_and(|r| r.status() == 200) {
            return server;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("the server never became ready");
}

/// VmHWM of a process, in MB.
fn peak_memory_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .unwrap_or(0.0)
        / 1024.0
}

struct Load {
    elapsed: Duration,
    latencies: Vec<Duration>,
    errors: usize,
    findings: std::collections::BTreeMap<String, usize>,
}

/// `requests` verify questions (cycling through `questions`) from
/// `clients` concurrent clients.
fn load(url: &str, questions: &[(String, String)], requests: usize, clients: usize) -> Load {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let http = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(clients)
        .timeout(Duration::from_secs(120))
        .build()
        .unwrap();
    let next = Arc::new(AtomicUsize::new(0));
    let bodies: Arc<Vec<String>> = Arc::new(
        questions
            .iter()
            .map(|(p, c)| serde_json::json!({"premise": p, "claim": c}).to_string())
            .collect(),
    );
    let endpoint = format!("{url}/v1/verify");
    let started = Instant::now();
    let results = runtime.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..clients {
            let (http, next, bodies, endpoint) = (
                http.clone(),
                Arc::clone(&next),
                Arc::clone(&bodies),
                endpoint.clone(),
            );
            tasks.push(tokio::spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= requests {
                        break;
                    }
                    let body = bodies[index % bodies.len()].clone();
                    let sent = Instant::now();
                    let reply = http
                        .post(&endpoint)
                        .header("Content-Type", "application/json")
                        .body(body)
                        .send()
                        .await;
                    let outcome = match reply {
                        Ok(reply) if reply.status() == 200 => {
                            let json: serde_json::Value = reply.json().await.unwrap_or_default();
                            json["finding"].as_str().map(str::to_string)
                        }
                        _ => None,
                    };
                    mine.push((sent.elapsed(), outcome));
                }
                mine
            }));
        }
        let mut all = Vec::new();
        for task in tasks {
            all.extend(task.await.unwrap_or_default());
        }
        all
    });
    let elapsed = started.elapsed();
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut findings = std::collections::BTreeMap::new();
    for (latency, outcome) in results {
        latencies.push(latency);
        match outcome {
            Some(finding) => *findings.entry(finding).or_insert(0) += 1,
            None => errors += 1,
        }
    }
    latencies.sort();
    Load {
        elapsed,
        latencies,
        errors,
        findings,
    }
}

/// One z3 CLI process deciding the three queries of a verify question.
fn z3_time(script_head: &str, premise: &str, claim: &str, scratch: &Path) -> Duration {
    let script = format!(
        "{script_head}\n(push 1)\n(assert {premise})\n(check-sat)\n(push 1)\n(assert (not {claim}))\n\
         (check-sat)\n(pop 1)\n(assert {claim})\n(check-sat)\n(pop 1)\n"
    );
    let path = scratch.join("query.smt2");
    std::fs::write(&path, script).unwrap();
    let z3 = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".deps/z3/bin/z3");
    let runs: Vec<Duration> = (0..5)
        .map(|_| {
            let started = Instant::now();
            let out = Command::new(&z3).arg(&path).output().expect("run z3");
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
            started.elapsed()
        })
        .collect();
    median(runs)
}

/// One whole cold `precept verify` process.
fn cold_verify_time(dir: &Path, premise: &str, claim: &str) -> Duration {
    let runs: Vec<Duration> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_precept"))
                .arg("verify")
                .arg(dir)
                .args(["--premise", premise, "--claim", claim, "--json"])
                .output()
                .unwrap();
            assert!(out.status.success());
            started.elapsed()
        })
        .collect();
    median(runs)
}

fn report(name: &str, dir: &Path, questions: &[(String, String)]) {
    let requests = knob("SERVE_BENCH_REQUESTS", 10_000);
    let clients = knob("SERVE_BENCH_CLIENTS", 200);
    let project = Project::load(dir).expect("the project loads");
    let compiled = compile(&project.model);
    let head = to_smtlib(&project.model, &compiled);
    let scratch = tempfile::tempdir().unwrap();
    if std::env::var_os("SERVE_BENCH_COLD_ONLY").is_some() {
        cold_report(name, dir, &head, questions, scratch.path());
        return;
    }
    let server = serve(dir);
    // Warm-up: every question once.
    let _ = load(&server.url, questions, questions.len(), 4);
    let result = load(&server.url, questions, requests, clients);
    let peak = peak_memory_mb(server.child.id());
    drop(server);
    let p50 = quantile(&result.latencies, 0.5);
    let (premise, claim) = &questions[0];
    let z3 = z3_time(&head, premise, claim, scratch.path());
    let cold = cold_verify_time(dir, premise, claim);
    // One request at a time: the latency the service adds to one question.
    let server = serve(dir);
    let single = load(&server.url, &questions[..1], 50, 1);
    drop(server);
    let single_p50 = quantile(&single.latencies, 0.5);
    println!("== {name}: {requests} /v1/verify requests from {clients} clients");
    println!(
        "  throughput            {:.0} requests/s ({:.2} s in all)",
        requests as f64 / result.elapsed.as_secs_f64(),
        result.elapsed.as_secs_f64()
    );
    println!(
        "  latency under load    p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms",
        ms(p50),
        ms(quantile(&result.latencies, 0.95)),
        ms(quantile(&result.latencies, 0.99))
    );
    println!("  errors                {} (target: none)", result.errors);
    println!("  findings              {:?}", result.findings);
    println!("  server peak memory    {peak:.0} MB");
    println!("  z3 CLI, 3 queries     {:.1} ms (one process)", ms(z3));
    println!(
        "  served p50, 1 client  {:.1} ms = {:.2} × z3 CLI (target ≤ 0.2 on the ARC-scale model)",
        ms(single_p50),
        ms(single_p50) / ms(z3)
    );
    println!(
        "  served p50 under load {:.1} ms = {:.2} × z3 CLI",
        ms(p50),
        ms(p50) / ms(z3)
    );
    println!(
        "  cold precept verify   {:.1} ms = {:.2} × z3 CLI (target ≤ 1.0)",
        ms(cold),
        ms(cold) / ms(z3)
    );
}

/// The cold path alone: for up to five questions, one z3 CLI process and
/// one whole `precept verify` process, and the ratio of their sums.
fn cold_report(name: &str, dir: &Path, head: &str, questions: &[(String, String)], scratch: &Path) {
    println!("== {name}: cold precept verify against the z3 CLI");
    let (mut z3_sum, mut cold_sum) = (0.0, 0.0);
    for (premise, claim) in questions.iter().take(5) {
        let z3 = ms(z3_time(head, premise, claim, scratch));
        let cold = ms(cold_verify_time(dir, premise, claim));
        println!(
            "  z3 CLI {z3:7.1} ms, precept verify {cold:7.1} ms = {:.2} ×",
            cold / z3
        );
        z3_sum += z3;
        cold_sum += cold;
    }
    println!("  in all: {:.2} × z3 CLI (target ≤ 1.0)", cold_sum / z3_sum);
}

fn main() {
    if std::env::var_os("SERVE_BENCH_GUARD_ONLY").is_some() {
        guard_stream::report();
        return;
    }
    let park = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/park-admission");
    let park_questions: Vec<(String, String)> = [
        (
            "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))",
            "(not isEntryAllowed)",
        ),
        ("(= ageClass SENIOR)", "(= baseFee 50)"),
        (
            "(and (= ageClass ADULT) (not isLowSeason))",
            "isEntryAllowed",
        ),
        ("isLowSeason", "(< finalAdmissionFee 100)"),
    ]
    .iter()
    .map(|(p, c)| (p.to_string(), c.to_string()))
    .collect();
    report("park sample", &park, &park_questions);

    let mut rng = Rng::new(SEED);
    let (model, sections) = generate(&mut rng, 100);
    let synthetic = tempfile::tempdir().unwrap();
    Project::create(
        synthetic.path(),
        model,
        TestSuite::default(),
        Settings::default(),
    )
    .expect("the synthetic project is written");
    if let Some(keep) = std::env::var_os("SERVE_BENCH_WRITE_SYNTHETIC") {
        let project = Project::load(synthetic.path()).expect("the synthetic project loads");
        Project::create(
            Path::new(&keep),
            project.model,
            TestSuite::default(),
            Settings::default(),
        )
        .expect("the synthetic project is written to SERVE_BENCH_WRITE_SYNTHETIC");
    }
    let questions: Vec<(String, String)> =
        (0..50).map(|_| random_claim(&mut rng, &sections)).collect();
    report(
        "synthetic model (1,500 rules)",
        synthetic.path(),
        &questions,
    );
    guard_stream::report();
}
