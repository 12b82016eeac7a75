//! `precept lint DIR [--json] [--no-solver] [--jobs N]`

use super::common::{Failure, Outcome, print_json};
use super::render;
use clap::Args;
use precept_engine::lifecycle::report::figures_cache::{FigureKind, FiguresCache};
use precept_engine::lifecycle::report::quality::LintRow;
use precept_engine::lint::full::full_lint;
use precept_engine::lint::triage::{test_components, tests_reached, triage};
use precept_engine::lint::{Diagnostic, LintCounts, Severity};
use precept_engine::model::graph::RuleGraph;
use precept_engine::model::{CompiledModel, LogicTest, Project, compile};
use precept_engine::scheduler::Scheduler;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct LintArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Print the diagnostics as JSON
    #[arg(long)]
    pub json: bool,
    /// Only the syntactic checks (no solver)
    #[arg(long)]
    pub no_solver: bool,
    /// The deadline of each solver check in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Solver workers to share the groups of rules over (default: the
    /// project's `solver_jobs`, else one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// Also fail (exit 1) when rules conflict: an inconsistent policy,
    /// conflicting overlaps, shadowed exceptions, impossible situations
    #[arg(long)]
    pub strict: bool,
}

pub fn run(args: &LintArgs) -> Outcome {
    // The linter reports rules that do not check, so the model is loaded without requiring it.
    let project = Project::load_unchecked(&args.dir)?;
    let compiled = compile(&project.model);
    let timeout_ms = args
        .timeout_ms
        .unwrap_or(project.settings.solver_timeout_ms);
    let pool = (!args.no_solver).then(|| {
        let jobs = args
            .jobs
            .map(usize::from)
            .or(project.settings.solver_jobs)
            .unwrap_or_else(Scheduler::default_jobs);
        // Each worker loads the model itself when the lint starts.
        Scheduler::new(jobs, Duration::from_millis(timeout_ms))
    });
    let show_progress = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = |done: usize, total: usize, stage: &str| {
        if show_progress {
            eprint!("\r\x1b[2Klint: {stage} {done}/{total}");
            let _ = std::io::stderr().flush();
        }
    };
    let diagnostics = full_lint(
        &project.model,
        &compiled,
        pool.as_ref().map(|p| p.workers()),
        &progress,
    );
    if show_progress && pool.is_some() {
        eprint!("\r\x1b[2K");
    }
    if !args.no_solver {
        // Kept for `precept report`, which shows the same rows.
        let rows: Vec<LintRow> = diagnostics.iter().map(LintRow::from).collect();
        FiguresCache::file(&project, timeout_ms, FigureKind::Lint, rows);
    }
    let counts = LintCounts::of(&diagnostics);
    let conflicts = diagnostics.iter().filter(|d| d.code.is_conflict()).count();
    if args.json {
        print_json(&diagnostics)?;
    } else {
        print!(
            "{}",
            triaged_text(&diagnostics, &compiled, &project.tests.tests)
        );
        println!("{counts}");
        if args.strict && conflicts > 0 {
            println!("--strict: {conflicts} conflicting rule findings");
        }
    }
    if counts.errors > 0 || (args.strict && conflicts > 0) {
        Err(Failure::Check)
    } else {
        Ok(())
    }
}

/// The diagnostics in the vetting screen's order (`lint/triage.rs`): errors
/// first, then what reaches most rules and tests; the members of a group
/// (gaps, conflicts deciding the same variables) together under one line
/// that names them all; notes last.
fn triaged_text(
    diagnostics: &[Diagnostic],
    compiled: &CompiledModel,
    tests: &[LogicTest],
) -> String {
    let graph = RuleGraph::build(
        compiled.variables.iter().map(|(n, _)| n.as_str()),
        compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    );
    let components = test_components(&graph, tests);
    let reached = |d: &Diagnostic| tests_reached(&graph, &components, d);
    let mut text = String::new();
    for group in triage(diagnostics, &reached, true).groups {
        if group.members.len() > 1 {
            text.push_str(&format!(
                "── {} {} · {}\n",
                group.code.code(),
                group.code.name(),
                group.subject
            ));
        }
        for &i in &group.members {
            text.push_str(&diagnostic_text(&diagnostics[i]));
        }
    }
    text
}

pub fn diagnostic_text(diagnostic: &Diagnostic) -> String {
    let severity = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    };
    let mut subjects: Vec<String> = diagnostic.rules.clone();
    subjects.extend(diagnostic.variables.iter().cloned());
    let mut text = format!(
        "{severity} {} {}: {}\n",
        diagnostic.code.code(),
        diagnostic.name,
        if subjects.is_empty() {
            String::new()
        } else {
            subjects.join(", ")
        }
    );
    text.push_str(&format!("    {}\n", diagnostic.message));
    if let Some(scenario) = &diagnostic.scenario {
        text.push_str("    scenario:\n");
        text.push_str(&render::scenario_table(&[("value", scenario)], 6));
    }
    if let Some(fix) = &diagnostic.fix {
        text.push_str(&format!("    fix: {}\n", fix.description));
    }
    for fix in &diagnostic.alternatives {
        text.push_str(&format!("    or:  {}\n", fix.description));
    }
    text
}
