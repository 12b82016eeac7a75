//! `precept probe DIR --target PROFILE [--questions N] [--kinds …]
//! [--follow-ups] [--seed S] [--json] [--junit FILE] [--report FILE.md]
//! [--max-hallucination R] [--max-requests N] [--system-prompt FILE]
//! [--with-document] [--templated]`
//!
//! Tests a chatbot (an `llm.toml` profile of its own) with questions whose
//! answers the solver proved. Exit codes: 0 done, 1 the hallucination rate
//! is above `--max-hallucination`, 2 bad input, or the chatbot failed (the
//! answers so far are printed and stay in the cache).

use super::common::{Failure, Outcome, load_project, print_json, start_solver};
use super::llm_setup::{LlmArgs, llm_client};
use super::probe_report::{junit_xml, markdown, text};
use clap::Args;
use precept_engine::answer::{AnswerVerifier, TranslationCache, VerifyOptions, samples_of};
use precept_engine::llm::{Mode, configured_client};
use precept_engine::model::project::write_atomic;
use precept_engine::probe::ProbeKind;
use precept_engine::probe::chatbot::{Chatbot, probe_concurrency};
use precept_engine::probe::run::{ProbeEvent, ProbeOptions, ProbeSetup, probe};
use std::path::PathBuf;
use std::sync::Arc;

/// Where the chatbot's replies are cached, inside the project's cache
/// (apart from the translator's `llm/`).
pub use precept_engine::jobs::probe::TARGET_CACHE;

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The project directory
    pub dir: PathBuf,
    /// The llm.toml profile of the chatbot under test
    #[arg(long)]
    pub target: String,
    /// How many questions with proved answers (variants and follow-ups come on top)
    #[arg(long, default_value_t = 20)]
    pub questions: usize,
    /// The kinds to ask, comma-separated: single-rule, chain, negation, boundary, numeric, variant, follow-up
    #[arg(long, value_delimiter = ',', value_parser = parse_kind)]
    pub kinds: Vec<ProbeKind>,
    /// Follow up on what each right answer commits to, in the same conversation
    #[arg(long)]
    pub follow_ups: bool,
    /// Picks which questions test generation proposes
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Also write a JUnit XML report (one test case per answer) to this file
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Also write a Markdown report with the failures, their proved chains and sources
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Exit 1 when the hallucination rate is above this share (0 to 1)
    #[arg(long, value_parser = parse_share)]
    pub max_hallucination: Option<f64>,
    /// Stop after this many requests to the servers (both profiles; cached replies are free)
    #[arg(long)]
    pub max_requests: Option<usize>,
    /// The chatbot's system prompt, from this file
    #[arg(long)]
    pub system_prompt: Option<PathBuf>,
    /// Put the policy document into the chatbot's system prompt
    #[arg(long)]
    pub with_document: bool,
    /// Ask only the templated questions (no LLM wording, no round trip)
    #[arg(long)]
    pub templated: bool,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// The translator (verifies answers, words questions)
    #[command(flatten)]
    pub llm: LlmArgs,
}

fn parse_kind(text: &str) -> Result<ProbeKind, String> {
    ProbeKind::parse(text).ok_or_else(|| {
        let names: Vec<&str> = ProbeKind::ALL.iter().map(|k| k.as_str()).collect();
        format!(
            "unknown kind '{text}': expected one of {}",
            names.join(", ")
        )
    })
}

fn parse_share(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if (0.0..=1.0).contains(&value) => Ok(value),
        _ => Err(format!(
            "--max-hallucination {text}: expected a share from 0 to 1, such as 0.05"
        )),
    }
}

pub fn run(args: &ProbeArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let system_prompt = match &args.system_prompt {
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
            Failure::Input(format!(
                "{}: cannot read the system prompt: {e}",
                path.display()
            ))
        })?),
        None => None,
    };
    let document = match (args.with_document, project.document.as_deref()) {
        (false, _) => None,
        (true, Some(document)) => Some(document),
        (true, None) => {
            return Err(Failure::Input(format!(
                "{}: --with-document: the project has no policy document",
                project.dir.display()
            )));
        }
    };
    let cache = project.cache_dir();
    let translator = Arc::new(llm_client(&args.llm, cache.join("llm"))?);
    let mode = args.llm.mode();
    let (target, _) = configured_client(Some(&args.target), mode, cache.join(TARGET_CACHE))
        .map_err(|e| Failure::Input(format!("--target {}: {e}", args.target)))?;
    let concurrency = probe_concurrency(&target, &translator).map_err(|_| {
        Failure::Input(format!(
            "--target {}: the chatbot under test must not be the translator's profile; name \
             another translator with --profile",
            args.target
        ))
    })?;
    let chatbot = Chatbot::new(Arc::new(target), system_prompt.as_deref(), document);
    let worker = start_solver(&project, &compiled, args.timeout_ms)?;
    let verifier = AnswerVerifier::new(
        &project.model,
        &compiled,
        samples_of(translator.clone(), 1),
        VerifyOptions::default(),
    )
    .with_cache(TranslationCache::in_project_cache(&cache));
    let setup = ProbeSetup {
        model: &project.model,
        compiled: &compiled,
        document: project.document.as_deref(),
        worker: &worker,
        chatbot: &chatbot,
        verifier: &verifier,
        translator: (!args.templated).then_some(translator.as_ref()),
        translator_name: translator.profile().name.clone(),
        cancel: None,
    };
    let options = ProbeOptions {
        questions: args.questions,
        kinds: if args.kinds.is_empty() {
            ProbeKind::ALL.to_vec()
        } else {
            args.kinds.clone()
        },
        follow_ups: args.follow_ups,
        seed: args.seed,
        templated: args.templated,
        max_requests: args.max_requests,
        concurrency,
        ..ProbeOptions::default()
    };
    let progress = |event: ProbeEvent| match event {
        ProbeEvent::Planned { questions } => eprintln!("probe: {questions} question(s) planned"),
        ProbeEvent::Discarded { id, reason } => eprintln!("probe: {id} discarded: {reason}"),
        ProbeEvent::Answered {
            result,
            done,
            total,
        } => eprintln!("probe: [{done}/{total}] {} {}", result.id, result.verdict),
        ProbeEvent::Stopped { reason } => eprintln!("probe: stopping: {reason}"),
    };
    let report = probe(&setup, &options, &progress);
    for note in &report.verbalization_notes {
        eprintln!("probe: {note}");
    }
    if let Some(path) = &args.junit {
        write_atomic(
            path,
            junit_xml(&project.dir.display().to_string(), &report).as_bytes(),
        )?;
    }
    if let Some(path) = &args.report {
        write_atomic(path, markdown(&report).as_bytes())?;
    }
    if args.json {
        print_json(&report)?;
    } else {
        print!("{}", text(&report));
    }
    if mode == Mode::Replay && report.stopped.is_some() {
        eprintln!("precept: (replay mode answers only from the cache)");
    }
    if let Some(reason) = &report.stopped
        && !reason.contains("--max-requests")
    {
        return Err(Failure::Input(format!(
            "{reason} (the {} answer(s) so far are reported above and kept in the cache; \
             run again to resume)",
            report.results.len()
        )));
    }
    match args.max_hallucination {
        Some(limit) if report.rates.hallucination.rate > limit => {
            eprintln!(
                "precept: the hallucination rate {:.3} is above --max-hallucination {limit}",
                report.rates.hallucination.rate
            );
            Err(Failure::Check)
        }
        _ => Ok(()),
    }
}
