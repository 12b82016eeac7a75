//! `precept eval DIR --qa FILE.jsonl [--json] [--k N] [--threshold T]`
//!
//! Runs every labelled answer through the answer verifier and prints the
//! ARC paper's Table 1 columns (soundness, false-positive rate, precision,
//! recall, F1, accuracy, TP/FP/TN/FN), the counts per finding, how often the
//! k translations differed, and the wrong verdicts, a wrong VALID first.
//! Lines run concurrently (as many at once as the LLM profile's concurrency
//! allows for k translations each); a second run is answered from the
//! translation cache.
//!
//! Exit codes: 0 when every line was checked, 2 on bad input (the line of
//! the file is named) or when the LLM cannot be asked.

use super::check_answer::{RedundancyArgs, parse_threshold};
use super::common::{Failure, Outcome, load_project, print_json, start_solver};
use super::llm_setup::{LlmArgs, llm_client};
use clap::Args;
use precept_engine::answer::eval::{
    EvalResult, LabelledAnswer, Metrics, failures, metrics, read_labelled,
};
use precept_engine::answer::{
    AnswerInput, AnswerVerifier, Budget, TranslationCache, VerifyOptions, samples_of,
};
use precept_engine::llm::Cancel;
use serde::Serialize;
use std::fmt::Write;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The project directory
    pub dir: PathBuf,
    /// The labelled answers: one JSON object a line, {"id", "question", "answer", "label"} (label valid or invalid), optionally "scenario"
    #[arg(long)]
    pub qa: PathBuf,
    /// Print the metrics, every verdict and the failures as JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub redundancy: RedundancyArgs,
    /// How many wrong verdicts to print in full
    #[arg(long, default_value_t = 10)]
    pub show_failures: usize,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Only the strict reading (nothing assumed); by default a model with
    /// definitions is read both ways and the two are reported side by side
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
}

#[derive(Serialize)]
struct EvalJson<'a> {
    /// How `metrics` read each claim: "default" or "strict".
    reading: &'static str,
    metrics: &'a Metrics,
    /// The strict reading's metrics beside the default's (a model with
    /// definitions, read by default).
    #[serde(skip_serializing_if = "Option::is_none")]
    strict_metrics: Option<&'a Metrics>,
    k: u32,
    threshold: f64,
    results: &'a [EvalResult],
    /// The ids of the wrong verdicts, worst first.
    failures: Vec<&'a str>,
}

pub fn run(args: &EvalArgs) -> Outcome {
    let threshold = parse_threshold(&args.redundancy.threshold).map_err(Failure::Input)?;
    let text = std::fs::read(&args.qa)
        .map_err(|e| Failure::Input(format!("{}: {e}", args.qa.display())))?;
    let text = String::from_utf8(text).map_err(|e| {
        Failure::Input(format!(
            "{}: expected UTF-8 text (JSON lines), found a binary file (byte {})",
            args.qa.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    let lines =
        read_labelled(&text).map_err(|e| Failure::Input(format!("{}:{e}", args.qa.display())))?;
    let (project, compiled) = load_project(&args.dir)?;
    let cache = project.cache_dir();
    let client = Arc::new(llm_client(&args.llm, cache.join("llm"))?);
    let parallel = (client.profile().concurrency / args.redundancy.k as usize).max(1);
    let worker = start_solver(&project, &compiled, args.timeout_ms)?;
    let verifier_reading = |strict: bool| {
        AnswerVerifier::new(
            &project.model,
            &compiled,
            samples_of(Arc::clone(&client), args.redundancy.k as usize),
            VerifyOptions {
                threshold,
                budget: Budget::default(),
                strict,
            },
        )
        .with_cache(TranslationCache::in_project_cache(&cache))
    };
    let verifier = verifier_reading(args.strict);
    let show_progress = !args.json && std::io::stderr().is_terminal();
    let results = evaluate(&verifier, &worker, &lines, parallel, show_progress)?;
    let summary = metrics(&results);
    // Both readings, when they can differ: the translations are cached, so
    // the strict one costs only the solver.
    let strict_summary = match !args.strict && !compiled.exceptions.is_empty() {
        true => {
            let strict = verifier_reading(true);
            Some(metrics(&evaluate(
                &strict,
                &worker,
                &lines,
                parallel,
                show_progress,
            )?))
        }
        false => None,
    };
    if args.json {
        print_json(&EvalJson {
            reading: if args.strict { "strict" } else { "default" },
            metrics: &summary,
            strict_metrics: strict_summary.as_ref(),
            k: args.redundancy.k,
            threshold,
            results: &results,
            failures: failures(&results).iter().map(|r| r.id.as_str()).collect(),
        })?;
    } else {
        print!("{}", text_report(&summary, &results, args.show_failures));
        if let Some(strict) = &strict_summary {
            let _ = std::io::Write::flush(&mut std::io::stdout());
            println!(
                "strict reading (no exception assumed absent): soundness {}  precision {}  recall {}  accuracy {}  (default reading above: recall {})",
                percent(strict.soundness),
                percent(strict.precision),
                percent(strict.recall),
                percent(strict.accuracy),
                percent(summary.recall)
            );
        }
    }
    Ok(())
}

/// Verifies every line, `parallel` at a time; results in input order.
fn evaluate(
    verifier: &AnswerVerifier,
    worker: &precept_engine::solve::SolverWorker,
    lines: &[LabelledAnswer],
    parallel: usize,
    show_progress: bool,
) -> Result<Vec<EvalResult>, Failure> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<Result<EvalResult, String>>>> = Mutex::new(vec![None; lines.len()]);
    std::thread::scope(|scope| {
        for _ in 0..parallel.min(lines.len()) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(line) = lines.get(index) else {
                        return;
                    };
                    let input = AnswerInput::new(&line.question, &line.answer);
                    let outcome = verifier
                        .verify(worker, &input, &mut |_| {}, &Cancel::new())
                        .map(|report| EvalResult::new(line, report))
                        .map_err(|e| format!("line \"{}\": {e}", line.id));
                    let failed = outcome.is_err();
                    if let Ok(mut slots) = slots.lock() {
                        slots[index] = Some(outcome);
                    }
                    let finished = done.fetch_add(1, Ordering::SeqCst) + 1;
                    if show_progress {
                        eprintln!("eval: {finished}/{} lines", lines.len());
                    }
                    if failed {
                        // The others would fail the same way (no LLM, no server).
                        next.store(lines.len(), Ordering::SeqCst);
                        return;
                    }
                }
            });
        }
    });
    let slots = slots
        .into_inner()
        .map_err(|_| Failure::Input("an evaluation thread stopped".into()))?;
    let mut results = Vec::with_capacity(lines.len());
    for slot in slots {
        match slot {
            Some(Ok(result)) => results.push(result),
            Some(Err(error)) => return Err(Failure::Input(error)),
            None => {}
        }
    }
    if results.len() != lines.len() {
        return Err(Failure::Input(format!(
            "only {} of {} lines were checked",
            results.len(),
            lines.len()
        )));
    }
    Ok(results)
}

fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// The metrics table, the counts per finding, and the worst failures with
/// their translation, rules and scenario.
pub fn text_report(summary: &Metrics, results: &[EvalResult], show: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} labelled answers", summary.lines);
    let _ = writeln!(
        out,
        "soundness {}  FPR {}  precision {}  recall {}  F1 {}  accuracy {}",
        percent(summary.soundness),
        percent(summary.false_positive_rate),
        percent(summary.precision),
        percent(summary.recall),
        percent(summary.f1),
        percent(summary.accuracy)
    );
    let _ = writeln!(
        out,
        "TP {}  FP {}  TN {}  FN {}",
        summary.true_positives,
        summary.false_positives,
        summary.true_negatives,
        summary.false_negatives
    );
    let counts: Vec<String> = summary
        .findings
        .iter()
        .map(|(finding, n)| format!("{finding} {n}"))
        .collect();
    let _ = writeln!(out, "findings: {}", counts.join(", "));
    let _ = writeln!(
        out,
        "translations differed on {} of {} answers",
        summary.translations_differ, summary.lines
    );
    let wrong = failures(results);
    if wrong.is_empty() {
        return out;
    }
    let _ = writeln!(out, "\n{} wrong verdicts, worst first:", wrong.len());
    for result in wrong.iter().take(show) {
        let _ = writeln!(
            out,
            "{}  labelled {}, got {}",
            result.id,
            serde_json::to_value(result.label)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            result.finding
        );
        let report = &result.report;
        if let Some(pair) = report
            .deciding_pair
            .and_then(|i| report.pairs.get(i))
            .or(report.pairs.first())
        {
            let _ = writeln!(out, "    premise: {}", pair.premise);
            let _ = writeln!(out, "    claim:   {}", pair.claim);
            let evidence = &pair.evidence;
            let rules: Vec<&String> = evidence
                .supporting_rules
                .iter()
                .chain(&evidence.contradicting_rules)
                .collect();
            if !rules.is_empty() {
                let rules: Vec<&str> = rules.iter().map(|r| r.as_str()).collect();
                let _ = writeln!(out, "    rules:   {}", rules.join(", "));
            }
            if let Some(scenario) = evidence
                .claims_true_scenario
                .as_ref()
                .or(evidence.claims_false_scenario.as_ref())
            {
                let values: Vec<String> = scenario
                    .values
                    .iter()
                    .map(|(name, value)| format!("{name} = {value}"))
                    .collect();
                let _ = writeln!(out, "    scenario: {}", values.join(", "));
            }
        } else if let Some(reason) = &report.reason {
            let _ = writeln!(out, "    {reason}");
        }
    }
    if wrong.len() > show {
        let _ = writeln!(out, "… and {} more (--show-failures N)", wrong.len() - show);
    }
    out
}
