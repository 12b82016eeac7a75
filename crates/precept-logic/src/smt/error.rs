//! Errors from reading and checking SMT-LIB text, always with a position.

use super::span::{Position, Span};
use std::fmt;

/// Something in SMT-LIB text that Precept cannot accept: where it is, what was
/// found there and what was expected instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SmtError {
    pub span: Span,
    pub position: Position,
    pub found: String,
    pub expected: String,
}

impl SmtError {
    pub fn new(
        source: &str,
        span: Span,
        found: impl Into<String>,
        expected: impl Into<String>,
    ) -> SmtError {
        SmtError {
            span,
            position: Position::of(source, span.start),
            found: found.into(),
            expected: expected.into(),
        }
    }
}

impl fmt::Display for SmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: expected {}, found {}",
            self.position, self.expected, self.found
        )
    }
}
