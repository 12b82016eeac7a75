//! `precept coverage DIR [--json] [--no-mutation] [--sample N] [--jobs N] [--budget-s S] [--strict]`:
//! the rule coverage of a project's tests and their mutation score (every
//! mutant, unless `--sample N` asks for a quick look; `--max-mutants N` is
//! the same). The tests' coverage checks and the mutants are shared out over the scheduler's solver workers, with
//! progress and the time left on stderr. Coverage is a report, so the exit
//! code is 0 whatever the numbers (2 on bad input).

use super::common::{Outcome, load_project, print_json, start_scheduler};
use clap::Args;
use precept_engine::lifecycle::report::figures_cache::{FigureKind, FiguresCache};
use precept_engine::lifecycle::report::quality::MutationSummary;
use precept_engine::testgen::coverage::{CoverageReport, RuleCoverage, rule_coverage_within};
use precept_engine::testgen::equivalence_cache::EquivalenceCache;
use precept_engine::testgen::mutation::{MutationReport, mutants, spread};
use precept_engine::testgen::mutation_pool::{MutationProgress, mutation_score_within};
use precept_engine::testgen::report_text::percent_text;
use serde_json::json;
use std::fmt::Write;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Print the results as JSON
    #[arg(long)]
    pub json: bool,
    /// Skip the mutation score (rule coverage only)
    #[arg(long)]
    pub no_mutation: bool,
    /// Evaluate at most this many mutants, spread evenly over the model (a
    /// quick look; without it every mutant is evaluated)
    #[arg(long, value_name = "N", alias = "sample")]
    pub max_mutants: Option<usize>,
    /// Solver workers to share the coverage checks and the mutants over (default: the project's
    /// `solver_jobs`, else one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// The solver deadline per question in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Stop cleanly after this many seconds and report what was left: the
    /// tests whose coverage checks had not started, and the mutants not
    /// evaluated (default: the project's `budget_s.coverage`, else no
    /// budget)
    #[arg(long, value_name = "SECONDS", value_parser = super::lint::parse_budget)]
    pub budget_s: Option<f64>,
    /// Fail (exit 1) when the budget left tests or mutants unevaluated
    #[arg(long)]
    pub strict: bool,
}

/// How many test ids a table cell shows before "+n more".
const SHOWN_IDS: usize = 3;

pub fn run(args: &CoverageArgs) -> Outcome {
    let (project, compiled) = load_project(&args.dir)?;
    let jobs = args.jobs.map(usize::from);
    let pool = start_scheduler(&project, &compiled, args.timeout_ms, jobs)?;
    let tests = &project.tests.tests;
    let started = Instant::now();
    let budget = args
        .budget_s
        .or(project.settings.budget_s.coverage)
        .map(std::time::Duration::from_secs_f64);
    let deadline = budget.map(|b| started + b);
    let coverage = rule_coverage_within(pool.workers(), &compiled, tests, &[], deadline);
    let coverage_ms = started.elapsed().as_millis();
    let timeout_ms = args
        .timeout_ms
        .unwrap_or(project.settings.solver_timeout_ms);
    // Kept for `precept report`, which shows the same figures; a coverage
    // the budget cut short is not.
    if coverage.over_budget.is_empty() {
        FiguresCache::file(&project, timeout_ms, FigureKind::Coverage, &coverage);
    }
    let tests_left = coverage.over_budget.len();
    if let Some(budget) = budget.filter(|_| tests_left > 0) {
        eprintln!(
            "Not evaluated within the coverage budget of {} s: {tests_left} test(s) left, listed as over_budget; the rules they exercise are not counted for them (skipped, not passed)",
            budget.as_secs_f64()
        );
    }
    let mutation = if args.no_mutation {
        None
    } else {
        let mutation_started = Instant::now();
        let all = mutants(&compiled);
        let generated = all.len();
        let chosen = match args.max_mutants {
            Some(limit) => spread(all, limit),
            None => all,
        };
        let show = std::io::stderr().is_terminal();
        let progress = |p: MutationProgress| {
            if show {
                let left = super::common::budget_left(budget, started);
                eprint!("\rmutation: {}{left}   ", p.text());
            }
        };
        let cache = EquivalenceCache::of_project(&project.dir);
        let report = mutation_score_within(
            pool.workers(),
            &compiled,
            tests,
            chosen,
            generated,
            &progress,
            &cache,
            deadline,
            None,
        );
        if show {
            eprintln!();
        }
        if let Err(error) = cache.save() {
            eprintln!("warning: the equivalent mutants were not cached: {error}");
        }
        // A score the budget cut short is not the report's figure.
        if report.over_budget == 0 {
            let kind = FigureKind::Mutation(args.max_mutants);
            FiguresCache::file(&project, timeout_ms, kind, MutationSummary::from(&report));
        }
        Some((report, mutation_started.elapsed().as_millis()))
    };
    let cut_short = mutation
        .as_ref()
        .map_or(0, |(report, _)| report.over_budget);
    let failed = args.strict && (cut_short > 0 || tests_left > 0);
    let strict_line = match tests_left {
        0 => format!("--strict: the budget left {cut_short} mutant(s) unevaluated"),
        _ => format!(
            "--strict: the budget left {tests_left} test(s) and {cut_short} mutant(s) unevaluated"
        ),
    };
    if args.json {
        let survivors: Option<Vec<_>> = mutation
            .as_ref()
            .map(|(report, _)| report.survivors().collect());
        print_json(&json!({
            "coverage": coverage,
            "mutation": mutation.as_ref().map(|(report, _)| report),
            "survivors": survivors,
            "elapsed_ms": {
                "coverage": coverage_ms,
                "mutation": mutation.as_ref().map(|(_, ms)| ms),
            },
        }))?;
        if failed {
            eprintln!("{strict_line}");
        }
    } else {
        print!("{}", coverage_text(&coverage));
        if let Some((report, _)) = &mutation {
            print!("{}", mutation_text(report));
        }
        if failed {
            println!("{strict_line}");
        }
    }
    match failed {
        true => Err(super::common::Failure::Check),
        false => Ok(()),
    }
}

fn ids(list: &[String]) -> String {
    if list.is_empty() {
        return "-".into();
    }
    let mut text = list
        .iter()
        .take(SHOWN_IDS)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if list.len() > SHOWN_IDS {
        let _ = write!(text, " +{} more", list.len() - SHOWN_IDS);
    }
    text
}

fn false_cell(rule: &RuleCoverage) -> String {
    if rule.antecedent.is_none() {
        "(no antecedent)".into()
    } else {
        ids(&rule.antecedent_false_by)
    }
}

/// The coverage table, the untouched rules and the totals.
pub fn coverage_text(report: &CoverageReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Rule coverage by {} test(s)", report.tests_used.len());
    for skipped in &report.skipped_tests {
        let _ = writeln!(out, "  skipped {}: {}", skipped.id, skipped.reason);
    }
    let header = [
        "rule",
        "touched",
        "antecedent true by",
        "antecedent false by",
    ];
    let rows: Vec<[String; 4]> = report
        .rules
        .iter()
        .map(|r| {
            let mut touched = if r.touched { "yes" } else { "no" }.to_string();
            if !r.undecided_by.is_empty() {
                let _ = write!(touched, " ({} undecided)", r.undecided_by.len());
            }
            [
                r.id.clone(),
                touched,
                ids(&r.antecedent_true_by),
                false_cell(r),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 4]| {
        let mut text = String::new();
        for (i, (cell, width)) in cells.iter().zip(widths).enumerate() {
            if i + 1 == cells.len() {
                text.push_str(cell);
            } else {
                let _ = write!(text, "{cell:<width$}  ");
            }
        }
        text.trim_end().to_string()
    };
    let _ = writeln!(out, "{}", line(header));
    for row in &rows {
        let _ = writeln!(
            out,
            "{}",
            line([&row[0], &row[1], &row[2], &row[3]].map(String::as_str))
        );
    }
    let untouched = if report.untouched.is_empty() {
        "none".to_string()
    } else {
        report.untouched.join(", ")
    };
    let _ = writeln!(out, "Untouched rules: {untouched}");
    let t = &report.totals;
    let _ = writeln!(
        out,
        "Touched {}/{} ({}), antecedent true {}/{} ({}), antecedent false {}/{} ({}), covered both ways {}/{} ({})",
        t.touched,
        t.rules,
        percent_text(t.touched_percent),
        t.antecedent_true,
        t.rules,
        percent_text(t.antecedent_true_percent),
        t.antecedent_false,
        t.rules_with_antecedent,
        percent_text(t.antecedent_false_percent),
        t.covered,
        t.rules,
        percent_text(t.covered_percent)
    );
    out
}

/// The mutation score and the surviving mutants.
pub fn mutation_text(report: &MutationReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nMutation score: {}", report.summary);
    let (equivalent, weak): (Vec<_>, Vec<_>) = report.survivors().partition(|r| r.equivalent);
    let sections = [
        ("Surviving mutants (places where the suite is weak):", weak),
        (
            "Equivalent mutants (proved to mean the same as the original; no test can kill them):",
            equivalent,
        ),
    ];
    for (title, survivors) in sections {
        if survivors.is_empty() {
            continue;
        }
        let _ = writeln!(out, "{title}");
        for survivor in survivors {
            let m = &survivor.mutant;
            let _ = writeln!(out, "  {} {}: {}", m.rule, m.kind, m.description);
            let _ = writeln!(out, "      {}", m.mutated);
        }
    }
    out
}
