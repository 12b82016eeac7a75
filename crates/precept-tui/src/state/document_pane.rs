//! The rules screen's document pane state: its filter and the spans the
//! expert marked as not policy.

use std::collections::BTreeSet;

/// The document pane's own state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DocumentPane {
    /// List only the spans no rule covers.
    pub uncovered_only: bool,
    /// The texts of the spans the expert marked as not policy (saved in
    /// `precept.json` as `not_policy`).
    pub not_policy: BTreeSet<String>,
}

impl DocumentPane {
    pub fn new(not_policy: &[String]) -> DocumentPane {
        DocumentPane {
            uncovered_only: false,
            not_policy: not_policy.iter().cloned().collect(),
        }
    }
}
