//! `precept explain DIR --premise P [--claim C] [--json]`: what the premise
//! forces, the chain of reasoning to the claim's finding, and which open
//! inputs would settle an undecided claim.

use super::common::{Failure, Outcome, load_project, print_json, start_solver};
use clap::Args;
use precept_engine::explain::describe::{describe, describe_chain, step_source};
use precept_engine::explain::inputs::inputs;
use precept_engine::explain::job::{self, ExplainRequest, run};
pub use precept_engine::explain::json::{chain_json, explanation_json};
use precept_engine::explain::relevance::Budget;
use precept_engine::explain::{Chain, Explanation, ValueSplit};
use precept_engine::model::finding::{Finding, Value};
use precept_engine::model::verdict::verdict;
use precept_engine::model::{CompiledModel, Project};
use precept_engine::smt::Expr;
use precept_engine::solve::{Defaults, Reading, SolverWorker};
use serde_json::Value as Json;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The project directory
    pub dir: PathBuf,
    /// The facts, an SMT-LIB Bool expression over the model's variables
    #[arg(long)]
    pub premise: String,
    /// A claim to explain: its finding, its chain, or the questions that settle it
    #[arg(long)]
    pub claim: Option<String>,
    /// Print the explanation as JSON
    #[arg(long)]
    pub json: bool,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Assume nothing: without it, the claim is read by default (exceptions
    /// the premise does not mention are assumed absent, listed, and taken
    /// as facts of the chain)
    #[arg(long)]
    pub strict: bool,
}

pub fn run_command(args: &ExplainArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let (_, premise) = compiled
        .check_formula(&args.premise)
        .map_err(|e| Failure::Input(format!("--premise: {e}")))?;
    let claim = match &args.claim {
        Some(text) => Some(
            compiled
                .check_formula(text)
                .map_err(|e| Failure::Input(format!("--claim: {e}")))?
                .1,
        ),
        None => None,
    };
    let worker = start_solver(&project, &compiled, args.timeout_ms)?;
    // The default reading: the finding's assumptions become facts of the
    // explanation, and the finding lists them.
    let defaults = Defaults::of(&compiled);
    let by_default = claim
        .as_ref()
        .map(|c| defaults.verify(&worker, &premise, c, Reading::strict(args.strict)));
    let assumed = by_default
        .as_ref()
        .map(|f| (f.assumptions.clone(), f.assumptions_dropped.clone()))
        .unwrap_or_default();
    let request = ExplainRequest {
        premise: defaults.premise_with(&premise, &assumed.0),
        claim,
        inputs: inputs(&compiled),
        budget: Budget::default(),
    };
    let mut explanation = run(&worker, request).map_err(|e| Failure::Input(e.to_string()))?;
    if let Some(finding) = &mut explanation.finding {
        finding.premise = premise.to_string();
        (finding.assumptions, finding.assumptions_dropped) = assumed;
    }
    describe(
        &mut explanation,
        &compiled,
        &project.model,
        project.document.as_deref(),
    );
    if args.json {
        print_json(&explanation_json(&explanation))?;
    } else {
        print!("{}", explanation_text(&explanation, &compiled));
    }
    if let Some(reason) = &explanation.stopped {
        eprintln!("precept: the explanation is incomplete: {reason}");
    }
    if let Some(rules) = &explanation.propagation.contradiction {
        eprintln!(
            "precept: the premise contradicts the rules {}",
            rules.join(", ")
        );
        return Err(Failure::Check);
    }
    Ok(())
}

/// The chain of a VALID or INVALID finding with its rules' texts
/// (`verify --explain`).
pub fn finding_chain(
    worker: &SolverWorker,
    project: &Project,
    compiled: &CompiledModel,
    premise: Expr,
    claim: &Expr,
    finding: &Finding,
) -> Result<Option<Chain>, Failure> {
    let mut chain = job::finding_chain(worker, premise, claim, finding)
        .map_err(|e| Failure::Input(format!("the chain could not be built: {e}")))?;
    if let Some(chain) = &mut chain {
        describe_chain(chain, compiled, &project.model, project.document.as_deref());
    }
    Ok(chain)
}

/// A finding's JSON with its chain added as `chain`.
pub fn finding_with_chain_json(finding: &Finding, chain: Option<&Chain>) -> Json {
    let mut json = serde_json::to_value(finding).unwrap_or(Json::Null);
    if let Some(object) = json.as_object_mut() {
        object.insert("chain".into(), chain_json(chain));
    }
    json
}

fn list(values: &[Value]) -> String {
    values
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn split_text(split: &ValueSplit) -> String {
    let more = if split.complete { "" } else { ", …" };
    format!(
        "the claim can be true when {v} = {}{more}; false when {v} = {}{more}",
        list(&split.claim_true),
        list(&split.claim_false),
        v = split.variable,
    )
}

/// A chain as text, indented by `indent` spaces.
pub fn chain_text(chain: &Chain, indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut out = String::new();
    let _ = writeln!(out, "{pad}chain to {}:", chain.goal);
    let pairs = |list: &[(String, Value)]| {
        list.iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (number, step) in chain.steps.iter().enumerate() {
        let label = if step.several_rules() {
            " (several rules at once: no single rule suffices)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "{pad}  {}. {}{label}",
            number + 1,
            step.rules.join(", ")
        );
        for text in &step.texts {
            let _ = writeln!(out, "{pad}       {}: {}", text.id, text.smtlib);
            let _ = writeln!(out, "{pad}       {}", text.english);
        }
        let source = step_source(&step.texts);
        if !source.is_empty() {
            let _ = writeln!(out, "{pad}       source: \"{source}\"");
        }
        if !step.uses.is_empty() {
            let _ = writeln!(out, "{pad}       uses {}", pairs(&step.uses));
        }
        if !step.derives.is_empty() {
            let _ = writeln!(out, "{pad}       derives {}", pairs(&step.derives));
        }
    }
    out
}

fn explanation_text(explanation: &Explanation, compiled: &CompiledModel) -> String {
    let mut out = String::new();
    if let Some(finding) = &explanation.finding {
        // The finding's name never stands alone: its verdict follows.
        let _ = writeln!(
            out,
            "{}: {}",
            finding.kind,
            verdict(finding, &compiled.glossary)
        );
    }
    let propagation = &explanation.propagation;
    if let Some(rules) = &propagation.contradiction {
        let _ = writeln!(
            out,
            "IMPOSSIBLE: the premise contradicts {}",
            rules.join(", ")
        );
    }
    let _ = writeln!(out, "forced:");
    for forced in &propagation.forced {
        let why = if forced.rules.is_empty() {
            "the premise".to_string()
        } else {
            forced.rules.join(", ")
        };
        let _ = writeln!(out, "  {} = {}  ({why})", forced.variable, forced.value);
    }
    let _ = writeln!(out, "open: {}", propagation.open.join(", "));
    if let Some(chain) = &explanation.chain {
        out.push_str(&chain_text(chain, 0));
    }
    if let Some(relevance) = &explanation.relevance {
        let _ = writeln!(out, "ask:");
        for ask in &relevance.ask {
            let _ = writeln!(out, "  {}: {}", ask.variables.join(", "), ask.question);
            for split in &ask.splits {
                let _ = writeln!(out, "    {}", split_text(split));
            }
        }
        let _ = writeln!(out, "irrelevant: {}", relevance.irrelevant.join(", "));
    }
    out
}
