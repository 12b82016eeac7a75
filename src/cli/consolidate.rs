//! `precept consolidate DIR [--json] [--apply ID…] [--force] [--no-llm]`
//!
//! Lists the consolidation proposals for a formalized model (the merges its
//! composition left open, and the links the LLM proposes after reviewing the
//! whole vocabulary), each checked: whether it applies and type-checks, the
//! tests it flips, whether it makes the model inconsistent, and the new
//! conflicting overlaps it creates. `--apply C1 C3` applies those proposals
//! in order and saves the model and `formalization.json`; one that makes the
//! model inconsistent needs `--force`. The ids are stable while the model is
//! unchanged (the LLM's reply is cached).

use super::common::{Chosen, Failure, Outcome, chosen, load_project, print_json};
use super::llm_setup::{LlmArgs, llm_client};
use clap::Args;
use precept_engine::compose::consolidate::{apply, number};
use precept_engine::compose::consolidate_check::{CheckedProposal, check_proposals};
use precept_engine::compose::record::FormalizationRecord;
use precept_engine::jobs::consolidation::gather_proposals;
use serde::Serialize;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct ConsolidateArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Print the proposals (and what was applied) as JSON
    #[arg(long)]
    pub json: bool,
    /// Apply these proposals (ids as listed, e.g. C1 C3), in order
    #[arg(long, num_args = 1..)]
    pub apply: Vec<String>,
    /// Apply a proposal even when it makes the model inconsistent
    #[arg(long)]
    pub force: bool,
    /// Only the merges the composition left open; do not ask the LLM
    #[arg(long)]
    pub no_llm: bool,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

#[derive(Serialize)]
struct ConsolidationJson<'a> {
    proposals: &'a [CheckedProposal],
    /// Items of the LLM's reply that were not proposals at all.
    refused_replies: &'a [String],
    applied: &'a [String],
}

pub fn run(args: &ConsolidateArgs) -> Outcome {
    let (mut project, _) = load_project(&args.dir)?;
    let mut record = FormalizationRecord::load(&args.dir)?;
    let client = match args.no_llm {
        true => None,
        false => Some(llm_client(&args.llm, project.cache_dir().join("llm"))?),
    };
    let (proposals, refused_replies) =
        gather_proposals(record.as_ref(), &project.model, client.as_ref())
            .map_err(|e| Failure::Input(format!("asking the LLM to consolidate: {e}")))?;
    let proposals = number(proposals);
    let timeout = Duration::from_millis(
        args.timeout_ms
            .unwrap_or(project.settings.solver_timeout_ms),
    );
    let checked = check_proposals(
        &project.model,
        record.as_ref(),
        &project.tests.tests,
        &proposals,
        timeout,
    );

    let mut applied = Vec::new();
    if !args.apply.is_empty() {
        let chosen = chosen(&args.apply, &checked, args.force)?;
        // All or nothing: every chosen proposal applies, or nothing is saved.
        let mut model = project.model.clone();
        for checked in chosen {
            let proposal = &checked.proposal;
            let id = &proposal.id;
            apply(&mut model, record.as_mut(), proposal).map_err(|e| {
                Failure::Input(format!(
                    "--apply {id}: after the proposals before it, it no longer applies: {e}; nothing was saved"
                ))
            })?;
            applied.push(id.clone());
        }
        project.model = model;
        project.save_model()?;
        if let Some(record) = &record {
            record.save(&args.dir)?;
        }
    }

    if args.json {
        print_json(&ConsolidationJson {
            proposals: &checked,
            refused_replies: &refused_replies,
            applied: &applied,
        })?;
    } else {
        print!("{}", text_report(&checked, &refused_replies, &applied));
    }
    Ok(())
}

fn text_report(checked: &[CheckedProposal], refused: &[String], applied: &[String]) -> String {
    let mut out = String::new();
    if checked.is_empty() {
        out.push_str("no consolidation proposals\n");
    }
    for c in checked {
        let state = if applied.contains(&c.proposal.id) {
            " [applied]"
        } else if c.refused.is_some() {
            " [refused]"
        } else if c.inconsistent {
            " [refused unless forced]"
        } else {
            ""
        };
        let _ = writeln!(out, "{}  {}{state}", c.proposal.id, c.summary);
        if !c.proposal.reason.is_empty() {
            let _ = writeln!(out, "    why: {}", c.proposal.reason);
        }
        if let Some(why) = &c.refused {
            let _ = writeln!(out, "    refused: {why}");
            continue;
        }
        for warning in c.warnings() {
            let _ = writeln!(out, "    warning: {warning}");
        }
        for (id, before, after) in &c.rules_changed {
            if before.is_empty() {
                let _ = writeln!(out, "    + {id}: {after}");
            } else {
                let _ = writeln!(out, "    - {id}: {before}");
                let _ = writeln!(out, "    + {id}: {after}");
            }
        }
        if c.flips.is_empty() {
            let _ = writeln!(out, "    tests: none flips");
        } else {
            let flips: Vec<String> = c
                .flips
                .iter()
                .map(|f| format!("{}{}", if f.passes_after { "↑" } else { "↓" }, f.test_id))
                .collect();
            let _ = writeln!(out, "    tests: {}", flips.join(" "));
        }
    }
    for item in refused {
        let _ = writeln!(out, "not a proposal: {item}");
    }
    if !applied.is_empty() {
        let _ = writeln!(out, "applied {} and saved the model", applied.join(", "));
    }
    out
}

impl Chosen for CheckedProposal {
    fn id(&self) -> &str {
        &self.proposal.id
    }
    fn refused(&self) -> Option<&str> {
        self.refused.as_deref()
    }
    fn inconsistent(&self) -> bool {
        self.inconsistent
    }
}
