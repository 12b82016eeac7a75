//! The command line: one file per subcommand. Exit codes: 0 ok, 1 a failing
//! test or check, 2 bad input or usage.

pub mod batch_lines;
pub mod check_answer;
pub mod check_answers;
pub mod common;
pub mod consolidate;
pub mod coverage;
pub mod define;
pub mod diff;
pub mod eval;
pub mod explain;
pub mod export;
pub mod export_arc;
pub mod export_bundle;
pub mod formalize;
pub mod generate_tests;
pub mod import;
pub mod import_arc;
pub mod import_dmn;
pub mod lint;
pub mod llm_setup;
pub mod probe;
pub mod probe_report;
pub mod render;
pub mod report;
pub mod review;
pub mod serve;
pub mod serve_guard;
pub mod show;
pub mod signoff;
pub mod test;
pub mod verify;
pub mod version;

use clap::{Parser, Subcommand};
use common::Failure;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "precept", version, about = "Vet policy models with an SMT solver", long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the workbench on a project (the default, on the current directory)
    Open(OpenArgs),
    /// Turn an SMT-LIB file (declarations and assertions) into a policy project
    Import(import::ImportArgs),
    /// Formalize a policy document into a new project, span by span with an LLM
    Formalize(formalize::FormalizeArgs),
    /// Propose and apply links that unify a formalized model's vocabulary (same meaning, opposite, implies, one of)
    Consolidate(consolidate::ConsolidateArgs),
    /// Propose and apply one definition per decision (cases, requirements, exceptions) in place of the rules that decide it apart
    Define(define::DefineArgs),
    /// Check a claim under a premise against a project's model
    Verify(verify::VerifyArgs),
    /// What a premise forces, the chain of reasoning to a claim, and the questions that would settle it
    Explain(explain::ExplainArgs),
    /// Check a natural-language answer against a project's model (LLM translation ×k, then the solver)
    CheckAnswer(check_answer::CheckAnswerArgs),
    /// Check many answers from a JSONL file ({"id", "question", "answer"} a line), several at a time
    CheckAnswers(check_answers::CheckAnswersArgs),
    /// Score the answer verifier on labelled answers (JSONL): soundness, FPR, precision, recall, F1, accuracy
    Eval(eval::EvalArgs),
    /// Run a project's logic tests
    Test(test::TestArgs),
    /// Print a project's model
    Show(show::ShowArgs),
    /// Write a project's model as SMT-LIB or JSON
    Export(export::ExportArgs),
    /// Lint a project's model: syntactic and solver-backed checks
    Lint(lint::LintArgs),
    /// Generate tests whose findings are proved by the solver
    GenTests(generate_tests::GenTestsArgs),
    /// Accept or reject proposed (generated) tests
    Review(review::ReviewArgs),
    /// Rule coverage of the tests, and their mutation score
    Coverage(coverage::CoverageArgs),
    /// Test a chatbot (an llm.toml profile) with proved questions, variants and follow-ups
    Probe(probe::ProbeArgs),
    /// Serve a vetted model over HTTP: verify, check-answer, explain; hot reload; the guard proxy
    Serve(serve::ServeArgs),
    /// Freeze the draft's model, tests and document as the next immutable version
    Version(version::VersionArgs),
    /// List a project's versions: dates, notes, hashes and sign-offs
    Versions(version::VersionsArgs),
    /// What changed between two models (folders or DIR@N): text, behaviour proved by the solver, flipped tests
    Diff(diff::DiffArgs),
    /// Make the reviewer's Ed25519 signing key in the user's config folder
    Keygen(signoff::KeygenArgs),
    /// Record a reviewer's approval of a version (DIR@N), signed with the reviewer's key
    Sign(signoff::SignArgs),
    /// Check every sign-off against the files as they are now
    VerifySignatures(signoff::VerifySignaturesArgs),
    /// Write the report for readers without a terminal: one self-contained HTML file
    Report(report::ReportArgs),
}

/// Runs a parsed command line and maps the outcome to an exit code.
pub fn run(command: Command) -> ExitCode {
    let outcome = match command {
        Command::Open(args) => return open(&args.dir),
        Command::Import(args) => import::run(&args),
        Command::Formalize(args) => formalize::run(&args),
        Command::Consolidate(args) => consolidate::run(&args),
        Command::Define(args) => define::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Explain(args) => explain::run_command(&args),
        Command::CheckAnswer(args) => check_answer::run(&args),
        Command::CheckAnswers(args) => check_answers::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Test(args) => test::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Lint(args) => lint::run(&args),
        Command::GenTests(args) => generate_tests::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Coverage(args) => coverage::run(&args),
        Command::Probe(args) => probe::run(&args),
        Command::Serve(args) => serve::run_command(&args),
        Command::Version(args) => version::run(&args),
        Command::Versions(args) => version::run_list(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Keygen(args) => signoff::run_keygen(&args),
        Command::Sign(args) => signoff::run_sign(&args),
        Command::VerifySignatures(args) => signoff::run_verify(&args),
        Command::Report(args) => report::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Check) => ExitCode::from(1),
        Err(Failure::Input(message)) => {
            eprintln!("precept: {message}");
            ExitCode::from(2)
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct OpenArgs {
    /// The project directory
    #[arg(default_value = ".")]
    pub dir: PathBuf,
}

/// Opens the workbench, after checking that `dir` holds a project.
pub fn open(dir: &Path) -> ExitCode {
    if !dir
        .join(precept_engine::model::project::MODEL_FILE)
        .is_file()
    {
        eprintln!(
            "precept: {}: not a policy project (no {}). Open one with: precept open samples/park-admission",
            dir.display(),
            precept_engine::model::project::MODEL_FILE
        );
        return ExitCode::from(2);
    }
    precept_tui::run(dir)
}
