//! `formalization.json`: how a project's model was formalized. It keeps each
//! span with its outcome (the unit, or why it failed), the clusters of unit
//! variables behind each model variable, and each rule's provenance (rule →
//! span → the unit's rule), so the expert can audit, merge and split later.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::compose::unify::{ClusterRecord, Composition, MergeProposal, RuleOrigin};
use crate::formalize::span_job::SpanOutcome;
use crate::formalize::span_task::SpanTask;
use crate::formalize::vocabulary::{SharedVocabulary, VocabularyMode};
use crate::llm::prompts::FORMALIZE_SPAN;
use crate::model::SCHEMA_VERSION;
use crate::model::project::{ProjectError, read_json, write_json};

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
    /// Merges the similarity suggested but the names did not make certain:
    /// left to the expert (`precept consolidate`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merge_proposals: Vec<MergeProposal>,
    /// Whether the spans were formalized against a shared vocabulary (a
    /// record from before the vocabulary pass reads as span-only).
    #[serde(default = "span_only")]
    pub vocabulary_mode: VocabularyMode,
    /// The shared vocabulary the spans were formalized against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vocabulary: Option<SharedVocabulary>,
    /// The definitions the definition pass applied after composition
    /// (`precept formalize`), with the rules each replaced and added, for
    /// review.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub definitions: Vec<DefinitionRecord>,
}

/// One definition applied by the definition pass: what it replaced and
/// what it added, as (rule id, SMT-LIB).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DefinitionRecord {
    pub id: String,
    pub variable: String,
    /// `shapes` or `llm`.
    pub origin: String,
    pub replaced: Vec<(String, String)>,
    pub added: Vec<(String, String)>,
    /// How the model with it relates to the model without it, in words.
    pub meaning: String,
}

fn span_only() -> VocabularyMode {
    VocabularyMode::SpanOnly
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpanRecord {
    #[serde(flatten)]
    pub task: SpanTask,
    pub outcome: SpanOutcome,
}

/// What a run was made with, for its record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunInfo<'a> {
    pub document: &'a str,
    pub llm_profile: &'a str,
    pub llm_model: &'a str,
    pub embedder: &'a str,
    pub threshold: f32,
}

impl FormalizationRecord {
    /// The record of a run: each task with its outcome, and the clusters,
    /// provenance and notes of its composition.
    pub fn new(
        info: RunInfo,
        tasks: Vec<SpanTask>,
        outcomes: Vec<SpanOutcome>,
        composition: Composition,
    ) -> FormalizationRecord {
        FormalizationRecord {
            schema_version: SCHEMA_VERSION,
            document: info.document.to_string(),
            llm_profile: info.llm_profile.to_string(),
            llm_model: info.llm_model.to_string(),
            prompt: FORMALIZE_SPAN.name.into(),
            embedder: info.embedder.to_string(),
            threshold: info.threshold,
            spans: tasks
                .into_iter()
                .zip(outcomes)
                .map(|(task, outcome)| SpanRecord { task, outcome })
                .collect(),
            clusters: composition.clusters,
            rules: composition.origins,
            notes: composition.notes,
            merge_proposals: composition.merge_proposals,
            vocabulary_mode: VocabularyMode::SpanOnly,
            vocabulary: None,
            definitions: Vec::new(),
        }
    }

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

    /// The sentences the formalization quoted for rule `rule` (one per
    /// source it was formalized from; empty quotes left out).
    pub fn rule_quotes(&self, rule: &str) -> Vec<&str> {
        let Some(origin) = self.rules.iter().find(|o| o.rule == rule) else {
            return Vec::new();
        };
        origin
            .sources
            .iter()
            .filter_map(|source| {
                let span = self.spans.iter().find(|s| s.task.id == source.span)?;
                let quote = &span
                    .outcome
                    .unit()?
                    .rules
                    .get(source.unit_rule)?
                    .source_text;
                (!quote.trim().is_empty()).then_some(quote.as_str())
            })
            .collect()
    }

    /// How many spans failed (rejected, errored or cancelled).
    pub fn failed_spans(&self) -> usize {
        self.spans
            .iter()
            .filter(|s| s.outcome.unit().is_none())
            .count()
    }
}
