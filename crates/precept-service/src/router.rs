//! The routes, the token check and the body limit.

use super::auth::require_token;
use super::endpoints::{check_answer, explain, status, verify};
use super::guard::Guard;
use super::guard::anthropic::messages;
use super::guard::openai::chat_completions;
use super::openapi;
use super::options::MAX_BODY_BYTES;
use super::state::ServiceState;
use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::State;
use axum::http::Method;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::routing::{MethodRouter, get, post};
use precept_engine::llm::config::Protocol;
use serde_json::json;
use std::sync::Arc;

/// Every route the service serves: its method, path and handler; the
/// guard's in the API of its chatbot's profile.
pub fn routes(guard: Option<Arc<Guard>>) -> Vec<(Method, &'static str, Handler)> {
    let mut routes: Vec<(Method, &'static str, Handler)> = vec![
        (Method::GET, "/healthz", get(status::healthz)),
        (Method::GET, "/readyz", get(status::readyz)),
        (Method::GET, "/metrics", get(status::metrics)),
        (Method::GET, "/openapi.json", get(openapi::description)),
        (Method::GET, "/v1/model", get(status::model)),
        (Method::POST, "/v1/reload", post(status::reload_now)),
        (Method::POST, "/v1/verify", post(verify::verify)),
        (
            Method::POST,
            "/v1/check-answer",
            post(check_answer::check_answer),
        ),
        (Method::POST, "/v1/explain", post(explain::explain)),
    ];
    if let Some(guard) = guard {
        routes.push(match guard.chatbot.protocol() {
            Protocol::Anthropic => (
                Method::POST,
                "/v1/messages",
                post(
                    move |State(state): State<Arc<ServiceState>>, body: Bytes| async move {
                        messages(state, guard, &body).await
                    },
                ),
            ),
            Protocol::OpenAi => (
                Method::POST,
                "/v1/chat/completions",
                post(
                    move |State(state): State<Arc<ServiceState>>, body: Bytes| async move {
                        chat_completions(state, guard, &body).await
                    },
                ),
            ),
        });
    }
    routes
}

/// A route's handler.
pub type Handler = MethodRouter<Arc<ServiceState>>;

/// The service's routes, with the guard proxy's when there is a guard.
pub fn router(state: Arc<ServiceState>, guard: Option<Arc<Guard>>) -> Router {
    let routes = routes(guard)
        .into_iter()
        .fold(Router::new(), |router, (_, path, handler)| {
            router.route(path, handler)
        });
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
