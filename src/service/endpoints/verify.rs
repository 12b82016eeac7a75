//! `POST /v1/verify {"premise", "claim"}`: the JSON of `precept verify --json`.

use super::record::record;
use crate::core::export::verify_json::verify_json;
use crate::core::solve::FindingKind;
use crate::service::api_error::{ApiError, parse_body};
use crate::service::on_worker::on_worker;
use crate::service::state::ServiceState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;
use std::sync::Arc;
use std::time::Instant;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerifyBody {
    #[serde(default = "always")]
    premise: String,
    claim: String,
}

fn always() -> String {
    "true".into()
}

pub async fn verify(
    State(state): State<Arc<ServiceState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let started = Instant::now();
    let outcome = answer(&state, &body).await;
    record(&state, "/v1/verify", started, &outcome);
    outcome.map(|(json, _)| Json(json))
}

async fn answer(state: &ServiceState, body: &[u8]) -> Result<(Value, String), ApiError> {
    let request: VerifyBody = parse_body(body)?;
    let (json, kind, reason) = on_worker(state, move |model, worker, _| {
        let compiled = &model.compiled;
        let (_, premise) = compiled
            .check_formula(&request.premise)
            .map_err(|e| ApiError::bad_expression("premise", &e))?;
        let (_, claim) = compiled
            .check_formula(&request.claim)
            .map_err(|e| ApiError::bad_expression("claim", &e))?;
        let finding = worker.verify(premise, claim);
        Ok::<_, ApiError>((
            verify_json(&finding, &compiled.glossary, None),
            finding.kind,
            finding.reason.clone(),
        ))
    })
    .await??;
    if kind == FindingKind::TooComplex && reason.as_deref() != Some("cancelled") {
        state.metrics.solver_timeout();
    }
    Ok((json, kind.name().to_string()))
}
