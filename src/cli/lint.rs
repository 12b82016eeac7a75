//! `precept lint DIR [--json] [--no-solver] [--jobs N] [--budget-s S] [--strict]`

use super::common::{Failure, Outcome, print_json};
use super::render;
use clap::Args;
use precept_engine::lifecycle::report::figures_cache::{FigureKind, FiguresCache};
use precept_engine::lifecycle::report::quality::LintRow;
use precept_engine::lint::full::full_lint_within;
use precept_engine::lint::triage::{test_components, tests_reached, triage};
use precept_engine::lint::{Diagnostic, LintCounts, Severity};
use precept_engine::model::finding::Scenario;
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
    /// Print every diagnostic (by default, the 5 most important of each
    /// kind and a count of the rest; --json always has every one)
    #[arg(long)]
    pub all: bool,
    /// Stop the solver checks cleanly after this many seconds, most useful
    /// checks first, and report what was left unchecked (default: the
    /// project's `budget_s.lint`, else no budget); with --strict, anything
    /// left unchecked fails the run
    #[arg(long, value_name = "SECONDS", value_parser = parse_budget)]
    pub budget_s: Option<f64>,
}

/// A budget in seconds: a positive number.
pub fn parse_budget(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => Ok(seconds),
        _ => Err(format!(
            "expected a positive number of seconds, found '{text}'"
        )),
    }
}

/// Diagnostics of one kind printed without `--all`.
const SHOWN_PER_KIND: usize = 5;

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
    let budget = args
        .budget_s
        .or(project.settings.budget_s.lint)
        .map(Duration::from_secs_f64);
    let show_progress = !args.json && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize, stage: &str| {
        if show_progress {
            let left = super::common::budget_left(budget, started);
            eprint!("\r\x1b[2Klint: {stage} {done}/{total}{left}");
            let _ = std::io::stderr().flush();
        }
    };
    let run = full_lint_within(
        &project.model,
        &compiled,
        pool.as_ref().map(|p| p.workers()),
        budget,
        &progress,
    );
    let diagnostics = run.diagnostics;
    if show_progress && pool.is_some() {
        eprint!("\r\x1b[2K");
    }
    if !args.no_solver && run.unchecked.is_empty() {
        // Kept for `precept report`, which shows the same rows (a lint the
        // budget cut short is not its figure).
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
            triaged_text(&diagnostics, &compiled, &project.tests.tests, args.all)
        );
        println!("{counts}");
        if args.strict && conflicts > 0 {
            println!("--strict: {conflicts} conflicting rule findings");
        }
        if args.strict && !run.unchecked.is_empty() {
            let skipped: Vec<&str> = run.unchecked.iter().map(|u| u.check).collect();
            println!(
                "--strict: the budget left checks undone: {}",
                skipped.join(", ")
            );
        }
    }
    let skipped = args.strict && !run.unchecked.is_empty();
    if counts.errors > 0 || (args.strict && conflicts > 0) || skipped {
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
    all: bool,
) -> String {
    let graph = RuleGraph::build(
        compiled.variables.iter().map(|(n, _)| n.as_str()),
        compiled.rules.iter().map(|r| (r.id.as_str(), &r.formula)),
    );
    let components = test_components(&graph, tests);
    let known = Default::default();
    let reached = |d: &Diagnostic| tests_reached(&graph, &components, &known, d);
    let mut text = String::new();
    let mut shown: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut left: std::collections::BTreeMap<(&str, &str), usize> = Default::default();
    for group in triage(diagnostics, &reached, true).groups {
        let code = group.code.code();
        let count = shown.entry(code).or_default();
        let room = if all {
            group.members.len()
        } else {
            SHOWN_PER_KIND.saturating_sub(*count)
        };
        if room == 0 {
            *left.entry((code, group.code.name())).or_default() += group.members.len();
            continue;
        }
        if group.members.len() > 1 {
            text.push_str(&format!(
                "── {} {} · {}\n",
                code,
                group.code.name(),
                group.subject
            ));
        }
        for &i in group.members.iter().take(room) {
            text.push_str(&diagnostic_text(&diagnostics[i], Some(&graph)));
        }
        *count += group.members.len().min(room);
        let hidden = group.members.len().saturating_sub(room);
        if hidden > 0 {
            *left.entry((code, group.code.name())).or_default() += hidden;
        }
    }
    for ((code, name), count) in left {
        text.push_str(&format!(
            "… {count} more {code} {name} (precept lint --all prints every one)\n"
        ));
    }
    text
}

/// One diagnostic as text; with the rule graph, its scenario shows only
/// the variables of the finding's rules (and the variables it names).
pub fn diagnostic_text(diagnostic: &Diagnostic, graph: Option<&RuleGraph>) -> String {
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
            "the whole model".to_string()
        } else {
            subjects.join(", ")
        }
    );
    text.push_str(&format!("    {}\n", diagnostic.message));
    if let Some(scenario) = &diagnostic.scenario {
        match graph.map(|graph| needed(diagnostic, scenario, graph)) {
            Some(shown) if shown.values.len() < scenario.values.len() => {
                text.push_str(&format!(
                    "    scenario ({} of its {} values: those of the rules named):\n",
                    shown.values.len(),
                    scenario.values.len()
                ));
                text.push_str(&render::scenario_table(&[("value", &shown)], 6));
            }
            _ => {
                text.push_str("    scenario:\n");
                text.push_str(&render::scenario_table(&[("value", scenario)], 6));
            }
        }
    }
    if let Some(fix) = &diagnostic.fix {
        text.push_str(&format!("    fix: {}\n", fix.description));
    }
    for fix in &diagnostic.alternatives {
        text.push_str(&format!("    or:  {}\n", fix.description));
    }
    text
}

/// The values of `scenario` the finding needs: those of the variables its
/// rules mention and of the variables it names, in the scenario's order.
fn needed(diagnostic: &Diagnostic, scenario: &Scenario, graph: &RuleGraph) -> Scenario {
    let mut wanted: std::collections::HashSet<String> =
        diagnostic.variables.iter().cloned().collect();
    for rule in &diagnostic.rules {
        wanted.extend(graph.variables_of(rule));
    }
    Scenario {
        values: scenario
            .values
            .iter()
            .filter(|(name, _)| wanted.contains(name))
            .cloned()
            .collect(),
    }
}
