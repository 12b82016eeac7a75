//! One request through the guard, whatever API it speaks: read the body,
//! then answer a whole reply, a held stream or a passed one (`--stream`).
//! What differs between OpenAI's chat completions and Anthropic's Messages
//! API (the events of a held reply, how a chatbot's stream is passed on,
//! an error event) is the [`Api`] each implements.

use super::conversation::{Conversation, Wire};
use super::event_stream::{Events, event_stream};
use super::judge::{Verdict, check_reply, held_reply};
use super::sse::Event;
use super::upstream::Upstream;
use super::{FINDING_HEADER, Guard, StreamMode};
use crate::api_error::{ApiError, parse_body};
use crate::endpoints::record::{Answer, MODEL_HEADER, record, respond};
use crate::state::ServiceState;
use axum::http::{HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

/// What one chat API does its own way.
pub(super) trait Api: 'static {
    const WIRE: Wire;
    const ENDPOINT: &'static str;

    /// A held (checked) reply as its stream's events, `precept` on the
    /// event the API's clients read it from.
    fn held_events(reply: &Value, text: &str, precept: Value) -> Vec<String>;

    /// Passes the chatbot's stream on as it arrives, then the verdict.
    fn pass<'a>(
        state: &'a ServiceState,
        guard: &'a Guard,
        conversation: &'a Conversation,
        upstream: Upstream,
        events: &'a Events,
    ) -> impl Future<Output = Result<Verdict, Failure>> + Send + 'a;

    /// An error in the stream, as the API's clients read one (they raise it).
    fn error_event(message: &str) -> String;
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
    fn message(&self) -> String {
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

/// The chatbot's next event, unless the client went away first; None
/// once the chatbot's stream ended cleanly.
pub(super) async fn next_event(
    upstream: &mut Upstream,
    events: &Events,
) -> Result<Option<Event>, Failure> {
    events
        .unless_gone(upstream.next())
        .await
        .map_err(|_| Failure::Gone)?
        .map_err(Failure::Stream)
}

/// The text a passed stream carried, checked as the answer to the
/// conversation's question (unless the client went away first).
pub(super) async fn check_passed(
    state: &ServiceState,
    guard: &Guard,
    conversation: &Conversation,
    text: &str,
    events: &Events,
) -> Result<Verdict, Failure> {
    let question = conversation.question();
    events
        .unless_gone(check_reply(state, guard, &question, text))
        .await
        .map_err(|_| Failure::Gone)?
        .map_err(Failure::Check)
}

/// Answers one request in API `A`.
pub(super) async fn exchange<A: Api>(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    body: &[u8],
) -> Response {
    let started = Instant::now();
    let conversation = match parse_body(body).and_then(|v| Conversation::read(A::WIRE, v)) {
        Ok(conversation) => conversation,
        Err(error) => return respond(&state, A::ENDPOINT, started, Err(error)),
    };
    match (conversation.wants_stream(), guard.options.stream) {
        (false, _) => whole::<A>(state, guard, conversation, started).await,
        (true, StreamMode::Hold) => held_stream::<A>(state, guard, conversation, started).await,
        (true, StreamMode::Pass) => passed_stream::<A>(state, guard, conversation, started).await,
    }
}

/// The whole reply, checked (revised, blocked), with its verdict.
async fn whole<A: Api>(
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
    let mut response = respond(&state, A::ENDPOINT, started, outcome);
    if let Some(finding) = finding
        && let Ok(value) = HeaderValue::from_str(&finding)
    {
        response.headers_mut().insert(FINDING_HEADER, value);
    }
    response
}

/// The reply checked (revised, blocked) first, then streamed; the verdict
/// is in the header, sent before the first event, and on an event.
async fn held_stream<A: Api>(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    mut conversation: Conversation,
    started: Instant,
) -> Response {
    let (reply, verdict) = match held_reply(&state, &guard, &mut conversation).await {
        Ok(held) => held,
        Err(error) => {
            record::<()>(&state, A::ENDPOINT, started, &Err(error.clone()));
            return error.into_response();
        }
    };
    let finding = verdict.finding().to_string();
    record(&state, A::ENDPOINT, started, &Ok(((), finding.clone())));
    let text = conversation.reply_text(&reply).unwrap_or_default();
    let headers = vec![
        (HeaderName::from_static(FINDING_HEADER), finding),
        (
            HeaderName::from_static(MODEL_HEADER),
            verdict.model_hash.clone(),
        ),
    ];
    let out = A::held_events(&reply, &text, verdict.json());
    event_stream(headers, move |events| async move {
        for event in out {
            if events.send(event).await.is_err() {
                return;
            }
        }
    })
}

/// The chatbot's stream passed on as it arrives, the verdict after it; an
/// error on the way ends the stream with an error event.
async fn passed_stream<A: Api>(
    state: Arc<ServiceState>,
    guard: Arc<Guard>,
    conversation: Conversation,
    started: Instant,
) -> Response {
    let upstream = match guard.chatbot.send(&conversation.request, true).await {
        Ok(reply) => Upstream::new(reply),
        Err(error) => {
            record::<()>(&state, A::ENDPOINT, started, &Err(error.clone()));
            return error.into_response();
        }
    };
    event_stream(Vec::new(), move |events| async move {
        let outcome = A::pass(&state, &guard, &conversation, upstream, &events).await;
        let recorded = match &outcome {
            Ok(verdict) => Ok(((), verdict.finding().to_string())),
            Err(Failure::Gone) => return,
            Err(Failure::Stream(reason)) => Err(ApiError::bad_gateway(reason.clone())),
            Err(Failure::Check(error)) => Err(error.clone()),
        };
        record(&state, A::ENDPOINT, started, &recorded);
        if let Err(failure) = outcome {
            let _ = events.send(A::error_event(&failure.message())).await;
        }
    })
}
