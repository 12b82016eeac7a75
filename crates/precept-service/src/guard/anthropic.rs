//! `POST /v1/messages` in front of an Anthropic chatbot, in the Messages
//! API's format: a whole message with its verdict, or its stream of events
//! (`message_start` … `message_stop`) held until checked or passed on as
//! they come (`--stream`, `exchange.rs`). The verdict rides in a `precept`
//! field, on the message or on the stream's `message_delta` event.

use super::Guard;
use super::conversation::{Conversation, Wire};
use super::event_stream::Events;
use super::exchange::{Api, Failure, check_passed, exchange, next_event};
use super::judge::Verdict;
use super::split_for_streaming;
use super::sse::event;
use super::upstream::Upstream;
use crate::state::ServiceState;
use axum::response::Response;
use serde_json::{Value, json};
use std::future::Future;
use std::sync::Arc;

#[utoipa::path(post, path = "/v1/messages", tag = "guard",
    request_body = crate::guard::requests::MessagesRequest,
    responses((status = 200, description = "The chatbot's message with its verdict in `precept` (and `X-Precept-Finding`); with `\"stream\": true`, the Messages API's events, the verdict on `message_delta`", body = crate::guard::verdict::VerdictField),
        (status = 400, description = "The body is not what the endpoint documents, or a formula does not check: the error names the field and the position"), (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 429, description = "Every solver worker is busy and the queue is full"), (status = 502, description = "The chatbot did not answer, or its reply is unreadable"), (status = 503, description = "No model is being served")))]
pub async fn messages(state: Arc<ServiceState>, guard: Arc<Guard>, body: &[u8]) -> Response {
    exchange::<Messages>(state, guard, body).await
}

/// Anthropic's Messages API.
struct Messages;

impl Api for Messages {
    const WIRE: Wire = Wire::Anthropic;
    const ENDPOINT: &'static str = "/v1/messages";

    /// The message as the Messages API streams one, the verdict on
    /// `message_delta`.
    fn held_events(reply: &Value, text: &str, precept: Value) -> Vec<String> {
        let mut start = reply.clone();
        if let Some(object) = start.as_object_mut() {
            object.remove("precept");
            object.insert("content".into(), json!([]));
            object.insert("stop_reason".into(), Value::Null);
            object.insert("stop_sequence".into(), Value::Null);
        }
        let mut out = vec![
            named(
                "message_start",
                json!({"type": "message_start", "message": start}),
            ),
            named(
                "content_block_start",
                json!({"type": "content_block_start", "index": 0,
                   "content_block": {"type": "text", "text": ""}}),
            ),
        ];
        for piece in split_for_streaming(text) {
            out.push(text_delta(&piece));
        }
        out.push(named(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ));
        let output_tokens = reply
            .pointer("/usage/output_tokens")
            .cloned()
            .unwrap_or(json!(0));
        out.push(named(
            "message_delta",
            json!({"type": "message_delta",
               "delta": {"stop_reason": reply.get("stop_reason").cloned()
                             .filter(|r| !r.is_null()).unwrap_or(json!("end_turn")),
                         "stop_sequence": null},
               "usage": {"output_tokens": output_tokens},
               "precept": precept}),
        ));
        out.push(named("message_stop", json!({"type": "message_stop"})));
        out
    }

    /// The chatbot's events as they arrive, but for `message_delta` and
    /// `message_stop`, held until the reply is checked: `message_delta`
    /// then carries the verdict.
    fn pass<'a>(
        state: &'a ServiceState,
        guard: &'a Guard,
        conversation: &'a Conversation,
        upstream: Upstream,
        events: &'a Events,
    ) -> impl Future<Output = Result<Verdict, Failure>> + Send + 'a {
        pass(state, guard, conversation, upstream, events)
    }

    /// An error as Anthropic's clients read one in a stream (they raise it).
    fn error_event(message: &str) -> String {
        named(
            "error",
            json!({"type": "error", "error": {"type": "api_error", "message": message}}),
        )
    }
}

async fn pass(
    state: &ServiceState,
    guard: &Guard,
    conversation: &Conversation,
    mut upstream: Upstream,
    events: &Events,
) -> Result<Verdict, Failure> {
    let mut text = String::new();
    let mut delta = json!({"type": "message_delta",
                           "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                           "usage": {"output_tokens": 0}});
    loop {
        let Some(upstream_event) = next_event(&mut upstream, events).await? else {
            break;
        };
        let name = upstream_event.name.clone().unwrap_or_default();
        let data: Value = if upstream_event.data.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&upstream_event.data).map_err(|e| {
                Failure::Stream(format!("the chatbot sent an event that is not JSON: {e}"))
            })?
        };
        match name.as_str() {
            "error" => {
                let message = data
                    .pointer("/error/message")
                    .and_then(Value::as_str)
                    .unwrap_or("an error");
                return Err(Failure::Stream(format!("the chatbot failed: {message}")));
            }
            "message_delta" => delta = data,
            "message_stop" => break,
            _ => {
                if data.pointer("/delta/type").and_then(Value::as_str) == Some("text_delta")
                    && let Some(piece) = data.pointer("/delta/text").and_then(Value::as_str)
                {
                    text.push_str(piece);
                }
                events
                    .send(event(Some(&name), &upstream_event.data))
                    .await
                    .map_err(|_| Failure::Gone)?;
            }
        }
    }
    let verdict = check_passed(state, guard, conversation, &text, events).await?;
    delta["precept"] = verdict.json();
    events
        .send(named("message_delta", delta))
        .await
        .map_err(|_| Failure::Gone)?;
    events
        .send(named("message_stop", json!({"type": "message_stop"})))
        .await
        .map_err(|_| Failure::Gone)?;
    Ok(verdict)
}

fn named(name: &str, data: Value) -> String {
    event(Some(name), &data.to_string())
}

fn text_delta(piece: &str) -> String {
    named(
        "content_block_delta",
        json!({"type": "content_block_delta", "index": 0,
               "delta": {"type": "text_delta", "text": piece}}),
    )
}
