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
    /// Redundant translations per answer check in the workbench and
    /// `precept test` (ARC's k), 1 to 16.
    #[serde(
        default = "default_answer_translations",
        skip_serializing_if = "is_default_translations"
    )]
    pub answer_translations: usize,
    /// The confidence a translated pair needs, as a share of k (1.0 is k/k),
    /// more than 0 and at most 1.
    #[serde(
        default = "default_answer_threshold",
        skip_serializing_if = "is_default_threshold"
    )]
    pub answer_threshold: f64,
    /// Spans of the document that are not policy (headers, sources,
    /// appendices), by their text as the workbench shows it: left out of the
    /// count of spans no rule covers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_policy: Vec<String>,
    /// How many solver workers long jobs (lint, test runs, the mutation
    /// score) share out over; absent: one per core.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_jobs: Option<usize>,
    /// How the document was formalized (`precept formalize` records its
    /// options), so the workbench's formalize does the same; absent: the
    /// defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formalize: Option<FormalizeOptions>,
    /// Wall-clock budgets of the whole-model analyses, in seconds, used
    /// when the command is given no `--budget-s`; absent: no budget.
    #[serde(default, skip_serializing_if = "Budgets::is_empty")]
    pub budget_s: Budgets,
}

/// The default budget of each whole-model analysis, in seconds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budgets {
    /// `precept lint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lint: Option<f64>,
    /// `precept gen-tests`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gen_tests: Option<f64>,
    /// `precept coverage` (its mutation score).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<f64>,
    /// `precept report` (the figures it computes: lint, mutation score).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<f64>,
}

impl Budgets {
    pub fn is_empty(&self) -> bool {
        self.lint.is_none()
            && self.gen_tests.is_none()
            && self.coverage.is_none()
            && self.report.is_none()
    }
}

/// What embeds the variables of a formalization for clustering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EmbedderKind {
    /// Words and character n-grams with tf-idf (offline).
    #[default]
    Lexical,
    /// The OpenAI-compatible /v1/embeddings endpoint of the LLM profile.
    Openai,
    /// all-MiniLM-L6-v2 on this machine (a build with the `minilm` feature).
    Minilm,
}

/// How a document is formalized: the options of `precept formalize`, kept
/// in `precept.json` for the workbench's formalize.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormalizeOptions {
    /// Spans longer than this many characters are cut at sentence ends.
    pub span_budget: usize,
    /// Rounds per span, the first included, before a span fails.
    pub max_rounds: u32,
    pub embedder: EmbedderKind,
    /// The embedding model, with the `openai` embedder.
    pub embedding_model: String,
    /// Cosine similarity at which variables of different spans unify
    /// (absent: the embedder's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f32>,
    /// Each span on its own, without the vocabulary pass.
    #[serde(default)]
    pub span_only: bool,
    /// Join each decision into one definition after composition.
    pub definitions: bool,
}

/// The span budget of a formalization, in characters.
pub const DEFAULT_SPAN_BUDGET: usize = 3_000;

impl Default for FormalizeOptions {
    fn default() -> Self {
        FormalizeOptions {
            span_budget: DEFAULT_SPAN_BUDGET,
            max_rounds: 3,
            embedder: EmbedderKind::Lexical,
            embedding_model: "text-embedding-3-small".into(),
            threshold: None,
            span_only: false,
            definitions: true,
        }
    }
}

/// ARC's default number of redundant translations.
pub const DEFAULT_ANSWER_TRANSLATIONS: usize = 3;

fn default_answer_translations() -> usize {
    DEFAULT_ANSWER_TRANSLATIONS
}

fn is_default_translations(k: &usize) -> bool {
    *k == DEFAULT_ANSWER_TRANSLATIONS
}

fn default_answer_threshold() -> f64 {
    1.0
}

fn is_default_threshold(threshold: &f64) -> bool {
    *threshold == 1.0
}

impl Settings {
    /// The first setting out of range: (field, what is expected).
    pub fn out_of_range(&self) -> Option<(&'static str, String)> {
        if self
            .solver_jobs
            .is_some_and(|jobs| !(1..=64).contains(&jobs))
        {
            return Some((
                "solver_jobs",
                format!("{} is not between 1 and 64", self.solver_jobs.unwrap_or(0)),
            ));
        }
        if !(1..=16).contains(&self.answer_translations) {
            return Some((
                "answer_translations",
                format!("{} is not between 1 and 16", self.answer_translations),
            ));
        }
        if !(self.answer_threshold > 0.0 && self.answer_threshold <= 1.0) {
            return Some((
                "answer_threshold",
                format!(
                    "{} is not a share of the translations (more than 0, at most 1)",
                    self.answer_threshold
                ),
            ));
        }
        if self.solver_timeout_ms == 0 {
            return Some(("solver_timeout_ms", "0 ms leaves the solver no time".into()));
        }
        None
    }
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
            answer_translations: DEFAULT_ANSWER_TRANSLATIONS,
            answer_threshold: 1.0,
            not_policy: Vec::new(),
            solver_jobs: None,
            formalize: None,
            budget_s: Budgets::default(),
        }
    }
}
