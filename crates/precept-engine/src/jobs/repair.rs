//! A repair proposed from the expert's feedback on marked rules, by the
//! configured LLM.

use super::JobContext;
use crate::llm::{Cancel, LlmError};
use crate::model::PolicyModel;
use crate::repair::{RepairProposal, propose_repair};

/// Why no repair was proposed.
#[derive(Debug, thiserror::Error)]
pub enum RepairJobError {
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("the LLM's runtime did not start: {0}")]
    Runtime(#[from] std::io::Error),
}

/// The LLM's proposed edits of `rules` of `model` that answer `feedback`.
pub fn repair(
    context: &JobContext,
    model: &PolicyModel,
    rules: &[String],
    feedback: &str,
    cancel: &Cancel,
) -> Result<RepairProposal, RepairJobError> {
    let client = context.client(cancel)?;
    let runtime = crate::llm::runtime::blocking_runtime()?;
    Ok(runtime.block_on(propose_repair(&client, model, rules, feedback))?)
}
