//! The solver worker: a dedicated thread that owns the Z3 context and the
//! loaded model, fed plain-data jobs over a channel. A watchdog thread
//! enforces each request's deadline by interrupting the context (Z3's own
//! timeout parameter alone is not reliable on non-linear problems), and a
//! request can be cancelled the same way.

use super::error::SolveError;
use super::formulas::{FormulaQuery, Satisfiability};
use super::group_answers::{GroupAnswers, SharedAnswers};
use super::lint_checks::{LintEvent, LintShare};
use super::sides::Side;
use super::watchdog::{Deadline, Watch, interrupt, run_watchdog};
use super::worker_thread::run_worker;
use crate::model::CompiledModel;
use crate::model::finding::{Finding, KnownSides};
use crate::smt::{Expr, Sort};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

pub use super::watchdog::Ticket;

use super::worker_jobs::Job;
pub use super::worker_jobs::{FormulaReply, SessionTask, SideReply, SolverReply};

/// A handle to the solver thread. Dropping it stops the thread.
pub struct SolverWorker {
    jobs: Option<Sender<Job>>,
    watch: Arc<Watch>,
    next_ticket: AtomicU64,
    threads: Vec<JoinHandle<()>>,
}

impl SolverWorker {
    /// Starts the worker and its watchdog. `timeout` is each request's
    /// deadline. A lone worker shares the groups' answers with no other.
    pub fn spawn(timeout: Duration) -> SolverWorker {
        SolverWorker::start(timeout, 1, None)
    }

    /// The `jobs` workers of a pool (at least one): worker `k`'s tickets
    /// count up from `first_ticket(k)`, so that several workers answering on
    /// one channel never give two requests one ticket, and with more than
    /// one, the models they load share which groups of rules are consistent
    /// (`group_answers.rs`).
    pub fn spawn_pool(
        jobs: usize,
        timeout: Duration,
        first_ticket: impl Fn(usize) -> Ticket,
    ) -> Vec<SolverWorker> {
        let answers = (jobs > 1).then(|| Arc::new(GroupAnswers::new()));
        (0..jobs.max(1))
            .map(|k| {
                let shared = answers.as_ref().map(GroupAnswers::join);
                SolverWorker::start(timeout, first_ticket(k), shared)
            })
            .collect()
    }

    fn start(
        timeout: Duration,
        first_ticket: Ticket,
        answers: Option<SharedAnswers>,
    ) -> SolverWorker {
        let (jobs, inbox) = mpsc::channel();
        let watch = Arc::new(Watch::default());
        let worker_watch = Arc::clone(&watch);
        let worker = std::thread::Builder::new()
            .name("precept-solver".into())
            .spawn(move || run_worker(inbox, worker_watch, timeout, answers))
            .expect("cannot start the solver thread");
        let dog_watch = Arc::clone(&watch);
        let watchdog = std::thread::Builder::new()
            .name("precept-solver-watchdog".into())
            .spawn(move || run_watchdog(&dog_watch))
            .expect("cannot start the solver watchdog");
        SolverWorker {
            jobs: Some(jobs),
            watch,
            next_ticket: AtomicU64::new(first_ticket.max(1)),
            threads: vec![worker, watchdog],
        }
    }

    fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            // A send fails only when the thread is gone; requests then see
            // their reply channel close, which callers report.
            let _ = jobs.send(job);
        }
    }

    /// Queues the job `make` builds around a new ticket; returns the ticket.
    fn queue(&self, make: impl FnOnce(Ticket) -> Job) -> Ticket {
        let ticket = self.next_ticket.fetch_add(1, Ordering::Relaxed);
        self.send(make(ticket));
        ticket
    }

    /// Loads (or reloads) a whole model and waits until it is asserted.
    pub fn load(&self, model: CompiledModel) -> Result<(), SolveError> {
        let (done, finished) = mpsc::channel();
        self.send(Job::Load {
            model: Box::new(model),
            done,
        });
        finished.recv().unwrap_or(Err(SolveError::WorkerStopped))
    }

    /// Loads a whole model without waiting; requests sent after it run on the
    /// new model (a failed load makes them report that no model is loaded).
    pub fn load_in_background(&self, model: CompiledModel) {
        let (done, _) = mpsc::channel();
        self.send(Job::Load {
            model: Box::new(model),
            done,
        });
    }

    /// Swaps one rule's guarded assertion (None removes the rule).
    pub fn replace_rule(&self, id: &str, formula: Option<Expr>) {
        self.send(Job::ReplaceRule {
            id: id.to_string(),
            formula,
        });
    }

    pub fn declare_variable(&self, name: &str, sort: Sort) {
        self.send(Job::DeclareVariable {
            name: name.to_string(),
            sort,
        });
    }

    pub fn set_timeout(&self, timeout: Duration) {
        self.send(Job::SetTimeout(timeout));
    }

    /// Queues a verify request; its reply arrives on `reply`.
    pub fn submit(&self, premise: Expr, claim: Expr, reply: Sender<SolverReply>) -> Ticket {
        self.queue_verify(
            premise,
            claim,
            KnownSides::default(),
            (None, Deadline::Fresh),
            reply,
        )
    }

    /// `submit`, with the sides of the question already proved
    /// (`SolverSession::verify_knowing`): only the others are checked,
    /// under what is left of the question's deadline (`deadline`).
    pub fn submit_knowing(
        &self,
        (premise, claim): (Expr, Expr),
        known: KnownSides,
        deadline: Deadline,
        reply: Sender<SolverReply>,
    ) -> Ticket {
        self.queue_verify(premise, claim, known, (None, deadline), reply)
    }

    /// `submit_knowing` for a question queued on several workers with the
    /// same `taken` flag, so whichever comes to it first answers it: the
    /// others reply at once with `answered_elsewhere`. A run shared so
    /// keeps both cores busy to its end, whichever worker is slower.
    pub fn submit_shared(
        &self,
        premise: Expr,
        claim: Expr,
        known: KnownSides,
        taken: Option<Arc<AtomicBool>>,
        reply: Sender<SolverReply>,
    ) -> Ticket {
        self.queue_verify(premise, claim, known, (taken, Deadline::Fresh), reply)
    }

    fn queue_verify(
        &self,
        premise: Expr,
        claim: Expr,
        known: KnownSides,
        (taken, deadline): (Option<Arc<AtomicBool>>, Deadline),
        reply: Sender<SolverReply>,
    ) -> Ticket {
        self.queue(|ticket| Job::Verify {
            ticket,
            premise,
            claim,
            known: Box::new(known),
            taken,
            deadline,
            reply,
        })
    }

    /// Queues one side of a question (`SolverSession::verify_side`), under
    /// the usual request timeout, counted as `deadline` says (the question
    /// may already have used some of it); its answer arrives on `reply`.
    pub fn submit_side(
        &self,
        (premise, claim): (Expr, Expr),
        side: Side,
        deadline: Deadline,
        reply: Sender<SideReply>,
    ) -> Ticket {
        self.queue(|ticket| Job::Side {
            ticket,
            premise,
            claim,
            side,
            deadline,
            reply,
        })
    }

    /// Queues a lint of `model` (in a fresh session, so edits in flight do
    /// not disturb it); events stream to `events`, ending with `Finished`.
    /// Each check gets the usual deadline; `cancel(ticket)` stops the run.
    pub fn lint(&self, model: CompiledModel, events: Sender<LintEvent>) -> Ticket {
        self.lint_share(Arc::new(LintShare::new(model, 1, events)), 0)
    }

    /// Queues this worker's part (`role`, counted from 0) of a lint run
    /// shared among several workers (see `lint_checks/share.rs`).
    pub fn lint_share(&self, share: Arc<LintShare>, role: usize) -> Ticket {
        self.queue(|ticket| Job::Lint {
            ticket,
            share,
            role,
        })
    }

    /// Verifies and waits for the finding.
    pub fn verify(&self, premise: Expr, claim: Expr) -> Finding {
        self.verify_knowing(premise, claim, KnownSides::default(), Deadline::Fresh)
    }

    /// `verify`, with the sides of the question already proved
    /// (`submit_knowing`), and waits for the finding; a question finished
    /// here after its sides were decided elsewhere (`split_verify.rs`)
    /// keeps the deadline it had (`deadline`).
    pub fn verify_knowing(
        &self,
        premise: Expr,
        claim: Expr,
        known: KnownSides,
        deadline: Deadline,
    ) -> Finding {
        let (reply, answer) = mpsc::channel();
        let premise_text = premise.to_string();
        let claim_text = claim.to_string();
        self.queue_verify(premise, claim, known, (None, deadline), reply);
        match answer.recv() {
            Ok(reply) => reply.finding,
            Err(_) => Finding::too_complex(&premise_text, &claim_text, "the solver thread stopped"),
        }
    }

    /// Queues the satisfiability of stand-alone formulas over the loaded
    /// model's vocabulary, without its rules (see `formulas.rs`); the whole
    /// batch shares one request deadline.
    pub fn submit_formulas(
        &self,
        queries: Vec<FormulaQuery>,
        reply: Sender<FormulaReply>,
    ) -> Ticket {
        self.queue(|ticket| Job::Formulas {
            ticket,
            queries,
            reply,
        })
    }

    /// Queues a task over the session; it sends its own reply. Cancelled
    /// before it starts, it still runs, with every check answering
    /// "cancelled".
    pub fn submit_task(&self, task: SessionTask) -> Ticket {
        self.queue(|ticket| Job::Task { ticket, task })
    }

    /// Decides the formulas and waits for the results.
    pub fn check_formulas(&self, queries: Vec<FormulaQuery>) -> Vec<Satisfiability> {
        let count = queries.len();
        let (reply, answer) = mpsc::channel();
        self.submit_formulas(queries, reply);
        match answer.recv() {
            Ok(reply) => reply.results,
            Err(_) => vec![Satisfiability::Unknown("the solver thread stopped".into()); count],
        }
    }

    /// Cancels a request: a running one is interrupted, a queued one is
    /// answered TOO_COMPLEX ("cancelled") without being run.
    pub fn cancel(&self, ticket: Ticket) {
        let mut state = self.watch.lock();
        match &mut state.running {
            Some(running) if running.ticket == ticket => {
                running.stop_reason = Some("cancelled".into());
                interrupt(&mut state);
            }
            _ => {
                state.cancelled.insert(ticket);
            }
        }
    }
}

impl SolverWorker {
    /// Cancels whatever request is running now (a caller that owns the
    /// worker alone, such as a service lease, need not know its ticket);
    /// nothing happens when the worker is idle.
    pub fn cancel_running(&self) {
        let mut state = self.watch.lock();
        if let Some(running) = &mut state.running {
            running.stop_reason = Some("cancelled".into());
            interrupt(&mut state);
        }
    }
}

impl Drop for SolverWorker {
    fn drop(&mut self) {
        self.jobs = None;
        {
            let mut state = self.watch.lock();
            state.shutdown = true;
            if let Some(running) = &mut state.running {
                running.stop_reason = Some("shutting down".into());
            }
            interrupt(&mut state);
        }
        self.watch.wake.notify_all();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
