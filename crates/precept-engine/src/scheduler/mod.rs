//! The one pool of solver workers under the three front ends. Every worker
//! has the same model loaded and gets every edit. Work is handed out by
//! policy, never by the caller picking a worker:
//! - a lint run is shared out over all workers by group of rules
//!   (`lint_checks/share.rs`), remembering each group's diagnostics by
//!   content so a lint after an edit checks only what changed;
//! - a test run goes out in shares of one cone each (`test_shares.rs`);
//! - one question is split over two workers, a side each (`verify`);
//! - the service leases a worker to each request and lends an idle one to
//!   a question for its second side (`lending.rs`).
//!
//! Calls that start work do not block: they take the [`JobId`] the caller
//! named the work by, results arrive on the caller's channel, and
//! [`Scheduler::cancel`] stops a job on every worker it went to. Work that
//! waits on an LLM (`engine::jobs`) runs under [`Scheduler::spawn`], so
//! one `cancel(job)` stops any job.

mod lending;
mod test_shares;
mod worker_ref;

pub use lending::{Lease, Loan};
pub use worker_ref::WorkerRef;

use crate::llm::Cancel;
use crate::model::CompiledModel;
use crate::model::finding::{Finding, KnownSides};
use crate::smt::Expr;
use crate::solve::lint_checks::{LintEvent, LintMemo, LintShare, share_out};
use crate::solve::{QuestionClock, SolveError, SolverReply, SolverWorker, Ticket, verify_on_two};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use test_shares::Cones;

/// Tickets of worker `k` start at `k << TICKET_SHIFT` (plus one), so that
/// replies of several workers on one channel never share a ticket and a
/// ticket says which worker to cancel it on.
const TICKET_SHIFT: u32 = 40;

/// One piece of work: a lint run, a test run, a question, an LLM job.
/// Cancelling it stops it on every worker it went to. Numbered once in the
/// process, so a front end can name a job before it hands it over and a
/// result says which request it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct JobId(pub u64);

impl JobId {
    /// A number no other job of this process has.
    pub fn next() -> JobId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        JobId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

pub struct Scheduler {
    workers: Arc<[SolverWorker]>,
    timeout: Duration,
    /// The tickets each job still may have queued.
    jobs: Mutex<HashMap<JobId, Vec<Ticket>>>,
    /// Each group of rules' diagnostics by content.
    memo: Arc<LintMemo>,
    /// The loaded model's rules and graph, to share tests out by cone.
    cones: Mutex<Cones>,
    lending: Arc<lending::Lending>,
    /// The cancel of each job running on a thread of its own (`spawn`).
    running: Arc<Mutex<HashMap<JobId, Cancel>>>,
}

impl Scheduler {
    /// One worker per core the machine offers.
    pub fn default_jobs() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// `jobs` workers (at least one), each with `timeout` per request.
    pub fn new(jobs: usize, timeout: Duration) -> Scheduler {
        let workers: Vec<SolverWorker> =
            SolverWorker::spawn_pool(jobs, timeout, |k| ((k as u64) << TICKET_SHIFT) + 1);
        let count = workers.len();
        Scheduler {
            workers: Arc::from(workers),
            timeout,
            jobs: Mutex::new(HashMap::new()),
            memo: Arc::new(LintMemo::new()),
            cones: Mutex::new(Cones::default()),
            lending: Arc::new(lending::Lending::new(count)),
            running: Arc::default(),
        }
    }

    /// A scheduler with as many workers and the same timeout, for work that
    /// must not hold up this one's (coverage, test generation).
    pub fn alongside(&self) -> Scheduler {
        Scheduler::new(self.len(), self.timeout)
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Every worker, for the analyses that share work out themselves
    /// (coverage, the mutation score, test generation).
    pub fn workers(&self) -> &[SolverWorker] {
        &self.workers
    }

    /// The worker for questions, explanations and the consistency check.
    pub fn main(&self) -> &SolverWorker {
        &self.workers[0]
    }

    /// Waits for a free worker for one request alone; while it waits, the
    /// workers lent to other requests are wanted back. None once closed.
    pub async fn lease(&self) -> Option<Lease> {
        lending::Lending::lease(&self.lending, &self.workers).await
    }

    /// An idle worker to lend to a request that holds a lease already, if
    /// one is free now (never waits).
    pub fn try_lend(&self) -> Option<Loan> {
        lending::Lending::try_lend(&self.lending, &self.workers)
    }

    /// What the lint runs remember: each group of rules' diagnostics by
    /// content.
    pub fn lint_memo(&self) -> &LintMemo {
        &self.memo
    }

    /// Worker `index` (0 is the main one), to be used from another thread.
    pub fn worker(&self, index: usize) -> Option<WorkerRef> {
        (index < self.workers.len()).then(|| WorkerRef {
            workers: Arc::clone(&self.workers),
            index,
        })
    }

    /// Loads `model` on every worker (they load at the same time) and waits.
    pub fn load(&self, model: &CompiledModel) -> Result<(), SolveError> {
        self.cones().load(model);
        std::thread::scope(|scope| {
            let loads: Vec<_> = self
                .workers
                .iter()
                .map(|worker| {
                    let model = model.clone();
                    scope.spawn(move || worker.load(model))
                })
                .collect();
            loads
                .into_iter()
                .map(|load| load.join().unwrap_or(Err(SolveError::WorkerStopped)))
                .collect::<Result<Vec<()>, SolveError>>()
        })?;
        Ok(())
    }

    /// Loads `model` on every worker without waiting.
    pub fn load_in_background(&self, model: CompiledModel) {
        self.cones().load(&model);
        for worker in &self.workers[1..] {
            worker.load_in_background(model.clone());
        }
        self.workers[0].load_in_background(model);
    }

    /// Applies one rule edit on every worker.
    pub fn replace_rule(&self, id: &str, formula: Option<Expr>) {
        for worker in self.workers.iter() {
            worker.replace_rule(id, formula.clone());
        }
        self.cones().replace_rule(id, formula);
    }

    /// Verifies one question and waits for its finding: with two workers
    /// or more, the first two decide a side each (`split_verify.rs`), the
    /// timeout counted from when it was asked.
    pub fn verify(&self, premise: Expr, claim: Expr) -> Finding {
        match &self.workers[..] {
            [first, second, ..] => {
                verify_on_two(first, second, premise, claim, QuestionClock::FromAsking)
            }
            [only] => only.verify(premise, claim),
            [] => Finding::too_complex(
                &premise.to_string(),
                &claim.to_string(),
                "the scheduler has no solver worker",
            ),
        }
    }

    /// Lints `model` on every worker, each taking groups of rules from a
    /// common queue; events stream to `events` in the same order whatever
    /// the number of workers, ending with `Finished`.
    pub fn lint(&self, job: JobId, model: CompiledModel, events: Sender<LintEvent>) {
        let share = LintShare::new(model, self.workers.len(), events);
        let share = share.with_memo(Arc::clone(&self.memo));
        self.record(job, share_out(share, &self.workers));
    }

    /// Queues every test question (`premise`, `claim`, what is known of it
    /// already, and the caller's tag), share by share (`test_shares.rs`);
    /// replies arrive on `reply`. Returns each question's ticket with its
    /// tag (a reply's ticket finds its tag). With
    /// `shared_out` (an edit's rerun, often of one cone) every question
    /// goes to every worker and the first to come to it answers it; the
    /// others' replies say `answered_elsewhere`.
    pub fn run_tests<T: Clone>(
        &self,
        job: JobId,
        questions: Vec<(Expr, Expr, KnownSides, T)>,
        shared_out: bool,
        reply: &Sender<SolverReply>,
    ) -> Vec<(Ticket, T)> {
        let mut tagged = Vec::new();
        self.cones().share_tests(
            &self.workers,
            questions,
            shared_out,
            |worker, premise, claim, known, tag, taken| {
                let ticket = worker.submit_shared(premise, claim, known, taken, reply.clone());
                tagged.push((ticket, tag));
            },
        );
        self.record(job, tagged.iter().map(|(ticket, _)| *ticket).collect());
        tagged
    }

    /// Asks one question on the main worker as part of `job` (after what
    /// the job queued there); the reply arrives on `reply`.
    pub fn ask_main(
        &self,
        job: JobId,
        premise: Expr,
        claim: Expr,
        reply: &Sender<SolverReply>,
    ) -> Ticket {
        let ticket = self.main().submit(premise, claim, reply.clone());
        self.jobs().entry(job).or_default().push(ticket);
        ticket
    }

    /// Runs `work` as `job` on a thread of its own and returns at once:
    /// the jobs that wait on an LLM (`engine::jobs`) and a front end's other
    /// background work. `work` gets the job's cancel, which
    /// [`cancel`](Self::cancel) sets.
    pub fn spawn(&self, job: JobId, work: impl FnOnce(&Cancel) + Send + 'static) {
        let cancel = Cancel::new();
        lock(&self.running).insert(job, cancel.clone());
        let forget = Forget {
            running: Arc::clone(&self.running),
            job,
        };
        std::thread::spawn(move || {
            // Forgotten when the work ends, even by a panic.
            let _forget = forget;
            work(&cancel);
        });
    }

    /// Whether `job`, started by [`spawn`](Self::spawn), is still running.
    pub fn is_running(&self, job: JobId) -> bool {
        lock(&self.running).contains_key(&job)
    }

    /// Stops `job`, whatever it is: on every worker it went to (queued
    /// parts are dropped, a running one is interrupted), and, for a job
    /// started by [`spawn`](Self::spawn), through its cancel.
    pub fn cancel(&self, job: JobId) {
        let tickets = self.jobs().remove(&job).unwrap_or_default();
        for ticket in tickets {
            self.worker_of(ticket).cancel(ticket);
        }
        if let Some(cancel) = lock(&self.running).remove(&job) {
            cancel.cancel();
        }
    }

    /// Forgets `job`, which has finished (nothing of it is left to cancel).
    pub fn finished(&self, job: JobId) {
        self.jobs().remove(&job);
    }

    fn record(&self, job: JobId, tickets: Vec<Ticket>) {
        self.jobs().entry(job).or_default().extend(tickets);
    }

    /// The worker that gave `ticket`.
    fn worker_of(&self, ticket: Ticket) -> &SolverWorker {
        let k = (ticket >> TICKET_SHIFT) as usize;
        self.workers.get(k).unwrap_or(&self.workers[0])
    }

    fn jobs(&self) -> MutexGuard<'_, HashMap<JobId, Vec<Ticket>>> {
        lock(&self.jobs)
    }

    fn cones(&self) -> MutexGuard<'_, Cones> {
        lock(&self.cones)
    }
}

impl Drop for Scheduler {
    /// The jobs it spawned stop with it (the workbench quitting stops its
    /// formalization and answer checks).
    fn drop(&mut self) {
        for (_, cancel) in lock(&self.running).drain() {
            cancel.cancel();
        }
    }
}

/// Forgets a spawned job when dropped.
struct Forget {
    running: Arc<Mutex<HashMap<JobId, Cancel>>>,
    job: JobId,
}

impl Drop for Forget {
    fn drop(&mut self) {
        lock(&self.running).remove(&self.job);
    }
}

/// A lock that survives a thread that panicked holding it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
