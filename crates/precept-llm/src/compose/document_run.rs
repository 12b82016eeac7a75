//! A whole formalization, as the command line and the workbench run it:
//! plan the spans, formalize them concurrently, compose the units, check
//! the composed model, and keep the record of how it was made.

use std::sync::Arc;

use super::vocabulary_pass::{SECTION_BUDGET, plan_sections, propose_vocabulary};
use crate::compose::embed::Embedder;
use crate::compose::record::{FormalizationRecord, RunInfo};
use crate::compose::unify::checked_value_reading;
use crate::compose::unify::{ComposeError, compose};
use crate::formalize::span_job::{SpanOutcome, SpanSettings};
use crate::formalize::span_runs::{FormalizeEvent, formalize_runtime, formalize_spans};
use crate::formalize::span_task::{DEFAULT_SPAN_BUDGET, plan_spans};
use crate::formalize::vocabulary::{SharedVocabulary, VocabularyMode};
use crate::llm::{LlmClient, LlmError};
use crate::model::{EnumValue, PolicyModel, TypeDef, Variable, compile};
use crate::smt::reading::{Reading, check};

/// How a document is formalized.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FormalizeSettings {
    /// Spans longer than this many characters are cut at sentence ends.
    pub span_budget: usize,
    pub span: SpanSettings,
    /// Cosine similarity at which variables of different spans unify.
    pub threshold: f32,
    /// A vocabulary pass first (the default), or each span on its own.
    pub vocabulary: VocabularyMode,
}

impl Default for FormalizeSettings {
    fn default() -> Self {
        FormalizeSettings {
            span_budget: DEFAULT_SPAN_BUDGET,
            span: SpanSettings::default(),
            threshold: crate::compose::cluster::DEFAULT_THRESHOLD,
            vocabulary: VocabularyMode::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FormalizeError {
    #[error("the document has no paragraphs, list items or table rows to formalize")]
    NothingToFormalize,
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("the formalization was cancelled; nothing changed")]
    Cancelled,
    #[error("no span could be formalized (first problem: {first_problem})")]
    NoSpanFormalized { first_problem: String },
    #[error("composing the units: {0}")]
    Composition(#[from] ComposeError),
    #[error("the composed model does not check ({0}); nothing was kept")]
    ModelDoesNotCheck(String),
}

/// The composed model and its record.
#[derive(Debug, Clone, PartialEq)]
pub struct FormalizedDocument {
    pub model: PolicyModel,
    pub record: FormalizationRecord,
}

/// Formalizes `document` (named `document_name` in the project) from
/// synchronous code. Spans that fail are in the record; the model holds
/// what the others contributed.
pub fn formalize_document(
    client: Arc<LlmClient>,
    document: &str,
    document_name: &str,
    settings: &FormalizeSettings,
    embedder: &dyn Embedder,
    events: Arc<dyn Fn(FormalizeEvent) + Send + Sync>,
) -> Result<FormalizedDocument, FormalizeError> {
    let tasks = plan_spans(document, settings.span_budget.max(200));
    if tasks.is_empty() {
        return Err(FormalizeError::NothingToFormalize);
    }
    let runtime = formalize_runtime()?;
    let shared = match settings.vocabulary {
        VocabularyMode::Shared => {
            let shared = runtime.block_on(propose_vocabulary(
                client.clone(),
                &tasks,
                document,
                embedder,
                settings.threshold,
            ))?;
            events(FormalizeEvent::Vocabulary {
                sections: plan_sections(&tasks, SECTION_BUDGET).len(),
                variables: shared.variables.len(),
                types: shared.types.len(),
            });
            Some(Arc::new(shared))
        }
        VocabularyMode::SpanOnly => None,
    };
    if client.cancel_token().is_cancelled() {
        return Err(FormalizeError::Cancelled);
    }
    let outcomes = runtime.block_on(formalize_spans(
        client.clone(),
        &tasks,
        shared.clone(),
        settings.span,
        events,
    ))?;
    if client.cancel_token().is_cancelled() {
        return Err(FormalizeError::Cancelled);
    }
    if outcomes.iter().all(|o| o.unit().is_none()) {
        return Err(FormalizeError::NoSpanFormalized {
            first_problem: first_problem(&outcomes),
        });
    }
    let mut composition = compose(document, &tasks, &outcomes, embedder, settings.threshold)?;
    if let Some(shared) = &shared {
        keep_vocabulary(&mut composition.model, shared);
    }
    if let Some(issue) = compile(&composition.model).issues.first() {
        return Err(FormalizeError::ModelDoesNotCheck(issue.to_string()));
    }
    let model = composition.model.clone();
    let info = RunInfo {
        document: document_name,
        llm_profile: &client.profile().name,
        llm_model: &client.profile().model,
        embedder: embedder.name(),
        threshold: settings.threshold,
    };
    let mut record = FormalizationRecord::new(info, tasks, outcomes, composition);
    record.vocabulary_mode = settings.vocabulary;
    record.vocabulary = shared.map(|s| (*s).clone());
    Ok(FormalizedDocument { model, record })
}

/// Adds the shared vocabulary's types and variables that no rule used: a
/// question about "my employer has granted me leave" needs the name even
/// when no sentence made a rule of it. One that would not check beside the
/// composed model (a name or an enum value taken) stays out. A variable
/// the spans kept takes the vocabulary's reading forms when it has none.
fn keep_vocabulary(model: &mut PolicyModel, shared: &SharedVocabulary) {
    for unit_type in &shared.types {
        if model.types.iter().any(|t| t.name == unit_type.name) {
            continue;
        }
        let mut tried = model.clone();
        tried.types.push(TypeDef {
            name: unit_type.name.clone(),
            description: unit_type.description.clone(),
            values: unit_type
                .values
                .iter()
                .map(|v| EnumValue {
                    reading: checked_value_reading(v.reading.as_deref()),
                    value: v.value.clone(),
                    description: v.description.clone(),
                })
                .collect(),
        });
        if compile(&tried).issues.is_empty() {
            *model = tried;
        }
    }
    for variable in &shared.variables {
        let reading = variable
            .reading
            .as_ref()
            .filter(|r| check(r, variable.sort == "Bool").is_ok())
            .map(Reading::tidied)
            .unwrap_or_default();
        if let Some(kept) = model.variables.iter_mut().find(|v| v.name == variable.name) {
            // The spans' forms first; the shared vocabulary's where none.
            if kept.reading.is_empty() && kept.sort == variable.sort {
                kept.reading = reading;
            }
            continue;
        }
        let mut tried = model.clone();
        tried.variables.push(Variable {
            reading,
            name: variable.name.clone(),
            sort: variable.sort.clone(),
            description: variable.description.clone(),
        });
        if compile(&tried).issues.is_empty() {
            *model = tried;
        }
    }
}

fn first_problem(outcomes: &[SpanOutcome]) -> String {
    for outcome in outcomes {
        match outcome {
            SpanOutcome::Rejected { problems, .. } if !problems.is_empty() => {
                return problems[0].to_string();
            }
            SpanOutcome::Error { message, .. } => return message.clone(),
            _ => {}
        }
    }
    "cancelled".into()
}
