//! The solver worker's own thread: it owns the Z3 context and the loaded
//! session, and runs the jobs of its channel one by one, each under the
//! watchdog's deadline (`watchdog.rs`). A failure inside Z3 answers the job
//! and drops the session; it never takes the thread down.

use super::check_gate::install_gate;
use super::error::SolveError;
use super::formulas::{FormulaQuery, Satisfiability};
use super::group_answers::SharedAnswers;
use super::lint_checks::lint_share;
use super::session::SolverSession;
use super::sides::{Side, SideAnswer, SideVerdict};
use super::watchdog::Ticket;
use super::watchdog::{Deadline, Running, Watch, WatchedRequest, out_of_time};
use super::worker_jobs::{FormulaReply, Job, SessionTask, SideReply, SolverReply};
use crate::model::finding::{Finding, KnownSides};
use crate::smt::Expr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

pub(super) fn run_worker(
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
