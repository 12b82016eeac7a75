//! The routes, the token check and the body limit.

use super::auth::require_token;
use super::endpoints::{check_answer, explain, status, verify};
use super::options::MAX_BODY_BYTES;
use super::state::ServiceState;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::middleware::from_fn_with_state;
use axum::routing::{MethodRouter, get, post};
use serde_json::json;
use std::sync::Arc;

/// The service's routes; `extra` adds more (the guard proxy's).
pub fn router(
    state: Arc<ServiceState>,
    extra: Vec<(&'static str, MethodRouter<Arc<ServiceState>>)>,
) -> Router {
    let mut routes = Router::new()
        .route("/healthz", get(status::healthz))
        .route("/readyz", get(status::readyz))
        .route("/metrics", get(status::metrics))
        .route("/v1/model", get(status::model))
        .route("/v1/reload", post(status::reload_now))
        .route("/v1/verify", post(verify::verify))
        .route("/v1/check-answer", post(check_answer::check_answer))
        .route("/v1/explain", post(explain::explain));
    for (path, route) in extra {
        routes = routes.route(path, route);
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
