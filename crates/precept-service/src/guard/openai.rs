//! `POST /v1/chat/completions` in front of an OpenAI-compatible chatbot:
//! a whole reply with its verdict, or a stream of chunks (`"stream": true`)
//! held until checked or passed on as they come (`--stream`).

use super::conversation::{Conversation, Wire};
use super::event_stream::{Events, event_stream};
use super::judge::{Verdict, check_reply, held_reply};
use super::upstream::Upstream;
use super::{FINDING_HEADER, Guard, StreamMode, split_for_streaming};
use crate::api_error::{ApiError, parse_body};
use crate::endpoints::record::{Answer, MODEL_HEADER, record, respond};
use crate::state::ServiceState;
use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

const ENDPOINT: &str = "/v1/chat/completions";

#[utoipa::path(post, path = "/v1/chat/completions", tag = "guard",
    request_body = crate::guard::requests::ChatCompletionsRequest,
    responses((status = 200, description = "The chatbot's reply with its verdict in `precept` (and `X-Precept-Finding`); with `\"stream\": true`, server-sent events in OpenAI's chunk format ending with `[DONE]`, the verdict on the last content chunk (`--stream hold`) or on one last chunk with an empty delta (`--stream pass`)", body = crate::guard::verdict::VerdictField),
        (status = 400, description = "The body is not what the endpoint documents, or a formula does not check: the error names the field and the position"), (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 429, description = "Every solver worker is busy and the queue is full"), (status = 502, description = "The chatbot did not answer, or its reply is unreadable"), (status = 503, description = "No model is being served")))]
pub async fn chat_completions(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    body: &[u8],
) -> Response {
    let started = Instant::now();
    let conversation = match parse_body(body).and_then(|v| Conversation::read(Wire::OpenAi, v)) {
        Ok(conversation) => conversation,
        Err(error) => return respond(&state, ENDPOINT, started, Err(error)),
    };
    match (conversation.wants_stream(), guard.options.stream) {
        (false, _) => whole(state, guard, conversation, started).await,
        (true, StreamMode::Hold) => held_stream(state, guard, conversation, started).await,
        (true, StreamMode::Pass) => passed_stream(state, guard, conversation, started).await,
    }
}

async fn whole(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    mut conversation: Conversation,
    started: Instant,
) -> Response {
    let outcome = held_reply(&state, &guard, &mut conversation)
        .await
        .map(|(reply, verdict)| Answer {
            json: reply,
            finding: verdict.finding().to_string(),
            model_hash: verdict.model_hash,
        });
    let finding = outcome.as_ref().ok().map(|a| a.finding.clone());
    let mut response = respond(&state, ENDPOINT, started, outcome);
    if let Some(finding) = finding
        && let Ok(value) = HeaderValue::from_str(&finding)
    {
        response.headers_mut().insert(FINDING_HEADER, value);
    }
    response
}

/// The reply checked (and revised, blocked) first, then streamed in
/// chunks; the verdict is in the header and on the last content chunk.
async fn held_stream(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    mut conversation: Conversation,
    started: Instant,
) -> Response {
    let outcome = held_reply(&state, &guard, &mut conversation).await;
    let (reply, verdict) = match outcome {
        Ok(held) => held,
        Err(error) => {
            record::<()>(&state, ENDPOINT, started, &Err(error.clone()));
            return error.into_response();
        }
    };
    record(
        &state,
        ENDPOINT,
        started,
        &Ok(((), verdict.finding().to_string())),
    );
    let text = conversation.reply_text(&reply).unwrap_or_default();
    let head = ChunkHead::of(&reply);
    let precept = verdict.json();
    let headers = vec![
        (
            HeaderName::from_static(FINDING_HEADER),
            verdict.finding().to_string(),
        ),
        (
            HeaderName::from_static(MODEL_HEADER),
            verdict.model_hash.clone(),
        ),
    ];
    event_stream(headers, move |events| async move {
        let pieces = split_for_streaming(&text);
        let mut chunks = vec![head.chunk(json!({"role": "assistant", "content": ""}), None)];
        let last = pieces.len().saturating_sub(1);
        for (i, piece) in pieces.iter().enumerate() {
            let mut chunk = head.chunk(json!({ "content": piece }), (i == last).then_some("stop"));
            if i == last {
                chunk["precept"] = precept.clone();
            }
            chunks.push(chunk);
        }
        for chunk in chunks {
            if events.send(data(&chunk)).await.is_err() {
                return;
            }
        }
        let _ = events.send(done()).await;
    })
}

/// The chatbot's chunks passed on as they arrive; the verdict follows in
/// one last chunk with an empty delta, before `[DONE]`.
async fn passed_stream(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    conversation: Conversation,
    started: Instant,
) -> Response {
    let upstream = match guard.chatbot.send(&conversation.request, true).await {
        Ok(reply) => Upstream::new(reply),
        Err(error) => {
            record::<()>(&state, ENDPOINT, started, &Err(error.clone()));
            return error.into_response();
        }
    };
    event_stream(Vec::new(), move |events| async move {
        let outcome = pass(&state, &guard, &conversation, upstream, &events).await;
        let recorded = match &outcome {
            Ok(verdict) => Ok(((), verdict.finding().to_string())),
            Err(Failure::Gone) => return,
            Err(Failure::Stream(reason)) => Err(ApiError::bad_gateway(reason.clone())),
            Err(Failure::Check(error)) => Err(error.clone()),
        };
        record(&state, ENDPOINT, started, &recorded);
        if let Err(failure) = outcome {
            let _ = events.send(error_event(&failure.message())).await;
        }
    })
}

/// Why a passed stream ended early.
pub(super) enum Failure {
    /// The client went away.
    Gone,
    /// The chatbot's stream broke off or carried an error.
    Stream(String),
    /// The reply could not be checked.
    Check(ApiError),
}

impl Failure {
    pub(super) fn message(&self) -> String {
        match self {
            Failure::Gone => "the client went away".into(),
            Failure::Stream(reason) => reason.clone(),
            Failure::Check(error) => error.body["error"]
                .as_str()
                .unwrap_or("the reply could not be checked")
                .to_string(),
        }
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
        let next = events
            .unless_gone(upstream.next())
            .await
            .map_err(|_| Failure::Gone)?;
        let Some(event) = next.map_err(Failure::Stream)? else {
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
    let question = conversation.question();
    let verdict = events
        .unless_gone(check_reply(state, guard, &question, &text))
        .await
        .map_err(|_| Failure::Gone)?
        .map_err(Failure::Check)?;
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

/// An error in the stream, as OpenAI's clients read one (they raise it).
fn error_event(message: &str) -> String {
    let body = json!({"error": {"message": message, "type": "precept_guard_error", "code": null}});
    super::sse::event(None, &body.to_string())
}
