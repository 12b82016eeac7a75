//! `precept gen-tests DIR [--max N] [--seed S] [--json] [--save] [--timeout-ms MS] [--budget-s S] [--strict]`
//!
//! Generates tests whose findings are proved by the solver, most informative
//! first, and prints them (premise and claim as SMT-LIB and English, the
//! finding, the rules that justify it and why the test was generated).
//! `--save` appends them to `tests.json` as proposed tests for `precept review`.

use super::common::{Failure, Outcome, load_project, print_json, start_scheduler};
use clap::Args;
use precept_engine::model::{CompiledModel, LogicTest, TestSuite};
use precept_engine::testgen::generate::{GeneratedTest, generate_within, to_proposed};
use serde::Serialize;
use std::collections::HashSet;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct GenTestsArgs {
    /// The project directory
    pub dir: PathBuf,
    /// At most this many tests
    #[arg(long, default_value_t = 50)]
    pub max: usize,
    /// Varies tie-breaking and the Real boundary step (see the docs of
    /// core::testgen::generate); the same seed gives the same tests
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print the tests as a JSON array
    #[arg(long)]
    pub json: bool,
    /// Append the tests to tests.json as proposed tests (skipping any whose
    /// premise and claim the suite already has)
    #[arg(long)]
    pub save: bool,
    /// The solver deadline per question in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Solver workers to share the questions over (default: the project's
    /// `solver_jobs`, else one per core); the tests do not depend on it
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// Stop asking the solver cleanly after this many seconds (the
    /// candidates most likely to teach something are asked first) and
    /// report how many questions were left (default: the project's
    /// `budget_s.gen_tests`, else no budget)
    #[arg(long, value_name = "SECONDS", value_parser = super::lint::parse_budget)]
    pub budget_s: Option<f64>,
    /// Fail (exit 1) when the budget left questions unanswered
    #[arg(long)]
    pub strict: bool,
}

/// One generated test as printed with `--json`.
#[derive(Debug, Serialize)]
struct Printed<'a> {
    /// The id it was saved under (with `--save`), or null.
    id: Option<String>,
    name: &'a str,
    kind: &'a str,
    premise: &'a str,
    premise_english: &'a str,
    claim: &'a str,
    claim_english: &'a str,
    finding: &'a precept_engine::solve::Finding,
    rules: &'a [String],
    targets: &'a [String],
    rationale: &'a str,
    score: f64,
    /// With `--save`: false when the suite already had this premise and claim.
    saved: bool,
}

pub fn run(args: &GenTestsArgs) -> Outcome {
    if args.max == 0 {
        return Err(Failure::Input("--max must be at least 1".into()));
    }
    let (mut project, compiled) = load_project(&args.dir)?;
    let pool = start_scheduler(
        &project,
        &compiled,
        args.timeout_ms,
        args.jobs.map(usize::from),
    )?;
    let budget = args
        .budget_s
        .or(project.settings.budget_s.gen_tests)
        .map(std::time::Duration::from_secs_f64);
    let deadline = budget.map(|b| std::time::Instant::now() + b);
    let (generated, unanswered) =
        generate_within(pool.workers(), &compiled, args.max, args.seed, deadline);
    drop(pool);
    // What the budget left is said on stderr too, so --json stays an array.
    let left_note = budget.filter(|_| unanswered > 0).map(|b| {
        format!(
            "Not asked within the gen-tests budget of {} s: {unanswered} question(s) left unanswered; their tests are missing (skipped, not passed). Give more time with --budget-s (or `budget_s.gen_tests` in precept.json).",
            b.as_secs_f64()
        )
    });

    let mut ids: Vec<Option<String>> = vec![None; generated.len()];
    let mut saved = 0;
    if args.save {
        let mut existing = existing_pairs(&project.tests, &compiled);
        for (test, id) in generated.iter().zip(ids.iter_mut()) {
            let pair = canonical_pair(&compiled, &test.premise, &test.claim);
            if !existing.insert(pair) {
                continue;
            }
            let fresh = project.tests.fresh_id();
            project.tests.tests.push(to_proposed(test, fresh.clone()));
            *id = Some(fresh);
            saved += 1;
        }
        if saved > 0 {
            project.save_tests()?;
        }
    }

    if args.json {
        let printed: Vec<Printed> = generated
            .iter()
            .zip(&ids)
            .map(|(test, id)| Printed {
                id: id.clone(),
                name: &test.name,
                kind: test.kind.name(),
                premise: &test.premise,
                premise_english: &test.premise_english,
                claim: &test.claim,
                claim_english: &test.claim_english,
                finding: &test.finding,
                rules: test.finding.rules(),
                targets: &test.targets,
                rationale: &test.rationale,
                score: test.score,
                saved: id.is_some(),
            })
            .collect();
        print_json(&printed)?;
        if let Some(note) = &left_note {
            eprintln!("{note}");
        }
    } else {
        for (n, (test, id)) in generated.iter().zip(&ids).enumerate() {
            print!("{}", test_text(n + 1, test, id.as_deref(), &compiled));
        }
        println!(
            "{} tests generated ({})",
            generated.len(),
            summary(&generated)
        );
        if args.save {
            println!(
                "{saved} saved to {} as proposed tests; {} already in the suite. Review them with: precept review {} --list",
                project
                    .dir
                    .join(precept_engine::model::project::TESTS_FILE)
                    .display(),
                generated.len() - saved,
                project.dir.display()
            );
        }
        if let Some(note) = &left_note {
            println!("{note}");
        }
    }
    if args.strict && unanswered > 0 {
        eprintln!("--strict: the budget left {unanswered} question(s) unanswered");
        return Err(Failure::Check);
    }
    Ok(())
}

/// Counts per finding, e.g. "3 VALID, 1 INVALID".
fn summary(tests: &[GeneratedTest]) -> String {
    use precept_engine::solve::FindingKind;
    let parts: Vec<String> = FindingKind::ALL
        .iter()
        .filter_map(|kind| {
            let count = tests.iter().filter(|t| t.finding.kind == *kind).count();
            (count > 0).then(|| format!("{count} {kind}"))
        })
        .collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

fn test_text(n: usize, test: &GeneratedTest, id: Option<&str>, model: &CompiledModel) -> String {
    let mut out = String::new();
    let saved = id.map(|id| format!(" [saved as {id}]")).unwrap_or_default();
    let _ = writeln!(
        out,
        "{n}. {} — {} (score {:.2}){saved}",
        test.finding.kind, test.name, test.score
    );
    let _ = writeln!(out, "   premise: {}", test.premise);
    if !test.premise_english.is_empty() && test.premise != "true" {
        let _ = writeln!(out, "            {}", test.premise_english);
    }
    let _ = writeln!(out, "   claim:   {}", test.claim);
    if !test.claim_english.is_empty() {
        let _ = writeln!(out, "            {}", test.claim_english);
    }
    let rules = test.finding.rules();
    if rules.is_empty() {
        let _ = writeln!(out, "   rules:   none (the premise alone decides it)");
    } else {
        let role = match test.finding.kind {
            precept_engine::solve::FindingKind::Valid => "supporting",
            _ => "contradicting",
        };
        let _ = writeln!(out, "   {role} rules:");
        for id in rules {
            let (smt, english) = model
                .rule(id)
                .map(|r| (r.written.to_string(), model.glossary.sentence(&r.written)))
                .unwrap_or_default();
            let _ = writeln!(out, "     {id}: {smt}");
            let _ = writeln!(out, "         {english}");
        }
    }
    let _ = writeln!(out, "   why:     {}", test.rationale);
    out
}

/// A premise and claim in canonical SMT-LIB (as written when it does not parse).
fn canonical_pair(model: &CompiledModel, premise: &str, claim: &str) -> (String, String) {
    let canonical = |text: &str| {
        model
            .check_formula(text)
            .map(|(written, _)| written.to_string())
            .unwrap_or_else(|_| text.trim().to_string())
    };
    (canonical(premise), canonical(claim))
}

fn existing_pairs(suite: &TestSuite, model: &CompiledModel) -> HashSet<(String, String)> {
    suite
        .tests
        .iter()
        .map(|t: &LogicTest| canonical_pair(model, &t.premise, &t.claim))
        .collect()
}
