//! `precept define DIR [--json] [--apply ID…] [--force] [--no-llm]`
//!
//! The definition pass on a project: one definition proposed per decision
//! that several rules decide apart (from the rules' shapes, refined by the
//! LLM unless `--no-llm`), each checked by the solver: whether it applies
//! and type-checks, a scenario each way that the model with it allows and
//! the model without it does not, the tests it flips, whether it makes the
//! model inconsistent, and the impossible situations it removes or adds.
//! `--apply D1 D3` applies those proposals in order and saves the model;
//! one that makes the model inconsistent needs `--force`.

use super::common::{Chosen, Failure, Outcome, chosen, load_project, print_json};
use super::llm_setup::{LlmArgs, llm_client};
use clap::Args;
use precept_engine::define::check::CheckedDefinition;
use precept_engine::define::pass::{definition_pass, meaning};
use precept_engine::model::definition_shapes::decisions;
use precept_engine::scheduler::Scheduler;
use serde::Serialize;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct DefineArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Print the proposals (and what was applied) as JSON
    #[arg(long)]
    pub json: bool,
    /// Apply these proposals (ids as listed, e.g. D1 D3), in order
    #[arg(long, num_args = 1..)]
    pub apply: Vec<String>,
    /// Apply a proposal even when it makes the model inconsistent
    #[arg(long)]
    pub force: bool,
    /// Build each definition from the rules' shapes alone; do not ask the LLM
    #[arg(long)]
    pub no_llm: bool,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Solver workers for the checks (default: the project's solver_jobs, else one per core)
    #[arg(long)]
    pub jobs: Option<u16>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

#[derive(Serialize)]
struct DefineJson<'a> {
    /// The derived Bools the rules' shapes show as decisions (one rule
    /// alone included); `proposals` are those decided by several rules
    /// apart.
    decisions: usize,
    proposals: &'a [CheckedDefinition],
    /// LLM replies that were refused; the shapes' proposal stands for them.
    refused_replies: &'a [String],
    applied: &'a [String],
}

pub fn run(args: &DefineArgs) -> Outcome {
    let (mut project, _) = load_project(&args.dir)?;
    let decision_count = decisions(&project.model).len();
    let timeout = Duration::from_millis(
        args.timeout_ms
            .unwrap_or(project.settings.solver_timeout_ms),
    );
    let client = match args.no_llm {
        true => None,
        false => Some(llm_client(&args.llm, project.cache_dir().join("llm"))?),
    };
    let jobs = args
        .jobs
        .map(usize::from)
        .or(project.settings.solver_jobs)
        .unwrap_or_else(Scheduler::default_jobs);
    let pool = Scheduler::new(jobs, timeout);
    let result = definition_pass(
        &project.model,
        &project.tests.tests,
        project.document.as_deref(),
        client.as_ref(),
        &pool,
        timeout,
    );
    let checked = &result.proposals;
    let mut applied = Vec::new();
    if !args.apply.is_empty() {
        let chosen = chosen(&args.apply, checked, args.force)?;
        // All or nothing: every chosen proposal applies, or nothing is saved.
        let mut model = project.model.clone();
        for checked in chosen {
            let id = &checked.proposal.id;
            checked.proposal.edit().apply(&mut model).map_err(|e| {
                Failure::Input(format!(
                    "--apply {id}: after the proposals before it, it no longer applies: {e}; nothing was saved"
                ))
            })?;
            applied.push(id.clone());
        }
        project.model = model;
        project.save_model()?;
    }
    if args.json {
        print_json(&DefineJson {
            decisions: decision_count,
            proposals: checked,
            refused_replies: &result.refused_replies,
            applied: &applied,
        })?;
    } else {
        print!(
            "{}",
            text_report(checked, &result.refused_replies, &applied)
        );
    }
    Ok(())
}

fn text_report(checked: &[CheckedDefinition], refused: &[String], applied: &[String]) -> String {
    let mut out = String::new();
    if checked.is_empty() {
        out.push_str("no definitions to propose: no decision is decided by several rules apart\n");
    }
    for c in checked {
        let p = &c.proposal;
        let state = if applied.contains(&p.id) {
            " [applied]"
        } else if c.refused.is_some() {
            " [refused]"
        } else if c.inconsistent {
            " [refused unless forced]"
        } else {
            ""
        };
        let d = &p.definition;
        let _ = writeln!(
            out,
            "{}  define {}: {} case(s), {} requirement(s), {} exception(s){}{state}",
            p.id,
            p.variable,
            d.cases.len(),
            d.requirements.len(),
            d.exceptions.len(),
            if d.exhaustive { ", the only cases" } else { "" }
        );
        let _ = writeln!(out, "    replaces: {}", p.replaces.join(", "));
        if let Some(why) = &c.refused {
            let _ = writeln!(out, "    refused: {why}");
            continue;
        }
        for warning in c.warnings() {
            let _ = writeln!(out, "    warning: {warning}");
        }
        for (id, expression) in &c.rules {
            let _ = writeln!(out, "    + {id}: {expression}");
        }
        let _ = writeln!(out, "    meaning: {}", meaning(c.relation));
        if !c.impossible_removed.is_empty() {
            let _ = writeln!(
                out,
                "    no longer impossible: {}",
                c.impossible_removed.join("; ")
            );
        }
        if c.conflicts_after != c.conflicts_before {
            let _ = writeln!(
                out,
                "    conflicting overlaps: {} → {}",
                c.conflicts_before, c.conflicts_after
            );
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
        let _ = writeln!(
            out,
            "LLM reply refused (the shapes' proposal stands): {item}"
        );
    }
    if !applied.is_empty() {
        let _ = writeln!(out, "applied {} and saved the model", applied.join(", "));
    }
    out
}

impl Chosen for CheckedDefinition {
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
