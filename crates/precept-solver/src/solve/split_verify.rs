//! One question verified on two workers at once: each decides one side
//! (`sides.rs`), so an idle second core halves the wait for a finding.
//! The finding is the one the whole verify gives on either worker.
//!
//! The second worker may be only lent (`LentWorker`): the service lends an
//! idle worker to a question and wants it back as soon as another request
//! needs it. Then the side it was deciding is stopped and decided on the
//! first worker instead, within the question's deadline.

use super::sides::{Side, SideAnswer, SideVerdict, join_sides, known_from_sides};
use super::watchdog::Deadline;
use super::worker::{SideReply, SolverWorker, Ticket};
use crate::model::finding::Finding;
use crate::smt::Expr;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a question waiting on its sides looks whether the lent worker
/// is wanted back or the question was abandoned.
const LOOK_EVERY: Duration = Duration::from_millis(5);

/// A worker lent to one question. Dropping it gives it back to its owner.
pub trait LentWorker {
    fn worker(&self) -> &SolverWorker;
    /// Whether its owner wants it back now.
    fn wanted_back(&self) -> bool;
}

/// A worker of one's own, never wanted back.
impl LentWorker for &SolverWorker {
    fn worker(&self) -> &SolverWorker {
        self
    }

    fn wanted_back(&self) -> bool {
        false
    }
}

/// How a split question's timeout is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionClock {
    /// From when it was asked: time waiting for a worker counts (a service
    /// request's deadline).
    FromAsking,
    /// Solver time only: each side has the whole timeout from when it
    /// starts, and the whole verify that finishes a question what the
    /// slower side left (the workbench, whose workers are busy with the
    /// expert's own runs).
    SolverTime,
}

/// Verifies `premise` ⇒ `claim` with `first` deciding the claim-false side
/// and `second` the claim-true side, and waits for the finding. When the
/// sides leave it to the whole verify (IMPOSSIBLE, or rules that contradict
/// each other), `first` finishes it, taking what the sides proved as known.
pub fn verify_on_two(
    first: &SolverWorker,
    second: &SolverWorker,
    premise: Expr,
    claim: Expr,
    clock: QuestionClock,
) -> Finding {
    verify_split(first, second, &|| false, premise, claim, clock)
}

/// `verify_on_two` with `lent` as the second worker, its timeout counted
/// from when it was asked. It is given back (dropped) as soon as its side
/// is answered. When its owner wants it back first, its side is stopped
/// and then decided on `first`. `abandoned` is looked at while the sides
/// run: true stops both (nobody waits for the finding).
pub fn verify_with_lent(
    first: &SolverWorker,
    lent: impl LentWorker,
    abandoned: &dyn Fn() -> bool,
    premise: Expr,
    claim: Expr,
) -> Finding {
    verify_split(
        first,
        lent,
        abandoned,
        premise,
        claim,
        QuestionClock::FromAsking,
    )
}

fn verify_split(
    first: &SolverWorker,
    lent: impl LentWorker,
    abandoned: &dyn Fn() -> bool,
    premise: Expr,
    claim: Expr,
    clock: QuestionClock,
) -> Finding {
    let asked = Instant::now();
    let side_deadline = match clock {
        QuestionClock::FromAsking => Deadline::AskedAt(asked),
        QuestionClock::SolverTime => Deadline::Fresh,
    };
    // The solver time of the slower side answered so far.
    let mut spent = Duration::ZERO;
    let question = || (premise.clone(), claim.clone());
    let (reply, answers) = mpsc::channel();
    let on_first = first.submit_side(question(), Side::ClaimFalse, side_deadline, reply.clone());
    let on_lent =
        lent.worker()
            .submit_side(question(), Side::ClaimTrue, side_deadline, reply.clone());
    // The sides being decided: each with its ticket and whether on `first`
    // (two workers' tickets may be equal: a reply is known by its side).
    let mut running = vec![
        (Side::ClaimFalse, on_first, true),
        (Side::ClaimTrue, on_lent, false),
    ];
    let mut lent = Some(lent);
    // Held while a side may yet move to `first`.
    let mut reply = Some(reply);
    let (mut claim_false, mut claim_true) = (None, None);
    let (mut recalled, mut stopped) = (false, false);
    while claim_false.is_none() || claim_true.is_none() {
        let SideReply {
            ticket,
            verdict,
            elapsed,
        } = match answers.recv_timeout(LOOK_EVERY) {
            Ok(answer) => answer,
            Err(RecvTimeoutError::Timeout) => {
                if !stopped && abandoned() {
                    stopped = true;
                    for &(_, ticket, on_first) in &running {
                        match (on_first, &lent) {
                            (true, _) => first.cancel(ticket),
                            (false, Some(lent)) => lent.worker().cancel(ticket),
                            (false, None) => {}
                        }
                    }
                } else if !stopped && let Some(wanted) = lent.take_if(|lent| lent.wanted_back()) {
                    // Given back at once; its side moves to `first`.
                    recalled = true;
                    wanted.worker().cancel(on_lent);
                    drop(wanted);
                    running.retain(|&(_, _, on_first)| on_first);
                    if let Some(reply) = reply.take() {
                        let ticket =
                            first.submit_side(question(), Side::ClaimTrue, side_deadline, reply);
                        running.push((Side::ClaimTrue, ticket, true));
                    }
                }
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        spent = spent.max(elapsed);
        let side = verdict.side;
        if side == Side::ClaimTrue && recalled && !stopped && is_stopped(&verdict) {
            // The side of the worker given back, stopped.
            continue;
        }
        // This side is answered: nothing else need decide it.
        let on_first_too =
            |&&(s, t, on_first): &&(Side, Ticket, bool)| s == side && on_first && t != ticket;
        for &(_, other, _) in running.iter().filter(on_first_too) {
            first.cancel(other);
        }
        running.retain(|&(s, _, _)| s != side);
        match side {
            Side::ClaimFalse => claim_false = Some(verdict),
            Side::ClaimTrue => {
                // The lent worker's side is over: it goes back at once.
                lent = None;
                reply = None;
                claim_true = Some(verdict);
            }
        }
    }
    drop(lent);
    let claim_false = claim_false.unwrap_or_else(|| never_answered(Side::ClaimFalse));
    let claim_true = claim_true.unwrap_or_else(|| never_answered(Side::ClaimTrue));
    match join_sides(&premise, &claim, &claim_false, &claim_true) {
        Some(finding) => finding,
        None => first.verify_knowing(
            premise,
            claim,
            known_from_sides(&claim_false, &claim_true),
            match clock {
                QuestionClock::FromAsking => Deadline::AskedAt(asked),
                QuestionClock::SolverTime => Deadline::AfterSpending(spent),
            },
        ),
    }
}

/// Whether a side was stopped before it was decided (by `cancel`).
fn is_stopped(verdict: &SideVerdict) -> bool {
    matches!(&verdict.answer, SideAnswer::Undecided(reason) if reason == "cancelled")
}

/// A side whose worker never answered.
fn never_answered(side: Side) -> SideVerdict {
    SideVerdict {
        side,
        answer: SideAnswer::Undecided("the solver thread stopped".into()),
        warnings: Vec::new(),
    }
}
