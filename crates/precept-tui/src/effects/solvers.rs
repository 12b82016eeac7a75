//! The workbench's solver workers: the main one (questions, explanations,
//! the consistency check) and helpers, as many as `solver_jobs` asks for
//! beyond it. Every worker has the model loaded and gets every edit; a lint
//! run is shared out over all of them by group of rules (groups whose
//! content an earlier run checked keep their diagnostics), a test run in
//! the shares of `test_runner/shares.rs` (tests of one cone, a few at a
//! time, one after another on one worker in its warm solver of that cone,
//! made afresh for the share), so the findings do not depend on the number
//! of workers, and a rerun of the tests an edit touched finds what a full
//! run would. Such a rerun gives every test to every worker, whichever
//! comes to it first answering it, so both cores work to its end. An edit
//! keeps the warm solvers of the cones it does not touch, and the workers
//! share which groups of rules are consistent (`solve/group_answers.rs`).
//!
//! Each worker numbers its tickets in a range of its own, so replies on one
//! channel never collide and a ticket says which worker to cancel it on.

use crate::state::msg::TestJob;
use precept_engine::model::CompiledModel;
use precept_engine::model::graph::RuleGraph;
use precept_engine::smt::Expr;
use precept_engine::solve::lint_checks::{LintEvent, LintMemo, LintShare};
use precept_engine::solve::{SolverWorker, Ticket};
use precept_engine::test_runner::shares::{shares, start_share, walks};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;
use std::time::Duration;

/// Tickets of worker `k` start at `k << TICKET_SHIFT` (plus one).
const TICKET_SHIFT: u32 = 40;

pub struct Solvers {
    /// Shared so a question read by default can settle its assumptions on
    /// the main worker from a thread of its own.
    workers: Vec<Arc<SolverWorker>>,
    /// The loaded model's declared variables and rules, kept up to date with
    /// the edits, to share tests out by cone.
    variables: Vec<String>,
    rules: Vec<(String, Expr)>,
    graph: Option<RuleGraph>,
    /// Each group of rules' diagnostics by content: a lint after an edit
    /// checks only the groups the edit changed.
    memo: Arc<LintMemo>,
}

impl Solvers {
    /// `jobs` workers (at least one), each with `timeout` per request.
    pub fn spawn(jobs: usize, timeout: Duration) -> Solvers {
        Solvers {
            workers: SolverWorker::spawn_pool(jobs, timeout, |k| ((k as u64) << TICKET_SHIFT) + 1)
                .into_iter()
                .map(Arc::new)
                .collect(),
            variables: Vec::new(),
            rules: Vec::new(),
            graph: None,
            memo: Arc::new(LintMemo::new()),
        }
    }

    /// The worker for questions, explanations and the consistency check.
    pub fn main(&self) -> &SolverWorker {
        &self.workers[0]
    }

    /// The main worker, to be used from another thread.
    pub fn main_shared(&self) -> Arc<SolverWorker> {
        Arc::clone(&self.workers[0])
    }

    /// The worker that decides the other side of the panel's questions,
    /// when there are two, to be used from another thread.
    pub fn second_shared(&self) -> Option<Arc<SolverWorker>> {
        self.workers.get(1).map(Arc::clone)
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// The worker that gave `ticket`.
    fn worker_of(&self, ticket: Ticket) -> &SolverWorker {
        let k = (ticket >> TICKET_SHIFT) as usize;
        self.workers.get(k).unwrap_or(&self.workers[0])
    }

    pub fn cancel(&self, ticket: Ticket) {
        self.worker_of(ticket).cancel(ticket);
    }

    /// Loads `model` on every worker without waiting.
    pub fn load_in_background(&mut self, model: CompiledModel) {
        self.variables = model.variables.iter().map(|(n, _)| n.clone()).collect();
        self.rules = model
            .rules
            .iter()
            .map(|r| (r.id.clone(), r.formula.clone()))
            .collect();
        self.graph = None;
        for worker in &self.workers[1..] {
            worker.load_in_background(model.clone());
        }
        self.workers[0].load_in_background(model);
    }

    /// Applies one rule edit on every worker.
    pub fn replace_rule(&mut self, id: &str, formula: Option<Expr>) {
        for worker in &self.workers {
            worker.replace_rule(id, formula.clone());
        }
        let at = self.rules.iter().position(|(rule, _)| rule == id);
        match (at, &formula) {
            (Some(i), Some(formula)) => {
                self.rules[i].1 = formula.clone();
                // Changed in place: relinked, not built again.
                if let Some(graph) = &mut self.graph
                    && graph.replace_rule(id, formula)
                {
                    return;
                }
            }
            (Some(i), None) => {
                self.rules.remove(i);
            }
            (None, Some(formula)) => self.rules.push((id.to_string(), formula.clone())),
            (None, None) => {}
        }
        self.graph = None;
    }

    /// Lints `model` on every worker; returns their tickets.
    pub fn lint(&self, model: CompiledModel, events: Sender<LintEvent>) -> Vec<Ticket> {
        let share = LintShare::new(model, self.workers.len(), events);
        let share = Arc::new(share.with_memo(Arc::clone(&self.memo)));
        self.workers
            .iter()
            .enumerate()
            .map(|(role, worker)| worker.lint_share(Arc::clone(&share), role))
            .collect()
    }

    /// Queues every job with formulas (`submit(worker, premise, claim, job,
    /// taken)` sends one), share by share (`test_runner/shares.rs`): each
    /// share's jobs in their order on one worker, each share (largest
    /// first) on the worker with the fewest tests so far. With
    /// `shared_out` (an edit's rerun, often of one cone), every job goes to
    /// every worker with one `taken` flag, each worker walking the tests
    /// from its own starting point (`shares::walks`), so every core works
    /// to the end of the run and whichever worker is quicker takes more.
    pub fn share_tests(
        &mut self,
        jobs: Vec<(Expr, Expr, TestJob)>,
        shared_out: bool,
        mut submit: impl FnMut(&SolverWorker, Expr, Expr, TestJob, Option<Arc<AtomicBool>>),
    ) {
        let graph = self.graph.get_or_insert_with(|| {
            RuleGraph::build(
                self.variables.iter().map(String::as_str),
                self.rules.iter().map(|(id, f)| (id.as_str(), f)),
            )
        });
        let questions: Vec<_> = jobs.iter().map(|(p, c, _)| Some((p, c))).collect();
        let plan = shares(graph, &questions);
        if shared_out && self.workers.len() > 1 {
            let taken: Vec<Arc<AtomicBool>> = jobs.iter().map(|_| Arc::default()).collect();
            for (worker, walk) in self.workers.iter().zip(walks(&plan, self.workers.len())) {
                let mut share_started = None;
                for (share, i) in walk {
                    if share_started != Some(share) {
                        start_share(worker);
                        share_started = Some(share);
                    }
                    let (premise, claim, job) = jobs[i].clone();
                    submit(worker, premise, claim, job, Some(Arc::clone(&taken[i])));
                }
            }
            return;
        }
        let mut jobs: Vec<Option<(Expr, Expr, TestJob)>> = jobs.into_iter().map(Some).collect();
        let mut load = vec![0usize; self.workers.len()];
        for share in plan {
            let k = (0..load.len()).min_by_key(|&k| (load[k], k)).unwrap_or(0);
            load[k] += share.len();
            start_share(&self.workers[k]);
            for i in share {
                if let Some((premise, claim, job)) = jobs[i].take() {
                    submit(&self.workers[k], premise, claim, job, None);
                }
            }
        }
    }
}
