//! `precept report DIR [--out report.html]`: the report for people who do
//! not use a terminal, one self-contained HTML file. Lint, tests, coverage
//! and the mutation score are reused from earlier runs on exactly this
//! model, tests and settings (`--recompute` to refuse that), else computed
//! on the scheduler's solver workers; versions and sign-offs are checked; the diff against
//! the previous version is proved (or reused on the same terms). Progress
//! goes to stderr, with a final line naming the file. With a budget
//! (`--budget-s`, default `budget_s.report`) the figures computed here stop
//! cleanly when it runs out (the diff is not started once it has), and the
//! report shows what they left, and so does stderr (`--strict`: exit 1).

use super::common::{Failure, Outcome, load_project, start_scheduler};
use clap::Args;
use precept_engine::lifecycle::clock::now_utc;
use precept_engine::lifecycle::report::figures::{
    Figures, MutationChoice, NoDiff, QualitySource, history, quality,
};
use precept_engine::lifecycle::report::figures_cache::FiguresCache;
use precept_engine::lifecycle::report::render;
use precept_engine::model::project::write_atomic;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The project directory
    pub dir: PathBuf,
    /// Where to write the HTML file
    #[arg(long, default_value = "report.html")]
    pub out: PathBuf,
    /// Skip the mutation score (it is the slowest figure on a large model)
    #[arg(long)]
    pub no_mutation: bool,
    /// Score at most this many mutants, spread over the model (without it, every mutant)
    #[arg(long, value_name = "N")]
    pub max_mutants: Option<usize>,
    /// Show the probe results saved from `precept probe --json` in this file
    #[arg(long, value_name = "FILE")]
    pub probe: Option<PathBuf>,
    /// The rule whose part of the model the rule↔variable graph draws
    #[arg(long, value_name = "ID")]
    pub graph_rule: Option<String>,
    /// Solver workers (default: the project's `solver_jobs`, else one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: Option<u16>,
    /// The solver deadline per question in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Compute every figure afresh instead of reusing those that earlier
    /// runs (`precept lint`, `test`, `coverage`, `report`) computed for
    /// exactly this model, tests and settings
    #[arg(long)]
    pub recompute: bool,
    /// Stop computing the figures cleanly after this many seconds; the
    /// report says what was left unchecked (default: the project's
    /// `budget_s.report`, else no budget)
    #[arg(long, value_name = "SECONDS", value_parser = super::lint::parse_budget)]
    pub budget_s: Option<f64>,
    /// Fail (exit 1) when the budget left a figure incomplete (the report
    /// is still written)
    #[arg(long)]
    pub strict: bool,
}

fn read_probe(path: &PathBuf) -> Result<serde_json::Value, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Failure::Input(format!(
            "{}:{}:{}: expected the JSON of `precept probe --json`: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    if value.get("rates").is_none() || !value.get("results").is_some_and(|r| r.is_array()) {
        return Err(Failure::Input(format!(
            "{}: expected the JSON of `precept probe --json` (with \"rates\" and \"results\")",
            path.display()
        )));
    }
    Ok(value)
}

pub fn run(args: &ReportArgs) -> Outcome {
    let probe = args.probe.as_ref().map(read_probe).transpose()?;
    let (project, compiled) = load_project(&args.dir)?;
    if let Some(id) = &args.graph_rule
        && project.model.rule(id).is_none()
    {
        return Err(Failure::Input(format!(
            "--graph-rule {id}: {} has no rule with that id",
            args.dir.display()
        )));
    }
    let started = Instant::now();
    let start = || {
        start_scheduler(
            &project,
            &compiled,
            args.timeout_ms,
            args.jobs.map(usize::from),
        )
    };
    let timeout_ms = args
        .timeout_ms
        .unwrap_or(project.settings.solver_timeout_ms);
    let cache = FiguresCache::of_project(&project);
    let budget = args.budget_s.or(project.settings.budget_s.report);
    let source = QualitySource {
        start_pool: &start,
        cache: (!args.recompute).then_some(&cache),
        timeout_ms,
        deadline: budget.map(|b| started + std::time::Duration::from_secs_f64(b)),
    };
    let mutation = match (args.no_mutation, args.max_mutants) {
        (true, _) => MutationChoice::Skip,
        (false, Some(n)) => MutationChoice::Sample(n),
        (false, None) => MutationChoice::All,
    };
    let progress = |stage: &str| eprintln!("report: {stage}…");
    let quality = quality(&project, &compiled, &source, mutation, &progress)?;
    for left in &quality.cut_short {
        eprintln!(
            "report: the budget of {} s ran out: {left} (skipped, not passed)",
            budget.unwrap_or_default()
        );
    }
    progress("versions, sign-offs and the diff against the previous version");
    let history = history(&args.dir, source.cache, timeout_ms, source.deadline);
    let diff_left = matches!(history.diff, Err(NoDiff::OverBudget));
    if diff_left {
        eprintln!(
            "report: the budget of {} s ran out: the diff against the previous version (skipped, not passed)",
            budget.unwrap_or_default()
        );
    }
    let incomplete = !quality.cut_short.is_empty() || diff_left;
    let figures = Figures {
        generated: now_utc(),
        quality,
        probe,
        history,
    };
    let html = render(&project, &compiled, &figures, args.graph_rule.as_deref());
    write_atomic(&args.out, html.as_bytes())?;
    eprintln!(
        "report: wrote {} ({} KB) in {:.1} s",
        args.out.display(),
        html.len().div_ceil(1024),
        started.elapsed().as_secs_f64()
    );
    if args.strict && incomplete {
        eprintln!("--strict: the budget left figures incomplete");
        return Err(Failure::Check);
    }
    Ok(())
}
