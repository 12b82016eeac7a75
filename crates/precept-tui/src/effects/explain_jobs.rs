//! Explanations on the runtime's solver worker (shared with test runs and
//! verify questions): a why-request and a consultant request, each
//! replacing the older one of its kind, which is cancelled.

use crate::state::job_error::{JobError, Unavailable};
use crate::state::msg::Msg;
use precept_engine::explain::job::{ExplainRequest, chain_for_value, explain, no_model};
use precept_engine::explain::relevance::Budget;
use precept_engine::explain::{Chain, Explanation, Propagation};
use precept_engine::model::finding::FindingKind;
use precept_engine::smt::Expr;
use precept_engine::smt::build::not_of;
use precept_engine::solve::{Interruption, Outcome, SolverSession, SolverWorker, Ticket};
use std::collections::HashSet;
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// The two kinds of request: each kind keeps only its newest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The why overlay (a test's chain, or a forced value's).
    Why,
    Consultant,
}

struct Running {
    kind: Kind,
    stamp: Ticket,
    reply: Receiver<Msg>,
}

#[derive(Default)]
pub struct ExplainJobs {
    running: Vec<Running>,
}

impl ExplainJobs {
    /// Queues `task` on the worker, cancelling the older request of `kind`.
    pub fn start(
        &mut self,
        worker: &SolverWorker,
        kind: Kind,
        task: impl FnOnce(Option<&mut SolverSession>, &dyn Interruption) -> Msg + Send + 'static,
    ) {
        self.cancel(worker, kind);
        let (send, reply) = mpsc::channel();
        let stamp = worker.submit_task(Box::new(move |session, interruption| {
            let _ = send.send(task(session, interruption));
        }));
        self.running.push(Running { kind, stamp, reply });
    }

    pub fn cancel(&mut self, worker: &SolverWorker, kind: Kind) {
        self.running.retain(|job| {
            if job.kind == kind {
                // A running explanation is interrupted, a queued one never
                // starts; either way its answer is dropped.
                worker.cancel(job.stamp);
                false
            } else {
                true
            }
        });
    }

    /// Replies that have arrived (a cancelled request answers nothing).
    pub fn poll(&mut self) -> Vec<Msg> {
        let mut messages = Vec::new();
        self.running.retain(|job| match job.reply.try_recv() {
            Ok(message) => {
                messages.push(message);
                false
            }
            Err(TryRecvError::Disconnected) => false,
            Err(TryRecvError::Empty) => true,
        });
        messages
    }

    pub fn is_busy(&self) -> bool {
        !self.running.is_empty()
    }
}

fn run(
    session: Option<&mut SolverSession>,
    interruption: &dyn Interruption,
    premise: Expr,
    claim: Option<Expr>,
    inputs: Vec<String>,
) -> Explanation {
    match session {
        Some(session) => {
            let request = ExplainRequest {
                premise,
                claim,
                inputs,
                budget: Budget::default(),
            };
            explain(session, &request, interruption)
        }
        None => no_model(&premise, claim.as_ref()),
    }
}

/// A test's explanation, and with `locate_parting` the step where its
/// expected and actual findings part ways.
pub fn explain_test(
    stamp: precept_engine::workspace::Stamp,
    premise: Expr,
    claim: Expr,
    inputs: Vec<String>,
    locate_parting: bool,
) -> impl FnOnce(Option<&mut SolverSession>, &dyn Interruption) -> Msg + Send + 'static {
    move |mut session, interruption| {
        let explanation = run(
            session.as_deref_mut(),
            interruption,
            premise.clone(),
            Some(claim.clone()),
            inputs,
        );
        let parting = match (
            locate_parting,
            session,
            &explanation.chain,
            &explanation.finding,
        ) {
            (true, Some(session), Some(chain), Some(finding)) => {
                parting_step(session, interruption, &premise, &claim, finding.kind, chain)
            }
            _ => None,
        };
        Msg::TestExplained {
            stamp,
            explanation: Box::new(explanation),
            parting,
        }
    }
}

/// What the consultant's facts force.
pub fn consult(
    stamp: precept_engine::workspace::Stamp,
    premise: Expr,
    claim: Option<Expr>,
    inputs: Vec<String>,
) -> impl FnOnce(Option<&mut SolverSession>, &dyn Interruption) -> Msg + Send + 'static {
    move |session, interruption| Msg::Consulted {
        stamp,
        explanation: Box::new(run(session, interruption, premise, claim, inputs)),
    }
}

/// The chain of one forced value.
pub fn value_chain(
    stamp: precept_engine::workspace::Stamp,
    premise: Expr,
    propagation: Propagation,
    variable: String,
) -> impl FnOnce(Option<&mut SolverSession>, &dyn Interruption) -> Msg + Send + 'static {
    move |session, interruption| {
        let chain = match session {
            Some(session) => {
                chain_for_value(session, &premise, &propagation, &variable, interruption)
                    .map_err(JobError::of)
            }
            None => Err(JobError::of(Unavailable::NoModel)),
        };
        Msg::ValueChained { stamp, chain }
    }
}

/// The first step of `chain` without which the expected finding could
/// hold: with the rest of the model but that step's rules, the goal can
/// fail. The steps before it also follow from other rules, so this is the
/// first rule the actual finding rests on alone: where the findings part
/// ways. None when every step has other support (or the solver stopped).
pub fn parting_step(
    session: &mut SolverSession,
    interruption: &dyn Interruption,
    premise: &Expr,
    claim: &Expr,
    actual: FindingKind,
    chain: &Chain,
) -> Option<usize> {
    // The goal fails: the claim fails for a VALID chain, holds for an INVALID one.
    let goal_fails = match actual {
        FindingKind::Valid => not_of(claim),
        FindingKind::Invalid => claim.clone(),
        _ => return None,
    };
    let mut variables = premise.symbols();
    variables.extend(claim.symbols());
    let mut query = session.query(&variables, interruption).ok()?;
    let premise = query.fact(premise).ok()?;
    let goal_fails = query.fact(&goal_fails).ok()?;
    let cone = query.rules();
    for (index, step) in chain.steps.iter().enumerate() {
        let without: Vec<usize> = cone
            .iter()
            .filter(|r| !step.rules.contains(&r.id))
            .map(|r| r.position)
            .collect();
        match query.check(&without, &[premise, goal_fails], &HashSet::new()) {
            Ok(Outcome::Sat(_)) => return Some(index),
            Ok(Outcome::Unsat { .. }) => {}
            Err(_) => return None,
        }
    }
    None
}
