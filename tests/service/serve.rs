//! `precept serve` over real HTTP on 127.0.0.1: every endpoint answers as
//! the command line does, the token, the size and queue limits, errors with
//! positions, deadlines, cancelling, hot reload, and a restart after
//! `kill -9`.

use crate::support;

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use support::service::{Served, client, replace_model, smtlib_project};
use support::{copy_sample, precept, stdout};

const PARK_PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const PARK_CLAIM: &str = "(not isEntryAllowed)";

/// Members get the discount: `member` proves `discount` VALID.
const MEMBERS_DISCOUNTED: &str = "(declare-const member Bool)(declare-const discount Bool)
(assert (=> member discount))";
/// Members never get it: the same question is INVALID.
const MEMBERS_EXCLUDED: &str = "(declare-const member Bool)(declare-const discount Bool)
(assert (=> member (not discount)))";

/// x³ + y³ = z³ over positive integers: Z3 cannot settle it in time.
const FERMAT: &str = "(declare-const x Int)(declare-const y Int)(declare-const z Int)
(assert (and (> x 0) (> y 0) (> z 0)))
(assert (= (+ (* x x x) (* y y y)) (* z z z)))";

fn member_question() -> Value {
    json!({"premise": "member", "claim": "discount"})
}

fn hard_question() -> Value {
    json!({"premise": "true", "claim": "(> x 10)"})
}

fn easy_question() -> Value {
    json!({"premise": "(< x 0)", "claim": "true"})
}

/// Every file of a project folder (and below) with its contents.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

fn cli_json(args: &[&str]) -> Value {
    let out = precept(args);
    serde_json::from_str(&stdout(&out))
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", stdout(&out)))
}

#[test]
fn every_endpoint_answers_as_the_command_line_and_nothing_is_written() {
    let project = copy_sample("park-admission");
    let dir = project.path();
    let before = snapshot(dir);
    let served = Served::ready(dir, &["--workers", "2"]);

    assert_eq!(served.get("/healthz").json(), json!({"alive": true}));
    let ready = served.get("/readyz");
    assert_eq!(ready.status, 200);
    assert_eq!(ready.json()["ready"], true);

    let model = served.get("/v1/model").json();
    let model_file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("model.json")).unwrap()).unwrap();
    assert_eq!(model["title"], model_file["title"]);
    for part in ["types", "variables", "rules"] {
        assert_eq!(
            model[part].as_u64().unwrap() as usize,
            model_file[part].as_array().unwrap().len(),
            "{part}"
        );
    }
    assert_eq!(model["hash"].as_str().unwrap().len(), 64);

    let verified = served.post(
        "/v1/verify",
        &json!({"premise": PARK_PREMISE, "claim": PARK_CLAIM}),
    );
    assert_eq!(verified.status, 200, "{}", verified.text);
    assert_eq!(
        verified.header("x-precept-model").as_deref(),
        model["hash"].as_str()
    );
    let explained = served.post(
        "/v1/explain",
        &json!({"premise": "(= ageClass SENIOR)", "claim": "(= baseFee 50)"}),
    );
    assert_eq!(explained.status, 200, "{}", explained.text);
    let metrics = served.get("/metrics");
    assert!(
        metrics
            .text
            .contains("precept_requests_total{endpoint=\"/v1/verify\",finding=\"SATISFIABLE\"} 1"),
        "{}",
        metrics.text
    );
    assert!(
        metrics
            .text
            .contains("precept_request_duration_seconds_count{endpoint=\"/v1/explain\"} 1")
    );
    assert!(metrics.text.contains("precept_solver_timeouts_total 0"));
    assert!(
        metrics
            .text
            .contains("precept_reloads_total{outcome=\"ok\"} 0")
    );
    drop(served);
    assert_eq!(snapshot(dir), before, "the service wrote to the project");

    let dir_text = dir.to_str().unwrap();
    let cli = cli_json(&[
        "verify",
        dir_text,
        "--premise",
        PARK_PREMISE,
        "--claim",
        PARK_CLAIM,
        "--json",
    ]);
    assert_eq!(verified.json(), cli);
    assert_eq!(cli["finding"], "SATISFIABLE");
    let cli = cli_json(&[
        "explain",
        dir_text,
        "--premise",
        "(= ageClass SENIOR)",
        "--claim",
        "(= baseFee 50)",
        "--json",
    ]);
    assert_eq!(explained.json(), cli);
    assert_eq!(cli["finding"], "VALID");
}

#[test]
fn check_answer_answers_as_the_command_line() {
    use support::llm_server::{Server, openai_json};
    let project = copy_sample("park-admission");
    let dir = project.path();
    let config = tempfile::tempdir().unwrap();
    let llm = Server::start();
    let translation = json!({
        "pairs": [{"premise": PARK_PREMISE, "claim": PARK_CLAIM, "source": "the answer"}],
        "untranslated": [],
    });
    llm.respond_with(move |_| openai_json(&translation));
    let question = "I am a senior visiting in the low season with $35.40. Can I visit?";
    let answer = "No, $35.40 is not enough.";
    let before = snapshot(dir);
    let served = Served::start_with(support::precept_with_llm(&llm.url, config.path()), dir, &[]);
    served.wait_ready();
    let reply = served.post(
        "/v1/check-answer",
        &json!({"question": question, "answer": answer, "k": 2}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    drop(served);
    assert_eq!(snapshot(dir), before, "the service wrote to the project");
    let out = support::precept_with_llm(&llm.url, config.path())
        .args([
            "check-answer",
            dir.to_str().unwrap(),
            "--question",
            question,
            "--answer",
            answer,
            "--k",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    let mut cli: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let mut served_json = reply.json();
    // Only the timings may differ.
    cli.as_object_mut().unwrap().remove("timing");
    served_json.as_object_mut().unwrap().remove("timing");
    assert_eq!(served_json, cli);
    assert_eq!(cli["finding"], "SATISFIABLE");
    assert_eq!(cli["k"], 2);
}

#[test]
fn the_token_is_required_compared_and_never_logged() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), MEMBERS_DISCOUNTED);
    let token = "tok-8d1f3a77c0";
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_precept"));
    command.env("SERVE_TOKEN", token);
    let served = Served::start_with(command, project.path(), &["--token-env", "SERVE_TOKEN"]);
    let http = client();
    let url = |path: &str| format!("{}{path}", served.url);
    assert_eq!(
        http.get(url("/healthz")).send().unwrap().status(),
        200,
        "/healthz needs no token"
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while http
        .get(url("/readyz"))
        .bearer_auth(token)
        .send()
        .unwrap()
        .status()
        != 200
    {
        assert!(Instant::now() < deadline, "never ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    for path in ["/readyz", "/v1/model", "/metrics"] {
        assert_eq!(http.get(url(path)).send().unwrap().status(), 401, "{path}");
    }
    let ask = |auth: Option<&str>| {
        let mut request = http.post(url("/v1/verify")).json(&member_question());
        if let Some(value) = auth {
            request = request.header("Authorization", value);
        }
        request.send().unwrap()
    };
    assert_eq!(ask(None).status(), 401);
    let wrong = ask(Some("Bearer tok-8d1f3a77c1"));
    assert_eq!(wrong.status(), 401);
    assert!(!wrong.text().unwrap().contains("tok-"));
    assert_eq!(ask(Some("Bearer tok-8d1f3a77c")).status(), 401);
    assert_eq!(
        ask(Some(token)).status(),
        401,
        "the Bearer scheme is needed"
    );
    let right = ask(Some(&format!("Bearer {token}")));
    assert_eq!(right.status(), 200);
    assert_eq!(right.json::<Value>().unwrap()["finding"], "VALID");
    let log = served.log_text();
    assert!(log.contains("without a valid token"), "{log}");
    assert!(!log.contains(token), "the token was logged:\n{log}");
}

#[test]
fn a_missing_token_variable_is_refused_at_startup() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), MEMBERS_DISCOUNTED);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_precept"))
        .args(["serve", project.path().to_str().unwrap()])
        .args(["--addr", "127.0.0.1:0", "--token-env", "NO_SUCH_TOKEN_VAR"])
        .env_remove("NO_SUCH_TOKEN_VAR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(support::stderr(&out).contains("--token-env NO_SUCH_TOKEN_VAR"));
}

#[test]
fn bodies_over_64_kib_get_413_and_a_full_queue_gets_429() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), FERMAT);
    let served = Served::ready(
        project.path(),
        &["--workers", "1", "--queue", "0", "--timeout-ms", "3000"],
    );
    let big = json!({"premise": "true", "claim": format!("(> x {})", "9".repeat(70 * 1024))});
    assert_eq!(served.post("/v1/verify", &big).status, 413);
    let under = json!({"premise": format!("(< x 0){}", " ".repeat(60 * 1024)), "claim": "true"});
    assert_ne!(served.post("/v1/verify", &under).status, 413);

    let url = served.url.clone();
    let hard = std::thread::spawn(move || Served::post_to(&url, "/v1/verify", &hard_question()));
    std::thread::sleep(Duration::from_millis(500));
    let refused = served.post("/v1/verify", &easy_question());
    assert_eq!(refused.status, 429, "{}", refused.text);
    assert_eq!(refused.header("retry-after").as_deref(), Some("1"));
    let hard = hard.join().unwrap();
    assert_eq!(hard.json()["finding"], "TOO_COMPLEX");
    // The place is given back: the next request is answered.
    assert_eq!(
        served.post("/v1/verify", &easy_question()).json()["finding"],
        "IMPOSSIBLE"
    );
    assert!(
        served
            .get("/metrics")
            .text
            .contains("precept_requests_rejected_total{reason=\"queue_full\"} 1")
    );
}

#[test]
fn malformed_bodies_and_expressions_get_400_with_the_position() {
    let project = copy_sample("park-admission");
    let served = Served::ready(project.path(), &[]);
    let reply = Reply::raw(
        &served,
        "/v1/verify",
        "{\"premise\": \"true\",\n \"claim\": tru}",
    );
    assert_eq!(reply.status, 400);
    let body = reply.json();
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(2), json!(14))
    );
    assert!(body["error"].as_str().unwrap().contains("line 2 column 14"));

    let reply = served.post("/v1/verify", &json!({"premise": "true"}));
    assert_eq!(reply.status, 400);
    assert!(reply.json()["error"].as_str().unwrap().contains("claim"));

    let reply = served.post(
        "/v1/verify",
        &json!({"premise": "(and isLowSeason", "claim": "isEntryAllowed"}),
    );
    assert_eq!(reply.status, 400);
    let body = reply.json();
    assert_eq!(body["field"], "premise");
    assert_eq!(
        (body["line"].clone(), body["column"].clone()),
        (json!(1), json!(17))
    );
    assert!(body["expected"].as_str().unwrap().contains("')'"), "{body}");

    let reply = served.post(
        "/v1/explain",
        &json!({"premise": "true", "claim": "(= ageClas SENIOR)"}),
    );
    assert_eq!(reply.status, 400);
    let body = reply.json();
    assert_eq!(body["field"], "claim");
    assert_eq!(body["column"], 4);
    assert!(
        body["error"].as_str().unwrap().contains("ageClass"),
        "{body}"
    );
}

use support::service::Reply;

#[test]
fn a_question_past_its_deadline_is_too_complex_on_time_while_others_are_answered() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), FERMAT);
    // Easy questions must not wait for the hard one's deadline; the margins
    // leave room for a machine busy with other tests.
    let served = Served::ready(project.path(), &["--workers", "2", "--timeout-ms", "2000"]);
    let url = served.url.clone();
    let hard = std::thread::spawn(move || {
        let started = Instant::now();
        let reply = Served::post_to(&url, "/v1/verify", &hard_question());
        (reply, started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(100));
    let mut answered = 0;
    while !hard.is_finished() {
        let started = Instant::now();
        let reply = served.post("/v1/verify", &easy_question());
        assert_eq!(reply.json()["finding"], "IMPOSSIBLE");
        let took = started.elapsed();
        assert!(
            took < Duration::from_millis(1400),
            "an easy question took {took:?}"
        );
        answered += 1;
    }
    let (reply, elapsed) = hard.join().unwrap();
    assert_eq!(reply.json()["finding"], "TOO_COMPLEX", "{}", reply.text);
    assert!(
        elapsed < Duration::from_millis(2700),
        "the deadline was not kept: {elapsed:?}"
    );
    assert!(answered > 0);
    let metrics = served.get("/metrics").text;
    assert!(
        metrics.contains("precept_solver_timeouts_total 1"),
        "{metrics}"
    );
    // The hard question had the idle worker lent, and gave it back to the
    // first easy question.
    assert!(
        metrics.contains("precept_verify_split_total{lent_worker=\"recalled\"} 1"),
        "{metrics}"
    );
}

#[test]
fn a_client_that_goes_away_cancels_its_question() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), FERMAT);
    let served = Served::ready(project.path(), &["--workers", "1", "--timeout-ms", "60000"]);
    let _ = client();
    let impatient = reqwest::blocking::Client::builder()
        .no_proxy()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let gone = impatient
        .post(format!("{}/v1/verify", served.url))
        .json(&hard_question())
        .send();
    assert!(gone.is_err(), "the hard question was answered: {gone:?}");
    // With the only worker still on the hard question this would wait a
    // minute; cancelled, it is answered at once.
    let started = Instant::now();
    let reply = served.post("/v1/verify", &easy_question());
    assert_eq!(reply.json()["finding"], "IMPOSSIBLE");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(served.log_text().contains("abandoned by its client"));
}

#[test]
fn a_reload_under_load_fails_no_request_and_never_mixes_models() {
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    smtlib_project(dir, MEMBERS_DISCOUNTED);
    let served = Served::ready(dir, &["--workers", "2", "--watch-ms", "0"]);
    let old_hash = served.get("/v1/model").json()["hash"].clone();
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (url, stop) = (served.url.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut replies = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    replies.push(Served::post_to(&url, "/v1/verify", &member_question()));
                }
                replies
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    replace_model(dir, MEMBERS_EXCLUDED);
    let reloaded = served.post("/v1/reload", &json!({}));
    assert_eq!(reloaded.status, 200, "{}", reloaded.text);
    let new_hash = reloaded.json()["model_hash"].clone();
    assert_ne!(new_hash, old_hash);
    // After the swap the new verdict is served.
    let reply = served.post("/v1/verify", &member_question());
    assert_eq!(reply.json()["finding"], "INVALID");
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    let mut seen = BTreeMap::new();
    for client in clients {
        for reply in client.join().unwrap() {
            assert_eq!(reply.status, 200, "{}", reply.text);
            let hash = reply.header("x-precept-model").unwrap();
            let finding = reply.json()["finding"].as_str().unwrap().to_string();
            let expected = if json!(hash) == old_hash {
                "VALID"
            } else {
                "INVALID"
            };
            assert_eq!(finding, expected, "a reply mixed the models");
            *seen.entry(finding).or_insert(0) += 1;
        }
    }
    assert!(seen.get("VALID").is_some_and(|n| *n > 0), "{seen:?}");
    assert!(seen.get("INVALID").is_some_and(|n| *n > 0), "{seen:?}");
    assert!(
        served
            .get("/metrics")
            .text
            .contains("precept_reloads_total{outcome=\"ok\"} 1")
    );
}

#[test]
fn a_broken_model_keeps_the_old_one_serving_and_readyz_says_why() {
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    smtlib_project(dir, MEMBERS_DISCOUNTED);
    let served = Served::ready(dir, &["--watch-ms", "0"]);
    let hash = served.get("/v1/model").json()["hash"].clone();
    std::fs::write(
        dir.join("model.json"),
        "{\"schema_version\": 1, \"rules\": [",
    )
    .unwrap();
    let refused = served.post("/v1/reload", &json!({}));
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.json()["error"]
            .as_str()
            .unwrap()
            .contains("model.json")
    );
    let reply = served.post("/v1/verify", &member_question());
    assert_eq!(reply.json()["finding"], "VALID");
    assert_eq!(json!(reply.header("x-precept-model").unwrap()), hash);
    let ready = served.get("/readyz");
    assert_eq!(ready.status, 200);
    assert!(
        ready.json()["reload_error"]
            .as_str()
            .unwrap()
            .contains("model.json"),
        "{}",
        ready.text
    );
    assert!(served.log_text().contains("failed to load"));
    assert!(
        served
            .get("/metrics")
            .text
            .contains("precept_reloads_total{outcome=\"failed\"} 1")
    );
    // Fixed, it loads again and readyz is clear.
    replace_model(dir, MEMBERS_EXCLUDED);
    assert_eq!(served.post("/v1/reload", &json!({})).status, 200);
    assert_eq!(served.get("/readyz").json()["reload_error"], Value::Null);
}

#[test]
fn a_change_to_the_project_is_picked_up_without_asking() {
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    smtlib_project(dir, MEMBERS_DISCOUNTED);
    let served = Served::ready(dir, &["--watch-ms", "100"]);
    assert_eq!(
        served.post("/v1/verify", &member_question()).json()["finding"],
        "VALID"
    );
    replace_model(dir, MEMBERS_EXCLUDED);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let finding = served.post("/v1/verify", &member_question()).json()["finding"].clone();
        if finding == "INVALID" {
            break;
        }
        assert!(Instant::now() < deadline, "the change was never picked up");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_project_that_does_not_load_is_not_ready_and_says_why() {
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    smtlib_project(dir, MEMBERS_DISCOUNTED);
    std::fs::write(dir.join("model.json"), "{ not json").unwrap();
    let served = Served::start(dir, &["--watch-ms", "0"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    let ready = loop {
        let ready = served.get("/readyz");
        if !ready.json()["reason"]
            .as_str()
            .unwrap_or("")
            .contains("loading")
        {
            break ready;
        }
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(ready.status, 503);
    assert_eq!(ready.json()["ready"], false);
    assert!(
        ready.json()["reason"]
            .as_str()
            .unwrap()
            .contains("model.json")
    );
    let reply = served.post("/v1/verify", &member_question());
    assert_eq!(reply.status, 503);
    assert_eq!(served.get("/healthz").status, 200);
}

#[test]
fn after_kill_9_under_load_a_restart_serves_again() {
    let project = tempfile::tempdir().unwrap();
    let dir = project.path();
    smtlib_project(dir, MEMBERS_DISCOUNTED);
    let before = snapshot(dir);
    let mut served = Served::ready(dir, &["--workers", "2"]);
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let url = served.url.clone();
            std::thread::spawn(move || {
                let http = client();
                let mut answered = 0;
                while let Ok(reply) = http
                    .post(format!("{url}/v1/verify"))
                    .json(&member_question())
                    .send()
                {
                    if reply.status() == 200 {
                        answered += 1;
                    }
                }
                answered
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    served.child.kill().unwrap(); // SIGKILL
    served.child.wait().unwrap();
    let answered: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    assert!(answered > 0);
    assert_eq!(snapshot(dir), before);
    let again = Served::ready(dir, &["--workers", "2"]);
    assert_eq!(
        again.post("/v1/verify", &member_question()).json()["finding"],
        "VALID"
    );
}
