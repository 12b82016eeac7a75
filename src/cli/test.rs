//! `precept test DIR [--json] [--junit FILE]`

use super::{Failure, Outcome, load_project, print_json, render, start_solver};
use crate::core::model::project::write_atomic;
use crate::core::test_runner::{TestOutcome, run_tests};
use clap::Args;
use serde_json::json;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The project directory
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
}

pub fn run(args: &TestArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let tests: Vec<_> = project
        .tests
        .tests
        .iter()
        .filter(|t| t.status.counts())
        .filter(|t| {
            args.filter
                .as_ref()
                .is_none_or(|f| t.id.contains(f.as_str()) || t.name.contains(f.as_str()))
        })
        .cloned()
        .collect();
    let worker = start_solver(&project, &compiled, args.timeout_ms)?;
    let outcomes = run_tests(&worker, &compiled, &tests);
    let passed = outcomes.iter().filter(|o| o.passed).count();
    let failed = outcomes.len() - passed;
    if let Some(path) = &args.junit {
        write_atomic(
            path,
            junit_xml(&project.dir.display().to_string(), &outcomes).as_bytes(),
        )?;
    }
    if args.json {
        print_json(&json!({ "passed": passed, "failed": failed, "results": outcomes }))?;
    } else {
        for outcome in &outcomes {
            print!("{}", outcome_text(outcome, &compiled));
        }
        let proposed = project
            .tests
            .tests
            .iter()
            .filter(|t| !t.status.counts())
            .count();
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

fn outcome_text(outcome: &TestOutcome, model: &crate::core::model::CompiledModel) -> String {
    let label = if outcome.name.is_empty() {
        outcome.id.clone()
    } else {
        format!("{} {}", outcome.id, outcome.name)
    };
    let mut out = String::new();
    match (&outcome.finding, &outcome.error) {
        (Some(finding), _) if outcome.passed => {
            let _ = writeln!(out, "PASS {label}: {}", finding.kind);
        }
        (Some(finding), _) => {
            let _ = writeln!(
                out,
                "FAIL {label}: expected {}, got {}",
                outcome.expected, finding.kind
            );
            out.push_str(&render::finding_text(finding, model, 5));
        }
        (None, error) => {
            let _ = writeln!(
                out,
                "FAIL {label}: {}",
                error.as_deref().unwrap_or("did not run")
            );
        }
    }
    out
}

fn junit_xml(suite: &str, outcomes: &[TestOutcome]) -> String {
    let failures = outcomes.iter().filter(|o| !o.passed).count();
    let total: f64 = outcomes.iter().map(|o| o.elapsed.as_secs_f64()).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" time=\"{total:.3}\">",
        escape(suite),
        outcomes.len()
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
    xml.push_str("</testsuite>\n");
    xml
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
