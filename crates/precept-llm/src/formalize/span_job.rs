//! Formalizes one span into a policy unit, with the refinement loop: a
//! reply that does not fit the schema, does not parse or does not type-check
//! goes back to the LLM with the problems and their positions, for up to
//! `max_rounds` rounds. A unit is accepted only when it checks completely;
//! otherwise the span fails with its last problems and nothing of it enters
//! the model.

use serde::{Deserialize, Serialize};

use crate::formalize::span_task::SpanTask;
use crate::formalize::unit::{
    PolicyUnit, UnitProblem, check_unit, declarations_text, unit_from_json,
    unit_schema_with_reasons,
};
use crate::formalize::vocabulary::SharedVocabulary;
use crate::llm::prompts::{FORMALIZE_REPAIR, FORMALIZE_SPAN, FRAGMENT_GRAMMAR, render};
use crate::llm::{LlmClient, LlmError, LlmRequest};

/// How the formalization of one span ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum SpanOutcome {
    /// A unit that checks (possibly with no rules: the span states none).
    Formalized {
        unit: PolicyUnit,
        rounds: u32,
    },
    /// Still wrong after the last round: the problems of the last answer.
    Rejected {
        problems: Vec<UnitProblem>,
        rounds: u32,
    },
    /// The LLM could not be asked (timeout after retries, HTTP error, …).
    Error {
        message: String,
        rounds: u32,
    },
    Cancelled,
}

impl SpanOutcome {
    pub fn unit(&self) -> Option<&PolicyUnit> {
        match self {
            SpanOutcome::Formalized { unit, .. } => Some(unit),
            _ => None,
        }
    }

    pub fn rounds(&self) -> u32 {
        match self {
            SpanOutcome::Formalized { rounds, .. }
            | SpanOutcome::Rejected { rounds, .. }
            | SpanOutcome::Error { rounds, .. } => *rounds,
            SpanOutcome::Cancelled => 0,
        }
    }
}

/// Settings of the per-span work.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpanSettings {
    /// Rounds in all, the first included (at least 1).
    pub max_rounds: u32,
    pub max_tokens: u32,
}

impl Default for SpanSettings {
    fn default() -> Self {
        SpanSettings {
            max_rounds: 3,
            max_tokens: 4096,
        }
    }
}

/// The request of one round. `feedback` is empty in the first round.
pub fn span_request(
    client: &LlmClient,
    task: &SpanTask,
    shared: Option<&SharedVocabulary>,
    declared: Option<&PolicyUnit>,
    feedback: &str,
    settings: SpanSettings,
) -> LlmRequest {
    let shared = shared.filter(|s| !s.is_empty());
    let shared_text = shared.map(|s| s.prompt_text(task)).unwrap_or_default();
    let heading = if task.heading_path.is_empty() {
        "(top of the document)".to_string()
    } else {
        task.heading_path.join(" > ")
    };
    let (start, end) = (task.start.to_string(), task.end.to_string());
    let declarations = declarations_text(declared);
    let title = task.context.title.as_deref().unwrap_or("(untitled)");
    let context = task.context.prompt_text();
    let values = [
        ("grammar", FRAGMENT_GRAMMAR),
        ("title", title),
        ("context", context.as_str()),
        ("shared", shared_text.as_str()),
        ("heading_path", heading.as_str()),
        ("span_id", task.id.as_str()),
        ("start", start.as_str()),
        ("end", end.as_str()),
        ("span_text", task.text.as_str()),
        ("declarations", declarations.as_str()),
        ("feedback", feedback),
    ];
    LlmRequest {
        system: render(FORMALIZE_SPAN.system(), &values),
        prompt: render(FORMALIZE_SPAN.user(), &values),
        schema_name: "policy_unit".into(),
        schema: unit_schema_with_reasons(shared.is_some()),
        temperature: client.profile().temperature,
        max_tokens: settings.max_tokens,
    }
}

/// The follow-up of round `round` (2, 3, …). The round number makes each
/// round's request distinct, so a cached bad answer is not replayed as the
/// next round's answer.
fn repair_text(problems: &[UnitProblem], previous: &str, round: u32, rounds: u32) -> String {
    let errors: Vec<String> = problems.iter().map(|p| format!("- {p}")).collect();
    let (round, rounds) = (round.to_string(), rounds.to_string());
    render(
        FORMALIZE_REPAIR.user(),
        &[
            ("errors", &errors.join("\n")),
            ("previous", previous),
            ("round", &round),
            ("rounds", &rounds),
        ],
    )
}

/// Runs the rounds for one span. `on_retry(round, problems)` is called
/// before each repair round (round 2, 3, …). A missing LLM configuration is
/// the only error: it would stop every other span the same way.
pub async fn formalize_span(
    client: &LlmClient,
    task: &SpanTask,
    shared: Option<&SharedVocabulary>,
    settings: SpanSettings,
    on_retry: &(dyn Fn(u32, &[UnitProblem]) + Send + Sync),
) -> Result<SpanOutcome, LlmError> {
    let mut feedback = String::new();
    let mut declared: Option<PolicyUnit> = None;
    let mut problems = Vec::new();
    let max_rounds = settings.max_rounds.max(1);
    // A span the shared vocabulary has nothing for is formalized on its own
    // (it is not asked for reasons it was never told about).
    let shared = shared.filter(|s| !s.relevant(task).1.is_empty());
    for round in 1..=max_rounds {
        if round > 1 {
            on_retry(round, &problems);
        }
        let request = span_request(client, task, shared, declared.as_ref(), &feedback, settings);
        let (unit, previous) = match client.complete(&request).await {
            Ok(reply) => match unit_from_json(&reply.json) {
                Ok(unit) => {
                    let previous = serde_json::to_string_pretty(&reply.json).unwrap_or_default();
                    (unit, previous)
                }
                Err(error) => {
                    problems = vec![UnitProblem {
                        field: "reply".into(),
                        message: error.to_string(),
                    }];
                    feedback = repair_text(
                        &problems,
                        &crate::llm::snippet(&reply.raw),
                        round + 1,
                        max_rounds,
                    );
                    continue;
                }
            },
            Err(LlmError::InvalidReply {
                reason,
                raw_snippet,
            }) => {
                problems = vec![UnitProblem {
                    field: "reply".into(),
                    message: reason,
                }];
                feedback = repair_text(&problems, &raw_snippet, round + 1, max_rounds);
                continue;
            }
            Err(LlmError::Cancelled) => return Ok(SpanOutcome::Cancelled),
            Err(error @ LlmError::NotConfigured { .. }) => return Err(error),
            Err(error) => {
                return Ok(SpanOutcome::Error {
                    message: error.to_string(),
                    rounds: round,
                });
            }
        };
        problems = check_unit(&unit);
        if let Some(shared) = shared.filter(|s| !s.is_empty()) {
            problems.extend(shared.check(&unit));
        }
        if problems.is_empty() {
            return Ok(SpanOutcome::Formalized {
                unit,
                rounds: round,
            });
        }
        feedback = repair_text(&problems, &previous, round + 1, max_rounds);
        declared = Some(unit);
    }
    Ok(SpanOutcome::Rejected {
        problems,
        rounds: max_rounds,
    })
}
