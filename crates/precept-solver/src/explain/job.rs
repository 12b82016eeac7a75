//! One explain request, run on the solver worker under the usual deadline
//! (and cancellable like any request), or directly on a session.

use super::propagate::{Scope, propagate};
use super::relevance::{Budget, relevance};
use super::{Chain, Explanation, Propagation, chain};
use crate::model::finding::{Finding, FindingKind};
use crate::smt::Expr;
use crate::smt::build::not_of;
use crate::solve::{Interruption, SolveError, SolverSession, SolverWorker, Ticket};
use std::sync::mpsc::{self, Sender};

/// What to explain: the facts, and optionally a claim.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainRequest {
    /// An elaborated Bool formula.
    pub premise: Expr,
    pub claim: Option<Expr>,
    /// The model's input variables (`inputs::inputs`).
    pub inputs: Vec<String>,
    pub budget: Budget,
}

/// Runs a request on a session.
pub fn explain(
    session: &mut SolverSession,
    request: &ExplainRequest,
    interruption: &dyn Interruption,
) -> Explanation {
    let finding = request
        .claim
        .as_ref()
        .map(|claim| session.verify(&request.premise, claim, interruption));
    let mut explanation = Explanation {
        finding,
        propagation: Propagation::default(),
        chain: None,
        relevance: None,
        stopped: None,
    };
    if let Err(error) = fill(session, request, interruption, &mut explanation) {
        explanation.stopped = Some(error.to_string());
    }
    explanation
}

fn fill(
    session: &mut SolverSession,
    request: &ExplainRequest,
    interruption: &dyn Interruption,
    explanation: &mut Explanation,
) -> Result<(), SolveError> {
    let mut variables: Vec<&str> = request.premise.symbols();
    if let Some(claim) = &request.claim {
        variables.extend(claim.symbols());
    }
    let mut query = session.query(&variables, interruption)?;
    let scope = Scope::new(&mut query, &request.premise)?;
    explanation.propagation = propagate(&mut query, &scope)?;
    let (Some(claim), Some(finding)) = (&request.claim, &explanation.finding) else {
        return Ok(());
    };
    match finding.kind {
        FindingKind::Valid | FindingKind::Invalid => {
            let goal = match finding.kind {
                FindingKind::Valid => claim.clone(),
                _ => not_of(claim),
            };
            explanation.chain = Some(chain::build(
                &mut query,
                scope.premise,
                &goal,
                finding.rules(),
            )?);
        }
        FindingKind::Satisfiable => {
            explanation.relevance = Some(relevance(
                &mut query,
                &scope,
                claim,
                &explanation.propagation,
                &request.inputs,
                request.budget,
            )?);
        }
        _ => {}
    }
    Ok(())
}

/// The chain proving one forced value of a propagation.
pub fn chain_for_value(
    session: &mut SolverSession,
    premise: &Expr,
    propagation: &Propagation,
    variable: &str,
    interruption: &dyn Interruption,
) -> Result<Option<Chain>, SolveError> {
    let Some(forced) = propagation.forced.iter().find(|f| f.variable == variable) else {
        return Ok(None);
    };
    let Some(goal) = super::values::equals(variable, &forced.value) else {
        return Ok(None);
    };
    let mut variables = premise.symbols();
    variables.push(variable);
    let mut query = session.query(&variables, interruption)?;
    let fact = query.fact(premise)?;
    chain::build(&mut query, fact, &goal, &forced.rules).map(Some)
}

/// What a request gets when the worker has no model loaded.
pub fn no_model(premise: &Expr, claim: Option<&Expr>) -> Explanation {
    Explanation {
        finding: claim.map(|claim| {
            Finding::too_complex(
                &premise.to_string(),
                &claim.to_string(),
                "no model is loaded",
            )
        }),
        propagation: Propagation::default(),
        chain: None,
        relevance: None,
        stopped: Some("no model is loaded".into()),
    }
}

/// The reply to a request submitted to the worker.
#[derive(Debug, Clone)]
pub struct ExplainReply {
    pub ticket: Ticket,
    pub explanation: Explanation,
}

/// Queues a request on the worker; the reply arrives on `reply`.
pub fn submit(
    worker: &SolverWorker,
    request: ExplainRequest,
    reply: Sender<ExplainReply>,
) -> Ticket {
    let (ticket_tx, ticket_rx) = mpsc::channel::<Ticket>();
    let ticket = worker.submit_task(Box::new(move |session, interruption| {
        let ticket = ticket_rx.recv().unwrap_or_default();
        let explanation = match session {
            Some(session) => explain(session, &request, interruption),
            None => no_model(&request.premise, request.claim.as_ref()),
        };
        let _ = reply.send(ExplainReply {
            ticket,
            explanation,
        });
    }));
    let _ = ticket_tx.send(ticket);
    ticket
}

/// Runs a request on the worker and waits for it.
pub fn run(worker: &SolverWorker, request: ExplainRequest) -> Result<Explanation, SolveError> {
    let (reply, answer) = mpsc::channel();
    submit(worker, request, reply);
    answer
        .recv()
        .map(|r| r.explanation)
        .map_err(|_| SolveError::WorkerStopped)
}

/// The chain of a VALID or INVALID finding (None for any other), on the worker.
pub fn finding_chain(
    worker: &SolverWorker,
    premise: Expr,
    claim: &Expr,
    finding: &Finding,
) -> Result<Option<Chain>, SolveError> {
    let goal = match finding.kind {
        FindingKind::Valid => claim.clone(),
        FindingKind::Invalid => not_of(claim),
        _ => return Ok(None),
    };
    let rules = finding.rules().to_vec();
    let (reply, answer) = mpsc::channel();
    worker.submit_task(Box::new(move |session, interruption| {
        let built = match session {
            Some(session) => {
                let mut variables = premise.symbols();
                variables.extend(goal.symbols());
                session
                    .query(&variables, interruption)
                    .and_then(|mut query| {
                        let fact = query.fact(&premise)?;
                        chain::build(&mut query, fact, &goal, &rules)
                    })
            }
            None => Err(SolveError::Undecided("no model is loaded".into())),
        };
        let _ = reply.send(built);
    }));
    answer
        .recv()
        .map_err(|_| SolveError::WorkerStopped)?
        .map(Some)
}
