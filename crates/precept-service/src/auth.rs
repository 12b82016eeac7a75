//! The bearer token: with `--token-env`, every request but `/healthz` and
//! `/openapi.json` must
//! carry `Authorization: Bearer <token>`. The comparison takes the same
//! time wherever the first difference is, and the token is never logged
//! nor echoed.

use super::api_error::ApiError;
use super::state::ServiceState;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Whether `given` equals `expected`, in time that depends only on the
/// length of `expected`.
pub fn same_token(given: &[u8], expected: &[u8]) -> bool {
    let mut difference = given.len() ^ expected.len();
    for (index, byte) in expected.iter().enumerate() {
        let other = given.get(index).copied().unwrap_or(!byte);
        difference |= usize::from(other ^ byte);
    }
    difference == 0
}

pub async fn require_token(
    State(state): State<Arc<ServiceState>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(expected) = &state.options.token else {
        return next.run(request).await;
    };
    if matches!(request.uri().path(), "/healthz" | "/openapi.json") {
        return next.run(request).await;
    }
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.as_bytes().strip_prefix(b"Bearer "))
        .unwrap_or_default();
    if same_token(given, expected.as_bytes()) {
        next.run(request).await
    } else {
        state.metrics.rejected("unauthorized");
        tracing::warn!(
            path = request.uri().path(),
            "request without a valid token refused"
        );
        ApiError::unauthorized().into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::same_token;

    #[test]
    fn tokens_match_only_when_equal() {
        assert!(same_token(b"s3cret", b"s3cret"));
        assert!(!same_token(b"s3cre", b"s3cret"));
        assert!(!same_token(b"s3cretX", b"s3cret"));
        assert!(!same_token(b"S3cret", b"s3cret"));
        assert!(!same_token(b"", b"s3cret"));
    }
}
