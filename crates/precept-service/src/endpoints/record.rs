//! Counting and logging an answered request. Logs name the endpoint, the
//! finding or status and the time taken; never a header (so never a token).

use crate::api_error::ApiError;
use crate::state::ServiceState;
use axum::Json;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::time::Instant;

/// The header that names the hash of the model an answer came from.
pub const MODEL_HEADER: &str = "x-precept-model";

/// An answer: its JSON, its finding (for the metrics and the log) and the
/// hash of the model it came from.
pub struct Answer {
    pub json: Value,
    pub finding: String,
    pub model_hash: String,
}

/// Records the answer (or error) and turns it into the response.
pub fn respond(
    state: &ServiceState,
    endpoint: &str,
    started: Instant,
    outcome: Result<Answer, ApiError>,
) -> Response {
    let recorded = outcome
        .as_ref()
        .map(|answer| ((), answer.finding.clone()))
        .map_err(|e| ApiError {
            status: e.status,
            body: e.body.clone(),
        });
    record(state, endpoint, started, &recorded);
    match outcome {
        Ok(answer) => ([(MODEL_HEADER, answer.model_hash)], Json(answer.json)).into_response(),
        Err(error) => error.into_response(),
    }
}

/// Records the outcome of a request to `endpoint` that began at `started`:
/// `finding` for an answer, the status code for an error.
pub fn record<T>(
    state: &ServiceState,
    endpoint: &str,
    started: Instant,
    outcome: &Result<(T, String), ApiError>,
) {
    let elapsed = started.elapsed();
    let label = match outcome {
        Ok((_, finding)) => finding.clone(),
        Err(error) => error.status.as_u16().to_string(),
    };
    state.metrics.request(endpoint, &label, elapsed);
    match outcome {
        Ok(_) => tracing::info!(
            endpoint,
            outcome = %label,
            elapsed_ms = elapsed.as_secs_f64() * 1000.0,
            "answered"
        ),
        Err(error) => tracing::warn!(
            endpoint,
            status = error.status.as_u16(),
            error = %error.body["error"].as_str().unwrap_or(""),
            elapsed_ms = elapsed.as_secs_f64() * 1000.0,
            "refused"
        ),
    }
}
