//! Per-project settings, stored in `precept.json`.

use serde::{Deserialize, Serialize};

/// The default deadline of one solver request.
pub const DEFAULT_SOLVER_TIMEOUT_MS: u64 = 5_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    pub schema_version: u32,
    /// The source document's file name inside the project, if there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<String>,
    #[serde(default = "default_timeout")]
    pub solver_timeout_ms: u64,
}

fn default_timeout() -> u64 {
    DEFAULT_SOLVER_TIMEOUT_MS
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            schema_version: super::SCHEMA_VERSION,
            document: None,
            solver_timeout_ms: DEFAULT_SOLVER_TIMEOUT_MS,
        }
    }
}
