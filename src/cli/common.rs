//! What every subcommand shares: how a command fails, loading a project,
//! starting the solver on it, printing JSON.

use std::path::Path;
use std::time::Duration;

use precept_engine::model::{CompiledModel, Project};
use precept_engine::solve::SolverWorker;

/// How a command failed.
#[derive(Debug)]
pub enum Failure {
    /// Bad input or usage: exit 2.
    Input(String),
    /// A test or check failed: exit 1 (the command has printed why).
    Check,
}

impl<E: std::fmt::Display> From<E> for Failure
where
    E: std::error::Error,
{
    fn from(error: E) -> Failure {
        Failure::Input(error.to_string())
    }
}

pub type Outcome = Result<(), Failure>;

/// Loads a project and compiles its model (once: `Project::load` would
/// compile it a second time); any problem is bad input.
pub fn load_project(dir: &Path) -> Result<(Project, CompiledModel), Failure> {
    let project = Project::load_unchecked(dir)?;
    let compiled = project.compile_strict()?;
    Ok((project, compiled))
}

/// Starts a solver with the project's model loaded.
pub fn start_solver(
    project: &Project,
    compiled: &CompiledModel,
    timeout_ms: Option<u64>,
) -> Result<SolverWorker, Failure> {
    let timeout = Duration::from_millis(timeout_ms.unwrap_or(project.settings.solver_timeout_ms));
    let worker = SolverWorker::spawn(timeout);
    worker.load(compiled.clone()).map_err(|e| {
        Failure::Input(format!(
            "{}: cannot load the model into the solver: {e}",
            project.dir.display()
        ))
    })?;
    Ok(worker)
}

/// A scheduler of `jobs` solver workers (default: the project's `solver_jobs`,
/// else one per core), each with the model loaded.
pub fn start_scheduler(
    project: &Project,
    compiled: &CompiledModel,
    timeout_ms: Option<u64>,
    jobs: Option<usize>,
) -> Result<precept_engine::scheduler::Scheduler, Failure> {
    use precept_engine::scheduler::Scheduler;
    let timeout = Duration::from_millis(timeout_ms.unwrap_or(project.settings.solver_timeout_ms));
    let jobs = jobs
        .or(project.settings.solver_jobs)
        .unwrap_or_else(Scheduler::default_jobs);
    let pool = Scheduler::new(jobs, timeout);
    pool.load(compiled).map_err(|e| {
        Failure::Input(format!(
            "{}: cannot load the model into the solver: {e}",
            project.dir.display()
        ))
    })?;
    Ok(pool)
}

/// Prints JSON to stdout.
pub fn print_json(value: &impl serde::Serialize) -> Outcome {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Input(e.to_string()))?;
    println!("{text}");
    Ok(())
}

/// What `--apply ID…` needs to know of a checked proposal.
pub trait Chosen {
    fn id(&self) -> &str;
    /// Why it cannot be applied at all.
    fn refused(&self) -> Option<&str>;
    /// Whether applying it makes the rules contradict each other.
    fn inconsistent(&self) -> bool;
}

/// The proposals `--apply` names, in the order named, each checked: it
/// exists, was not refused, and (unless `force`) keeps the model
/// consistent. The first that fails is the error, and nothing is applied.
pub fn chosen<'a, T: Chosen>(
    ids: &[String],
    checked: &'a [T],
    force: bool,
) -> Result<Vec<&'a T>, Failure> {
    let mut out = Vec::new();
    for id in ids {
        let Some(proposal) = checked.iter().find(|c| c.id() == id) else {
            let known: Vec<&str> = checked.iter().map(Chosen::id).collect();
            return Err(Failure::Input(format!(
                "--apply {id}: there is no proposal {id} (the proposals are {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        if let Some(why) = proposal.refused() {
            return Err(Failure::Input(format!("--apply {id}: refused: {why}")));
        }
        if proposal.inconsistent() && !force {
            return Err(Failure::Input(format!(
                "--apply {id}: it makes the model inconsistent (every question would be IMPOSSIBLE); add --force to apply it anyway"
            )));
        }
        out.push(proposal);
    }
    Ok(out)
}

/// " · budget 30 s, 12 s left" for a progress line, or nothing without a
/// budget.
pub fn budget_left(budget: Option<std::time::Duration>, started: std::time::Instant) -> String {
    budget
        .map(|b| {
            format!(
                " · budget {:.0} s, {:.0} s left",
                b.as_secs_f64(),
                b.saturating_sub(started.elapsed()).as_secs_f64()
            )
        })
        .unwrap_or_default()
}
