//! The OpenAPI 3.1 description of every endpoint, generated from the
//! handlers' annotations and the request types (`GET /openapi.json`).

use axum::Json;
use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Precept service",
        description = "A vetted policy model put to work: questions verified by the solver, \
                       answers checked, and a guard in front of a chatbot."
    ),
    paths(
        crate::endpoints::status::healthz,
        crate::endpoints::status::readyz,
        crate::endpoints::status::metrics,
        crate::endpoints::status::model,
        crate::endpoints::status::reload_now,
        crate::endpoints::verify::verify,
        crate::endpoints::check_answer::check_answer,
        crate::endpoints::explain::explain,
        crate::guard::openai::chat_completions,
        crate::guard::anthropic::messages,
        description,
    ),
    components(schemas(crate::guard::verdict::VerdictField))
)]
pub struct ApiDoc;

/// The description, as `GET /openapi.json` serves it.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// `GET /openapi.json`.
#[utoipa::path(get, path = "/openapi.json", tag = "status",
    responses((status = 200, description = "This description (no token needed)", content_type = "application/json")))]
pub async fn description() -> Json<utoipa::openapi::OpenApi> {
    Json(document())
}
