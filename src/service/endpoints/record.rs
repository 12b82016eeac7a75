//! Counting and logging an answered request. Logs name the endpoint, the
//! finding or status and the time taken; never a header (so never a token).

use crate::service::api_error::ApiError;
use crate::service::state::ServiceState;
use std::time::Instant;

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
