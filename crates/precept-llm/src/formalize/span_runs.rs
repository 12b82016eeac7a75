//! The formalization run: plan the spans of a document, formalize them
//! concurrently (the client's concurrency limit applies), report progress as
//! plain-data events, and keep going when single spans fail.

use std::sync::Arc;

use serde::Serialize;
use tokio::task::JoinSet;

use crate::formalize::span_job::{SpanOutcome, SpanSettings, formalize_span};
use crate::formalize::span_task::SpanTask;
use crate::formalize::unit::UnitProblem;
use crate::formalize::vocabulary::SharedVocabulary;
use crate::llm::{LlmClient, LlmError};

/// Progress of a run, in the order things happen.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum FormalizeEvent {
    /// The spans that will be formalized, in order (events name them by index).
    Planned {
        spans: Vec<SpanTask>,
    },
    Started {
        span: usize,
    },
    /// A repair round begins for `span`, because of `problems`.
    Retrying {
        span: usize,
        round: u32,
        problems: Vec<UnitProblem>,
    },
    Finished {
        span: usize,
        counts: SpanCounts,
    },
    /// The vocabulary pass read `sections` parts of the document and the
    /// document shares `variables` variables and `types` types.
    Vocabulary {
        sections: usize,
        variables: usize,
        types: usize,
    },
}

/// What one span contributed (zero for a failed span).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SpanCounts {
    pub types: usize,
    pub variables: usize,
    pub rules: usize,
    pub failed: bool,
}

impl SpanCounts {
    pub fn of(outcome: &SpanOutcome) -> SpanCounts {
        match outcome.unit() {
            Some(unit) => SpanCounts {
                types: unit.types.len(),
                variables: unit.variables.len(),
                rules: unit.rules.len(),
                failed: false,
            },
            None => SpanCounts {
                failed: true,
                ..SpanCounts::default()
            },
        }
    }
}

/// Formalizes every task; results come back in task order. A missing
/// configuration stops the run at the first span that meets it (every
/// other span would fail the same way) and is returned as the error.
pub async fn formalize_spans(
    client: Arc<LlmClient>,
    tasks: &[SpanTask],
    shared: Option<Arc<SharedVocabulary>>,
    settings: SpanSettings,
    events: Arc<dyn Fn(FormalizeEvent) + Send + Sync>,
) -> Result<Vec<SpanOutcome>, LlmError> {
    events(FormalizeEvent::Planned {
        spans: tasks.to_vec(),
    });
    let mut jobs = JoinSet::new();
    for (index, task) in tasks.iter().cloned().enumerate() {
        let client = client.clone();
        let events = events.clone();
        let shared = shared.clone();
        jobs.spawn(async move {
            events(FormalizeEvent::Started { span: index });
            let on_retry = |round: u32, problems: &[UnitProblem]| {
                events(FormalizeEvent::Retrying {
                    span: index,
                    round,
                    problems: problems.to_vec(),
                })
            };
            let outcome =
                formalize_span(&client, &task, shared.as_deref(), settings, &on_retry).await;
            if let Ok(outcome) = &outcome {
                events(FormalizeEvent::Finished {
                    span: index,
                    counts: SpanCounts::of(outcome),
                });
            }
            (index, outcome)
        });
    }
    let mut outcomes: Vec<Option<SpanOutcome>> = vec![None; tasks.len()];
    while let Some(joined) = jobs.join_next().await {
        let (index, outcome) =
            joined.map_err(|e| LlmError::Internal(format!("a span job stopped: {e}")))?;
        match outcome {
            Ok(outcome) => outcomes[index] = Some(outcome),
            Err(error) => {
                jobs.abort_all();
                return Err(error);
            }
        }
    }
    Ok(outcomes
        .into_iter()
        .map(|o| o.unwrap_or(SpanOutcome::Cancelled))
        .collect())
}

/// [`formalize_spans`] from synchronous code, on its own small runtime.
pub fn formalize_spans_blocking(
    client: Arc<LlmClient>,
    tasks: &[SpanTask],
    settings: SpanSettings,
    events: Arc<dyn Fn(FormalizeEvent) + Send + Sync>,
) -> Result<Vec<SpanOutcome>, LlmError> {
    formalize_runtime()?.block_on(formalize_spans(client, tasks, None, settings, events))
}

/// The runtime a whole formalization runs on.
pub fn formalize_runtime() -> Result<tokio::runtime::Runtime, LlmError> {
    crate::llm::runtime::blocking_runtime()
        .map_err(|e| LlmError::Internal(format!("cannot start the LLM runtime: {e}")))
}
