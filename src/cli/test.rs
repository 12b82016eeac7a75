//! `precept test DIR [--json] [--junit FILE] [--jobs N]`: the logic tests, then the
//! natural-language tests through the answer verifier (k and the threshold
//! from `precept.json`, by default 3 and 3/3; translations cached in
//! `.cache/translations/`). `DIR@N` tests version N, with the project's
//! cache (where `precept diff` finds the translations).

use super::common::{Failure, Outcome, load_project, print_json, start_scheduler};
use super::llm_setup::{LlmArgs, llm_client};
use super::render;
use clap::Args;
use precept_engine::answer::{
    AnswerTestOutcome, AnswerVerifier, Fault, TranslationCache, VerifyOptions, run_answer_tests,
    samples_of,
};
use precept_engine::lifecycle::reference::ModelRef;
use precept_engine::lifecycle::report::figures_cache::{FigureKind, FiguresCache};
use precept_engine::lifecycle::report::quality::TestRow;
use precept_engine::llm::Cancel;
use precept_engine::model::project::{CACHE_DIR, write_atomic};
use precept_engine::model::verdict::verdict;
use precept_engine::model::{AnswerTest, CompiledModel, Project};
use precept_engine::solve::SolverWorker;
use precept_engine::test_runner::{TestOutcome, run_tests_pooled};
use serde_json::json;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The project directory, or DIR@N for its version N
    pub dir: PathBuf,
    /// Print the results as JSON
    #[arg(long)]
    pub json: bool,
    /// Also write a JUnit XML report to this file
    #[arg(long)]
    pub junit: Option<PathBuf>,
    /// Run only the tests whose id or name contains this text
    #[arg(long)]
    pub filter: Option<String>,
    /// The solver deadline per test in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Solver workers to share the logic tests over, by cone (default: the
    /// project's `solver_jobs`, else one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// Skip the natural-language tests (they need an LLM, or --replay with recorded replies)
    #[arg(long)]
    pub skip_nl: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
}

fn selected(filter: &Option<String>, id: &str, name: &str) -> bool {
    filter
        .as_ref()
        .is_none_or(|f| id.contains(f.as_str()) || name.contains(f.as_str()))
}

/// Runs the natural-language tests; when no LLM client can be made, each
/// test is reported as not run, with the reason.
fn run_nl(
    args: &TestArgs,
    project: &Project,
    compiled: &CompiledModel,
    worker: &SolverWorker,
    tests: &[AnswerTest],
    cache: PathBuf,
) -> Vec<AnswerTestOutcome> {
    if tests.is_empty() {
        return Vec::new();
    }
    let client = match llm_client(&args.llm, cache.join("llm")) {
        Ok(client) => Arc::new(client),
        Err(failure) => {
            let reason = match failure {
                Failure::Input(message) => message,
                Failure::Check => "the LLM client could not be made".into(),
            };
            return tests
                .iter()
                .map(|test| {
                    AnswerTestOutcome::not_run(
                        test,
                        format!(
                            "not run: {reason} (or skip natural-language tests with --skip-nl)"
                        ),
                    )
                })
                .collect();
        }
    };
    let verifier = AnswerVerifier::new(
        &project.model,
        compiled,
        samples_of(client, project.settings.answer_translations),
        VerifyOptions {
            threshold: project.settings.answer_threshold,
            ..VerifyOptions::default()
        },
    )
    .with_cache(TranslationCache::in_project_cache(&cache));
    run_answer_tests(&verifier, worker, tests, &mut |_, _| {}, &Cancel::new())
}

pub fn run(args: &TestArgs) -> Outcome {
    // A version is tested in its folder, with the project's cache: the
    // cache is not one of a version's frozen files.
    let reference = ModelRef::parse(&args.dir.to_string_lossy())?;
    let (project, compiled) = load_project(&reference.resolve()?)?;
    let cache = reference.project.join(CACHE_DIR);
    let tests: Vec<_> = project
        .tests
        .tests
        .iter()
        .filter(|t| t.status.counts())
        .filter(|t| selected(&args.filter, &t.id, &t.name))
        .cloned()
        .collect();
    let nl_tests: Vec<AnswerTest> = if args.skip_nl {
        Vec::new()
    } else {
        project
            .tests
            .nl_tests
            .iter()
            .filter(|t| selected(&args.filter, &t.id, &t.name))
            .cloned()
            .collect()
    };
    let pool = start_scheduler(
        &project,
        &compiled,
        args.timeout_ms,
        args.jobs.map(usize::from),
    )?;
    let outcomes = run_tests_pooled(pool.workers(), &compiled, &tests);
    if args.filter.is_none() && reference.version.is_none() {
        // The draft's whole suite: kept for `precept report`, which shows
        // the same rows (never written into a frozen version's folder).
        let rows: Vec<TestRow> = outcomes.iter().map(TestRow::from).collect();
        let timeout_ms = args
            .timeout_ms
            .unwrap_or(project.settings.solver_timeout_ms);
        FiguresCache::file(&project, timeout_ms, FigureKind::Tests, rows);
    }
    let nl_outcomes = run_nl(
        args,
        &project,
        &compiled,
        &pool.workers()[0],
        &nl_tests,
        cache,
    );
    let passed = outcomes.iter().filter(|o| o.passed).count()
        + nl_outcomes.iter().filter(|o| o.passed).count();
    let failed = outcomes.len() + nl_outcomes.len() - passed;
    if let Some(path) = &args.junit {
        write_atomic(
            path,
            junit_xml(&project.dir.display().to_string(), &outcomes, &nl_outcomes).as_bytes(),
        )?;
    }
    // Proposed (generated, unreviewed) tests are not run; they are counted
    // apart so that a suite of them never reads as "0 passed".
    let proposed = project
        .tests
        .tests
        .iter()
        .filter(|t| !t.status.counts())
        .count();
    if args.json {
        let mut summary = json!({
            "passed": passed,
            "failed": failed,
            "proposed": proposed,
            "results": outcomes
        });
        if !nl_outcomes.is_empty() {
            summary["nl_results"] =
                serde_json::to_value(&nl_outcomes).map_err(|e| Failure::Input(e.to_string()))?;
        }
        print_json(&summary)?;
    } else {
        for outcome in &outcomes {
            print!("{}", outcome_text(outcome, &compiled));
        }
        for outcome in &nl_outcomes {
            print!("{}", nl_outcome_text(outcome, &compiled));
        }
        if proposed > 0 {
            println!(
                "({proposed} generated tests are proposed and wait for review: precept review {} --list)",
                args.dir.display()
            );
        }
        println!("{passed} passed, {failed} failed");
    }
    if failed > 0 {
        Err(Failure::Check)
    } else {
        Ok(())
    }
}

/// `T3 name` (or the id alone), as a result line names a test.
fn test_label(id: &str, name: &str) -> String {
    if name.is_empty() {
        id.to_string()
    } else {
        format!("{id} {name}")
    }
}

/// The line of a test that could not run.
fn not_run_line(out: &mut String, label: &str, error: Option<&str>) {
    let _ = writeln!(out, "FAIL {label}: {}", error.unwrap_or("did not run"));
}

fn outcome_text(outcome: &TestOutcome, model: &CompiledModel) -> String {
    let label = test_label(&outcome.id, &outcome.name);
    let mut out = String::new();
    match (&outcome.finding, &outcome.error) {
        (Some(finding), _) if outcome.passed => {
            // The finding's name never stands alone: its verdict follows.
            let _ = writeln!(
                out,
                "PASS {label}: {}: {}",
                finding.kind,
                verdict(finding, &model.glossary)
            );
        }
        (Some(finding), _) => {
            let _ = writeln!(
                out,
                "FAIL {label}: expected {}, got {}",
                outcome.expected, finding.kind
            );
            out.push_str(&render::finding_text(finding, model, 5));
        }
        (None, error) => not_run_line(&mut out, &label, error.as_deref()),
    }
    out
}

fn nl_outcome_text(outcome: &AnswerTestOutcome, model: &CompiledModel) -> String {
    let label = test_label(&outcome.id, &outcome.name);
    let mut out = String::new();
    match (&outcome.actual, &outcome.error) {
        (Some(actual), _) if outcome.passed => match &outcome.report {
            Some(report) => {
                let _ = writeln!(
                    out,
                    "PASS {label}: {actual}: {}",
                    report.verdict(&model.glossary)
                );
            }
            None => {
                let _ = writeln!(out, "PASS {label}: {actual}");
            }
        },
        (Some(actual), _) => {
            let _ = writeln!(
                out,
                "FAIL {label}: expected {}, got {actual}",
                outcome.expected
            );
            if let Some(report) = &outcome.report {
                let _ = writeln!(out, "     {}", report.verdict(&model.glossary));
            }
            if let Some(fault) = &outcome.fault {
                let _ = writeln!(out, "     {}", fault_text(fault));
            }
            if let Some(report) = &outcome.report {
                for line in report.feedback.lines() {
                    let _ = writeln!(out, "     {line}");
                }
            }
        }
        (None, error) => not_run_line(&mut out, &label, error.as_deref()),
    }
    out
}

fn fault_text(fault: &Fault) -> String {
    match fault {
        Fault::Translation { explanation } => {
            format!("the translation is at fault: {explanation}")
        }
        Fault::Rules { explanation, .. } => format!("the rules are at fault: {explanation}"),
        Fault::Solver { explanation } => format!("the solver is at fault: {explanation}"),
    }
}

fn junit_xml(suite: &str, outcomes: &[TestOutcome], nl_outcomes: &[AnswerTestOutcome]) -> String {
    let failures = outcomes.iter().filter(|o| !o.passed).count()
        + nl_outcomes.iter().filter(|o| !o.passed).count();
    let total: f64 = outcomes.iter().map(|o| o.elapsed.as_secs_f64()).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">",
        escape(suite),
        outcomes.len() + nl_outcomes.len()
    );
    for outcome in outcomes {
        let name = if outcome.name.is_empty() {
            outcome.id.clone()
        } else {
            format!("{}: {}", outcome.id, outcome.name)
        };
        let _ = write!(
            xml,
            "  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
            escape(suite),
            escape(&name),
            outcome.elapsed.as_secs_f64()
        );
        if outcome.passed {
            xml.push_str("/>\n");
        } else {
            let message = match (&outcome.finding, &outcome.error) {
                (Some(f), _) => format!("expected {}, got {}", outcome.expected, f.kind),
                (None, e) => e.clone().unwrap_or_default(),
            };
            let _ = writeln!(
                xml,
                ">\n    <failure message=\"{}\"/>\n  </testcase>",
                escape(&message)
            );
        }
    }
    for outcome in nl_outcomes {
        let name = if outcome.name.is_empty() {
            outcome.id.clone()
        } else {
            format!("{}: {}", outcome.id, outcome.name)
        };
        let _ = write!(
            xml,
            "  <testcase classname=\"{}\" name=\"{}\"",
            escape(suite),
            escape(&name)
        );
        if outcome.passed {
            xml.push_str("/>\n");
        } else {
            let message = match (&outcome.actual, &outcome.error) {
                (Some(actual), _) => format!(
                    "expected {}, got {actual}{}",
                    outcome.expected,
                    outcome
                        .fault
                        .as_ref()
                        .map(|f| format!("; {}", fault_text(f)))
                        .unwrap_or_default()
                ),
                (None, error) => error.clone().unwrap_or_default(),
            };
            let _ = writeln!(
                xml,
                ">\n    <failure message=\"{}\"/>\n  </testcase>",
                escape(&message)
            );
        }
    }
    xml.push_str("</testsuite>\n");
    xml
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
