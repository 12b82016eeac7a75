//! `POST /v1/verify {"premise", "claim", "strict"?}`: the JSON of `precept
//! verify --json`, read by default (exceptions the premise does not mention
//! are assumed absent and listed) unless `"strict": true`.
//! A worker idle when the question comes is lent to it for one side of the
//! question, and taken back as soon as another request waits for one.

use super::record::{Answer, respond};
use crate::api_error::{ApiError, parse_body};
use crate::on_worker::on_worker;
use crate::state::ServiceState;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use precept_engine::export::verify_json::verify_json;
use precept_engine::solve::{FindingKind, Reading, verify_with_lent};
use serde::Deserialize;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A question: does `claim` follow from `premise` and the policy?
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct VerifyBody {
    /// SMT-LIB over the model's vocabulary (default `true`: no facts).
    #[serde(default = "always")]
    premise: String,
    claim: String,
    /// Assume nothing (ARC's reading).
    #[serde(default)]
    strict: bool,
}

fn always() -> String {
    "true".into()
}

#[utoipa::path(post, path = "/v1/verify", tag = "questions", request_body = VerifyBody,
    responses((status = 200, description = "The finding, as `precept verify --json` prints it (`X-Precept-Model` names the model)", content_type = "application/json"),
        (status = 400, description = "The body is not what the endpoint documents, or a formula does not check: the error names the field and the position"), (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 429, description = "Every solver worker is busy and the queue is full"), (status = 503, description = "No model is being served")))]
pub async fn verify(State(state): State<Arc<ServiceState>>, body: Bytes) -> Response {
    let started = Instant::now();
    let outcome = answer(&state, &body).await;
    respond(&state, "/v1/verify", started, outcome)
}

async fn answer(state: &ServiceState, body: &[u8]) -> Result<Answer, ApiError> {
    let request: VerifyBody = parse_body(body)?;
    let (outcome, model_hash) = on_worker(state, move |model, worker, cancel| {
        let compiled = &model.compiled;
        let (_, premise) = compiled
            .check_formula(&request.premise)
            .map_err(|e| ApiError::bad_expression("premise", &e))?;
        let (_, claim) = compiled
            .check_formula(&request.claim)
            .map_err(|e| ApiError::bad_expression("claim", &e))?;
        let defaults = &model.defaults;
        let assumed = defaults.unmentioned(&premise, &claim, Reading::strict(request.strict));
        let asked = defaults.assumed_premise(&premise, &assumed);
        // An idle worker, if any, decides half of the question meanwhile.
        let (finding, split) = match model.scheduler.try_lend() {
            Some(loan) => {
                let recalled = loan.recall_flag();
                let abandoned = || cancel.is_cancelled();
                let finding = verify_with_lent(worker, loan, &abandoned, asked, claim.clone());
                (finding, Some(recalled.load(Ordering::Acquire)))
            }
            None => (worker.verify(asked, claim.clone()), None),
        };
        let finding = match assumed.is_empty() {
            true => finding,
            false => defaults.settle(worker, &premise, &claim, assumed, finding),
        };
        Ok::<_, ApiError>((
            verify_json(&finding, &compiled.glossary, None),
            finding.kind,
            finding.reason.clone(),
            split,
        ))
    })
    .await?;
    let (json, kind, reason, split) = outcome?;
    if let Some(recalled) = split {
        state.metrics.split_question(recalled);
    }
    if kind == FindingKind::TooComplex && reason.as_deref() != Some("cancelled") {
        state.metrics.solver_timeout();
    }
    Ok(Answer {
        json,
        finding: kind.name().to_string(),
        model_hash,
    })
}
