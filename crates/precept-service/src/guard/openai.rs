//! `POST /v1/chat/completions` in front of an OpenAI-compatible chatbot:
//! a whole reply with its verdict, or a stream of chunks (`"stream": true`)
//! held until checked or passed on as they come (`--stream`,
//! `exchange.rs`).

use super::Guard;
use super::conversation::{Conversation, Wire};
use super::event_stream::Events;
use super::exchange::{Api, Failure, check_passed, exchange, next_event};
use super::judge::Verdict;
use super::split_for_streaming;
use super::upstream::Upstream;
use crate::state::ServiceState;
use axum::response::Response;
use serde_json::{Value, json};
use std::future::Future;
use std::sync::Arc;

#[utoipa::path(post, path = "/v1/chat/completions", tag = "guard",
    request_body = crate::guard::requests::ChatCompletionsRequest,
    responses((status = 200, description = "The chatbot's reply with its verdict in `precept` (and `X-Precept-Finding`); with `\"stream\": true`, server-sent events in OpenAI's chunk format ending with `[DONE]`, the verdict on the last content chunk (`--stream hold`) or on one last chunk with an empty delta (`--stream pass`)", body = crate::guard::verdict::VerdictField),
        (status = 400, description = "The body is not what the endpoint documents, or a formula does not check: the error names the field and the position"), (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 429, description = "Every solver worker is busy and the queue is full"), (status = 502, description = "The chatbot did not answer, or its reply is unreadable"), (status = 503, description = "No model is being served")))]
pub async fn chat_completions(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    body: &[u8],
) -> Response {
    exchange::<OpenAi>(state, guard, body).await
}

/// OpenAI's chat completions.
struct OpenAi;

impl Api for OpenAi {
    const WIRE: Wire = Wire::OpenAi;
    const ENDPOINT: &'static str = "/v1/chat/completions";

    /// The reply in chunks, the verdict on the last content chunk, then
    /// `[DONE]`.
    fn held_events(reply: &Value, text: &str, precept: Value) -> Vec<String> {
        let head = ChunkHead::of(reply);
        let pieces = split_for_streaming(text);
        let mut out = vec![data(
            &head.chunk(json!({"role": "assistant", "content": ""}), None),
        )];
        let last = pieces.len().saturating_sub(1);
        for (i, piece) in pieces.iter().enumerate() {
            let mut chunk = head.chunk(json!({ "content": piece }), (i == last).then_some("stop"));
            if i == last {
                chunk["precept"] = precept.clone();
            }
            out.push(data(&chunk));
        }
        out.push(done());
        out
    }

    /// The chatbot's chunks as they arrive; the verdict follows in one last
    /// chunk with an empty delta, before `[DONE]`.
    fn pass<'a>(
        state: &'a ServiceState,
        guard: &'a Guard,
        conversation: &'a Conversation,
        upstream: Upstream,
        events: &'a Events,
    ) -> impl Future<Output = Result<Verdict, Failure>> + Send + 'a {
        pass(state, guard, conversation, upstream, events)
    }

    /// An error as OpenAI's clients read one in a stream (they raise it).
    fn error_event(message: &str) -> String {
        let body =
            json!({"error": {"message": message, "type": "precept_guard_error", "code": null}});
        super::sse::event(None, &body.to_string())
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
    let mut head = ChunkHead::default();
    loop {
        let Some(event) = next_event(&mut upstream, events).await? else {
            break;
        };
        if event.data.trim() == "[DONE]" {
            break;
        }
        let chunk: Value = serde_json::from_str(&event.data).map_err(|e| {
            Failure::Stream(format!("the chatbot sent a chunk that is not JSON: {e}"))
        })?;
        if let Some(error) = chunk.get("error") {
            let message = error["message"].as_str().unwrap_or("an error");
            return Err(Failure::Stream(format!("the chatbot failed: {message}")));
        }
        if let Some(piece) = chunk
            .pointer("/choices/0/delta/content")
            .and_then(Value::as_str)
        {
            text.push_str(piece);
        }
        head = ChunkHead::of(&chunk);
        events.send(data(&chunk)).await.map_err(|_| Failure::Gone)?;
    }
    let verdict = check_passed(state, guard, conversation, &text, events).await?;
    let mut last = head.chunk(json!({}), None);
    last["precept"] = verdict.json();
    events.send(data(&last)).await.map_err(|_| Failure::Gone)?;
    events.send(done()).await.map_err(|_| Failure::Gone)?;
    Ok(verdict)
}

/// What every chunk of one reply repeats: its id, time and model.
#[derive(Default)]
struct ChunkHead {
    id: Value,
    created: Value,
    model: Value,
}

impl ChunkHead {
    fn of(reply: &Value) -> ChunkHead {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        ChunkHead {
            id: reply
                .get("id")
                .cloned()
                .unwrap_or(json!("chatcmpl-precept")),
            created: reply.get("created").cloned().unwrap_or(json!(now)),
            model: reply
                .get("model")
                .cloned()
                .unwrap_or(json!("precept-guard")),
        }
    }

    fn chunk(&self, delta: Value, finish_reason: Option<&str>) -> Value {
        json!({
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        })
    }
}

fn data(chunk: &Value) -> String {
    super::sse::event(None, &chunk.to_string())
}

fn done() -> String {
    super::sse::event(None, "[DONE]")
}
