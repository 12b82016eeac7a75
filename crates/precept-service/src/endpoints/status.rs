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
pub async fn healthz() -> Json<Value> {
    Json(json!({ "alive": true }))
}

/// Ready once a model is loaded into warm workers. With an older model
/// serving after a failed reload it stays ready and says why the reload
/// failed; with no model at all it is not ready (503) and says why.
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

pub async fn metrics(State(state): State<Arc<ServiceState>>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}

/// Loads the project again and swaps it in; a model that fails to load
/// leaves the old one serving and answers 422 with the reason.
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
