//! The guard as chat apps reach it: `precept serve --guard` driven by the
//! official `openai` and `anthropic` Python clients (installed into
//! `.deps/py` by `scripts/setup.sh --tests`), plain and streamed, held and
//! passed, blocked and revised, and with a chatbot whose stream breaks off.
//! The scripted chatbot on 127.0.0.1 streams in each API's wire format, its
//! writes cutting across event boundaries.

use crate::support;

use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;
use support::llm_server::{
    ANTHROPIC_PATH, Action, Recorded, Server, anthropic_reply, anthropic_stream, openai_json,
    openai_reply, openai_stream,
};
use support::service::{Served, smtlib_project};

const MEMBERS_DISCOUNTED: &str = "(declare-const member Bool)(declare-const discount Bool)
(assert (=> member discount))";
const WRONG: &str = "No, members get no discount, as the shop's rules have said for years.";
const RIGHT: &str = "Yes, members get the discount.";
const REVISION_MARK: &str = "does not agree with the policy";
const BLOCKED: &str = "Please ask the front desk.";

/// A translator that reads the answer: the wrong one claims no discount.
fn translator() -> Server {
    let server = Server::start();
    server.respond_with(|request: &Recorded| {
        let claim = if request.user_prompt().contains("no discount") {
            "(not discount)"
        } else {
            "discount"
        };
        openai_json(&json!({
            "pairs": [{"premise": "member", "claim": claim, "source": "the answer"}],
            "untranslated": [],
        }))
    });
    server
}

/// A chatbot in both APIs that answers wrongly until asked to revise, and
/// whose reply (streamed or whole) breaks off when the question says BREAK.
fn chatbot() -> Server {
    let server = Server::start();
    server.respond_with(|request: &Recorded| {
        let text = request.prompt_text();
        let reply = if text.contains(REVISION_MARK) {
            RIGHT
        } else {
            WRONG
        };
        let anthropic = request.path == ANTHROPIC_PATH;
        if request.body["stream"] != json!(true) {
            return if text.contains("BREAK") {
                Action::DropMidResponse
            } else if anthropic {
                anthropic_reply(reply)
            } else {
                openai_reply(reply)
            };
        }
        let events = if anthropic {
            anthropic_stream(reply)
        } else {
            openai_stream(reply)
        };
        Action::Stream {
            cut_after: text.contains("BREAK").then_some(events.len() / 2),
            events,
            pause: Duration::from_millis(1),
        }
    });
    server
}

fn llm_config(dir: &Path, translator: &Server, chatbot: &Server) {
    support::service::llm_toml(
        dir,
        &[
            ("translator", "openai", &translator.url, "translate-model"),
            ("chatbot", "openai", &chatbot.url, "chat-model"),
            ("claude-bot", "anthropic", &chatbot.url, "chat-model"),
        ],
    );
}

struct Setup {
    project: tempfile::TempDir,
    config: tempfile::TempDir,
    translator: Server,
    chatbot: Server,
}

fn setup() -> Setup {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), MEMBERS_DISCOUNTED);
    let config = tempfile::tempdir().unwrap();
    let (translator, chatbot) = (translator(), chatbot());
    llm_config(config.path(), &translator, &chatbot);
    Setup {
        project,
        config,
        translator,
        chatbot,
    }
}

fn guard(setup: &Setup, profile: &str, args: &[&str]) -> Served {
    support::service::guard(setup.project.path(), setup.config.path(), profile, args)
}

/// What the official client of `api` saw for each scenario, by name.
fn app_sees(api: &str, served: &Served, scenarios: &[&str]) -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let packages = root.join(".deps/py");
    assert!(
        packages.join("openai").is_dir() && packages.join("anthropic").is_dir(),
        "the official clients are not installed: run ./scripts/setup.sh --tests"
    );
    let out = std::process::Command::new(std::env::var("PYTHON").unwrap_or("python3".into()))
        .arg(root.join("tests/service/clients/guard_clients.py"))
        .arg(api)
        .arg(&served.url)
        .args(scenarios)
        .env("PYTHONPATH", &packages)
        .env("NO_PROXY", "127.0.0.1")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("ANTHROPIC_BASE_URL")
        .output()
        .expect("run python3");
    assert!(
        out.status.success(),
        "{}\n{}\nserver log:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        served.log_text()
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per scenario"))
        .collect()
}

#[test]
fn openai_apps_get_the_verdict_plain_and_streamed_held_or_passed() {
    let setup = setup();
    let served = guard(&setup, "chatbot", &[]);
    let [plain, stream, broken, followup] = <[Value; 4]>::try_from(app_sees(
        "openai",
        &served,
        &["plain", "stream", "broken", "followup"],
    ))
    .unwrap();

    assert_eq!(plain["text"], WRONG);
    assert_eq!(plain["header"], "INVALID");
    assert_eq!(plain["precept"]["finding"], "INVALID");

    // Held: the verdict is in the header before the first chunk, and on
    // the last chunk with content.
    assert_eq!(stream["text"], WRONG, "{stream:#}");
    assert_eq!(stream["header"], "INVALID");
    let chunks = stream["chunks"].as_array().unwrap();
    assert!(chunks.len() > 3, "streamed in pieces: {stream:#}");
    let last = chunks.last().unwrap();
    assert_eq!(last["precept"]["finding"], "INVALID");
    assert!(last["content"].as_str().is_some_and(|c| !c.is_empty()));
    assert_eq!(last["finish"], "stop");
    assert!(
        chunks[..chunks.len() - 1]
            .iter()
            .all(|c| c["precept"].is_null())
    );

    // Held, the chatbot's stream broke off: the guard read no whole reply,
    // so the app gets an error status before any chunk.
    assert_eq!(broken["is_api_error"], true, "{broken:#}");
    assert_eq!(broken["error"], "InternalServerError", "{broken:#}");

    // Earlier turns reach the translator as context.
    assert_eq!(followup["precept"]["finding"], "INVALID");
    let asked = setup.translator.requests();
    assert!(
        asked
            .iter()
            .any(|r| r.user_prompt().contains("Is there a members' club?")),
        "the earlier turn is given to the translator"
    );
    drop(served);

    // Passed: the chatbot's chunks as they came, then one empty chunk with
    // the verdict.
    let served = guard(&setup, "chatbot", &["--stream", "pass"]);
    let [stream, broken] =
        <[Value; 2]>::try_from(app_sees("openai", &served, &["stream", "broken"])).unwrap();
    assert_eq!(stream["text"], WRONG, "{stream:#}");
    assert!(stream["header"].is_null(), "the verdict is not known yet");
    let chunks = stream["chunks"].as_array().unwrap();
    let last = chunks.last().unwrap();
    assert_eq!(last["precept"]["finding"], "INVALID");
    assert!(last["content"].is_null(), "an empty delta: {last}");
    assert_eq!(
        chunks.iter().filter(|c| c["content"].is_string()).count(),
        WRONG.split_inclusive(' ').count() + 1,
        "the chatbot's own chunks"
    );
    // Passed, broken off mid-stream: the app's client raises the error.
    assert_eq!(broken["is_api_error"], true, "{broken:#}");
    assert_eq!(broken["error"], "APIError", "{broken:#}");
    assert!(
        broken["message"].as_str().unwrap().contains("cut off"),
        "{broken:#}"
    );
}

#[test]
fn openai_streams_are_blocked_or_revised_before_they_are_sent() {
    let setup = setup();
    let served = guard(&setup, "chatbot", &["--block", "--block-message", BLOCKED]);
    let [stream] = <[Value; 1]>::try_from(app_sees("openai", &served, &["stream"])).unwrap();
    assert_eq!(stream["text"], BLOCKED);
    assert_eq!(stream["precept"]["blocked"], true);
    drop(served);

    let served = guard(&setup, "chatbot", &["--revise", "1"]);
    let [stream] = <[Value; 1]>::try_from(app_sees("openai", &served, &["stream"])).unwrap();
    assert_eq!(stream["text"], RIGHT);
    assert_eq!(stream["header"], "VALID");
    assert_eq!(stream["precept"]["finding"], "VALID");
    assert_eq!(stream["precept"]["revisions"], 1);
}

#[test]
fn anthropic_apps_get_the_verdict_plain_and_streamed_held_or_passed() {
    let setup = setup();
    let served = guard(
        &setup,
        "claude-bot",
        &["--block", "--block-message", BLOCKED],
    );
    let [plain, stream, followup] = <[Value; 3]>::try_from(app_sees(
        "anthropic",
        &served,
        &["plain", "stream", "followup"],
    ))
    .unwrap();
    assert_eq!(plain["text"], BLOCKED, "{plain:#}");
    assert_eq!(plain["header"], "INVALID");
    assert_eq!(plain["precept"]["finding"], "INVALID");
    assert_eq!(plain["precept"]["blocked"], true);
    assert_eq!(stream["text"], BLOCKED, "{stream:#}");
    assert_eq!(stream["header"], "INVALID");
    assert_eq!(stream["precept"]["blocked"], true);
    let events: Vec<&str> = stream["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(events.first(), Some(&"message_start"));
    assert_eq!(
        &events[events.len() - 2..],
        ["message_delta", "message_stop"]
    );
    assert_eq!(followup["precept"]["finding"], "INVALID");
    // The chatbot got the app's system prompt and turns, in its own API.
    let forwarded = setup.chatbot.requests();
    assert!(forwarded.iter().all(|r| r.path == ANTHROPIC_PATH));
    assert_eq!(forwarded[0].body["model"], "chat-model");
    assert_eq!(
        forwarded[0].body["system"],
        "You answer questions about the shop's policy."
    );
    assert!(
        setup
            .translator
            .requests()
            .iter()
            .any(|r| r.user_prompt().contains("anyone can join"))
    );
    drop(served);

    let served = guard(&setup, "claude-bot", &["--stream", "pass"]);
    let [stream, broken] =
        <[Value; 2]>::try_from(app_sees("anthropic", &served, &["stream", "broken"])).unwrap();
    assert_eq!(stream["text"], WRONG, "{stream:#}");
    assert_eq!(stream["precept"]["finding"], "INVALID");
    assert!(stream["events"].as_array().unwrap().len() > 6);
    assert_eq!(broken["is_api_error"], true, "{broken:#}");
    assert!(
        broken["message"].as_str().unwrap().contains("cut off"),
        "{broken:#}"
    );
}

#[test]
fn a_client_that_leaves_mid_stream_costs_the_server_nothing() {
    use std::io::{Read, Write};
    let setup = setup();
    setup.chatbot.set_latency(Duration::from_millis(200));
    let served = guard(&setup, "chatbot", &["--stream", "pass"]);
    let address = served.url.trim_start_matches("http://").to_string();
    for _ in 0..3 {
        let body = json!({"stream": true,
                          "messages": [{"role": "user", "content": "Do members get a discount?"}]})
        .to_string();
        let mut socket = std::net::TcpStream::connect(&address).unwrap();
        write!(
            socket,
            "POST /v1/chat/completions HTTP/1.1\r\nHost: {address}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut first = [0u8; 64];
        let _ = socket.read(&mut first);
        drop(socket);
    }
    std::thread::sleep(Duration::from_millis(500));
    let health = served.get("/healthz");
    assert_eq!(health.status, 200);
    // A whole request still works, and nothing panicked.
    let reply = served.post(
        "/v1/chat/completions",
        &json!({"messages": [{"role": "user", "content": "Do members get a discount?"}]}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(
        !served.log_text().contains("panicked"),
        "{}",
        served.log_text()
    );
}
