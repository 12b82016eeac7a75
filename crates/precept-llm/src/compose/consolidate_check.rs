//! Every consolidation proposal is checked before anyone sees it: it must
//! apply and type-check, and the solver says which tests it flips, whether
//! it makes the model inconsistent, and which new conflicting overlaps it
//! creates. A proposal that makes the model inconsistent is refused by
//! default (the expert may still force it).

use std::collections::BTreeSet;
use std::sync::mpsc;
use std::time::Duration;

use serde::Serialize;

use crate::compose::consolidate::{Link, Proposal, ProposalSource, apply, reply_schema};
use crate::compose::contrast::{Named, contrast};
use crate::compose::record::FormalizationRecord;
use crate::lint::{Diagnostic, LintCode};
use crate::llm::prompts::{CONSOLIDATE, render};
use crate::llm::{LlmClient, LlmRequest};
use crate::model::{CompiledModel, LogicTest, PolicyModel, compile};
use crate::solve::SolverWorker;
use crate::solve::lint_checks::LintEvent;
use crate::test_runner::flips::{TestFlip, flips_of, suite_outcomes};

/// A proposal with what it would do.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedProposal {
    #[serde(flatten)]
    pub proposal: Proposal,
    /// In plain words.
    pub summary: String,
    /// Why it cannot be applied at all (unknown name, wrong type, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Applying it makes the rules contradict each other.
    pub inconsistent: bool,
    /// Conflicting overlaps (rule pairs) it would create.
    pub new_conflicts: Vec<String>,
    /// The tests whose result it changes.
    pub flips: Vec<TestFlip>,
    /// The rules it rewrites or adds: (id, before, after).
    pub rules_changed: Vec<(String, String, String)>,
}

impl CheckedProposal {
    /// Whether `--apply` (or `y`) takes it without being forced.
    pub fn acceptable(&self) -> bool {
        self.refused.is_none() && !self.inconsistent
    }

    /// The warnings to show beside it.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.inconsistent {
            out.push("makes the model inconsistent: every question would be IMPOSSIBLE (refused unless forced)".to_string());
        }
        if self.proposal.source == ProposalSource::Similarity
            && matches!(self.proposal.link, Link::SameMeaning { .. })
        {
            out.push(
                "similar words only: no review confirmed the two mean the same (ask the LLM's review, or read both descriptions)"
                    .to_string(),
            );
        }
        if !self.new_conflicts.is_empty() {
            out.push(format!(
                "creates conflicting overlaps: {}",
                self.new_conflicts.join("; ")
            ));
        }
        out
    }
}

/// The request that asks the LLM to review the whole vocabulary.
pub fn consolidation_request(client: &LlmClient, model: &PolicyModel) -> LlmRequest {
    let mut variables = String::new();
    for v in &model.variables {
        let users: Vec<&str> = model
            .rules
            .iter()
            .filter(|r| {
                crate::smt::parse_expr(&r.expression)
                    .map(|e| e.symbols().contains(&v.name.as_str()))
                    .unwrap_or(false)
            })
            .map(|r| r.id.as_str())
            .collect();
        variables.push_str(&format!(
            "- {} ({}): {}; used by {}\n",
            v.name,
            v.sort,
            v.description,
            if users.is_empty() {
                "no rule".to_string()
            } else {
                users.join(", ")
            }
        ));
    }
    let rules: String = model
        .rules
        .iter()
        .map(|r| format!("- {}: {}\n", r.id, r.expression))
        .collect();
    let values = [("variables", variables.as_str()), ("rules", rules.as_str())];
    LlmRequest {
        system: render(CONSOLIDATE.system(), &values),
        prompt: render(CONSOLIDATE.user(), &values),
        schema_name: "consolidation".into(),
        schema: reply_schema(),
        temperature: client.profile().temperature,
        max_tokens: 4096,
    }
}

/// The solver-backed diagnostics of a compiled model.
fn lint(compiled: &CompiledModel, timeout: Duration) -> Vec<Diagnostic> {
    let worker = SolverWorker::spawn(timeout);
    let (events, received) = mpsc::channel();
    worker.lint(compiled.clone(), events);
    let mut found = Vec::new();
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => found.push(*d),
            LintEvent::Finished { .. } => break,
            LintEvent::Progress { .. } => {}
        }
    }
    found
}

fn conflicts(diagnostics: &[Diagnostic]) -> BTreeSet<String> {
    diagnostics
        .iter()
        .filter(|d| d.code == LintCode::ConflictingOverlap)
        .map(|d| d.rules.join(" and "))
        .collect()
}

/// Checks each proposal against the model as it is (independently of the
/// others).
pub fn check_proposals(
    model: &PolicyModel,
    record: Option<&FormalizationRecord>,
    tests: &[LogicTest],
    proposals: &[Proposal],
    timeout: Duration,
) -> Vec<CheckedProposal> {
    let compiled = compile(model);
    let before_conflicts = conflicts(&lint(&compiled, timeout));
    let baseline = suite_outcomes(model, tests, timeout).unwrap_or_default();
    proposals
        .iter()
        .map(|p| {
            check_one(
                model,
                record,
                tests,
                &baseline,
                &before_conflicts,
                p,
                timeout,
            )
        })
        .collect()
}

fn check_one(
    model: &PolicyModel,
    record: Option<&FormalizationRecord>,
    tests: &[LogicTest],
    baseline: &[crate::test_runner::TestOutcome],
    before_conflicts: &BTreeSet<String>,
    proposal: &Proposal,
    timeout: Duration,
) -> CheckedProposal {
    let summary = match (&proposal.link, proposal.source) {
        (Link::SameMeaning { keep, merge }, ProposalSource::Similarity) => {
            let contrast = match (model.variable(keep), model.variable(merge)) {
                (Some(a), Some(b)) => contrast(
                    Named {
                        name: &a.name,
                        description: &a.description,
                    },
                    Named {
                        name: &b.name,
                        description: &b.description,
                    },
                )
                .map(|c| format!("; contrast found: {c}"))
                .unwrap_or_default(),
                _ => String::new(),
            };
            format!("similar words only: {merge} and {keep}{contrast}")
        }
        _ => proposal.link.describe(),
    };
    let mut checked = CheckedProposal {
        proposal: proposal.clone(),
        summary,
        refused: None,
        inconsistent: false,
        new_conflicts: Vec::new(),
        flips: Vec::new(),
        rules_changed: Vec::new(),
    };
    let mut edited = model.clone();
    let mut scratch_record = record.cloned();
    if let Err(error) = apply(&mut edited, scratch_record.as_mut(), proposal) {
        checked.refused = Some(error.to_string());
        return checked;
    }
    let compiled = compile(&edited);
    if let Some(issue) = compiled.issues.first() {
        checked.refused = Some(format!("the model would not check: {issue}"));
        return checked;
    }
    for rule in &edited.rules {
        let before = model.rule(&rule.id).map(|r| r.expression.clone());
        if before.as_deref() != Some(rule.expression.as_str()) {
            checked.rules_changed.push((
                rule.id.clone(),
                before.unwrap_or_default(),
                rule.expression.clone(),
            ));
        }
    }
    let after = lint(&compiled, timeout);
    checked.inconsistent = after.iter().any(|d| d.code == LintCode::Inconsistent);
    checked.new_conflicts = conflicts(&after)
        .difference(before_conflicts)
        .cloned()
        .collect();
    match flips_of(&edited, tests, baseline, timeout) {
        Ok(flips) => checked.flips = flips,
        Err(error) => checked.refused = Some(error.to_string()),
    }
    if let Link::SameMeaning { keep, merge } = &proposal.link
        && let (Some(a), Some(b)) = (model.variable(keep), model.variable(merge))
        && a.description != b.description
    {
        checked.summary = format!(
            "{} ({keep}: {}; {merge}: {})",
            checked.summary, a.description, b.description
        );
    }
    checked
}
