//! `POST /v1/verify {"premise", "claim"}`: the JSON of `precept verify --json`.

use super::record::{Answer, respond};
use crate::core::export::verify_json::verify_json;
use crate::core::solve::FindingKind;
use crate::service::api_error::{ApiError, parse_body};
use crate::service::on_worker::on_worker;
use crate::service::state::ServiceState;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
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

pub async fn verify(State(state): State<Arc<ServiceState>>, body: Bytes) -> Response {
    let started = Instant::now();
    let outcome = answer(&state, &body).await;
    respond(&state, "/v1/verify", started, outcome)
}

async fn answer(state: &ServiceState, body: &[u8]) -> Result<Answer, ApiError> {
    let request: VerifyBody = parse_body(body)?;
    let (outcome, model_hash) = on_worker(state, move |model, worker, _| {
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
    .await?;
    let (json, kind, reason) = outcome?;
    if kind == FindingKind::TooComplex && reason.as_deref() != Some("cancelled") {
        state.metrics.solver_timeout();
    }
    Ok(Answer {
        json,
        finding: kind.name().to_string(),
        model_hash,
    })
}
