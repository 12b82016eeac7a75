//! The whole pass, as `precept define` and `precept formalize` run it:
//! the proposals the rules' shapes give, each refined by the LLM when one
//! is given (a reply that does not fit keeps the shapes' proposal, and the
//! refusal is reported), then every proposal checked.

use super::check::{CheckedDefinition, check_definitions};
use super::request::{definition_request, read_reply};
use super::{DefinitionProposal, shape_proposals};
use crate::core::llm::{LlmClient, complete_blocking};
use crate::core::model::{LogicTest, PolicyModel};
use crate::core::solve::SolverPool;
use std::time::Duration;

/// What the pass found: the checked proposals, and the LLM replies that
/// were refused (by decision, with why).
#[derive(Debug, Clone, Default)]
pub struct PassResult {
    pub proposals: Vec<CheckedDefinition>,
    pub refused_replies: Vec<String>,
}

/// Proposes and checks one definition per decision of `model`.
pub fn definition_pass(
    model: &PolicyModel,
    tests: &[LogicTest],
    document: Option<&str>,
    llm: Option<&LlmClient>,
    pool: &SolverPool,
    timeout: Duration,
) -> PassResult {
    let mut refused_replies = Vec::new();
    let proposals: Vec<DefinitionProposal> = shape_proposals(model)
        .into_iter()
        .map(|start| {
            let Some(client) = llm else {
                return start;
            };
            let request = definition_request(client, model, document, &start);
            match complete_blocking(client, &request) {
                Ok(reply) => match read_reply(&reply.json, model, document, &start) {
                    Ok(refined) => refined,
                    Err(why) => {
                        refused_replies.push(format!("{} ({}): {why}", start.id, start.variable));
                        start
                    }
                },
                Err(error) => {
                    refused_replies.push(format!(
                        "{} ({}): the LLM did not answer: {error}",
                        start.id, start.variable
                    ));
                    start
                }
            }
        })
        .collect();
    PassResult {
        proposals: check_definitions(model, tests, &proposals, pool, timeout),
        refused_replies,
    }
}
