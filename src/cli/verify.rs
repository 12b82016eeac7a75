//! `precept verify DIR --premise EXPR --claim EXPR [--json]`

use super::common::{Failure, Outcome, load_project, print_json, start_solver};
use super::{explain, render};
use clap::Args;
use precept_engine::export::verify_json::verify_json;
use precept_engine::solve::{Defaults, FindingKind, Reading};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The project directory
    pub dir: PathBuf,
    /// The premise, an SMT-LIB Bool expression over the model's variables
    #[arg(long, default_value = "true")]
    pub premise: String,
    /// The claim, an SMT-LIB Bool expression over the model's variables
    #[arg(long)]
    pub claim: String,
    /// Print the finding as JSON
    #[arg(long)]
    pub json: bool,
    /// Exit 1 unless the finding is this one (e.g. VALID)
    #[arg(long, value_parser = parse_finding)]
    pub expect: Option<FindingKind>,
    /// Add the chain of reasoning from the premise to a VALID or INVALID finding
    #[arg(long)]
    pub explain: bool,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Assume nothing: without it, each exception of a definition that the
    /// premise does not mention is assumed absent, and listed with the finding
    #[arg(long)]
    pub strict: bool,
}

pub fn parse_finding(text: &str) -> Result<FindingKind, String> {
    FindingKind::parse(text).ok_or_else(|| {
        let names: Vec<&str> = FindingKind::ALL.iter().map(|k| k.name()).collect();
        format!("expected one of {}", names.join(", "))
    })
}

pub fn run(args: &VerifyArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let (_, premise) = compiled
        .check_formula(&args.premise)
        .map_err(|e| Failure::Input(format!("--premise: {e}")))?;
    let (_, claim) = compiled
        .check_formula(&args.claim)
        .map_err(|e| Failure::Input(format!("--claim: {e}")))?;
    let worker = start_solver(&project, &compiled, args.timeout_ms)?;
    let defaults = Defaults::of(&compiled);
    let finding = defaults.verify(&worker, &premise, &claim, Reading::strict(args.strict));
    // The chain starts from the premise and what the finding assumed.
    let facts = defaults.premise_with(&premise, &finding.assumptions);
    let chain = match args.explain {
        true => explain::finding_chain(&worker, &project, &compiled, facts, &claim, &finding)?,
        false => None,
    };
    if args.json {
        print_json(&verify_json(
            &finding,
            &compiled.glossary,
            args.explain.then(|| explain::chain_json(chain.as_ref())),
        ))?;
    } else {
        print!("{}", render::finding_text(&finding, &compiled, 0));
    }
    if let (false, Some(chain)) = (args.json, &chain) {
        print!("{}", explain::chain_text(chain, 2));
    }
    match args.expect {
        Some(expected) if expected != finding.kind => {
            eprintln!("precept: expected {expected}, got {}", finding.kind);
            Err(Failure::Check)
        }
        _ => Ok(()),
    }
}
