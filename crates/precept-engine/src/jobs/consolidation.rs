//! Consolidating a formalized model's vocabulary: the merges its record
//! left open, the LLM's review of the whole vocabulary (when one is
//! configured), and the definition pass (one definition per decision
//! written apart), each proposal checked by the solver before the expert
//! sees it. `precept consolidate` and `precept define` are this job's two
//! halves on the command line.

use super::JobContext;
use crate::compose::consolidate::{Proposal, number, read_reply, similarity_proposals};
use crate::compose::consolidate_check::{CheckedProposal, check_proposals, consolidation_request};
use crate::compose::record::FormalizationRecord;
use crate::llm::{Cancel, LlmClient, LlmError, complete_blocking};
use crate::model::{LogicTest, PolicyModel, Project};
use crate::scheduler::Scheduler;

/// Checked consolidation proposals, and what the expert should know about
/// how they were made (no LLM configured, items of the reply refused).
#[derive(Debug, Clone, PartialEq)]
pub struct Consolidation {
    pub proposals: Vec<CheckedProposal>,
    pub notes: Vec<String>,
}

/// The merges `record` left open, then the proposals of the LLM's review
/// of `model`'s vocabulary, with the items of its reply that were not
/// proposals. Unnumbered: the caller numbers the whole list.
pub fn gather_proposals(
    record: Option<&FormalizationRecord>,
    model: &PolicyModel,
    llm: Option<&LlmClient>,
) -> Result<(Vec<Proposal>, Vec<String>), LlmError> {
    let mut proposals = record
        .map(|r| similarity_proposals(r, model))
        .unwrap_or_default();
    let mut refused = Vec::new();
    if let Some(client) = llm {
        let reply = complete_blocking(client, &consolidation_request(client, model))?;
        let (asked, not_proposals) = read_reply(&reply.json);
        proposals.extend(asked);
        refused = not_proposals;
    }
    Ok((proposals, refused))
}

/// Every consolidation proposal for `model`, checked against `tests`: the
/// open merges, the LLM's (when one is configured; a failure to ask it is
/// a note, not an error) and the definition pass's.
pub fn consolidate(
    context: &JobContext,
    model: &PolicyModel,
    record: Option<&FormalizationRecord>,
    tests: &[LogicTest],
    cancel: &Cancel,
) -> Consolidation {
    let mut notes = Vec::new();
    let llm = match context.client(cancel) {
        Ok(client) => Some(client),
        Err(error) => {
            notes.push(format!(
                "no LLM configured, so only the open merges and the definitions the rules' shapes give: {}",
                error.to_string().lines().next().unwrap_or_default()
            ));
            None
        }
    };
    let proposals = match gather_proposals(record, model, llm.as_ref()) {
        Ok((proposals, refused)) => {
            notes.extend(refused.into_iter().map(|r| format!("not a proposal: {r}")));
            proposals
        }
        Err(error) => {
            notes.push(format!("the LLM could not be asked: {error}"));
            gather_proposals(record, model, None)
                .map(|(proposals, _)| proposals)
                .unwrap_or_default()
        }
    };
    let proposals = number(proposals);
    let mut checked = check_proposals(model, record, tests, &proposals, context.timeout);
    let document = Project::load_unchecked(&context.project_dir)
        .ok()
        .and_then(|p| p.document);
    let scheduler = Scheduler::new(2, context.timeout);
    let definitions = crate::define::pass::definition_pass(
        model,
        tests,
        document.as_deref(),
        llm.as_ref(),
        &scheduler,
        context.timeout,
    );
    notes.extend(
        definitions
            .refused_replies
            .iter()
            .map(|r| format!("definition reply refused: {r}")),
    );
    checked.extend(
        definitions
            .proposals
            .iter()
            .map(crate::define::pass::as_consolidation),
    );
    Consolidation {
        proposals: checked,
        notes,
    }
}
