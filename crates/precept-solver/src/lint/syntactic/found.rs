//! What a syntactic check found (a diagnostic with the name it sorts by),
//! and how messages quote expressions and list names.

use crate::lint::Diagnostic;
use crate::smt::{Expr, Vocabulary};

/// Longest expression quoted in full inside a message.
pub(super) const QUOTE_LIMIT: usize = 90;
/// A diagnostic with the name it is sorted by.
pub(super) struct Found {
    pub(super) subject: String,
    pub(super) diagnostic: Diagnostic,
}

impl Found {
    pub(super) fn new(subject: &str, diagnostic: Diagnostic) -> Found {
        Found {
            subject: subject.to_string(),
            diagnostic,
        }
    }
}

// ---------------------------------------------------------------- usage

/// The declared variables an expression mentions, in order of appearance.
pub(super) fn declared_symbols(expr: &Expr, vocabulary: &Vocabulary) -> Vec<String> {
    expr.symbols()
        .into_iter()
        .filter(|s| vocabulary.variable_sort(s).is_some())
        .map(str::to_string)
        .collect()
}

pub(super) fn unique<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for name in names {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// `a`, `a and b`, `a, b and c`.
pub(super) fn list(items: &[impl AsRef<str>]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(|s| s.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// `, "description"` when there is one.
pub(super) fn described(description: &str) -> String {
    let description = description.trim();
    if description.is_empty() {
        String::new()
    } else {
        format!(", \"{description}\"")
    }
}

/// ` ("description")` when there is one.
pub(super) fn in_parentheses(description: &str) -> String {
    let description = description.trim();
    if description.is_empty() {
        String::new()
    } else {
        format!(" (\"{description}\")")
    }
}

/// An expression as printed, cut short when long.
pub(super) fn quote(expr: &Expr) -> String {
    let text = expr.to_string();
    if text.chars().count() <= QUOTE_LIMIT {
        text
    } else {
        format!("{}...", text.chars().take(QUOTE_LIMIT).collect::<String>())
    }
}
