//! `POST /v1/explain {"premise", "claim"?}`: the JSON of `precept explain
//! --json` (forced and open values, the chain, the questions to ask).

use super::record::{Answer, respond};
use crate::api_error::{ApiError, parse_body};
use crate::on_worker::on_worker;
use crate::state::ServiceState;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use precept_engine::explain::describe::describe;
use precept_engine::explain::inputs::inputs;
use precept_engine::explain::job::{ExplainRequest, run};
use precept_engine::explain::json::explanation_json;
use precept_engine::explain::relevance::Budget;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Instant;

/// Facts (and a claim) to explain: what they force and why.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExplainBody {
    premise: String,
    #[serde(default)]
    claim: Option<String>,
}

#[utoipa::path(post, path = "/v1/explain", tag = "questions", request_body = ExplainBody,
    responses((status = 200, description = "Forced and open values with their chains, as `precept explain --json` prints it", content_type = "application/json"),
        (status = 400, description = "The body is not what the endpoint documents, or a formula does not check: the error names the field and the position"), (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 429, description = "Every solver worker is busy and the queue is full"), (status = 503, description = "No model is being served")))]
pub async fn explain(State(state): State<Arc<ServiceState>>, body: Bytes) -> Response {
    let started = Instant::now();
    let outcome = answer(&state, &body).await;
    respond(&state, "/v1/explain", started, outcome)
}

async fn answer(state: &ServiceState, body: &[u8]) -> Result<Answer, ApiError> {
    let request: ExplainBody = parse_body(body)?;
    let (outcome, model_hash) = on_worker(state, move |model, worker, _| {
        let compiled = &model.compiled;
        let (_, premise) = compiled
            .check_formula(&request.premise)
            .map_err(|e| ApiError::bad_expression("premise", &e))?;
        let claim = match &request.claim {
            Some(text) => Some(
                compiled
                    .check_formula(text)
                    .map_err(|e| ApiError::bad_expression("claim", &e))?
                    .1,
            ),
            None => None,
        };
        let job = ExplainRequest {
            premise,
            claim,
            inputs: inputs(compiled),
            budget: Budget::default(),
        };
        let mut explanation =
            run(worker, job).map_err(|e| ApiError::internal(format!("explain: {e}")))?;
        let project = &model.project;
        describe(
            &mut explanation,
            compiled,
            &project.model,
            project.document.as_deref(),
        );
        let finding = explanation
            .finding
            .as_ref()
            .map_or("EXPLAINED".to_string(), |f| f.kind.name().to_string());
        Ok::<_, ApiError>((explanation_json(&explanation), finding))
    })
    .await?;
    let (json, finding) = outcome?;
    Ok(Answer {
        json,
        finding,
        model_hash,
    })
}
