//! Error answers: a status and a JSON body that says what was wrong, where
//! (line and column, for bad JSON and for expressions that do not parse)
//! and what was expected.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use precept_engine::smt::SmtError;
use serde_json::{Value, json};

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: Value,
}

impl ApiError {
    fn new(status: StatusCode, body: Value) -> ApiError {
        ApiError { status, body }
    }

    /// A body that is not the JSON the endpoint expects.
    pub fn bad_json(error: &serde_json::Error) -> ApiError {
        let expected = match error.classify() {
            serde_json::error::Category::Data => "the fields the endpoint documents",
            _ => "a JSON object",
        };
        ApiError::new(
            StatusCode::BAD_REQUEST,
            json!({
                "error": format!("malformed request body: {error}"),
                "line": error.line(),
                "column": error.column(),
                "expected": expected,
            }),
        )
    }

    /// An expression of field `field` that does not parse or type-check.
    pub fn bad_expression(field: &str, error: &SmtError) -> ApiError {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            json!({
                "error": format!("{field}: {error}"),
                "field": field,
                "line": error.position.line,
                "column": error.position.column,
                "expected": error.expected,
                "found": error.found,
            }),
        )
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, json!({ "error": message.into() }))
    }

    /// Every worker is busy and the queue is full.
    pub fn busy() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            json!({ "error": "every solver worker is busy and the queue is full; retry shortly" }),
        )
    }

    /// No model is being served, or a needed part (an LLM) is not configured.
    pub fn unavailable(reason: impl std::fmt::Display) -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            json!({ "error": reason.to_string() }),
        )
    }

    pub fn bad_gateway(reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_GATEWAY, json!({ "error": reason.into() }))
    }

    pub fn internal(reason: impl Into<String>) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            json!({ "error": reason.into() }),
        )
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            json!({ "error": "a valid Authorization: Bearer token is required" }),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status;
        let mut response = (status, axum::Json(self.body)).into_response();
        let headers = response.headers_mut();
        if status == StatusCode::TOO_MANY_REQUESTS || status == StatusCode::SERVICE_UNAVAILABLE {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// Reads a JSON body into `T`, or answers 400 with the position.
pub fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad_json(&e))
}
