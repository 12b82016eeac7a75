//! `POST /v1/chat/completions` in front of the chatbot: forward, check,
//! revise, block, and return the reply with its verdict.

use super::chatbot::{Chatbot, last_user_message, reply_text, set_reply_text};
use super::verdict::{is_blocked, revision_request, verdict_json};
use crate::api_error::{ApiError, parse_body};
use crate::endpoints::check_answer::{check, translator};
use crate::endpoints::record::{Answer, respond};
use crate::on_worker::on_worker;
use crate::options::GuardOptions;
use crate::state::ServiceState;
use axum::http::HeaderValue;
use axum::response::Response;
use precept_engine::answer::{AnswerInput, AnswerReport, VerifyOptions};
use precept_engine::solve::FindingKind;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

/// The chatbot and what to do with its replies.
pub struct Guard {
    pub chatbot: Chatbot,
    pub options: GuardOptions,
}

/// The header that carries the verdict's finding.
pub const FINDING_HEADER: &str = "x-precept-finding";

pub async fn chat_completions(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    body: &[u8],
) -> Response {
    let started = Instant::now();
    let outcome = guarded(&state, &guard, body).await;
    let finding = outcome.as_ref().ok().map(|answer| answer.finding.clone());
    let mut response = respond(&state, "/v1/chat/completions", started, outcome);
    if let Some(finding) = finding
        && let Ok(value) = HeaderValue::from_str(&finding)
    {
        response.headers_mut().insert(FINDING_HEADER, value);
    }
    response
}

async fn guarded(state: &ServiceState, guard: &Guard, body: &[u8]) -> Result<Answer, ApiError> {
    let mut request: Value = parse_body(body)?;
    if !request.is_object() {
        return Err(ApiError::bad_request(
            "expected a chat-completions request object",
        ));
    }
    if request.get("stream").and_then(Value::as_bool) == Some(true) {
        return Err(ApiError::bad_request(
            "stream: the guard checks whole replies; send \"stream\": false",
        ));
    }
    let question = last_user_message(&request).ok_or_else(|| {
        ApiError::bad_request("messages: expected at least one message with role \"user\"")
    })?;
    let client = translator(state)?;
    let mut revisions = 0;
    loop {
        let mut reply = guard.chatbot.complete(&request).await?;
        let text = reply_text(&reply)
            .ok_or_else(|| {
                ApiError::bad_gateway("the chatbot's reply has no choices[0].message.content")
            })?
            .to_string();
        let (input, k) = (AnswerInput::new(&question, &text), guard.options.k);
        let worker_client = Arc::clone(&client);
        let (report, model_hash) = on_worker(state, move |model, worker, cancel| {
            check(
                model,
                worker,
                cancel,
                worker_client,
                &input,
                k,
                VerifyOptions::default(),
            )
        })
        .await?;
        let report: AnswerReport = report?;
        if report.finding != FindingKind::Valid && revisions < guard.options.revise {
            revisions += 1;
            tracing::info!(
                round = revisions,
                finding = report.finding.name(),
                "asking the chatbot to revise its reply"
            );
            append_revision(&mut request, &text, &report);
            continue;
        }
        let blocked = guard.options.block && is_blocked(report.finding);
        if blocked {
            set_reply_text(&mut reply, &guard.options.block_message);
        }
        if let Some(object) = reply.as_object_mut() {
            object.insert("precept".into(), verdict_json(&report, revisions, blocked));
        }
        return Ok(Answer {
            json: reply,
            finding: report.finding.name().to_string(),
            model_hash,
        });
    }
}

/// Adds the rejected reply and the request to revise it to the conversation.
fn append_revision(request: &mut Value, reply: &str, report: &AnswerReport) {
    if let Some(messages) = request.get_mut("messages").and_then(Value::as_array_mut) {
        messages.push(json!({"role": "assistant", "content": reply}));
        messages.push(json!({"role": "user", "content": revision_request(report)}));
    }
}
