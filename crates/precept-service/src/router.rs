//! The routes, the token check and the body limit.

use super::auth::require_token;
use super::endpoints::{check_answer, explain, status, verify};
use super::guard::Guard;
use super::guard::anthropic::messages;
use super::guard::openai::chat_completions;
use super::options::MAX_BODY_BYTES;
use super::state::ServiceState;
use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::routing::{get, post};
use precept_engine::llm::config::Protocol;
use serde_json::json;
use std::sync::Arc;

/// The service's routes, with the guard proxy's when there is a guard.
pub fn router(state: Arc<ServiceState>, guard: Option<Arc<Guard>>) -> Router {
    let mut routes = Router::new()
        .route("/healthz", get(status::healthz))
        .route("/readyz", get(status::readyz))
        .route("/metrics", get(status::metrics))
        .route("/v1/model", get(status::model))
        .route("/v1/reload", post(status::reload_now))
        .route("/v1/verify", post(verify::verify))
        .route("/v1/check-answer", post(check_answer::check_answer))
        .route("/v1/explain", post(explain::explain));
    // The guard speaks the API of its chatbot's profile.
    if let Some(guard) = guard {
        routes = match guard.chatbot.protocol() {
            Protocol::Anthropic => routes.route(
                "/v1/messages",
                post(
                    move |State(state): State<Arc<ServiceState>>, body: Bytes| async move {
                        messages(state, guard, &body).await
                    },
                ),
            ),
            Protocol::OpenAi => routes.route(
                "/v1/chat/completions",
                post(
                    move |State(state): State<Arc<ServiceState>>, body: Bytes| async move {
                        chat_completions(state, guard, &body).await
                    },
                ),
            ),
        };
    }
    routes
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                axum::Json(json!({"error": "no such endpoint"})),
            )
        })
        .layer(from_fn_with_state(Arc::clone(&state), require_token))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(state)
}
