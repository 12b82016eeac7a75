//! `POST /v1/check-answer {"question", "answer", "k"?, "threshold"?,
//! "strict"?}`: the
//! JSON of `precept check-answer --json`. The translations are never cached
//! (the service does not write to the project).

use super::record::{Answer, respond};
use crate::api_error::{ApiError, parse_body};
use crate::on_worker::on_worker;
use crate::served_model::ServedModel;
use crate::state::ServiceState;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use precept_engine::answer::{
    AnswerInput, AnswerReport, AnswerVerifier, Budget, VerifyOptions, samples_of,
};
use precept_engine::llm::Cancel;
use precept_engine::llm::LlmClient;
use precept_engine::solve::SolverWorker;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Instant;

/// The translations `check-answer` asks for when the request names none.
pub const DEFAULT_K: usize = 3;

/// A question and the answer to check against the policy.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CheckBody {
    #[serde(default)]
    question: String,
    answer: String,
    #[serde(default)]
    k: Option<usize>,
    #[serde(default)]
    threshold: Option<f64>,
    /// Assume nothing (ARC's reading); by default exceptions a pair's
    /// premise does not mention are assumed absent, and listed.
    #[serde(default)]
    strict: bool,
}

#[utoipa::path(post, path = "/v1/check-answer", tag = "questions", request_body = CheckBody,
    responses((status = 200, description = "The answer's report: its translations, their findings and the verdict, as `precept check-answer --json` prints it", content_type = "application/json"),
        (status = 400, description = "The body is not what the endpoint documents, or a formula does not check: the error names the field and the position"), (status = 401, description = "A bearer token is required (`--token-env`)"), (status = 429, description = "Every solver worker is busy and the queue is full"), (status = 503, description = "No model is being served")))]
pub async fn check_answer(State(state): State<Arc<ServiceState>>, body: Bytes) -> Response {
    let started = Instant::now();
    let outcome = answer(&state, &body).await;
    respond(&state, "/v1/check-answer", started, outcome)
}

async fn answer(state: &ServiceState, body: &[u8]) -> Result<Answer, ApiError> {
    let request: CheckBody = parse_body(body)?;
    let k = request.k.unwrap_or(DEFAULT_K);
    if !(1..=16).contains(&k) {
        return Err(ApiError::bad_request(format!(
            "k: expected a number of translations from 1 to 16, found {k}"
        )));
    }
    let threshold = request.threshold.unwrap_or(1.0);
    if !(threshold > 0.0 && threshold <= 1.0) {
        return Err(ApiError::bad_request(format!(
            "threshold: expected a share of the translations above 0 and at most 1, found {threshold}"
        )));
    }
    if request.answer.trim().is_empty() {
        return Err(ApiError::bad_request(
            "answer: expected the answer (or statement) to check, found nothing",
        ));
    }
    let client = translator(state)?;
    let (report, model_hash) = on_worker(state, move |model, worker, cancel| {
        check(
            model,
            worker,
            cancel,
            client,
            &AnswerInput::new(&request.question, &request.answer),
            k,
            VerifyOptions {
                threshold,
                budget: Budget::default(),
                strict: request.strict,
            },
        )
    })
    .await?;
    let report = report?;
    let finding = report.finding.name().to_string();
    let json = serde_json::to_value(&report).map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(Answer {
        json,
        finding,
        model_hash,
    })
}

/// The translator client, or 503 saying why there is none.
pub fn translator(state: &ServiceState) -> Result<Arc<LlmClient>, ApiError> {
    state
        .translator
        .clone()
        .map_err(|reason| ApiError::unavailable(format!("checking answers needs an LLM: {reason}")))
}

/// Checks one answer on a leased worker (also the guard proxy's check,
/// which reads it by default).
pub fn check(
    model: &ServedModel,
    worker: &SolverWorker,
    cancel: &Cancel,
    client: Arc<LlmClient>,
    input: &AnswerInput,
    k: usize,
    options: VerifyOptions,
) -> Result<AnswerReport, ApiError> {
    let verifier = AnswerVerifier::new(
        &model.project.model,
        &model.compiled,
        samples_of(client, k),
        options,
    );
    verifier
        .verify(worker, input, &mut |_| {}, cancel)
        .map_err(|e| ApiError::bad_gateway(format!("the answer could not be checked: {e}")))
}
