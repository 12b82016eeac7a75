//! The whole pass, as `precept define` and `precept formalize` run it:
//! the proposals the rules' shapes give, each refined by the LLM when one
//! is given (a reply that does not fit keeps the shapes' proposal, and the
//! refusal is reported), then every proposal checked.

use super::check::{CheckedDefinition, check_definitions, consistent, group_of, touched};
use super::request::{definition_request, read_reply};
use super::{DefinitionProposal, shape_proposals};
use crate::compose::consolidate::{Link, Proposal, ProposalSource};
use crate::compose::consolidate_check::CheckedProposal;
use crate::compose::record::{DefinitionRecord, FormalizationRecord};
use crate::lifecycle::behaviour::Relation;
use crate::llm::{LlmClient, complete_blocking};
use crate::model::{LogicTest, PolicyModel};
use crate::scheduler::Scheduler;
use crate::solve::SolverWorker;
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
    scheduler: &Scheduler,
    timeout: Duration,
) -> PassResult {
    let mut refused_replies = Vec::new();
    let shaped = shape_proposals(model);
    let taken: Vec<String> = shaped.iter().map(|p| p.id.clone()).collect();
    let shaped_variables: Vec<String> = shaped.iter().map(|p| p.variable.clone()).collect();
    let restated: Vec<DefinitionProposal> = super::restated_values::restated_values(model, &taken)
        .into_iter()
        .filter(|p| !shaped_variables.contains(&p.variable))
        .collect();
    let proposals: Vec<DefinitionProposal> = shaped
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
        .chain(restated)
        .collect();
    PassResult {
        proposals: check_definitions(model, tests, &proposals, scheduler, timeout),
        refused_replies,
    }
}

/// The definition pass as formalization runs it, for the command line and
/// the workbench alike: every definition of the composed `model` whose
/// check shows no inconsistency is applied (unreviewed, like every
/// formalized rule) and recorded in `record` with what it replaced; a
/// refused reply and a definition left out are notes of the record.
/// Returns the variables given a definition.
pub fn define_formalized(
    model: &mut PolicyModel,
    record: &mut FormalizationRecord,
    document: &str,
    client: &LlmClient,
    timeout: Duration,
) -> Vec<String> {
    let scheduler = Scheduler::new(Scheduler::default_jobs(), timeout);
    let mut result = definition_pass(
        model,
        &[],
        Some(document),
        Some(client),
        &scheduler,
        timeout,
    );
    // Two names for one fact are the expert's to join, not formalization's.
    result
        .proposals
        .retain(|p| p.proposal.origin != super::Origin::RestatedValue);
    let (applied, notes) = apply_consistent(model, &result, timeout);
    for refused in &result.refused_replies {
        record.notes.push(format!(
            "definition reply refused (the shapes' proposal stood): {refused}"
        ));
    }
    record.notes.extend(notes);
    let defined = applied.iter().map(|d| d.variable.clone()).collect();
    record.definitions = applied;
    defined
}

/// How a proposal changes what the model allows, in words.
pub fn meaning(relation: Relation) -> &'static str {
    match relation {
        Relation::Equivalent => "unchanged",
        Relation::AStronger => "allows more situations than before",
        Relation::BStronger => "allows fewer situations than before",
        Relation::DifferBothWays => "changed both ways",
        Relation::Unknown => "not decided in time",
    }
}

/// Applies, in order, every proposal of `result` that was not refused and
/// does not make the model inconsistent, keeping the model consistent
/// after each (decided on the group of rules each touches) (a definition that would break it with the ones before it
/// is left out, with a note). Returns the records of what was applied and
/// the notes.
pub fn apply_consistent(
    model: &mut PolicyModel,
    result: &PassResult,
    timeout: Duration,
) -> (Vec<DefinitionRecord>, Vec<String>) {
    let worker = SolverWorker::spawn(timeout);
    let mut records = Vec::new();
    let mut notes = Vec::new();
    // A consistent model stays consistent when each edit keeps the group of
    // rules it touches consistent (the other groups share no variable with
    // it): one check of the whole first, then one of each group.
    if !consistent(model, &worker) {
        notes.push(
            "no definition applied: the rules contradict each other before any definition (precept lint shows where)"
                .into(),
        );
        return (records, notes);
    }
    for checked in result.proposals.iter().filter(|c| c.acceptable()) {
        let proposal = &checked.proposal;
        let mut edited = model.clone();
        if let Err(error) = proposal.edit().apply(&mut edited) {
            notes.push(format!(
                "definition {} of {} not applied: {error}",
                proposal.id, proposal.variable
            ));
            continue;
        }
        if !consistent(&group_of(&edited, &touched(model, proposal)), &worker) {
            notes.push(format!(
                "definition {} of {} not applied: with the definitions before it the rules would contradict each other",
                proposal.id, proposal.variable
            ));
            continue;
        }
        let expression =
            |m: &PolicyModel, id: &String| m.rule(id).map(|r| (id.clone(), r.expression.clone()));
        records.push(DefinitionRecord {
            id: proposal.id.clone(),
            variable: proposal.variable.clone(),
            origin: match proposal.origin {
                super::Origin::Shapes => "shapes".into(),
                super::Origin::Llm => "llm".into(),
                super::Origin::RestatedValue => "restated value".into(),
            },
            replaced: proposal
                .replaces
                .iter()
                .filter_map(|id| expression(model, id))
                .collect(),
            added: checked.rules.clone(),
            meaning: meaning(checked.relation).into(),
        });
        *model = edited;
    }
    (records, notes)
}

/// A checked definition as a consolidation proposal, so the workbench's
/// Formalize screen lists and applies it like the others (one undoable
/// edit).
pub fn as_consolidation(checked: &CheckedDefinition) -> CheckedProposal {
    let proposal = &checked.proposal;
    let link = Link::Define {
        definition: proposal.definition.clone(),
        replaces: proposal.replaces.clone(),
    };
    let mut new_conflicts = Vec::new();
    if checked.conflicts_after > checked.conflicts_before {
        new_conflicts.push(format!(
            "{} conflicting overlaps before, {} after",
            checked.conflicts_before, checked.conflicts_after
        ));
    }
    new_conflicts.extend(
        checked
            .impossible_added
            .iter()
            .map(|s| format!("impossible: {s}")),
    );
    let mut rules_changed: Vec<(String, String, String)> = Vec::new();
    for (id, expression) in &checked.rules {
        rules_changed.push((id.clone(), String::new(), expression.clone()));
    }
    CheckedProposal {
        summary: format!(
            "{} (meaning {})",
            link.describe(),
            meaning(checked.relation)
        ),
        proposal: Proposal {
            id: proposal.id.clone(),
            link,
            reason: match proposal.origin {
                super::Origin::Shapes => "read off the rules' shapes".into(),
                super::Origin::Llm => "the LLM's reading of the rules and their sentences".into(),
                super::Origin::RestatedValue => {
                    "a Boolean whose name says one value of an enum: two names for one fact".into()
                }
            },
            source: ProposalSource::Definition,
        },
        refused: checked.refused.clone(),
        inconsistent: checked.inconsistent,
        new_conflicts,
        flips: checked.flips.clone(),
        rules_changed,
    }
}
