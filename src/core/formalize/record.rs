//! `formalization.json`: how a project's model was formalized. It keeps each
//! span with its outcome (the unit, or why it failed), the clusters of unit
//! variables behind each model variable, and each rule's provenance (rule →
//! span → the unit's rule), so the expert can audit, merge and split later.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::compose::{ClusterRecord, RuleOrigin};
use super::span_job::{SpanOutcome, SpanTask};
use crate::core::model::project::{ProjectError, read_json, write_json};

pub const RECORD_FILE: &str = "formalization.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormalizationRecord {
    pub schema_version: u32,
    /// The document's file name inside the project.
    pub document: String,
    /// The LLM profile and model (never a key).
    pub llm_profile: String,
    pub llm_model: String,
    /// The prompt file used, with its version.
    pub prompt: String,
    pub embedder: String,
    pub threshold: f32,
    pub spans: Vec<SpanRecord>,
    pub clusters: Vec<ClusterRecord>,
    pub rules: Vec<RuleOrigin>,
    #[serde(default)]
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpanRecord {
    #[serde(flatten)]
    pub task: SpanTask,
    pub outcome: SpanOutcome,
}

impl FormalizationRecord {
    pub fn load(dir: &Path) -> Result<Option<FormalizationRecord>, ProjectError> {
        let path = dir.join(RECORD_FILE);
        if !path.exists() {
            return Ok(None);
        }
        read_json(&path).map(Some)
    }

    pub fn save(&self, dir: &Path) -> Result<(), ProjectError> {
        write_json(&dir.join(RECORD_FILE), self)
    }

    /// How many spans failed (rejected, errored or cancelled).
    pub fn failed_spans(&self) -> usize {
        self.spans
            .iter()
            .filter(|s| s.outcome.unit().is_none())
            .count()
    }
}
