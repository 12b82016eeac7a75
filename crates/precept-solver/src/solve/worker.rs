//! The solver worker: a dedicated thread that owns the Z3 context and the
//! loaded model, fed plain-data jobs over a channel. A watchdog thread
//! enforces each request's deadline by interrupting the context (Z3's own
//! timeout parameter alone is not reliable on non-linear problems), and a
//! request can be cancelled the same way.

use super::check_gate::install_gate;
use super::error::SolveError;
use super::formulas::{FormulaQuery, Satisfiability};
use super::group_answers::{GroupAnswers, SharedAnswers};
use super::lint_checks::{LintEvent, LintShare, lint_share};
use super::session::{Interruption, SolverSession};
use super::sides::{Side, SideAnswer, SideVerdict};
use super::watchdog::{
    Deadline, Running, Watch, WatchedRequest, interrupt, out_of_time, run_watchdog,
};
use crate::model::CompiledModel;
use crate::model::finding::{Finding, KnownSides};
use crate::smt::{Expr, Sort};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use super::watchdog::Ticket;

/// The answer to one verify request.
#[derive(Debug, Clone)]
pub struct SolverReply {
    pub ticket: Ticket,
    pub finding: Finding,
    pub elapsed: Duration,
    /// A question queued on several workers (`submit_shared`) that another
    /// worker took first: this reply carries no finding of its own.
    pub answered_elsewhere: bool,
}

/// The answer to one side of a question (`submit_side`).
#[derive(Debug, Clone)]
pub struct SideReply {
    pub ticket: Ticket,
    pub verdict: SideVerdict,
    pub elapsed: Duration,
}

/// The answer to one formula-checking request: a result per query, in order.
#[derive(Debug, Clone)]
pub struct FormulaReply {
    pub ticket: Ticket,
    pub results: Vec<Satisfiability>,
    pub elapsed: Duration,
}

/// A job of many checks run on the loaded session (None when no model is
/// loaded) under one request deadline, stopped by `cancel` like the others;
/// `explain/` runs on the worker this way.
pub type SessionTask = Box<dyn FnOnce(Option<&mut SolverSession>, &dyn Interruption) + Send>;

enum Job {
    Load {
        model: Box<CompiledModel>,
        done: Sender<Result<(), SolveError>>,
    },
    ReplaceRule {
        id: String,
        formula: Option<Expr>,
    },
    DeclareVariable {
        name: String,
        sort: Sort,
    },
    SetTimeout(Duration),
    Lint {
        ticket: Ticket,
        share: Arc<LintShare>,
        role: usize,
    },
    Verify {
        ticket: Ticket,
        premise: Expr,
        claim: Expr,
        known: Box<KnownSides>,
        /// Set by the first worker that comes to a question queued on
        /// several (`submit_shared`).
        taken: Option<Arc<AtomicBool>>,
        /// Where its deadline counts from.
        deadline: Deadline,
        reply: Sender<SolverReply>,
    },
    Side {
        ticket: Ticket,
        premise: Expr,
        claim: Expr,
        side: Side,
        deadline: Deadline,
        reply: Sender<SideReply>,
    },
    Formulas {
        ticket: Ticket,
        queries: Vec<FormulaQuery>,
        reply: Sender<FormulaReply>,
    },
    Task {
        ticket: Ticket,
        task: SessionTask,
    },
}

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

fn run_worker(
    inbox: Receiver<Job>,
    watch: Arc<Watch>,
    mut timeout: Duration,
    answers: Option<SharedAnswers>,
) {
    install_gate(Arc::clone(&watch));
    let watch = watch.as_ref();
    let context = z3::Context::thread_local();
    watch.lock().context = context.get_z3_context().as_ptr() as usize;
    let mut session: Option<SolverSession> = None;
    while let Ok(job) = inbox.recv() {
        handle_job(job, watch, &mut session, &mut timeout, answers.as_ref());
    }
    let mut state = watch.lock();
    state.context = 0;
    state.running = None;
    drop(state);
    drop(session);
}

/// Runs one job. A failure inside Z3 or its bindings must not take the
/// worker down: a verify request gets a TOO_COMPLEX finding saying so, and
/// the model is dropped so the next load starts clean.
fn handle_job(
    job: Job,
    watch: &Watch,
    session: &mut Option<SolverSession>,
    timeout: &mut Duration,
    answers: Option<&SharedAnswers>,
) {
    match job {
        Job::Load { model, done } => {
            *session = None;
            let loaded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                SolverSession::load(&model, timeout.as_millis() as u64)
            }))
            .unwrap_or_else(|_| Err(SolveError::LoadFailed))
            .map(|mut loaded| {
                if let Some(answers) = answers {
                    loaded.share_group_answers(answers.clone());
                }
                loaded
            });
            let result = loaded.as_ref().map(|_| ()).map_err(Clone::clone);
            *session = loaded.ok();
            let _ = done.send(result);
        }
        Job::ReplaceRule { id, formula } => {
            if let Some(current) = session.as_mut() {
                // Formulas arrive type-checked; the old rule is retired first,
                // so even a failed encoding leaves a consistent model.
                let replaced = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    current.replace_rule(&id, formula.as_ref())
                }));
                if replaced.is_err() {
                    *session = None;
                }
            }
        }
        Job::DeclareVariable { name, sort } => {
            if let Some(current) = session.as_mut() {
                current.declare_variable(&name, &sort);
            }
        }
        Job::SetTimeout(new_timeout) => {
            *timeout = new_timeout;
            if let Some(current) = session.as_mut() {
                current.set_timeout(timeout.as_millis() as u64);
            }
        }
        Job::Lint {
            ticket,
            share,
            role,
        } => {
            let started = {
                let mut state = watch.lock();
                if state.cancelled.remove(&ticket) {
                    false
                } else {
                    // No overall deadline: each check is bounded on its own.
                    let forever = Duration::from_secs(365 * 24 * 3600);
                    state.running = Some(Running {
                        ticket,
                        deadline: Instant::now() + forever,
                        timeout: forever,
                        stop_reason: None,
                        check_budget: None,
                        check_deadline: None,
                    });
                    true
                }
            };
            if started {
                watch.wake.notify_all();
                // A failure inside a piece of the run is reported by the
                // share; this catches one between them.
                let timeout_ms = timeout.as_millis() as u64;
                let linted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    lint_share(&share, role, timeout_ms, &WatchedRequest { watch });
                }));
                if linted.is_err() {
                    share.load_failed(role, "the solver failed internally");
                }
                watch.lock().running = None;
            }
            share.worker_done();
        }
        Job::Verify {
            ticket,
            premise,
            claim,
            known,
            taken,
            deadline,
            reply,
        } => {
            let started = Instant::now();
            if taken.is_some_and(|taken| taken.swap(true, Ordering::AcqRel)) {
                let _ = reply.send(SolverReply {
                    ticket,
                    finding: Finding::too_complex(
                        &premise.to_string(),
                        &claim.to_string(),
                        "answered by another worker",
                    ),
                    elapsed: Duration::ZERO,
                    answered_elsewhere: true,
                });
                return;
            }
            let question = Question {
                ticket,
                premise: &premise,
                claim: &claim,
                known: &known,
                deadline,
            };
            let verified = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_verify(watch, session.as_mut(), &question, *timeout)
            }));
            let finding = verified.unwrap_or_else(|_| {
                *session = None;
                watch.lock().running = None;
                Finding::too_complex(
                    &premise.to_string(),
                    &claim.to_string(),
                    "the solver failed internally; reload the model",
                )
            });
            let _ = reply.send(SolverReply {
                ticket,
                finding,
                elapsed: started.elapsed(),
                answered_elsewhere: false,
            });
        }
        Job::Side {
            ticket,
            premise,
            claim,
            side,
            deadline,
            reply,
        } => {
            let started = Instant::now();
            let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_side(
                    watch,
                    session.as_mut(),
                    (ticket, deadline),
                    (&premise, &claim, side),
                    *timeout,
                )
            }));
            let answer = decided.unwrap_or_else(|_| {
                *session = None;
                watch.lock().running = None;
                SideVerdict {
                    side,
                    answer: SideAnswer::Undecided(
                        "the solver failed internally; reload the model".into(),
                    ),
                    warnings: Vec::new(),
                }
            });
            let _ = reply.send(SideReply {
                ticket,
                verdict: answer,
                elapsed: started.elapsed(),
            });
        }
        Job::Formulas {
            ticket,
            queries,
            reply,
        } => {
            let started = Instant::now();
            let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_formulas(watch, session.as_ref(), ticket, &queries, *timeout)
            }));
            let results = checked.unwrap_or_else(|_| {
                *session = None;
                watch.lock().running = None;
                let reason = "the solver failed internally; reload the model";
                vec![Satisfiability::Unknown(reason.into()); queries.len()]
            });
            let _ = reply.send(FormulaReply {
                ticket,
                results,
                elapsed: started.elapsed(),
            });
        }
        Job::Task { ticket, task } => {
            // A failed task drops its reply channel, which its caller reports.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_task(watch, session.as_mut(), ticket, task, *timeout)
            }));
            if ran.is_err() {
                *session = None;
                watch.lock().running = None;
            }
        }
    }
}

fn run_task(
    watch: &Watch,
    session: Option<&mut SolverSession>,
    ticket: Ticket,
    task: SessionTask,
    timeout: Duration,
) {
    {
        let mut state = watch.lock();
        let cancelled = state.cancelled.remove(&ticket);
        state.running = Some(Running {
            ticket,
            deadline: Instant::now() + timeout,
            timeout,
            stop_reason: cancelled.then(|| "cancelled".to_string()),
            check_budget: None,
            check_deadline: None,
        });
    }
    watch.wake.notify_all();
    task(session, &WatchedRequest { watch });
    watch.lock().running = None;
}

fn run_formulas(
    watch: &Watch,
    session: Option<&SolverSession>,
    ticket: Ticket,
    queries: &[FormulaQuery],
    timeout: Duration,
) -> Vec<Satisfiability> {
    let unknown = |reason: &str| vec![Satisfiability::Unknown(reason.to_string()); queries.len()];
    let Some(session) = session else {
        return unknown("no model is loaded");
    };
    if !begin_request(watch, ticket, timeout, Deadline::Fresh) {
        return unknown("cancelled");
    }
    let results = session.check_formulas(queries, &WatchedRequest { watch });
    watch.lock().running = None;
    results
}

/// One verify request: its ticket, premise and claim, and what is already
/// proved of its sides.
struct Question<'a> {
    ticket: Ticket,
    premise: &'a Expr,
    claim: &'a Expr,
    known: &'a KnownSides,
    deadline: Deadline,
}

fn run_verify(
    watch: &Watch,
    session: Option<&mut SolverSession>,
    question: &Question<'_>,
    timeout: Duration,
) -> Finding {
    let Question {
        ticket,
        premise,
        claim,
        known,
        deadline,
    } = *question;
    let (premise_text, claim_text) = (premise.to_string(), claim.to_string());
    let Some(session) = session else {
        return Finding::too_complex(&premise_text, &claim_text, "no model is loaded");
    };
    if !begin_request(watch, ticket, timeout, deadline) {
        return Finding::too_complex(&premise_text, &claim_text, "cancelled");
    }
    let finding = session.verify_knowing(premise, claim, known, &WatchedRequest { watch });
    watch.lock().running = None;
    finding
}

/// One side of a question (`Job::Side`), under the request deadline.
fn run_side(
    watch: &Watch,
    session: Option<&mut SolverSession>,
    (ticket, deadline): (Ticket, Deadline),
    (premise, claim, side): (&Expr, &Expr, Side),
    timeout: Duration,
) -> SideVerdict {
    let undecided = |reason: &str| SideVerdict {
        side,
        answer: SideAnswer::Undecided(reason.to_string()),
        warnings: Vec::new(),
    };
    let Some(session) = session else {
        return undecided("no model is loaded");
    };
    if !begin_request(watch, ticket, timeout, deadline) {
        return undecided("cancelled");
    }
    let verdict = session.verify_side(premise, claim, side, &WatchedRequest { watch });
    watch.lock().running = None;
    verdict
}

/// Starts the watchdog's clock on a request, its deadline counted as
/// `deadline` says: false when it was cancelled before it started (then it
/// must not run). A deadline already past stops the request at its first
/// check.
fn begin_request(watch: &Watch, ticket: Ticket, timeout: Duration, deadline: Deadline) -> bool {
    {
        let mut state = watch.lock();
        if state.cancelled.remove(&ticket) {
            return false;
        }
        let now = Instant::now();
        let deadline = deadline.at(now, timeout);
        state.running = Some(Running {
            ticket,
            deadline,
            timeout,
            stop_reason: (deadline <= now).then(|| out_of_time(timeout)),
            check_budget: None,
            check_deadline: None,
        });
    }
    watch.wake.notify_all();
    true
}
