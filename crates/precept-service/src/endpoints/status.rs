//! `GET /healthz`, `GET /readyz`, `GET /v1/model`, `GET /metrics` and
//! `POST /v1/reload`.

use crate::api_error::ApiError;
use crate::reload::reload;
use crate::state::ServiceState;
use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::Arc;

/// Alive: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "status",
    responses((status = 200, description = "The process answers (no token needed)", content_type = "application/json")))]
pub async fn healthz() -> Json<Value> {
    Json(json!({ "alive": true }))
}

/// Ready once a model is loaded into warm workers. With an older model
/// serving after a failed reload it stays ready and says why the reload
/// failed; with no model at all it is not ready (503) and says why.
#[utoipa::path(get, path = "/readyz", tag = "status",
    responses((status = 200, description = "A model is loaded into warm workers: its hash, the workers, a failed reload's reason", content_type = "application/json"),
        (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 503, description = "No model is loaded: why")))]
pub async fn readyz(State(state): State<Arc<ServiceState>>) -> Response {
    match state.serving() {
        Ok(model) => Json(json!({
            "ready": true,
            "model_hash": model.hash,
            "workers": model.scheduler.len(),
            "reload_error": state.load_error(),
        }))
        .into_response(),
        Err(reason) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({ "ready": false, "reason": reason.to_string() })),
        )
            .into_response(),
    }
}

/// The model being served: title, content hash, version and sizes.
#[utoipa::path(get, path = "/v1/model", tag = "status",
    responses((status = 200, description = "The model being served: title, hash, version and sizes", content_type = "application/json"),
        (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 503, description = "No model is being served")))]
pub async fn model(State(state): State<Arc<ServiceState>>) -> Result<Json<Value>, ApiError> {
    let model = state.serving().map_err(ApiError::unavailable)?;
    let policy = &model.project.model;
    Ok(Json(json!({
        "title": policy.title,
        "hash": model.hash,
        "version": policy.schema_version,
        "precept_version": env!("CARGO_PKG_VERSION"),
        "types": policy.types.len(),
        "variables": policy.variables.len(),
        "rules": policy.rules.len(),
        "workers": model.scheduler.len(),
    })))
}

#[utoipa::path(get, path = "/metrics", tag = "status",
    responses((status = 200, description = "Prometheus metrics", content_type = "text/plain"), (status = 401, description = "A bearer token is required (`--token-env`)")))]
pub async fn metrics(State(state): State<Arc<ServiceState>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}

/// Loads the project again and swaps it in; a model that fails to load
/// leaves the old one serving and answers 422 with the reason.
#[utoipa::path(post, path = "/v1/reload", tag = "status",
    responses((status = 200, description = "The project was loaded again and swapped in", content_type = "application/json"),
        (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 422, description = "The project does not load; the old model keeps serving")))]
pub async fn reload_now(State(state): State<Arc<ServiceState>>) -> Result<Json<Value>, ApiError> {
    let (done, result) = tokio::sync::oneshot::channel();
    let worker_state = Arc::clone(&state);
    std::thread::Builder::new()
        .name("precept-reload".into())
        .spawn(move || {
            let _ = done.send(reload(&worker_state, "requested"));
        })
        .map_err(|e| ApiError::unavailable(format!("cannot start the reload: {e}")))?;
    match result.await {
        Ok(Ok(hash)) => Ok(Json(json!({ "reloaded": true, "model_hash": hash }))),
        Ok(Err(reason)) => Err(ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            body: json!({
                "error": reason.to_string(),
                "reloaded": false,
                "serving": state.current().map(|m| m.hash.clone()),
            }),
        }),
        Err(_) => Err(ApiError::internal("the reload stopped")),
    }
}
