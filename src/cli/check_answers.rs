//! `precept check-answers DIR FILE.jsonl --out RESULTS.jsonl [--resume]`:
//! checks many answers, several at a time, each result line the JSON of
//! `precept check-answer --json` with the id first. Progress and the time
//! left go to stderr, a summary of the findings at the end.

use super::batch_lines::{BatchItem, append_line, finished_ids, id_key, read_items};
use super::check_answer::{RedundancyArgs, parse_threshold};
use super::common::{Failure, Outcome, load_project, start_solver};
use super::llm_setup::{LlmArgs, llm_client};
use clap::Args;
use precept_engine::answer::{
    AnswerInput, AnswerReport, AnswerVerifier, Budget, TranslationCache, VerifyOptions, samples_of,
};
use precept_engine::llm::Cancel;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Args)]
pub struct CheckAnswersArgs {
    /// The project directory
    pub dir: PathBuf,
    /// The answers, one JSON object a line: {"id", "question", "answer"}
    pub file: PathBuf,
    /// Where the results go, one JSON object a line
    #[arg(long)]
    pub out: PathBuf,
    /// Continue an interrupted run: skip the ids already in --out
    #[arg(long)]
    pub resume: bool,
    /// Answers checked at the same time (each with a solver of its own)
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    #[command(flatten)]
    pub redundancy: RedundancyArgs,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Assume nothing: without it, each exception of a definition that a
    /// pair's premise does not mention is assumed absent, and listed
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// What became of one answer.
enum Done {
    Checked(Box<BatchItem>, Box<AnswerReport>),
    Failed(Box<BatchItem>, String),
}

pub fn run(args: &CheckAnswersArgs) -> Outcome {
    let threshold = parse_threshold(&args.redundancy.threshold).map_err(Failure::Input)?;
    if args.out.exists() && !args.resume {
        return Err(Failure::Input(format!(
            "--out {}: already exists; pass --resume to continue it, or choose another file",
            args.out.display()
        )));
    }
    let (items, bad) = read_items(&args.file).map_err(Failure::Input)?;
    for line in &bad {
        eprintln!("precept: {line}; skipped");
    }
    let finished = finished_ids(&args.out).map_err(Failure::Input)?;
    let todo: Vec<BatchItem> = items
        .into_iter()
        .filter(|item| !finished.contains(&id_key(&item.id)))
        .collect();
    let skipped = finished.len();
    let (project, compiled) = load_project(&args.dir)?;
    let cache = project.cache_dir();
    let client = Arc::new(llm_client(&args.llm, cache.join("llm"))?);
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| Failure::Input(format!("--out {}: cannot open: {e}", args.out.display())))?;
    let total = todo.len();
    let queue = Arc::new(Mutex::new(todo.into_iter()));
    let (done_to, done) = mpsc::channel();
    let k = args.redundancy.k as usize;
    let jobs = (args.jobs as usize).min(total.max(1));
    let mut threads = Vec::new();
    for _ in 0..jobs {
        let worker = start_solver(&project, &compiled, args.timeout_ms)?;
        let verifier = AnswerVerifier::new(
            &project.model,
            &compiled,
            samples_of(Arc::clone(&client), k),
            VerifyOptions {
                threshold,
                budget: Budget::default(),
                strict: args.strict,
            },
        )
        .with_cache(TranslationCache::in_project_cache(&cache));
        let (queue, done_to) = (Arc::clone(&queue), done_to.clone());
        threads.push(std::thread::spawn(move || {
            loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some(item) = next else { break };
                let input = AnswerInput::new(&item.question, &item.answer);
                let outcome = verifier.verify(&worker, &input, &mut |_| {}, &Cancel::new());
                let message = match outcome {
                    Ok(report) => Done::Checked(Box::new(item), Box::new(report)),
                    Err(e) => Done::Failed(Box::new(item), e.to_string()),
                };
                if done_to.send(message).is_err() {
                    break;
                }
            }
        }));
    }
    drop(done_to);
    let started = Instant::now();
    let mut findings: BTreeMap<String, usize> = BTreeMap::new();
    let mut failed = 0;
    for (count, message) in done.iter().enumerate() {
        match message {
            Done::Checked(item, report) => {
                let line = result_line(&item.id, &report);
                append_line(&mut out, &line).map_err(|e| {
                    Failure::Input(format!("--out {}: cannot write: {e}", args.out.display()))
                })?;
                *findings
                    .entry(report.finding.name().to_string())
                    .or_default() += 1;
            }
            Done::Failed(item, error) => {
                failed += 1;
                eprintln!(
                    "precept: {}:{}: id {}: not checked: {error}",
                    args.file.display(),
                    item.line,
                    item.id
                );
            }
        }
        eprintln!("{}", progress(count + 1, total, started.elapsed()));
    }
    for thread in threads {
        let _ = thread.join();
    }
    eprintln!(
        "{}",
        summary(&findings, skipped, bad.len(), failed, started.elapsed())
    );
    if failed > 0 {
        return Err(Failure::Check);
    }
    Ok(())
}

/// The id first, then the report's fields.
fn result_line(id: &Value, report: &AnswerReport) -> Value {
    let mut line = serde_json::Map::new();
    line.insert("id".into(), id.clone());
    if let Ok(Value::Object(fields)) = serde_json::to_value(report) {
        line.extend(fields);
    }
    Value::Object(line)
}

/// "checked 3/10 (30%), 1.2 answers/s, about 6s left".
fn progress(done: usize, total: usize, elapsed: Duration) -> String {
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-6);
    let left = (total - done) as f64 / rate.max(1e-9);
    format!(
        "checked {done}/{total} ({}%), {rate:.1} answers/s, about {} left",
        done * 100 / total.max(1),
        duration_text(left)
    )
}

fn duration_text(seconds: f64) -> String {
    let seconds = seconds.round() as u64;
    match seconds {
        0..60 => format!("{seconds}s"),
        60..3600 => format!("{}m{:02}s", seconds / 60, seconds % 60),
        _ => format!("{}h{:02}m", seconds / 3600, (seconds % 3600) / 60),
    }
}

fn summary(
    findings: &BTreeMap<String, usize>,
    skipped: usize,
    bad: usize,
    failed: usize,
    elapsed: Duration,
) -> String {
    let checked: usize = findings.values().sum();
    let counts: Vec<String> = findings.iter().map(|(f, n)| format!("{f} {n}")).collect();
    format!(
        "checked {checked} answer(s) in {}: {}; {skipped} already in the results, {bad} bad \
         line(s) skipped, {failed} not checked",
        duration_text(elapsed.as_secs_f64()),
        if counts.is_empty() {
            "nothing new".to_string()
        } else {
            counts.join(", ")
        }
    )
}
