//! The guard proxy (`precept serve --guard`) between an app and a scripted
//! chatbot, with a scripted translator: an INVALID reply is annotated, then
//! blocked, then revised to VALID in one round.

use crate::support;

use serde_json::{Value, json};
use std::path::Path;
use support::llm_server::{Recorded, Server, openai_json, openai_reply};
use support::service::{Served, smtlib_project};

const MEMBERS_DISCOUNTED: &str = "(declare-const member Bool)(declare-const discount Bool)
(assert (=> member discount))";

const QUESTION: &str = "I am a member. Do I get the discount?";
const WRONG: &str = "No, members get no discount.";
const RIGHT: &str = "Yes, members get the discount.";
const REVISION_MARK: &str = "does not agree with the policy";

/// A translator that reads the answer: the wrong one claims no discount.
fn translator() -> Server {
    let server = Server::start();
    server.respond_with(|request: &Recorded| {
        let claim = if request.user_prompt().contains(WRONG) {
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

/// A chatbot that answers wrongly until it is asked to revise.
fn chatbot() -> Server {
    let server = Server::start();
    server.respond_with(|request: &Recorded| {
        let text = request.prompt_text();
        let mut reply = openai_reply(if text.contains(REVISION_MARK) {
            RIGHT
        } else {
            WRONG
        });
        if let support::llm_server::Action::Respond { body, .. } = &mut reply {
            let mut value: Value = serde_json::from_str(body).unwrap();
            value["id"] = json!("chatcmpl-scripted");
            value["usage"] = json!({"total_tokens": 42});
            *body = value.to_string();
        }
        reply
    });
    server
}

fn llm_config(dir: &Path, translator: &Server, chatbot: &Server) {
    support::service::llm_toml(
        dir,
        &[
            ("translator", "openai", &translator.url, "translate-model"),
            ("chatbot", "openai", &chatbot.url, "chat-model"),
        ],
    );
}

fn guard(project: &Path, config: &Path, args: &[&str]) -> Served {
    support::service::guard(project, config, "chatbot", args)
}

fn ask(served: &Served) -> support::service::Reply {
    served.post(
        "/v1/chat/completions",
        &json!({
            "model": "whatever-the-app-says",
            "messages": [
                {"role": "system", "content": "You answer questions about the shop's policy."},
                {"role": "user", "content": QUESTION}
            ]
        }),
    )
}

#[test]
fn an_invalid_reply_is_annotated_then_blocked_then_revised_to_valid() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), MEMBERS_DISCOUNTED);
    let config = tempfile::tempdir().unwrap();
    let (translator, chatbot) = (translator(), chatbot());
    llm_config(config.path(), &translator, &chatbot);

    // Annotated: the reply comes back unchanged, with the verdict.
    let served = guard(project.path(), config.path(), &[]);
    let reply = ask(&served);
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.header("x-precept-finding").as_deref(),
        Some("INVALID")
    );
    let body = reply.json();
    assert_eq!(body["choices"][0]["message"]["content"], WRONG);
    assert_eq!(body["id"], "chatcmpl-scripted");
    assert_eq!(body["usage"]["total_tokens"], 42);
    let verdict = &body["precept"];
    assert_eq!(verdict["finding"], "INVALID");
    assert_eq!(verdict["confidence"], 1.0);
    assert_eq!(verdict["rules"], json!(["R1"]));
    assert!(!verdict["feedback"].as_str().unwrap().is_empty());
    assert_eq!(verdict["blocked"], false);
    let forwarded = chatbot.requests();
    assert_eq!(forwarded.len(), 1);
    assert_eq!(forwarded[0].body["model"], "chat-model");
    assert_eq!(forwarded[0].body["messages"][1]["content"], QUESTION);
    assert!(translator.requests()[0].user_prompt().contains(QUESTION));
    drop(served);

    // Blocked: the reply is replaced by the configured message.
    let served = guard(
        project.path(),
        config.path(),
        &["--block", "--block-message", "Please ask the front desk."],
    );
    let reply = ask(&served);
    assert_eq!(
        reply.header("x-precept-finding").as_deref(),
        Some("INVALID")
    );
    let body = reply.json();
    assert_eq!(
        body["choices"][0]["message"]["content"],
        "Please ask the front desk."
    );
    assert_eq!(body["precept"]["blocked"], true);
    drop(served);

    // Revised: the feedback goes back once and the VALID reply returns.
    let before = chatbot.requests().len();
    let served = guard(project.path(), config.path(), &["--block", "--revise", "1"]);
    let reply = ask(&served);
    assert_eq!(reply.header("x-precept-finding").as_deref(), Some("VALID"));
    let body = reply.json();
    assert_eq!(body["choices"][0]["message"]["content"], RIGHT);
    assert_eq!(body["precept"]["finding"], "VALID");
    assert_eq!(body["precept"]["revisions"], 1);
    assert_eq!(body["precept"]["blocked"], false);
    let asked = &chatbot.requests()[before..];
    assert_eq!(asked.len(), 2);
    let second = &asked[1].body["messages"];
    assert_eq!(second[2]["role"], "assistant");
    assert_eq!(second[2]["content"], WRONG);
    assert!(
        second[3]["content"]
            .as_str()
            .unwrap()
            .contains(REVISION_MARK)
    );
}

#[test]
fn the_guard_refuses_requests_without_a_user_message() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), MEMBERS_DISCOUNTED);
    let config = tempfile::tempdir().unwrap();
    let (translator, chatbot) = (translator(), chatbot());
    llm_config(config.path(), &translator, &chatbot);
    let served = guard(project.path(), config.path(), &[]);
    let reply = served.post("/v1/chat/completions", &json!(["not", "an object"]));
    assert_eq!(reply.status, 400);
    assert!(reply.json()["error"].as_str().unwrap().contains("object"));
    let reply = served.post(
        "/v1/chat/completions",
        &json!({"messages": [{"role": "system", "content": "hi"}]}),
    );
    assert_eq!(reply.status, 400);
    assert!(reply.json()["error"].as_str().unwrap().contains("user"));
    assert!(chatbot.requests().is_empty());
}

#[test]
fn an_unknown_guard_profile_is_refused_at_startup() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(project.path(), MEMBERS_DISCOUNTED);
    let config = tempfile::tempdir().unwrap();
    let (translator, chatbot) = (translator(), chatbot());
    llm_config(config.path(), &translator, &chatbot);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_precept"))
        .args(["serve", project.path().to_str().unwrap()])
        .args(["--addr", "127.0.0.1:0", "--guard", "nobody"])
        .env("PRECEPT_CONFIG_DIR", config.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        support::stderr(&out).contains("--guard nobody"),
        "{}",
        support::stderr(&out)
    );
}
